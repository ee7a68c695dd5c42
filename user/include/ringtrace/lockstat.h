/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The tracked-lock statistics table (RINGTRACE_IOC_LOCK_STATS): fetching
 * it whole, the difference between two snapshots, sorting, and printing it
 * as a table in the spirit of /proc/lock_stat or as JSON.
 */
#ifndef RINGTRACE_LOCKSTAT_H
#define RINGTRACE_LOCKSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <linux/ringtrace.h>

struct rt_lockstat {
	struct ringtrace_lock_stat *locks;
	unsigned int nr;
};

enum rt_lockstat_key {
	RT_LOCKSTAT_BY_CONTENDED,	/* default: where the trouble is */
	RT_LOCKSTAT_BY_WAIT_TOTAL,
	RT_LOCKSTAT_BY_WAIT_MAX,
	RT_LOCKSTAT_BY_HOLD_TOTAL,
	RT_LOCKSTAT_BY_HOLD_MAX,
	RT_LOCKSTAT_BY_ACQUISITIONS,
	RT_LOCKSTAT_BY_NAME,
};

/*
 * Every tracked lock, through rt_sys; @reset zeroes them after reading.
 * 0 or -errno with a sentence in @err.
 */
int rt_lockstat_fetch(int fd, struct rt_lockstat *ls, bool reset,
		      char *err, size_t errlen);
void rt_lockstat_free(struct rt_lockstat *ls);

/*
 * @now minus @before, lock by lock (matched by lock_id): counts and
 * totals become what happened in between; maxima stay @now's (a maximum
 * cannot be subtracted). Locks gone from @now are dropped.
 */
void rt_lockstat_delta(struct rt_lockstat *now, const struct rt_lockstat *before);

/* Largest first (by name: alphabetical). */
void rt_lockstat_sort(struct rt_lockstat *ls, enum rt_lockstat_key key);
int rt_lockstat_parse_key(const char *s, enum rt_lockstat_key *key);

/* The first @top locks (0: all). */
void rt_lockstat_print_table(FILE *f, const struct rt_lockstat *ls,
			     unsigned int top);
void rt_lockstat_print_json(FILE *f, const struct rt_lockstat *ls,
			    unsigned int top);

#endif /* RINGTRACE_LOCKSTAT_H */
