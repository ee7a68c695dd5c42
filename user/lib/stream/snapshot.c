// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * flight-recorder snapshots (see snapshot.h). Runs once per
 * SIGUSR2, not per record: it allocates nothing after rt_snapshot_init()
 * except when a snapshot holds more records than any before it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/barrier.h"
#include "ringtrace/health.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/record.h"
#include "ringtrace/snapshot.h"

#define MIN_RECORD	(sizeof(struct ringtrace_event_header) + sizeof(__u64))

/* Copy [from, to) of the ring (free-running positions) into @buf. */
static void copy_out(const unsigned char *data, uint64_t size,
		     unsigned char *buf, uint64_t from, uint64_t to)
{
	uint64_t off = from & (size - 1), len = to - from;
	uint64_t first = len < size - off ? len : size - off;

	memcpy(buf, data + off, first);
	memcpy(buf + first, data, len - first);
}

int rt_snapshot_copy_ring(const struct ringtrace_mmap_page *pg,
			  const unsigned char *data, uint64_t size,
			  unsigned char *buf, uint64_t since,
			  struct rt_snapshot_copy *c)
{
	uint64_t head, tail, after;

	for (int tries = 0; tries < RT_SNAPSHOT_TRIES; tries++) {
		/*
		 * (C): every record below head is complete, and the tail
		 * published before those records' stores (E) is at least
		 * head - size: [tail, head) fits the buffer.
		 */
		head = rt_load_head_acquire(&pg->data_head);
		tail = rt_load_u64_once(&pg->overwrite_tail);
		if ((int64_t)(head - tail) < 0)
			continue;	/* overwritten past head already */
		if (head - tail > size)
			return RT_SNAPSHOT_ERR_DATA;	/* not our kernel */
		/* Nothing new since the last snapshot needs no copy. */
		if ((int64_t)(since - tail) > 0 && (int64_t)(head - since) >= 0)
			tail = since;
		copy_out(data, size, buf, tail, head);
		/* (F), pairs with (E): see barrier.h. */
		after = rt_load_tail_after_copy(&pg->overwrite_tail);
		if ((int64_t)(head - after) < 0)
			continue;	/* all of it overwritten meanwhile */
		c->base = tail;
		/*
		 * Below @after the copy may hold bytes of newer records:
		 * discard it. @after and @tail are record boundaries, so is
		 * the larger.
		 */
		c->from = (int64_t)(after - tail) > 0 ? after : tail;
		c->to = head;
		return RT_SNAPSHOT_OK;
	}
	return RT_SNAPSHOT_BUSY;
}

int rt_snapshot_init(struct rt_snapshot *sn, const struct rt_session *s)
{
	uint64_t max = sn->max_bytes, age = sn->max_age_ns;

	memset(sn, 0, sizeof(*sn));
	sn->max_bytes = max;
	sn->max_age_ns = age;
	sn->rings = calloc(s->nr_rings ? s->nr_rings : 1, sizeof(*sn->rings));
	if (!sn->rings)
		return -ENOMEM;
	sn->nr = s->nr_rings;
	/* Exact overwritten counts where the module has per-ring stats. */
	if (s->info.features & RINGTRACE_FEAT_RING_STATS)
		sn->stats = calloc(sn->nr ? sn->nr : 1, sizeof(*sn->stats));
	for (uint32_t i = 0; i < s->nr_rings; i++) {
		const struct rt_ring *r = &s->srcs[i].ring;

		sn->rings[i].size = r->size;
		sn->rings[i].cpu = s->srcs[i].cpu;
		rt_raw_source_chunk(&s->srcs[i], &sn->rings[i].raw_kind,
				    &sn->rings[i].raw_id);
		sn->rings[i].buf = malloc(r->size);
		if (!sn->rings[i].buf) {
			rt_snapshot_fini(sn);
			return -ENOMEM;
		}
	}
	return 0;
}

void rt_snapshot_fini(struct rt_snapshot *sn)
{
	for (uint32_t i = 0; sn->rings && i < sn->nr; i++)
		free(sn->rings[i].buf);
	free(sn->rings);
	free(sn->recs);
	free(sn->stats);
	sn->stats = NULL;
	sn->rings = NULL;
	sn->recs = NULL;
	sn->nr = 0;
}

static int by_time(const void *a, const void *b)
{
	const struct rt_snapshot_rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	/* Per-thread rings all say CPU_ANY: their order is the rings'. */
	if (x->ring != y->ring)
		return x->ring < y->ring ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Room for @n records. */
static int reserve_recs(struct rt_snapshot *sn, size_t n)
{
	struct rt_snapshot_rec *p;

	if (n <= sn->cap)
		return 0;
	p = realloc(sn->recs, n * sizeof(*p));
	if (!p)
		return -ENOMEM;
	sn->recs = p;
	sn->cap = n;
	return 0;
}

/* Index ring @i's records of copy @c: the ones after its last snapshot. */
static int collect(struct rt_snapshot *sn, uint32_t i,
		   const struct rt_snapshot_copy *c)
{
	struct rt_snapshot_ring *r = &sn->rings[i];
	uint64_t pos = c->from;
	const struct ringtrace_event_header *h;
	size_t need = sn->nr_recs + (c->to - c->from) / MIN_RECORD;

	if (reserve_recs(sn, need ? need : 1))
		return -ENOMEM;
	while (pos < c->to) {
		const unsigned char *p = r->buf + (pos - c->base);
		struct rt_snapshot_rec *rec;
		uint64_t ts;

		h = (const void *)p;
		if (h->size < MIN_RECORD || h->size % RINGTRACE_RECORD_ALIGN ||
		    h->size > c->to - pos)
			return RT_SNAPSHOT_ERR_DATA;
		memcpy(&ts, p + sizeof(*h), sizeof(ts));
		rec = &sn->recs[sn->nr_recs++];
		rec->ts = ts;
		rec->pos = pos;
		rec->data = p;
		rec->size = h->size;
		rec->cpu = r->cpu;
		rec->type = h->type;
		rec->ring = i;
		pos += h->size;
	}
	r->shown = c->to;
	return 0;
}

void rt_snapshot_select(struct rt_snapshot *sn, uint64_t now_ns)
{
	uint64_t bytes = 0;
	size_t i;

	qsort(sn->recs, sn->nr_recs, sizeof(*sn->recs), by_time);
	sn->first = 0;
	/* Newest first, until a bound is reached. */
	for (i = sn->nr_recs; i > 0; i--) {
		const struct rt_snapshot_rec *rec = &sn->recs[i - 1];

		if (sn->max_age_ns && rec->ts + sn->max_age_ns < now_ns)
			break;
		if (sn->max_bytes && bytes + rec->size > sn->max_bytes)
			break;
		bytes += rec->size;
	}
	sn->first = i;
	/* Path and cgroup records name: the header counts what is printed. */
	sn->nr_shown = 0;
	sn->nr_not_shown = 0;
	for (i = 0; i < sn->nr_recs; i++) {
		if (sn->recs[i].type == RINGTRACE_RECORD_PATH ||
		    sn->recs[i].type == RINGTRACE_RECORD_CGROUP)
			continue;
		if (i < sn->first)
			sn->nr_not_shown++;
		else
			sn->nr_shown++;
	}
}

/*
 * Records the kernel overwrote, all rings: exact from GET_STATS, else
 * from the control pages (refreshed every half ring).
 */
static uint64_t overwritten_now(struct rt_snapshot *sn, struct rt_session *s)
{
	struct ringtrace_stats st;
	uint64_t sum = 0;
	uint32_t nr;

	if (sn->stats && !rt_session_ring_stats(s, &st, sn->stats, sn->nr, &nr))
		return st.overwritten;
	for (uint32_t i = 0; i < s->nr_rings; i++)
		sum += rt_load_u64_once(&s->rings[i].page->overwritten);
	return sum;
}

/*
 * The calls the probes of the session's functions missed since the
 * previous snapshot: the session's count (GET_STATS), less what the
 * previous snapshot saw. Unchanged (0 new) if it cannot be read.
 */
static void func_missed_now(struct rt_snapshot *sn, struct rt_session *s)
{
	struct ringtrace_stats st;

	sn->func_missed = 0;
	if (!s->nr_funcs || rt_session_stats(s, &st) ||
	    st.func_missed < sn->total_func_missed)
		return;
	sn->func_missed = st.func_missed - sn->total_func_missed;
	sn->total_func_missed = st.func_missed;
}

int rt_snapshot_take(struct rt_snapshot *sn, struct rt_session *s,
		     uint64_t now_ns)
{
	uint64_t overwritten;
	int ret;

	sn->nr_recs = 0;
	sn->busy_rings = 0;
	sn->number++;
	sn->ts_ns = now_ns;
	for (uint32_t i = 0; i < sn->nr && i < s->nr_rings; i++) {
		const struct rt_ring *ring = &s->srcs[i].ring;
		struct rt_snapshot_copy c;

		ret = rt_snapshot_copy_ring(s->rings[i].page, ring->data,
					    ring->size, sn->rings[i].buf,
					    sn->rings[i].shown, &c);
		if (ret == RT_SNAPSHOT_BUSY) {
			sn->busy_rings++;
			continue;
		}
		if (ret)
			return ret;
		ret = collect(sn, i, &c);
		if (ret)
			return ret == -ENOMEM ? RT_SNAPSHOT_ERR_DATA : ret;
	}
	overwritten = overwritten_now(sn, s);
	sn->overwritten = overwritten - sn->total_overwritten;
	sn->total_overwritten = overwritten;
	func_missed_now(sn, s);
	rt_snapshot_select(sn, now_ns);
	return RT_SNAPSHOT_OK;
}

void rt_snapshot_print(const struct rt_snapshot *sn, enum rt_format format,
		       struct rt_outbuf *ob, struct rt_paths *paths)
{
	rt_print_fn print = rt_printer(format);
	struct rt_event ev;

	if (format == RT_FORMAT_JSON)
		rt_outbuf_printf(ob, "{\"snapshot\":%" PRIu64 ",\"ts_ns\":%"
				 PRIu64 ",\"records\":%zu,\"not_shown\":%zu,"
				 "\"overwritten\":%" PRIu64 ",\"busy_rings\":%"
				 PRIu64 ",\"func_missed\":%" PRIu64 "}\n",
				 sn->number, sn->ts_ns, sn->nr_shown,
				 sn->nr_not_shown, sn->overwritten,
				 sn->busy_rings, sn->func_missed);
	else
		rt_outbuf_printf(ob, "# snapshot %" PRIu64 " at %" PRIu64 ".%09"
				 PRIu64 ": %zu records, %zu older not shown, %"
				 PRIu64 " overwritten since the previous "
				 "snapshot%s", sn->number,
				 sn->ts_ns / 1000000000u,
				 sn->ts_ns % 1000000000u, sn->nr_shown,
				 sn->nr_not_shown, sn->overwritten,
				 sn->busy_rings ?
				 " (some rings overwritten faster than read)" :
				 "");
	if (format != RT_FORMAT_JSON && sn->func_missed)
		rt_outbuf_printf(ob, ", %" PRIu64 " func calls missed by the "
				 "probe", sn->func_missed);
	if (format != RT_FORMAT_JSON)
		rt_outbuf_append(ob, "\n", 1);
	for (size_t i = 0; i < sn->nr_recs; i++) {
		const struct rt_snapshot_rec *rec = &sn->recs[i];

		if (rt_decode(rec->data, rec->size, rec->cpu, &ev) !=
		    RT_DECODE_OK)
			continue;
		/* Names from every name record kept, shown or not. */
		if (rt_paths_take(paths, &ev))
			continue;
		if (i < sn->first || !print)
			continue;
		rt_paths_name(paths, &ev);
		print(ob, &ev);
	}
	if (format == RT_FORMAT_JSON)
		rt_outbuf_printf(ob, "{\"snapshot_end\":%" PRIu64 "}\n",
				 sn->number);
	else
		rt_outbuf_printf(ob, "# end of snapshot %" PRIu64 "\n",
				 sn->number);
}

/* Whether record @k of the snapshot goes to its raw file. */
static bool raw_keeps(const struct rt_snapshot *sn, size_t k)
{
	uint32_t type = sn->recs[k].type;

	/* Older name records too: they name the files and cgroups kept. */
	return k >= sn->first || type == RINGTRACE_RECORD_PATH ||
	       type == RINGTRACE_RECORD_CGROUP;
}

size_t rt_snapshot_write_raw(const struct rt_snapshot *sn,
			     struct rt_outbuf *ob)
{
	size_t written = 0;

	for (uint32_t r = 0; r < sn->nr; r++) {
		struct rt_raw_chunk c = { .kind = sn->rings[r].raw_kind,
					  .cpu = sn->rings[r].raw_id };

		for (size_t k = 0; k < sn->nr_recs; k++)
			if (sn->recs[k].ring == r && raw_keeps(sn, k))
				c.size += sn->recs[k].size;
		if (!c.size)
			continue;
		rt_outbuf_append(ob, &c, sizeof(c));
		for (size_t k = 0; k < sn->nr_recs; k++) {
			if (sn->recs[k].ring != r || !raw_keeps(sn, k))
				continue;
			rt_outbuf_append(ob, sn->recs[k].data,
					 sn->recs[k].size);
			written++;
		}
	}
	if (sn->func_missed)
		rt_raw_write_func_missed(ob, sn->func_missed);
	return written;
}
