// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * --graph vfs_read: where each read was off CPU (graph_offcpu.h).
 *
 * A task leaves the CPU inside one function and comes back inside the
 * same one: an off-CPU interval lies in the time its innermost traced
 * span spent outside that span's traced children. The records say so up
 * to their clocks (the switch's and the probes' timestamps come from
 * different places, a little apart across CPUs), so the attribution
 * trusts the instant the task left, and clips the interval to what the
 * span it left in had of its own: the span's self time can then lose it
 * whole, and a read's on-CPU and off-CPU time still add up to its
 * latency to the nanosecond.
 */
#include <stdlib.h>
#include <string.h>

#include "graph_offcpu.h"
#include "ringtrace/folded.h"

/*
 * The scheduler's own frames, innermost in every stack taken at a
 * switch (the tracepoint, __schedule, how it was entered: a sleep's
 * schedule(), a preemption's return from an interrupt): they say the
 * task left the CPU, which the line already says. Prefixes; "schedule"
 * alone exactly (schedule_timeout says how it slept).
 */
static const char *const sched_prefixes[] = {
	"__traceiter_", "__probestub_", "__schedule", "__switch_to",
	"preempt_schedule", "__cond_resched", "_cond_resched",
	"irqentry_exit", "asm_sysvec_", "asm_common_interrupt",
	"sysvec_", "el1_interrupt", "el1h_64_irq", "__el1_irq",
	"arm64_preempt_schedule_irq", "raw_irqentry_exit_cond_resched",
};

static bool in_scheduler(const char *name)
{
	if (!name)
		return false;
	if (!strcmp(name, "schedule"))
		return true;
	for (size_t i = 0; i < sizeof(sched_prefixes) / sizeof(*sched_prefixes);
	     i++)
		if (!strncmp(name, sched_prefixes[i], strlen(sched_prefixes[i])))
			return true;
	return false;
}

void rt_graph_offcpu_span(const struct rt_graph *g, const struct rt_event *ev,
			  struct rt_graph_span *s)
{
	const struct rt_offcpu_event *o = &ev->u.offcpu;
	const struct rt_stack *st = &ev->stack;
	uint32_t i = 0;

	memset(s, 0, sizeof(*s));
	s->offcpu = true;
	s->dur_ns = o->offcpu_ns;
	s->entry_ns = ev->ts_ns >= o->offcpu_ns ? ev->ts_ns - o->offcpu_ns : 0;
	s->state = o->state <= RINGTRACE_OFFCPU_OTHER ? (uint8_t)o->state :
		   RINGTRACE_OFFCPU_OTHER;
	if (g->ksyms)
		while (i < st->nr_kernel &&
		       in_scheduler(rt_ksyms_find(g->ksyms,
						  rt_stack_frame(st->kernel, i))))
			i++;
	for (; i < st->nr_kernel && s->nr_frames < RT_GRAPH_BLOCK_FRAMES; i++)
		s->frames[s->nr_frames++] = rt_stack_frame(st->kernel, i);
}

/*
 * The innermost of @s (entry order, nested) running at @t: of the spans
 * holding it, the one entered last. -1: none, the read's own time.
 */
static int32_t holder(const struct rt_graph_span *s, uint32_t n, uint64_t t)
{
	for (uint32_t i = n; i-- > 0;)
		if (s[i].entry_ns <= t && t < s[i].entry_ns + s[i].dur_ns)
			return (int32_t)i;
	return -1;
}

/* The first entry of a span after @t, or @end. */
static uint64_t next_entry(const struct rt_graph_span *s, uint32_t n,
			   uint64_t t, uint64_t end)
{
	for (uint32_t i = 0; i < n; i++)
		if (s[i].entry_ns > t)
			return s[i].entry_ns < end ? s[i].entry_ns : end;
	return end;
}

/*
 * Where @o blocked, below the span @p it lies in: its frames up to the
 * first in the function of @p or of a span holding it, or in vfs_read
 * (that frame and its callers are the graph's already). Not always
 * @p's own: a function that ends in a call may have jumped to it,
 * leaving no frame. Kept whole when symbols cannot tell.
 */
static void cut_at(const struct rt_graph *g, struct rt_graph_span *o,
		   const struct rt_graph_span *s, int32_t p)
{
	const struct rt_ksym *fn[RT_GRAPH_BLOCK_FRAMES + 1];
	uint32_t nr = 0, depth = p >= 0 ? s[p].depth : 0;

	if (!g->ksyms)
		return;
	/* The spans holding @o, innermost first: the depths going down. */
	for (int32_t i = p; i >= 0 && depth && nr < RT_GRAPH_BLOCK_FRAMES; i--)
		if (s[i].depth == depth) {
			fn[nr] = rt_ksyms_lookup(g->ksyms, s[i].ip);
			nr += fn[nr] != NULL;
			depth--;
		}
	if (g->read_ip && (fn[nr] = rt_ksyms_lookup(g->ksyms, g->read_ip)))
		nr++;
	for (uint32_t i = 0; i < o->nr_frames; i++) {
		const struct rt_ksym *k = rt_ksyms_lookup(g->ksyms, o->frames[i]);

		for (uint32_t j = 0; k && j < nr; j++)
			if (k == fn[j]) {
				o->nr_frames = (uint8_t)i;
				return;
			}
	}
}

uint64_t rt_graph_offcpu_attribute(const struct rt_graph *g,
				   struct rt_graph_span *s, uint32_t n,
				   struct rt_graph_span *off, uint32_t m,
				   uint64_t start, uint64_t end)
{
	uint64_t last = start, own = 0;

	qsort(off, m, sizeof(*off), rt_graph_by_entry);
	for (uint32_t j = 0; j < m; j++) {
		struct rt_graph_span *o = &off[j];
		uint64_t a = o->entry_ns > last ? o->entry_ns : last;
		uint64_t b = o->entry_ns + o->dur_ns;
		int32_t p = holder(s, n, a);
		uint64_t limit = next_entry(s, n, a, end);

		if (p >= 0 && s[p].entry_ns + s[p].dur_ns < limit)
			limit = s[p].entry_ns + s[p].dur_ns;
		if (b > limit)
			b = limit;
		o->entry_ns = a;
		o->dur_ns = b > a ? b - a : 0;
		o->self_ns = o->dur_ns;
		o->children = false;
		if (a + o->dur_ns > last)
			last = a + o->dur_ns;
		if (p < 0) {
			o->depth = 1;
			own += o->dur_ns;
			cut_at(g, o, s, p);
			continue;
		}
		o->depth = s[p].depth + 1;
		s[p].children = true;
		s[p].offcpu_ns += o->dur_ns;
		s[p].self_ns = s[p].self_ns > o->dur_ns ?
			       s[p].self_ns - o->dur_ns : 0;
		cut_at(g, o, s, p);
	}
	return own;
}

uint32_t rt_graph_offcpu_merge(const struct rt_graph_span *s, uint32_t n,
			       const struct rt_graph_span *off, uint32_t m,
			       struct rt_graph_span *out)
{
	uint32_t i = 0, j = 0, k = 0;

	/* A span entered when an interval began holds it: the span first. */
	while (i < n || j < m)
		if (j == m || (i < n && s[i].entry_ns <= off[j].entry_ns))
			out[k++] = s[i++];
		else
			out[k++] = off[j++];
	return k;
}

/* A frame's bare symbol, or NULL (then hex). */
static const char *frame_name(const struct rt_graph *g, uint64_t ip)
{
	return g->ksyms ? rt_ksyms_find(g->ksyms, ip) : NULL;
}

char *rt_graph_offcpu_text(const struct rt_graph *g, char *p,
			   const struct rt_graph_span *o)
{
	const char *state = rt_offcpu_state_name(o->state);

	p = RT_FMT_LIT(p, "[off-cpu ");
	p = rt_fmt_lit(p, state, strlen(state));
	p = RT_FMT_LIT(p, "] ");
	p = rt_fmt_ns_as_us(p, o->dur_ns);
	p = RT_FMT_LIT(p, "us");
	for (uint32_t i = 0; i < o->nr_frames; i++) {
		const char *name = frame_name(g, o->frames[i]);

		p = i ? RT_FMT_LIT(p, " < ") : RT_FMT_LIT(p, " ");
		p = name ? rt_text_escape(p, name, RT_GRAPH_FRAME_NAME, NULL) :
		    rt_fmt_hex(p, o->frames[i]);
	}
	return p;
}

char *rt_graph_offcpu_json(const struct rt_graph *g, char *p,
			   const struct rt_graph_span *o)
{
	const char *state = rt_offcpu_state_name(o->state);

	p = RT_FMT_LIT(p, "{\"kind\":\"offcpu\",\"state\":\"");
	p = rt_fmt_lit(p, state, strlen(state));
	p = RT_FMT_LIT(p, "\",\"depth\":");
	p = rt_fmt_u64(p, o->depth);
	p = RT_FMT_LIT(p, ",\"entry_ns\":");
	p = rt_fmt_u64(p, o->entry_ns);
	p = RT_FMT_LIT(p, ",\"dur_ns\":");
	p = rt_fmt_u64(p, o->dur_ns);
	p = RT_FMT_LIT(p, ",\"frames\":[");
	for (uint32_t i = 0; i < o->nr_frames; i++) {
		const char *name = frame_name(g, o->frames[i]);

		p = i ? RT_FMT_LIT(p, ",\"") : RT_FMT_LIT(p, "\"");
		p = name ? rt_json_escape(p, name, RT_GRAPH_FRAME_NAME) :
		    rt_fmt_hex(p, o->frames[i]);
		*p++ = '"';
	}
	return RT_FMT_LIT(p, "]}");
}

uint32_t rt_graph_offcpu_chain(const struct rt_graph_span *o, uint64_t *chain,
			       uint32_t nr, uint32_t max)
{
	if (nr < max)
		chain[nr++] = RT_GRAPH_OFFCPU_FRAME;
	for (uint32_t i = o->nr_frames; i-- > 0 && nr < max;)
		chain[nr++] = o->frames[i];
	return nr;
}
