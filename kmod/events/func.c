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
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>

#include "emit/emit.h"
#include "func.h"
#include "func_held.h"
#include "inread.h"
#include "session/active.h"
#include "session/session.h"

/*
 * Whether @s wants a call or hit of current, preemption disabled; where
 * current's read is, in *@ref.
 */
static bool rt_func_wanted(struct rt_session *s, struct rt_inread_ref *ref)
{
	/* Pairs with DISABLE's clear and rt_sessions_synchronize(). */
	if (!READ_ONCE(s->enabled) || !rt_session_wants_task(s, current))
		return false;
	/* Only inside the task's traced reads; undecided: kept, counted. */
	if (unlikely(s->flags & RINGTRACE_CFG_FUNC_IN_READ)) {
		int in = rt_inread_current(ref);

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
	c->inread.idx = -1;
	if (!rt_func_wanted(s, &c->inread))
		return false;
	/* Last, so the latency leaves out our own work. */
	c->ts = ktime_get_mono_fast_ns();
	return true;
}

void rt_func_exit(struct rt_session *s, const struct rt_func_call *c,
		  u32 idx, unsigned long ip, long ret, unsigned long ret_ip)
{
	u64 now = ktime_get_mono_fast_ns();

	RT_ASSERT_RCU_READER(rt_sessions_walk_held(),
			     "ringtrace: func return with preemption enabled");
	/* Inside a read, held until it returns (func_held.c). */
	if ((s->flags & RINGTRACE_CFG_FUNC_HOLD) &&
	    rt_func_hold(s, &c->inread, now, now - c->ts, idx, ip, ret))
		return;
	rt_func_write(s, c->args, now, now - c->ts, idx, ip, ret, ret_ip,
		      smp_processor_id());
}

void rt_func_hit(struct rt_session *s, const u64 *args, u32 idx,
		 unsigned long ip, unsigned long anchor)
{
	struct rt_inread_ref ref;

	RT_ASSERT_RCU_READER(rt_sessions_walk_held(),
			     "ringtrace: tracepoint hit with preemption enabled");
	if (rt_func_wanted(s, &ref))
		rt_func_write(s, args, ktime_get_mono_fast_ns(), 0, idx, ip,
			      0, anchor, smp_processor_id());
}
