// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Text output: one line per record, columns like `perf script`:
 *
 *             comm     pid/tid     [cpu]  secs.nsecs: event: fields
 *             bash    1234/1234    [001]  8312.123456789: vfs_read: dev=8:1 ino=123 ...
 *
 * comm is right-aligned in 16 columns, pid right-aligned in 7, tid
 * left-aligned in 7, cpu zero-padded to 3 digits, seconds right-aligned in
 * 5 with 9 digits of nanoseconds. Durations are microseconds with 3
 * decimals (exact to the ns) and an "us" suffix. Records without a task
 * (LOST, counters) print "-" for comm, pid and tid so the columns still
 * line up; a per-process counter row, bound to no CPU, prints [any].
 */
#include <stdbool.h>
#include <string.h>

#include <linux/perf_event.h>

#include "ringtrace/escape.h"
#include "ringtrace/funcs.h"
#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/perf_counters.h"

#define COMM_WIDTH	16
#define PID_WIDTH	7
#define TID_WIDTH	7
#define SECS_WIDTH	5

static char *prefix(char *p, const struct rt_event *ev, bool has_task)
{
	char comm[RINGTRACE_COMM_LEN * RT_TEXT_ESCAPE_MAX];
	size_t cols = 1, len = 1;

	if (has_task) {
		len = (size_t)(rt_text_escape(comm, ev->comm, sizeof(ev->comm),
					      &cols) - comm);
	} else {
		comm[0] = '-';
	}
	for (; cols < COMM_WIDTH; cols++)
		*p++ = ' ';
	p = rt_fmt_lit(p, comm, len);
	*p++ = ' ';
	if (has_task) {
		p = rt_fmt_u64_right(p, ev->pid, PID_WIDTH);
		*p++ = '/';
		p = rt_fmt_u64_left(p, ev->tid, TID_WIDTH);
	} else {
		p = RT_FMT_LIT(p, "      -/-      ");
	}
	p = RT_FMT_LIT(p, " [");
	if (ev->cpu == RT_EVENT_CPU_ANY)
		p = RT_FMT_LIT(p, "any");
	else
		p = ev->cpu < 1000 ? rt_fmt_u64_zero(p, ev->cpu, 3) :
				     rt_fmt_u64(p, ev->cpu);
	p = RT_FMT_LIT(p, "] ");
	p = rt_fmt_u64_right(p, ev->ts_ns / 1000000000u, SECS_WIDTH);
	*p++ = '.';
	p = rt_fmt_u64_zero(p, ev->ts_ns % 1000000000u, 9);
	return RT_FMT_LIT(p, ": ");
}

/* One frame: its name (frame_names.h) when known, else its address. */
static char *frame(char *p, const struct rt_event *ev, bool kernel,
		   uint64_t ip)
{
	const char *name = rt_output_frame_name(ev, kernel, ip);

	if (!name)
		return rt_fmt_hex(p, ip);
	return rt_fmt_lit(p, name, strlen(name));
}

static char *frames(char *p, const struct rt_event *ev, bool kernel,
		    const unsigned char *f, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		if (i)
			*p++ = ',';
		p = frame(p, ev, kernel, rt_stack_frame(f, i));
	}
	return p;
}

/*
 * " kstack=vfs_read+0x5,0x.. ustack=0x..": innermost first, as the
 * trailer has them; names where known, else hex.
 */
static char *stack_fields(char *p, const struct rt_event *ev)
{
	const struct rt_stack *st = &ev->stack;

	if (st->nr_kernel) {
		p = RT_FMT_LIT(p, " kstack=");
		p = frames(p, ev, true, st->kernel, st->nr_kernel);
	}
	if (st->nr_user) {
		p = RT_FMT_LIT(p, " ustack=");
		p = frames(p, ev, false, st->user, st->nr_user);
	}
	return p;
}

/*
 * " cgroup=/a/b" (or cgroup=#ID when no record named it) and,
 * when the reader's pid namespace numbers the task otherwise, its
 * initial-namespace ids.
 */
static char *ext_fields(char *p, const struct rt_event *ev)
{
	const struct rt_task_ext *x = &ev->ext;

	if (!x->present)
		return p;
	if (x->host_pid != ev->pid || x->host_tid != ev->tid) {
		p = RT_FMT_LIT(p, " host_pid=");
		p = rt_fmt_u64(p, x->host_pid);
		p = RT_FMT_LIT(p, " host_tid=");
		p = rt_fmt_u64(p, x->host_tid);
	}
	if (!x->cgroup) {
		p = RT_FMT_LIT(p, " cgroup=#");
		return rt_fmt_u64(p, x->cgroup_id);
	}
	p = RT_FMT_LIT(p, " cgroup=");
	return rt_text_escape(p, x->cgroup, RT_PATH_MAX, NULL);
}

static char *vfs_read_fields(char *p, const struct rt_vfs_read_event *r)
{
	p = RT_FMT_LIT(p, "vfs_read: dev=");
	p = rt_fmt_u64(p, r->dev_major);
	*p++ = ':';
	p = rt_fmt_u64(p, r->dev_minor);
	p = RT_FMT_LIT(p, " ino=");
	p = rt_fmt_u64(p, r->ino);
	p = RT_FMT_LIT(p, " pos=");
	p = rt_fmt_i64(p, r->pos);
	p = RT_FMT_LIT(p, " count=");
	p = rt_fmt_u64(p, r->count);
	p = RT_FMT_LIT(p, " ret=");
	p = rt_fmt_i64(p, r->ret);
	p = RT_FMT_LIT(p, " lat=");
	p = rt_fmt_ns_as_us(p, r->lat_ns);
	p = RT_FMT_LIT(p, "us");
	/* of which off CPU (on CPU: lat - offcpu). */
	if (r->offcpu_known) {
		p = RT_FMT_LIT(p, " offcpu=");
		p = rt_fmt_ns_as_us(p, r->offcpu_ns);
		p = RT_FMT_LIT(p, "us");
	}
	return p;
}

/* "offcpu: state=S dur=20100.123us cpu_out=1". */
static char *offcpu_fields(char *p, const struct rt_offcpu_event *o)
{
	const char *state = rt_offcpu_state_name(o->state);

	p = RT_FMT_LIT(p, "offcpu: state=");
	p = rt_fmt_lit(p, state, strlen(state));
	p = RT_FMT_LIT(p, " dur=");
	p = rt_fmt_ns_as_us(p, o->offcpu_ns);
	p = RT_FMT_LIT(p, "us cpu_out=");
	return rt_fmt_u64(p, o->cpu_out);
}

/*
 * A func record's arguments: " args=0x..,0x..", the registers, or where
 * the session knew what they are (rt_output_func_args()) " args=sig=10,
 * info=0xffff...", each by name and type; a register past the function's
 * own arguments (a session's --args is the most any of its tracepoints
 * takes) is no argument of it and is left out.
 */
static char *func_args(char *p, const struct rt_event *ev)
{
	const struct rt_func_arg_descs *d = rt_output_func_args(ev);
	const struct rt_func_event *f = &ev->u.func;
	uint32_t nr = f->nr_args;

	if (d && d->nr_args < nr)
		nr = d->nr_args;
	for (uint32_t i = 0; i < nr; i++) {
		p = i ? RT_FMT_LIT(p, ",") : RT_FMT_LIT(p, " args=");
		if (!d) {
			p = rt_fmt_hex(p, f->args[i]);
			continue;
		}
		p = rt_text_escape(p, d->arg[i].name, RT_FUNC_ARG_NAME_LEN,
				   NULL);
		*p++ = '=';
		p = rt_output_fmt_arg(p, &d->arg[i], f->args[i]);
	}
	return p;
}

/*
 * "func: name=vfs_write ret=777 lat=1.234us args=0x..,0x..", or for a
 * tracepoint "tp: name=signal:signal_generate args=sig=10,info=0x..".
 */
static char *func_fields(char *p, const struct rt_event *ev)
{
	const struct rt_func_event *f = &ev->u.func;
	const char *name = rt_output_func_name(ev);

	if (name && rt_func_name_is_tp(name)) {
		/* A hit, not a call: no return value, no latency. */
		name += sizeof(RINGTRACE_FUNC_TP_PREFIX) - 1;
		p = RT_FMT_LIT(p, "tp: name=");
		p = rt_text_escape(p, name, RINGTRACE_FUNC_NAME_LEN, NULL);
	} else {
		p = RT_FMT_LIT(p, "func: name=");
		if (name)
			p = rt_text_escape(p, name, RINGTRACE_FUNC_NAME_LEN,
					   NULL);
		else
			p = rt_fmt_hex(p, f->ip);
		p = RT_FMT_LIT(p, " ret=");
		p = rt_fmt_i64(p, f->ret);
		p = RT_FMT_LIT(p, " lat=");
		p = rt_fmt_ns_as_us(p, f->lat_ns);
		p = RT_FMT_LIT(p, "us");
	}
	return func_args(p, ev);
}

static char *lock_fields(char *p, const struct rt_lock_event *l)
{
	p = RT_FMT_LIT(p, "lock: lock=");
	p = rt_text_escape(p, l->name, sizeof(l->name), NULL);
	p = RT_FMT_LIT(p, " lock_id=");
	p = rt_fmt_hex(p, l->lock_id);
	p = RT_FMT_LIT(p, " wait=");
	p = rt_fmt_ns_as_us(p, l->wait_ns);
	p = RT_FMT_LIT(p, "us hold=");
	p = rt_fmt_ns_as_us(p, l->hold_ns);
	p = RT_FMT_LIT(p, "us contended=");
	*p++ = (l->flags & RINGTRACE_LOCK_CONTENDED) ? '1' : '0';
	p = RT_FMT_LIT(p, " kernel=");
	*p++ = (l->flags & RINGTRACE_LOCK_KERNEL) ? '1' : '0';
	return p;
}

/*
 * "sample: event=cpu-clock ip=0x.. [sym=NAME] callchain=NAME,0x..": the
 * chain's PERF_CONTEXT_* markers say whose frames follow; the ip alone is
 * the kernel's when its upper half is.
 */
static char *sample_fields(char *p, const struct rt_event *ev)
{
	const struct rt_sample_event *s = &ev->u.sample;
	bool kernel = (int64_t)s->ip < 0;
	uint32_t printed = 0;
	const char *name;

	p = RT_FMT_LIT(p, "sample: event=");
	p = rt_fmt_lit(p, s->event, strnlen(s->event, 32));
	p = RT_FMT_LIT(p, " ip=");
	p = rt_fmt_hex(p, s->ip);
	name = rt_output_frame_name(ev, kernel, s->ip);
	if (name) {
		p = RT_FMT_LIT(p, " sym=");
		p = rt_fmt_lit(p, name, strlen(name));
	}
	if (!s->frames)
		return p;
	p = RT_FMT_LIT(p, " callchain=");
	for (uint32_t i = 0; i < s->nr_frames &&
	     printed < RT_SAMPLE_MAX_PRINTED_FRAMES; i++) {
		uint64_t ip = rt_sample_frame(s, i);

		if (rt_sample_frame_is_marker(ip)) {
			kernel = ip != (uint64_t)PERF_CONTEXT_USER;
			continue;
		}
		if (printed++)
			*p++ = ',';
		p = frame(p, ev, kernel, ip);
	}
	if (!printed)
		*p++ = '-';
	return p;
}

/* "52.01": @part / @whole as a percentage with two decimals. */
static char *percent(char *p, uint64_t part, uint64_t whole)
{
	uint64_t hundredths = whole ?
		(uint64_t)((unsigned __int128)part * 10000 / whole) : 0;

	p = rt_fmt_u64(p, hundredths / 100);
	*p++ = '.';
	return rt_fmt_u64_zero(p, hundredths % 100, 2);
}

static char *counters_fields(char *p, const struct rt_counters_event *c)
{
	p = RT_FMT_LIT(p, "counters: ");
	if (c->target_pid >= 0) {
		p = RT_FMT_LIT(p, "pid=");
		p = rt_fmt_i64(p, c->target_pid);
		*p++ = ' ';
	}
	p = RT_FMT_LIT(p, "interval=");
	p = rt_fmt_ns_as_us(p, c->interval_ns);
	p = RT_FMT_LIT(p, "us");
	for (uint32_t i = 0; i < c->nr; i++) {
		const struct rt_counter_value *v = &c->values[i];

		*p++ = ' ';
		p = rt_fmt_lit(p, c->names[i],
			       strnlen(c->names[i], RT_COUNTER_NAME_LEN));
		*p++ = '=';
		if (v->status == RT_COUNTER_NOT_SUPPORTED) {
			p = RT_FMT_LIT(p, "<not supported>");
			continue;
		}
		if (v->status == RT_COUNTER_NOT_COUNTED) {
			p = RT_FMT_LIT(p, "<not counted>");
			continue;
		}
		p = rt_fmt_u64(p, v->value);
		if (v->running_ns < v->enabled_ns) {
			*p++ = '(';
			p = percent(p, v->running_ns, v->enabled_ns);
			p = RT_FMT_LIT(p, "%)");
		}
	}
	return p;
}

void rt_print_text(struct rt_outbuf *ob, const struct rt_event *ev)
{
	char *p;

	switch (ev->kind) {
	case RT_EVENT_VFS_READ:
	case RT_EVENT_LOCK:
	case RT_EVENT_OFFCPU:
	case RT_EVENT_FUNC:
	case RT_EVENT_LOST:
	case RT_EVENT_SAMPLE:
	case RT_EVENT_COUNTERS:
		break;
	default:
		return;
	}
	p = rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD);
	p = prefix(p, ev, ev->kind != RT_EVENT_LOST &&
			  ev->kind != RT_EVENT_COUNTERS);
	switch (ev->kind) {
	case RT_EVENT_VFS_READ:
		p = vfs_read_fields(p, &ev->u.vfs_read);
		p = stack_fields(p, ev);
		p = ext_fields(p, ev);
		/* Last: the rest of the line is the name, spaces and all. */
		if (ev->u.vfs_read.path) {
			p = RT_FMT_LIT(p, " file=");
			p = rt_text_escape(p, ev->u.vfs_read.path, RT_PATH_MAX,
					   NULL);
		}
		break;
	case RT_EVENT_LOCK:
		p = lock_fields(p, &ev->u.lock);
		p = stack_fields(p, ev);
		p = ext_fields(p, ev);
		break;
	case RT_EVENT_OFFCPU:
		p = offcpu_fields(p, &ev->u.offcpu);
		p = stack_fields(p, ev);
		p = ext_fields(p, ev);
		break;
	case RT_EVENT_FUNC:
		p = func_fields(p, ev);
		p = stack_fields(p, ev);
		p = ext_fields(p, ev);
		break;
	case RT_EVENT_SAMPLE:
		p = sample_fields(p, ev);
		break;
	case RT_EVENT_COUNTERS:
		p = counters_fields(p, &ev->u.counters);
		break;
	default:
		p = RT_FMT_LIT(p, "lost: count=");
		p = rt_fmt_u64(p, ev->u.lost.count);
		if (ev->u.lost.source) {
			p = RT_FMT_LIT(p, " source=");
			p = rt_fmt_lit(p, ev->u.lost.source,
				       strnlen(ev->u.lost.source, 16));
		}
		break;
	}
	*p++ = '\n';
	rt_outbuf_commit(ob, p);
}
