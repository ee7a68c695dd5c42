// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Two folded profiles stack by stack (see flame_diff.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/flame_diff.h"

void rt_flame_diff_init(struct rt_flame_diff *d)
{
	memset(d, 0, sizeof(*d));
}

void rt_flame_diff_fini(struct rt_flame_diff *d)
{
	for (uint32_t i = 0; i < d->nr; i++)
		free(d->stacks[i].stack);
	free(d->stacks);
	memset(d, 0, sizeof(*d));
}

int rt_flame_diff_add(struct rt_flame_diff *d, enum rt_diff_side side,
		      const char *line, size_t len)
{
	struct rt_diff_stack *st;
	const char *sp;
	uint64_t count = 0;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (!len)
		return 0;
	sp = memrchr(line, ' ', len);
	if (!sp || sp == line || sp + 1 == line + len || sp + 21 < line + len) {
		d->bad_lines++;
		return 0;
	}
	for (const char *p = sp + 1; p < line + len; p++) {
		if (*p < '0' || *p > '9') {
			d->bad_lines++;
			return 0;
		}
		count = count * 10 + (uint64_t)(*p - '0');
	}
	if (d->nr == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 1024;

		st = realloc(d->stacks, cap * sizeof(*st));
		if (!st)
			return -ENOMEM;
		d->stacks = st;
		d->cap = cap;
	}
	st = &d->stacks[d->nr];
	st->stack = strndup(line, (size_t)(sp - line));
	if (!st->stack)
		return -ENOMEM;
	st->weight[RT_DIFF_BEFORE] = 0;
	st->weight[RT_DIFF_AFTER] = 0;
	st->weight[side] = count;
	d->total[side] += count;
	d->nr++;
	return 0;
}

int rt_flame_diff_add_text(struct rt_flame_diff *d, enum rt_diff_side side,
			   const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (rt_flame_diff_add(d, side, p, n))
			return -ENOMEM;
		p += n + 1;
	}
	return 0;
}

static int by_stack(const void *a, const void *b)
{
	return strcmp(((const struct rt_diff_stack *)a)->stack,
		      ((const struct rt_diff_stack *)b)->stack);
}

/* @w * @num / @den to the nearest integer, without overflowing. */
static uint64_t scale(uint64_t w, uint64_t num, uint64_t den)
{
	unsigned __int128 x = (unsigned __int128)w * num + den / 2;

	return (uint64_t)(x / den);
}

void rt_flame_diff_finish(struct rt_flame_diff *d, bool normalise)
{
	uint64_t sum = 0, prev = 0;
	uint32_t n = 0;

	if (d->nr)
		qsort(d->stacks, d->nr, sizeof(*d->stacks), by_stack);
	/* One entry per stack: the lines of one stack (either side) add up. */
	for (uint32_t i = 0; i < d->nr; i++) {
		if (n && !strcmp(d->stacks[n - 1].stack, d->stacks[i].stack)) {
			d->stacks[n - 1].weight[0] += d->stacks[i].weight[0];
			d->stacks[n - 1].weight[1] += d->stacks[i].weight[1];
			free(d->stacks[i].stack);
			continue;
		}
		d->stacks[n++] = d->stacks[i];
	}
	d->nr = n;
	d->normalised = normalise && d->total[0] && d->total[1] &&
			d->total[0] != d->total[1];
	if (!d->normalised)
		return;
	/*
	 * Cumulative rounding: each stack gets the rounded scaled running
	 * sum minus the previous one, so every stack is within 1 of its
	 * exact share and the total is AFTER's exactly; rounding each stack
	 * alone would leave "all" and the frames above many stacks changed
	 * by the sum of the errors, coloured as if they had changed.
	 */
	for (uint32_t i = 0; i < d->nr; i++) {
		uint64_t *w = &d->stacks[i].weight[RT_DIFF_BEFORE];
		uint64_t upto;

		sum += *w;
		upto = scale(sum, d->total[RT_DIFF_AFTER],
			     d->total[RT_DIFF_BEFORE]);
		*w = upto - prev;
		prev = upto;
	}
}

void rt_flame_diff_write(const struct rt_flame_diff *d, struct rt_outbuf *ob)
{
	for (uint32_t i = 0; i < d->nr; i++) {
		/* Stacks can be longer than one printf's record. */
		rt_outbuf_append(ob, d->stacks[i].stack,
				 strlen(d->stacks[i].stack));
		rt_outbuf_printf(ob, " %llu %llu\n",
				 (unsigned long long)d->stacks[i].weight[0],
				 (unsigned long long)d->stacks[i].weight[1]);
	}
}

void rt_flame_diff_graph(const struct rt_flame_diff *d, struct rt_flame *f)
{
	f->diff = true;
	for (uint32_t i = 0; i < d->nr; i++)
		rt_flame_add_diff(f, d->stacks[i].stack,
				  strlen(d->stacks[i].stack),
				  d->stacks[i].weight[RT_DIFF_BEFORE],
				  d->stacks[i].weight[RT_DIFF_AFTER]);
}
