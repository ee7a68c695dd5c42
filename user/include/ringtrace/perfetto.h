/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * --perfetto FILE: the stream as Chrome trace-event JSON, which
 * ui.perfetto.dev and chrome://tracing open:
 *
 *   vfs_read      a complete slice ("ph":"X") on its thread's track, from
 *                 entry (ts - lat) to return; args file, count, ret, pos
 *   lock          two slices on the thread: "lock wait NAME" then
 *                 "lock hold NAME" (kernel contention records: wait only)
 *   counters      a counter track ("ph":"C") per CPU (in a "counters"
 *                 process, pid 0) or on the traced process; a counter
 *                 without a value (not supported, never counted) has no
 *                 track, and a "counter_without_track" metadata event
 *                 ("ph":"M") says why, once
 *   sample        an instant event ("ph":"i") on the thread
 *   func          a slice per call of a traced function (args ret, cpu),
 *                 an instant per tracepoint hit (args cpu and "args", the
 *                 registers in hex); where the session knew the
 *                 arguments' names and types, each also by its key
 *                 (rt_output_arg_keys(): its name, renamed "arg<i>_NAME"
 *                 where it is a key of the record's own), the value
 *                 --json's named_args has: "sig":10,"info":"0xffff..."
 *   LOST          a global instant event naming how many were lost
 *   names         process_name / thread_name metadata the first time a
 *                 pid / tid is seen and again when its name changes (a
 *                 child named as its parent until it execs); a process
 *                 takes the name of the first of its threads seen, then
 *                 its main thread's
 *
 * The file is a JSON array ("[" ... "]"); timestamps are CLOCK_MONOTONIC
 * microseconds with nanosecond decimals. Events are written as they
 * stream (no buffering beyond the output's); the tids already named are
 * remembered in a bounded set (RT_PERFETTO_MAX_TIDS: past it, new threads
 * stay unnamed, counted in unnamed).
 */
#ifndef RINGTRACE_PERFETTO_H
#define RINGTRACE_PERFETTO_H

#include <stdint.h>

#include "ringtrace/outbuf.h"
#include "ringtrace/paths.h"
#include "ringtrace/record.h"

#define RT_PERFETTO_MAX_TIDS	16384u		/* threads + processes named */
#define RT_PERFETTO_SLOTS	32768u		/* power of two */

struct rt_perfetto_name {
	uint32_t	key;			/* tid + 1; 0: free */
	char		comm[RINGTRACE_COMM_LEN];	/* the name last given */
};

struct rt_perfetto {
	struct rt_outbuf	*out;
	const struct rt_paths	*paths;		/* may be NULL */
	struct rt_perfetto_name	*named;		/* [RT_PERFETTO_SLOTS] */
	uint32_t		nr_named;
	uint64_t		unnamed;
	uint64_t		events;
	uint64_t		counters_said;	/* bit i: counter i without track */
	uint64_t		last_ts;	/* of the newest event written */
	int			first;		/* nothing written yet */
};

int rt_perfetto_init(struct rt_perfetto *p, struct rt_outbuf *out);
/* Write one event (streaming). */
void rt_perfetto_add(struct rt_perfetto *p, const struct rt_event *ev);
/*
 * A global instant event named @name at the newest event's time, its args
 * the JSON object @args (what the trace is missing: missing.h).
 */
void rt_perfetto_note(struct rt_perfetto *p, const char *name,
		      const char *args);
/* Close the array; frees the set. */
void rt_perfetto_finish(struct rt_perfetto *p);

#endif /* RINGTRACE_PERFETTO_H */
