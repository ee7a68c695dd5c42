/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ringtrace-cat --snapshot --trigger EXPR: the flight recorder dumps itself
 * when a record matches EXPR (the --filter language), as ftrace's snapshot
 * trigger and LTTng's triggers do, besides SIGUSR2. Every TRIGGER_LOOK_MS
 * the records written since the last look are checked (trigger.h); the
 * first match, if the count (--trigger-max) and the gap since the previous
 * dump's trigger (--trigger-gap) allow, makes a snapshot at once into a
 * raw file named by the trigger's time, PREFIX.YYYYMMDD-HHMMSS.NNNNNNNNN
 * (UTC); with --post DURATION the records of that long after it are
 * appended to the same file before it is closed.
 */
#ifndef RINGTRACE_CAT_TRIGGER_H
#define RINGTRACE_CAT_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

#include "flight.h"
#include "ringtrace/snapshot.h"
#include "ringtrace/trigger.h"

/* How often the rings are looked at. */
#define TRIGGER_LOOK_MS	10u

/* What is kept of the matching record: its fields point into a copy. */
struct cat_trigger_hit {
	uint64_t		ts_ns;
	enum rt_event_kind	kind;
	uint32_t		pid;
	char			comm[RINGTRACE_COMM_LEN + 1];
	uint64_t		ns;	/* lat, wait or time off CPU */
	char			what[128];	/* its file or lock */
};

struct cat_trigger {
	const struct options		*o;
	const struct cat_raw_header	*raw;
	struct rt_trigger_scan		scan;
	struct rt_paths			paths;
	uint64_t			next_look;
	/* the look under way */
	uint64_t			matches;
	bool				hit;
	struct cat_trigger_hit		first;
	/* totals */
	uint64_t			dumps;
	uint64_t			in_gap;	  /* inside a dump or the gap */
	uint64_t			last_ts;  /* the last dump's trigger */
	/* a dump waiting for the records after its trigger (--post) */
	bool				pending;
	uint64_t			post_end;
	struct cat_raw_dump		dump;
	struct cat_trigger_hit		dump_hit;
	size_t				dump_before;	/* records up to it */
	uint64_t			dump_number;
};

int cat_trigger_init(struct cat_trigger *t, const struct options *o,
		     const struct rt_session *s,
		     const struct cat_raw_header *raw);
/* Says what it did on standard error (unless -q) and frees it. */
void cat_trigger_fini(struct cat_trigger *t);

/* When the loop must run it next (CLOCK_MONOTONIC ns). */
uint64_t cat_trigger_when(const struct cat_trigger *t);

/*
 * Look at the rings and dump as the options say, or finish a dump whose
 * --post time has passed. @sn is the run's snapshot state (SIGUSR2's too:
 * one numbering). Returns an exit code (EXIT_OK to go on).
 */
int cat_trigger_run(struct cat_trigger *t, struct rt_session *s,
		    struct rt_snapshot *sn, uint64_t now, uint64_t *snapshots);

/*
 * At the stop: one last look (it may dump), then a dump waiting for its
 * --post records is finished with what the rings hold now. An exit code.
 */
int cat_trigger_stop(struct cat_trigger *t, struct rt_session *s,
		     struct rt_snapshot *sn, uint64_t now, uint64_t *snapshots);

/* Whether a dump is waiting for its --post records (SIGUSR2 waits too). */
static inline bool cat_trigger_pending(const struct cat_trigger *t)
{
	return t->pending;
}

#endif /* RINGTRACE_CAT_TRIGGER_H */
