/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function calls inside reads only (RINGTRACE_CFG_FUNC_IN_READ): how
 * many traced vfs_read calls each task is inside, for the sessions with
 * the flag. inread.c says how.
 */
#ifndef _RINGTRACE_INREAD_H
#define _RINGTRACE_INREAD_H

#include <linux/rcupdate.h>
#include <linux/types.h>

#include "vfs_read.h"

struct rt_held_calls;
struct rt_inread_table;
struct rt_session;

/* Check the module parameter at load. */
void rt_inread_init(void);

/*
 * A session with RINGTRACE_CFG_FUNC_IN_READ is enabled (process context,
 * before its function probes are registered), or disabled (after they
 * were taken away). The first get publishes the table, the last put
 * withdraws it and returns once no probe can see it. @hold: the session
 * holds calls (RINGTRACE_CFG_FUNC_HOLD): the entries get room for them.
 */
int rt_inread_get(bool hold);
void rt_inread_put(void);

/*
 * vfs_read entry and exit (preemption disabled, current is the caller):
 * enter counts the call in the caller's depth if a session with the flag
 * wants the caller; exit undoes what enter did.
 */
void __rt_inread_enter(struct rt_vfs_read_call *call);
void __rt_inread_exit(const struct rt_vfs_read_call *call);

/* Where a task's entry was found: which table, which entry (-1: none). */
struct rt_inread_ref {
	u32	gen;
	int	idx;
};

/*
 * Whether current is inside a read counted by enter: 1 yes, 0 no, -1
 * cannot say (a read could not be followed); *@ref says where its entry
 * is. Preemption disabled.
 */
int rt_inread_current(struct rt_inread_ref *ref);

/*
 * Current's held calls (func_held.h) while it is inside the followed
 * read rt_inread_current() found at *@ref, and the room an entry has
 * (*@room); NULL otherwise (another table since, or no room).
 * Preemption disabled, task context.
 */
struct rt_held_calls *rt_inread_held_ref(const struct rt_inread_ref *ref,
					 unsigned int *room);

/*
 * At the return of current's read @call, before rt_inread_exit(): its
 * entry's held calls, and whether @call is its outermost read; NULL if
 * the call was not followed or no room was made.
 */
struct rt_held_calls *rt_inread_held_exit(const struct rt_vfs_read_call *call,
					  bool *outermost);

/* Non-NULL while a session with the flag is enabled. */
extern struct rt_inread_table __rcu *rt_inread_tbl;

/* Every traced vfs_read passes here: no table, no out-of-line call. */
static __always_inline void rt_inread_enter(struct rt_vfs_read_call *call)
{
	call->inread_gen = 0;
	if (rcu_access_pointer(rt_inread_tbl))
		__rt_inread_enter(call);
}

static __always_inline void rt_inread_exit(const struct rt_vfs_read_call *call)
{
	if (call->inread_gen)
		__rt_inread_exit(call);
}

#endif /* _RINGTRACE_INREAD_H */
