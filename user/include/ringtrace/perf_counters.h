/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * perf_event_open() counters, counted alongside a ringtrace session: per
 * CPU (pid -1, cpu N) or per task (the threads of a process, inherited by
 * the children they create), read with PERF_FORMAT_GROUP |
 * TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING | ID and scaled the way `perf
 * stat` scales multiplexed counts: value * time_enabled / time_running.
 *
 * A counter the machine cannot count (no PMU in a VM, an event this CPU
 * lacks, a paranoid sysctl) is not an error: it is marked
 * RT_COUNTER_NOT_SUPPORTED with the errno and a sentence saying why, and
 * the others are counted. Only a target that does not exist (ESRCH) fails
 * rt_counters_open(). Fallbacks, in order: a counter refused with EACCES or
 * EPERM is retried counting user space only (exclude_kernel, printed as
 * "name:u"); a group member the group cannot take is retried alone.
 *
 * Every system call goes through rt_sys (sys.h), so unit tests play the
 * kernel. Reads happen once per interval, never per record.
 */
#ifndef RINGTRACE_PERF_COUNTERS_H
#define RINGTRACE_PERF_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ringtrace/perf_events.h"

#define RT_COUNTERS_MAX		24
#define RT_COUNTER_NAME_LEN	32

enum rt_counter_status {
	RT_COUNTER_OK		= 0,
	RT_COUNTER_NOT_SUPPORTED = 1,	/* opened nowhere: see reason */
	RT_COUNTER_NOT_COUNTED	= 2,	/* enabled but never on the PMU */
};

/*
 * One counter over a span (an interval, or the run so far). When
 * running_ns < enabled_ns the counter was multiplexed and value is the
 * scaled estimate raw * enabled_ns / running_ns.
 */
struct rt_counter_value {
	uint64_t	value;
	uint64_t	raw;
	uint64_t	enabled_ns;
	uint64_t	running_ns;
	uint32_t	status;		/* enum rt_counter_status */
	uint32_t	__pad;
};

/* A requested counter, over every target. */
struct rt_counter {
	const struct rt_perf_event_desc	*desc;
	char		name[RT_COUNTER_NAME_LEN];	/* "cycles", "cycles:u" */
	bool		user_only;	/* kernel excluded (paranoid fallback) */
	bool		ungrouped;	/* its group refused it: counted alone */
	int		err;		/* errno of the last failed open */
	uint32_t	opened;		/* targets it is counting on */
	char		reason[192];	/* why not supported / user only */
};

/* What rt_counters_read() produces: one row per CPU, or one for the task. */
struct rt_counter_row {
	int32_t			cpu;		/* -1 on a task row */
	int32_t			pid;		/* -1 on a CPU row */
	struct rt_counter_value	*delta;		/* [nr] since the previous read */
	struct rt_counter_value	*total;		/* [nr] since the start */
};

/* One perf_event_open() target: a CPU, or a thread. */
struct rt_counter_slot {
	int32_t		cpu;		/* -1 for a thread */
	pid_t		tid;		/* -1 for a CPU */
	uint32_t	row;
	int		fd[RT_COUNTERS_MAX];	/* -1: not open here */
	uint64_t	id[RT_COUNTERS_MAX];	/* PERF_EVENT_IOC_ID */
	uint32_t	leader[RT_COUNTERS_MAX];	/* counter index of its group leader */
	/* Cumulative readings at the previous read, for deltas. */
	uint64_t	last_raw[RT_COUNTERS_MAX];
	uint64_t	last_enabled[RT_COUNTERS_MAX];
	uint64_t	last_running[RT_COUNTERS_MAX];
	uint64_t	cur_raw[RT_COUNTERS_MAX];
	uint64_t	cur_enabled[RT_COUNTERS_MAX];
	uint64_t	cur_running[RT_COUNTERS_MAX];
};

struct rt_counters {
	struct rt_counter	c[RT_COUNTERS_MAX];
	uint32_t		nr;

	struct rt_perf_target	target;
	struct rt_counter_slot	*slots;
	uint32_t		nr_slots;
	struct rt_counter_row	*rows;
	uint32_t		nr_rows;
	struct rt_counter_value	*sum;		/* [nr] total over all rows */
	uint64_t		start_ns;	/* rt_counters_enable() */
	uint64_t		last_read_ns;
	uint64_t		read_errors;	/* read()s that failed or were short */
	char			errmsg[256];
};

/*
 * Parse "task-clock,cycles" (perf's names, "default" for the
 * default counter list) into @cs. 0, or -EINVAL with a message in @err.
 */
int rt_counters_parse(struct rt_counters *cs, const char *list, char *err,
		      size_t errlen);

/* Index of the counter named @name (perf's name, without ":u"), or -1. */
int rt_counters_find(const struct rt_counters *cs, const char *name);

/*
 * Open every counter on every target: disabled, or armed for exec.
 * Unsupported counters are marked, not fatal. 0, or -errno (ESRCH: the
 * task is gone; ENOMEM) with a message in errmsg.
 */
int rt_counters_open(struct rt_counters *cs, const struct rt_perf_target *t);

/* Start counting (unless armed for exec) and take the start time. */
int rt_counters_enable(struct rt_counters *cs, uint64_t now_ns);
int rt_counters_disable(struct rt_counters *cs);

/*
 * Read every group, then fill each row's delta (since the previous read)
 * and total, and cs->sum. A failed read keeps the previous values and is
 * counted in read_errors.
 */
void rt_counters_read(struct rt_counters *cs, uint64_t now_ns);

/* Close every fd, free the rows; @cs can be opened again. */
void rt_counters_close(struct rt_counters *cs);

/*
 * raw * enabled / running without overflow (exact up to 2^64 results);
 * raw when running == enabled (both 0 included: no time passed); 0 when
 * enabled but never running.
 */
uint64_t rt_counter_scale(uint64_t raw, uint64_t enabled, uint64_t running);

/* "ENOENT" etc. for the errnos perf_event_open() returns, else NULL. */
const char *rt_errno_name(int err);

#endif /* RINGTRACE_PERF_COUNTERS_H */
