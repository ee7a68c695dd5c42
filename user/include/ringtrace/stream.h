/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The consumer loop: wait for wake-ups, drain rings through the merge (or,
 * for raw output, straight into the file), stop on request, disable, drain
 * what is left. Also the same pipeline over a raw file (-i).
 *
 * Stopping: *stop is set asynchronously (signal handlers, child exit). It
 * is checked with @stop_signals blocked and the wait unblocks them
 * atomically (epoll_pwait), so a signal can never slip in between the
 * check and the sleep.
 */
#ifndef RINGTRACE_STREAM_H
#define RINGTRACE_STREAM_H

#include <signal.h>
#include <stdint.h>

#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/placement.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/session.h"

/*
 * Work beside the session's rings (perf_session.h): more merge sources, a
 * tick each loop iteration (counter snapshots), and a stop step after the
 * session's DISABLE (disable the perf events, take the last snapshot)
 * before the final drain.
 */
struct rt_stream_hooks {
	/* Add sources to the merge (rt_merge_add()); 0 or -errno. */
	int		(*add_sources)(void *arg, struct rt_merge *m);
	/*
	 * Called at the start of every iteration with the time just read;
	 * returns when it next needs to run (0: no need), which bounds the
	 * next sleep.
	 */
	uint64_t	(*tick)(void *arg, uint64_t now_ns);
	void		(*stop)(void *arg, uint64_t now_ns);
	void		*arg;
};

/* Why the merge may hold a record back: see merge.h and tools.rst. */
#define RT_DEFAULT_REORDER_WINDOW_NS	(20ull * 1000 * 1000)

enum rt_stream_status {
	RT_STREAM_OK		= 0,	/* stopped as asked, everything drained */
	RT_STREAM_ERR_OUTPUT	= 1,	/* output failed (errno in out->error) */
	RT_STREAM_ERR_DATA	= 2,	/* a ring or file is corrupt: errmsg */
	RT_STREAM_ERR_SYSTEM	= 3,	/* a system call failed: errmsg */
};

struct rt_stream {
	/* set by the caller */
	enum rt_format		format;
	struct rt_outbuf	*out;
	uint64_t		window_ns;
	uint64_t		duration_ns;	/* 0: until stopped */
	volatile sig_atomic_t	*stop;
	const sigset_t		*stop_signals;	/* NULL: none to block */
	/*
	 * NULL: the session alone. With RT_FORMAT_RAW the hooks' sources are
	 * written as chunks of their raw_kind (merge.h), unmerged.
	 */
	const struct rt_stream_hooks *hooks;
	/*
	 * Aggregating outputs (--folded): each decoded event goes here
	 * instead of to the printer; the caller writes the result at the end.
	 */
	void			(*sink)(void *arg, const struct rt_event *ev);
	void			*sink_arg;
	/*
	 * Path records go here (and are not printed); vfs_read events are
	 * named from it (rt_vfs_read_event.path). NULL: neither.
	 */
	struct rt_paths		*paths;
	/*
	 * rt_stream_file() only: every record, in timestamp order, goes here
	 * instead of the printer and the sink, with its decode status (@ev
	 * valid when RT_DECODE_OK), perf's bookkeeping and path records
	 * included (-i F --raw -o G writes what it keeps). Nonzero stops.
	 */
	int			(*on_record)(void *arg,
					     const struct rt_source *src,
					     const struct rt_record *rec,
					     int ret, const struct rt_event *ev);
	void			*on_record_arg;
	/*
	 * Live only: called every interval_ns (from the loop, between
	 * rounds: every event before it has been emitted), e.g. to print
	 * and reset a histogram. 0: never.
	 */
	uint64_t		interval_ns;
	void			(*on_interval)(void *arg, uint64_t now_ns);
	void			*interval_arg;
	/*
	 * live only, called every stats_ns from the loop (the
	 * --stats lines); 0: never.
	 */
	uint64_t		stats_ns;
	void			(*on_stats)(void *arg, uint64_t now_ns);
	void			*stats_arg;
	/*
	 * Live only: run at RT_READER_NICE and drain a ring the reader fell
	 * behind on on its own CPU (placement.h). Off: the reader stays
	 * where the scheduler puts it, at the nice it has.
	 */
	bool			follow_rings;
	/*
	 * Live only: asked at each iteration, after each wake-up; true ends
	 * the run as *stop does (ringtrace-cat -p: the processes it named
	 * have exited, pidwatch.h). NULL: never.
	 */
	bool			(*done)(void *arg);
	void			*done_arg;

	/* results */
	uint64_t		start_ns;	/* CLOCK_MONOTONIC */
	uint64_t		end_ns;
	uint64_t		lost_pending;	/* not reported by LOST records */
	/*
	 * Calls of -e func:NAME functions the probes missed (no record):
	 * live, the session's func_missed after DISABLE; from a file, its
	 * FUNC_MISSED chunks.
	 */
	uint64_t		func_missed;
	/*
	 * Calls held inside reads faster than the session's min_latency_ns
	 * and dropped by the module (not a loss: what --min-latency leaves
	 * out). func_held: the session held calls (RINGTRACE_CFG_FUNC_HOLD;
	 * from a file, it has a FUNC_FAST_READ chunk), func_fast_read their
	 * count: live, the session's func_fast_read after DISABLE; from a
	 * file, its FUNC_FAST_READ chunks.
	 */
	bool			func_held;
	uint64_t		func_fast_read;
	/*
	 * Off-CPU intervals the module could not follow (no record): live,
	 * rt_session_offcpu_missed() after DISABLE; from a file, its
	 * OFFCPU_MISSED chunks.
	 */
	uint64_t		offcpu_missed;
	struct rt_placement	place;		/* where the reader ran (-v) */
	/* internal: the session's rings come first in the merge */
	uint32_t		nr_session_rings;
	uint64_t		batch_bytes;	/* busy ring; slice handed back */
	uint64_t		watermark_bytes; /* the session's: late ring */
	char			errmsg[512];
};

/* Stream an enabled session until stopped; disables it and drains. */
int rt_stream_live(struct rt_stream *st, struct rt_session *s);

/* Decode a raw file in timestamp order. */
int rt_stream_file(struct rt_stream *st, struct rt_raw_file *f);

#endif /* RINGTRACE_STREAM_H */
