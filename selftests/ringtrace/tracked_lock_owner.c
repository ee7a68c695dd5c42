// SPDX-License-Identifier: GPL-2.0-only
/*
 * A static tracked lock belongs to the module it lives in, whoever takes it
 * first: module A (ringtrace_lockowner_a) exports "lockowner_shared" and
 * destroys it on unload; module B (ringtrace_lockowner_b) takes it first.
 * Unloading B must leave the lock, and its statistics, in the table;
 * unloading A then removes it, once (before the fix B's unload dropped it
 * from the registry with its id still set, and A's destroy deleted the
 * list node a second time: a list_del corruption report with DEBUG_LIST,
 * which the runner sees as a splat).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define LOCK		"lockowner_shared"
#define MAX_LOCKS	256

static struct ringtrace_lock_stat table[MAX_LOCKS];

static const struct ringtrace_lock_stat *lookup(int fd)
{
	unsigned int n = 0;

	if (st_lock_table(fd, table, MAX_LOCKS, 0, &n) < 0)
		return NULL;
	return st_lock_find(table, n, LOCK);
}

int main(void)
{
	const struct ringtrace_lock_stat *e;
	int fd, err;

	tap_plan(5);
	fd = st_open();
	err = st_load_module("selftests/ringtrace/modules/ringtrace_lockowner_a.ko", "");
	if (!err)
		err = st_load_module("selftests/ringtrace/modules/ringtrace_lockowner_b.ko", "");
	if (err)
		tap_bail("loading the lockowner modules: %s", strerror(err));

	e = lookup(fd);
	tap_ok(e && e->acquisitions == 1,
	       "B took A's lock once: in the table with 1 acquisition");

	err = st_unload_module("ringtrace_lockowner_b");
	tap_ok(!err, "rmmod B: %s", err ? strerror(err) : "done");
	e = lookup(fd);
	tap_ok(e && e->acquisitions == 1,
	       "after B's unload the lock and its statistics stay (%s)",
	       e ? "listed" : "gone");

	err = st_unload_module("ringtrace_lockowner_a");
	tap_ok(!err, "rmmod A (destroys the lock): %s",
	       err ? strerror(err) : "done");
	tap_ok(!lookup(fd), "after A's unload the lock is gone");
	close(fd);
	return tap_finish();
}
