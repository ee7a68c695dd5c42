/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A perf-report-like table: the stacks the flame graph draws
 * (folded.h: samples, or vfs_read / offcpu stack trailers weighted by
 * latency, bytes or time off CPU), totalled by symbol, by command name
 * or by binary ("dso"), with perf report --children's two columns:
 *
 *   self      the weight of stacks whose innermost frame is the row's
 *   children  the weight of stacks holding the row's key anywhere (each
 *             stack once, however often the key recurs in it)
 *
 * Self percentages sum to 100% (every stack has one innermost frame; a
 * record without a stack counts as "[no stack]"); children are >= self.
 * By comm, self = children = the command's share. Frames are named by
 * frame_names.h without offsets: "vfs_read", "p9_client_rpc[9pnet]",
 * "__read(libc.so.6)"; a frame nothing names is its address. The binary
 * of a kernel frame is [kernel.kallsyms] or its module ("[9pnet]"), of a
 * user frame its file's name, or [unknown].
 *
 * Built once at the end of the run from the folded table; text and JSON
 * printers go in pairs.
 */
#ifndef RINGTRACE_REPORT_H
#define RINGTRACE_REPORT_H

#include <stdint.h>

#include "ringtrace/folded.h"
#include "ringtrace/frame_names.h"
#include "ringtrace/missing.h"
#include "ringtrace/outbuf.h"

enum rt_report_by {
	RT_REPORT_BY_SYM,
	RT_REPORT_BY_COMM,
	RT_REPORT_BY_DSO,
};

struct rt_report_row {
	char		*key;
	uint64_t	self;
	uint64_t	children;
	uint64_t	last_stack;	/* the stack that counted children + 1 */
};

struct rt_report {
	enum rt_report_by	by;
	struct rt_report_row	*rows;
	uint32_t		nr, cap;
	uint32_t		*index;		/* open addressing: row + 1 */
	uint32_t		index_size;	/* a power of two */
	uint64_t		total;		/* the weight of every stack */
	uint64_t		stacks;		/* --folded's lines: stacks that
						 * name alike are one */
	uint64_t		serial;		/* stacks of the table read */
	/* What the stacks lack (missing.h): said under the table; NULL: none. */
	const struct rt_missing	*missing;
};

/* "sym", "comm" or "dso"; -1 for anything else. */
int rt_report_by_parse(const char *s, enum rt_report_by *by);
const char *rt_report_by_name(enum rt_report_by by);

/*
 * Total @f's stacks by @by; frames named through @names (made with
 * bare names: rt_frame_names.bare). Rows sorted by children, then self,
 * then key. 0 or -ENOMEM.
 */
int rt_report_build(struct rt_report *r, const struct rt_folded *f,
		    struct rt_frame_names *names, enum rt_report_by by);
void rt_report_fini(struct rt_report *r);

/*
 * The table, @top rows at most (0: all), its weight in @unit ("samples",
 * "ns in vfs_read"...): a heading, "# Children Self Children(w) Self(w)
 * Symbol" (percentages, then the weights), and one row a line; then,
 * when something is missing, "# missing from this view:" and its lines.
 */
void rt_report_print(const struct rt_report *r, const char *unit,
		     uint32_t top, struct rt_outbuf *ob);
/*
 * The same as one JSON object: {"report":"sym","unit":..,"total":..,
 * "rows":[{"key":..,"self":..,"children":..,"self_pct":..,
 * "children_pct":..}]} (percentages with two decimals), with
 * "missing":{...} (rt_missing_json()) when missing is set.
 */
void rt_report_print_json(const struct rt_report *r, const char *unit,
			  uint32_t top, struct rt_outbuf *ob);

#endif /* RINGTRACE_REPORT_H */
