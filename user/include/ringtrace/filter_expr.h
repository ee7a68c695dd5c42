/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * --filter EXPR: the record filters people write in bpftrace
 * one-liners, "ret < 0", "count > 4096", 'path ~ "/etc/pass*"', over the
 * fields of decoded events.
 *
 *   expr    := or
 *   or      := and { "||" and }
 *   and     := unary { "&&" unary }
 *   unary   := "!" unary | "(" expr ")" | FIELD OP VALUE
 *   OP      := "==" "!=" "<" "<=" ">" ">="          (numeric fields)
 *              "==" "!=" "~" "!~"                    (string fields)
 *
 * Numbers take the unit of their field: durations (lat, wait, hold,
 * offcpu) take ns/us/ms/s (a bare number is nanoseconds), byte counts
 * (count, ret, pos) take K/M/G; ret also takes an errno name, -EISDIR.
 * Strings are "double-quoted" (\" and \\ escape); "~" matches a shell
 * glob (fnmatch(3), "*" crosses "/").
 *
 * A record kind that lacks a field the expression names never passes:
 * 'ret < 0' keeps vfs_read records only. LOST records and counter
 * snapshots have no task and always pass (filter.h). A vfs_read whose
 * file has no name has path "".
 *
 * Parsed once into a fixed array of nodes; evaluating one allocates
 * nothing and makes no system call.
 */
#ifndef RINGTRACE_FILTER_EXPR_H
#define RINGTRACE_FILTER_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ringtrace/record.h"

#define RT_EXPR_MAX_NODES	64u
#define RT_EXPR_MAX_LEN		1024u	/* bytes of one expression */

struct rt_expr_node {
	uint8_t		op;		/* enum rt_expr_op (filter_expr.c) */
	uint8_t		field;		/* comparisons: enum rt_expr_field */
	uint8_t		cmp;		/* comparisons: enum rt_expr_cmp */
	uint8_t		l, r;		/* and/or: both; not: l */
	int64_t		sval;		/* signed fields */
	uint64_t	uval;		/* unsigned fields */
	const char	*str;		/* string fields: into rt_expr.buf */
};

struct rt_expr {
	struct rt_expr_node	nodes[RT_EXPR_MAX_NODES];
	uint32_t		nr;
	uint32_t		root;
	uint32_t		kinds;	/* 1 << rt_event_kind it can pass */
	char			buf[RT_EXPR_MAX_LEN];	/* unescaped strings */
};

/*
 * Parse @text into @e. 0, or -1 with "expected a number at column 7"
 * (1-based, in bytes) in @err.
 */
int rt_expr_parse(struct rt_expr *e, const char *text, char *err,
		  size_t errlen);

/* Whether @ev passes @e (LOST and counter rows are the caller's call). */
bool rt_expr_eval(const struct rt_expr *e, const struct rt_event *ev);

/*
 * What the module can decide before any ring work: ranges of
 * vfs_read's ret and count that every passing record lies in. Only
 * comparisons ANDed at the top of @e count; anything else is left to
 * rt_expr_eval(), which still runs: the kernel part only saves ring space.
 */
struct rt_expr_ranges {
	bool		ret_set, count_set;
	int64_t		ret_min, ret_max;	/* inclusive */
	uint64_t	count_min, count_max;
};

/* Start with "anything". */
void rt_expr_ranges_init(struct rt_expr_ranges *r);
/* Narrow @r by @e's top-level conjuncts on ret and count. */
void rt_expr_ranges_add(struct rt_expr_ranges *r, const struct rt_expr *e);
/* No vfs_read can pass (an empty range). */
bool rt_expr_ranges_empty(const struct rt_expr_ranges *r);

#endif /* RINGTRACE_FILTER_EXPR_H */
