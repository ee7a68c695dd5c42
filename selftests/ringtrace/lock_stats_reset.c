// SPDX-License-Identifier: GPL-2.0-only
/*
 * RINGTRACE_IOC_LOCK_STATS with RINGTRACE_LOCK_STATS_RESET loses nothing
 * and resets only what it reported. While the lockstorm module's threads
 * make exactly THREADS x ITERATIONS acquisitions of "lockstorm-0", the
 * test reads and resets the table in a loop: the acquisitions reported
 * across all the resets add up to exactly that (before the fix, counts
 * were read, then the lock was reset later, and increments in between
 * were lost). Then a reset query with room for one entry must leave every
 * other lock's counts in place.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define THREADS		2
#define ITERATIONS	20000
#define STORM_LOCK	"lockstorm-0"
#define STORM_RUN	"/sys/kernel/debug/ringtrace_lockstorm/run"
#define MAX_LOCKS	256

static struct ringtrace_lock_stat table[MAX_LOCKS], before[MAX_LOCKS];

static int run_storm(void *arg)
{
	int fd = open(STORM_RUN, O_WRONLY), err = 0;

	(void)arg;
	if (fd < 0 || write(fd, "1", 1) != 1)
		err = 1;
	if (fd >= 0)
		close(fd);
	return err;
}

static unsigned long long storm_acquisitions(int fd, unsigned int flags)
{
	const struct ringtrace_lock_stat *e;
	unsigned int n = 0;

	if (st_lock_table(fd, table, MAX_LOCKS, flags, &n) < 0)
		tap_bail("LOCK_STATS: %s", strerror(errno));
	e = st_lock_find(table, n, STORM_LOCK);
	return e ? e->acquisitions : 0;
}

int main(void)
{
	unsigned long long sum = 0, resets = 0;
	unsigned int i, n = 0, nb = 0, kept = 0, others = 0;
	struct st_child c;
	int fd, err, status;

	tap_plan(4);
	fd = st_open();
	err = st_load_module("selftests/ringtrace/modules/ringtrace_lockstorm.ko",
			     "threads=2 iterations=20000 hold_ns=500 locks=2");
	if (err)
		tap_bail("loading ringtrace_lockstorm.ko: %s", strerror(err));

	storm_acquisitions(fd, RINGTRACE_LOCK_STATS_RESET);
	st_child_start(&c, run_storm, NULL);
	st_child_go(&c);
	/* Read and reset while the storm runs, until it is over. */
	while (waitpid(c.pid, &status, WNOHANG) == 0) {
		sum += storm_acquisitions(fd, RINGTRACE_LOCK_STATS_RESET);
		resets++;
	}
	sum += storm_acquisitions(fd, RINGTRACE_LOCK_STATS_RESET);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "storm ran");
	tap_ok(sum == (unsigned long long)THREADS * ITERATIONS / 2,
	       "%llu resets during the storm: %llu acquisitions reported of %d",
	       resets, sum, THREADS * ITERATIONS / 2);

	/* Now idle: a reset with room for one entry resets that one only. */
	run_storm(NULL);
	if (st_lock_table(fd, before, MAX_LOCKS, 0, &nb) < 0 ||
	    st_lock_table(fd, table, 1, RINGTRACE_LOCK_STATS_RESET, &n) < 0 ||
	    n != 1 || st_lock_table(fd, table, MAX_LOCKS, 0, &n) < 0)
		tap_bail("LOCK_STATS: %s", strerror(errno));
	for (i = 1; i < nb; i++) {
		const struct ringtrace_lock_stat *e = st_lock_find(table, n, before[i].name);

		others++;
		kept += e && e->acquisitions >= before[i].acquisitions;
	}
	tap_ok(others > 0 && kept == others,
	       "reset with room for 1: the %u other locks keep their counts (%u did)",
	       others, kept);
	err = st_unload_module("ringtrace_lockstorm");
	tap_ok(!err, "unload lockstorm: %s", err ? strerror(err) : "done");
	close(fd);
	return tap_finish();
}
