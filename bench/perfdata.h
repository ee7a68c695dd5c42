/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Just enough of perf.data to count what perf record kept and lost: the
 * file header's data section, walked record by record.
 */
#ifndef RTBENCH_PERFDATA_H
#define RTBENCH_PERFDATA_H

#include <stdint.h>

struct perfdata_counts {
	uint64_t	samples;	/* PERF_RECORD_SAMPLE */
	uint64_t	lost;		/* sum of PERF_RECORD_LOST.lost */
	uint64_t	lost_records;	/* number of PERF_RECORD_LOST */
	uint64_t	lost_samples;	/* sum of PERF_RECORD_LOST_SAMPLES.lost */
	uint64_t	data_bytes;	/* size of the data section */
};

/* 0 on success, -1 if @path is not a perf.data file we understand. */
int perfdata_count(const char *path, struct perfdata_counts *c);

#endif
