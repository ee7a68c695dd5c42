/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * the flight recorder's reader. The rings run in overwrite mode
 * (RINGTRACE_CFG_OVERWRITE); a snapshot copies the newest intact records of
 * every ring with the validation protocol of Documentation/protocol.rst
 * (load data_head, load overwrite_tail, copy, fence F, load overwrite_tail
 * again, keep only what lies above it), orders them by time, keeps those
 * newer than the previous snapshot within the size and time bounds, and
 * prints them between two delimiter lines.
 *
 * Between snapshots nothing is read: the reader costs nothing.
 */
#ifndef RINGTRACE_SNAPSHOT_H
#define RINGTRACE_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include <linux/ringtrace.h>

#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/session.h"

/* Copy attempts before a ring that keeps being overwritten is given up. */
#define RT_SNAPSHOT_TRIES	16

enum rt_snapshot_status {
	RT_SNAPSHOT_OK		= 0,
	RT_SNAPSHOT_BUSY	= 1,	/* overwritten faster than we copy */
	RT_SNAPSHOT_ERR_DATA	= -1,	/* a record size the kernel never writes */
};

/*
 * One ring's copy: intact records [*from, *to) (free-running positions,
 * *from a record boundary) at buf + (*from - *base), where the copy began
 * at *base. @buf holds @size bytes. @since (the previous snapshot's *to,
 * a record boundary; 0 at first) only skips what was shown already.
 */
struct rt_snapshot_copy {
	uint64_t	base;	/* position of buf[0] */
	uint64_t	from;	/* first intact record kept */
	uint64_t	to;	/* data_head copied up to */
};

int rt_snapshot_copy_ring(const struct ringtrace_mmap_page *pg,
			  const unsigned char *data, uint64_t size,
			  unsigned char *buf, uint64_t since,
			  struct rt_snapshot_copy *c);

/* A record of a snapshot, pointing into its ring's copy. */
struct rt_snapshot_rec {
	uint64_t		ts;
	uint64_t		pos;	/* free-running position in its ring */
	const unsigned char	*data;
	uint32_t		size;
	uint32_t		cpu;
	uint32_t		type;	/* enum ringtrace_record_type */
	uint32_t		ring;	/* index in rt_snapshot.rings */
};

struct rt_snapshot_ring {
	unsigned char	*buf;		/* data_size bytes */
	uint64_t	size;
	uint64_t	shown;		/* data_head the last snapshot reached */
	uint32_t	cpu;
	/* Its raw chunks (rawfile.h): RECORDS and its CPU, or a thread's */
	uint32_t	raw_kind;
	uint32_t	raw_id;
};

struct rt_snapshot {
	/* set by rt_snapshot_init()/the caller */
	uint64_t		max_bytes;	/* --snapshot-size; 0: no bound */
	uint64_t		max_age_ns;	/* --snapshot-time; 0: no bound */

	uint32_t		nr;
	struct rt_snapshot_ring	*rings;
	struct rt_snapshot_rec	*recs;		/* this snapshot's, by time */
	size_t			nr_recs;
	size_t			cap;
	size_t			first;		/* recs[first..nr_recs) shown */
	/*
	 * What the header counts: the records printed (recs[first..) but
	 * path records, which only name files) and those the bounds left
	 * out (recs[..first), path records not counted either).
	 */
	size_t			nr_shown;
	size_t			nr_not_shown;

	/* results of the last rt_snapshot_take() */
	uint64_t		number;		/* 1, 2, ... */
	uint64_t		ts_ns;		/* when it was taken */
	uint64_t		overwritten;	/* since the previous snapshot */
	uint64_t		busy_rings;	/* rings given up (RT_SNAPSHOT_BUSY) */
	uint64_t		total_overwritten;
	/*
	 * Calls of the session's functions (-e func:NAME) the probes missed
	 * since the previous snapshot (the session's func_missed, which the
	 * kernel counts from the session's start): no record has them, and
	 * when they were is not known, so some may be older than the
	 * snapshot's oldest record. 0 when no function is traced.
	 */
	uint64_t		func_missed;
	uint64_t		total_func_missed;
	struct ringtrace_ring_stats *stats;	/* [nr], GET_STATS; NULL: none */
};

/* Buffers for every ring of @s. 0 or -ENOMEM. */
int rt_snapshot_init(struct rt_snapshot *sn, const struct rt_session *s);
void rt_snapshot_fini(struct rt_snapshot *sn);

/*
 * Copy every ring of @s at @now_ns; on return recs[first..nr_recs) are the
 * records to show, oldest first. 0, or RT_SNAPSHOT_ERR_DATA.
 */
int rt_snapshot_take(struct rt_snapshot *sn, struct rt_session *s,
		     uint64_t now_ns);

/* Same, over copies already made (unit tests; rt_snapshot_take's core). */
void rt_snapshot_select(struct rt_snapshot *sn, uint64_t now_ns);

/*
 * Print the last snapshot in @format (text or JSON) with its delimiters;
 * path records name the vfs_read records after them (@paths may be NULL).
 */
void rt_snapshot_print(const struct rt_snapshot *sn, enum rt_format format,
		       struct rt_outbuf *ob, struct rt_paths *paths);

/*
 * --raw: the last snapshot's records as raw chunks (rawfile.h), one per
 * ring that kept some (its CPU's RECORDS, or THREAD_RECORDS of a
 * per-thread ring), each in time order: the records shown and every name
 * record (path, cgroup) copied, which names them on replay; then the
 * calls the probes missed since the previous snapshot (func_missed), a
 * FUNC_MISSED chunk as a live --raw recording ends with, so that a replay
 * says them missing alike. The file's header goes first (the caller's).
 * Returns the records written.
 */
size_t rt_snapshot_write_raw(const struct rt_snapshot *sn,
			     struct rt_outbuf *ob);

#endif /* RINGTRACE_SNAPSHOT_H */
