// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * JSON output: one object per line, keys in a fixed order.
 *
 * vfs_read: type ts_ns cpu pid tid comm dev ino pos count ret lat_ns
 *           [offcpu_ns offcpu_max_ns offcpu_max_ts] [path]
 *           [host_pid host_tid cgroup_id [cgroup]] [kstack [kstack_sym]]
 *           [ustack [ustack_sym]]
 * offcpu:   type ts_ns cpu pid tid comm offcpu_ns state cpu_out
 *           [host_pid host_tid cgroup_id [cgroup]] [kstack [kstack_sym]]
 *           [ustack [ustack_sym]]
 * lock:     type ts_ns cpu pid tid comm lock lock_id wait_ns hold_ns contended
 *           kernel hashed [host_pid host_tid cgroup_id [cgroup]]
 *           [kstack [kstack_sym]] [ustack [ustack_sym]]
 * lost:     type ts_ns cpu count [source]
 * sample:   type ts_ns cpu pid tid comm event ip [sym] [callchain
 *           [callchain_sym]]
 * counters: type ts_ns cpu [pid] interval_ns values [running_pct]
 *
 * Numbers are decimal integers (pos and ret may be negative); dev is the
 * string "MAJOR:MINOR"; contended, kernel and hashed are booleans (the
 * lock record's flags); state is "R", "S", "D" or "other"; addresses (ip,
 * callchain, kstack, ustack) and lock_id are "0x..."
 * strings, exact where a double would round them (a hashed lock_id is
 * above 2^53 and jq would print another lock's id). A counters
 * row of a process has cpu -1. Strings are escaped as escape.h describes.
 * sym and the *_sym arrays name frames (frame_names.h: e.g.
 * "vfs_read+0x5"), null where nothing does; they are there only when
 * names are on and one frame at least was named.
 */
#include <string.h>

#include <linux/perf_event.h>

#include "ringtrace/escape.h"
#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/perf_counters.h"

static char *common(char *p, const char *type, size_t type_len,
		    const struct rt_event *ev)
{
	p = RT_FMT_LIT(p, "{\"type\":\"");
	p = rt_fmt_lit(p, type, type_len);
	p = RT_FMT_LIT(p, "\",\"ts_ns\":");
	p = rt_fmt_u64(p, ev->ts_ns);
	p = RT_FMT_LIT(p, ",\"cpu\":");
	if (ev->cpu == RT_EVENT_CPU_ANY)
		return RT_FMT_LIT(p, "-1");
	return rt_fmt_u64(p, ev->cpu);
}

static char *task(char *p, const struct rt_event *ev)
{
	p = RT_FMT_LIT(p, ",\"pid\":");
	p = rt_fmt_u64(p, ev->pid);
	p = RT_FMT_LIT(p, ",\"tid\":");
	p = rt_fmt_u64(p, ev->tid);
	p = RT_FMT_LIT(p, ",\"comm\":\"");
	p = rt_json_escape(p, ev->comm, sizeof(ev->comm));
	*p++ = '"';
	return p;
}

/*
 * ,"host_pid":..,"host_tid":..,"cgroup_id":..,"cgroup":"/a/b"
 * (the path when a record named it).
 */
static char *task_ext(char *p, const struct rt_task_ext *x)
{
	if (!x->present)
		return p;
	p = RT_FMT_LIT(p, ",\"host_pid\":");
	p = rt_fmt_u64(p, x->host_pid);
	p = RT_FMT_LIT(p, ",\"host_tid\":");
	p = rt_fmt_u64(p, x->host_tid);
	p = RT_FMT_LIT(p, ",\"cgroup_id\":");
	p = rt_fmt_u64(p, x->cgroup_id);
	if (!x->cgroup)
		return p;
	p = RT_FMT_LIT(p, ",\"cgroup\":\"");
	p = rt_json_escape(p, x->cgroup, RT_PATH_MAX);
	*p++ = '"';
	return p;
}

static char *hex_string(char *p, uint64_t v)
{
	*p++ = '"';
	p = rt_fmt_hex(p, v);
	*p++ = '"';
	return p;
}

static char *boolean(char *p, uint32_t set)
{
	if (set)
		return RT_FMT_LIT(p, "true");
	return RT_FMT_LIT(p, "false");
}

static char *vfs_read(char *p, const struct rt_event *ev)
{
	const struct rt_vfs_read_event *r = &ev->u.vfs_read;

	p = common(p, "vfs_read", 8, ev);
	p = task(p, ev);
	p = RT_FMT_LIT(p, ",\"dev\":\"");
	p = rt_fmt_u64(p, r->dev_major);
	*p++ = ':';
	p = rt_fmt_u64(p, r->dev_minor);
	p = RT_FMT_LIT(p, "\",\"ino\":");
	p = rt_fmt_u64(p, r->ino);
	p = RT_FMT_LIT(p, ",\"pos\":");
	p = rt_fmt_i64(p, r->pos);
	p = RT_FMT_LIT(p, ",\"count\":");
	p = rt_fmt_u64(p, r->count);
	p = RT_FMT_LIT(p, ",\"ret\":");
	p = rt_fmt_i64(p, r->ret);
	p = RT_FMT_LIT(p, ",\"lat_ns\":");
	p = rt_fmt_u64(p, r->lat_ns);
	/* measured only in sessions that asked for offcpu. */
	if (r->offcpu_known) {
		p = RT_FMT_LIT(p, ",\"offcpu_ns\":");
		p = rt_fmt_u64(p, r->offcpu_ns);
		p = RT_FMT_LIT(p, ",\"offcpu_max_ns\":");
		p = rt_fmt_u64(p, r->offcpu_max_ns);
		p = RT_FMT_LIT(p, ",\"offcpu_max_ts\":");
		p = rt_fmt_u64(p, r->offcpu_max_ts);
	}
	if (!r->path)
		return p;
	p = RT_FMT_LIT(p, ",\"path\":\"");
	p = rt_json_escape(p, r->path, RT_PATH_MAX);
	*p++ = '"';
	return p;
}

/* "NAME" or null: a frame's name, the array entry beside its address. */
static char *name_entry(char *p, const char *name, bool *any)
{
	if (!name)
		return RT_FMT_LIT(p, "null");
	*any = true;
	/* Names hold no quote, backslash or control byte (frame_names.h). */
	*p++ = '"';
	p = rt_fmt_lit(p, name, strlen(name));
	*p++ = '"';
	return p;
}

/*
 * ,"kstack":["0x.."],"kstack_sym":["vfs_read+0x5",null]: innermost first;
 * absent when empty. The names are a parallel array so that
 * readers of the addresses see them unchanged; absent when none is known.
 */
static char *frames(char *p, const char *key, size_t key_len,
		    const char *sym_key, size_t sym_key_len,
		    const struct rt_event *ev, bool kernel,
		    const unsigned char *f, uint32_t nr)
{
	char *before;
	bool any = false;

	if (!nr)
		return p;
	p = rt_fmt_lit(p, key, key_len);
	p = rt_fmt_stack_frames(p, f, nr, '"');
	*p++ = ']';
	if (!rt_output_names_on())
		return p;
	before = p;
	p = rt_fmt_lit(p, sym_key, sym_key_len);
	for (uint32_t i = 0; i < nr; i++) {
		if (i)
			*p++ = ',';
		p = name_entry(p, rt_output_frame_name(ev, kernel,
						       rt_stack_frame(f, i)),
			       &any);
	}
	*p++ = ']';
	return any ? p : before;
}

static char *stack(char *p, const struct rt_event *ev)
{
	const struct rt_stack *st = &ev->stack;

	p = frames(p, ",\"kstack\":[", 11, ",\"kstack_sym\":[", 15, ev, true,
		   st->kernel, st->nr_kernel);
	return frames(p, ",\"ustack\":[", 11, ",\"ustack_sym\":[", 15, ev,
		      false, st->user, st->nr_user);
}

static char *lock(char *p, const struct rt_event *ev)
{
	const struct rt_lock_event *l = &ev->u.lock;

	p = common(p, "lock", 4, ev);
	p = task(p, ev);
	p = RT_FMT_LIT(p, ",\"lock\":\"");
	p = rt_json_escape(p, l->name, sizeof(l->name));
	p = RT_FMT_LIT(p, "\",\"lock_id\":");
	p = hex_string(p, l->lock_id);
	p = RT_FMT_LIT(p, ",\"wait_ns\":");
	p = rt_fmt_u64(p, l->wait_ns);
	p = RT_FMT_LIT(p, ",\"hold_ns\":");
	p = rt_fmt_u64(p, l->hold_ns);
	p = RT_FMT_LIT(p, ",\"contended\":");
	p = boolean(p, l->flags & RINGTRACE_LOCK_CONTENDED);
	p = RT_FMT_LIT(p, ",\"kernel\":");
	p = boolean(p, l->flags & RINGTRACE_LOCK_KERNEL);
	p = RT_FMT_LIT(p, ",\"hashed\":");
	return boolean(p, l->flags & RINGTRACE_LOCK_ID_HASHED);
}

static char *offcpu(char *p, const struct rt_event *ev)
{
	const struct rt_offcpu_event *o = &ev->u.offcpu;
	const char *state = rt_offcpu_state_name(o->state);

	p = common(p, "offcpu", 6, ev);
	p = task(p, ev);
	p = RT_FMT_LIT(p, ",\"offcpu_ns\":");
	p = rt_fmt_u64(p, o->offcpu_ns);
	p = RT_FMT_LIT(p, ",\"state\":\"");
	p = rt_fmt_lit(p, state, strlen(state));
	p = RT_FMT_LIT(p, "\",\"cpu_out\":");
	return rt_fmt_u64(p, o->cpu_out);
}

/*
 * Beside "args" (the registers, kept as they are): where the session
 * knew what they are (rt_output_func_args()), "named_args", an object of
 * the function's own arguments by name, as the text line prints them:
 * an integer a number (cut to its size, signed ones sign-extended), a
 * pointer a hex string. Absent where not known.
 */
static char *named_args(char *p, const struct rt_event *ev)
{
	const struct rt_func_arg_descs *d = rt_output_func_args(ev);
	const struct rt_func_event *f = &ev->u.func;
	uint32_t nr = f->nr_args;

	if (!d)
		return p;
	if (d->nr_args < nr)
		nr = d->nr_args;
	p = RT_FMT_LIT(p, ",\"named_args\":{");
	for (uint32_t i = 0; i < nr; i++) {
		const struct rt_func_arg_desc *a = &d->arg[i];

		if (i)
			*p++ = ',';
		*p++ = '"';
		p = rt_json_escape(p, a->name, RT_FUNC_ARG_NAME_LEN);
		p = RT_FMT_LIT(p, "\":");
		if (rt_output_arg_is_hex(a))
			*p++ = '"';
		p = rt_output_fmt_arg(p, a, f->args[i]);
		if (rt_output_arg_is_hex(a))
			*p++ = '"';
	}
	*p++ = '}';
	return p;
}

/* A traced kernel function's call: its name, or its address unnamed. */
static char *func(char *p, const struct rt_event *ev)
{
	const struct rt_func_event *f = &ev->u.func;
	const char *name = rt_output_func_name(ev);

	p = common(p, "func", 4, ev);
	p = task(p, ev);
	if (name) {
		p = RT_FMT_LIT(p, ",\"func\":\"");
		p = rt_json_escape(p, name, RINGTRACE_FUNC_NAME_LEN);
		*p++ = '"';
	}
	p = RT_FMT_LIT(p, ",\"func_ip\":\"");
	p = rt_fmt_hex(p, f->ip);
	p = RT_FMT_LIT(p, "\",\"ret\":");
	p = rt_fmt_i64(p, f->ret);
	p = RT_FMT_LIT(p, ",\"lat_ns\":");
	p = rt_fmt_u64(p, f->lat_ns);
	p = RT_FMT_LIT(p, ",\"args\":[");
	for (uint32_t i = 0; i < f->nr_args; i++) {
		if (i)
			*p++ = ',';
		*p++ = '"';
		p = rt_fmt_hex(p, f->args[i]);
		*p++ = '"';
	}
	*p++ = ']';
	return named_args(p, ev);
}

static char *lost(char *p, const struct rt_event *ev)
{
	p = common(p, "lost", 4, ev);
	p = RT_FMT_LIT(p, ",\"count\":");
	p = rt_fmt_u64(p, ev->u.lost.count);
	if (!ev->u.lost.source)
		return p;
	p = RT_FMT_LIT(p, ",\"source\":\"");
	p = rt_json_escape(p, ev->u.lost.source, 16);
	*p++ = '"';
	return p;
}


/* ,"callchain_sym":[..]: the chain's names, markers skipped as printed. */
static char *chain_names(char *p, const struct rt_event *ev)
{
	const struct rt_sample_event *s = &ev->u.sample;
	bool kernel = (int64_t)s->ip < 0, any = false;
	uint32_t printed = 0;
	char *before = p;

	p = RT_FMT_LIT(p, ",\"callchain_sym\":[");
	for (uint32_t i = 0; i < s->nr_frames &&
	     printed < RT_SAMPLE_MAX_PRINTED_FRAMES; i++) {
		uint64_t ip = rt_sample_frame(s, i);

		if (rt_sample_frame_is_marker(ip)) {
			kernel = ip != (uint64_t)PERF_CONTEXT_USER;
			continue;
		}
		if (printed++)
			*p++ = ',';
		p = name_entry(p, rt_output_frame_name(ev, kernel, ip), &any);
	}
	*p++ = ']';
	return any ? p : before;
}

static char *sample(char *p, const struct rt_event *ev)
{
	const struct rt_sample_event *s = &ev->u.sample;
	uint32_t printed = 0, i = 0;
	const char *name;
	uint64_t ip;

	p = common(p, "sample", 6, ev);
	p = task(p, ev);
	p = RT_FMT_LIT(p, ",\"event\":\"");
	p = rt_json_escape(p, s->event, 32);
	p = RT_FMT_LIT(p, "\",\"ip\":");
	p = hex_string(p, s->ip);
	name = rt_output_frame_name(ev, (int64_t)s->ip < 0, s->ip);
	if (name) {
		bool any;

		p = RT_FMT_LIT(p, ",\"sym\":");
		p = name_entry(p, name, &any);
	}
	if (!s->frames)
		return p;
	p = RT_FMT_LIT(p, ",\"callchain\":[");
	while (printed < RT_SAMPLE_MAX_PRINTED_FRAMES &&
	       rt_sample_next_frame(s, &i, &ip)) {
		if (printed++)
			*p++ = ',';
		p = hex_string(p, ip);
	}
	*p++ = ']';
	if (rt_output_names_on())
		p = chain_names(p, ev);
	return p;
}

static char *counter_name(char *p, const char *name)
{
	*p++ = '"';
	p = rt_json_escape(p, name, RT_COUNTER_NAME_LEN);
	*p++ = '"';
	*p++ = ':';
	return p;
}

static char *counters(char *p, const struct rt_event *ev)
{
	const struct rt_counters_event *c = &ev->u.counters;
	bool multiplexed = false;

	p = common(p, "counters", 8, ev);
	if (c->target_pid >= 0) {
		p = RT_FMT_LIT(p, ",\"pid\":");
		p = rt_fmt_i64(p, c->target_pid);
	}
	p = RT_FMT_LIT(p, ",\"interval_ns\":");
	p = rt_fmt_u64(p, c->interval_ns);
	p = RT_FMT_LIT(p, ",\"values\":{");
	for (uint32_t i = 0; i < c->nr; i++) {
		const struct rt_counter_value *v = &c->values[i];

		if (i)
			*p++ = ',';
		p = counter_name(p, c->names[i]);
		if (v->status != RT_COUNTER_OK) {
			p = RT_FMT_LIT(p, "null");
			continue;
		}
		p = rt_fmt_u64(p, v->value);
		multiplexed |= v->running_ns < v->enabled_ns;
	}
	*p++ = '}';
	if (!multiplexed)
		return p;
	/* Only counters the kernel multiplexed: percent of the time counted. */
	p = RT_FMT_LIT(p, ",\"running_pct\":{");
	for (uint32_t i = 0, n = 0; i < c->nr; i++) {
		const struct rt_counter_value *v = &c->values[i];
		uint64_t hundredths;

		if (v->status != RT_COUNTER_OK || v->running_ns >= v->enabled_ns)
			continue;
		if (n++)
			*p++ = ',';
		p = counter_name(p, c->names[i]);
		hundredths = (uint64_t)((unsigned __int128)v->running_ns *
					10000 / v->enabled_ns);
		p = rt_fmt_u64(p, hundredths / 100);
		*p++ = '.';
		p = rt_fmt_u64_zero(p, hundredths % 100, 2);
	}
	*p++ = '}';
	return p;
}

void rt_print_json(struct rt_outbuf *ob, const struct rt_event *ev)
{
	char *p;

	switch (ev->kind) {
	case RT_EVENT_VFS_READ:
		p = vfs_read(rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD), ev);
		p = task_ext(p, &ev->ext);
		p = stack(p, ev);
		break;
	case RT_EVENT_LOCK:
		p = lock(rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD), ev);
		p = task_ext(p, &ev->ext);
		p = stack(p, ev);
		break;
	case RT_EVENT_OFFCPU:
		p = offcpu(rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD), ev);
		p = task_ext(p, &ev->ext);
		p = stack(p, ev);
		break;
	case RT_EVENT_FUNC:
		p = func(rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD), ev);
		p = task_ext(p, &ev->ext);
		p = stack(p, ev);
		break;
	case RT_EVENT_LOST:
		p = lost(rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD), ev);
		break;
	case RT_EVENT_SAMPLE:
		p = sample(rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD), ev);
		break;
	case RT_EVENT_COUNTERS:
		p = counters(rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD), ev);
		break;
	default:
		return;
	}
	*p++ = '}';
	*p++ = '\n';
	rt_outbuf_commit(ob, p);
}
