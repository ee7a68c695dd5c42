// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Log-linear histograms and their percentiles (see hist.h). */
#include <stdio.h>
#include <string.h>

#include "ringtrace/hist.h"

void rt_hist_bucket_range(unsigned int b, uint64_t *lo, uint64_t *hi)
{
	unsigned int shift;
	uint64_t sub;

	if (b < RT_HIST_SUB) {
		*lo = *hi = b;
		return;
	}
	shift = (b - RT_HIST_SUB) / RT_HIST_SUB;	/* top - SUB_BITS */
	sub = (b - RT_HIST_SUB) % RT_HIST_SUB;
	*lo = (RT_HIST_SUB + sub) << shift;
	*hi = *lo + ((1ull << shift) - 1);
}

uint64_t rt_hist_percentile(const struct rt_hist *h, unsigned int permille)
{
	uint64_t rank, seen = 0, lo, hi;

	if (!h->n)
		return 0;
	if (permille >= 1000)
		return h->max;
	/* The smallest value with at least permille/1000 of them at or below. */
	rank = (h->n * permille + 999) / 1000;
	if (!rank)
		rank = 1;
	for (unsigned int b = 0; b < RT_HIST_BUCKETS; b++) {
		seen += h->count[b];
		if (seen < rank)
			continue;
		rt_hist_bucket_range(b, &lo, &hi);
		if (hi > h->max)
			hi = h->max;
		return hi < h->min ? h->min : hi;
	}
	return h->max;
}

void rt_hist_merge(struct rt_hist *into, const struct rt_hist *from)
{
	if (!from->n)
		return;
	if (!into->n || from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
	into->n += from->n;
	into->sum += from->sum;
	for (unsigned int b = 0; b < RT_HIST_BUCKETS; b++)
		into->count[b] += from->count[b];
}

char *rt_fmt_duration(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.2fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2fms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	return buf;
}

const char *rt_fmt_duration_change(char *buf, size_t len, uint64_t b,
				   uint64_t a)
{
	char d[32];

	if (a == b)
		return strcpy(buf, "=");
	rt_fmt_duration(d, sizeof(d), a > b ? a - b : b - a);
	snprintf(buf, len, "%c%s", a > b ? '+' : '-', d);
	return buf;
}

/* Power-of-two row of a value: 0 for 0, else 1 + floor(log2 v). */
static unsigned int row_of(uint64_t v)
{
	return v ? 64u - (unsigned int)__builtin_clzll(v) : 0;
}

#define BAR_WIDTH	40

void rt_hist_fold_rows(const struct rt_hist *h, uint64_t rows[65],
		       unsigned int *first, unsigned int *last)
{
	uint64_t lo, hi;

	for (unsigned int i = 0; i < RT_HIST_BUCKETS; i++) {
		unsigned int r;

		if (!h->count[i])
			continue;
		rt_hist_bucket_range(i, &lo, &hi);
		r = row_of(lo);
		rows[r] += h->count[i];
		if (r < *first)
			*first = r;
		if (r > *last)
			*last = r;
	}
}

void rt_hist_row_range(unsigned int r, uint64_t *lo, uint64_t *hi)
{
	*lo = r ? 1ull << (r - 1) : 0;
	*hi = r ? (r == 64 ? UINT64_MAX : (1ull << r) - 1) : 0;
}

static void fill_bar(char *bar, unsigned int width, uint64_t n, uint64_t peak)
{
	unsigned int w = peak ? (unsigned int)(n * width / peak) : 0;

	memset(bar, '*', w);
	memset(bar + w, ' ', width - w);
	bar[width] = '\0';
}

void rt_hist_print(struct rt_outbuf *ob, const struct rt_hist *h,
		   const char *unit)
{
	uint64_t rows[65] = { 0 }, peak = 0, lo, hi;
	unsigned int first = 65, last = 0;
	char bar[BAR_WIDTH + 1], a[32], b[32], c[32], d[32], e[32];

	if (!h->n) {
		rt_outbuf_printf(ob, "  (no events)\n");
		return;
	}
	rt_hist_fold_rows(h, rows, &first, &last);
	for (unsigned int r = first; r <= last; r++)
		if (rows[r] > peak)
			peak = rows[r];
	rt_outbuf_printf(ob, "%28s : %-9s %s\n", unit, "count", "distribution");
	for (unsigned int r = first; r <= last; r++) {
		rt_hist_row_range(r, &lo, &hi);
		fill_bar(bar, BAR_WIDTH, rows[r], peak);
		rt_outbuf_printf(ob, "%12llu -> %-12llu : %-9llu |%s|\n",
				 (unsigned long long)lo, (unsigned long long)hi,
				 (unsigned long long)rows[r], bar);
	}
	rt_outbuf_printf(ob, "  count %llu, average %s, p50 %s, p90 %s, "
			 "p99 %s, max %s\n", (unsigned long long)h->n,
			 rt_fmt_duration(a, sizeof(a), h->sum / h->n),
			 rt_fmt_duration(b, sizeof(b), rt_hist_percentile(h, 500)),
			 rt_fmt_duration(c, sizeof(c), rt_hist_percentile(h, 900)),
			 rt_fmt_duration(d, sizeof(d), rt_hist_percentile(h, 990)),
			 rt_fmt_duration(e, sizeof(e), h->max));
}

/*
 * The same numbers as rt_hist_print(), as one JSON object: the rows it
 * draws (power-of-two ranges from the lowest to the highest non-empty,
 * empty ones between included) and its statistics in nanoseconds.
 */
void rt_hist_print_json(struct rt_outbuf *ob, const struct rt_hist *h)
{
	uint64_t rows[65] = { 0 }, lo, hi;
	unsigned int first = 65, last = 0;

	rt_outbuf_printf(ob, "{\"count\":%llu,\"sum_ns\":%llu,\"min_ns\":%llu,"
			 "\"avg_ns\":%llu,\"p50_ns\":%llu,\"p90_ns\":%llu,"
			 "\"p99_ns\":%llu,\"max_ns\":%llu,\"rows\":[",
			 (unsigned long long)h->n, (unsigned long long)h->sum,
			 (unsigned long long)(h->n ? h->min : 0),
			 (unsigned long long)(h->n ? h->sum / h->n : 0),
			 (unsigned long long)rt_hist_percentile(h, 500),
			 (unsigned long long)rt_hist_percentile(h, 900),
			 (unsigned long long)rt_hist_percentile(h, 990),
			 (unsigned long long)h->max);
	if (h->n)
		rt_hist_fold_rows(h, rows, &first, &last);
	for (unsigned int r = first; r <= last && r < 65; r++) {
		rt_hist_row_range(r, &lo, &hi);
		rt_outbuf_printf(ob, "%s{\"low\":%llu,\"high\":%llu,"
				 "\"count\":%llu}", r == first ? "" : ",",
				 (unsigned long long)lo, (unsigned long long)hi,
				 (unsigned long long)rows[r]);
	}
	rt_outbuf_printf(ob, "]}");
}

#define DIFF_BAR_WIDTH	20

const char *rt_fmt_change(char *buf, size_t len, uint64_t b, uint64_t a)
{
	if (b == a)
		snprintf(buf, len, "=");
	else if (!b)
		snprintf(buf, len, "new");
	else if (!a)
		snprintf(buf, len, "gone");
	else
		snprintf(buf, len, "%+.1f%%", 100.0 * ((double)a - (double)b) /
			 (double)b);
	return buf;
}

void rt_hist_print_diff(struct rt_outbuf *ob, const struct rt_hist *before,
			const struct rt_hist *after, const char *unit)
{
	uint64_t rows[2][65] = { { 0 } }, peak[2] = { 0, 0 }, lo, hi;
	unsigned int first = 65, last = 0;
	char bar[2][DIFF_BAR_WIDTH + 1], x[32], y[32], z[32];
	static const struct {
		const char	*name;
		unsigned int	permille;
	} stats[] = { { "p50", 500 }, { "p90", 900 }, { "p99", 990 },
		      { "max", 1000 } };
	const struct rt_hist *h[2] = { before, after };

	if (!before->n && !after->n) {
		rt_outbuf_printf(ob, "  (no events)\n");
		return;
	}
	for (int s = 0; s < 2; s++) {
		rt_hist_fold_rows(h[s], rows[s], &first, &last);
		for (unsigned int r = first; r <= last; r++)
			if (rows[s][r] > peak[s])
				peak[s] = rows[s][r];
	}
	/* Each side's bars scale to its own peak: the shapes compare. */
	rt_outbuf_printf(ob, "%28s : %-9s %-*s %-9s %s\n", unit, "before",
			 DIFF_BAR_WIDTH + 2, "", "after", "");
	for (unsigned int r = first; r <= last; r++) {
		rt_hist_row_range(r, &lo, &hi);
		fill_bar(bar[0], DIFF_BAR_WIDTH, rows[0][r], peak[0]);
		fill_bar(bar[1], DIFF_BAR_WIDTH, rows[1][r], peak[1]);
		rt_outbuf_printf(ob, "%12llu -> %-12llu : %-9llu |%s| %-9llu |%s|\n",
				 (unsigned long long)lo, (unsigned long long)hi,
				 (unsigned long long)rows[0][r], bar[0],
				 (unsigned long long)rows[1][r], bar[1]);
	}
	rt_outbuf_printf(ob, "  %-6s %12s %12s %10s\n", "", "before", "after",
			 "change");
	rt_outbuf_printf(ob, "  %-6s %12llu %12llu %10s\n", "count",
			 (unsigned long long)before->n,
			 (unsigned long long)after->n,
			 rt_fmt_change(z, sizeof(z), before->n, after->n));
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		uint64_t b = rt_hist_percentile(before, stats[i].permille);
		uint64_t a = rt_hist_percentile(after, stats[i].permille);

		rt_outbuf_printf(ob, "  %-6s %12s %12s %10s\n", stats[i].name,
				 rt_fmt_duration(x, sizeof(x), b),
				 rt_fmt_duration(y, sizeof(y), a),
				 rt_fmt_change(z, sizeof(z), b, a));
	}
}
