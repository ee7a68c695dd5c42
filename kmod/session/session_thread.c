// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread sessions (RINGTRACE_CFG_PER_THREAD): one ring per
 * selected thread instead of one per CPU. This file turns the config's
 * thread ids into task references, installs them in the session, checks
 * which ring slots exist and keeps each thread ring's control page saying
 * whose it is and whether the thread is still alive.
 *
 * Writers: a thread's ring is written only by the thread itself, from task
 * context, with preemption disabled for the whole record (the probes run
 * that way), on whatever CPU it is running. It migrates only between two
 * records, and a migration orders everything the thread wrote on the old
 * CPU before what it writes on the new one (the scheduler's rq locks and
 * the context switch are full barriers for the migrating task), so the
 * CPU-local operations of ring.c see a consistent ring and there is still
 * one writer at a time. Interrupts are kept out (rt_session_thread_slot()):
 * an IRQ, softirq or NMI that fires while the thread runs is not the
 * thread's and its events are counted in thread_not_task, not written, so
 * a record in the ring never interleaves with another context's.
 */
#include <linux/cpumask.h>
#include <linux/nospec.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "lib/compat.h"
#include "session.h"

/* rings[] entries a session allocates: enough for either mode. */
unsigned int rt_session_capacity(void)
{
	return max_t(unsigned int, nr_cpu_ids, RINGTRACE_MAX_THREADS);
}

void rt_threads_release(struct rt_threads *t)
{
	unsigned int i;

	/* Process context (ioctl, last close or unmap): the last put may sleep. */
	might_sleep();
	for (i = 0; t->tasks && i < t->nr; i++)
		put_task_struct(t->tasks[i]);
	kfree(t->tasks);
	kfree(t->tids);
	t->tasks = NULL;
	t->tids = NULL;
	t->nr = 0;
}

/*
 * Copy and resolve the config's thread ids (the caller holds no lock:
 * copy_from_user() may fault). Every id must name a live thread in the
 * caller's pid namespace (ESRCH) and appear once (EINVAL).
 */
int rt_threads_from_user(const struct ringtrace_config *cfg,
			 struct rt_threads *t)
{
	struct task_struct *task;
	unsigned int i, j;
	s32 *ids;
	int err = 0;

	memset(t, 0, sizeof(*t));
	if (!(cfg->flags & RINGTRACE_CFG_PER_THREAD))
		return 0;
	ids = memdup_user(u64_to_user_ptr(cfg->tids_ptr),
			  (size_t)cfg->nr_tids * sizeof(*ids));
	if (IS_ERR(ids))
		return PTR_ERR(ids);
	t->tasks = kcalloc(cfg->nr_tids, sizeof(*t->tasks), GFP_KERNEL_ACCOUNT);
	t->tids = kcalloc(cfg->nr_tids, sizeof(*t->tids), GFP_KERNEL_ACCOUNT);
	if (!t->tasks || !t->tids) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < cfg->nr_tids; i++) {
		if (ids[i] <= 0) {
			err = -EINVAL;
			goto out;
		}
		for (j = 0; j < i; j++)
			if (ids[j] == ids[i]) {
				err = -EINVAL;
				goto out;
			}
		rcu_read_lock();
		task = pid_task(find_vpid(ids[i]), PIDTYPE_PID);
		if (task)
			t->tasks[i] = get_task_struct(task);
		rcu_read_unlock();
		if (!t->tasks[i]) {
			err = -ESRCH;
			goto out;
		}
		t->tids[i] = ids[i];
		t->nr = i + 1;
	}
out:
	kfree(ids);
	if (err)
		rt_threads_release(t);
	return err;
}

/*
 * Under s->lock, session disabled. Rings already mapped belong to one mode
 * and one thread list: changing either is EBUSY then.
 */
int rt_session_threads_check(struct rt_session *s, const struct rt_threads *t)
{
	unsigned int i;

	lockdep_assert_held(&s->lock);
	if (!t->nr && !s->threads.nr)
		return 0;
	for (i = 0; i < s->nr_slots; i++)
		if (s->rings[i])
			return -EBUSY;
	return 0;
}

/*
 * After rt_session_threads_check() said yes: swap @t into the session; the
 * old selection comes back in @t for the caller to release.
 */
void rt_session_threads_install(struct rt_session *s, struct rt_threads *t)
{
	struct rt_threads old = s->threads;

	lockdep_assert_held(&s->lock);
	s->threads = *t;
	*t = old;
	/* Read locklessly by poll and the flush timer. */
	WRITE_ONCE(s->nr_slots, s->threads.nr ?: nr_cpu_ids);
}

/* Under s->lock: may @slot (an mmap offset's index) have a ring? */
int rt_session_slot_check(struct rt_session *s, unsigned long slot)
{
	lockdep_assert_held(&s->lock);
	if (s->threads.nr)
		return slot < s->threads.nr ? 0 : -EINVAL;
	if (slot >= nr_cpu_ids)
		return -EINVAL;
	/* Clamped before any use, cpu_possible()'s bitmap read included. */
	slot = array_index_nospec(slot, nr_cpu_ids);
	return cpu_possible(slot) ? 0 : -EINVAL;
}

/* A new ring of a per-thread session: say whose it is. */
void rt_session_thread_ring_init(struct rt_session *s, struct rt_ring *ring,
				 unsigned int slot)
{
	WRITE_ONCE(ring->page->tid, s->threads.tids[slot]);
	WRITE_ONCE(ring->page->thread_flags, 0);
}

/*
 * Whether @task has run for the last time: it is dead and off its CPU.
 * Its exit state (a zombie) is too early: after exit_notify() the thread
 * still releases itself (tasklist_lock: a lock contention record) and
 * switches out for the last time (the runqueue lock), and the uapi
 * promises nothing is written once the flag is set. So is "its pid has
 * no task any more": release_task() unlinks the task from its pid before
 * it clears task->thread_pid, and on PREEMPT_RT (tasklist_lock sleeps)
 * the thread can be preempted between the two and switched back in, an
 * off-CPU record then written after the flag. TASK_DEAD is set by
 * do_task_dead(), with preemption disabled, right before that last
 * __schedule(); the CPU lets go of the task in finish_task_switch(), whose
 * release store of prev->on_cpu our acquire pairs with: every record the
 * thread wrote was committed before. A zombie group leader or an unreaped
 * process is such a task too. The session's reference keeps the task_struct
 * (not the thread) alive; nothing here sleeps, takes a lock or allocates:
 * fine in the flush timer's softirq, on PREEMPT_RT too.
 */
static bool rt_thread_exited(struct task_struct *task)
{
	return READ_ONCE(task->__state) == TASK_DEAD &&
	       !rt_task_on_cpu_acquire(task);
}

/*
 * Mark the rings of threads that have exited (flush timer, DISABLE): the
 * reader then knows nothing more will come and can drain and let go. The
 * ring itself stays with the session until it is closed. A hint only:
 * the thread may exit right after we looked, the next call sees it.
 */
void rt_session_threads_update(struct rt_session *s)
{
	struct rt_ring *ring;
	unsigned int i;

	for (i = 0; i < s->threads.nr; i++) {
		/* Pairs with smp_store_release() in rt_session_get_ring(). */
		ring = smp_load_acquire(&s->rings[i]);
		if (ring && rt_thread_exited(s->threads.tasks[i]))
			WRITE_ONCE(ring->page->thread_flags,
				   RINGTRACE_THREAD_EXITED);
	}
}
