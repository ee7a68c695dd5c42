// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * buffer health (see health.h). Not a hot path: one GET_STATS
 * per --stats interval, one at the end of a run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/barrier.h"
#include "ringtrace/health.h"
#include "ringtrace/sys.h"

int rt_session_ring_stats(struct rt_session *s, struct ringtrace_stats *st,
			  struct ringtrace_ring_stats *rings, uint32_t room,
			  uint32_t *nr)
{
	*nr = 0;
	if (!(s->info.features & RINGTRACE_FEAT_RING_STATS)) {
		snprintf(s->errmsg, sizeof(s->errmsg), "the loaded module has "
			 "no per-ring statistics (it predates ABI 3)");
		return -EOPNOTSUPP;
	}
	memset(st, 0, sizeof(*st));
	memset(rings, 0, room * sizeof(*rings));
	st->size = sizeof(*st);
	st->rings_ptr = (uintptr_t)rings;
	st->ring_entry_size = sizeof(*rings);
	st->nr_ring_entries = room;
	if (rt_sys.ioctl(s->fd, RINGTRACE_IOC_GET_STATS, st) < 0) {
		int err = errno;

		snprintf(s->errmsg, sizeof(s->errmsg), "cannot read ring "
			 "statistics: %s", strerror(err));
		return -err;
	}
	/* An older module answers with a shorter structure: no entries. */
	if (st->size < RINGTRACE_STATS_SIZE_HEALTH)
		return -EOPNOTSUPP;
	*nr = st->nr_ring_entries < room ? st->nr_ring_entries : room;
	return 0;
}

int rt_health_init(struct rt_health *h, uint32_t nr_rings, uint64_t now_ns)
{
	memset(h, 0, sizeof(*h));
	h->nr = nr_rings;
	h->prev = calloc(nr_rings ? nr_rings : 1, sizeof(*h->prev));
	h->cur = calloc(nr_rings ? nr_rings : 1, sizeof(*h->cur));
	h->fill = calloc(nr_rings ? nr_rings : 1, sizeof(*h->fill));
	h->prev_ns = h->cur_ns = now_ns;
	if (!h->prev || !h->cur || !h->fill) {
		rt_health_fini(h);
		return -1;
	}
	return 0;
}

void rt_health_fini(struct rt_health *h)
{
	free(h->prev);
	free(h->cur);
	free(h->fill);
	h->prev = h->cur = NULL;
	h->fill = NULL;
}

/* Unread bytes of a mapped ring, from its control page (a statistic). */
static uint64_t ring_fill(const struct ringtrace_mmap_page *pg)
{
	uint64_t head = rt_load_u64_once(&pg->data_head);
	uint64_t size = rt_load_u64_once(&pg->data_size);
	uint64_t from = rt_load_u32_once(&pg->flags) & RINGTRACE_PAGE_OVERWRITE ?
			rt_load_u64_once(&pg->overwrite_tail) :
			rt_load_u64_once(&pg->data_tail);
	uint64_t used = head - from;

	return used > size ? size : used;
}

int rt_health_sample(struct rt_health *h, struct rt_session *s,
		     uint64_t now_ns)
{
	struct ringtrace_ring_stats *t = h->prev;
	struct ringtrace_stats st;
	uint32_t nr;
	int ret;

	/* The old "cur" becomes "prev"; sample into the other array. */
	h->prev = h->cur;
	h->cur = t;
	h->prev_ns = h->cur_ns;
	h->cur_ns = now_ns;
	ret = rt_session_ring_stats(s, &st, h->cur, h->nr, &nr);
	if (ret)
		return ret;
	/* Entries come in ring order, the order the session mapped them. */
	for (uint32_t i = 0; i < h->nr; i++)
		h->fill[i] = i < nr && i < s->nr_rings && s->rings[i].page ?
			     ring_fill(s->rings[i].page) : 0;
	return 0;
}

/*
 * Rounded down: 100% means full, and --stats and the summary's "peak
 * fill" say the same number for the same ring (100% vs 99%).
 */
unsigned int rt_health_percent(uint64_t part, uint64_t whole)
{
	return whole ? (unsigned int)(part / whole * 100 +
				      part % whole * 100 / whole) : 0;
}

/* @delta events over @ns as a per-second rate (rounded). */
static uint64_t per_second(uint64_t delta, uint64_t ns)
{
	if (!ns)
		return 0;
	/* delta * 1e9 overflows only past 18e9 events: split it. */
	return delta / ns * 1000000000ull +
	       (delta % ns * 1000000000ull + ns / 2) / ns;
}

size_t rt_health_format(const struct rt_health *h, uint32_t i, char *buf,
			size_t len)
{
	const struct ringtrace_ring_stats *c = &h->cur[i], *p = &h->prev[i];
	uint64_t ns = h->cur_ns - h->prev_ns;
	int n;

	n = snprintf(buf, len, "%s %u: fill %3u%% (peak %3u%%) %8" PRIu64
		     " rec/s %8" PRIu64 " lost/s",
		     c->cpu == RINGTRACE_CPU_NONE ? "tid" : "cpu",
		     c->cpu == RINGTRACE_CPU_NONE ? c->tid : c->cpu,
		     rt_health_percent(h->fill[i], c->data_size),
		     rt_health_percent(c->high_water, c->data_size),
		     per_second(c->records - p->records, ns),
		     per_second(c->lost - p->lost, ns));
	if (n < 0)
		return 0;
	return (size_t)n < len ? (size_t)n : len ? len - 1 : 0;
}

uint64_t rt_health_mean_record(const struct ringtrace_ring_stats *r)
{
	/* bytes counts LOST records too: a slight overestimate, rounded up. */
	return r->records ? (r->bytes + r->records - 1) / r->records :
			    sizeof(struct ringtrace_vfs_read_record);
}

uint64_t rt_health_suggest_buffer(const struct ringtrace_ring_stats *r,
				  uint64_t page_size)
{
	uint64_t mean, need, size = page_size ? page_size : 4096;

	if (!r->lost)
		return 0;
	mean = rt_health_mean_record(r);
	need = r->high_water > r->data_size ? r->high_water : r->data_size;
	if (r->lost > (UINT64_MAX - need) / mean)
		return UINT64_MAX;
	need += r->lost * mean;
	while (size < need && size <= UINT64_MAX / 2)
		size <<= 1;
	return size;
}
