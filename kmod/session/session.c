// SPDX-License-Identifier: GPL-2.0
/*
 * Session lifetime, configuration and rings, and the list of enabled
 * sessions the probes walk (session/active.h; ENABLE and DISABLE, which
 * put sessions on it and take them off, are ../enable.c).
 */
#include <linux/jiffies.h>
#include <linux/nospec.h>
#include <linux/percpu.h>
#include <linux/poll.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include "active.h"
#include "lib/compat.h"
#include "producer.h"
#include "session.h"

#define RT_DEFAULT_FLUSH_MS	100
/* Deeper process trees than this are not followed by the pid filter. */
#define RT_MAX_ANCESTRY		128

/* ../enable.c writes it, the producers walk it (active.h). */
LIST_HEAD(rt_active_sessions);

bool rt_task_descends_from(struct task_struct *task, struct pid *ancestor)
{
	struct task_struct *parent;
	bool found = false;
	int depth;

	rcu_read_lock();
	for (depth = 0; depth < RT_MAX_ANCESTRY; depth++) {
		parent = rcu_dereference(task->real_parent);
		if (parent == task)	/* the idle task is its own parent */
			break;
		if (task_tgid(parent) == ancestor) {
			found = true;
			break;
		}
		task = parent;
	}
	rcu_read_unlock();
	return found;
}

/*
 * While enabled, wake readers at least every flush_ms when anything is
 * unread, so a trickle of records below the watermark is never stranded,
 * and flag the rings of exited threads. Overwrite mode runs it too, for
 * the flags only: nothing is "unread" there (rt_ring_has_unread()).
 */
static void rt_session_flush(struct timer_list *t)
{
	struct rt_session *s = timer_container_of(s, t, flush_timer);
	unsigned int i, nr = READ_ONCE(s->nr_slots);
	struct rt_ring *ring;

	for (i = 0; i < nr; i++) {
		/* Pairs with smp_store_release() in rt_session_get_ring(). */
		ring = smp_load_acquire(&s->rings[i]);
		if (ring && rt_ring_has_unread(ring)) {
			rt_readers_wake(&s->readers);
			break;
		}
	}
	rt_session_threads_update(s);	/* exited threads */
	if (READ_ONCE(s->enabled))
		mod_timer(&s->flush_timer,
			  jiffies + msecs_to_jiffies(s->flush_ms));
}

struct rt_session *rt_session_create(void)
{
	struct rt_session *s;

	s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);
	if (!s)
		return ERR_PTR(-ENOMEM);

	/* Room for either mode (session_thread.c). */
	s->rings = kcalloc(rt_session_capacity(), sizeof(*s->rings),
			   GFP_KERNEL_ACCOUNT);
	if (!s->rings)
		goto err_session;
	s->nr_slots = nr_cpu_ids;
	s->no_ring = alloc_percpu(u64);
	if (!s->no_ring)
		goto err_rings;
	s->thread_not_task = alloc_percpu(u64);
	if (!s->thread_not_task)
		goto err_no_ring;
	if (!zalloc_cpumask_var(&s->cpus, GFP_KERNEL))
		goto err_not_task;
	/* ABI 2: path records and stacks. */
	if (rt_session_extras_init(s))
		goto err_cpus;

	/* Defaults: vfs_read, every CPU, every process but our own. */
	s->events = RINGTRACE_EVENT_VFS_READ;
	cpumask_copy(s->cpus, cpu_possible_mask);
	s->self = get_pid(task_tgid(current));
	s->exclude = s->self;
	/* A reader in a container sees its own pids. */
	if (task_active_pid_ns(current) != &init_pid_ns)
		s->pidns = get_pid_ns(task_active_pid_ns(current));
	s->flush_ms = RT_DEFAULT_FLUSH_MS;
	mutex_init(&s->lock);
	init_waitqueue_head(&s->readers.wq);
	timer_setup(&s->flush_timer, rt_session_flush, 0);
	INIT_LIST_HEAD(&s->node);
	return s;

err_cpus:
	free_cpumask_var(s->cpus);
err_not_task:
	free_percpu(s->thread_not_task);
err_no_ring:
	free_percpu(s->no_ring);
err_rings:
	kfree(s->rings);
err_session:
	kfree(s);
	return ERR_PTR(-ENOMEM);
}

/*
 * The last reference (fd and every mapping) is gone, and the session was
 * disabled: no probe can see it.
 */
void rt_session_destroy(struct rt_session *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_slots; i++)
		rt_ring_free(s->rings[i]);
	rt_session_extras_destroy(s);
	rt_threads_release(&s->threads);
	rt_cgroups_release(&s->cgroups);
	rt_producers_release(s);
	rt_funcs_free(s->funcs);
	free_percpu(s->thread_not_task);
	put_pid(s->pid);
	put_pid(s->self);
	if (s->pidns)
		put_pid_ns(s->pidns);
	free_cpumask_var(s->cpus);
	free_percpu(s->no_ring);
	kfree(s->rings);
	kfree(s);
}

/* The tgid of the process @nr names in the caller's pid namespace. */
static struct pid *rt_find_process(pid_t nr)
{
	struct task_struct *task;
	struct pid *tgid = NULL;

	rcu_read_lock();
	task = pid_task(find_vpid(nr), PIDTYPE_PID);
	if (task)
		tgid = get_pid(task_tgid(task));
	rcu_read_unlock();
	return tgid;
}

/*
 * @threads: the per-thread selection rt_threads_from_user()
 * made, or none; @cgroups likewise from rt_cgroups_from_user(),
 * @funcs from rt_funcs_from_user().
 * On return they hold what the caller must release.
 */
int rt_session_configure(struct rt_session *s,
			 const struct ringtrace_config *cfg,
			 const struct cpumask *cpus, struct rt_threads *threads,
			 struct rt_cgroups *cgroups,
			 struct rt_func_names **funcs)
{
	struct pid *pid = NULL, *old_pid;
	int err = 0;

	if (cfg->pid > 0) {
		pid = rt_find_process(cfg->pid);
		if (!pid)
			return -ESRCH;
	}

	mutex_lock(&s->lock);
	if (s->enabled) {
		err = -EBUSY;
		goto unlock;
	}
	/* refused (EBUSY) if mapped rings belong to another mode. */
	err = rt_session_threads_check(s, threads);
	if (err)
		goto unlock;
	/* ABI 2 (first: it may fail, and then nothing has changed). */
	err = rt_session_extras_configure(s, cfg);
	if (err)
		goto unlock;
	rt_session_threads_install(s, threads);
	swap(s->cgroups, *cgroups);	/* the caller puts the old */
	old_pid = s->pid;
	s->pid = pid;
	pid = old_pid;	/* put below */
	s->events = cfg->events;
	s->flags = cfg->flags;
	s->vfs_read_attach = cfg->vfs_read_attach;
	s->exclude = cfg->flags & RINGTRACE_CFG_INCLUDE_SELF ? NULL : s->self;
	s->min_latency_ns = cfg->min_latency_ns;
	s->lock_min_wait_ns = cfg->lock_min_wait_ns;
	s->lock_min_hold_ns = cfg->lock_min_hold_ns;
	s->min_offcpu_ns = cfg->min_offcpu_ns;
	/* ranges checked by rt_check_config() */
	s->vfs_read_values = cfg->vfs_read_values;
	s->ret_min = cfg->vfs_read_ret_min;
	s->ret_max = cfg->vfs_read_ret_max;
	s->count_min = cfg->vfs_read_count_min;
	s->count_max = cfg->vfs_read_count_max;
	swap(s->funcs, *funcs);	/* the caller frees the old */
	s->watermark = cfg->watermark_bytes;
	s->flush_ms = cfg->flush_ms ?: RT_DEFAULT_FLUSH_MS;
	cpumask_copy(s->cpus, cpus);
unlock:
	mutex_unlock(&s->lock);
	put_pid(pid);
	return err;
}

/*
 * The ring in @slot (a CPU, or in a per-thread session the index of a
 * thread), allocated with @nr_pages data pages by its first mapping.
 * Rings live as long as the session: the probes can then use them with no
 * reference counting.
 */
struct rt_ring *rt_session_get_ring(struct rt_session *s, unsigned long slot,
				    unsigned int nr_pages)
{
	struct rt_mlock charge = {};
	struct rt_ring *ring;
	int cpu, err;

	mutex_lock(&s->lock);
	err = rt_session_slot_check(s, slot);	/* mode-dependent */
	if (err) {
		ring = ERR_PTR(err);
		goto unlock;
	}
	slot = array_index_nospec(slot, s->nr_slots);
	/* A thread's ring has no CPU: its pages come from any node. */
	cpu = s->threads.nr ? -1 : (int)slot;
	ring = s->rings[slot];
	if (ring) {
		if (ring->nr_pages != nr_pages)
			ring = ERR_PTR(-EINVAL);
		goto unlock;
	}
	/* The control page is locked memory too. */
	err = rt_mlock_charge(&charge, nr_pages + 1, cpu);
	if (err) {
		ring = ERR_PTR(err);
		goto unlock;
	}
	ring = rt_ring_alloc(cpu, nr_pages, &s->readers);
	if (IS_ERR(ring)) {
		rt_mlock_uncharge(&charge);
		pr_info_ratelimited("pid %d (%s): no memory for a ring of %u KiB on CPU %d\n",
				    task_tgid_vnr(current), current->comm,
				    (nr_pages + 1) << (PAGE_SHIFT - 10), cpu);
		goto unlock;
	}
	ring->mlock = charge;
	if (s->threads.nr)
		rt_session_thread_ring_init(s, ring, slot);
	if (s->enabled)
		rt_ring_start(ring, s->watermark ?: ring->size / 2,
			      s->flags & RINGTRACE_CFG_OVERWRITE);
	/* Pairs with smp_load_acquire() in the probes and the timer. */
	smp_store_release(&s->rings[slot], ring);
unlock:
	mutex_unlock(&s->lock);
	return ring;
}

/* Under s->lock: has a mapping made a ring yet? */
bool rt_session_has_rings(struct rt_session *s)
{
	unsigned int i;

	lockdep_assert_held(&s->lock);
	for (i = 0; i < s->nr_slots; i++)
		if (s->rings[i])
			return true;
	return false;
}

/*
 * ENABLE, under s->lock, once the producers the session asks for are
 * attached and before it is listed for them: each enabled period starts
 * anew.
 */
void rt_session_start(struct rt_session *s)
{
	struct rt_ring *ring;
	unsigned int i;

	lockdep_assert_held(&s->lock);
	/* Off-CPU intervals that began earlier are not this session's. */
	s->offcpu_since = ktime_get_mono_fast_ns();
	rt_session_extras_enable(s);
	for (i = 0; i < s->nr_slots; i++) {
		ring = s->rings[i];
		if (ring)
			rt_ring_start(ring, s->watermark ?: ring->size / 2,
				      s->flags & RINGTRACE_CFG_OVERWRITE);
	}
}

/*
 * DISABLE, under s->lock, once no probe can see the session: the rings
 * report what they lost and their readers drain what is left.
 */
void rt_session_stop(struct rt_session *s)
{
	struct rt_ring *ring;
	unsigned int i;
	u64 now;

	lockdep_assert_held(&s->lock);
	now = ktime_get_mono_fast_ns();
	for (i = 0; i < s->nr_slots; i++) {
		ring = s->rings[i];
		if (ring)
			rt_ring_stop(ring, now);
	}
	rt_session_threads_update(s);
	rt_readers_wake(&s->readers);
}

void rt_session_stats(struct rt_session *s, struct ringtrace_stats *st)
{
	struct rt_ring_counts c;
	struct rt_ring *ring;
	unsigned int i;
	int cpu;

	mutex_lock(&s->lock);
	for_each_possible_cpu(cpu) {
		st->no_ring += *per_cpu_ptr(s->no_ring, cpu);
		st->thread_not_task += *per_cpu_ptr(s->thread_not_task, cpu);
	}
	for (i = 0; i < s->nr_slots; i++) {
		ring = s->rings[i];
		if (!ring)
			continue;
		rt_ring_counts(ring, &c);
		st->nr_rings++;
		st->records += c.records;
		st->lost += c.lost;
		st->bytes += c.bytes;
	}
	rt_producers_session_stats(s, st);
	mutex_unlock(&s->lock);
	st->produced = st->records + st->lost;
	rt_producers_stats(st);		/* their module-wide counts */
	rt_session_extras_stats(s, st);
}

/*
 * Readable after a wake-up (watermark, flush timer, DISABLE) not yet
 * reported, while a ring holds more than its watermark, and, once
 * disabled, while anything is left to drain. An overwrite-mode reader
 * writes nothing back, so it has no "left to drain": its session is
 * readable only after a wake-up not yet reported (rt_ring_has_unread()).
 */
__poll_t rt_session_poll_mask(struct rt_session *s)
{
	unsigned int i, nr = READ_ONCE(s->nr_slots);
	bool enabled = READ_ONCE(s->enabled);
	struct rt_ring *ring;

	/* Full barrier: orders the queueing in poll_wait() before the checks. */
	if (atomic_xchg(&s->readers.pending, 0))
		return EPOLLIN | EPOLLRDNORM;

	for (i = 0; i < nr; i++) {
		/* Pairs with smp_store_release() in rt_session_get_ring(). */
		ring = smp_load_acquire(&s->rings[i]);
		if (!ring)
			continue;
		if (enabled ? rt_ring_past_watermark(ring) :
			      rt_ring_has_unread(ring))
			return EPOLLIN | EPOLLRDNORM;
	}
	return 0;
}
