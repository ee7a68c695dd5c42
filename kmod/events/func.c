// SPDX-License-Identifier: GPL-2.0
/*
 * Function-call records (RINGTRACE_EVENT_FUNC): one session's probes on a
 * function it named call these two, entry and return, with the call's
 * own data. The probes are the session's own (attach/func.c), so there
 * is no walk of the sessions: the session's enabled flag stands for its
 * place on the list, under the same protection (session/active.h): a
 * handler runs with preemption disabled, and DISABLE clears the flag,
 * waits with rt_sessions_synchronize(), and only then takes the probes
 * away and lets the session's rings stop.
 */
#include <linux/cpumask.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "emit/emit.h"
#include "func.h"
#include "inread.h"
#include "session/active.h"
#include "session/session.h"

bool rt_func_enter(struct rt_session *s, struct rt_func_call *c)
{
	RT_ASSERT_RCU_READER(rt_sessions_walk_held(),
			     "ringtrace: func entry with preemption enabled");
	/* Pairs with DISABLE's clear and rt_sessions_synchronize(). */
	if (!READ_ONCE(s->enabled) || !rt_session_wants_task(s, current))
		return false;
	/* Only inside the task's traced reads; undecided: kept, counted. */
	if (unlikely(s->flags & RINGTRACE_CFG_FUNC_IN_READ)) {
		int in = rt_inread_current();

		if (!in) {
			this_cpu_inc(s->xcounts->func_outside_read);
			return false;
		}
		if (in < 0)
			this_cpu_inc(s->xcounts->func_inread_unknown);
	}
	/* Last, so the latency leaves out our own work. */
	c->ts = ktime_get_mono_fast_ns();
	return true;
}

void rt_func_exit(struct rt_session *s, const struct rt_func_call *c,
		  u32 idx, unsigned long ip, long ret, unsigned long ret_ip)
{
	u64 now = ktime_get_mono_fast_ns();
	int cpu = smp_processor_id();
	struct ringtrace_func_record *rec;
	unsigned int nr_args;
	struct rt_stack st;
	struct rt_emit e;

	RT_ASSERT_RCU_READER(rt_sessions_walk_held(),
			     "ringtrace: func return with preemption enabled");
	/* Disabled since the entry: its rings may be stopping. */
	if (!READ_ONCE(s->enabled) || !cpumask_test_cpu(cpu, s->cpus))
		return;
	nr_args = s->funcs->args;
	e = (struct rt_emit) {
		.s		= s,
		.task		= current,
		.ts		= now,
		.cpu		= cpu,
		.slot		= rt_session_slot(s, cpu),
		.type		= RINGTRACE_RECORD_FUNC,
		.fixed		= sizeof(*rec) + nr_args * sizeof(u64),
		.stack_event	= RINGTRACE_EVENT_FUNC,
		.anchor		= ret_ip,
		.st		= &st,
	};

	BUILD_BUG_ON(sizeof(*rec) != RINGTRACE_FUNC_SIZE_VER0);
	BUILD_BUG_ON(sizeof(*rec) % RINGTRACE_RECORD_ALIGN);
	RT_EMIT_CHECK(struct ringtrace_func_record);

	rec = rt_emit_begin(&e);
	if (rec) {
		rec->func_ip = ip;
		rec->func_idx = idx;
		rec->nr_args = nr_args;
		rec->ret = ret;
		rec->lat_ns = now - c->ts;
		memcpy(rec + 1, c->args, nr_args * sizeof(u64));
	}
	rt_emit_end(&e, rec);
}
