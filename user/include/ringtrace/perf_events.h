/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The perf events the tools know by name: perf's own spellings (so a user
 * can copy a list from `perf stat -e`), each with its perf_event_attr type
 * and config, the group it is opened in, and the counter a derived ratio
 * divides it by. One table serves counters (--counters) and sampling
 * (--sample).
 */
#ifndef RINGTRACE_PERF_EVENTS_H
#define RINGTRACE_PERF_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ringtrace/cpuset.h"

/*
 * Groups: counters whose ratio is printed are opened in one perf group so
 * the kernel schedules them onto the PMU together; under multiplexing both
 * are then counted over the same intervals and the ratio stays exact even
 * though each count is scaled. Software events never multiplex and share
 * one group, so one read() returns all of them.
 */
enum rt_perf_group {
	RT_PERF_GROUP_SOFTWARE = 0,
	RT_PERF_GROUP_CYCLES,		/* cycles, instructions */
	RT_PERF_GROUP_CACHE,		/* cache-references, cache-misses */
	RT_PERF_GROUP_L1D,		/* L1-dcache-loads, -load-misses */
	RT_PERF_GROUP_LLC,		/* LLC-loads, LLC-load-misses */
	RT_PERF_GROUP_BRANCH,		/* branches, branch-misses */
	RT_PERF_GROUP_NR,
};

struct rt_perf_event_desc {
	const char		*name;		/* perf's name */
	const char		*alias;		/* another accepted name, or NULL */
	uint32_t		type;		/* PERF_TYPE_* */
	uint64_t		config;
	enum rt_perf_group	group;
	bool			hardware;	/* needs a PMU */
	bool			can_sample;	/* offered by --sample */
	/* A summary ratio: this / base, printed as `ratio_label` */
	const char		*ratio_base;	/* name of the divisor, or NULL */
	const char		*ratio_label;	/* "insn per cycle", "of all ..." */
	bool			ratio_percent;	/* print as a percentage */
};

/*
 * What perf events watch, following ringtrace-cat's selection: every CPU
 * of a set (-a, -C: pid -1, cpu N), or the threads of one process (-p,
 * -- COMMAND: pid = each thread, inherited by the children it creates).
 */
struct rt_perf_target {
	bool			per_cpu;	/* else per task */
	const struct rt_cpuset	*cpus;		/* per_cpu: count on these; per
						   task: sample rings on these */
	const pid_t		*tids;		/* per task: these threads... */
	uint32_t		nr_tids;
	pid_t			pid;		/* ...of this process */
	/* Per task: armed, the kernel enables the events when the task execs
	 * (a held -- COMMAND), so nothing before its exec is counted. */
	bool			enable_on_exec;
	/* Per task: these threads only, not the tasks they start
	 * (--per-thread, as its rings). */
	bool			threads_only;
};

/* Every known event; ends with a NULL name. */
extern const struct rt_perf_event_desc rt_perf_events[];

/*
 * perf's "dummy" software event: it never counts nor samples; a sampler
 * of it only carries the side-band records (COMM, MMAP2) a raw file of
 * ringtrace records with user stacks needs (user/cat/trace.c). Not in the
 * table: it is nothing a user asks for.
 */
extern const struct rt_perf_event_desc rt_perf_tracking_event;
#define RT_PERF_TRACKING_EVENT	"dummy"


/* Look up @len bytes of @name (perf's name or alias). NULL if unknown. */
const struct rt_perf_event_desc *rt_perf_event_find(const char *name,
						    size_t len);

/*
 * The counters `--counters default` opens, in print order: the software
 * ones, then the hardware ones (the list perf stat uses).
 */
extern const char rt_perf_default_counters[];

/* "task-clock, cpu-clock, ..." for messages listing the choices. */
void rt_perf_event_names(char *buf, size_t len, bool sampling_only);

#endif /* RINGTRACE_PERF_EVENTS_H */
