/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * -i FILE --raw -o OUT: a filtered or time-sliced copy of a recording.
 * The header and the descriptors (perf format, counter names, thread names
 * known at the start, process mappings) are copied; the records are
 * streamed in timestamp order through the replay's filters (-p, -t,
 * --comm, -C, -e, --min-latency, --time) and those kept are written in
 * chunks of their ring, in ring order. Path and cgroup records, LOST
 * records and perf's bookkeeping (COMM, FORK, MMAP2) are always kept: the
 * copy names files, cgroups, threads and frames as the original does, and
 * says what was lost.
 */
#ifndef RINGTRACE_CAT_REWRITE_H
#define RINGTRACE_CAT_REWRITE_H

#include "options.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/stream.h"

/*
 * Write @f, filtered as @o says, to @ob through @st (its out is @ob).
 * Returns rt_stream_file()'s status; *@written counts what was written as
 * a replay of the copy counts it (@f's sources count what was read, as a
 * replay of @f does). Malformed records are not copied.
 */
int cat_rewrite(const struct options *o, struct rt_stream *st,
		struct rt_raw_file *f, struct rt_source_counts *written);

/*
 * "N of M records[, S of T samples] written to @to": @w from
 * cat_rewrite(), M and T what @f held (the counts of its replay).
 */
void cat_rewrite_report(FILE *out, const struct rt_raw_file *f,
			const struct rt_source_counts *w, const char *to);

#endif /* RINGTRACE_CAT_REWRITE_H */
