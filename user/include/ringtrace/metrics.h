/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Metrics for a monitoring system (ringtrace-exporter): per (cgroup, comm,
 * file class) latency histograms and counters of vfs_read, per (cgroup,
 * comm) histograms of lock wait and hold and of time off CPU, and per
 * (cgroup, comm, function) latency histograms of -e func:NAME's calls,
 * printed in the Prometheus text exposition format.
 *
 * The table is allocated once: at most max_series keys. A key first seen
 * when the table is full is counted in an "[other]" series (one for reads,
 * one for locks and off-CPU time), so that memory and the number of series
 * a scrape returns stay bounded whatever the workload. Keys keep the slot
 * they were given: a Prometheus counter must never go down, so a series
 * cannot hand its counts over to another one later (ranking keys at each
 * scrape would do that).
 *
 * Buckets: le = 2^b - 1 ns for b = 10, 12, ... 36, so that each cumulative
 * bucket is the sum of ringtrace-cat --hist's power-of-two rows below
 * 2^b ns. Sums are exact: nanoseconds printed as seconds with 9 decimals.
 *
 * Not thread-safe: the caller serialises rt_metrics_add() and the printer.
 */
#ifndef RINGTRACE_METRICS_H
#define RINGTRACE_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ringtrace/record.h"

#define RT_METRICS_FIRST_BIT	10
#define RT_METRICS_BIT_STEP	2
#define RT_METRICS_BOUNDS	14	/* 2^10-1 ns .. 2^36-1 ns, then +Inf */
#define RT_METRICS_CGROUP_LEN	256
#define RT_METRICS_DEFAULT_SERIES	64
#define RT_METRICS_MAX_SERIES	65536

/* What a read's file is, from its name (rt_metrics_file_class()). */
enum rt_metrics_class {
	RT_MC_FILE,	/* a path: "/usr/lib/..." */
	RT_MC_DEVICE,	/* under /dev/ */
	RT_MC_PROCFS,	/* under /proc/ or /sys/ */
	RT_MC_PIPE,	/* "pipe:[INO]" */
	RT_MC_SOCKET,	/* "socket:[INO]" */
	RT_MC_ANON,	/* another "KIND:..." pseudo file (anon_inode:...) */
	RT_MC_UNNAMED,	/* no path record named it */
	RT_MC_NONE,	/* lock and off-CPU series: no file */
	RT_MC_NR,
};

enum rt_metrics_hist_kind {
	RT_MH_VFS_READ,
	RT_MH_LOCK_WAIT,
	RT_MH_LOCK_HOLD,
	RT_MH_OFFCPU,
	RT_MH_FUNC,
	RT_MH_NR,
};

struct rt_metrics_hist {
	uint64_t	count;
	uint64_t	sum_ns;
	uint64_t	bucket[RT_METRICS_BOUNDS + 1];	/* not cumulative */
};

struct rt_metrics_series {
	bool			used;
	uint8_t			cls;		/* enum rt_metrics_class */
	uint64_t		cgroup_id;	/* 0: none known */
	char			comm[RINGTRACE_COMM_LEN + 1];
	char			cgroup[RT_METRICS_CGROUP_LEN];
	/* A func series' function ("" in the others); part of the key. */
	char			func[RINGTRACE_FUNC_NAME_LEN];
	uint64_t		bytes;		/* vfs_read: bytes returned */
	uint64_t		errors;		/* vfs_read: calls that failed */
	struct rt_metrics_hist	h[RT_MH_NR];
};

struct rt_metrics {
	uint32_t		max_series;
	uint32_t		nr_series;
	/* max_series keyed ones, then the two "[other]" series */
	struct rt_metrics_series *series;
	uint32_t		*index;		/* slot + 1, 0: empty */
	uint32_t		index_mask;
	uint64_t		records[RT_EVENT_KIND_MAX];
	uint64_t		lost;		/* from LOST records */
	uint64_t		other_records;	/* counted in "[other]" */
};

/* The health figures the printer adds (the exporter's own). */
struct rt_metrics_health {
	uint64_t	lost_pending;	/* dropped, not yet in a LOST record */
	/*
	 * Calls of -e func:NAME functions the probes missed (the session's
	 * func_missed; a replay's FUNC_MISSED chunks): no record has them.
	 */
	uint64_t	func_missed;
	uint64_t	reader_cpu_ns;	/* CPU time of the reading thread */
};

/* 0, -EINVAL (max_series 0 or too big) or -ENOMEM. */
int rt_metrics_init(struct rt_metrics *m, uint32_t max_series);
void rt_metrics_fini(struct rt_metrics *m);

/* Account one decoded event (the stream's sink); no allocation. */
void rt_metrics_add(struct rt_metrics *m, const struct rt_event *ev);

enum rt_metrics_class rt_metrics_file_class(const char *path);
const char *rt_metrics_class_name(enum rt_metrics_class c);

/* Upper bound of bucket @i in ns (i < RT_METRICS_BOUNDS). */
static inline uint64_t rt_metrics_bound_ns(unsigned int i)
{
	return (1ull << (RT_METRICS_FIRST_BIT + RT_METRICS_BIT_STEP * i)) - 1;
}

/* The Prometheus text exposition format (version 0.0.4); 0 or -EIO. */
int rt_metrics_print_prom(FILE *f, const struct rt_metrics *m,
			  const struct rt_metrics_health *h);

#endif /* RINGTRACE_METRICS_H */
