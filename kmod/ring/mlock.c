// SPDX-License-Identifier: GPL-2.0
/*
 * Ring memory is pinned kernel memory a user maps: account it like perf's
 * rings. Each user may lock up to mlock_kb KiB per online CPU in ringtrace
 * rings (perf_event_mlock_kb's role, a module parameter writable at run
 * time); beyond that, pages are charged to the mapping process's locked
 * memory (mm->pinned_vm) against RLIMIT_MEMLOCK, and CAP_IPC_LOCK lets a
 * process go past both. Refused mappings fail with EPERM, as perf's do,
 * and the kernel log (rate limited) names the limit to raise.
 *
 * The charge is taken when a ring is allocated (its first mapping) and
 * given back when it is freed with its session; the session can outlive
 * the mapping process, so the charge holds references on the user and,
 * when pinned pages were charged, on the mm.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>

#include "mlock.h"

/* One default 4 MiB ring and its control page per CPU, per user. */
unsigned int rt_mlock_kb = 4096 + 4;
module_param_named(mlock_kb, rt_mlock_kb, uint, 0644);
MODULE_PARM_DESC(mlock_kb,
		 "Ring memory each user may lock, in KiB per online CPU, before RLIMIT_MEMLOCK applies (CAP_IPC_LOCK: no limit)");

int rt_mlock_charge(struct rt_mlock *m, unsigned long pages, int cpu)
{
	unsigned long allowance, locked, limit, extra = 0;
	struct user_struct *user = get_current_user();
	struct mm_struct *mm = current->mm;

	allowance = ((unsigned long)READ_ONCE(rt_mlock_kb) >> (PAGE_SHIFT - 10)) *
		    num_online_cpus();
	/* Add first, check after: two mappings cannot both fit the last room. */
	locked = atomic_long_add_return(pages, &user->locked_vm);
	if (locked > allowance)
		extra = min(locked - allowance, pages);
	if (extra && mm) {
		locked = atomic64_add_return(extra, &mm->pinned_vm);
		limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
		if (locked > limit && !capable(CAP_IPC_LOCK))
			goto refuse;
		mmgrab(mm);
	} else if (extra && !capable(CAP_IPC_LOCK)) {
		goto refuse;	/* no mm to charge: kernel thread */
	}
	m->user = user;
	m->mm = extra && mm ? mm : NULL;
	m->user_pages = pages;
	m->pinned_pages = m->mm ? extra : 0;
	return 0;

refuse:
	pr_info_ratelimited("pid %d (%s): a ring of %lu KiB on CPU %d exceeds the locked-memory limit: ringtrace.mlock_kb=%u KiB per CPU (%u CPUs) plus RLIMIT_MEMLOCK %lu KiB; raise either, or use CAP_IPC_LOCK\n",
			    task_tgid_vnr(current), current->comm,
			    pages << (PAGE_SHIFT - 10), cpu,
			    READ_ONCE(rt_mlock_kb), num_online_cpus(),
			    rlimit(RLIMIT_MEMLOCK) >> 10);
	if (mm && extra)
		atomic64_sub(extra, &mm->pinned_vm);
	atomic_long_sub(pages, &user->locked_vm);
	free_uid(user);
	return -EPERM;
}

void rt_mlock_uncharge(struct rt_mlock *m)
{
	if (!m->user)
		return;
	if (m->mm) {
		atomic64_sub(m->pinned_pages, &m->mm->pinned_vm);
		mmdrop(m->mm);
	}
	atomic_long_sub(m->user_pages, &m->user->locked_vm);
	free_uid(m->user);
	m->user = NULL;
	m->mm = NULL;
}
