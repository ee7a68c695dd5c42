// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat --snapshot --snapshot-size: the bound on what
 * one snapshot prints. The tool traces a process with rings large enough
 * that nothing is overwritten, bounded to KEEP and a half records' bytes
 * (record sizes as in the ring). A first SIGUSR2 gives an empty snapshot
 * (tracing is on); the process then makes NR_READS preads whose offsets
 * are sequence numbers, and SIGUSR2 asks for snapshot 2: it must print
 * exactly the KEEP newest reads, consecutive, ending with the last one,
 * and nothing else; its header must say KEEP records, NR_READS - KEEP
 * older not shown, 0 overwritten. A third SIGUSR2 with nothing new gives
 * an empty snapshot: what a bound left out is not shown later. SIGTERM
 * then ends the tool with status 0 and no snapshot at exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_snapshot.h"
#include "st_util.h"
#include "tap.h"

#define NR_READS	300	/* 300 records of 112 bytes: far below 64K */
#define KEEP		10

static int app(void *arg)
{
	char buf[64];
	int fd = open("/dev/zero", O_RDONLY);

	(void)arg;
	if (fd < 0)
		return 2;
	for (long i = 0; i < NR_READS; i++)
		if (pread(fd, buf, 1 + i % 64, i) != 1 + i % 64)
			return 1;
	return 0;
}

int main(void)
{
	char dir[] = "/tmp/rt_snapsize_XXXXXX", out[96], arg_pid[16], size[32];
	struct st_snap s1, s2, s3;
	struct st_child child;
	long long gaps = 0, foreign = 0;
	int status, rc, last;
	pid_t cat;

	tap_plan(8);
	if (access(ST_CAT, X_OK))
		tap_skip_all("%s not built (make -C user)", ST_CAT);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp: %s", strerror(errno));
	snprintf(out, sizeof(out), "%s/snap.json", dir);
	/* KEEP and a half records: the bound keeps whole records only. */
	snprintf(size, sizeof(size), "%zu",
		 KEEP * st_cat_read_size() + st_cat_read_size() / 2);
	st_child_start(&child, app, NULL);
	snprintf(arg_pid, sizeof(arg_pid), "%d", child.pid);
	cat = st_cat_start((const char *const[]){ "--snapshot", "--json", "-q",
		"-p", arg_pid, "--buffer-size", "64K", "--snapshot-size", size,
		"-o", out, NULL }, NULL);
	tap_ok(st_snapshot_ask(cat, out, 1),
	       "a first SIGUSR2 gives a snapshot (tracing is on)");

	st_child_go(&child);
	rc = st_child_wait(&child);
	tap_ok(rc == 0 && st_snapshot_ask(cat, out, 2),
	       "the app's %d reads done (exit %d); SIGUSR2 gives snapshot 2",
	       NR_READS, rc);
	tap_ok(st_snapshot_ask(cat, out, 3), "a third SIGUSR2 gives snapshot 3");
	kill(cat, SIGTERM);
	waitpid(cat, &status, 0);
	last = st_snap_read(out, 1, &s1);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && last == 3,
	       "SIGTERM ends the tool cleanly (status %#x), no snapshot at exit (last is %d)",
	       status, last);

	tap_ok(s1.ended && s1.records == 0 && s1.nr_reads == 0 && !s1.others,
	       "snapshot 1 is empty (%lld records)", s1.records);

	st_snap_read(out, 2, &s2);
	for (size_t i = 0; i < s2.nr_reads; i++) {
		if (s2.reads[i].pid != child.pid)
			foreign++;
		if (i && s2.reads[i].pos != s2.reads[i - 1].pos + 1)
			gaps++;
	}
	tap_ok(s2.ended && s2.nr_reads == KEEP && !gaps && !foreign &&
	       !s2.others && s2.reads[KEEP - 1].pos == NR_READS - 1,
	       "snapshot 2 (--snapshot-size %s): the newest %zu reads (%d expected), in a row, ending at %lld; %lld foreign, %lld other lines",
	       size, s2.nr_reads, KEEP,
	       s2.nr_reads ? s2.reads[s2.nr_reads - 1].pos : -1LL, foreign,
	       s2.others);
	tap_ok(s2.records == KEEP && s2.not_shown == NR_READS - KEEP &&
	       s2.overwritten == 0 && s2.busy_rings == 0,
	       "its header: %lld records, %lld older not shown (%d expected), %lld overwritten, %lld busy rings",
	       s2.records, s2.not_shown, NR_READS - KEEP, s2.overwritten,
	       s2.busy_rings);

	st_snap_read(out, 3, &s3);
	tap_ok(s3.ended && s3.records == 0 && s3.not_shown == 0 &&
	       s3.nr_reads == 0 && !s3.others,
	       "snapshot 3 is empty: the %d reads left out are not shown later (%lld records, %lld not shown)",
	       NR_READS - KEEP, s3.records, s3.not_shown);
	st_snap_free(&s1);
	st_snap_free(&s2);
	st_snap_free(&s3);
	unlink(out);
	rmdir(dir);
	return tap_finish();
}
