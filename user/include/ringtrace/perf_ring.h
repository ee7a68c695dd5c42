/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Sampling with perf_event_open(), read through the same ring cursor
 * (ring.h) and merge (merge.h) as /dev/ringtrace: one perf ring per CPU,
 * mapped as perf_event_mmap_page + 2^n data pages, whose records decode
 * into struct rt_event (record.h) and print with the same printers.
 *
 * The events are configured so their records merge with ringtrace's:
 *  - use_clockid = 1, clockid = CLOCK_MONOTONIC: PERF_SAMPLE_TIME is the
 *    clock ringtrace stamps records with (both are the kernel's
 *    ktime_get_mono_fast_ns());
 *  - sample_type = TID | TIME | CPU | IP (| CALLCHAIN): what the text and
 *    JSON outputs print;
 *  - sample_id_all = 1: LOST and COMM records carry time and CPU too, so
 *    they merge in order (a LOST record without a time would sort first);
 *  - comm = 1, comm_exec = 1: thread names for samples (comm_cache.h);
 *  - read_format = PERF_FORMAT_LOST (Linux 6.0+, dropped on EINVAL): the
 *    kernel's own count of dropped samples, so losses no LOST record
 *    reported before the end are still counted.
 *
 * Per CPU (-a, -C): one event per CPU (pid -1). Per task (-p, --): one
 * event per thread and CPU, inherited by new children; on each CPU the
 * first event owns the ring and the others are redirected into it with
 * PERF_EVENT_IOC_SET_OUTPUT (the kernel refuses to map an inherited event
 * that is not bound to a CPU).
 */
#ifndef RINGTRACE_PERF_RING_H
#define RINGTRACE_PERF_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ringtrace/comm_cache.h"
#include "ringtrace/merge.h"
#include "ringtrace/perf_events.h"
#include "ringtrace/record.h"

#define RT_PERF_DEFAULT_FREQ		1000u		/* Hz, perf record's default:
							   4000; lighter under TCG */
#define RT_PERF_DEFAULT_BUFFER_BYTES	(256u * 1024)	/* per CPU */

struct rt_perf_sample_spec {
	const struct rt_perf_event_desc	*desc;
	uint64_t			freq;		/* samples per second */
	bool				callchain;	/* PERF_SAMPLE_CALLCHAIN */
	uint64_t			buffer_bytes;	/* data area per CPU, 2^n pages */
	bool				track_mmaps;	/* MMAP2 records (raw files) */
	bool				tracking_only;	/* the dummy event: no samples */
};

struct rt_perf_ring {
	int		cpu;
	int		fd;		/* the event whose mapping this is */
	void		*base;
	size_t		map_len;
};

struct rt_perf_sampler {
	struct rt_perf_sample_spec	spec;
	struct rt_perf_format		fmt;
	size_t				page_size;
	bool				per_cpu;
	bool				enable_on_exec;
	bool				threads_only;	/* no inherit */
	bool				has_lost_format;	/* PERF_FORMAT_LOST accepted */
	bool				user_only;	/* kernel excluded (paranoid) */
	bool				mmap_build_id;	/* MMAP2 with build-ids */

	uint32_t			nr_rings;
	struct rt_perf_ring		*rings;		/* one per CPU */
	struct rt_source		*srcs;		/* parallel: give to the merge */
	uint32_t			nr_fds;
	int				*fds;		/* every event */

	struct rt_comm_cache		*comms;
	char				errmsg[256];
};

/*
 * "cpu-clock:4000" -> the event and its frequency; a missing ":FREQ"
 * means RT_PERF_DEFAULT_FREQ. 0 or -EINVAL with a message in @err.
 */
int rt_perf_sample_parse(const char *arg, struct rt_perf_sample_spec *spec,
			 char *err, size_t errlen);

/*
 * Open and map the events (disabled, or armed for exec) for @t, with
 * @page_size the system's. Every data byte is behind a cursor in srcs[].
 * 0 or -errno with a message in errmsg (sampling was asked for: unlike a
 * counter, a sampler that cannot open fails the run).
 */
int rt_perf_sampler_open(struct rt_perf_sampler *ps,
			 const struct rt_perf_sample_spec *spec,
			 const struct rt_perf_target *t, size_t page_size);

int rt_perf_sampler_enable(struct rt_perf_sampler *ps);
int rt_perf_sampler_disable(struct rt_perf_sampler *ps);

/*
 * Register every ring's fd for EPOLLIN | EPOLLET on @epfd: perf wakes the
 * reader when a ring holds more than a quarter of its size. 0 or -errno.
 */
int rt_perf_sampler_watch(struct rt_perf_sampler *ps, int epfd);

/*
 * Samples the kernel dropped, by its own count (PERF_FORMAT_LOST), summed
 * over every event; -1 if the kernel cannot tell (before 6.0).
 */
int64_t rt_perf_sampler_lost(struct rt_perf_sampler *ps);

void rt_perf_sampler_close(struct rt_perf_sampler *ps);

#endif /* RINGTRACE_PERF_RING_H */
