/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Off-CPU intervals: sched:sched_switch followed while a
 * session asks for RINGTRACE_EVENT_OFFCPU, offcpu records, and the
 * offcpu_* fields of vfs_read records. offcpu.c says how.
 */
#ifndef _RINGTRACE_OFFCPU_H
#define _RINGTRACE_OFFCPU_H

#include <linux/rcupdate.h>
#include <linux/types.h>

#include "vfs_read.h"

struct rt_offcpu_table;
struct rt_producer;

/*
 * Look for sched:sched_switch at load; without it, no offcpu event. The
 * producer (session/producer.h): the first session asking for offcpu
 * records attaches to sched_switch, the last one detaches and waits for
 * every probe to have left; its count is the switches not followed (the
 * table of tasks was full).
 */
void rt_offcpu_init(void);
extern struct rt_producer rt_offcpu_producer;

/* What a vfs_read call spent off CPU, for its record. */
struct rt_offcpu_span {
	u64	total_ns;
	u64	max_ns;
	u64	max_ts;
};

/*
 * vfs_read is detached (attach/attach.c, after the mechanism let go): a
 * call that entered before never reaches its exit, whatever the
 * mechanism, so the reads in progress its entry counted are stale. The
 * epoch this moves on lets them go. Under the attach mutex.
 */
void rt_offcpu_vfs_read_detached(void);

/*
 * vfs_read entry and exit (preemption disabled, current is the caller):
 * enter pins the caller's entry in the table and notes where its total
 * stood; exit fills @span and unpins. exit returns false when the call
 * was not followed from its entry (no session wanted it, the table was
 * full, or offcpu was detached meanwhile).
 */
void __rt_offcpu_read_enter(struct rt_vfs_read_call *call);
bool __rt_offcpu_read_exit(const struct rt_vfs_read_call *call,
			   struct rt_offcpu_span *span);

/* Non-NULL while sched_switch is followed (offcpu.c says when). */
extern struct rt_offcpu_table __rcu *rt_offcpu_tbl;

/*
 * Every traced vfs_read call passes here, and almost none is followed:
 * the common "no table" and "not followed" cases are decided inline,
 * without two out-of-line calls per call. The table pointer
 * is only tested here; the out-of-line halves read it as before.
 */
static __always_inline void rt_offcpu_read_enter(struct rt_vfs_read_call *call)
{
	call->offcpu_gen = 0;
	if (rcu_access_pointer(rt_offcpu_tbl))
		__rt_offcpu_read_enter(call);
}

static __always_inline bool rt_offcpu_read_exit(const struct rt_vfs_read_call *call,
						struct rt_offcpu_span *span)
{
	return call->offcpu_gen && __rt_offcpu_read_exit(call, span);
}

#endif /* _RINGTRACE_OFFCPU_H */
