// SPDX-License-Identifier: GPL-2.0
/*
 * Function-call records (RINGTRACE_EVENT_FUNC): one session's probes on a
 * function it named call these two, entry and return, with the call's
 * own data; a tracepoint it named calls rt_func_hit() when it fires. The
 * probes are the session's own (attach/func.c), so there is no walk of
 * the sessions: the session's enabled flag stands for its place on the
 * list, under the same protection (session/active.h): a handler runs
 * with preemption disabled, and DISABLE clears the flag, waits with
 * rt_sessions_synchronize(), and only then takes the probes away and
 * lets the session's rings stop.
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

/* Whether @s wants a call or hit of current, preemption disabled. */
static bool rt_func_wanted(struct rt_session *s)
{
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
	return true;
}

bool rt_func_enter(struct rt_session *s, struct rt_func_call *c)
{
	RT_ASSERT_RCU_READER(rt_sessions_walk_held(),
			     "ringtrace: func entry with preemption enabled");
	if (!rt_func_wanted(s))
		return false;
	/* Last, so the latency leaves out our own work. */
	c->ts = ktime_get_mono_fast_ns();
	return true;
}

/* One func record of @s: a call that took @lat_ns, or a hit (0). */
static void rt_func_record(struct rt_session *s, const u64 *args, u64 now,
			   u64 lat_ns, u32 idx, unsigned long ip, long ret,
			   unsigned long anchor)
{
	int cpu = smp_processor_id();
	struct ringtrace_func_record *rec;
	unsigned int nr_args;
	struct rt_stack st;
	struct rt_emit e;

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
		.anchor		= anchor,
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
		rec->lat_ns = lat_ns;
		memcpy(rec + 1, args, nr_args * sizeof(u64));
	}
	rt_emit_end(&e, rec);
}

void rt_func_exit(struct rt_session *s, const struct rt_func_call *c,
		  u32 idx, unsigned long ip, long ret, unsigned long ret_ip)
{
	u64 now = ktime_get_mono_fast_ns();

	RT_ASSERT_RCU_READER(rt_sessions_walk_held(),
			     "ringtrace: func return with preemption enabled");
	rt_func_record(s, c->args, now, now - c->ts, idx, ip, ret, ret_ip);
}

void rt_func_hit(struct rt_session *s, const u64 *args, u32 idx,
		 unsigned long ip, unsigned long anchor)
{
	RT_ASSERT_RCU_READER(rt_sessions_walk_held(),
			     "ringtrace: tracepoint hit with preemption enabled");
	if (rt_func_wanted(s))
		rt_func_record(s, args, ktime_get_mono_fast_ns(), 0, idx, ip,
			       0, anchor);
}
