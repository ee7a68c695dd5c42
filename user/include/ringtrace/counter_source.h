/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Counter snapshots as a merge source. Each interval, the counters are
 * read and one snapshot record per row (CPU, or process) is written into
 * a small ring in our own memory, laid out like the kernel's rings; the
 * merge then reads it through the same cursor as every other ring, so a
 * snapshot taken at time T comes out between the vfs_read records and
 * perf samples before and after T, under the same reordering window.
 *
 * The records never leave the process (they are not in the ABI): a
 * private type number and struct rt_counter_value payloads.
 */
#ifndef RINGTRACE_COUNTER_SOURCE_H
#define RINGTRACE_COUNTER_SOURCE_H

#include <stdint.h>

#include <linux/ringtrace.h>

#include "ringtrace/merge.h"
#include "ringtrace/perf_counters.h"
#include "ringtrace/record.h"

/* Private record type: far from ringtrace's and perf's numbers. */
#define RT_COUNTERS_RECORD	0x7c00u

struct rt_counters_record {
	struct ringtrace_event_header	header;
	__u64				ts_ns;		/* when read */
	__u64				interval_ns;	/* span of the values */
	__s32				cpu;		/* -1: a process row */
	__s32				pid;		/* -1: a CPU row */
	__u32				nr;
	__u32				__pad;
	/* struct rt_counter_value values[nr]; */
};

struct rt_counter_source {
	struct rt_source	src;		/* hand this to the merge */
	struct rt_counters	*cs;
	const char		*names[RT_COUNTERS_MAX];
	__u64			head;		/* the control page's two fields */
	__u64			tail;
	uint64_t		prod;		/* producer's head, published after writing */
	unsigned char		*data;
	uint64_t		size;
	uint64_t		snapshots;	/* records written */
	uint64_t		dropped;	/* not written: ring full */
};

/*
 * A ring big enough for the snapshots of @rows_per_round rows taken
 * @rounds_held times while the merge holds them (the window over the
 * interval, plus slack). 0 or -ENOMEM.
 */
int rt_counter_source_init(struct rt_counter_source *s, struct rt_counters *cs,
			   uint32_t rounds_held);

/*
 * Read the counters (rt_counters_read()) and write one record per row
 * with ts_ns = @now_ns and the values since the previous snapshot.
 */
void rt_counter_source_snapshot(struct rt_counter_source *s, uint64_t now_ns);

void rt_counter_source_fini(struct rt_counter_source *s);

/* A counter snapshot record of @nr values named @names (a raw file's too). */
int rt_decode_counters(const struct rt_record *rec, uint32_t nr,
		       const char *const *names, struct rt_event *ev);

#endif /* RINGTRACE_COUNTER_SOURCE_H */
