/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The enabled sessions, as the producers see them on every event: the
 * list and what protects its walk, the filters a session applies to a
 * task and a vfs_read, the ring a record goes to, who and when, and the
 * names memo. All inline: this is the hot path. Writing a record is
 * emit/emit.h's, on top of this.
 */
#ifndef _RINGTRACE_ACTIVE_H
#define _RINGTRACE_ACTIVE_H

#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/ringtrace.h>

#include "lib/compat.h"
#include "ring/ring.h"
#include "session.h"

/*
 * The enabled sessions. Written by ENABLE and DISABLE (../enable.c) under
 * their lock; walked by the producers with preemption disabled: that is
 * an RCU read-side critical section (RCU-sched), which
 * rt_sessions_synchronize() waits for before DISABLE lets a session go,
 * so the hot paths need no rcu_read_lock() call, which PREEMPT_RCU
 * kernels make out of line. Every walk checks it: lockdep kernels
 * through rt_sessions_walk_held(), the others through what preemption's
 * count says (RT_ASSERT_RCU_READER(), lib/compat.h): a walker left
 * preemptible warns on stock kernels too. Who walks, and what disables
 * preemption there:
 *
 *   vfs_read entry, exit  kprobe/kretprobe handlers (kprobe context);
 *                         fprobe's entry (an ftrace callback) and its exit,
 *                         which attach/fprobe.c wraps itself; the direct
 *                         call's trampoline (direct_call.c)
 *   lock_contention       tracepoint probes: RCU-sched on 6.1 and 6.12,
 *                         but SRCU-fast and preemptible on 7.x, where a
 *                         rwsem waiter's begin comes preemptible: begin
 *                         disables preemption around its walk, end
 *                         around its emit (events/contention.c)
 *   offcpu                sched_switch, called by the scheduler with
 *                         preemption and interrupts disabled
 *   tracked locks         events/lock_events.c disables it itself
 *
 * A probe's unregistration waits for the probe's own readers
 * (tracepoint_synchronize_unregister(), unregister_kprobe() and
 * unregister_fprobe() do); a session's removal waits only for the walks,
 * with rt_sessions_synchronize(), never through those.
 */
extern struct list_head rt_active_sessions;

static __always_inline bool rt_sessions_walk_held(void)
{
	return rcu_read_lock_sched_held();
}

/* The list's head, for a walk that says what protects it. */
static __always_inline struct list_head *rt_active_sessions_walked(void)
{
	RT_ASSERT_RCU_READER(rt_sessions_walk_held(),
			     "ringtrace: enabled sessions walked unprotected");
	return &rt_active_sessions;
}

#define rt_for_each_active_session(s)					\
	list_for_each_entry_rcu(s, rt_active_sessions_walked(), node,	\
				rt_sessions_walk_held())

/* Every walk that may still see a session taken off the list is over. */
static inline void rt_sessions_synchronize(void)
{
	synchronize_rcu();
}

bool rt_task_descends_from(struct task_struct *task, struct pid *ancestor);

/*
 * The ring slot of @task in a per-thread session, or -1 if it is not
 * one of the selected threads. A linear scan: at most
 * RINGTRACE_MAX_THREADS pointer compares, only in per-thread sessions.
 */
static __always_inline int rt_thread_slot(const struct rt_session *s,
					  struct task_struct *task)
{
	unsigned int i;

	for (i = 0; i < s->threads.nr; i++)
		if (s->threads.tasks[i] == task)
			return i;
	return -1;
}

/*
 * Is @task in one of @s's cgroups or below? Pointer compares only: the
 * task's default-hierarchy cgroup and that cgroup's ancestor array.
 */
static __always_inline bool rt_session_cgroup_match(const struct rt_session *s,
						    struct task_struct *task)
{
	struct cgroup *cgrp = rt_task_dfl_cgroup(task);
	unsigned int i;

	for (i = 0; i < s->cgroups.nr; i++)
		if (rt_cgroup_is_descendant(cgrp, s->cgroups.cgrps[i]))
			return true;
	return false;
}

/*
 * Does a vfs_read that asked for @count bytes and returned @ret lie within
 * @s's ranges? Two compares per range asked for.
 */
static __always_inline bool rt_session_values_match(const struct rt_session *s,
						    u64 count, long ret)
{
	if ((s->vfs_read_values & RINGTRACE_VFS_READ_RET) &&
	    (ret < s->ret_min || ret > s->ret_max))
		return false;
	if ((s->vfs_read_values & RINGTRACE_VFS_READ_COUNT) &&
	    (count < s->count_min || count > s->count_max))
		return false;
	return true;
}

/* Does @s want events caused by @task? Cheap unless following children. */
static __always_inline bool rt_session_wants_task(const struct rt_session *s,
						  struct task_struct *task)
{
	struct pid *tgid = task_tgid(task);

	if (tgid == s->exclude)
		return false;
	/* The cgroup filter: decided first, ANDed with the pid filters. */
	if (unlikely(s->cgroups.nr) && !rt_session_cgroup_match(s, task))
		return false;
	/* A task the opener's pid namespace cannot see. */
	if (unlikely(s->pidns) && !pid_nr_ns(task_pid(task), s->pidns))
		return false;
	/* A per-thread session wants its threads only. */
	if (unlikely(s->threads.nr))
		return rt_thread_slot(s, task) >= 0;
	if (!s->pid || tgid == s->pid)
		return true;
	return (s->flags & RINGTRACE_CFG_INHERIT) &&
	       rt_task_descends_from(task, s->pid);
}

/* Does any enabled session want @event from @task? Preemption disabled. */
static __always_inline bool rt_sessions_want(u64 event, struct task_struct *task)
{
	struct rt_session *s;

	rt_for_each_active_session(s)
		if ((s->events & event) && rt_session_wants_task(s, task))
			return true;
	return false;
}

/*
 * The ring of a record about current on @cpu, the CPU we run on with
 * preemption disabled: that CPU's, or in a per-thread session the current
 * thread's, written from task context only, so that each ring keeps one
 * writer at a time (the thread, on whatever CPU it runs, preemption
 * disabled). An event in interrupt context while a selected thread is
 * current is not the thread's: -1, nothing to write
 * (rt_session_reserve_at() counts it).
 */
static __always_inline int rt_session_slot(const struct rt_session *s, int cpu)
{
	if (likely(!s->threads.nr))
		return cpu;
	return in_task() ? rt_thread_slot(s, current) : -1;
}

/*
 * Reserve @size bytes in ring @slot of @s (a CPU, or a thread's index in a
 * per-thread session). NULL: no ring there (counted) or the ring is full
 * (counted as lost). On success, fill the record and rt_ring_commit().
 */
static __always_inline void *rt_session_reserve_slot(struct rt_session *s,
						     int slot,
						     unsigned int size, u64 ts,
						     struct rt_ring **ringp)
{
	struct rt_ring *ring;

	/* Pairs with the smp_store_release() in rt_session_get_ring(). */
	ring = smp_load_acquire(&s->rings[slot]);

	if (unlikely(!ring)) {
		this_cpu_inc(*s->no_ring);
		return NULL;
	}
	*ringp = ring;
	return rt_ring_reserve(ring, size, ts);
}

/*
 * The same for the @slot rt_session_slot() gave, -1 included: an event
 * in interrupt context in a per-thread session is counted
 * (thread_not_task) and not written.
 */
static __always_inline void *rt_session_reserve_at(struct rt_session *s,
						   int slot,
						   unsigned int size, u64 ts,
						   struct rt_ring **ringp)
{
	if (unlikely(slot < 0)) {
		if (!in_task())
			this_cpu_inc(*s->thread_not_task);
		return NULL;
	}
	return rt_session_reserve_slot(s, slot, size, ts, ringp);
}

/*
 * Who and when, for a record about @task (not always current): pids as
 * @s's opener's pid namespace numbers them (rt_session_wants_task() made
 * sure it can).
 */
static __always_inline void rt_fill_task_ctx(const struct rt_session *s,
					     struct ringtrace_task_ctx *t,
					     struct task_struct *task,
					     u64 ts, int cpu)
{
	BUILD_BUG_ON(sizeof(task->comm) != RINGTRACE_COMM_LEN);
	t->ts_ns = ts;
	t->cpu = cpu;
	if (unlikely(s->pidns)) {
		t->pid = pid_nr_ns(task_tgid(task), s->pidns);
		t->tid = pid_nr_ns(task_pid(task), s->pidns);
	} else {
		t->pid = task_tgid_nr(task);
		t->tid = task_pid_nr(task);
	}
	t->__pad = 0;
	/* comm can be renamed under us: copy all 16 bytes, terminate. */
	memcpy(t->comm, task->comm, RINGTRACE_COMM_LEN);
	t->comm[RINGTRACE_COMM_LEN - 1] = '\0';
}

/* The bytes a task_ext adds to @s's vfs_read, lock and offcpu records. */
static __always_inline unsigned int rt_task_ext_size(const struct rt_session *s)
{
	return s->cgroups.ext ? sizeof(struct ringtrace_task_ext) : 0;
}

/* @x for a record about @task, in @cgrp. Three stores on every record. */
static __always_inline void rt_fill_task_ext(struct ringtrace_task_ext *x,
					     struct cgroup *cgrp,
					     struct task_struct *task)
{
	x->cgroup_id = rt_cgroup_id(cgrp);
	x->host_pid = task_tgid_nr(task);
	x->host_tid = task_pid_nr(task);
}

/*
 * The names memo (struct rt_names_memo).
 *
 * Why skipping the table on a memo hit is exact: the memo holds a
 * (key, ts) pair only after rt_path_lookup() returned RT_PATH_SKIP for
 * that key, i.e. the key's slot was RT_PATH_NAMED with its record written
 * at ts. A NAMED slot is final for the enabled period: nothing evicts it
 * or changes its ts (only the owner of a BUSY slot publishes, and the
 * table is reset only by ENABLE, when the memo is reset too). So a memo
 * hit for a record stamped now > ts is the very verdict the table would
 * give (slot->ts < now: SKIP), and now <= ts (a tie, or a record stamped
 * earlier on another CPU's clock in a per-thread ring) misses and asks
 * the table, which says RACE and names it again. What the table does not
 * call SKIP is never remembered: RT_PATH_FULL (uncached, named every
 * time), RACE, OWN (its record may yet be lost: UNNAMED, named again).
 *
 * Only the vfs_read probe reads and writes the memo, in task context with
 * preemption disabled: on a per-CPU ring nothing else runs that code on
 * that CPU until it returns (vfs_read does not nest in interrupts), on a
 * thread's ring only that thread writes. Lock and offcpu records, which
 * may nest or run for another task, always ask the table.
 */
static __always_inline struct rt_names_memo *
rt_names_memo(const struct rt_session *s, int slot)
{
	return slot >= 0 ? &s->memo[slot] : NULL;
}

static __always_inline bool rt_names_memo_file(const struct rt_names_memo *m,
					       u32 dev, u64 ino, u64 now)
{
	return m && m->ino == ino && m->dev == dev && now > m->path_ts;
}

static __always_inline void rt_names_memo_set_file(struct rt_names_memo *m,
						   u32 dev, u64 ino, u64 ts)
{
	if (m && ts != RT_NAMED_NONE) {
		m->ino = ino;
		m->dev = dev;
		m->path_ts = ts;
	}
}

static __always_inline bool rt_names_memo_cgroup(const struct rt_names_memo *m,
						 u64 id, u64 now)
{
	return m && m->cgroup_id == id && now > m->cgroup_ts;
}

static __always_inline void rt_names_memo_set_cgroup(struct rt_names_memo *m,
						     u64 id, u64 ts)
{
	if (m && ts != RT_NAMED_NONE) {
		m->cgroup_id = id;
		m->cgroup_ts = ts;
	}
}

#endif /* _RINGTRACE_ACTIVE_H */
