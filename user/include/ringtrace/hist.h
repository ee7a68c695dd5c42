/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Latency histograms (--hist) and the percentiles of the summary table.
 *
 * Buckets are log-linear: every power of two is split into 8 equal
 * sub-buckets (values 0..7 have a bucket each), so a bucket is at most
 * 12.5 % of its lower bound wide. A percentile is the upper bound of the
 * bucket holding that rank (clamped to the exact minimum and maximum), so
 * it is never below the true value and at most 12.5 % above it: exact to
 * the histogram's resolution, which is what the output says. The printed
 * shape folds the sub-buckets back into plain power-of-two rows, the shape
 * of bpftrace's hist() and bcc's biolatency.
 *
 * Considered instead: HdrHistogram_c (not packaged in Debian 12) and
 * t-digest / DataSketches (not packaged in Debian 12 for C; their error
 * is relative to rank, not value). 496 counters (4 KiB) per histogram
 * answer every percentile with a known bound and merge by addition.
 *
 * Fixed size, no allocation: adding a value is a few shifts and one
 * increment.
 */
#ifndef RINGTRACE_HIST_H
#define RINGTRACE_HIST_H

#include <stdint.h>

#include "ringtrace/outbuf.h"

#define RT_HIST_SUB_BITS	3
#define RT_HIST_SUB		(1u << RT_HIST_SUB_BITS)
/* 0..7, then 8 sub-buckets for each power of two from 2^3 to 2^63. */
#define RT_HIST_BUCKETS		(RT_HIST_SUB + (64 - RT_HIST_SUB_BITS) * RT_HIST_SUB)

struct rt_hist {
	uint64_t	n;
	uint64_t	sum;
	uint64_t	min;
	uint64_t	max;
	uint64_t	count[RT_HIST_BUCKETS];
};

static inline unsigned int rt_hist_bucket(uint64_t v)
{
	unsigned int top;

	if (v < RT_HIST_SUB)
		return (unsigned int)v;
	top = 63u - (unsigned int)__builtin_clzll(v);	/* >= SUB_BITS */
	return RT_HIST_SUB + (top - RT_HIST_SUB_BITS) * RT_HIST_SUB +
	       (unsigned int)((v >> (top - RT_HIST_SUB_BITS)) & (RT_HIST_SUB - 1));
}

static inline void rt_hist_add(struct rt_hist *h, uint64_t v)
{
	if (!h->n || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->n++;
	h->sum += v;
	h->count[rt_hist_bucket(v)]++;
}

/* [*lo, *hi] of bucket @b (inclusive bounds). */
void rt_hist_bucket_range(unsigned int b, uint64_t *lo, uint64_t *hi);

/*
 * The @permille-th per-mille value (500: median, 990: p99, 1000: max):
 * the upper bound of its bucket, clamped to [min, max]; 0 when empty.
 */
uint64_t rt_hist_percentile(const struct rt_hist *h, unsigned int permille);

void rt_hist_merge(struct rt_hist *into, const struct rt_hist *from);

/*
 * The bpftrace/biolatency picture: a header naming @unit, one row per
 * power of two from the lowest to the highest non-empty one, count and a
 * bar scaled to the largest row; then count, average, p50/p90/p99, max.
 */
void rt_hist_print(struct rt_outbuf *ob, const struct rt_hist *h,
		   const char *unit);

/* The same as one JSON object ({"count":...,"rows":[...]}), no newline. */
void rt_hist_print_json(struct rt_outbuf *ob, const struct rt_hist *h);

/*
 * @h folded into power-of-two rows (row r: [2^(r-1), 2^r - 1], row 0: 0);
 * widens [*first, *last] to its non-empty rows. Both printers draw these.
 */
void rt_hist_fold_rows(const struct rt_hist *h, uint64_t rows[65],
		       unsigned int *first, unsigned int *last);
/* The inclusive range of row @r. */
void rt_hist_row_range(unsigned int r, uint64_t *lo, uint64_t *hi);

/*
 * Two histograms side by side (ringtrace-cat --diff --hist): the same
 * power-of-two rows for both, BEFORE's count and bar then AFTER's, each
 * bar scaled to its own side's largest row; then count, p50, p90, p99
 * and max of each and their change.
 */
void rt_hist_print_diff(struct rt_outbuf *ob, const struct rt_hist *before,
			const struct rt_hist *after, const char *unit);

/* "+12.5%", "-3.0%", "new", "gone", "=": the change from @b to @a. */
const char *rt_fmt_change(char *buf, size_t len, uint64_t b, uint64_t a);

/* "1.25ms", "830ns", "2.00s": a duration for people, into @buf. */
char *rt_fmt_duration(char *buf, size_t len, uint64_t ns);

/* "+1.25us", "-830ns", "=": the change from duration @b to @a. */
const char *rt_fmt_duration_change(char *buf, size_t len, uint64_t b,
				   uint64_t a);

#endif /* RINGTRACE_HIST_H */
