// SPDX-License-Identifier: GPL-2.0
/*
 * Function-call records (RINGTRACE_RECORD_FUNC): one call of a function a
 * session named, or one hit of its tracepoint, written into the session's
 * ring for current. The probes write one at a call's return
 * (events/func.c); the calls a task made inside a read and the module
 * held are written here too, one by one, when the read returns
 * (events/func_held.c).
 */
#include <linux/cpumask.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "emit.h"
#include "session/active.h"
#include "session/session.h"

void rt_func_write(struct rt_session *s, const u64 *args, u64 ts,
		   u64 lat_ns, u32 idx, unsigned long ip, long ret,
		   unsigned long anchor, int at_cpu)
{
	int cpu = smp_processor_id();
	struct ringtrace_func_record *rec;
	unsigned int nr_args;
	struct rt_stack st;
	struct rt_emit e;

	/* Disabled since the entry: its rings may be stopping. */
	if (!READ_ONCE(s->enabled) || !cpumask_test_cpu(cpu, s->cpus))
		return;
	nr_args = args ? s->funcs->args : 0;
	e = (struct rt_emit) {
		.s		= s,
		.task		= current,
		.ts		= ts,
		.cpu		= cpu,
		.slot		= rt_session_slot(s, cpu),
		.type		= RINGTRACE_RECORD_FUNC,
		.fixed		= sizeof(*rec) + nr_args * sizeof(u64),
		.stack_event	= RINGTRACE_EVENT_FUNC,
		.anchor		= anchor,
		.st		= &st,
	};

	BUILD_BUG_ON(sizeof(*rec) != RINGTRACE_FUNC_SIZE_VER0);
	BUILD_BUG_ON(sizeof(*rec) % RINGTRACE_RECORD_ALIGN);
	RT_EMIT_CHECK(struct ringtrace_func_record);

	rec = rt_emit_begin(&e);
	if (rec) {
		/* A held call says where it returned, not where it is written. */
		rec->task.cpu = at_cpu;
		rec->func_ip = ip;
		rec->func_idx = idx;
		rec->nr_args = nr_args;
		rec->ret = ret;
		rec->lat_ns = lat_ns;
		if (nr_args)
			memcpy(rec + 1, args, nr_args * sizeof(u64));
	}
	rt_emit_end(&e, rec);
}
