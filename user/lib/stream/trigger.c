// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Looking at the flight recorder's new records for a trigger (trigger.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/snapshot.h"
#include "ringtrace/trigger.h"

#define MIN_RECORD	(sizeof(struct ringtrace_event_header) + sizeof(__u64))

int rt_trigger_scan_init(struct rt_trigger_scan *sc,
			 const struct rt_session *s, struct rt_paths *paths)
{
	uint64_t max = 0;

	memset(sc, 0, sizeof(*sc));
	sc->paths = paths;
	sc->nr = s->nr_rings;
	for (uint32_t i = 0; i < s->nr_rings; i++)
		if (s->srcs[i].ring.size > max)
			max = s->srcs[i].ring.size;
	sc->seen = calloc(sc->nr ? sc->nr : 1, sizeof(*sc->seen));
	sc->buf = malloc(max ? max : 1);
	if (!sc->seen || !sc->buf) {
		rt_trigger_scan_fini(sc);
		return -ENOMEM;
	}
	return 0;
}

void rt_trigger_scan_fini(struct rt_trigger_scan *sc)
{
	free(sc->seen);
	free(sc->buf);
	sc->seen = NULL;
	sc->buf = NULL;
	sc->nr = 0;
}

/* The records of one ring's copy, [c->from, c->to), one by one. */
static uint64_t check_copy(struct rt_trigger_scan *sc, uint32_t cpu,
			   const struct rt_snapshot_copy *c,
			   void (*check)(void *arg, const struct rt_event *ev),
			   void *arg)
{
	uint64_t pos = c->from, n = 0;
	struct rt_event ev;

	while (pos < c->to) {
		const unsigned char *p = sc->buf + (pos - c->base);
		const struct ringtrace_event_header *h = (const void *)p;

		/* The copy holds whole records; a size that lies ends it. */
		if (h->size < MIN_RECORD || h->size % RINGTRACE_RECORD_ALIGN ||
		    h->size > c->to - pos) {
			sc->malformed++;
			break;
		}
		pos += h->size;
		if (rt_decode(p, h->size, cpu, &ev) != RT_DECODE_OK)
			continue;
		if (rt_paths_take(sc->paths, &ev))
			continue;
		if (!rt_event_about_task(ev.kind))
			continue;
		rt_paths_name(sc->paths, &ev);
		n++;
		check(arg, &ev);
	}
	return n;
}

uint64_t rt_trigger_scan_look(struct rt_trigger_scan *sc,
			      const struct rt_session *s,
			      void (*check)(void *arg, const struct rt_event *ev),
			      void *arg)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < sc->nr && i < s->nr_rings; i++) {
		const struct rt_ring *ring = &s->srcs[i].ring;
		struct rt_snapshot_copy c;
		int ret;

		ret = rt_snapshot_copy_ring(s->rings[i].page, ring->data,
					    ring->size, sc->buf, sc->seen[i], &c);
		if (ret == RT_SNAPSHOT_BUSY) {
			sc->busy++;
			continue;
		}
		if (ret) {
			sc->malformed++;
			continue;
		}
		/* The kernel went past what was not looked at yet. */
		if ((int64_t)(c.from - sc->seen[i]) > 0) {
			sc->missed_bytes += c.from - sc->seen[i];
			sc->missed_rings++;
		}
		n += check_copy(sc, s->srcs[i].cpu, &c, check, arg);
		sc->seen[i] = c.to;
	}
	sc->records += n;
	return n;
}
