/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A /dev/ringtrace session: open (and check the module's ABI), configure,
 * map one ring per CPU, enable, wait, disable, read stats, close. Every
 * failure leaves a sentence in rt_session.errmsg that says what to do
 * about it (module not loaded, not root, buffer too big, ...), built from
 * the errno the kernel returned. All system calls go through rt_sys.
 */
#ifndef RINGTRACE_SESSION_H
#define RINGTRACE_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/ringtrace.h>

#include "ringtrace/cpuset.h"
#include "ringtrace/filter_expr.h"
#include "ringtrace/merge.h"

#define RT_DEFAULT_BUFFER_BYTES	(4u << 20)	/* per-CPU data area */
/*
 * The reader is woken once a ring holds this much unread (or half the
 * ring, if smaller), unless told otherwise: a bounded batch, not a
 * fraction of the ring. The rest of a large ring is then slack for a
 * reader that is not scheduled at once, and each wake-up's burst of work
 * stays short, which EEVDF (6.6+) schedules sooner: woken every 2 MiB
 * (half the default ring) a reader lost records behind 2 busy CPUs on
 * 7.2, woken every 256 KiB it did not (Documentation/performance.rst).
 * perf record wakes up about as often (half its 512 KiB default).
 */
#define RT_DEFAULT_WATERMARK_BYTES	(256u << 10)

/* What a tool asks for; turned into struct ringtrace_config. */
struct rt_session_opts {
	uint64_t	events;			/* RINGTRACE_EVENT_*; 0: vfs_read */
	/*
	 * RINGTRACE_EVENT_FUNC: the kernel functions traced (-e func:NAME)
	 * and the raw arguments each record carries (--args). Refused if the
	 * module lacks RINGTRACE_FEAT_FUNC.
	 */
	uint32_t	nr_funcs;
	uint32_t	func_args;
	/* false: 0 for functions, a tracepoint's own count for tp: names */
	bool		func_args_given;
	/*
	 * nr_funcs names: grown by rt_session_opts_add_func() (room for
	 * funcs_cap, freed by rt_session_opts_fini()), or the caller's own
	 * array (funcs_cap 0).
	 */
	char		(*funcs)[RINGTRACE_FUNC_NAME_LEN];
	uint32_t	funcs_cap;
	int32_t		pid;			/* -1: every process */
	bool		inherit;		/* pid's descendants too */
	bool		include_self;		/* do not exclude our own reads */
	bool		cpus_given;		/* false: all online CPUs */
	struct rt_cpuset cpus;			/* rings to map (and kernel filter) */
	uint64_t	min_latency_ns;
	uint32_t	watermark_bytes;	/* 0: RT_DEFAULT_WATERMARK_BYTES */
	uint32_t	flush_ms;		/* 0: the kernel's default */
	uint64_t	buffer_bytes;		/* per CPU; 0: RT_DEFAULT_BUFFER_BYTES */
	uint64_t	lock_min_wait_ns;
	uint64_t	lock_min_hold_ns;
	/*
	 * ABI 2. paths: ask for path records when the module offers them
	 * (RINGTRACE_FEAT_PATHS; quietly none otherwise). stack_events:
	 * records of these events carry stacks of up to stack_*_depth frames;
	 * refused if the module cannot capture kernel stacks, user depth
	 * dropped to 0 if it cannot walk user stacks.
	 */
	bool		paths;
	uint64_t	stack_events;
	uint8_t		stack_kernel_depth;
	uint8_t		stack_user_depth;
	/*
	 * per-thread rings. nr_tids > 0: one ring per thread of
	 * tids (the caller's array, kept until setup returns) instead of
	 * one per CPU; pid and inherit must then be unset. Refused if the
	 * module lacks RINGTRACE_FEAT_PER_THREAD.
	 */
	uint32_t	nr_tids;
	const int32_t	*tids;
	/*
	 * flight recorder (RINGTRACE_CFG_OVERWRITE): the rings keep
	 * the newest records, read with rt_snapshot_*() (snapshot.h).
	 */
	bool		overwrite;
	/*
	 * RINGTRACE_ATTACH_* to attach vfs_read with, 0: the
	 * module's choice (a mechanism that shares vfs_read). Enabling
	 * fails if it cannot be had (attach.h says what each one costs).
	 */
	uint32_t	vfs_read_attach;
	/*
	 * only tasks in these cgroups (v2 ids, cgroup.h) or
	 * below; nr_cgroups 0: every cgroup. Refused if the module lacks
	 * RINGTRACE_FEAT_CGROUP.
	 */
	uint32_t	nr_cgroups;
	const uint64_t	*cgroup_ids;
	/*
	 * records carry their task's cgroup and host pids, and
	 * cgroup records name the cgroups (RINGTRACE_CFG_CGROUPS), when the
	 * module offers it (quietly not otherwise).
	 */
	bool		cgroups;
	/*
	 * with cgroups, also the cgroup records
	 * (RINGTRACE_CFG_NO_CGROUP_NAMES when false). A module without
	 * RINGTRACE_FEAT_CGROUP_IDS then gets no cgroups at all.
	 */
	bool		cgroup_names;
	/*
	 * RINGTRACE_EVENT_OFFCPU records only for intervals at
	 * least this long (0: all). Tools default to
	 * RT_DEFAULT_MIN_OFFCPU_NS.
	 */
	uint64_t	min_offcpu_ns;
	/*
	 * ranges of vfs_read's ret and count (from --filter,
	 * filter_expr.h) the module applies before any ring work when it
	 * offers RINGTRACE_FEAT_VFS_READ_VALUES; quietly not otherwise
	 * (rt_session.values_in_kernel says which): the tool filters
	 * exactly in user space either way. NULL: none.
	 */
	const struct rt_expr_ranges	*vfs_read_ranges;
	/*
	 * with vfs_read and func events: func records only while their
	 * task is inside a traced vfs_read (RINGTRACE_CFG_FUNC_IN_READ),
	 * when the module offers it (RINGTRACE_FEAT_FUNC_IN_READ); quietly
	 * every call otherwise (rt_session.func_in_read_kernel says which).
	 */
	bool		func_in_read;
	/*
	 * with func_in_read and a min_latency_ns: the module holds the calls
	 * made inside a read until the read returns, and writes them only if
	 * it took min_latency_ns or more (RINGTRACE_CFG_FUNC_HOLD), when the
	 * module offers it (RINGTRACE_FEAT_FUNC_HOLD) and func_in_read was
	 * had; quietly every call inside a read otherwise
	 * (rt_session.func_hold_kernel says which). The calls of faster
	 * reads are then counted in ringtrace_stats.func_fast_read.
	 */
	bool		func_hold;
};

/*
 * 1 ms. Off-CPU time that explains a slow read (disk, network,
 * a lock held across I/O) is milliseconds; shorter intervals are mostly
 * the scheduler's own traffic (a preemption, a wake-up race, a pipe
 * ping-pong) and can come at 100k+ a second. With a minimum M a thread
 * writes at most 1/M records a second whatever its switch rate: 1000/s at
 * 1 ms, which the default ring drains with room to spare. vfs_read
 * records' offcpu_ns counts every interval regardless.
 */
#define RT_DEFAULT_MIN_OFFCPU_NS	1000000u

/* One mapped ring: a CPU's, or a thread's in per-thread mode. */
struct rt_session_ring {
	void				*base;
	size_t				map_len;
	struct ringtrace_mmap_page	*page;
};

struct rt_session {
	int			fd;
	int			epfd;
	const char		*path;
	struct ringtrace_info	info;
	bool			enabled;
	uint32_t		vfs_read_attach; /* asked for (opts), 0: any */
	/* The functions traced: opts' names, kept by the caller. */
	const char		(*funcs)[RINGTRACE_FUNC_NAME_LEN];
	uint32_t		nr_funcs;
	/*
	 * What their arguments are, by func_idx (nr_funcs; nr_args 0: not
	 * known), from the kernel's BTF: rt_output_set_func_args()'s, and a
	 * recording's FUNC_ARGS chunk. Allocated by setup (NULL without
	 * functions), freed by rt_session_close().
	 */
	struct rt_func_arg_descs *func_arg_descs;
	/* the module applies opts' vfs_read_ranges. */
	bool			values_in_kernel;
	/*
	 * RINGTRACE_EVENT_OFFCPU asked for: the module-wide offcpu_missed
	 * when ENABLE came, for rt_session_offcpu_missed().
	 */
	bool			offcpu;
	uint64_t		offcpu_missed_before;
	/* the module records func calls inside reads only. */
	bool			func_in_read_kernel;
	/* it holds them until their read returns (opts' func_hold). */
	bool			func_hold_kernel;
	uint32_t		watermark;	/* bytes, as configured */
	uint32_t		nr_rings;
	struct rt_session_ring	*rings;		/* nr_rings, CPU (or tids) order */
	struct rt_source	*srcs;		/* parallel to rings */
	char			errmsg[512];
};

/* Open @path (NULL: /dev/ringtrace) and GET_INFO. 0 or -errno. */
int rt_session_open(struct rt_session *s, const char *path);

/*
 * SET_CONFIG, then map one ring per selected CPU (all online CPUs unless
 * opts->cpus_given) and register for poll wake-ups. 0 or -errno.
 */
int rt_session_setup(struct rt_session *s, const struct rt_session_opts *o);

int rt_session_enable(struct rt_session *s);
/*
 * Off-CPU intervals the module could not follow since ENABLE (its table
 * of tasks off CPU was full: ringtrace_stats.offcpu_missed, module-wide,
 * so another session's tasks count too); 0 without RINGTRACE_EVENT_OFFCPU.
 */
uint64_t rt_session_offcpu_missed(struct rt_session *s);
/*
 * RINGTRACE_ATTACH_* vfs_read is attached with now (or would be next), 0
 * if the module does not say.
 */
uint32_t rt_session_vfs_read_attach(struct rt_session *s);
int rt_session_disable(struct rt_session *s);
int rt_session_stats(struct rt_session *s, struct ringtrace_stats *st);

/*
 * Wait until a ring has data or the kernel sends a wake-up (watermark,
 * flush timer, disable), at most @timeout_ms (-1: no limit), with the
 * signal mask @sigmask while waiting (NULL: unchanged). Edge-triggered: a
 * wake-up that happened while we were busy is still reported once.
 * Returns > 0 woken, 0 timeout, -EINTR signal, other -errno.
 */
int rt_session_wait(struct rt_session *s, int timeout_ms,
		    const sigset_t *sigmask);

/*
 * Most functions (func: and tp: names) the loaded module takes a session:
 * ringtrace_info.max_funcs, RINGTRACE_MAX_FUNCS_VER0 from a module that
 * does not say (older than RINGTRACE_INFO_SIZE_FUNCS); never more than
 * this tool's RINGTRACE_MAX_FUNCS. Setup refuses more, naming the limit.
 */
uint32_t rt_session_max_funcs(const struct rt_session *s);
/*
 * RINGTRACE_ATTACH_FPROBE (one probe, every function in one batch) or
 * RINGTRACE_ATTACH_KRETPROBE (one probe per function), 0 if the module
 * does not say.
 */
uint32_t rt_session_func_attach(const struct rt_session *s);

/* Records dropped but not yet reported by a LOST record, over all rings. */
uint64_t rt_session_lost_pending(const struct rt_session *s);

/*
 * The names of RINGTRACE_EVENT_* bits as -e takes them, joined by @sep,
 * into @buf ("" for none; unknown bits as "event bits 0x..."); returns buf.
 */
const char *rt_event_names(uint64_t events, const char *sep, char *buf,
			   size_t len);

/*
 * -e's "func:NAME" or "tp:SUBSYS:EVENT" (@len bytes at @item, not
 * terminated): NAME, or the tracepoint with its RINGTRACE_FUNC_TP_PREFIX,
 * joins @o's functions and RINGTRACE_EVENT_FUNC its events. 0 when @item
 * is such an event, 1 when it is not one (another event name), -1 with
 * why in @err: no name, not a tracepoint's shape, one too long, given
 * twice, more than RINGTRACE_MAX_FUNCS.
 */
int rt_session_opts_add_func(struct rt_session_opts *o, const char *item,
			     size_t len, char *err, size_t errlen);

/*
 * @names (@nr of them, at most RINGTRACE_MAX_FUNCS) become @o's, copied
 * into a table of their size; 0 or -ENOMEM.
 */
int rt_session_opts_set_funcs(struct rt_session_opts *o,
			      const char (*names)[RINGTRACE_FUNC_NAME_LEN],
			      uint32_t nr);
/* Free the names @o owns (none: nothing); @o has none after. */
void rt_session_opts_fini(struct rt_session_opts *o);

/* Unmap, close; safe on a partly set up session. */
void rt_session_close(struct rt_session *s);

/* Check a --buffer-size value against the module; message in errmsg. */
int rt_session_check_buffer(struct rt_session *s, uint64_t bytes);

#endif /* RINGTRACE_SESSION_H */
