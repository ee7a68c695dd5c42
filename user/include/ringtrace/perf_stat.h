/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The end-of-run counter summary, laid out like `perf stat`'s:
 *
 *   Performance counter stats for 'sha256sum big' (ringtrace-cat):
 *
 *             118.54 msec task-clock                #    0.893 CPUs utilized
 *                163      page-faults               #    1.375 K/sec
 *    <not supported>      cycles                    (ENOENT: no PMU counts ...)
 *         1,234,567      instructions              #    0.85  insn per cycle    (52.01%)
 *
 *        0.132740937 seconds time elapsed
 *
 * Derived columns appear only where their inputs were counted: CPUs
 * utilized (task-clock over elapsed time), events per second of
 * task-clock, GHz (cycles per task-clock ns), and each ratio perf_events.h
 * defines (IPC, cache and branch miss rates). A trailing percentage is the
 * share of time a multiplexed counter was on the PMU.
 */
#ifndef RINGTRACE_PERF_STAT_H
#define RINGTRACE_PERF_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ringtrace/perf_counters.h"

/*
 * @v / the value of the counter named @base in @cs->sum, if both were
 * counted and the base is not 0: true and *ratio; else false.
 */
bool rt_perf_stat_ratio(const struct rt_counters *cs, uint32_t i,
			const char *base, double *ratio);

/* Print the summary of cs->sum (read it first) over @elapsed_ns. */
void rt_perf_stat_print(FILE *out, const struct rt_counters *cs,
			const char *title, uint64_t elapsed_ns);

#endif /* RINGTRACE_PERF_STAT_H */
