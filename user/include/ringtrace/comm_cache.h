/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Thread names for perf samples. A sample carries a tid but no name; perf
 * reports names in PERF_RECORD_COMM records (at exec and prctl), a new
 * task in PERF_RECORD_FORK (it bears its parent's name until it execs), and
 * threads that existed before tracing started are read once from /proc.
 * A fixed table: no allocation per record; when it is full a new name
 * replaces an old one (a sample of an evicted thread prints ":TID", as
 * perf script does for a thread it never saw named).
 */
#ifndef RINGTRACE_COMM_CACHE_H
#define RINGTRACE_COMM_CACHE_H

#include <stdint.h>
#include <sys/types.h>

#include <linux/ringtrace.h>

#include "ringtrace/record.h"

#define RT_COMM_CACHE_SLOTS	4096u	/* a power of two */
#define RT_COMM_CACHE_PROBE	8u

struct rt_comm_entry {
	uint32_t	key;			/* tid + 1; 0: empty */
	char		comm[RINGTRACE_COMM_LEN];	/* NUL-padded */
};

struct rt_comm_cache {
	struct rt_comm_entry	e[RT_COMM_CACHE_SLOTS];
	uint64_t		evicted;
};

void rt_comm_cache_init(struct rt_comm_cache *c);
void rt_comm_set(struct rt_comm_cache *c, uint32_t tid, const char *comm);

/*
 * A new task (PERF_RECORD_FORK) bears its parent's name until it execs, as
 * the kernel copies comm at fork: @tid takes @ptid's name when it is known.
 */
void rt_comm_inherit(struct rt_comm_cache *c, uint32_t tid, uint32_t ptid);

/*
 * The readers' one step for a decoded perf record: COMM and FORK update
 * @c (true: the record names tasks, nothing to print), a sample or a
 * mapping gets its task's name (false).
 */
bool rt_comm_track(struct rt_comm_cache *c, struct rt_event *ev);

/*
 * Name of @tid into @out (RINGTRACE_COMM_LEN + 1 bytes): the cached one,
 * "swapper" for tid 0 (the idle task), else ":TID".
 */
void rt_comm_get(const struct rt_comm_cache *c, uint32_t tid, char *out);

/*
 * Read the names of existing threads from /proc: those of process @pid,
 * or of every process when @pid <= 0. Returns how many were read.
 * Setup-time only (directory walks, one small read per thread).
 */
unsigned int rt_comm_cache_scan(struct rt_comm_cache *c, pid_t pid);

#endif /* RINGTRACE_COMM_CACHE_H */
