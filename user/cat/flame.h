/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ringtrace-cat's weighted views, --folded, --flamegraph and --report: all
 * three are made from one table of stacks (folded.h) under one weight, so
 * the folded lines, the SVG's frames and the report's rows agree.
 *
 * The weight is --flame-weight W, or by default the first of samples,
 * vfs_read latency and time off CPU that the input holds and -e selects:
 * one rule for a trace, a replay and --diff (cat_flame_pick()). A weight
 * the input cannot give is refused before any work; a table that ends
 * empty (nothing of that kind passed, or all of weight 0) is an error
 * that says why, and no view is written. The rule is opt_weight.c's,
 * the views flame.c's.
 */
#ifndef RINGTRACE_CAT_FLAME_H
#define RINGTRACE_CAT_FLAME_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "ringtrace/rawfile.h"

struct cat_views;
struct rt_event;
struct rt_ksyms;

/* The kinds of records a weight weighs, as a mask. */
enum {
	CAT_FLAME_SAMPLES	= 1,	/* perf samples: samples */
	CAT_FLAME_READS		= 2,	/* vfs_read calls: latency, bytes */
	CAT_FLAME_OFFCPU	= 4,	/* offcpu intervals: offcpu */
	CAT_FLAME_FUNC		= 8,	/* func calls: func */
	CAT_FLAME_ALL		= 15,
};

/* What a trace records of them (its -e, --sample). */
unsigned int cat_flame_live_kinds(const struct options *o);
/* What raw file @f holds of them (its header and perf rings). */
unsigned int cat_flame_file_kinds(const struct rt_raw_file *f);
/* What a replay's -e lets through (CAT_FLAME_ALL without -e). */
unsigned int cat_flame_selected(const struct options *o);

/*
 * The weight of @view ("--flamegraph"...): *@w as given when @given, else
 * the rule's. @held: what the input holds; @selected: what -e lets
 * through; @file: the input's name, NULL live. 0, or -1 with the reason
 * in @why (after "ringtrace-cat: ").
 */
int cat_flame_pick(const char *view, bool given, enum flame_weight *w,
		   unsigned int held, unsigned int selected, const char *file,
		   char *why, size_t len);

/* The first weighted view asked for, for messages; NULL if none. */
const char *cat_flame_view(const struct options *o);

/* What a flame weight counts: "samples", "ns in vfs_read"... */
const char *cat_flame_unit(enum flame_weight w);
/* What it weighs: "perf samples", "vfs_read calls", "offcpu intervals". */
const char *cat_flame_records(enum flame_weight w);

/* Count @ev in the table under the weight (the views' sink). */
void cat_flame_add(struct cat_views *v, const struct rt_event *ev);

/*
 * The table as folded lines ("comm;f1;f2 N\n", sorted) to @fn, kernel
 * frames named from @ksyms (NULL: hex). The differential graph
 * (diff.c) reads both recordings through this.
 */
void cat_flame_lines(struct cat_views *v, const struct rt_ksyms *ksyms,
		     void (*fn)(void *arg, const char *line, size_t len),
		     void *arg);

/*
 * Write --folded, --flamegraph and --report. -1 when one could not be
 * written, or when the table is empty (said, and nothing written).
 */
int cat_flame_finish(struct cat_views *v, const struct rt_ksyms *ksyms);

#endif /* RINGTRACE_CAT_FLAME_H */
