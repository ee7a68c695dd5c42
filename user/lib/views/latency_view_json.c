// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * --hist, --hist-by and --summary with --json (see latency_view.h): the
 * numbers rt_latency_view_print() prints, in the same order, as one JSON
 * object per print. Printed once per run (or per --interval), not per
 * event: formatting goes through rt_outbuf_printf().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/escape.h"
#include "ringtrace/latency_view.h"
#include "ringtrace/output.h"
#include "latency_view_names.h"

/* "NAME":"escaped value" with a leading comma unless @first. */
static void put_str(struct rt_outbuf *ob, bool first, const char *name,
		    const char *val, size_t max)
{
	char *p = rt_outbuf_reserve(ob, 64 + max * RT_JSON_ESCAPE_MAX);

	if (!first)
		*p++ = ',';
	*p++ = '"';
	p = rt_fmt_lit(p, name, strlen(name));
	p = RT_FMT_LIT(p, "\":\"");
	p = rt_json_escape(p, val, max);
	*p++ = '"';
	rt_outbuf_commit(ob, p);
}

/* A JSON string, escaped, after a comma if @comma. */
static void put_json_str(struct rt_outbuf *ob, bool comma, const char *val,
			 size_t max)
{
	char *p = rt_outbuf_reserve(ob, 4 + max * RT_JSON_ESCAPE_MAX);

	if (comma)
		*p++ = ',';
	*p++ = '"';
	p = rt_json_escape(p, val, max);
	*p++ = '"';
	rt_outbuf_commit(ob, p);
}

/*
 * The histograms the text prints for an entry, each as its member; the
 * functions' in "funcs":{"NAME":{...}}, in the text's order.
 */
static void put_hists(const struct rt_latency_view *v, struct rt_outbuf *ob,
		      const struct rt_view_entry *e,
		      const struct rt_view_locks *l, bool first)
{
	const struct {
		const char		*name;
		const struct rt_hist	*h;
	} hists[] = {
		{ "vfs_read", &e->read },
		{ "lock_wait", l ? &l->wait : NULL },
		{ "lock_hold", l ? &l->hold : NULL },
		{ "offcpu", l ? &l->offcpu : NULL },
	};
	char hex[RT_FUNC_LABEL_MAX];
	uint32_t shown = 0;

	for (size_t i = 0; i < sizeof(hists) / sizeof(hists[0]); i++) {
		if (!hists[i].h || !hists[i].h->n)
			continue;
		rt_outbuf_printf(ob, "%s\"%s\":", first ? "" : ",",
				 hists[i].name);
		rt_hist_print_json(ob, hists[i].h);
		first = false;
	}
	for (uint32_t i = 0; l && l->func_n && i < v->nr_funcs; i++) {
		const struct rt_hist *h = rt_view_func_hist(v, l, i);

		if (!h || !h->n)
			continue;
		if (!shown++)
			rt_outbuf_printf(ob, "%s\"funcs\":{", first ? "" : ",");
		put_json_str(ob, shown > 1, rt_view_func_name(v, i, hex),
			     RT_FUNC_LABEL_MAX);
		rt_outbuf_printf(ob, ":");
		rt_hist_print_json(ob, h);
	}
	if (shown)
		rt_outbuf_printf(ob, "}");
}

static const char *by_name(enum rt_hist_by by)
{
	switch (by) {
	case RT_HIST_BY_COMM:
		return "comm";
	case RT_HIST_BY_PID:
		return "pid";
	case RT_HIST_BY_FILE:
		return "file";
	case RT_HIST_BY_CGROUP:
		return "cgroup";
	case RT_HIST_BY_NONE:
		break;
	}
	return "none";
}

/* The members naming a keyed entry, as the text's "@[...]" line. */
static void put_key(struct rt_latency_view *v, struct rt_outbuf *ob,
		    const struct rt_view_entry *e)
{
	char name[96];

	if (v->by == RT_HIST_BY_CGROUP) {
		put_str(ob, true, "cgroup",
			rt_view_cgroup_name(v, e->key.cgroup_id, name,
					    sizeof(name)), RT_PATH_MAX);
	} else if (v->by == RT_HIST_BY_PID) {
		rt_outbuf_printf(ob, "\"pid\":%u", e->key.pid);
		put_str(ob, false, "comm", e->comm, sizeof(e->comm));
	} else if (v->by == RT_HIST_BY_COMM) {
		put_str(ob, true, "comm", e->key.name, sizeof(e->key.name));
	} else if (e->key.is_lock == 3) {
		put_str(ob, true, "func",
			rt_view_func_name(v, (uint32_t)e->key.ino, name),
			RT_FUNC_LABEL_MAX);
	} else if (e->key.is_lock == 1) {
		put_str(ob, true, "lock", e->key.name, sizeof(e->key.name));
	} else if (e->key.is_lock == 2) {
		/* "offcpu S": one key per state the tasks left in */
		put_str(ob, true, "offcpu_state",
			e->key.name + strlen("offcpu "),
			sizeof(e->key.name) - strlen("offcpu "));
	} else {
		put_str(ob, true, "file",
			rt_view_file_name(v, &e->key, name, sizeof(name)),
			RT_PATH_MAX);
	}
}

static void put_keyed(struct rt_latency_view *v, struct rt_outbuf *ob)
{
	const struct rt_view_entry **list;
	const struct rt_view_entry *other = &v->keyed.entries[v->keyed.max];
	uint32_t n, k = 0;

	rt_outbuf_printf(ob, ",\"by\":\"%s\",\"keys\":[", by_name(v->by));
	list = rt_view_sorted(&v->keyed, &n);
	for (uint32_t i = 0; list && i < n; i++) {
		const struct rt_view_entry *e = list[i];

		if (e == other)
			continue;
		rt_outbuf_printf(ob, "%s{", k++ ? "," : "");
		put_key(v, ob, e);
		put_hists(v, ob, e, &v->keyed.locks[e - v->keyed.entries],
			  false);
		rt_outbuf_printf(ob, "}");
	}
	rt_outbuf_printf(ob, "]");
	/* [other]: the table's size and the events past it, as the text. */
	if (v->keyed.overflow) {
		rt_outbuf_printf(ob, ",\"other\":{\"max_keys\":%u,\"events\":%llu",
				 v->keyed.max,
				 (unsigned long long)v->keyed.overflow);
		put_hists(v, ob, other, &v->keyed.locks[v->keyed.max], false);
		rt_outbuf_printf(ob, "}");
	}
	free(list);
}

static void put_row(struct rt_latency_view *v, struct rt_outbuf *ob,
		    const struct rt_view_entry *e, bool other, bool offcpu)
{
	char name[96];

	if (other)
		rt_outbuf_printf(ob, "\"other\":true");
	else {
		put_str(ob, true, "comm", e->comm, sizeof(e->comm));
		rt_outbuf_printf(ob, ",\"pid\":%u", e->key.pid);
	}
	rt_outbuf_printf(ob, ",\"calls\":%llu,\"bytes\":%llu,\"total_ns\":%llu,"
			 "\"p50_ns\":%llu,\"p99_ns\":%llu,\"max_ns\":%llu",
			 (unsigned long long)e->read.n,
			 (unsigned long long)e->bytes,
			 (unsigned long long)e->read.sum,
			 (unsigned long long)rt_hist_percentile(&e->read, 500),
			 (unsigned long long)rt_hist_percentile(&e->read, 990),
			 (unsigned long long)e->read.max);
	if (offcpu)
		rt_outbuf_printf(ob, ",\"offcpu_ns\":%llu",
				 (unsigned long long)e->read_offcpu);
	if (other)
		return;
	if (v->cgroups)
		put_str(ob, false, "cgroup",
			rt_view_cgroup_name(v, e->key.cgroup_id, name,
					    sizeof(name)), RT_PATH_MAX);
	put_str(ob, false, "file",
		rt_view_file_name(v, &e->key, name, sizeof(name)),
		RT_PATH_MAX);
}

/* The text's table of functions as "funcs":[...], when it prints one. */
static void put_funcs(struct rt_latency_view *v, struct rt_outbuf *ob)
{
	uint32_t order[RINGTRACE_MAX_FUNCS];
	uint32_t n = rt_view_funcs_sorted(v, order);
	char hex[RT_FUNC_LABEL_MAX];

	if (!n)
		return;
	rt_outbuf_printf(ob, ",\"funcs\":[");
	for (uint32_t i = 0; i < n; i++) {
		const struct rt_hist *h = rt_view_func_hist(v, &v->total_locks,
							    order[i]);

		rt_outbuf_printf(ob, "%s{", i ? "," : "");
		put_str(ob, true, "func", rt_view_func_name(v, order[i], hex),
			RT_FUNC_LABEL_MAX);
		rt_outbuf_printf(ob, ",\"calls\":%llu,\"total_ns\":%llu,"
				 "\"p50_ns\":%llu,\"p99_ns\":%llu,"
				 "\"max_ns\":%llu}",
				 (unsigned long long)h->n,
				 (unsigned long long)h->sum,
				 (unsigned long long)rt_hist_percentile(h, 500),
				 (unsigned long long)rt_hist_percentile(h, 990),
				 (unsigned long long)h->max);
	}
	rt_outbuf_printf(ob, "]");
}

static void put_summary(struct rt_latency_view *v, struct rt_outbuf *ob)
{
	const struct rt_view_entry **list;
	const struct rt_view_entry *other = &v->rows.entries[v->rows.max];
	bool offcpu = v->total.read_offcpu_n > 0;
	uint32_t n, shown = 0, more = 0;

	rt_outbuf_printf(ob, "\"summary\":{\"rows\":[");
	list = rt_view_sorted(&v->rows, &n);
	for (uint32_t i = 0; list && i < n; i++) {
		const struct rt_view_entry *e = list[i];
		bool is_other = e == other;

		/* The text's screenful: the rows past it are counted. */
		if (v->top && i == v->top && !is_other) {
			more = n - i - (v->rows.overflow ? 1 : 0);
			break;
		}
		rt_outbuf_printf(ob, "%s{", shown++ ? "," : "");
		put_row(v, ob, e, is_other, offcpu);
		rt_outbuf_printf(ob, "}");
	}
	rt_outbuf_printf(ob, "],\"more_rows\":%u", more);
	put_funcs(v, ob);
	rt_outbuf_printf(ob, "}");
	free(list);
}

void rt_latency_view_print_json(struct rt_latency_view *v,
				struct rt_outbuf *ob, const char *members)
{
	bool first = true;

	rt_outbuf_printf(ob, "{%s", members ? members : "");
	if (members && *members)
		first = false;
	if (v->hist) {
		rt_outbuf_printf(ob, "%s\"hist\":{\"all\":{", first ? "" : ",");
		put_hists(v, ob, &v->total, &v->total_locks, true);
		rt_outbuf_printf(ob, "}");
		if (v->keyed.entries)
			put_keyed(v, ob);
		rt_outbuf_printf(ob, "}");
		first = false;
	}
	if (v->summary) {
		if (!first)
			rt_outbuf_printf(ob, ",");
		put_summary(v, ob);
	}
	rt_outbuf_printf(ob, "}\n");
}
