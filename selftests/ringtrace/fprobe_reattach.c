// SPDX-License-Identifier: GPL-2.0-only
/*
 * fprobe detached and attached again, without reloading the module, while
 * a traced read sleeps in vfs_read: the call that entered under the first
 * attachment must not run the second attachment's exit handler.
 * On fgraph-based fprobe (6.14+) the return hook of that call
 * stays on the task's shadow stack as long as some other fprobe with an
 * exit handler keeps fgraph's ops registered (here a tracefs fprobe event
 * on vfs_write's return), and it finds its fprobe by address: the module's
 * fprobe, registered again, is at the same address. Without a guard the
 * old call was recorded by the new session with the old attachment's
 * entry data (2 records instead of 1), or fprobe WARNed. The mechanism is
 * forced to fprobe; kernels without fprobe (or fprobe events) skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define FIRST_READ	64	/* bytes the sleeping read asks for */
#define SECOND_READ	32	/* and the read after it */
#define KEEP		"rtkeep"
#define KEEP_EVENT	"f:" KEEP " vfs_write%return\n"

static int data_pipe[2];

/* Two reads of the pipe: the first one sleeps across detach + attach. */
static int workload(void *arg)
{
	char buf[FIRST_READ];

	(void)arg;
	if (read(data_pipe[0], buf, FIRST_READ) != 5)
		return 2;
	if (read(data_pipe[0], buf, SECOND_READ) != 6)
		return 3;
	return 0;
}

int main(void)
{
	char param[64] = "", restore[16] = "auto";
	struct ringtrace_config cfg;
	struct st_session s1, s2;
	struct st_reads seen = { .n = 0 };
	struct st_child child;
	int err;

	st_attach_param(param, sizeof(param));
	/* "auto: fprobe (...)" or a forced "kretprobe (...)": what to restore. */
	if (sscanf(strncmp(param, "auto", 4) ? param : "auto", "%15s",
		   restore) != 1)
		strcpy(restore, "auto");
	err = st_write_file(ST_ATTACH_PARAM, "fprobe", false);
	if (err)
		tap_skip_all("fprobe not offered by this kernel (%s)",
			     strerror(err));
	if (pipe(data_pipe))
		tap_bail("pipe: %s", strerror(errno));

	/*
	 * Everything that patches text (the event, ringtrace's attach) runs
	 * while the child is parked or asleep in read(): nothing else runs
	 * vfs_read or vfs_write on the other vCPU (TCG, testing.rst).
	 */
	st_child_start(&child, workload, NULL);
	err = st_tracefs_write("dynamic_events", KEEP_EVENT, true);
	if (err) {
		st_child_go(&child);
		st_write_file(ST_ATTACH_PARAM, restore, false);
		if (write(data_pipe[1], "hello", 5) != 5 ||
		    write(data_pipe[1], "world!", 6) != 6)
			tap_bail("cannot release the child");
		st_child_wait(&child);
		tap_skip_all("no fprobe events in this kernel (%s)",
			     strerror(err));
	}
	tap_plan(5);
	err = st_tracefs_write("events/fprobes/" KEEP "/enable", "1\n", false);
	if (err)
		tap_bail("cannot enable the fprobe event: %s", strerror(err));

	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	st_session_open(&s1, &cfg, 16);
	if (st_enable(&s1))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&child);
	if (!st_wait_in_read(child.pid, data_pipe[0], FIRST_READ))
		tap_bail("the child never blocked in its first read");

	/* Detach and attach again; the first read sleeps on throughout. */
	st_disable(&s1);
	st_session_close(&s1);
	st_session_open(&s2, &cfg, 16);
	if (st_enable(&s2))
		tap_bail("ENABLE again: %s", strerror(errno));
	st_attach_param(param, sizeof(param));
	tap_diag("attached again with %s, vfs_write%%return held by %s",
		 param, KEEP);

	if (write(data_pipe[1], "hello", 5) != 5)
		tap_bail("cannot wake the child");
	tap_ok(st_wait_in_read(child.pid, data_pipe[0], SECOND_READ),
	       "the read that slept across detach + attach came back with its 5 bytes");
	if (write(data_pipe[1], "world!", 6) != 6)
		tap_bail("cannot wake the child");
	tap_ok(st_child_wait(&child) == 0,
	       "and the second read got its 6 bytes");
	st_disable(&s2);
	st_drain(&s2, st_collect_reads, &seen);
	st_session_close(&s2);

	tap_ok(seen.n == 1,
	       "the second attachment recorded 1 read, not the one that entered under the first (%d records)",
	       seen.n);
	tap_ok(seen.n >= 1 && seen.ret[0] == 6 && seen.count[0] == SECOND_READ,
	       "its record is the second read (ret %lld, count %llu)",
	       seen.n ? seen.ret[0] : 0, seen.n ? seen.count[0] : 0);

	st_tracefs_write("events/fprobes/" KEEP "/enable", "0\n", false);
	err = st_tracefs_write("dynamic_events", "-:fprobes/" KEEP "\n", true);
	st_write_file(ST_ATTACH_PARAM, restore, false);
	tap_ok(!err && !st_probes_on("vfs_read"),
	       "the fprobe event removed (%s), nothing left attached to vfs_read",
	       err ? strerror(err) : "done");
	return tap_finish();
}
