/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ring memory is locked memory: accounted the way perf accounts its mmap
 * rings (kernel/events/core.c, perf_mmap()), see mlock.c.
 */
#ifndef _RINGTRACE_MLOCK_H
#define _RINGTRACE_MLOCK_H

#include <linux/types.h>

struct user_struct;
struct mm_struct;

/* What one ring was charged, to whom: given back when it is freed. */
struct rt_mlock {
	struct user_struct	*user;		/* reference held */
	struct mm_struct	*mm;		/* mmgrab()ed, if pinned */
	unsigned long		user_pages;	/* on user->locked_vm */
	unsigned long		pinned_pages;	/* on mm->pinned_vm */
};

/* Per-user allowance, KiB per online CPU (module parameter mlock_kb). */
extern unsigned int rt_mlock_kb;

int rt_mlock_charge(struct rt_mlock *m, unsigned long pages, int cpu);
void rt_mlock_uncharge(struct rt_mlock *m);

#endif /* _RINGTRACE_MLOCK_H */
