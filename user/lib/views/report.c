// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* A perf-report-like table of the folded stacks (see report.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/escape.h"
#include "ringtrace/hash.h"
#include "ringtrace/report.h"

int rt_report_by_parse(const char *s, enum rt_report_by *by)
{
	if (!strcmp(s, "sym") || !strcmp(s, "symbol"))
		*by = RT_REPORT_BY_SYM;
	else if (!strcmp(s, "comm"))
		*by = RT_REPORT_BY_COMM;
	else if (!strcmp(s, "dso"))
		*by = RT_REPORT_BY_DSO;
	else
		return -1;
	return 0;
}

const char *rt_report_by_name(enum rt_report_by by)
{
	switch (by) {
	case RT_REPORT_BY_COMM:
		return "comm";
	case RT_REPORT_BY_DSO:
		return "dso";
	case RT_REPORT_BY_SYM:
		break;
	}
	return "sym";
}

static int grow_index(struct rt_report *r)
{
	uint32_t size = r->index_size ? 2 * r->index_size : 1024;
	uint32_t *index = calloc(size, sizeof(*index));

	if (!index)
		return -ENOMEM;
	for (uint32_t i = 0; i < r->nr; i++) {
		uint32_t slot = rt_fnv32_str(RT_FNV32_INIT, r->rows[i].key) &
				(size - 1);

		while (index[slot])
			slot = (slot + 1) & (size - 1);
		index[slot] = i + 1;
	}
	free(r->index);
	r->index = index;
	r->index_size = size;
	return 0;
}

/* The row of @key, made if new; NULL when out of memory. */
static struct rt_report_row *row_of(struct rt_report *r, const char *key)
{
	struct rt_report_row *row;
	uint32_t slot;

	/* At most half full. */
	if (2 * (r->nr + 1) > r->index_size && grow_index(r))
		return NULL;
	for (slot = rt_fnv32_str(RT_FNV32_INIT, key) & (r->index_size - 1);;
	     slot = (slot + 1) & (r->index_size - 1)) {
		uint32_t i = r->index[slot];

		if (!i)
			break;
		if (!strcmp(r->rows[i - 1].key, key))
			return &r->rows[i - 1];
	}
	if (r->nr == r->cap) {
		uint32_t cap = r->cap ? 2 * r->cap : 256;

		row = realloc(r->rows, cap * sizeof(*row));
		if (!row)
			return NULL;
		r->rows = row;
		r->cap = cap;
	}
	row = &r->rows[r->nr];
	memset(row, 0, sizeof(*row));
	row->key = strdup(key);
	if (!row->key)
		return NULL;
	r->index[slot] = ++r->nr;
	return row;
}

/*
 * The binary of a frame from its bare name (frame_names.h): "x[mod]" is a
 * module's, "f(libc.so.6)" and "[unknown](libc.so.6)" a user binary's.
 */
static void dso_of(char *out, size_t len, const char *name, bool kernel)
{
	size_t n = name ? strlen(name) : 0;
	const char *open;

	if (kernel && n && name[n - 1] == ']' &&
	    (open = strrchr(name, '[')) != NULL && open != name) {
		snprintf(out, len, "%s", open);
		return;
	}
	if (kernel) {
		snprintf(out, len, "[kernel.kallsyms]");
		return;
	}
	if (n && name[n - 1] == ')' && (open = strrchr(name, '(')) != NULL) {
		snprintf(out, len, "%.*s", (int)(name + n - 1 - open - 1),
			 open + 1);
		return;
	}
	snprintf(out, len, "[unknown]");
}

/* The key of frame @i of @st, by sym or dso, into @buf. */
static const char *frame_key(const struct rt_folded *f,
			     const struct rt_folded_stack *st, uint32_t i,
			     struct rt_frame_names *names, enum rt_report_by by,
			     char *buf, size_t len)
{
	uint64_t ip = f->frames[st->first + i];
	bool kernel = i >= (uint32_t)(st->nr - st->nr_kernel);
	const char *name;

	if (ip == RT_FOLDED_OFFCPU_FRAME)
		return RT_FOLDED_OFFCPU_NAME;
	name = rt_frame_name(names, kernel, st->pid, st->comm, ip);

	if (by == RT_REPORT_BY_DSO) {
		dso_of(buf, len, name, kernel);
		return buf;
	}
	if (name)
		return name;
	snprintf(buf, len, "0x%llx", (unsigned long long)ip);
	return buf;
}

/* Count @st's weight: self on its innermost frame, children once a key. */
static int add_stack(struct rt_report *r, const struct rt_folded *f,
		     const struct rt_folded_stack *st,
		     struct rt_frame_names *names)
{
	char buf[RT_FRAME_NAME_MAX + 8];
	struct rt_report_row *row;
	uint64_t serial = ++r->serial;

	r->total += st->count;
	/*
	 * A vfs_read without a stack weighs on its file, as in the flame
	 * graph: the file is its only frame; it is in no binary.
	 */
	if (r->by == RT_REPORT_BY_COMM || !st->nr ||
	    (st->file && r->by == RT_REPORT_BY_DSO)) {
		row = row_of(r, r->by == RT_REPORT_BY_COMM ?
			     (st->comm[0] ? st->comm : "-") : "[no stack]");
		if (!row)
			return -ENOMEM;
		row->self += st->count;
		row->children += st->count;
		return 0;
	}
	if (st->file) {
		row = row_of(r, rt_folded_file(f, st, buf, sizeof(buf)));
		if (!row)
			return -ENOMEM;
		row->self += st->count;
		row->children += st->count;
		return 0;
	}
	for (uint32_t i = 0; i < st->nr; i++) {
		row = row_of(r, frame_key(f, st, i, names, r->by, buf,
					  sizeof(buf)));
		if (!row)
			return -ENOMEM;
		/* Recursion: a key counts once per stack in children. */
		if (row->last_stack != serial) {
			row->last_stack = serial;
			row->children += st->count;
		}
		if (i + 1 == st->nr)
			row->self += st->count;
	}
	return 0;
}

static int by_weight(const void *a, const void *b)
{
	const struct rt_report_row *x = a, *y = b;

	if (x->children != y->children)
		return x->children > y->children ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return strcmp(x->key, y->key);
}

static void count_line(void *arg, const char *line, size_t len)
{
	(void)line;
	(void)len;
	++*(uint64_t *)arg;
}

int rt_report_build(struct rt_report *r, const struct rt_folded *f,
		    struct rt_frame_names *names, enum rt_report_by by)
{
	memset(r, 0, sizeof(*r));
	r->by = by;
	/* The stacks as --folded and the flame graph count them: its lines. */
	rt_folded_foreach(f, names->ksyms, count_line, &r->stacks);
	for (uint32_t i = 0, seen = 0;
	     i < RT_FOLDED_MAX_STACKS && seen < f->nr_stacks; i++) {
		if (!f->stacks[i].count)
			continue;
		seen++;
		if (add_stack(r, f, &f->stacks[i], names)) {
			rt_report_fini(r);
			return -ENOMEM;
		}
	}
	/* The index is of no use once sorted. */
	free(r->index);
	r->index = NULL;
	if (r->nr)
		qsort(r->rows, r->nr, sizeof(*r->rows), by_weight);
	return 0;
}

void rt_report_fini(struct rt_report *r)
{
	for (uint32_t i = 0; i < r->nr; i++)
		free(r->rows[i].key);
	free(r->rows);
	free(r->index);
	memset(r, 0, sizeof(*r));
}

/*
 * "52.01": @part of @whole in hundredths of a percent, rounded to the
 * nearest (half up), as the flame graph and perf report print them.
 */
static void pct(char *out, size_t len, uint64_t part, uint64_t whole)
{
	uint64_t h = whole ? (uint64_t)(((unsigned __int128)part * 20000 +
					 whole) / (2 * (unsigned __int128)whole)) :
			     0;

	snprintf(out, len, "%llu.%02llu", (unsigned long long)(h / 100),
		 (unsigned long long)(h % 100));
}

static const char *const titles[] = {
	[RT_REPORT_BY_SYM] = "Symbol",
	[RT_REPORT_BY_COMM] = "Command",
	[RT_REPORT_BY_DSO] = "Shared Object",
};

void rt_report_print(const struct rt_report *r, const char *unit,
		     uint32_t top, struct rt_outbuf *ob)
{
	uint32_t n = top && top < r->nr ? top : r->nr;

	rt_outbuf_printf(ob, "# %llu %s in %llu stacks, by %s\n",
			 (unsigned long long)r->total, unit,
			 (unsigned long long)r->stacks, rt_report_by_name(r->by));
	/* perf report --children's columns, then the weights they are of. */
	rt_outbuf_printf(ob, "# %9s %9s %14s %14s  %s\n", "Children", "Self",
			 "Children(w)", "Self(w)", titles[r->by]);
	for (uint32_t i = 0; i < n; i++) {
		const struct rt_report_row *row = &r->rows[i];
		char c[24], s[24], key[RT_FRAME_NAME_MAX * RT_TEXT_ESCAPE_MAX];

		pct(c, sizeof(c), row->children, r->total);
		pct(s, sizeof(s), row->self, r->total);
		*rt_text_escape(key, row->key, RT_FRAME_NAME_MAX, NULL) = '\0';
		rt_outbuf_printf(ob, "  %8s%% %8s%% %14llu %14llu  %s\n", c, s,
				 (unsigned long long)row->children,
				 (unsigned long long)row->self, key);
	}
	if (n < r->nr)
		rt_outbuf_printf(ob, "# %u more rows (-v: all)\n", r->nr - n);
	if (r->missing)
		rt_missing_print(r->missing, ob, "# ");
}

void rt_report_print_json(const struct rt_report *r, const char *unit,
			  uint32_t top, struct rt_outbuf *ob)
{
	uint32_t n = top && top < r->nr ? top : r->nr;
	char *p;

	p = rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD);
	p = RT_FMT_LIT(p, "{\"report\":\"");
	p = rt_fmt_lit(p, rt_report_by_name(r->by),
		       strlen(rt_report_by_name(r->by)));
	p = RT_FMT_LIT(p, "\",\"unit\":\"");
	p = rt_json_escape(p, unit, 64);
	p = RT_FMT_LIT(p, "\",\"total\":");
	p = rt_fmt_u64(p, r->total);
	p = RT_FMT_LIT(p, ",\"stacks\":");
	p = rt_fmt_u64(p, r->stacks);
	p = RT_FMT_LIT(p, ",\"rows\":[");
	rt_outbuf_commit(ob, p);
	for (uint32_t i = 0; i < n; i++) {
		const struct rt_report_row *row = &r->rows[i];
		char c[24], s[24];

		pct(c, sizeof(c), row->children, r->total);
		pct(s, sizeof(s), row->self, r->total);
		p = rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD);
		if (i)
			*p++ = ',';
		p = RT_FMT_LIT(p, "{\"key\":\"");
		p = rt_json_escape(p, row->key, RT_FRAME_NAME_MAX);
		p = RT_FMT_LIT(p, "\",\"self\":");
		p = rt_fmt_u64(p, row->self);
		p = RT_FMT_LIT(p, ",\"children\":");
		p = rt_fmt_u64(p, row->children);
		p = RT_FMT_LIT(p, ",\"self_pct\":");
		p = rt_fmt_lit(p, s, strlen(s));
		p = RT_FMT_LIT(p, ",\"children_pct\":");
		p = rt_fmt_lit(p, c, strlen(c));
		*p++ = '}';
		rt_outbuf_commit(ob, p);
	}
	p = rt_outbuf_reserve(ob, RT_MISSING_JSON_MAX + 64);
	*p++ = ']';
	if (r->missing) {
		p = RT_FMT_LIT(p, ",\"missing\":");
		p = rt_missing_json(p, r->missing);
	}
	p = RT_FMT_LIT(p, "}\n");
	rt_outbuf_commit(ob, p);
}
