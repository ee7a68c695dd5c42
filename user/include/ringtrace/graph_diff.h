/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * ringtrace-cat --diff BEFORE AFTER --graph vfs_read --summary: the
 * function graph's per-function tables (graph.h, struct rt_graph_func) of
 * two recordings side by side, matched by name (a function's address
 * moves between boots and kernels): calls, self and total time of BEFORE
 * and AFTER, and the change of each. vfs_read's own row comes first (its
 * total: the reads' time; its self: what no traced callee took), then the
 * functions, the largest change of self time first, then by name. Times
 * are sums over the reads, as recorded: nothing is normalised, a table
 * says what each run took (--no-normalize is the flame graph's).
 *
 * The self column adds up to the vfs_read total on each side: the
 * totals of --graph --folded.
 */
#ifndef RINGTRACE_GRAPH_DIFF_H
#define RINGTRACE_GRAPH_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "ringtrace/flame_diff.h"
#include "ringtrace/graph.h"
#include "ringtrace/outbuf.h"

/* A symbol's name (RINGTRACE_FUNC_NAME_LEN), or an address in hex. */
#define RT_GRAPH_DIFF_NAME	RINGTRACE_FUNC_NAME_LEN

struct rt_graph_diff_row {
	char		name[RT_GRAPH_DIFF_NAME];
	bool		is_read;
	uint64_t	calls[2];	/* [RT_DIFF_BEFORE], [RT_DIFF_AFTER] */
	uint64_t	self_ns[2];
	uint64_t	total_ns[2];
};

/*
 * Room for @max rows, allocated by init (the two tables' rows together:
 * at most 2 * RT_GRAPH_FUNCS); a row found by its name through index
 * (nr_slots, a power of two more than twice max: row + 1, 0 free).
 */
struct rt_graph_diff {
	struct rt_graph_diff_row	*rows;
	uint32_t			nr;
	uint32_t			max;
	uint32_t			*index;
	uint32_t			nr_slots;
};

/* Room for @max rows (0: one). 0 or -ENOMEM. */
int rt_graph_diff_init(struct rt_graph_diff *d, uint32_t max);
void rt_graph_diff_fini(struct rt_graph_diff *d);

/*
 * Row @f of @side's table, named @name (NULL: its address in hex; the
 * read's row is "vfs_read"): added to the row of that name, which both
 * sides share; left out once max rows are taken.
 */
void rt_graph_diff_add(struct rt_graph_diff *d, enum rt_diff_side side,
		       const char *name, const struct rt_graph_func *f);

/* After the last row: vfs_read's first, then by change of self time. */
void rt_graph_diff_finish(struct rt_graph_diff *d);

/*
 * The table as text (@before and @after: the files' names for the note
 * under it), or as one JSON object {"type":"graph_diff","before":...,
 * "after":...,"functions":[{"func","read","calls":[B,A],"self_ns":[B,A],
 * "total_ns":[B,A],"self_change_ns","total_change_ns"}...]}.
 */
void rt_graph_diff_print(const struct rt_graph_diff *d, struct rt_outbuf *ob,
			 const char *before, const char *after);
void rt_graph_diff_print_json(const struct rt_graph_diff *d,
			      struct rt_outbuf *ob, const char *before,
			      const char *after);

#endif /* RINGTRACE_GRAPH_DIFF_H */
