/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * --graph vfs_read's off-CPU intervals (graph_offcpu.c), for graph.c: an
 * offcpu record into a waiting interval, a read's intervals attributed
 * to its spans by time, and each interval as a text line, a JSON node and
 * a folded chain's tail.
 */
#ifndef RINGTRACE_GRAPH_OFFCPU_H
#define RINGTRACE_GRAPH_OFFCPU_H

#include <stdint.h>

#include "ringtrace/escape.h"
#include "ringtrace/graph.h"

/*
 * qsort's order of spans and intervals alike: by entry (an interval's:
 * when it left the CPU); of two entered together, the longer first, as
 * the one that holds the other.
 */
static inline int rt_graph_by_entry(const void *a, const void *b)
{
	const struct rt_graph_span *x = a, *y = b;

	if (x->entry_ns != y->entry_ns)
		return x->entry_ns < y->entry_ns ? -1 : 1;
	if (x->dur_ns != y->dur_ns)
		return x->dur_ns > y->dur_ns ? -1 : 1;
	return 0;
}

/* @s from offcpu record @ev: its time and the frames where it blocked. */
void rt_graph_offcpu_span(const struct rt_graph *g, const struct rt_event *ev,
			  struct rt_graph_span *s);

/*
 * The read [@start, @end]'s @m intervals @off (those that ended inside
 * it) under its @n spans @s (entry order, nested: depth and self_ns
 * set): each goes under the innermost span it began in (depth 1: the
 * read's own time), clipped to the time that span spent in none of its
 * children, the read's start and the interval before it, so that
 * intervals never overlap a call nor each other. The span's self_ns
 * loses the interval's time, its offcpu_ns gains it; the frames are cut
 * at the span's own function. @off ends in time order. Returns the
 * read's own off-CPU time (its depth-1 intervals').
 */
uint64_t rt_graph_offcpu_attribute(const struct rt_graph *g,
				   struct rt_graph_span *s, uint32_t n,
				   struct rt_graph_span *off, uint32_t m,
				   uint64_t start, uint64_t end);

/*
 * @s and @off (both in time order, after the above) into @out in the
 * order the graph draws them: a span before the intervals it holds.
 * Returns n + m.
 */
uint32_t rt_graph_offcpu_merge(const struct rt_graph_span *s, uint32_t n,
			       const struct rt_graph_span *off, uint32_t m,
			       struct rt_graph_span *out);

/* Bytes of a frame's name shown; room a text line or JSON node needs. */
#define RT_GRAPH_FRAME_NAME		127u
#define RT_GRAPH_OFFCPU_TEXT_MAX	(96 + RT_GRAPH_BLOCK_FRAMES * \
					 (4 + RT_GRAPH_FRAME_NAME * \
					  RT_TEXT_ESCAPE_MAX))
#define RT_GRAPH_OFFCPU_JSON_MAX	(160 + RT_GRAPH_BLOCK_FRAMES * \
					 (4 + RT_GRAPH_FRAME_NAME * \
					  RT_JSON_ESCAPE_MAX))

/* "[off-cpu S] 3012.345us schedule_timeout < msleep" (no newline). */
char *rt_graph_offcpu_text(const struct rt_graph *g, char *p,
			   const struct rt_graph_span *o);

/*
 * {"kind":"offcpu","state":"S","depth":D,"entry_ns":..,"dur_ns":..,
 * "frames":["schedule_timeout","msleep"]}
 */
char *rt_graph_offcpu_json(const struct rt_graph *g, char *p,
			   const struct rt_graph_span *o);

/* The frame that stands for "off CPU here" in a folded chain. */
#define RT_GRAPH_OFFCPU_FRAME	RT_FOLDED_OFFCPU_FRAME

/*
 * An interval's chain after its callers' @nr frames: the off-CPU frame,
 * then where it blocked, outermost first. Returns the chain's length.
 */
uint32_t rt_graph_offcpu_chain(const struct rt_graph_span *o, uint64_t *chain,
			       uint32_t nr, uint32_t max);

#endif /* RINGTRACE_GRAPH_OFFCPU_H */
