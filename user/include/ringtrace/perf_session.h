/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Everything perf_event_open() does beside a ringtrace session, as one
 * object the consumer loop drives through rt_stream_hooks: counters
 * (perf_counters.h) with their periodic snapshots (counter_source.h), and
 * sampling rings (perf_ring.h). It adds its rings to the merge, takes a
 * snapshot each interval, and at the end disables its events, takes the
 * last snapshot (so the intervals add up to the totals) and reads the
 * kernel's count of dropped samples.
 */
#ifndef RINGTRACE_PERF_SESSION_H
#define RINGTRACE_PERF_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ringtrace/counter_source.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/perf_counters.h"
#include "ringtrace/perf_ring.h"
#include "ringtrace/stream.h"

/* How often the loop looks at perf rings when nothing else wakes it. */
#define RT_PERF_POLL_NS		(100ull * 1000 * 1000)
#define RT_PERF_MIN_INTERVAL_NS	(10ull * 1000 * 1000)

struct rt_perf_session_opts {
	const char			*counters;	/* list, or NULL: none */
	uint64_t			interval_ns;	/* 0: summary only */
	bool				sample;
	struct rt_perf_sample_spec	sample_spec;
	uint64_t			window_ns;	/* the merge's */
};

struct rt_perf_session {
	bool				has_counters;
	struct rt_counters		counters;
	bool				has_snapshots;
	struct rt_counter_source	snapshots;
	bool				has_sampler;
	struct rt_perf_sampler		sampler;

	uint64_t			interval_ns;
	uint64_t			next_ns;	/* next snapshot */
	uint64_t			stop_ns;
	int64_t				kernel_lost;	/* PERF_FORMAT_LOST total */
	struct rt_stream_hooks		hooks;		/* hand to rt_stream */
	char				errmsg[256];
};

/*
 * Open counters and/or sampler for @t (unsupported counters are marked,
 * not fatal). 0 or -errno with a message in errmsg.
 */
int rt_perf_session_open(struct rt_perf_session *ps,
			 const struct rt_perf_session_opts *o,
			 const struct rt_perf_target *t, size_t page_size);

/* Start counting and sampling (or arm them for exec). */
int rt_perf_session_enable(struct rt_perf_session *ps, uint64_t now_ns);

/* Wake the loop's epoll @epfd when a perf ring fills. 0 or -errno. */
int rt_perf_session_watch(struct rt_perf_session *ps, int epfd);

/*
 * The summary, after the stream stopped: samples and their losses (with
 * @prog as prefix), then the counter table titled @title.
 */
void rt_perf_session_summary(FILE *out, const struct rt_perf_session *ps,
			     const char *prog, const char *title);

/*
 * Raw output (rawfile.h version 2): after the header, the descriptors a
 * replay needs to decode what the hooks' sources will write as the live
 * run decodes it (perf format and thread names, counter names). Nothing
 * when neither sampling nor counter snapshots are on: the file stays
 * version 1.
 */
void rt_perf_session_write_raw(const struct rt_perf_session *ps,
			       struct rt_outbuf *ob);

void rt_perf_session_close(struct rt_perf_session *ps);

/*
 * The threads of process @pid from /proc/PID/task, for a per-task
 * target. A malloc'ed array in *tids (free it), count in *nr; 0 or -errno.
 */
int rt_perf_list_threads(pid_t pid, pid_t **tids, uint32_t *nr);

#endif /* RINGTRACE_PERF_SESSION_H */
