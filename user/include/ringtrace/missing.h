/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What a view is missing: the records it never got (lost, skipped as
 * malformed or of an unknown type, in a damaged or cut part of a file,
 * calls of -e func:NAME functions the probes missed)
 * and what the records it got lack (stacks cut short, files and cgroups
 * never named, events folded into a full table's [other] or left out of
 * a full stack table). One struct, filled as the view is fed
 * (rt_missing_add(), event by event, after the filters), at the end (the
 * stream's counts) and as a table is printed (what it names: files may
 * be named late, live); printed by paired printers, text and JSON, so
 * that each view says it in its own format: a histogram, a summary or a
 * report under its table, a flame graph in its subtitle, a Perfetto trace
 * as a global event, folded stacks (whose lines are all data) on
 * standard error.
 */
#ifndef RINGTRACE_MISSING_H
#define RINGTRACE_MISSING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ringtrace/outbuf.h"
#include "ringtrace/record.h"

struct rt_missing {
	uint64_t	events;		/* events the view got (not LOST) */
	uint64_t	lost;		/* records lost: LOST records' counts */
	uint64_t	lost_pending;	/* lost with no LOST record at the end */
	uint64_t	malformed;	/* records skipped: malformed */
	uint64_t	unknown;	/* records skipped: type not known */
	uint64_t	damaged_bytes;	/* raw file: bytes skipped as damaged */
	uint64_t	func_missed;	/* -e func:NAME calls the probes missed */
	uint64_t	offcpu_missed;	/* off-CPU intervals not followed */
	bool		truncated;	/* raw file: cut short */
	uint64_t	kernel_cut;	/* kernel stacks cut at the depth */
	uint64_t	user_cut;	/* user stacks cut at the depth */
	uint64_t	user_fault;	/* user stacks cut at an unreadable frame */
	uint64_t	user_loop;	/* user stacks cut at a frame-pointer loop */
	uint64_t	unnamed_files;	/* vfs_reads of files never named, */
	uint64_t	unnamed_cgroups; /* events in cgroups never named:
					 * where a table names them */
	uint64_t	other;		/* events in a full table's [other] */
	uint64_t	stacks_dropped;	/* stacks a full stack table left out */
};

/* Count what @ev lacks, and @ev itself (a LOST record: its count). */
void rt_missing_add(struct rt_missing *m, const struct rt_event *ev);

/* Whether anything is missing. */
bool rt_missing_any(const struct rt_missing *m);

/* Lost records, a LOST record's and the pending ones. */
uint64_t rt_missing_lost(const struct rt_missing *m);

/*
 * Text: "missing from this view:" and a line per cause, each line begun
 * with @prefix ("" or "# " in a report), nothing when nothing is missing.
 */
void rt_missing_print(const struct rt_missing *m, struct rt_outbuf *ob,
		      const char *prefix);

/* The same in one line ("19497 records lost (97.5%), 3 user stacks cut"). */
void rt_missing_line(const struct rt_missing *m, char *buf, size_t len);

/*
 * JSON: an object of every count, zeros included ({"events":508,
 * "lost":19497,"lost_pct":97.46,...}: events, what the view got), at @p
 * (RT_MISSING_JSON_MAX bytes); returns its end: a member of the view's
 * own JSON object ("missing":{...}).
 */
#define RT_MISSING_JSON_MAX	640
char *rt_missing_json(char *p, const struct rt_missing *m);

#endif /* RINGTRACE_MISSING_H */
