// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Two function graphs' per-function tables side by side (graph_diff.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/escape.h"
#include "ringtrace/graph_diff.h"
#include "ringtrace/hash.h"
#include "ringtrace/hist.h"

int rt_graph_diff_init(struct rt_graph_diff *d, uint32_t max)
{
	memset(d, 0, sizeof(*d));
	if (!max)
		max = 1;
	d->max = max;
	for (d->nr_slots = 1; d->nr_slots <= 2 * max; d->nr_slots *= 2)
		;
	d->rows = calloc(max, sizeof(*d->rows));
	d->index = calloc(d->nr_slots, sizeof(*d->index));
	if (!d->rows || !d->index) {
		rt_graph_diff_fini(d);
		return -ENOMEM;
	}
	return 0;
}

void rt_graph_diff_fini(struct rt_graph_diff *d)
{
	free(d->rows);
	free(d->index);
	memset(d, 0, sizeof(*d));
}

/* A row's name as kept (cut to RT_GRAPH_DIFF_NAME - 1 bytes), hashed. */
static uint32_t name_hash(const char *name, bool is_read)
{
	uint64_t h = rt_fnv64(RT_FNV64_INIT ^ is_read, name,
			      strnlen(name, RT_GRAPH_DIFF_NAME - 1));

	return (uint32_t)(h ^ (h >> 32));
}

void rt_graph_diff_add(struct rt_graph_diff *d, enum rt_diff_side side,
		       const char *name, const struct rt_graph_func *f)
{
	char hex[RT_GRAPH_DIFF_NAME];
	struct rt_graph_diff_row *r = NULL;
	uint32_t mask = d->nr_slots - 1, s;

	if (f->is_read)
		name = "vfs_read";
	else if (!name || !*name) {
		snprintf(hex, sizeof(hex), "%#" PRIx64, f->ip);
		name = hex;
	}
	if (!d->rows)
		return;
	/* More than twice max slots: a free one ends the probe. */
	for (s = name_hash(name, f->is_read) & mask; d->index[s] && !r;
	     s = (s + 1) & mask) {
		struct rt_graph_diff_row *at = &d->rows[d->index[s] - 1];

		if (at->is_read == f->is_read &&
		    !strncmp(at->name, name, sizeof(hex) - 1))
			r = at;
	}
	if (!r) {
		if (d->nr == d->max)
			return;
		r = &d->rows[d->nr++];
		snprintf(r->name, sizeof(r->name), "%s", name);
		r->is_read = f->is_read;
		d->index[s] = d->nr;
	}
	r->calls[side] += f->calls;
	r->self_ns[side] += f->self_ns;
	r->total_ns[side] += f->total_ns;
}

static uint64_t change(const uint64_t v[2])
{
	return v[1] > v[0] ? v[1] - v[0] : v[0] - v[1];
}

static int by_change(const void *a, const void *b)
{
	const struct rt_graph_diff_row *x = a, *y = b;
	uint64_t cx = change(x->self_ns), cy = change(y->self_ns);

	if (x->is_read != y->is_read)
		return x->is_read ? -1 : 1;
	if (cx != cy)
		return cx < cy ? 1 : -1;
	return strcmp(x->name, y->name);
}

void rt_graph_diff_finish(struct rt_graph_diff *d)
{
	/* The index no longer finds them: no row is added after this. */
	if (d->rows)
		qsort(d->rows, d->nr, sizeof(d->rows[0]), by_change);
	if (d->index)
		memset(d->index, 0, d->nr_slots * sizeof(*d->index));
	d->max = d->nr;
}

void rt_graph_diff_print(const struct rt_graph_diff *d, struct rt_outbuf *ob,
			 const char *before, const char *after)
{
	char sb[32], sa[32], sd[40], tb[32], ta[32], td[40], pc[32];
	char name[RT_GRAPH_DIFF_NAME * RT_TEXT_ESCAPE_MAX + 1];

	rt_outbuf_printf(ob, "%9s %9s %10s %10s %10s %10s %10s %10s %8s  %s\n",
			 "CALLS<", "CALLS>", "SELF<", "SELF>", "CHANGE",
			 "TOTAL<", "TOTAL>", "CHANGE", "CHANGE%", "FUNCTION");
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct rt_graph_diff_row *r = &d->rows[i];

		*rt_text_escape(name, r->name, sizeof(r->name), NULL) = '\0';
		rt_outbuf_printf(ob, "%9" PRIu64 " %9" PRIu64 " %10s %10s %10s "
				 "%10s %10s %10s %8s  ", r->calls[0],
				 r->calls[1],
				 rt_fmt_duration(sb, sizeof(sb), r->self_ns[0]),
				 rt_fmt_duration(sa, sizeof(sa), r->self_ns[1]),
				 rt_fmt_duration_change(sd, sizeof(sd), r->self_ns[0],
						 r->self_ns[1]),
				 rt_fmt_duration(tb, sizeof(tb), r->total_ns[0]),
				 rt_fmt_duration(ta, sizeof(ta), r->total_ns[1]),
				 rt_fmt_duration_change(td, sizeof(td), r->total_ns[0],
						 r->total_ns[1]),
				 rt_fmt_change(pc, sizeof(pc), r->total_ns[0],
					       r->total_ns[1]));
		rt_outbuf_append(ob, name, strlen(name));
		rt_outbuf_append(ob, "\n", 1);
	}
	rt_outbuf_printf(ob, "\n(<: BEFORE, ");
	rt_outbuf_append(ob, before, strlen(before));
	rt_outbuf_printf(ob, "; >: AFTER, ");
	rt_outbuf_append(ob, after, strlen(after));
	rt_outbuf_printf(ob, "; times summed over the reads, as recorded; "
			 "self: a function's time less its traced callees' "
			 "(vfs_read: what none of them took), total: with "
			 "them; the largest change of self time first)\n");
}

/* "key":"escaped": a name, or a path (its first 4096 bytes). */
static void json_string(struct rt_outbuf *ob, const char *key, const char *s)
{
	size_t n = strnlen(s, 4096);
	char *p = rt_outbuf_reserve(ob, strlen(key) + 8 +
				    n * RT_JSON_ESCAPE_MAX);

	if (!p)
		return;
	p += sprintf(p, "\"%s\":\"", key);
	p = rt_json_escape(p, s, n);
	*p++ = '"';
	rt_outbuf_commit(ob, p);
}

static int64_t delta(const uint64_t v[2])
{
	return v[1] >= v[0] ? (int64_t)(v[1] - v[0]) : -(int64_t)(v[0] - v[1]);
}

void rt_graph_diff_print_json(const struct rt_graph_diff *d,
			      struct rt_outbuf *ob, const char *before,
			      const char *after)
{
	rt_outbuf_printf(ob, "{\"type\":\"graph_diff\",");
	json_string(ob, "before", before);
	rt_outbuf_append(ob, ",", 1);
	json_string(ob, "after", after);
	rt_outbuf_printf(ob, ",\"functions\":[");
	for (uint32_t i = 0; i < d->nr; i++) {
		const struct rt_graph_diff_row *r = &d->rows[i];

		rt_outbuf_printf(ob, "%s{", i ? "," : "");
		json_string(ob, "func", r->name);
		rt_outbuf_printf(ob, ",\"read\":%s,\"calls\":[%" PRIu64 ",%"
				 PRIu64 "],\"self_ns\":[%" PRIu64 ",%" PRIu64
				 "],\"total_ns\":[%" PRIu64 ",%" PRIu64 "],"
				 "\"self_change_ns\":%" PRId64 ","
				 "\"total_change_ns\":%" PRId64 "}",
				 r->is_read ? "true" : "false", r->calls[0],
				 r->calls[1], r->self_ns[0], r->self_ns[1],
				 r->total_ns[0], r->total_ns[1],
				 delta(r->self_ns), delta(r->total_ns));
	}
	rt_outbuf_printf(ob, "]}\n");
}
