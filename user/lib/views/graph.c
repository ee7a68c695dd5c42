// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* --graph vfs_read: each read's callees as a function graph (graph.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_offcpu.h"
#include "ringtrace/escape.h"
#include "ringtrace/graph.h"

/*
 * A thread's waiting spans: a ring of cap spans, made when the thread
 * first has one to keep, grown by grow_ring(); it stays with the slot.
 */
struct rt_graph_thread {
	uint32_t	tid;		/* 0: never used */
	uint32_t	head;		/* oldest span */
	uint32_t	nr;
	uint32_t	cap;		/* ring's room; 0: no ring yet */
	struct rt_graph_span *ring;
	/*
	 * Spans (and off-CPU intervals) a full ring pushed out since the
	 * thread's last read, and the latest entry among them: at the next
	 * read, those that entered before it were outside it, the others
	 * its own, missing.
	 */
	uint32_t	evicted;
	uint32_t	evicted_offcpu;
	uint64_t	evicted_max_entry;
};

static uint32_t first_ring(const struct rt_graph *g)
{
	return g->per_thread < RT_GRAPH_RING_FIRST ? g->per_thread :
	       RT_GRAPH_RING_FIRST;
}

/* @p resized to @n items of @size; @p itself when memory is short, said. */
static void *resized(void *p, size_t n, size_t size, bool *nomem)
{
	void *q = *nomem ? NULL : realloc(p, n * size);

	if (!q) {
		*nomem = true;
		return p;
	}
	return q;
}

/*
 * A read's arrays made room for @n spans, as the largest ring may hold:
 * 0, or -ENOMEM with the room as it was (the arrays that did grow are
 * only larger).
 */
static int grow_room(struct rt_graph *g, uint32_t n)
{
	bool nomem = false;

	if (n <= g->room)
		return 0;
	g->scratch = resized(g->scratch, n, sizeof(*g->scratch), &nomem);
	g->offs = resized(g->offs, n, sizeof(*g->offs), &nomem);
	g->nodes = resized(g->nodes, n, sizeof(*g->nodes), &nomem);
	g->open = resized(g->open, n, sizeof(*g->open), &nomem);
	g->func_chain = resized(g->func_chain, (size_t)n + 1,
				sizeof(*g->func_chain), &nomem);
	if (nomem)
		return -ENOMEM;
	g->room = n;
	return 0;
}

int rt_graph_init(struct rt_graph *g)
{
	if (!g->per_thread)
		g->per_thread = RT_GRAPH_PER_THREAD;
	if (!g->threads)
		g->threads = RT_GRAPH_THREADS;
	if (!g->budget)
		g->budget = RT_GRAPH_BUDGET;
	if (g->threads & (g->threads - 1))
		return -EINVAL;
	g->rings = 0;
	g->room = 0;
	g->table = calloc(g->threads, sizeof(*g->table));
	g->funcs = calloc(RT_GRAPH_FUNCS, sizeof(*g->funcs));
	g->func_index = calloc(RT_GRAPH_FUNC_SLOTS, sizeof(*g->func_index));
	g->nr_funcs = 0;
	if (!g->table || !g->funcs || !g->func_index ||
	    grow_room(g, first_ring(g))) {
		rt_graph_fini(g);
		return -ENOMEM;
	}
	return 0;
}

void rt_graph_fini(struct rt_graph *g)
{
	for (uint32_t i = 0; g->table && i < g->threads; i++)
		free(g->table[i].ring);
	free(g->table);
	free(g->scratch);
	free(g->offs);
	free(g->nodes);
	free(g->open);
	free(g->func_chain);
	free(g->funcs);
	free(g->func_index);
	g->funcs = NULL;
	g->func_index = NULL;
	g->nr_funcs = 0;
	g->func_chain = NULL;
	g->open = NULL;
	g->offs = NULL;
	g->nodes = NULL;
	g->table = NULL;
	g->scratch = NULL;
	g->rings = 0;
	g->room = 0;
}

static uint32_t slot_hash(const struct rt_graph *g, uint32_t tid)
{
	return (uint32_t)((tid * 0x9e3779b1u) >> 7) & (g->threads - 1);
}

/*
 * @tid's slot among its RT_GRAPH_PROBE, or with @claim the first of
 * them holding nothing (a thread's slot is free again once a read took
 * its spans); NULL when there is none.
 */
static struct rt_graph_thread *thread_of(struct rt_graph *g, uint32_t tid,
					 bool claim)
{
	struct rt_graph_thread *free_slot = NULL;
	uint32_t h = slot_hash(g, tid);
	uint32_t probe = g->threads < RT_GRAPH_PROBE ? g->threads :
			 RT_GRAPH_PROBE;

	for (uint32_t i = 0; i < probe; i++) {
		struct rt_graph_thread *t = &g->table[(h + i) & (g->threads - 1)];

		bool used = t->nr || t->evicted || t->evicted_offcpu;

		if (t->tid == tid && used)
			return t;
		if (!free_slot && !used)
			free_slot = t;
	}
	if (!claim || !free_slot)
		return NULL;
	free_slot->tid = tid;
	free_slot->head = 0;
	return free_slot;
}

/*
 * @t's ring doubled, its spans moved to its start: up to per_thread
 * spans, and to what the budget leaves of all the rings' bytes. False
 * when it cannot grow (at either limit, or memory short): the ring then
 * pushes out its oldest span, counted.
 */
static bool grow_ring(struct rt_graph *g, struct rt_graph_thread *t)
{
	uint64_t budget = g->budget / sizeof(struct rt_graph_span);
	uint64_t left = budget > g->rings ? budget - g->rings : 0;
	uint64_t cap = t->cap ? 2 * (uint64_t)t->cap : first_ring(g);
	struct rt_graph_span *ring;

	if (cap > g->per_thread)
		cap = g->per_thread;
	if (cap - t->cap > left)
		cap = t->cap + left;
	if (cap <= t->cap || grow_room(g, (uint32_t)cap))
		return false;
	ring = malloc(cap * sizeof(*ring));
	if (!ring)
		return false;
	for (uint32_t i = 0; i < t->nr; i++)
		ring[i] = t->ring[(t->head + i) % t->cap];
	free(t->ring);
	g->rings += cap - t->cap;
	t->ring = ring;
	t->cap = (uint32_t)cap;
	t->head = 0;
	return true;
}

/* A span that entered at @entry pushed out, counted for the next read. */
static void evict(struct rt_graph_thread *t, uint64_t entry, bool offcpu)
{
	if ((!t->evicted && !t->evicted_offcpu) ||
	    entry > t->evicted_max_entry)
		t->evicted_max_entry = entry;
	if (offcpu)
		t->evicted_offcpu++;
	else
		t->evicted++;
}

/* When @ev's span (or interval) began: its end less its time. */
static uint64_t entry_of(const struct rt_event *ev)
{
	uint64_t dur = ev->kind == RT_EVENT_OFFCPU ? ev->u.offcpu.offcpu_ns :
		       ev->u.func.lat_ns;

	return ev->ts_ns >= dur ? ev->ts_ns - dur : 0;
}

/*
 * A place for @ev's span at the end of its thread's ring, grown when
 * full; NULL when its thread has no slot, or no ring and none to be had
 * (then the span itself is pushed out).
 */
static struct rt_graph_span *push(struct rt_graph *g, const struct rt_event *ev)
{
	struct rt_graph_thread *t = thread_of(g, ev->tid, true);
	struct rt_graph_span *s;

	if (!t) {
		if (ev->kind == RT_EVENT_OFFCPU)
			g->offcpu_missing++;
		else
			g->no_room++;
		return NULL;
	}
	if (t->nr == t->cap && !grow_ring(g, t)) {
		if (!t->cap) {
			evict(t, entry_of(ev), ev->kind == RT_EVENT_OFFCPU);
			return NULL;
		}
		s = &t->ring[t->head];
		evict(t, s->entry_ns, s->offcpu);
		t->head = (t->head + 1) % t->cap;
		t->nr--;
	}
	s = &t->ring[(t->head + t->nr) % t->cap];
	t->nr++;
	return s;
}

static void add_span(struct rt_graph *g, const struct rt_event *ev)
{
	const struct rt_func_event *f = &ev->u.func;
	struct rt_graph_span *s = push(g, ev);

	if (!s)
		return;
	memset(s, 0, sizeof(*s));
	s->dur_ns = f->lat_ns;
	s->entry_ns = entry_of(ev);
	s->ip = f->ip;
	s->idx = f->idx;
}

static void add_offcpu(struct rt_graph *g, const struct rt_event *ev)
{
	struct rt_graph_span *s = push(g, ev);

	if (s)
		rt_graph_offcpu_span(g, ev, s);
}

/*
 * Depth by nesting: a span lies in every span of the stack that it ends
 * within; one that does not end within the top closes it. Self time is
 * what a span's direct children leave of it.
 */
static void nest(struct rt_graph_span *s, uint32_t n,
		 const struct rt_graph_span **stack)
{
	uint32_t top = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t end = s[i].entry_ns + s[i].dur_ns;

		while (top && stack[top - 1]->entry_ns + stack[top - 1]->dur_ns <
			      end)
			top--;
		s[i].depth = top + 1;
		s[i].self_ns = s[i].dur_ns;
		s[i].offcpu_ns = 0;
		s[i].children = false;
		if (top) {
			struct rt_graph_span *p = &s[stack[top - 1] - s];

			p->children = true;
			p->self_ns = p->self_ns > s[i].dur_ns ?
				     p->self_ns - s[i].dur_ns : 0;
		}
		stack[top++] = &s[i];
	}
}

/*
 * The function's name as the stream names func records (live, the name
 * the session gave; on replay the symbol at its address), at most @len - 1
 * bytes of it: a line's room is reserved for that much. "" when unnamed.
 */
static const char *span_name(const struct rt_graph_span *s, char *buf,
			     size_t len)
{
	const char *name = rt_output_func_name_at(s->idx, s->ip);
	size_t n;

	if (!name)
		return "";
	n = strlen(name);
	if (n >= len)
		n = len - 1;
	memcpy(buf, name, n);
	buf[n] = '\0';
	return buf;
}

#define GRAPH_LINE_MAX	(2 * 64 + RINGTRACE_FUNC_NAME_LEN + 96)

/* "  |  " and two spaces a level: the text's indentation. */
static char *indent(char *p, uint32_t depth)
{
	p = RT_FMT_LIT(p, "  |");
	for (uint32_t i = 0; i < depth && i < 64; i++)
		p = RT_FMT_LIT(p, "  ");
	return p;
}

static char *name_or_ip(char *p, const char *name, uint64_t ip)
{
	if (*name)
		return rt_fmt_lit(p, name, strlen(name));
	return rt_fmt_hex(p, ip);
}

/*
 * "} DUR (self SELF)": the end of a span that has shown children; one
 * that was off CPU itself, "} DUR (self SELF on-cpu, OFF off-cpu)".
 */
static void close_span(struct rt_outbuf *ob, const struct rt_graph_span *c)
{
	char *p = indent(rt_outbuf_reserve(ob, GRAPH_LINE_MAX), c->depth);

	p = RT_FMT_LIT(p, "} ");
	p = rt_fmt_ns_as_us(p, c->dur_ns);
	p = RT_FMT_LIT(p, "us (self ");
	p = rt_fmt_ns_as_us(p, c->self_ns);
	if (c->offcpu_ns) {
		p = RT_FMT_LIT(p, "us on-cpu, ");
		p = rt_fmt_ns_as_us(p, c->offcpu_ns);
		p = RT_FMT_LIT(p, "us off-cpu");
	} else {
		p = RT_FMT_LIT(p, "us");
	}
	p = RT_FMT_LIT(p, ")\n");
	rt_outbuf_commit(ob, p);
}

static bool shown(const struct rt_graph *g, const struct rt_graph_span *c)
{
	return !g->max_depth || c->depth <= g->max_depth;
}

/*
 * "N spans a thread, B MiB in all": the rings' limits (the budget in
 * bytes when not whole MiB), at most 64 bytes.
 */
static char *room_text(const struct rt_graph *g, char *p)
{
	p = rt_fmt_u64(p, g->per_thread);
	p = RT_FMT_LIT(p, " spans a thread, ");
	if (g->budget % (1u << 20)) {
		p = rt_fmt_u64(p, g->budget);
		p = RT_FMT_LIT(p, " bytes");
	} else {
		p = rt_fmt_u64(p, g->budget >> 20);
		p = RT_FMT_LIT(p, " MiB");
	}
	return RT_FMT_LIT(p, " in all");
}

/*
 * function_graph's shape: "name() DUR" for a leaf, "name() {", its
 * children, then "} DUR (self SELF)" for a span with shown children;
 * an off-CPU interval, "[off-cpu S] DUR where" (graph_offcpu.c).
 */
static void print_text(struct rt_graph *g, const struct rt_event *read,
		       const struct rt_graph_span *s, uint32_t n,
		       uint32_t missing)
{
	const struct rt_graph_span **open = g->open;
	struct rt_outbuf *ob = g->out;
	char name[RINGTRACE_FUNC_NAME_LEN];
	uint32_t nr_open = 0;
	char *p;

	rt_print_text(ob, read);
	if (missing) {
		p = indent(rt_outbuf_reserve(ob, GRAPH_LINE_MAX), 1);
		p = RT_FMT_LIT(p, "[");
		p = rt_fmt_u64(p, missing);
		p = RT_FMT_LIT(p, " spans missing: more than --graph's "
			       "per-thread room (");
		p = room_text(g, p);
		p = RT_FMT_LIT(p, ")]\n");
		rt_outbuf_commit(ob, p);
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct rt_graph_span *c = &s[i];
		bool opens = c->children && (!g->max_depth ||
					     c->depth < g->max_depth);

		if (!shown(g, c))
			continue;
		while (nr_open && open[nr_open - 1]->depth >= c->depth)
			close_span(ob, open[--nr_open]);
		if (c->offcpu) {
			p = indent(rt_outbuf_reserve(ob, GRAPH_LINE_MAX +
						     RT_GRAPH_OFFCPU_TEXT_MAX),
				   c->depth);
			p = rt_graph_offcpu_text(g, p, c);
			*p++ = '\n';
			rt_outbuf_commit(ob, p);
			continue;
		}
		p = indent(rt_outbuf_reserve(ob, GRAPH_LINE_MAX), c->depth);
		p = name_or_ip(p, span_name(c, name, sizeof(name)), c->ip);
		if (opens) {
			p = RT_FMT_LIT(p, "() {\n");
			open[nr_open++] = c;
		} else {
			p = RT_FMT_LIT(p, "() ");
			p = rt_fmt_ns_as_us(p, c->dur_ns);
			p = RT_FMT_LIT(p, "us\n");
		}
		rt_outbuf_commit(ob, p);
	}
	while (nr_open)
		close_span(ob, open[--nr_open]);
}

/*
 * The read's JSON object, its closing brace taken back for
 * "graph":[{"kind":"func","func","depth","entry_ns","dur_ns","self_ns",
 * "offcpu_ns"}, {"kind":"offcpu",...}...] and "graph_missing": the
 * printer leaves the object it committed in the buffer (a flush happens
 * only when a reserve needs room).
 */
static void print_json(struct rt_graph *g, const struct rt_event *read,
		       const struct rt_graph_span *s, uint32_t n,
		       uint32_t missing)
{
	struct rt_outbuf *ob = g->out;
	char name[RINGTRACE_FUNC_NAME_LEN];
	bool first = true;
	char *p;

	rt_print_json(ob, read);
	if (ob->len < 2 || ob->buf[ob->len - 2] != '}' ||
	    ob->buf[ob->len - 1] != '\n')
		return;		/* the output failed: nothing to add to */
	ob->len -= 2;
	p = RT_FMT_LIT(rt_outbuf_reserve(ob, 64), ",\"graph\":[");
	rt_outbuf_commit(ob, p);
	for (uint32_t i = 0; i < n; i++) {
		const struct rt_graph_span *c = &s[i];
		const char *nm;

		if (!shown(g, c))
			continue;
		p = rt_outbuf_reserve(ob, GRAPH_LINE_MAX + RT_GRAPH_OFFCPU_JSON_MAX +
				      RT_JSON_ESCAPE_MAX * RINGTRACE_FUNC_NAME_LEN);
		if (!first)
			*p++ = ',';
		first = false;
		if (c->offcpu) {
			rt_outbuf_commit(ob, rt_graph_offcpu_json(g, p, c));
			continue;
		}
		nm = span_name(c, name, sizeof(name));
		p = RT_FMT_LIT(p, "{\"kind\":\"func\",\"func\":\"");
		if (*nm)
			p = rt_json_escape(p, nm, RINGTRACE_FUNC_NAME_LEN);
		else
			p = rt_fmt_hex(p, c->ip);
		p = RT_FMT_LIT(p, "\",\"depth\":");
		p = rt_fmt_u64(p, c->depth);
		p = RT_FMT_LIT(p, ",\"entry_ns\":");
		p = rt_fmt_u64(p, c->entry_ns);
		p = RT_FMT_LIT(p, ",\"dur_ns\":");
		p = rt_fmt_u64(p, c->dur_ns);
		p = RT_FMT_LIT(p, ",\"self_ns\":");
		p = rt_fmt_u64(p, c->self_ns);
		p = RT_FMT_LIT(p, ",\"offcpu_ns\":");
		p = rt_fmt_u64(p, c->offcpu_ns);
		*p++ = '}';
		rt_outbuf_commit(ob, p);
	}
	p = RT_FMT_LIT(rt_outbuf_reserve(ob, 64), "],\"graph_missing\":");
	p = rt_fmt_u64(p, missing);
	p = RT_FMT_LIT(p, "}\n");
	rt_outbuf_commit(ob, p);
}

/*
 * @read's tree into g->fold by wall time: each span's self time (on
 * CPU) on the chain [vfs_read, its callers..., it]; each off-CPU
 * interval's time on [vfs_read, its callers..., [off-cpu], where it
 * blocked...]; a node deeper than max_depth on its deepest shown
 * caller's chain; the read's own time (its latency less its depth-1
 * nodes') on vfs_read's frame. Nodes are in drawing order with their
 * depth, so chain[d] is the open span at depth d.
 */
static void fold_read(struct rt_graph *g, const struct rt_event *read,
		      const struct rt_graph_span *s, uint32_t n)
{
	uint64_t chain[RT_FOLDED_DEPTH], own = read->u.vfs_read.lat_ns;
	uint32_t top, nr;

	chain[0] = g->read_ip;
	for (uint32_t i = 0; i < n; i++) {
		top = s[i].depth;
		if (g->max_depth && top > g->max_depth)
			top = g->max_depth;
		if (top >= RT_FOLDED_DEPTH)
			top = RT_FOLDED_DEPTH - 1;
		if (s[i].depth == 1)
			own = own > s[i].dur_ns ? own - s[i].dur_ns : 0;
		nr = top + 1;
		if (top == s[i].depth && s[i].offcpu)
			nr = rt_graph_offcpu_chain(&s[i], chain, top,
						   RT_FOLDED_DEPTH);
		else if (top == s[i].depth)
			chain[top] = s[i].ip;
		rt_folded_add_frames(g->fold, read->comm, read->pid, chain,
				     nr, s[i].self_ns);
	}
	rt_folded_add_frames(g->fold, read->comm, read->pid, chain, 1, own);
	g->fold->samples++;
}

/*
 * @ip's row of the per-function table, made on first use; NULL: full.
 * Found by hash: a span's lookup costs the same with 1024 functions.
 */
static struct rt_graph_func *func_row(struct rt_graph *g, uint64_t ip,
				      uint32_t idx, bool is_read)
{
	const uint32_t mask = RT_GRAPH_FUNC_SLOTS - 1;
	uint64_t h = (ip ^ is_read) * 0x9e3779b97f4a7c15ull;
	struct rt_graph_func *f;
	uint32_t s;

	_Static_assert(!(RT_GRAPH_FUNC_SLOTS & (RT_GRAPH_FUNC_SLOTS - 1)) &&
		       RT_GRAPH_FUNC_SLOTS > RT_GRAPH_FUNCS,
		       "RT_GRAPH_FUNC_SLOTS: a power of two, more than rows");
	/* About half the slots at most taken: a free one ends the probe. */
	for (s = (uint32_t)(h >> 32) & mask; g->func_index[s];
	     s = (s + 1) & mask) {
		f = &g->funcs[g->func_index[s] - 1];
		if (f->is_read == is_read && f->ip == ip)
			return f;
	}
	if (g->nr_funcs == RT_GRAPH_FUNCS)
		return NULL;
	f = &g->funcs[g->nr_funcs++];
	g->func_index[s] = g->nr_funcs;
	memset(f, 0, sizeof(*f));
	f->ip = ip;
	f->idx = idx;
	f->is_read = is_read;
	return f;
}

/*
 * @read's spans into the per-function table, by fold_read()'s rule: a
 * span deeper than max_depth adds its self time to its deepest shown
 * caller's; a span under another of its function adds no total (it is
 * in that one's already). chain[d]: the row of the open span at depth d.
 */
static void count_funcs(struct rt_graph *g, const struct rt_event *read,
			const struct rt_graph_span *s, uint32_t n)
{
	struct rt_graph_func **chain = g->func_chain;
	uint64_t own = read->u.vfs_read.lat_ns;
	uint32_t top;

	chain[0] = func_row(g, 0, 0, true);
	for (uint32_t i = 0; i < n; i++) {
		struct rt_graph_func *f;
		bool nested = false;

		/*
		 * An off-CPU interval is in the self time of the span it
		 * lies in (the read's own, at depth 1: left in own).
		 */
		if (s[i].offcpu) {
			top = s[i].depth - 1;
			if (g->max_depth && top > g->max_depth)
				top = g->max_depth;
			if (top && chain[top])
				chain[top]->self_ns += s[i].dur_ns;
			continue;
		}
		if (s[i].depth == 1)
			own = own > s[i].dur_ns ? own - s[i].dur_ns : 0;
		top = s[i].depth;
		if (g->max_depth && top > g->max_depth)
			top = g->max_depth;
		if (top == s[i].depth) {
			chain[top] = func_row(g, s[i].ip, s[i].idx, false);
			f = chain[top];
			if (!f) {
				g->funcs_full++;
				continue;
			}
			f->calls++;
			for (uint32_t d = 1; d < top && !nested; d++)
				nested = chain[d] == f;
			if (!nested)
				f->total_ns += s[i].dur_ns;
		}
		f = chain[top];
		if (f)
			f->self_ns += s[i].self_ns;
	}
	if (chain[0]) {
		chain[0]->calls++;
		chain[0]->total_ns += read->u.vfs_read.lat_ns;
		chain[0]->self_ns += own;
	}
}

/*
 * @read's spans out of its thread's ring: those inside it to scratch,
 * its off-CPU intervals (those that ended inside it: the task left
 * inside it, give or take the clocks) to offs, those before it counted
 * outside, those after it (a later read's, come early through the
 * merge) kept. Returns how many spans are its own, *@m intervals.
 */
static uint32_t take_spans(struct rt_graph *g, struct rt_graph_thread *t,
			   uint64_t start, uint64_t end, uint32_t *missing,
			   uint32_t *m)
{
	struct rt_graph_span *ring = t->ring;
	uint32_t n = 0, kept = 0;

	*missing = 0;
	*m = 0;
	if (t->evicted || t->evicted_offcpu) {
		if (t->evicted_max_entry >= start) {
			*missing = t->evicted + t->evicted_offcpu;
			g->missing += t->evicted;
			g->offcpu_missing += t->evicted_offcpu;
			g->incomplete++;
		} else {
			g->outside += t->evicted;
			g->offcpu_outside += t->evicted_offcpu;
		}
		t->evicted = 0;
		t->evicted_offcpu = 0;
	}
	for (uint32_t i = 0; i < t->nr; i++) {
		const struct rt_graph_span *s = &ring[(t->head + i) % t->cap];
		uint64_t ret = s->entry_ns + s->dur_ns;

		if (ret > end)
			ring[(t->head + kept++) % t->cap] = *s;
		else if (s->offcpu && ret > start)
			g->offs[(*m)++] = *s;
		else if (!s->offcpu && s->entry_ns >= start)
			g->scratch[n++] = *s;
		else if (s->offcpu)
			g->offcpu_outside++;
		else
			g->outside++;
	}
	t->nr = kept;
	return n;
}

static void add_read(struct rt_graph *g, const struct rt_event *ev)
{
	const struct rt_vfs_read_event *r = &ev->u.vfs_read;
	uint64_t start = ev->ts_ns >= r->lat_ns ? ev->ts_ns - r->lat_ns : 0;
	struct rt_graph_thread *t = thread_of(g, ev->tid, false);
	uint32_t n = 0, m = 0, missing = 0;
	struct rt_graph_span *s = g->nodes;

	if (t)
		n = take_spans(g, t, start, ev->ts_ns, &missing, &m);
	qsort(g->scratch, n, sizeof(*g->scratch), rt_graph_by_entry);
	nest(g->scratch, n, g->open);
	rt_graph_offcpu_attribute(g, g->scratch, n, g->offs, m, start,
				  ev->ts_ns);
	n = rt_graph_offcpu_merge(g->scratch, n, g->offs, m, s);
	for (uint32_t i = 0; i < n; i++) {
		bool on = shown(g, &s[i]);

		if (s[i].offcpu) {
			g->offcpu_shown += on;
			g->offcpu_hidden += !on;
			g->offcpu_ns += s[i].dur_ns;
		} else {
			g->shown += on;
			g->hidden += !on;
		}
	}
	g->reads++;
	count_funcs(g, ev, s, n);
	if (g->fold)
		fold_read(g, ev, s, n);
	else if (g->format == RT_FORMAT_JSON)
		print_json(g, ev, s, n, missing);
	else
		print_text(g, ev, s, n, missing);
}

void rt_graph_add(struct rt_graph *g, const struct rt_event *ev)
{
	if (ev->kind == RT_EVENT_FUNC)
		add_span(g, ev);
	else if (ev->kind == RT_EVENT_OFFCPU && !g->no_offcpu)
		add_offcpu(g, ev);
	else if (ev->kind == RT_EVENT_VFS_READ)
		add_read(g, ev);
}

void rt_graph_end(struct rt_graph *g)
{
	for (uint32_t i = 0; i < g->threads; i++) {
		struct rt_graph_thread *t = &g->table[i];

		for (uint32_t j = 0; j < t->nr; j++) {
			if (t->ring[(t->head + j) % t->cap].offcpu)
				g->offcpu_outside++;
			else
				g->outside++;
		}
		g->outside += t->evicted;
		g->offcpu_outside += t->evicted_offcpu;
		t->nr = 0;
		t->evicted = 0;
		t->evicted_offcpu = 0;
	}
}

bool rt_graph_lacks(const struct rt_graph *g)
{
	return g->outside || g->hidden || g->missing || g->no_room ||
	       g->offcpu_outside || g->offcpu_hidden || g->offcpu_missing;
}

/* "; off-cpu: N intervals shown (T us)...": only when there were some. */
static void print_offcpu_summary(const struct rt_graph *g,
				 struct rt_outbuf *ob)
{
	char us[32];

	*rt_fmt_ns_as_us(us, g->offcpu_ns) = '\0';
	rt_outbuf_printf(ob, "; off-cpu: %llu intervals shown (%sus)",
			 (unsigned long long)g->offcpu_shown, us);
	if (g->offcpu_hidden)
		rt_outbuf_printf(ob, ", %llu deeper than --graph-depth hidden",
				 (unsigned long long)g->offcpu_hidden);
	if (g->offcpu_outside)
		rt_outbuf_printf(ob, ", %llu outside a read (dropped)",
				 (unsigned long long)g->offcpu_outside);
	if (g->offcpu_missing)
		rt_outbuf_printf(ob, ", %llu missing (no room)",
				 (unsigned long long)g->offcpu_missing);
}

void rt_graph_print_summary(const struct rt_graph *g, struct rt_outbuf *ob)
{
	rt_outbuf_printf(ob, "graph: %llu reads, %llu spans shown",
			 (unsigned long long)g->reads,
			 (unsigned long long)g->shown);
	if (g->hidden)
		rt_outbuf_printf(ob, ", %llu deeper than --graph-depth hidden",
				 (unsigned long long)g->hidden);
	if (g->outside)
		rt_outbuf_printf(ob, ", %llu outside a read (dropped)",
				 (unsigned long long)g->outside);
	/* Not lost: what --min-latency asked to leave out. */
	if (g->held)
		rt_outbuf_printf(ob, ", %llu call%s of faster reads left out "
				 "(--min-latency)",
				 (unsigned long long)g->fast_read,
				 g->fast_read == 1 ? "" : "s");
	if (g->missing) {
		char room[64];

		*room_text(g, room) = '\0';
		rt_outbuf_printf(ob, ", %llu missing from %llu reads (over "
				 "the per-thread room: %s)",
				 (unsigned long long)g->missing,
				 (unsigned long long)g->incomplete, room);
	}
	if (g->no_room)
		rt_outbuf_printf(ob, ", %llu missing (over %u threads waiting)",
				 (unsigned long long)g->no_room, g->threads);
	if (g->offcpu_shown || g->offcpu_hidden || g->offcpu_outside ||
	    g->offcpu_missing)
		print_offcpu_summary(g, ob);
	rt_outbuf_append(ob, "\n", 1);
}

void rt_graph_print_summary_json(const struct rt_graph *g,
				 struct rt_outbuf *ob, const char *extra_json)
{
	char held[48] = "";

	if (g->held)
		snprintf(held, sizeof(held), ",\"fast_read_calls\":%llu",
			 (unsigned long long)g->fast_read);
	rt_outbuf_printf(ob, "{\"type\":\"graph_summary\",\"reads\":%llu,"
			 "\"shown\":%llu,\"hidden\":%llu,\"outside\":%llu%s,"
			 "\"spans_missing\":%llu,\"incomplete_reads\":%llu,"
			 "\"no_room\":%llu,\"offcpu_shown\":%llu,"
			 "\"offcpu_hidden\":%llu,\"offcpu_outside\":%llu,"
			 "\"offcpu_missing\":%llu,\"offcpu_ns\":%llu,"
			 "\"per_thread\":%u,\"threads\":%u%s}\n",
			 (unsigned long long)g->reads,
			 (unsigned long long)g->shown,
			 (unsigned long long)g->hidden,
			 (unsigned long long)g->outside, held,
			 (unsigned long long)g->missing,
			 (unsigned long long)g->incomplete,
			 (unsigned long long)g->no_room,
			 (unsigned long long)g->offcpu_shown,
			 (unsigned long long)g->offcpu_hidden,
			 (unsigned long long)g->offcpu_outside,
			 (unsigned long long)g->offcpu_missing,
			 (unsigned long long)g->offcpu_ns, g->per_thread,
			 g->threads, extra_json ? extra_json : "");
}
