/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session is one open() of /dev/ringtrace: its configuration (filters),
 * its rings (one per CPU, or per selected thread) and its readers' wait
 * queue; its lifetime and configuration (session.c, session_extras.c,
 * session_thread.c, cgroup_filter.c). What the producers use on every
 * event (the walk of the enabled sessions, the filters, the ring of a
 * record) is active.h; turning a session on and off, ../enable.c.
 */
#ifndef _RINGTRACE_SESSION_H
#define _RINGTRACE_SESSION_H

#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/ringtrace.h>

#include "ring/ring.h"

struct cgroup;
struct rt_path_cache;

/* Per-CPU counts behind ringtrace_stats' path, stack and filter fields. */
struct rt_extra_counts {
	u64	path_records;
	u64	path_cache_full;
	u64	path_unresolved;
	u64	path_races;
	u64	stack_missed;
	u64	vfs_read_filtered;	/* vfs_read's value ranges */
	u64	func_outside_read;	/* RINGTRACE_CFG_FUNC_IN_READ */
	u64	func_inread_unknown;
	u64	func_fast_read;		/* RINGTRACE_CFG_FUNC_HOLD */
};

/*
 * The names memo: what the last vfs_read record on one ring (a CPU, or a
 * thread in a per-thread session) found already named, so that the next
 * record about the same file and cgroup skips the table of what the
 * session named (path_cache.c) with two compares (rt_names_memo_*() in
 * active.h). One per ring slot, its own cache line: only the ring's
 * writer in task context touches it.
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

/*
 * The threads a per-thread session selected: ring i is tasks[i]'s. The
 * task, not its pid: a thread is matched by one pointer compare, it can
 * be asked whether it has run for the last time after it was released
 * (session_thread.c), and it keeps its ring if execve() from another
 * thread hands it the leader's id.
 */
struct rt_threads {
	struct task_struct	**tasks;	/* references held */
	u32			*tids;		/* as SET_CONFIG named them */
	unsigned int		nr;		/* 0: a per-CPU session */
};

/*
 * The cgroups a session records (cgroup_filter.c), nr 0: all; and with
 * RINGTRACE_CFG_CGROUPS the table of cgroups it named
 * (emit/cgroup_record.c), NULL otherwise.
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
	/*
	 * Unique per ENABLE, set before the session is listed: what held
	 * calls name their enabled period by (events/func_held.c).
	 */
	u64			enable_seq;
	struct rt_readers	readers;
	struct timer_list	flush_timer;

	/*
	 * Path records and stack trailers (session_extras.c): set by
	 * SET_CONFIG like the filters, read locklessly by probes.
	 */
	struct rt_path_cache	*paths;		/* NULL: no path records */
	u64			stack_events;	/* RINGTRACE_EVENT_* with stacks */
	u16			path_max;
	u8			stack_kernel_depth;
	u8			stack_user_depth;
	struct rt_extra_counts __percpu *xcounts;
	/*
	 * The names memo: rt_session_capacity() of them, one per ring slot;
	 * allocated with the session, reset by ENABLE.
	 */
	struct rt_names_memo	*memo;

	/*
	 * Per-thread rings (session_thread.c). threads: set by SET_CONFIG
	 * like the filters. rings[] has room for
	 * nr_cpu_ids and RINGTRACE_MAX_THREADS entries whatever the mode,
	 * so that poll and the flush timer, which walk nr_slots of them
	 * without the lock, never run past it while SET_CONFIG changes it.
	 */
	struct rt_threads	threads;
	unsigned int		nr_slots;	/* rings[] in use */
	u64 __percpu		*thread_not_task;

	/*
	 * Off-CPU intervals (events/offcpu.c). min_offcpu_ns: set by
	 * SET_CONFIG like the filters. offcpu_since:
	 * set by ENABLE before the session is listed; intervals that began
	 * before it are not this session's.
	 */
	u64			min_offcpu_ns;
	u64			offcpu_since;

	/* The cgroup filter, set by SET_CONFIG like the filters. */
	struct rt_cgroups	cgroups;
	/*
	 * vfs_read's ret and count ranges (RINGTRACE_VFS_READ_*
	 * in vfs_read_values, 0: none), set by SET_CONFIG like the filters.
	 */
	u32			vfs_read_values;
	s64			ret_min, ret_max;
	u64			count_min, count_max;
	/*
	 * The opener's pid namespace (reference held), NULL for
	 * the initial one: the pids records give, and the tasks they may
	 * show. Set at open, never changed.
	 */
	struct pid_namespace	*pidns;
	/*
	 * RINGTRACE_EVENT_FUNC: the functions named (func_names.c), set by
	 * SET_CONFIG; NULL without the event.
	 */
	struct rt_func_names	*funcs;
};

/* The kernel functions a session traces, as SET_CONFIG copied them. */
struct rt_func_names {
	u32	nr;
	u32	args;		/* raw arguments per record */
	/* nr indexes of name[] in strcmp order, after the names */
	u32	*by_name;
	char	name[][RINGTRACE_FUNC_NAME_LEN];
};

int rt_funcs_check(const struct ringtrace_config *cfg);
int rt_funcs_from_user(const struct ringtrace_config *cfg,
		       struct rt_func_names **out);
/* The index of @name in @f, or -ENOENT. Any context: @f does not change. */
int rt_funcs_lookup(const struct rt_func_names *f, const char *name);
void rt_funcs_free(struct rt_func_names *f);

/* Lifetime and configuration (session.c). Process context. */
struct rt_session *rt_session_create(void);
/* The last reference (fd and every mapping) is gone; disabled. */
void rt_session_destroy(struct rt_session *s);
int rt_session_configure(struct rt_session *s,
			 const struct ringtrace_config *cfg,
			 const struct cpumask *cpus, struct rt_threads *threads,
			 struct rt_cgroups *cgroups,
			 struct rt_func_names **funcs);
struct rt_ring *rt_session_get_ring(struct rt_session *s, unsigned long slot,
				    unsigned int nr_pages);
void rt_session_stats(struct rt_session *s, struct ringtrace_stats *st);
__poll_t rt_session_poll_mask(struct rt_session *s);
/*
 * ENABLE and DISABLE's parts that are the session's own (../enable.c has
 * the rest), under s->lock: start before it is listed for the probes,
 * stop once no probe can see it any more.
 */
bool rt_session_has_rings(struct rt_session *s);
void rt_session_start(struct rt_session *s);
void rt_session_stop(struct rt_session *s);

/* Path records and stack trailers (session_extras.c). */
int rt_session_extras_init(struct rt_session *s);
void rt_session_extras_destroy(struct rt_session *s);
int rt_session_extras_check(const struct ringtrace_config *cfg);
int rt_session_extras_configure(struct rt_session *s,
				const struct ringtrace_config *cfg);
void rt_session_extras_enable(struct rt_session *s);
void rt_session_extras_stats(struct rt_session *s, struct ringtrace_stats *st);
u64 rt_extras_features(void);
void rt_names_memo_reset(struct rt_session *s);

/* Per-thread rings (session_thread.c). */
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

/* The cgroup filter (cgroup_filter.c). */
u64 rt_cgroup_features(void);
int rt_cgroups_check(const struct ringtrace_config *cfg);
int rt_cgroups_from_user(const struct ringtrace_config *cfg,
			 struct rt_cgroups *c);
void rt_cgroups_release(struct rt_cgroups *c);

#endif /* _RINGTRACE_SESSION_H */
