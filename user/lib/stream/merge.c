// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * K-way merge by timestamp over record sources, with a reordering window
 * (the guarantees are spelled out in merge.h). A binary min-heap holds the
 * sources that have a record ready, keyed by that record's timestamp:
 * O(log k) per record for k sources.
 */
#include <stdlib.h>
#include <string.h>

#include "ringtrace/merge.h"
#include "ringtrace/record.h"

static uint64_t ringtrace_ts(const struct rt_source *src,
			     const struct rt_record *rec)
{
	(void)src;
	return rt_record_ts(rec->data, rec->size);
}

static int ringtrace_decode(struct rt_source *src, const struct rt_record *rec,
			    struct rt_event *ev)
{
	return rt_decode(rec->data, rec->size, src->cpu, ev);
}

void rt_source_init(struct rt_source *src, uint32_t cpu)
{
	memset(src, 0, sizeof(*src));
	src->cpu = cpu;
	src->timestamp = ringtrace_ts;
	src->decode = ringtrace_decode;
	src->label = "ring of";
}

int rt_source_decode(struct rt_source *src, const struct rt_record *rec,
		     struct rt_event *ev)
{
	if (src->decode)
		return src->decode(src, rec, ev);
	return ringtrace_decode(src, rec, ev);
}

int rt_merge_init(struct rt_merge *m, struct rt_source *srcs, uint32_t nr,
		  uint64_t window_ns)
{
	memset(m, 0, sizeof(*m));
	m->window_ns = window_ns;
	return rt_merge_add(m, srcs, nr);
}

int rt_merge_add(struct rt_merge *m, struct rt_source *srcs, uint32_t nr)
{
	uint32_t total = m->nr + nr;
	struct rt_source **all, **heap;

	all = realloc(m->srcs, (total ? total : 1) * sizeof(*all));
	if (!all)
		return -1;
	m->srcs = all;
	heap = realloc(m->heap, (total ? total : 1) * sizeof(*heap));
	if (!heap)
		return -1;
	m->heap = heap;
	for (uint32_t i = 0; i < nr; i++) {
		srcs[i].index = m->nr + i;
		all[m->nr + i] = &srcs[i];
	}
	m->nr = total;
	return 0;
}

void rt_merge_fini(struct rt_merge *m)
{
	free(m->heap);
	free(m->srcs);
	m->heap = NULL;
	m->srcs = NULL;
	m->nr = 0;
}

/* Older record first; equal timestamps: lower source index first. */
static bool before(const struct rt_source *a, const struct rt_source *b)
{
	if (a->cur_ts != b->cur_ts)
		return a->cur_ts < b->cur_ts;
	return a->index < b->index;
}

static void sift_down(struct rt_merge *m, uint32_t i)
{
	struct rt_source **h = m->heap;

	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, min = i;

		if (l < m->heap_len && before(h[l], h[min]))
			min = l;
		if (r < m->heap_len && before(h[r], h[min]))
			min = r;
		if (min == i)
			return;
		struct rt_source *t = h[i];

		h[i] = h[min];
		h[min] = t;
		i = min;
	}
}

static void heap_push(struct rt_merge *m, struct rt_source *s)
{
	uint32_t i = m->heap_len++;

	m->heap[i] = s;
	while (i && before(m->heap[i], m->heap[(i - 1) / 2])) {
		struct rt_source *t = m->heap[i];

		m->heap[i] = m->heap[(i - 1) / 2];
		m->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void heap_pop(struct rt_merge *m)
{
	m->heap[0] = m->heap[--m->heap_len];
	sift_down(m, 0);
}

static void note_failure(struct rt_source *s, int status,
			 struct rt_merge_result *res)
{
	if (s->failed)
		return;
	s->failed = true;
	if (!res->error) {
		res->error = status;
		res->error_src = s;
	}
}

/* Track whether @s holds enough unemitted bytes to risk losing records. */
static void update_pressure(struct rt_merge *m, struct rt_source *s)
{
	uint64_t unread = rt_ring_unread(&s->ring);

	if (!s->pressured && unread >= s->ring.size / 2) {
		s->pressured = true;
		m->nr_pressured++;
	} else if (s->pressured && unread <= s->ring.size / 4) {
		s->pressured = false;
		m->nr_pressured--;
	}
}

/* Load @s's next record into s->cur; false when it has none (or failed). */
static bool fetch(struct rt_source *s, struct rt_merge_result *res)
{
	for (;;) {
		int st = rt_ring_peek(&s->ring, &s->cur);

		if (st == RT_RING_OK) {
			s->cur_ts = s->timestamp(s, &s->cur);
			s->has_cur = true;
			return true;
		}
		if (st == RT_RING_EMPTY && s->refill &&
		    s->refill(s) == RT_RING_OK)
			continue;
		if (st < 0 && s->recover) {
			if (s->recover(s) == RT_RING_OK)
				continue;
			st = RT_RING_EMPTY;
		}
		if (st < 0)
			note_failure(s, st, res);
		s->has_cur = false;
		return false;
	}
}

void rt_merge_round(struct rt_merge *m, uint64_t now_ns, bool drain,
		    rt_emit_fn emit, void *arg, struct rt_merge_result *res)
{
	uint64_t cutoff = now_ns > m->window_ns ? now_ns - m->window_ns : 0;

	memset(res, 0, sizeof(*res));
	m->heap_len = 0;

	for (uint32_t i = 0; i < m->nr; i++) {
		struct rt_source *s = m->srcs[i];
		int st;

		if (s->failed)
			continue;
		st = rt_ring_refresh(&s->ring, NULL);
		if (st < 0) {
			note_failure(s, st, res);
			continue;
		}
		update_pressure(m, s);
		if (fetch(s, res))
			heap_push(m, s);
	}

	while (m->heap_len) {
		struct rt_source *s = m->heap[0];
		int stop;

		s->emit_forced = false;
		if (!drain && s->cur_ts > cutoff) {
			if (!m->nr_pressured) {
				res->held = true;
				res->oldest_held_ns = s->cur_ts;
				break;
			}
			res->forced++;
			/* The emitter counts it if it counts the record. */
			s->emit_forced = true;
		}
		stop = emit(arg, s, &s->cur, s->cur_ts);
		s->emit_forced = false;
		rt_ring_advance(&s->ring);
		res->emitted++;
		update_pressure(m, s);
		if (fetch(s, res))
			sift_down(m, 0);
		else
			heap_pop(m);
		if (stop) {
			res->stopped = stop;
			break;
		}
	}

	/* (D) once per ring per round, never per record. */
	for (uint32_t i = 0; i < m->nr; i++)
		rt_ring_release(&m->srcs[i]->ring);
}

/* See merge.h. Whether the record was counted at all. */
static bool count(struct rt_source_counts *c, int ret, const struct rt_event *ev)
{
	if (ret == RT_DECODE_SKIP)
		return false;	/* perf's COMM, MMAP2, THROTTLE... */
	if (ret == RT_DECODE_OK && ev->kind == RT_EVENT_LOST) {
		c->lost += ev->u.lost.count;
		c->lost_records++;
		return false;
	}
	if (ret == RT_DECODE_UNKNOWN) {
		c->records++;
		c->unknown++;
	} else if (ret < 0) {
		c->records++;
		c->malformed++;
	} else if (ev->kind == RT_EVENT_PATH) {
		c->paths++;
	} else if (ev->kind == RT_EVENT_CGROUP) {
		c->cgroups++;
	} else if (ev->kind == RT_EVENT_SAMPLE) {
		c->samples++;
		c->fp_loops += ev->u.sample.fp_loop;
	} else if (ev->kind == RT_EVENT_COUNTERS) {
		c->counters++;
	} else {
		c->records++;
		c->fp_loops += !!(ev->stack.flags & RINGTRACE_STACK_USER_LOOP);
	}
	return true;
}

void rt_counts_add(struct rt_source_counts *c, int ret,
		   const struct rt_event *ev)
{
	count(c, ret, ev);
}

void rt_source_count(struct rt_source *src, int ret, const struct rt_event *ev)
{
	if (count(&src->counts, ret, ev) && src->emit_forced)
		src->counts.forced++;
}
