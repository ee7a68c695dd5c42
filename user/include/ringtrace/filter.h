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
#include <stdint.h>

#include "ringtrace/cpuset.h"
#include "ringtrace/record.h"

#define RT_FILTER_MAX_IDS	64u

struct rt_filter {
	uint32_t	pids[RT_FILTER_MAX_IDS];
	uint32_t	nr_pids;		/* 0: any */
	uint32_t	tids[RT_FILTER_MAX_IDS];
	uint32_t	nr_tids;
	const char	*comm;			/* NULL: any */
	bool		cpus_given;
	struct rt_cpuset cpus;
	uint64_t	events;			/* RINGTRACE_EVENT_* bits; 0: any */
	uint64_t	min_latency_ns;		/* vfs_read only */
	uint64_t	min_offcpu_ns;		/* offcpu only (issue 22) */
	uint64_t	from_ns, to_ns;		/* time range; to 0: open */
	bool		relative;		/* from/to are after the first event */
	uint64_t	first_ns;		/* set from the first event seen */
};

/* "1,2,3" into @ids (at most RT_FILTER_MAX_IDS); 0, or -1 on bad input. */
int rt_filter_parse_ids(const char *list, uint32_t *ids, uint32_t *nr);

/* "START,END" in seconds (fractions ok) after the first event; END may be empty. */
int rt_filter_parse_time(const char *arg, struct rt_filter *f);

bool rt_filter_active(const struct rt_filter *f);

/* Whether @ev passes. Not const: the first timestamp is remembered. */
bool rt_filter_pass(struct rt_filter *f, const struct rt_event *ev);

#endif /* RINGTRACE_FILTER_H */
