/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * K-way merge of record sources (one per ringtrace CPU ring, one per perf
 * ring, one for counter snapshots) into one stream ordered by timestamp,
 * with a bounded reordering window.
 *
 * Records stay in their rings until emitted: a round peeks at the oldest
 * unread record of every source, repeatedly emits the oldest of them, and
 * finally releases each ring's tail up to what it emitted. Nothing is
 * copied, and a record held back by the window keeps its ring space.
 *
 * What is guaranteed (Documentation/tools.rst, "Ordering"):
 *  - records of one source are emitted in ring order;
 *  - a record is emitted only once it is older than now - window, where now
 *    is read before the rings' heads are loaded, or when draining; so the
 *    output is in timestamp order unless a record became visible in its
 *    ring more than `window` after its timestamp;
 *  - exception, ring pressure: when a ring is at least half full of held
 *    records, the oldest records are emitted without waiting for the window
 *    until it is a quarter full (counted as "forced"); the order among what
 *    is visible is still kept, only records still unpublished elsewhere
 *    could then come out of order. Losing records is worse than that.
 * Ties are broken by source index: the order sources were added in (lower
 * CPU first within one array; ringtrace rings before perf rings in
 * ringtrace-cat).
 */
#ifndef RINGTRACE_MERGE_H
#define RINGTRACE_MERGE_H

#include <stdbool.h>
#include <stdint.h>

#include "ringtrace/ring.h"

struct rt_source;
struct rt_event;

/* Timestamp (CLOCK_MONOTONIC ns) of a record of this source. */
typedef uint64_t (*rt_source_ts_fn)(const struct rt_source *src,
				    const struct rt_record *rec);

/*
 * Decode a record of this source into @ev (record.h's RT_DECODE_*). Rings
 * of different producers number their record types differently (perf's
 * PERF_RECORD_LOST is 2, ringtrace's vfs_read is 2), so the decoder belongs
 * to the source, not to the record.
 */
typedef int (*rt_source_decode_fn)(struct rt_source *src,
				   const struct rt_record *rec,
				   struct rt_event *ev);

/*
 * Counters any consumer of a source keeps (summary, per-CPU with -v). One
 * vocabulary, live and on replay: records are the events a
 * text or JSON stream prints a line for (vfs_read, lock; unknown and
 * malformed ones too); path and cgroup records, perf samples and counter
 * snapshots are counted apart; LOST records add their counts to lost; perf's
 * bookkeeping records (COMM, MMAP2, THROTTLE) are not counted.
 */
struct rt_source_counts {
	uint64_t	records;	/* event records, as defined above */
	uint64_t	paths;		/* path records (ABI 2) */
	uint64_t	cgroups;	/* cgroup records */
	uint64_t	samples;	/* perf samples */
	uint64_t	counters;	/* counter snapshots */
	uint64_t	lost;		/* sum of LOST records' counts */
	uint64_t	lost_records;	/* LOST records (a line each) */
	uint64_t	bytes;		/* bytes consumed, LOST records included */
	uint64_t	unknown;	/* records of a type we do not know */
	uint64_t	malformed;	/* known type, shorter than its structure */
	uint64_t	forced;		/* of the counted ones, emitted before
					 * their window expired (pressure) */
	uint64_t	fp_loops;	/* stacks cut at a frame-pointer loop
					 * (samples' and records' user stacks) */
};

struct rt_source {
	struct rt_ring		ring;
	uint32_t		cpu;		/* CPU of a per-CPU ring */
	uint32_t		tid;		/* thread of a per-thread ring; 0: none */
	rt_source_ts_fn		timestamp;
	rt_source_decode_fn	decode;		/* rt_source_init: ringtrace records */
	const char		*label;		/* for messages: "ring of" CPU n */
	/*
	 * Sources made of several segments (a raw file's chunks) load the
	 * next one here when the ring runs empty; RT_RING_OK if they did.
	 * NULL for live rings: new data is seen at the next round only.
	 */
	int			(*refill)(struct rt_source *src);
	/*
	 * Optional, for such sources: after a ring error in a segment (a
	 * damaged record), note it, skip what is left of that segment and
	 * load the next; RT_RING_OK if one was loaded, RT_RING_EMPTY if the
	 * source has no more. The source then goes on (or ends) without
	 * failing: the owner says what was skipped. NULL: the error fails
	 * the source (live rings: nothing after it can be trusted).
	 */
	int			(*recover)(struct rt_source *src);
	void			*ctx;		/* owner's data */
	struct rt_source_counts	counts;
	/* Raw output's chunk kind for this ring (rawfile.h); 0: RECORDS. */
	uint32_t		raw_kind;

	/* merge state */
	struct rt_record	cur;
	uint64_t		cur_ts;
	bool			has_cur;
	bool			pressured;
	bool			emit_forced;	/* the record being emitted is
						 * ahead of its window */
	bool			failed;		/* ring error already reported */
	uint32_t		index;		/* position in the merge: breaks ties */
};

/* Called for each record in order. Non-zero stops the round. */
typedef int (*rt_emit_fn)(void *arg, struct rt_source *src,
			  const struct rt_record *rec, uint64_t ts);

struct rt_merge {
	struct rt_source	**srcs;		/* every source, in the order added */
	uint32_t		nr;
	struct rt_source	**heap;
	uint32_t		heap_len;
	uint64_t		window_ns;
	uint32_t		nr_pressured;
	/*
	 * Release a ring as soon as this many of its bytes are emitted,
	 * not only at the end of the round: a round with a backlog hands
	 * the space back to the producer as it goes. 0: at the end only.
	 */
	uint64_t		release_bytes;
};

struct rt_merge_result {
	uint64_t		emitted;
	uint64_t		forced;
	bool			held;		/* records wait for the window */
	uint64_t		oldest_held_ns;	/* timestamp of the oldest of them */
	int			error;		/* first new ring error, or 0 */
	struct rt_source	*error_src;
	int			stopped;	/* what emit returned, if not 0 */
};

/*
 * A ringtrace ring's source: timestamps at offset 8 (rt_record_ts()),
 * decoded by rt_decode().
 */
void rt_source_init(struct rt_source *src, uint32_t cpu);

/* Decode @rec with @src's decoder. */
int rt_source_decode(struct rt_source *src, const struct rt_record *rec,
		     struct rt_event *ev);

int rt_merge_init(struct rt_merge *m, struct rt_source *srcs, uint32_t nr,
		  uint64_t window_ns);

/*
 * Add @nr more sources (another owner's array: perf rings, the counter
 * source) after those already merged. 0 or -1 (out of memory). Setup
 * time only: never between the rounds' emit callbacks.
 */
int rt_merge_add(struct rt_merge *m, struct rt_source *srcs, uint32_t nr);
void rt_merge_fini(struct rt_merge *m);

/*
 * One round: refresh every source, emit records older than now - window
 * (all of them when @drain), release the rings (also along the way, every
 * release_bytes). A source whose ring fails
 * is reported once in @res and skipped from then on.
 */
void rt_merge_round(struct rt_merge *m, uint64_t now_ns, bool drain,
		    rt_emit_fn emit, void *arg, struct rt_merge_result *res);

/*
 * Count one record of @src as struct rt_source_counts says: @ret is what
 * decoding it returned (record.h's RT_DECODE_*), @ev the event when
 * RT_DECODE_OK. A record emitted ahead of its window (emit_forced) is
 * counted in forced only if it is counted at all, so forced never exceeds
 * records + paths + samples + counters.
 */
void rt_source_count(struct rt_source *src, int ret, const struct rt_event *ev);

/*
 * The same count into @c, for a consumer that counts what it writes (a
 * rewritten raw file: its replay counts what this counted). No forced.
 */
void rt_counts_add(struct rt_source_counts *c, int ret,
		   const struct rt_event *ev);

#endif /* RINGTRACE_MERGE_H */
