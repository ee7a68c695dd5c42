/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Triggered snapshots: the flight recorder's rings (overwrite mode, no
 * wake-ups) are looked at every few milliseconds, and each record written
 * since the last look is decoded and handed to a check (ringtrace-cat's
 * --trigger EXPR: the --filter language). Each ring's new bytes are copied
 * with the snapshot's validation protocol (snapshot.h: load data_head,
 * load overwrite_tail, copy, fence, load overwrite_tail again), so that no
 * torn record is ever checked; what the kernel overwrote before it was
 * looked at is counted, never checked, never guessed.
 *
 * One copy buffer as large as the largest ring, allocated at init; a look
 * allocates nothing and makes no system call (rt_snapshot_copy_ring reads
 * the control pages).
 */
#ifndef RINGTRACE_TRIGGER_H
#define RINGTRACE_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

#include "ringtrace/paths.h"
#include "ringtrace/record.h"
#include "ringtrace/session.h"

struct rt_trigger_scan {
	uint32_t	nr;
	uint64_t	*seen;		/* per ring: checked up to (free-running) */
	unsigned char	*buf;		/* the largest ring's size */
	/* Names for the check ("path ~ ..."): path and cgroup records. */
	struct rt_paths	*paths;
	/* totals since init */
	uint64_t	records;	/* decoded and checked */
	uint64_t	missed_bytes;	/* overwritten before they were checked */
	uint64_t	missed_rings;	/* looks that found a ring gone past them */
	uint64_t	busy;		/* looks given up: overwritten faster than
					   copied */
	uint64_t	malformed;	/* records of a size the kernel never writes */
};

/* 0 or -ENOMEM. @paths (the caller's) receives the names seen. */
int rt_trigger_scan_init(struct rt_trigger_scan *sc,
			 const struct rt_session *s, struct rt_paths *paths);
void rt_trigger_scan_fini(struct rt_trigger_scan *sc);

/*
 * Check every record of @s's rings written since the previous look, ring
 * after ring: @check is called with each decoded event that has a task
 * (vfs_read, lock, offcpu), named from the paths seen so far. Returns the
 * number of records checked.
 */
uint64_t rt_trigger_scan_look(struct rt_trigger_scan *sc,
			      const struct rt_session *s,
			      void (*check)(void *arg, const struct rt_event *ev),
			      void *arg);

#endif /* RINGTRACE_TRIGGER_H */
