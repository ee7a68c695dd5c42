/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Filters applied in userspace to decoded events, like perf script's:
 * on replay (-i) they are the only filters; live, -p with several pids
 * (the module filters on one process tree) is applied here too.
 * Events without a task (LOST, CPU counter rows) always pass the task
 * filters, so losses stay visible.
 */
#ifndef RINGTRACE_FILTER_H
#define RINGTRACE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ringtrace/cpuset.h"
#include "ringtrace/filter_expr.h"
#include "ringtrace/record.h"

#define RT_FILTER_MAX_IDS	64u
#define RT_FILTER_MAX_EXPRS	16u	/* --filter given this often */

/*
 * -e names perf's kinds too: samples and counter snapshots. These bits are
 * userspace's only (the module never sees them), above any
 * RINGTRACE_EVENT_* bit the ABI can grow.
 */
#define RT_FILTER_EVENT_SAMPLE		(1ULL << 62)
#define RT_FILTER_EVENT_COUNTERS	(1ULL << 63)
#define RT_FILTER_PERF_EVENTS	(RT_FILTER_EVENT_SAMPLE | RT_FILTER_EVENT_COUNTERS)

struct rt_filter {
	uint32_t	pids[RT_FILTER_MAX_IDS];
	uint32_t	nr_pids;		/* 0: any */
	uint32_t	tids[RT_FILTER_MAX_IDS];
	uint32_t	nr_tids;
	const char	*comm;			/* NULL: any */
	bool		cpus_given;
	struct rt_cpuset cpus;
	uint64_t	events;			/* RINGTRACE_EVENT_*, RT_FILTER_EVENT_*; 0: any */
	uint64_t	min_latency_ns;		/* vfs_read only */
	/*
	 * func calls (--min-latency beside -e func:NAME; not for --graph,
	 * whose callees are kept for the reads that passed).
	 */
	uint64_t	min_func_latency_ns;
	uint64_t	min_offcpu_ns;		/* offcpu only */
	uint64_t	from_ns, to_ns;		/* time range; to 0: open */
	bool		relative;		/* a time range is set (--time) */
	/*
	 * Each end: a timestamp as printed (CLOCK_MONOTONIC, perf's --time),
	 * or a duration after the first event (given with a unit).
	 */
	bool		from_after_first, to_after_first;
	uint64_t	first_ns;		/* set from the first event seen */
	uint64_t	last_ns;		/* the latest event seen */
	uint64_t	time_matched;		/* events inside the time range */
	/*
	 * --filter EXPR, each given one ANDed with the rest,
	 * [RT_FILTER_MAX_EXPRS] allocated by the first; expr_dropped counts
	 * the events they alone turned away.
	 */
	struct rt_expr	*exprs;
	uint32_t	nr_exprs;
	uint64_t	expr_dropped;
};

/* "1,2,3" into @ids (at most RT_FILTER_MAX_IDS); 0, or -1 on bad input. */
int rt_filter_parse_ids(const char *list, uint32_t *ids, uint32_t *nr);

/*
 * "START,END", either may be empty: a bare number is a timestamp as the
 * text output prints it (seconds of CLOCK_MONOTONIC, as perf script's
 * --time), a duration with a unit (500ms, 2s) is after the first event.
 * 0, or -1 with the reason in @err.
 */
int rt_filter_parse_time(const char *arg, struct rt_filter *f, char *err,
			 size_t errlen);

/* Where the time range begins and ends for this run (to 0: open). */
uint64_t rt_filter_time_from(const struct rt_filter *f);
uint64_t rt_filter_time_to(const struct rt_filter *f);

bool rt_filter_active(const struct rt_filter *f);

/*
 * one more --filter EXPR (filter_expr.h). 0, or -1 with the
 * reason (and its column) in @err.
 */
int rt_filter_add_expr(struct rt_filter *f, const char *text, char *err,
		       size_t errlen);
void rt_filter_free(struct rt_filter *f);

/* Whether @ev passes. Not const: the first timestamp is remembered. */
bool rt_filter_pass(struct rt_filter *f, const struct rt_event *ev);

#endif /* RINGTRACE_FILTER_H */
