// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The tracked-lock statistics table; see lockstat.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "ringtrace/escape.h"
#include "ringtrace/lockstat.h"
#include "ringtrace/sys.h"

#define RT_LOCKSTAT_FIRST_GUESS	64

int rt_lockstat_fetch(int fd, struct rt_lockstat *ls, bool reset,
		      char *err, size_t errlen)
{
	unsigned int room = RT_LOCKSTAT_FIRST_GUESS;
	struct ringtrace_lock_stats_query q;
	struct ringtrace_lock_stat *buf;

	ls->locks = NULL;
	ls->nr = 0;
	for (;;) {
		buf = calloc(room, sizeof(*buf));
		if (!buf) {
			snprintf(err, errlen, "out of memory for %u locks", room);
			return -ENOMEM;
		}
		q = (struct ringtrace_lock_stats_query){
			.size = sizeof(q),
			.entry_size = sizeof(*buf),
			.nr_entries = room,
			.entries = (uintptr_t)buf,
			.flags = reset ? RINGTRACE_LOCK_STATS_RESET : 0,
		};
		if (rt_sys.ioctl(fd, RINGTRACE_IOC_LOCK_STATS, &q)) {
			int e = errno;

			free(buf);
			snprintf(err, errlen, "%s: %s%s", "RINGTRACE_IOC_LOCK_STATS",
				 strerror(e),
				 e == ENOTTY ? " (the loaded module predates lock "
					       "statistics: load this version)" : "");
			return -e;
		}
		/* A reset must not be repeated: take what fitted. */
		if (q.nr_locks <= room || reset) {
			ls->locks = buf;
			ls->nr = q.nr_entries;
			return 0;
		}
		free(buf);
		room = q.nr_locks + RT_LOCKSTAT_FIRST_GUESS;	/* more may come */
	}
}

void rt_lockstat_free(struct rt_lockstat *ls)
{
	free(ls->locks);
	ls->locks = NULL;
	ls->nr = 0;
}

static const struct ringtrace_lock_stat *
rt_lockstat_find(const struct rt_lockstat *ls, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < ls->nr; i++)
		if (ls->locks[i].lock_id == id)
			return &ls->locks[i];
	return NULL;
}

static uint64_t rt_sub(uint64_t now, uint64_t before)
{
	/* The table may have been reset in between: count from zero. */
	return now >= before ? now - before : now;
}

void rt_lockstat_delta(struct rt_lockstat *now, const struct rt_lockstat *before)
{
	const struct ringtrace_lock_stat *b;
	struct ringtrace_lock_stat *n;
	unsigned int i;

	for (i = 0; i < now->nr; i++) {
		n = &now->locks[i];
		b = rt_lockstat_find(before, n->lock_id);
		if (!b)
			continue;
		n->acquisitions = rt_sub(n->acquisitions, b->acquisitions);
		n->contended = rt_sub(n->contended, b->contended);
		n->wait_total_ns = rt_sub(n->wait_total_ns, b->wait_total_ns);
		n->hold_total_ns = rt_sub(n->hold_total_ns, b->hold_total_ns);
	}
}

static const struct {
	const char *name;
	enum rt_lockstat_key key;
} rt_lockstat_keys[] = {
	{ "contended",		RT_LOCKSTAT_BY_CONTENDED },
	{ "wait",		RT_LOCKSTAT_BY_WAIT_TOTAL },
	{ "wait-max",		RT_LOCKSTAT_BY_WAIT_MAX },
	{ "hold",		RT_LOCKSTAT_BY_HOLD_TOTAL },
	{ "hold-max",		RT_LOCKSTAT_BY_HOLD_MAX },
	{ "acquisitions",	RT_LOCKSTAT_BY_ACQUISITIONS },
	{ "name",		RT_LOCKSTAT_BY_NAME },
};

int rt_lockstat_parse_key(const char *s, enum rt_lockstat_key *key)
{
	size_t i;

	for (i = 0; i < sizeof(rt_lockstat_keys) / sizeof(rt_lockstat_keys[0]); i++) {
		if (!strcmp(s, rt_lockstat_keys[i].name)) {
			*key = rt_lockstat_keys[i].key;
			return 0;
		}
	}
	return -EINVAL;
}

static uint64_t rt_lockstat_value(const struct ringtrace_lock_stat *e,
				  enum rt_lockstat_key key)
{
	switch (key) {
	case RT_LOCKSTAT_BY_WAIT_TOTAL:		return e->wait_total_ns;
	case RT_LOCKSTAT_BY_WAIT_MAX:		return e->wait_max_ns;
	case RT_LOCKSTAT_BY_HOLD_TOTAL:		return e->hold_total_ns;
	case RT_LOCKSTAT_BY_HOLD_MAX:		return e->hold_max_ns;
	case RT_LOCKSTAT_BY_ACQUISITIONS:	return e->acquisitions;
	case RT_LOCKSTAT_BY_CONTENDED:
	case RT_LOCKSTAT_BY_NAME:
		break;
	}
	return e->contended;
}

static enum rt_lockstat_key rt_sort_key;

static int rt_lockstat_cmp(const void *a, const void *b)
{
	const struct ringtrace_lock_stat *x = a, *y = b;
	uint64_t vx, vy;
	int byname = strncmp(x->name, y->name, sizeof(x->name));

	if (rt_sort_key == RT_LOCKSTAT_BY_NAME)
		return byname;
	vx = rt_lockstat_value(x, rt_sort_key);
	vy = rt_lockstat_value(y, rt_sort_key);
	if (vx != vy)
		return vx > vy ? -1 : 1;
	/* Ties (often all zero): busiest first, then by name, stably. */
	if (x->acquisitions != y->acquisitions)
		return x->acquisitions > y->acquisitions ? -1 : 1;
	return byname ? byname : (x->lock_id > y->lock_id) - (x->lock_id < y->lock_id);
}

void rt_lockstat_sort(struct rt_lockstat *ls, enum rt_lockstat_key key)
{
	rt_sort_key = key;
	qsort(ls->locks, ls->nr, sizeof(*ls->locks), rt_lockstat_cmp);
}

static unsigned int rt_lockstat_shown(const struct rt_lockstat *ls,
				      unsigned int top)
{
	return top && top < ls->nr ? top : ls->nr;
}

/* Names are NUL-padded, not necessarily NUL-terminated. */
static void rt_lockstat_name(char *out, const struct ringtrace_lock_stat *e,
			     bool json)
{
	char name[RINGTRACE_LOCK_NAME_LEN + 1];

	memcpy(name, e->name, RINGTRACE_LOCK_NAME_LEN);
	name[RINGTRACE_LOCK_NAME_LEN] = '\0';
	if (json)
		*rt_json_escape(out, name, RINGTRACE_LOCK_NAME_LEN) = '\0';
	else
		*rt_text_escape(out, name, RINGTRACE_LOCK_NAME_LEN, NULL) = '\0';
}

static double rt_us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static double rt_avg_us(uint64_t total_ns, uint64_t n)
{
	return n ? rt_us(total_ns) / (double)n : 0.0;
}

void rt_lockstat_print_table(FILE *f, const struct rt_lockstat *ls,
			     unsigned int top)
{
	char name[RINGTRACE_LOCK_NAME_LEN * RT_TEXT_ESCAPE_MAX + 1];
	unsigned int i, n = rt_lockstat_shown(ls, top);

	fprintf(f, "%-32s %12s %10s %13s %11s %11s %13s %11s %11s\n",
		"name", "acquisitions", "contended", "wait-total-us",
		"wait-max-us", "wait-avg-us", "hold-total-us", "hold-max-us",
		"hold-avg-us");
	for (i = 0; i < n; i++) {
		const struct ringtrace_lock_stat *e = &ls->locks[i];

		rt_lockstat_name(name, e, false);
		fprintf(f, "%-32s %12" PRIu64 " %10" PRIu64
			" %13.3f %11.3f %11.3f %13.3f %11.3f %11.3f\n",
			name, (uint64_t)e->acquisitions, (uint64_t)e->contended,
			rt_us(e->wait_total_ns), rt_us(e->wait_max_ns),
			rt_avg_us(e->wait_total_ns, e->contended),
			rt_us(e->hold_total_ns), rt_us(e->hold_max_ns),
			rt_avg_us(e->hold_total_ns, e->acquisitions));
	}
}

void rt_lockstat_print_json(FILE *f, const struct rt_lockstat *ls,
			    unsigned int top)
{
	char name[RINGTRACE_LOCK_NAME_LEN * RT_JSON_ESCAPE_MAX + 1];
	unsigned int i, n = rt_lockstat_shown(ls, top);

	for (i = 0; i < n; i++) {
		const struct ringtrace_lock_stat *e = &ls->locks[i];

		rt_lockstat_name(name, e, true);
		fprintf(f, "{\"type\":\"lockstat\",\"lock\":\"%s\",\"lock_id\":\"0x%" PRIx64
			"\",\"acquisitions\":%" PRIu64 ",\"contended\":%" PRIu64
			",\"wait_total_ns\":%" PRIu64 ",\"wait_max_ns\":%" PRIu64
			",\"hold_total_ns\":%" PRIu64 ",\"hold_max_ns\":%" PRIu64 "}\n",
			name, (uint64_t)e->lock_id, (uint64_t)e->acquisitions,
			(uint64_t)e->contended, (uint64_t)e->wait_total_ns,
			(uint64_t)e->wait_max_ns, (uint64_t)e->hold_total_ns,
			(uint64_t)e->hold_max_ns);
	}
}
