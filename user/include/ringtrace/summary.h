/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The end-of-run summary ringtrace-cat prints to stderr:
 *
 *   ringtrace-cat: 1234 records, 56 path records, 2646 samples, 0 lost,
 *                  118464 bytes in 2.003 s
 *
 * records, path records, samples and counter snapshots as merge.h defines
 * them, the same live and on replay: a text or JSON stream prints one line
 * per record, sample, counter snapshot and LOST record.
 * lost = the counts of every LOST record consumed + the records still
 * pending in the control pages (dropped after the last LOST record had no
 * room). Then, when there were any, the calls of -e func:NAME functions
 * the probes missed, live and on replay:
 *
 *   ringtrace-cat: 36 func calls missed by the probe (more calls in
 *                  flight than it follows): no record
 *
 * With verbose, a per-CPU table and the kernel's session totals.
 */
#ifndef RINGTRACE_SUMMARY_H
#define RINGTRACE_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/ringtrace.h>

#include "ringtrace/merge.h"

/* elapsed_ns for a run without a duration (decoding a file). */
#define RT_SUMMARY_NO_TIME	UINT64_MAX

struct rt_summary {
	const char			*prog;
	const struct rt_source		*srcs;		/* ringtrace's rings */
	uint32_t			nr_srcs;
	/*
	 * perf's rings (--sample) and the counter snapshots (--counters
	 * --interval), live or from a raw file: counted in the same line,
	 * listed apart in the verbose table.
	 */
	const struct rt_source		*perf_srcs;
	uint32_t			nr_perf_srcs;
	const struct rt_source		*counter_srcs;
	uint32_t			nr_counter_srcs;
	uint64_t			lost_pending;
	/*
	 * Calls of the traced functions (-e func:NAME) the probes missed:
	 * no record has them. Live, the session's func_missed; on replay,
	 * what the recording kept of it (its FUNC_MISSED chunk).
	 */
	uint64_t			func_missed;
	/* Off-CPU intervals not followed (rt_stream's offcpu_missed). */
	uint64_t			offcpu_missed;
	uint64_t			elapsed_ns;
	const struct ringtrace_stats	*kernel;	/* NULL: none (-i) */
	bool				verbose;
	/*
	 * per-ring health (GET_STATS); NULL: none (-i, or an
	 * older module). When records were lost, the summary says how big
	 * a --buffer-size would have held the peak (health.h).
	 */
	const struct ringtrace_ring_stats *rings;
	uint32_t			nr_rings;
	uint64_t			page_size;
};

/* Sum of the per-source counters, every group. */
struct rt_source_counts rt_summary_totals(const struct rt_summary *s);

void rt_summary_print(FILE *out, const struct rt_summary *s);

#endif /* RINGTRACE_SUMMARY_H */
