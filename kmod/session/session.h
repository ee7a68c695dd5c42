/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session is one open() of /dev/ringtrace: its configuration (filters),
 * its per-CPU rings and its readers' wait queue. Enabled sessions sit on an
 * RCU list the probes walk.
 */
#ifndef _RINGTRACE_SESSION_H
#define _RINGTRACE_SESSION_H

#include <linux/cgroup.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/ringtrace.h>

#include "ring/ring.h"

/* ---- ABI 2: path records and stacks (session_extras.c) ---- */
struct rt_path_cache;

/* Per-CPU counts behind ringtrace_stats' ABI 2 fields. */
struct rt_extra_counts {
	u64	path_records;
	u64	path_cache_full;
	u64	path_unresolved;
	u64	path_races;
	u64	stack_missed;
	u64	vfs_read_filtered;	/* issue 21: value ranges */
};

/*
 * issue 19: what the last vfs_read record on one ring (a CPU, or a thread
 * in a per-thread session) found already named, so that the next record
 * about the same file and cgroup skips path_cache.c's table with two
 * compares (rt_names_memo_*() below). One per ring slot, its own cache
 * line: only the ring's writer in task context touches it.
 */
struct rt_names_memo {
	u64	ino;		/* the file (dev, ino)... */
	u64	path_ts;	/* ...was named at path_ts; U64_MAX: none */
	u64	cgroup_id;	/* the cgroup was named at cgroup_ts */
	u64	cgroup_ts;	/* U64_MAX: none */
	u32	dev;
} ____cacheline_aligned_in_smp;

/* No record was named: rt_path_before_record() and the cgroup's. */
#define RT_NAMED_NONE	U64_MAX

/* ---- end ABI 2 ---- */

/* ---- issue 9: per-thread rings (session_thread.c) ---- */

/* The threads a per-thread session selected: ring i is pids[i]'s. */
struct rt_threads {
	struct pid		**pids;		/* references held */
	u32			*tids;		/* as SET_CONFIG named them */
	unsigned int		nr;		/* 0: a per-CPU session */
};

/* ---- end issue 9 ---- */

/*
 * issue 24: the cgroups a session records (cgroup_filter.c), nr 0: all;
 * and with RINGTRACE_CFG_CGROUPS the table of cgroups it named
 * (cgroup_names.c), NULL otherwise.
 */
struct rt_cgroups {
	struct cgroup		**cgrps;	/* references held */
	unsigned int		nr;
	struct rt_path_cache	*names;
	/* task_ext on records: CFG_CGROUPS, with or without names. */
	bool			ext;
};

struct rt_session {
	struct list_head	node;		/* on rt_active_sessions */

	/*
	 * Filters: set by SET_CONFIG, read locklessly by the probes, which
	 * only see the session while it is enabled, when they cannot
	 * change.
	 */
	u64			events;		/* RINGTRACE_EVENT_* */
	u32			flags;		/* RINGTRACE_CFG_* */
	u32			vfs_read_attach; /* RINGTRACE_ATTACH_*, 0: any */
	struct pid		*pid;		/* process to trace, NULL: any */
	struct pid		*self;		/* the opener (reference held) */
	struct pid		*exclude;	/* self, unless INCLUDE_SELF */
	u64			min_latency_ns;
	u64			lock_min_wait_ns;
	u64			lock_min_hold_ns;
	cpumask_var_t		cpus;
	u32			watermark;	/* 0: half of each ring */
	u32			flush_ms;

	/* rings[cpu]: set once (under lock), freed with the session. */
	struct rt_ring		**rings;
	u64 __percpu		*no_ring;	/* events on CPUs with no ring */

	struct mutex		lock;		/* config, enabled, rings */
	bool			enabled;
	struct rt_readers	readers;
	struct timer_list	flush_timer;

	/*
	 * ---- ABI 2: path records and stacks (session_extras.c) ----
	 * Set by SET_CONFIG like the filters, read locklessly by probes.
	 */
	struct rt_path_cache	*paths;		/* NULL: no path records */
	u64			stack_events;	/* RINGTRACE_EVENT_* with stacks */
	u16			path_max;
	u8			stack_kernel_depth;
	u8			stack_user_depth;
	struct rt_extra_counts __percpu *xcounts;
	/*
	 * issue 19: rt_session_capacity() of them, one per ring slot;
	 * allocated with the session, reset by ENABLE.
	 */
	struct rt_names_memo	*memo;
	/* ---- end ABI 2 ---- */

	/*
	 * ---- issue 9: per-thread rings (session_thread.c) ----
	 * threads: set by SET_CONFIG like the filters. rings[] has room for
	 * nr_cpu_ids and RINGTRACE_MAX_THREADS entries whatever the mode,
	 * so that poll and the flush timer, which walk nr_slots of them
	 * without the lock, never run past it while SET_CONFIG changes it.
	 */
	struct rt_threads	threads;
	unsigned int		nr_slots;	/* rings[] in use */
	u64 __percpu		*thread_not_task;
	/* ---- end issue 9 ---- */

	/*
	 * ---- issue 22: off-CPU intervals (offcpu.c) ----
	 * min_offcpu_ns: set by SET_CONFIG like the filters. offcpu_since:
	 * set by ENABLE before the session is listed; intervals that began
	 * before it are not this session's.
	 */
	u64			min_offcpu_ns;
	u64			offcpu_since;
	/* ---- end issue 22 ---- */

	/* issue 24: cgroup filter, set by SET_CONFIG like the filters. */
	struct rt_cgroups	cgroups;
	/*
	 * issue 21: vfs_read's ret and count ranges (RINGTRACE_VFS_READ_*
	 * in vfs_read_values, 0: none), set by SET_CONFIG like the filters.
	 */
	u32			vfs_read_values;
	s64			ret_min, ret_max;
	u64			count_min, count_max;
	/*
	 * issue 24: the opener's pid namespace (reference held), NULL for
	 * the initial one: the pids records give, and the tasks they may
	 * show. Set at open, never changed.
	 */
	struct pid_namespace	*pidns;
};

extern struct list_head rt_active_sessions;

/*
 * Probes walk the sessions with preemption disabled, which kprobe,
 * kretprobe and tracepoint handlers already are: that is an RCU read-side
 * critical section (RCU-sched, which synchronize_rcu() in
 * rt_session_disable() waits for), so the hot paths need no
 * rcu_read_lock() call, which PREEMPT_RCU kernels make out of line.
 */
#define rt_for_each_active_session(s) \
	list_for_each_entry_rcu(s, &rt_active_sessions, node)

void rt_session_list_init(void);
void rt_session_list_exit(void);
struct rt_session *rt_session_create(void);
void rt_session_destroy(struct rt_session *s);
int rt_session_configure(struct rt_session *s,
			 const struct ringtrace_config *cfg,
			 const struct cpumask *cpus, struct rt_threads *threads,
			 struct rt_cgroups *cgroups);
int rt_session_enable(struct rt_session *s);
int rt_session_disable(struct rt_session *s);
struct rt_ring *rt_session_get_ring(struct rt_session *s, unsigned long slot,
				    unsigned int nr_pages);
void rt_session_stats(struct rt_session *s, struct ringtrace_stats *st);
__poll_t rt_session_poll_mask(struct rt_session *s);

/* ---- ABI 2: path records and stacks (session_extras.c) ---- */
int rt_session_extras_init(struct rt_session *s);
void rt_session_extras_destroy(struct rt_session *s);
int rt_session_extras_check(const struct ringtrace_config *cfg);
int rt_session_extras_configure(struct rt_session *s,
				const struct ringtrace_config *cfg);
void rt_session_extras_enable(struct rt_session *s);
void rt_session_extras_stats(struct rt_session *s, struct ringtrace_stats *st);
u64 rt_extras_features(void);
/* ---- end ABI 2 ---- */

/* ---- issue 9: flight recorder and buffer health (ring_stats.c) ---- */
int rt_ring_stats_request(struct rt_session *s, void __user *uarg,
			  struct ringtrace_stats *st);
/* ---- end issue 9 ---- */

bool rt_task_descends_from(struct task_struct *task, struct pid *ancestor);

/* ---- issue 9: per-thread rings (session_thread.c) ---- */
unsigned int rt_session_capacity(void);
int rt_threads_from_user(const struct ringtrace_config *cfg,
			 struct rt_threads *t);
void rt_threads_release(struct rt_threads *t);
int rt_session_threads_check(struct rt_session *s, const struct rt_threads *t);
void rt_session_threads_install(struct rt_session *s, struct rt_threads *t);
int rt_session_slot_check(struct rt_session *s, unsigned long slot);
void rt_session_thread_ring_init(struct rt_session *s, struct rt_ring *ring,
				 unsigned int slot);
void rt_session_threads_update(struct rt_session *s);

/*
 * The ring slot of @task in a per-thread session, or -1 if it is not
 * one of the selected threads. A linear scan: at most
 * RINGTRACE_MAX_THREADS pointer compares, only in per-thread sessions.
 */
static __always_inline int rt_thread_slot(const struct rt_session *s,
					  struct task_struct *task)
{
	struct pid *pid = task_pid(task);
	unsigned int i;

	for (i = 0; i < s->threads.nr; i++)
		if (s->threads.pids[i] == pid)
			return i;
	return -1;
}

/* ---- end issue 9 ---- */

/* ---- issue 24: cgroup filter (cgroup_filter.c) ---- */
u64 rt_cgroup_features(void);
int rt_cgroups_check(const struct ringtrace_config *cfg);
int rt_cgroups_from_user(const struct ringtrace_config *cfg,
			 struct rt_cgroups *c);
void rt_cgroups_release(struct rt_cgroups *c);

/*
 * Is @task in one of @s's cgroups or below? Pointer compares only: the
 * task's default-hierarchy cgroup (its css_set is RCU-protected; callers
 * run with preemption disabled) and that cgroup's ancestor array.
 */
static __always_inline bool rt_session_cgroup_match(const struct rt_session *s,
						    struct task_struct *task)
{
#ifdef CONFIG_CGROUPS
	struct cgroup *cgrp = task_dfl_cgroup(task);
	unsigned int i;

	for (i = 0; i < s->cgroups.nr; i++)
		if (cgroup_is_descendant(cgrp, s->cgroups.cgrps[i]))
			return true;
#endif
	return false;
}

/* ---- end issue 24 ---- */

/*
 * issue 21: does a vfs_read that asked for @count bytes and returned @ret
 * lie within @s's ranges? Two compares per range asked for.
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
	/* issue 24: decided first, ANDed with the pid filters below. */
	if (unlikely(s->cgroups.nr) && !rt_session_cgroup_match(s, task))
		return false;
	/* issue 24: a task the opener's pid namespace cannot see. */
	if (unlikely(s->pidns) && !pid_nr_ns(task_pid(task), s->pidns))
		return false;
	/* issue 9: a per-thread session wants its threads only. */
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
 * Per-thread sessions (issue 9): the ring of the current thread, written
 * from task context only, so that each ring keeps one writer at a time
 * (the thread, on whatever CPU it runs, preemption disabled). An event in
 * interrupt context while a selected thread is current is not the
 * thread's: counted, not written. -1: nothing to write.
 */
static __always_inline int rt_session_thread_slot(struct rt_session *s)
{
	if (unlikely(!in_task())) {
		this_cpu_inc(*s->thread_not_task);
		return -1;
	}
	return rt_thread_slot(s, current);
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
 * Reserve @size bytes in @s's ring for @cpu, the CPU we are running on with
 * preemption disabled (per-thread sessions: the current thread's ring).
 * NULL: no ring there (counted), an interrupt in a per-thread session
 * (counted) or the ring is full (counted as lost). On success, fill the
 * record and rt_ring_commit().
 */
static __always_inline void *rt_session_reserve(struct rt_session *s, int cpu,
						unsigned int size, u64 ts,
						struct rt_ring **ringp)
{
	int slot = cpu;

	if (unlikely(s->threads.nr)) {
		slot = rt_session_thread_slot(s);
		if (slot < 0)
			return NULL;
	}
	return rt_session_reserve_slot(s, slot, size, ts, ringp);
}

/*
 * Who and when, for a record about @task (not always current): pids as
 * @s's opener's pid namespace numbers them (issue 24;
 * rt_session_wants_task() made sure it can).
 */
static __always_inline void rt_fill_task_ctx_of(const struct rt_session *s,
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

/* Who and when, common to every event record. */
static __always_inline void rt_fill_task_ctx(const struct rt_session *s,
					     struct ringtrace_task_ctx *t,
					     u64 ts, int cpu)
{
	rt_fill_task_ctx_of(s, t, current, ts, cpu);
}

/* ---- issue 24: task_ext and cgroup records (cgroup_names.c) ---- */

/* The bytes a task_ext adds to @s's vfs_read, lock and offcpu records. */
static __always_inline unsigned int rt_task_ext_size(const struct rt_session *s)
{
	return s->cgroups.ext ? sizeof(struct ringtrace_task_ext) : 0;
}

/* @task's cgroup v2 (callers run with preemption disabled). */
static __always_inline struct cgroup *rt_task_cgroup(struct task_struct *task)
{
#ifdef CONFIG_CGROUPS
	return task_dfl_cgroup(task);
#else
	return NULL;
#endif
}

static __always_inline struct cgroup *rt_current_cgroup(void)
{
	return rt_task_cgroup(current);
}

static __always_inline u64 rt_cgroup_id(struct cgroup *cgrp)
{
#ifdef CONFIG_CGROUPS
	return cgroup_id(cgrp);
#else
	return 0;
#endif
}

/*
 * The ring rt_session_reserve() would pick for @cpu, without counting
 * anything (the record that follows counts); -1: none.
 */
static __always_inline int rt_session_slot(const struct rt_session *s, int cpu)
{
	if (likely(!s->threads.nr))
		return cpu;
	return in_task() ? rt_thread_slot(s, current) : -1;
}

/*
 * @x for a record about @task (not always current: offcpu's is next).
 * Inline (issue 19): three stores on every record of the session.
 */
static __always_inline void rt_fill_task_ext(struct ringtrace_task_ext *x,
					     struct cgroup *cgrp,
					     struct task_struct *task)
{
	x->cgroup_id = rt_cgroup_id(cgrp);
	x->host_pid = task_tgid_nr(task);
	x->host_tid = task_pid_nr(task);
}

/*
 * Before a record with a task_ext naming @cgrp goes into ring @slot of @s
 * (rt_session_slot(), or the thread's ring an offcpu record goes to; -1:
 * none): the cgroup record, if @s has not named @cgrp yet. @in_lock: the
 * record is written holding a lock (a lock record; an offcpu record, under
 * the runqueue's raw lock), so naming may take none. Returns the time of
 * the cgroup record that already named @cgrp for a record stamped @ts
 * (path_cache.c's RT_PATH_SKIP), RT_NAMED_NONE otherwise.
 */
u64 rt_cgroup_before_record(struct rt_session *s, int slot, u64 ts,
			    struct cgroup *cgrp, bool in_lock);
/* ---- end issue 24 ---- */

/*
 * ---- issue 19: the names memo (struct rt_names_memo) ----
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

void rt_names_memo_reset(struct rt_session *s);
/* ---- end issue 19 ---- */

#endif /* _RINGTRACE_SESSION_H */
