// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Counter snapshots as a merge source (see counter_source.h). We are both
 * producer and consumer here, on one thread; the producer side still uses
 * barrier.h's producer helpers so the ring obeys the same protocol as the
 * kernel's and the cursor's checks hold.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/barrier.h"
#include "ringtrace/counter_source.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/record.h"

#define MIN_RING	(16u * 1024)

static uint32_t record_size(const struct rt_counters *cs)
{
	return (uint32_t)(sizeof(struct rt_counters_record) +
			  cs->nr * sizeof(struct rt_counter_value));
}

int rt_decode_counters(const struct rt_record *rec, uint32_t nr,
		       const char *const *names, struct rt_event *ev)
{
	struct rt_counters_record r;

	memset(ev, 0, offsetof(struct rt_event, u));
	memset(&ev->ext, 0, sizeof(ev->ext));	/* no task_ext */
	if (rec->type != RT_COUNTERS_RECORD)
		return RT_DECODE_UNKNOWN;
	if (rec->size < sizeof(r))
		return RT_DECODE_ERR_SHORT;
	memcpy(&r, rec->data, sizeof(r));
	if (r.nr != nr || rec->size < sizeof(r) +
	    (uint64_t)nr * sizeof(struct rt_counter_value))
		return RT_DECODE_ERR_SHORT;
	ev->kind = RT_EVENT_COUNTERS;
	ev->raw_type = rec->type;
	ev->ts_ns = r.ts_ns;
	ev->cpu = r.cpu < 0 ? RT_EVENT_CPU_ANY : (uint32_t)r.cpu;
	ev->u.counters.interval_ns = r.interval_ns;
	ev->u.counters.target_pid = r.pid;
	ev->u.counters.nr = r.nr;
	ev->u.counters.names = names;
	/* The ring and the bounce buffer are 8-byte aligned, like the record. */
	ev->u.counters.values = (const struct rt_counter_value *)
		((const unsigned char *)rec->data + sizeof(r));
	return RT_DECODE_OK;
}

static int decode(struct rt_source *src, const struct rt_record *rec,
		  struct rt_event *ev)
{
	struct rt_counter_source *s = src->ctx;

	return rt_decode_counters(rec, s->cs->nr, s->names, ev);
}

int rt_counter_source_init(struct rt_counter_source *s, struct rt_counters *cs,
			   uint32_t rounds_held)
{
	uint64_t need = (uint64_t)record_size(cs) * cs->nr_rows *
			((uint64_t)rounds_held + 2) * 2;
	uint64_t size = MIN_RING;

	memset(s, 0, sizeof(*s));
	while (size < need)
		size *= 2;
	s->cs = cs;
	for (uint32_t i = 0; i < cs->nr; i++)
		s->names[i] = cs->c[i].name;
	s->data = aligned_alloc(64, size);
	if (!s->data)
		return -ENOMEM;
	memset(s->data, 0, size);
	s->size = size;
	rt_source_init(&s->src, 0);
	s->src.decode = decode;
	s->src.label = "counter snapshots, slot";
	s->src.raw_kind = RT_RAW_CHUNK_COUNTERS;
	s->src.ctx = s;
	if (rt_ring_init(&s->src.ring, &s->head, &s->tail, s->data, size,
			 NULL, 0)) {
		free(s->data);
		s->data = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void put(struct rt_counter_source *s, const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		s->data[(s->prod + i) & (s->size - 1)] = b[i];
	s->prod += len;
}

void rt_counter_source_snapshot(struct rt_counter_source *s, uint64_t now_ns)
{
	struct rt_counters *cs = s->cs;
	uint64_t interval = now_ns - cs->last_read_ns;
	uint32_t size = record_size(cs);

	rt_counters_read(cs, now_ns);
	for (uint32_t r = 0; r < cs->nr_rows; r++) {
		const struct rt_counter_row *row = &cs->rows[r];
		struct rt_counters_record rec = {
			.header = { .type = RT_COUNTERS_RECORD, .size = (__u16)size },
			.ts_ns = now_ns,
			.interval_ns = interval,
			.cpu = row->cpu,
			.pid = row->pid,
			.nr = cs->nr,
		};
		/* (A)'s stand-in: free space from the consumer's tail. */
		uint64_t tail = rt_producer_load_tail(&s->tail);

		if (s->prod + size - tail > s->size) {
			s->dropped++;
			continue;
		}
		put(s, &rec, sizeof(rec));
		put(s, row->delta, cs->nr * sizeof(*row->delta));
		s->snapshots++;
	}
	/* (B)'s stand-in: the records before the new head. */
	rt_producer_publish_head(&s->head, s->prod);
}

void rt_counter_source_fini(struct rt_counter_source *s)
{
	rt_ring_fini(&s->src.ring);
	free(s->data);
	s->data = NULL;
}
