/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Where and how urgently the live reader runs (stream.c uses it; tools
 * only turn it on or off).
 *
 * The reader runs at a raised priority. A ring it came round to late
 * (a watermark more waiting than its wake-up was for) is drained on its
 * own CPU, and the reader stays beside it while it is busy. Why,
 * measured (Documentation/performance.rst, "Losses"):
 *
 * - A reader on another CPU than the producer can be stopped while the
 *   producer runs on: by other tasks on its CPU, or by a hypervisor that
 *   deschedules its vCPU (a loaded host stopped the reader's vCPU for 100
 *   to 200 ms while the workload's ran on, and 4 MiB at full rate
 *   overflowed). On the producer's own CPU, whatever stops the reader
 *   stops the producer too: the ring cannot fill because the reader's
 *   CPU was taken away.
 * - With every CPU busy the reader competes with the traced tasks. At an
 *   equal share it keeps up with two busy CPUs only if reading a record
 *   costs under a third of producing one; above the tasks it is
 *   tracing, only if it costs less than producing one. Its CPU is then
 *   taken from the producer it keeps up with, which is what makes that
 *   bound hold: the reader's time is bounded by the records there are.
 * - But a reader beside the producer that could have kept up from an idle
 *   CPU makes the producer's tasks pay for its CPU time: in a function
 *   graph's bench, 0.4x of trace-cmd's function_graph more per traced
 *   read. So it moves only once it fell behind where it ran.
 *
 * What the user chose stands: the reader only moves within the CPU mask
 * it was started with (taskset), and only raises a nice value of 0 (not
 * one given with nice(1)); without the privilege to raise it, it runs as
 * it is and rt_placement.nice_errno says why.
 */
#ifndef RINGTRACE_PLACEMENT_H
#define RINGTRACE_PLACEMENT_H

#include <sched.h>	/* cpu_set_t: _GNU_SOURCE, from the Makefile */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The reader's nice while it streams: weight 9548 to a nice-0 task's 1024. */
#define RT_READER_NICE	(-10)

struct rt_placement {
	bool		active;		/* started, and following busy rings */
	cpu_set_t	*allowed;	/* the mask we started with */
	cpu_set_t	*one;		/* scratch: one CPU */
	size_t		setsize;	/* bytes of each */
	int		pinned;		/* the CPU we are pinned to; -1: none */
	int		nice_before;	/* restored at the end */
	bool		niced;		/* we changed it */
	/* For -v. */
	int		nice;		/* what the reader ran at */
	int		nice_errno;	/* why it was not raised; 0: it was (or
					 * was not 0 to begin with) */
	uint64_t	moves;		/* times the reader changed CPU */
};

/*
 * Start following busy rings (CPUs below @nr_cpu_ids) and raise the
 * reader's nice to @nice if it is 0. Nothing is changed if @follow is
 * false. Never fails: what cannot be done is not done.
 */
void rt_placement_start(struct rt_placement *p, bool follow,
			uint32_t nr_cpu_ids, int nice);

/* About to drain a busy ring of @cpu: run there, if allowed to. */
void rt_placement_busy(struct rt_placement *p, uint32_t cpu);

/*
 * A round found no busy ring: give the scheduler back the whole mask, so
 * a reader that is not needed on a CPU does not stay tied to it.
 */
void rt_placement_idle(struct rt_placement *p);

/* Restore the mask and nice the reader started with. */
void rt_placement_stop(struct rt_placement *p);

#endif /* RINGTRACE_PLACEMENT_H */
