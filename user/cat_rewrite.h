/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * -i FILE --raw -o OUT: a filtered or time-sliced copy of a recording.
 * The header and the descriptors (perf format, counter names, thread names
 * known at the start, process mappings) are copied; the records are
 * streamed in timestamp order through the replay's filters (-p, -t,
 * --comm, -C, -e, --min-latency, --time) and those kept are written in
 * chunks of their ring, in ring order. Path records, LOST records and
 * perf's bookkeeping (COMM, FORK, MMAP2) are always kept: the copy names
 * files, threads and frames as the original does, and says what was lost.
 */
#ifndef RINGTRACE_CAT_REWRITE_H
#define RINGTRACE_CAT_REWRITE_H

#include "cat_options.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/stream.h"

/*
 * Write @f, filtered as @o says, to @ob through @st (its out is @ob).
 * Returns rt_stream_file()'s status; *@kept and *@dropped count the
 * events written and filtered out.
 */
int cat_rewrite(const struct options *o, struct rt_stream *st,
		struct rt_raw_file *f, uint64_t *kept, uint64_t *dropped);

#endif /* RINGTRACE_CAT_REWRITE_H */
