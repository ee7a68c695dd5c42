/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The terminal views of latencies, fed event by event like a printer and
 * printed at the end:
 *
 *  --hist [--hist-by comm|pid|file|cgroup]
 *                                    vfs_read latency histograms, the
 *                                    lock wait and hold times of -e lock,
 *                                    one per function of -e func:NAME,
 *                                    overall or one per key
 *  --summary                         who reads what: one row per
 *                                    process and file (and cgroup, when
 *                                    the records say), sorted by time
 *                                    spent; then one row per function
 *
 * Tables are allocated once at init and bounded: past RT_VIEW_MAX_KEYS
 * keys (RT_VIEW_MAX_ROWS summary rows) events go to one "[other]" entry
 * and are counted in ->overflow, so totals stay right and nothing is
 * allocated per event.
 */
#ifndef RINGTRACE_LATENCY_VIEW_H
#define RINGTRACE_LATENCY_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "ringtrace/hist.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/paths.h"
#include "ringtrace/record.h"

#define RT_VIEW_MAX_KEYS	256u
#define RT_VIEW_MAX_ROWS	16384u		/* about 4 KiB each, touched as used */
#define RT_VIEW_SLOTS		32768u		/* hash slots, power of two */

enum rt_hist_by {
	RT_HIST_BY_NONE,
	RT_HIST_BY_COMM,
	RT_HIST_BY_PID,
	RT_HIST_BY_FILE,	/* dev:ino for reads, the lock's name for locks,
				   the function for func calls */
	RT_HIST_BY_CGROUP,	/* the task's cgroup (task_ext) */
};

/* What an entry stands for; compared whole, so zero what is unused. */
struct rt_view_key {
	uint32_t	pid;
	uint32_t	dev_major;
	uint32_t	dev_minor;
	uint32_t	is_lock;
	uint64_t	ino;
	uint64_t	cgroup_id;	/* 0: the record has none */
	char		name[RINGTRACE_LOCK_NAME_LEN + 1];	/* comm or lock */
};

struct rt_view_entry {
	struct rt_view_key	key;
	char			comm[RINGTRACE_COMM_LEN + 1];	/* last seen */
	uint64_t		bytes;		/* sum of positive returns */
	uint64_t		errors;		/* negative returns */
	struct rt_hist		read;		/* vfs_read latency */
	/* of read.sum, off CPU, over the reads that measured it. */
	uint64_t		read_offcpu;
	uint64_t		read_offcpu_n;	/* reads with offcpu_ns known */
};

/*
 * Lock, off-CPU and func times, kept only where those events are counted
 * (not summary rows). The calls of the view's function i counted here
 * are rt_view_func_hist(v, l, i): kept apart, only for the functions
 * each entry saw.
 */
struct rt_view_locks {
	struct rt_hist		wait;
	struct rt_hist		hold;
	struct rt_hist		offcpu;		/* offcpu intervals */
	uint64_t		func_n;		/* calls, of every function */
	uint64_t		func_sum;	/* their time */
};

/*
 * The func histograms of a view, one per (entry, function) that saw a
 * call: pool[i] is owner[i]'s (the entry's number * RINGTRACE_MAX_FUNCS
 * + the function's slot; number 0 the total, 1 + n keyed entry n), found
 * by its hash in slots. Grown by doubling, emptied (not freed) by reset.
 */
struct rt_view_func_hists {
	struct rt_hist		*pool;
	uint32_t		*owner;		/* parallel to pool */
	uint32_t		nr;
	uint32_t		cap;
	uint32_t		*slots;		/* pool index + 1, 0 free */
	uint32_t		nr_slots;	/* power of two, >= 2 * cap */
};

/*
 * A function whose calls the view counts: known by its address (a
 * replay may not know its name), named by its index (the session's list).
 */
struct rt_view_func {
	uint64_t		ip;
	uint32_t		idx;
};

struct rt_view_table {
	struct rt_view_entry	*entries;	/* max + 1: the last is [other] */
	struct rt_view_locks	*locks;		/* parallel to entries, or NULL */
	uint32_t		max;
	uint32_t		nr;
	uint32_t		*slots;		/* RT_VIEW_SLOTS: index + 1, 0 free */
	uint64_t		overflow;	/* events counted in [other] */
};

struct rt_latency_view {
	bool			hist;
	enum rt_hist_by		by;
	bool			summary;
	uint32_t		top;		/* summary rows printed; 0: all */
	struct rt_view_entry	total;
	struct rt_view_locks	total_locks;
	struct rt_view_table	keyed;		/* --hist-by */
	struct rt_view_table	rows;		/* --summary: pid x file */
	const struct rt_paths	*paths;		/* names for dev:ino; may be NULL */
	/* some record had a cgroup: the summary shows them. */
	bool			cgroups;
	/*
	 * The kinds counted, for a histogram that got none ("offcpu": "(no
	 * offcpu events)"); NULL: every kind it counts.
	 */
	const char		*kinds;
	/*
	 * The functions seen, in order of first call; kept across resets
	 * (--interval) so that each keeps its place. Calls of more than
	 * RINGTRACE_MAX_FUNCS functions (no session traces more), or of one
	 * there was no memory for, are counted in func_overflow, not shown.
	 * funcs grows by doubling as functions are first seen; func_index
	 * (RT_VIEW_FUNC_SLOTS: slot + 1, 0 free) finds one by its address.
	 */
	struct rt_view_func	*funcs;
	uint32_t		nr_funcs;
	uint32_t		funcs_cap;
	uint32_t		*func_index;
	uint64_t		func_overflow;
	struct rt_view_func_hists func_hists;
};

/* Function slots by address: a power of two, twice the most functions. */
#define RT_VIEW_FUNC_SLOTS	(2u * RINGTRACE_MAX_FUNCS)

/*
 * The calls of the view's function @slot counted in @l (&v->total_locks,
 * or a keyed entry's), NULL if none.
 */
const struct rt_hist *rt_view_func_hist(const struct rt_latency_view *v,
					const struct rt_view_locks *l,
					uint32_t slot);

/* Set hist/by/summary first. 0 or -ENOMEM. */
int rt_latency_view_init(struct rt_latency_view *v);
void rt_latency_view_fini(struct rt_latency_view *v);

void rt_latency_view_add(struct rt_latency_view *v, const struct rt_event *ev);

/*
 * The histograms (if hist) then the summary tables (if summary). Func
 * histograms and rows are named with rt_output_func_label() (output.h).
 */
void rt_latency_view_print(struct rt_latency_view *v, struct rt_outbuf *ob);

/*
 * The same numbers as one JSON object on one line: {"hist":{"all":{...},
 * "by":..., "keys":[...]}, "summary":{"rows":[...], "more_rows":N}};
 * @members (may be NULL), already formatted ("\"interval\":2"), go first.
 */
void rt_latency_view_print_json(struct rt_latency_view *v,
				struct rt_outbuf *ob, const char *members);

/*
 * The events of the tables that print names whose name is not known now,
 * as they are printed (missing.h): vfs_reads in --summary's rows or
 * --hist-by file's keys whose file is not named, events in --summary's
 * rows or --hist-by cgroup's keys whose cgroup is not; the larger of the
 * two tables' counts, [other] aside.
 */
void rt_latency_view_unnamed(const struct rt_latency_view *v,
			     uint64_t *files, uint64_t *cgroups);

/* Forget every event counted so far (--interval: each print starts anew). */
void rt_latency_view_reset(struct rt_latency_view *v);

/* "comm", "pid", "file", "cgroup" -> *by; -1 if unknown. */
int rt_hist_by_parse(const char *s, enum rt_hist_by *by);

#endif /* RINGTRACE_LATENCY_VIEW_H */
