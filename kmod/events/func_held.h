/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calls held until their read returns (RINGTRACE_CFG_FUNC_HOLD): a
 * session that records its functions' calls inside reads only, and only
 * for the reads at least min_latency_ns long, has the calls a task makes
 * inside a read kept in the task's entry of the reads-in-progress table
 * (inread.c) instead of written; when the task's outermost read returns
 * they are written if that read was slow enough, dropped and counted if
 * not. func_held.c says how.
 */
#ifndef _RINGTRACE_FUNC_HELD_H
#define _RINGTRACE_FUNC_HELD_H

#include <linux/types.h>

#include "inread.h"
#include "vfs_read.h"

struct rt_session;

/* One call held: what its record will say. */
struct rt_held_call {
	u64		ts;		/* when it returned */
	u64		lat_ns;
	long		ret;
	unsigned long	ip;
	u32		idx;		/* the function's, in the session's list */
	u32		cpu;		/* where it returned */
};

/*
 * A task's held calls, in its entry of the reads-in-progress table: only
 * the task writes them, in task context with preemption disabled. They
 * are one session's, named by pointer and enabled period: the pointer is
 * compared with the listed sessions', never followed, so a session gone
 * since leaves nothing that could be used after it is freed.
 */
struct rt_held_calls {
	const struct rt_session	*owner;
	u64			seq;		/* owner's enable_seq */
	u32			n;
	u32			__pad;
	struct rt_held_call	call[];		/* inread_held of them */
};

/*
 * A call of @s's function @idx (probed at @ip) by current returned @ret
 * at @now after @lat_ns, inside the read its entry found at @ref,
 * preemption disabled: true if it is held (its record comes when the
 * read returns), false if it must be written now.
 */
bool rt_func_hold(struct rt_session *s, const struct rt_inread_ref *ref,
		  u64 now, u64 lat_ns, u32 idx, unsigned long ip, long ret);

/*
 * Current's read @call returns at @now, before any of its records is
 * written and before it leaves the table: what it holds is written into
 * its session's ring, or dropped and counted for a fast outermost read.
 */
void rt_func_held_end(const struct rt_vfs_read_call *call, u64 now);

#endif /* _RINGTRACE_FUNC_HELD_H */
