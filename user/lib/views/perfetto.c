// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Chrome trace-event JSON for Perfetto (see perfetto.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/escape.h"
#include "ringtrace/funcs.h"
#include "ringtrace/output.h"
#include "ringtrace/perf_counters.h"
#include "ringtrace/perfetto.h"

int rt_perfetto_init(struct rt_perfetto *p, struct rt_outbuf *out)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->first = 1;
	p->named = calloc(RT_PERFETTO_SLOTS, sizeof(*p->named));
	if (!p->named)
		return -ENOMEM;
	rt_outbuf_printf(out, "[\n");
	/* The process that holds the per-CPU counter tracks and LOST marks. */
	rt_outbuf_printf(out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,"
			 "\"tid\":0,\"args\":{\"name\":\"ringtrace\"}}");
	p->first = 0;
	p->events = 1;		/* that one is an event too */
	return 0;
}

/* Separator, then the opening of an event. */
static void begin(struct rt_perfetto *p)
{
	rt_outbuf_printf(p->out, p->first ? "" : ",\n");
	p->first = 0;
	p->events++;
}

/* "123.456": microseconds with the nanoseconds kept. */
#define US_FMT		"%" PRIu64 ".%03" PRIu64
#define US(ns)		(uint64_t)(ns) / 1000, (uint64_t)(ns) % 1000

/*
 * The entry of @key in the set, added when new (*@fresh set); NULL when
 * the set is full. Thread ids are keys as they are, process ids with the
 * top bit set (pid_max is at most 2^22).
 */
static struct rt_perfetto_name *lookup(struct rt_perfetto *p, uint32_t key,
				       bool *fresh)
{
	uint32_t s = (key * 2654435761u) & (RT_PERFETTO_SLOTS - 1);

	*fresh = false;
	for (;; s = (s + 1) & (RT_PERFETTO_SLOTS - 1)) {
		if (p->named[s].key == key + 1)
			return &p->named[s];
		if (!p->named[s].key)
			break;
	}
	/* MAX_TIDS is half the slots: a free slot always ends the probe. */
	if (p->nr_named >= RT_PERFETTO_MAX_TIDS) {
		p->unnamed++;
		return NULL;
	}
	p->named[s].key = key + 1;
	p->nr_named++;
	*fresh = true;
	return &p->named[s];
}

/* Whether @n must be (re)named @comm: new, or its name changed. */
static bool renamed(struct rt_perfetto_name *n, bool fresh, const char *comm)
{
	if (!n || (!fresh && !strncmp(n->comm, comm, sizeof(n->comm))))
		return false;
	/* ":TID" says a perf sample's thread was never named: keep a name. */
	if (!fresh && comm[0] == ':')
		return false;
	/* NUL-padded, as the kernel keeps comm. */
	memset(n->comm, 0, sizeof(n->comm));
	memcpy(n->comm, comm, strnlen(comm, sizeof(n->comm)));
	return true;
}

/*
 * Names follow the records: a thread is renamed when its comm changes (a
 * child is its parent's namesake from fork to exec), a process takes the
 * name of the first of its threads seen (the first real name, when that
 * was a sample's ":TID") until its main thread is seen, then its main
 * thread's latest name. Perfetto keeps the last name given. A process's
 * name carries its cgroup when the record says: "nginx (cgroup
 * /system.slice/nginx.service)".
 */
static void name_task(struct rt_perfetto *p, const struct rt_event *ev)
{
	char comm[RINGTRACE_COMM_LEN * RT_JSON_ESCAPE_MAX + 1];
	char cg[RT_PATH_MAX * RT_JSON_ESCAPE_MAX + 16] = "";
	struct rt_perfetto_name *n;
	bool fresh;

	if (!ev->tid && !ev->pid)
		return;
	*rt_json_escape(comm, ev->comm, sizeof(ev->comm)) = '\0';
	if ((ev->kind == RT_EVENT_VFS_READ || ev->kind == RT_EVENT_LOCK ||
	     ev->kind == RT_EVENT_OFFCPU || ev->kind == RT_EVENT_FUNC) &&
	    ev->ext.cgroup) {
		memcpy(cg, " (cgroup ", 9);
		*rt_json_escape(cg + 9, ev->ext.cgroup, RT_PATH_MAX) = '\0';
		strcat(cg, ")");
	}
	n = lookup(p, ev->pid | 0x80000000u, &fresh);
	if ((fresh || ev->tid == ev->pid || (n && n->comm[0] == ':')) &&
	    renamed(n, fresh, ev->comm)) {
		begin(p);
		rt_outbuf_printf(p->out, "{\"ph\":\"M\",\"name\":\"process_name\","
				 "\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"%s%s\"}}",
				 ev->pid, ev->pid, comm, cg);
	}
	n = lookup(p, ev->tid, &fresh);
	if (renamed(n, fresh, ev->comm)) {
		begin(p);
		rt_outbuf_printf(p->out, "{\"ph\":\"M\",\"name\":\"thread_name\","
				 "\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"%s\"}}",
				 ev->pid, ev->tid, comm);
	}
}

static void vfs_read(struct rt_perfetto *p, const struct rt_event *ev)
{
	const struct rt_vfs_read_event *r = &ev->u.vfs_read;
	const char *path = rt_paths_get(p->paths, r->dev_major, r->dev_minor,
					r->ino);
	char file[RT_PATH_MAX * RT_JSON_ESCAPE_MAX + 1];
	uint64_t start = ev->ts_ns - (r->lat_ns < ev->ts_ns ? r->lat_ns : 0);

	if (path)
		*rt_json_escape(file, path, RT_PATH_MAX) = '\0';
	else
		snprintf(file, sizeof(file), "%u:%u ino %" PRIu64, r->dev_major,
			 r->dev_minor, r->ino);
	begin(p);
	rt_outbuf_printf(p->out, "{\"ph\":\"X\",\"name\":\"vfs_read\",\"cat\":\"vfs\","
			 "\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT ",\"dur\":" US_FMT
			 ",\"args\":{\"file\":\"%s\",\"count\":%" PRIu64 ",\"ret\":%"
			 PRId64 ",\"pos\":%" PRId64 ",\"cpu\":%u}}", ev->pid, ev->tid,
			 US(start), US(r->lat_ns), file, r->count, r->ret, r->pos,
			 ev->cpu);
}

static void lock(struct rt_perfetto *p, const struct rt_event *ev)
{
	const struct rt_lock_event *l = &ev->u.lock;
	char name[RINGTRACE_LOCK_NAME_LEN * RT_JSON_ESCAPE_MAX + 1];
	uint64_t held = l->hold_ns, waited = l->wait_ns;
	uint64_t acquired = ev->ts_ns - (held < ev->ts_ns ? held : 0);
	uint64_t start = acquired - (waited < acquired ? waited : 0);

	*rt_json_escape(name, l->name, sizeof(l->name)) = '\0';
	if (waited) {
		begin(p);
		rt_outbuf_printf(p->out, "{\"ph\":\"X\",\"name\":\"lock wait %s\","
				 "\"cat\":\"lock\",\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT
				 ",\"dur\":" US_FMT ",\"args\":{\"lock_id\":\"0x%" PRIx64
				 "\"}}", name, ev->pid, ev->tid, US(start), US(waited),
				 l->lock_id);
	}
	if (held) {
		begin(p);
		rt_outbuf_printf(p->out, "{\"ph\":\"X\",\"name\":\"lock hold %s\","
				 "\"cat\":\"lock\",\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT
				 ",\"dur\":" US_FMT ",\"args\":{\"lock_id\":\"0x%" PRIx64
				 "\"}}", name, ev->pid, ev->tid, US(acquired), US(held),
				 l->lock_id);
	}
}

/* ,"kstack":["0x..",..]: innermost first, as the trailer has them. */
static void stack_arg(struct rt_perfetto *p, const char *key,
		      const unsigned char *frames, uint32_t nr)
{
	if (!nr)
		return;
	rt_outbuf_printf(p->out, ",\"%s\":[", key);
	for (uint32_t i = 0; i < nr; i++)
		rt_outbuf_printf(p->out, "%s\"0x%" PRIx64 "\"", i ? "," : "",
				 rt_stack_frame(frames, i));
	rt_outbuf_printf(p->out, "]");
}

/* "blocked S" on the thread's track, from when it left. */
static void offcpu(struct rt_perfetto *p, const struct rt_event *ev)
{
	const struct rt_offcpu_event *o = &ev->u.offcpu;
	uint64_t start = ev->ts_ns - (o->offcpu_ns < ev->ts_ns ? o->offcpu_ns : 0);

	begin(p);
	rt_outbuf_printf(p->out, "{\"ph\":\"X\",\"name\":\"blocked %s\","
			 "\"cat\":\"offcpu\",\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT
			 ",\"dur\":" US_FMT ",\"args\":{\"cpu_out\":%u,\"cpu_in\":%u",
			 rt_offcpu_state_name(o->state), ev->pid, ev->tid,
			 US(start), US(o->offcpu_ns), o->cpu_out, ev->cpu);
	stack_arg(p, "kstack", ev->stack.kernel, ev->stack.nr_kernel);
	stack_arg(p, "ustack", ev->stack.user, ev->stack.nr_user);
	rt_outbuf_printf(p->out, "}}");
}

/*
 * ,"sig":10,"info":"0xffff...",..: a func record's arguments by name and
 * type where the session knew what they are (rt_output_func_args()), the
 * values --json's named_args has (an integer a number, a pointer a hex
 * string), beside the record's own keys; a name that is one of them is
 * renamed (rt_output_arg_keys(): "arg0_ret").
 */
static void named_args(struct rt_perfetto *p, const struct rt_event *ev)
{
	const struct rt_func_arg_descs *d = rt_output_func_args(ev);
	const struct rt_func_event *f = &ev->u.func;
	char keys[RT_FUNC_ARG_DESCS][RT_OUTPUT_ARG_KEY_MAX];
	char key[RT_OUTPUT_ARG_KEY_MAX * RT_JSON_ESCAPE_MAX + 1];
	char val[32];
	uint32_t nr = f->nr_args;

	if (!d)
		return;
	if (d->nr_args < nr)
		nr = d->nr_args;
	rt_output_arg_keys(d, nr, keys);
	for (uint32_t i = 0; i < nr; i++) {
		const struct rt_func_arg_desc *a = &d->arg[i];
		const char *q = rt_output_arg_is_hex(a) ? "\"" : "";

		*rt_json_escape(key, keys[i], RT_OUTPUT_ARG_KEY_MAX) = '\0';
		*rt_output_fmt_arg(val, a, f->args[i]) = '\0';
		rt_outbuf_printf(p->out, ",\"%s\":%s%s%s", key, q, val, q);
	}
}

/*
 * A call of a traced kernel function: a slice named after it on its
 * thread's track, from its entry (ts - lat) for its latency, as vfs_read;
 * a tracepoint's hit (-e tp:): an instant event there, with its arguments
 * (the registers in hex); both with the arguments by name where known.
 */
static void func(struct rt_perfetto *p, const struct rt_event *ev)
{
	const struct rt_func_event *f = &ev->u.func;
	char hex[RT_FUNC_LABEL_MAX];
	char name[RT_FUNC_LABEL_MAX * RT_JSON_ESCAPE_MAX + 1];
	uint64_t start = ev->ts_ns - (f->lat_ns < ev->ts_ns ? f->lat_ns : 0);

	*rt_json_escape(name, rt_output_func_label(f->idx, f->ip, hex),
			RT_FUNC_LABEL_MAX) = '\0';
	begin(p);
	if (rt_func_name_is_tp(name)) {
		/* A tracepoint's hit: an instant on the thread's track. */
		rt_outbuf_printf(p->out, "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"%s\","
				 "\"cat\":\"tracepoint\",\"pid\":%u,\"tid\":%u,"
				 "\"ts\":" US_FMT ",\"args\":{\"cpu\":%u,"
				 "\"args\":[", name, ev->pid, ev->tid,
				 US(ev->ts_ns), ev->cpu);
		for (uint32_t i = 0; i < f->nr_args; i++)
			rt_outbuf_printf(p->out, "%s\"0x%" PRIx64 "\"",
					 i ? "," : "", f->args[i]);
		rt_outbuf_printf(p->out, "]");
		named_args(p, ev);
		stack_arg(p, "kstack", ev->stack.kernel, ev->stack.nr_kernel);
		stack_arg(p, "ustack", ev->stack.user, ev->stack.nr_user);
		rt_outbuf_printf(p->out, "}}");
		return;
	}
	rt_outbuf_printf(p->out, "{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"func\","
			 "\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT ",\"dur\":" US_FMT
			 ",\"args\":{\"ret\":%" PRId64 ",\"cpu\":%u", name, ev->pid,
			 ev->tid, US(start), US(f->lat_ns), f->ret, ev->cpu);
	named_args(p, ev);
	stack_arg(p, "kstack", ev->stack.kernel, ev->stack.nr_kernel);
	stack_arg(p, "ustack", ev->stack.user, ev->stack.nr_user);
	rt_outbuf_printf(p->out, "}}");
}

/*
 * A counter with no value (JSON's null) gets no track, which would read
 * as zero: the first time, a metadata event names it and says why.
 */
static void no_value(struct rt_perfetto *p, const struct rt_event *ev,
		     uint32_t i)
{
	const struct rt_counters_event *c = &ev->u.counters;
	char name[RT_COUNTER_NAME_LEN * RT_JSON_ESCAPE_MAX + 1];
	uint32_t status = c->values[i].status;

	if (i >= 64 || (p->counters_said & (1ull << i)))
		return;
	p->counters_said |= 1ull << i;
	*rt_json_escape(name, c->names[i], strlen(c->names[i])) = '\0';
	begin(p);
	rt_outbuf_printf(p->out, "{\"ph\":\"M\",\"name\":\"counter_without_track\","
			 "\"pid\":%d,\"tid\":%d,\"args\":{\"counter\":\"%s\","
			 "\"reason\":\"%s\"}}",
			 ev->cpu != RT_EVENT_CPU_ANY ? 0 : c->target_pid,
			 ev->cpu != RT_EVENT_CPU_ANY ? 0 : c->target_pid, name,
			 status == RT_COUNTER_NOT_SUPPORTED ?
			 "not supported: the kernel opened it on no target" :
			 "not counted in some intervals: enabled but never "
			 "on the PMU (no point there)");
}

static void counters(struct rt_perfetto *p, const struct rt_event *ev)
{
	const struct rt_counters_event *c = &ev->u.counters;
	bool cpu_row = ev->cpu != RT_EVENT_CPU_ANY;

	for (uint32_t i = 0; i < c->nr; i++) {
		if (c->values[i].status != RT_COUNTER_OK) {
			no_value(p, ev, i);
			continue;
		}
		begin(p);
		if (cpu_row)
			rt_outbuf_printf(p->out, "{\"ph\":\"C\",\"name\":\"cpu%u %s\","
					 "\"pid\":0,\"tid\":0,\"ts\":" US_FMT
					 ",\"args\":{\"value\":%" PRIu64 "}}",
					 ev->cpu, c->names[i], US(ev->ts_ns),
					 c->values[i].value);
		else
			rt_outbuf_printf(p->out, "{\"ph\":\"C\",\"name\":\"%s\","
					 "\"pid\":%d,\"tid\":%d,\"ts\":" US_FMT
					 ",\"args\":{\"value\":%" PRIu64 "}}",
					 c->names[i], c->target_pid, c->target_pid,
					 US(ev->ts_ns), c->values[i].value);
	}
}

void rt_perfetto_note(struct rt_perfetto *p, const char *name,
		      const char *args)
{
	char esc[256 * 6 + 1];

	*rt_json_escape(esc, name, 256) = '\0';
	begin(p);
	rt_outbuf_printf(p->out, "{\"ph\":\"i\",\"s\":\"g\",\"name\":\"%s\","
			 "\"pid\":0,\"tid\":0,\"ts\":" US_FMT ",\"args\":%s}",
			 esc, US(p->last_ts), args);
}

void rt_perfetto_add(struct rt_perfetto *p, const struct rt_event *ev)
{
	if (ev->ts_ns > p->last_ts)
		p->last_ts = ev->ts_ns;
	switch (ev->kind) {
	case RT_EVENT_VFS_READ:
		name_task(p, ev);
		vfs_read(p, ev);
		break;
	case RT_EVENT_LOCK:
		name_task(p, ev);
		lock(p, ev);
		break;
	case RT_EVENT_SAMPLE:
		name_task(p, ev);
		begin(p);
		rt_outbuf_printf(p->out, "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"%s\","
				 "\"cat\":\"sample\",\"pid\":%u,\"tid\":%u,\"ts\":"
				 US_FMT ",\"args\":{\"ip\":\"0x%" PRIx64 "\"}}",
				 ev->u.sample.event ? ev->u.sample.event : "sample",
				 ev->pid, ev->tid, US(ev->ts_ns), ev->u.sample.ip);
		break;
	case RT_EVENT_OFFCPU:
		name_task(p, ev);
		offcpu(p, ev);
		break;
	case RT_EVENT_FUNC:
		name_task(p, ev);
		func(p, ev);
		break;
	case RT_EVENT_COUNTERS:
		counters(p, ev);
		break;
	case RT_EVENT_LOST:
		begin(p);
		rt_outbuf_printf(p->out, "{\"ph\":\"i\",\"s\":\"g\",\"name\":\"LOST %"
				 PRIu64 "%s\",\"pid\":0,\"tid\":0,\"ts\":" US_FMT
				 ",\"args\":{\"count\":%" PRIu64 ",\"cpu\":%u}}",
				 ev->u.lost.count, ev->u.lost.source ? " (perf)" : "",
				 US(ev->ts_ns), ev->u.lost.count, ev->cpu);
		break;
	default:
		break;
	}
}

void rt_perfetto_finish(struct rt_perfetto *p)
{
	if (p->named)
		rt_outbuf_printf(p->out, "\n]\n");
	free(p->named);
	p->named = NULL;
}
