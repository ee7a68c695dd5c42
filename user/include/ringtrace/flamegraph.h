/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * An interactive flame graph as one SVG file (--flamegraph FILE.svg),
 * written directly: no Perl, no script to fetch. Open it in a browser:
 * hovering a frame shows its name, weight and share of the total; a click
 * zooms to it (its ancestors stretch to the full width); "Search" asks
 * for a regular expression and colours matching frames, with their share;
 * "Reset zoom" undoes the zoom.
 *
 * Built at the end of a run from the aggregated stacks (folded.h, or the
 * per-file table for vfs_read weights), as a tree of frames: this is the
 * only place allocation grows with the data, and it happens once.
 *
 * Every frame's <g> carries data-v (its weight) and data-d (its depth):
 * the weights of a frame's children never exceed its own, and the
 * frames at depth 1 sum to the total (the root "all"), which the tests
 * check.
 *
 * A differential graph (rt_flame_add_diff()) is the same picture with
 * another colour function: AFTER's shape, each frame red where its
 * inclusive weight grew from BEFORE to AFTER and blue where it shrank,
 * the colour's intensity proportional to the change over the largest
 * change a frame makes by itself (its change less its children's, what
 * flamegraph.pl scales by), full colour beyond; grey where nothing
 * changed. Its <g> also carry
 * data-b (BEFORE's weight); the hover text gives both weights, their
 * shares and the change. (flamegraph.pl colours a frame by the change of
 * the stacks ending in it, its self weight; the inclusive change used here
 * also colours the callers of the code that changed, so the path to it
 * shows at every zoom level.)
 */
#ifndef RINGTRACE_FLAMEGRAPH_H
#define RINGTRACE_FLAMEGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ringtrace/outbuf.h"

/*
 * Levels drawn below the root: a deeper stack (a frame-pointer loop, a
 * runaway recursion) ends in one RT_FLAME_DEEPER frame holding the rest,
 * so that one bad stack does not make the graph too tall to read.
 */
#define RT_FLAME_MAX_DEPTH	64u
#define RT_FLAME_DEEPER		"[deeper frames not drawn]"

struct rt_flame_node {
	uint32_t	name;		/* offset in names */
	uint32_t	child;		/* first child, 0: none */
	uint32_t	sibling;	/* next sibling, 0: none */
	uint32_t	depth;
	uint64_t	value;
	uint64_t	before;		/* differential graphs: BEFORE's weight */
	bool		offcpu;		/* "[off-cpu]" or below it: io's blues */
};

struct rt_flame {
	struct rt_flame_node	*nodes;		/* [0] is the root, "all" */
	uint32_t		nr, cap;
	char			*names;
	size_t			names_len, names_cap;
	uint32_t		max_depth;
	uint64_t		capped;		/* stacks cut at RT_FLAME_MAX_DEPTH */
	int			error;		/* -ENOMEM: the graph is partial */
	/*
	 * A differential graph (rt_flame_add_diff()): value is AFTER's
	 * weight, which gives the shape, and before BEFORE's (normalised or
	 * not, as the caller made it). Frames are coloured by their change.
	 */
	bool			diff;
	const char		*subtitle;	/* a line under the title, or NULL */
	/*
	 * blues, as flamegraph.pl --color=io, for time spent off
	 * CPU (set before writing; not for a differential graph).
	 */
	bool			io_palette;
};

int rt_flame_init(struct rt_flame *f);
void rt_flame_fini(struct rt_flame *f);

/* Add a stack, root first, with its weight. */
void rt_flame_add(struct rt_flame *f, const char *const *frames, uint32_t nr,
		  uint64_t weight);

/*
 * Add a folded line "a;b;c 12" (what folded.h writes); the count is the
 * weight. Lines that do not parse are ignored; returns 0 or -1.
 */
int rt_flame_add_folded(struct rt_flame *f, const char *line, size_t len);

/*
 * Differential: the stack @stack ("a;b;c", @len bytes, no count) weighed
 * @before in BEFORE and @after in AFTER; sets f->diff. A stack only in
 * BEFORE (after 0) adds its weight to its ancestors' before and makes
 * frames that are not drawn (AFTER has no width for them), as
 * flamegraph.pl does with difffolded.pl's output.
 */
void rt_flame_add_diff(struct rt_flame *f, const char *stack, size_t len,
		       uint64_t before, uint64_t after);

/*
 * Write the SVG. @title heads it; @unit names the weight ("samples",
 * "ns of vfs_read", "bytes read").
 */
void rt_flame_write_svg(const struct rt_flame *f, struct rt_outbuf *ob,
			const char *title, const char *unit);

#endif /* RINGTRACE_FLAMEGRAPH_H */
