// SPDX-License-Identifier: GPL-2.0
/*
 * Calls held until their read returns (RINGTRACE_CFG_FUNC_HOLD).
 *
 * Why: `ringtrace-cat --graph vfs_read --min-latency 1ms` wants the
 * callees of the slow reads only. The read's latency is known only when
 * it returns, after its callees; without holding them the module writes
 * every callee and the reader drops those of the fast reads, so every
 * read costs its callees' records. Held, a fast read's callees cost a
 * few stores each and no record.
 *
 * Where: the task's entry of the reads-in-progress table (inread.c),
 * which exists exactly while the task is inside a followed read, belongs
 * to that task, and lives until its outermost read returns. Only the task
 * writes it, from its own calls' return handlers (in task context: a
 * call in interrupt context is written at once, so nothing nests on the
 * entry) and from its reads' returns, all with preemption disabled.
 *
 * Which session: the first one with the flag to hold a call in this read
 * owns the entry's calls until they are written or dropped; another
 * session's calls are written at once meanwhile. The owner is compared by
 * pointer and enabled period (enable_seq, unique per ENABLE) against the
 * listed sessions when the read returns: a session disabled since, or
 * freed and its memory reused, matches none, and its calls are dropped
 * with it (as a call in flight at DISABLE is, attach/func.c).
 *
 * When: the outermost read's return writes them if that read took at
 * least the owner's min_latency_ns, and drops them into func_fast_read
 * otherwise. A nested read's return writes them (some may be the outer
 * read's), as does a call that finds the room (inread_held) full.
 * Written late, each keeps the time and CPU of its return: a ring then
 * holds them after records stamped later (Documentation/abi.rst).
 */
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/smp.h>

#include "emit/emit.h"
#include "func_held.h"
#include "inread.h"
#include "session/active.h"
#include "session/session.h"

/* @h's calls into @s's ring, in the order they returned. */
static void rt_func_held_write(struct rt_session *s, struct rt_held_calls *h)
{
	u32 i;

	for (i = 0; i < h->n; i++) {
		const struct rt_held_call *c = &h->call[i];

		rt_func_write(s, NULL, c->ts, c->lat_ns, c->idx, c->ip, c->ret,
			      0, c->cpu);
	}
	h->n = 0;
}

bool rt_func_hold(struct rt_session *s, const struct rt_inread_ref *ref,
		  u64 now, u64 lat_ns, u32 idx, unsigned long ip, long ret)
{
	struct rt_held_calls *h;
	struct rt_held_call *c;
	unsigned int room;

	/* Only the task's own calls touch its entry: none nests on it. */
	if (!in_task())
		return false;
	/* Not on this CPU's ring: written now, that is, dropped as ever. */
	if (!cpumask_test_cpu(smp_processor_id(), s->cpus))
		return false;
	/* Arguments and stacks are not kept: such a call is written now. */
	if (s->funcs->args || (s->stack_events & RINGTRACE_EVENT_FUNC))
		return false;
	h = rt_inread_held_ref(ref, &room);
	if (!h)
		return false;	/* not followed: func_inread_unknown's */
	if (h->n && (h->owner != s || h->seq != s->enable_seq)) {
		if (h->owner != s)
			return false;	/* another session's: ours go now */
		/* Ours from an earlier enabled period: gone with it. */
		h->n = 0;
	}
	if (h->n == room)
		rt_func_held_write(s, h);
	if (!h->n) {
		h->owner = s;
		h->seq = s->enable_seq;
	}
	c = &h->call[h->n++];
	c->ts = now;
	c->lat_ns = lat_ns;
	c->ret = ret;
	c->ip = ip;
	c->idx = idx;
	c->cpu = smp_processor_id();
	return true;
}

void rt_func_held_end(const struct rt_vfs_read_call *call, u64 now)
{
	struct rt_session *s, *owner = NULL;
	struct rt_held_calls *h;
	bool outermost;

	h = rt_inread_held_exit(call, &outermost);
	if (!h || !h->n)
		return;
	/* Preemption is disabled: the RCU section for the walk. */
	rt_for_each_active_session(s) {
		if (s == h->owner && s->enable_seq == h->seq) {
			owner = s;
			break;
		}
	}
	if (!owner) {
		h->n = 0;	/* its session is gone: its calls with it */
	} else if (outermost && now - call->ts < owner->min_latency_ns) {
		this_cpu_add(owner->xcounts->func_fast_read, h->n);
		h->n = 0;
	} else {
		rt_func_held_write(owner, h);
	}
}
