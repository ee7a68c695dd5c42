// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The table of named perf events (see perf_events.h). */
#include <stdio.h>
#include <string.h>

#include <linux/perf_event.h>

#include "ringtrace/perf_events.h"

/* PERF_TYPE_HW_CACHE config: cache | op << 8 | result << 16. */
#define HW_CACHE(cache, op, result) \
	((uint64_t)(cache) | (uint64_t)(op) << 8 | (uint64_t)(result) << 16)

#define SW(n, a, cfg, sample) \
	{ .name = n, .alias = a, .type = PERF_TYPE_SOFTWARE, .config = cfg, \
	  .group = RT_PERF_GROUP_SOFTWARE, .can_sample = sample }

const struct rt_perf_event_desc rt_perf_tracking_event =
	SW(RT_PERF_TRACKING_EVENT, NULL, PERF_COUNT_SW_DUMMY, false);

const struct rt_perf_event_desc rt_perf_events[] = {
	SW("task-clock", NULL, PERF_COUNT_SW_TASK_CLOCK, true),
	SW("cpu-clock", NULL, PERF_COUNT_SW_CPU_CLOCK, true),
	SW("context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES, false),
	SW("cpu-migrations", "migrations", PERF_COUNT_SW_CPU_MIGRATIONS, false),
	SW("page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS, false),
	SW("minor-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MIN, false),
	SW("major-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MAJ, false),

	{ .name = "cycles", .alias = "cpu-cycles", .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_CPU_CYCLES, .group = RT_PERF_GROUP_CYCLES,
	  .hardware = true },
	{ .name = "instructions", .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_INSTRUCTIONS, .group = RT_PERF_GROUP_CYCLES,
	  .hardware = true, .ratio_base = "cycles",
	  .ratio_label = "insn per cycle" },
	{ .name = "cache-references", .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_CACHE_REFERENCES,
	  .group = RT_PERF_GROUP_CACHE, .hardware = true },
	{ .name = "cache-misses", .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_CACHE_MISSES, .group = RT_PERF_GROUP_CACHE,
	  .hardware = true, .ratio_base = "cache-references",
	  .ratio_label = "of all cache refs", .ratio_percent = true },
	{ .name = "L1-dcache-loads", .type = PERF_TYPE_HW_CACHE,
	  .config = HW_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
			     PERF_COUNT_HW_CACHE_RESULT_ACCESS),
	  .group = RT_PERF_GROUP_L1D, .hardware = true },
	{ .name = "L1-dcache-load-misses", .type = PERF_TYPE_HW_CACHE,
	  .config = HW_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
			     PERF_COUNT_HW_CACHE_RESULT_MISS),
	  .group = RT_PERF_GROUP_L1D, .hardware = true,
	  .ratio_base = "L1-dcache-loads",
	  .ratio_label = "of all L1-dcache accesses", .ratio_percent = true },
	{ .name = "LLC-loads", .type = PERF_TYPE_HW_CACHE,
	  .config = HW_CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ,
			     PERF_COUNT_HW_CACHE_RESULT_ACCESS),
	  .group = RT_PERF_GROUP_LLC, .hardware = true },
	{ .name = "LLC-load-misses", .type = PERF_TYPE_HW_CACHE,
	  .config = HW_CACHE(PERF_COUNT_HW_CACHE_LL, PERF_COUNT_HW_CACHE_OP_READ,
			     PERF_COUNT_HW_CACHE_RESULT_MISS),
	  .group = RT_PERF_GROUP_LLC, .hardware = true,
	  .ratio_base = "LLC-loads", .ratio_label = "of all LL-cache accesses",
	  .ratio_percent = true },
	{ .name = "branches", .alias = "branch-instructions",
	  .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  .group = RT_PERF_GROUP_BRANCH, .hardware = true },
	{ .name = "branch-misses", .type = PERF_TYPE_HARDWARE,
	  .config = PERF_COUNT_HW_BRANCH_MISSES, .group = RT_PERF_GROUP_BRANCH,
	  .hardware = true, .ratio_base = "branches",
	  .ratio_label = "of all branches", .ratio_percent = true },
	{ .name = NULL },
};

const char rt_perf_default_counters[] =
	"task-clock,context-switches,cpu-migrations,page-faults,"
	"cycles,instructions,cache-references,cache-misses,"
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses";

static bool same(const char *known, const char *name, size_t len)
{
	return known && strlen(known) == len && !strncmp(known, name, len);
}

const struct rt_perf_event_desc *rt_perf_event_find(const char *name,
						    size_t len)
{
	for (const struct rt_perf_event_desc *d = rt_perf_events; d->name; d++)
		if (same(d->name, name, len) || same(d->alias, name, len))
			return d;
	return NULL;
}

void rt_perf_event_names(char *buf, size_t len, bool sampling_only)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (const struct rt_perf_event_desc *d = rt_perf_events; d->name; d++) {
		if (sampling_only && !d->can_sample)
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? ", " : "", d->name);
	}
}
