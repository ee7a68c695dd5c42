/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * buffer health. Per-ring counters from GET_STATS (records, lost,
 * high-water fill, wake-ups, overwritten), the compact per-ring line
 * ringtrace-cat --stats prints while tracing, and the --buffer-size that
 * would have held a run's peak.
 */
#ifndef RINGTRACE_HEALTH_H
#define RINGTRACE_HEALTH_H

#include <stddef.h>
#include <stdint.h>

#include <linux/ringtrace.h>

#include "ringtrace/session.h"

/*
 * GET_STATS with one entry per ring in @rings (room for @room): session
 * totals in *st, *nr entries filled. 0, or -errno with s->errmsg set;
 * -EOPNOTSUPP if the module predates per-ring stats (ABI 3).
 */
int rt_session_ring_stats(struct rt_session *s, struct ringtrace_stats *st,
			  struct ringtrace_ring_stats *rings, uint32_t room,
			  uint32_t *nr);

/* Two samples of every ring, for rates (--stats INTERVAL). */
struct rt_health {
	uint32_t			nr;	/* rings */
	struct ringtrace_ring_stats	*prev;	/* [nr], previous sample */
	struct ringtrace_ring_stats	*cur;	/* [nr], this sample */
	uint64_t			*fill;	/* [nr], unread bytes now */
	uint64_t			prev_ns;
	uint64_t			cur_ns;
};

/* Room for @nr_rings; prev starts at zero (rates since the start). 0/-1. */
int rt_health_init(struct rt_health *h, uint32_t nr_rings, uint64_t now_ns);
void rt_health_fini(struct rt_health *h);

/*
 * Take a sample of @s at @now_ns: the previous one becomes h->prev, the
 * new one h->cur (GET_STATS), h->fill from the mapped control pages
 * (data_head - data_tail; overwrite mode: data_head - overwrite_tail).
 * 0 or -errno (s->errmsg).
 */
int rt_health_sample(struct rt_health *h, struct rt_session *s,
		     uint64_t now_ns);

/*
 * Ring @i's line, compact:
 *   "cpu 1: fill  12% (peak  40%)  3400 rec/s  0 lost/s"
 * rates over cur_ns - prev_ns. Returns the length (truncated to len - 1).
 */
size_t rt_health_format(const struct rt_health *h, uint32_t i, char *buf,
			size_t len);

/*
 * The per-ring buffer size (bytes, a power of two, at least @page_size)
 * that would have held the run's peak: the high-water mark plus the bytes
 * dropped (lost records at the ring's mean record size), which the ring
 * would have had to hold on top of what it held when it was full.
 * 0 if nothing was lost.
 */
/* Mean bytes per record the ring wrote (a vfs_read record if none). */
uint64_t rt_health_mean_record(const struct ringtrace_ring_stats *r);

uint64_t rt_health_suggest_buffer(const struct ringtrace_ring_stats *r,
				  uint64_t page_size);

/* @part of @whole in whole percent, rounded down (100: full). */
unsigned int rt_health_percent(uint64_t part, uint64_t whole);

#endif /* RINGTRACE_HEALTH_H */
