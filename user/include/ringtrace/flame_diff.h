/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Two profiles compared stack by stack (ringtrace-cat --diff), what
 * Brendan Gregg's difffolded.pl does: the folded lines of BEFORE and of
 * AFTER ("a;b;c 12", folded.h) become one line per stack with both
 * weights, "a;b;c 12 30", a weight of 0 where a side lacks the stack.
 *
 * Normalised by default: BEFORE's weights are scaled to AFTER's total
 * (rounded so that they sum to it exactly, each within 1 of its exact
 * share; difffolded.pl -n truncates each), so
 * the colours of the graph say where the profile's shape changed, not
 * that one run was longer. Unnormalised, raw weights are compared.
 *
 * The result feeds the flame graph (flamegraph.h, rt_flame_add_diff():
 * AFTER's shape, coloured by the change) or is written as three columns,
 * the input flamegraph.pl takes for its own differential graphs.
 */
#ifndef RINGTRACE_FLAME_DIFF_H
#define RINGTRACE_FLAME_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ringtrace/flamegraph.h"
#include "ringtrace/outbuf.h"

enum rt_diff_side {
	RT_DIFF_BEFORE,
	RT_DIFF_AFTER,
};

struct rt_diff_stack {
	char		*stack;		/* "a;b;c", NUL-terminated */
	uint64_t	weight[2];	/* [RT_DIFF_BEFORE], [RT_DIFF_AFTER] */
};

struct rt_flame_diff {
	struct rt_diff_stack	*stacks;
	uint32_t		nr, cap;
	uint64_t		total[2];	/* as read, before normalising */
	uint64_t		bad_lines;	/* lines that were not "stack N" */
	bool			normalised;	/* set by rt_flame_diff_finish() */
};

void rt_flame_diff_init(struct rt_flame_diff *d);
void rt_flame_diff_fini(struct rt_flame_diff *d);

/*
 * One folded line of @side ("a;b;c 12", a trailing newline allowed). A
 * line that does not parse is counted in bad_lines. 0, or -ENOMEM.
 */
int rt_flame_diff_add(struct rt_flame_diff *d, enum rt_diff_side side,
		      const char *line, size_t len);

/* The same for every line of @text (@len bytes). 0, or -ENOMEM. */
int rt_flame_diff_add_text(struct rt_flame_diff *d, enum rt_diff_side side,
			   const char *text, size_t len);

/*
 * After the last line: sort by stack, merge the lines of one stack and,
 * if @normalise and both totals are non-zero, scale BEFORE to AFTER's
 * total.
 */
void rt_flame_diff_finish(struct rt_flame_diff *d, bool normalise);

/* "stack before after\n" per stack, sorted (difffolded.pl's output). */
void rt_flame_diff_write(const struct rt_flame_diff *d, struct rt_outbuf *ob);

/* Every stack into @f (rt_flame_add_diff()). */
void rt_flame_diff_graph(const struct rt_flame_diff *d, struct rt_flame *f);

#endif /* RINGTRACE_FLAME_DIFF_H */
