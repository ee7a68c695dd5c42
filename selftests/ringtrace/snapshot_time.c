// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat --snapshot --snapshot-time: a snapshot prints
 * only the records of the last DURATION before it is taken. The traced
 * process makes NR_OLD preads (offsets 0, 1, ...), sleeps GAP_S seconds
 * (no read), then makes NR_NEW preads (offsets NEW_BASE, NEW_BASE + 1,
 * ...) and exits; the tool runs with --snapshot-time WINDOW_S, shorter
 * than the gap, in rings where nothing is overwritten. Once the process
 * has exited, SIGUSR2 and SIGTERM are sent back to back: the SIGUSR2 came
 * before the stop, so snapshot 2 is still printed, and it is the last.
 * It must hold exactly the NR_NEW new reads, in a row, and none of the old
 * ones (they are at least GAP_S old whenever the snapshot is taken, so
 * this holds however slow the machine); its header must say NR_NEW
 * records, NR_OLD older not shown, 0 overwritten. The new reads are in
 * the window as long as the snapshot is taken within WINDOW_S of them
 * (a machine that cannot fails check 5, and a diagnostic says how late the
 * snapshot was).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_snapshot.h"
#include "st_util.h"
#include "tap.h"

#define NR_OLD		100
#define NR_NEW		50
#define NEW_BASE	1000
#define GAP_S		5
#define WINDOW_S	"4s"	/* < GAP_S */

/* @arg: a shared page; the time the new reads start goes there. */
static int app(void *arg)
{
	struct timespec gap = { .tv_sec = GAP_S };
	uint64_t *new_start = arg;
	char buf[64];
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		return 2;
	for (long i = 0; i < NR_OLD; i++)
		if (pread(fd, buf, sizeof(buf), i) != sizeof(buf))
			return 1;
	/* Never short: an interrupted sleep goes on until the gap is over. */
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &gap, &gap) == EINTR)
		;
	*new_start = st_now_ns();
	for (long i = 0; i < NR_NEW; i++)
		if (pread(fd, buf, sizeof(buf), NEW_BASE + i) != sizeof(buf))
			return 1;
	return 0;
}

int main(void)
{
	char dir[] = "/tmp/rt_snaptime_XXXXXX", out[96], arg_pid[16];
	struct st_snap s1, s2;
	struct st_child child;
	long long gaps = 0, foreign = 0, old = 0;
	uint64_t *new_start;
	int status, rc, last;
	pid_t cat;

	tap_plan(6);
	if (access(ST_CAT, X_OK))
		tap_skip_all("%s not built (make -C user)", ST_CAT);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp: %s", strerror(errno));
	snprintf(out, sizeof(out), "%s/snap.json", dir);
	new_start = mmap(NULL, sizeof(*new_start), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (new_start == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	*new_start = 0;
	st_child_start(&child, app, new_start);
	snprintf(arg_pid, sizeof(arg_pid), "%d", child.pid);
	cat = st_cat_start((const char *const[]){ "--snapshot", "--json", "-q",
		"-p", arg_pid, "--buffer-size", "64K", "--snapshot-time",
		WINDOW_S, "-o", out, NULL }, NULL);
	tap_ok(st_snapshot_ask(cat, out, 1),
	       "a first SIGUSR2 gives a snapshot (tracing is on)");

	st_child_go(&child);
	rc = st_child_wait(&child);
	kill(cat, SIGUSR2);
	kill(cat, SIGTERM);
	waitpid(cat, &status, 0);
	last = st_snap_read(out, 2, &s2);
	tap_ok(rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	       s2.ended && last == 2,
	       "reads done (exit %d); SIGUSR2 then SIGTERM: snapshot 2 printed, the last (%d), status %#x",
	       rc, last, status);

	st_snap_read(out, 1, &s1);
	tap_ok(s1.ended && s1.records == 0 && s1.nr_reads == 0 && !s1.others,
	       "snapshot 1 is empty (%lld records)", s1.records);

	for (size_t i = 0; i < s2.nr_reads; i++) {
		if (s2.reads[i].pid != child.pid)
			foreign++;
		else if (s2.reads[i].pos < NEW_BASE)
			old++;
		if (i && s2.reads[i].pos != s2.reads[i - 1].pos + 1)
			gaps++;
	}
	tap_ok(!old, "snapshot 2 (--snapshot-time %s): none of the %d reads made %d s earlier (%lld shown)",
	       WINDOW_S, NR_OLD, GAP_S, old);
	if (!tap_ok(s2.nr_reads == NR_NEW && !gaps && !foreign && !s2.others &&
		    s2.reads[0].pos == NEW_BASE &&
		    s2.reads[NR_NEW - 1].pos == NEW_BASE + NR_NEW - 1,
		    "snapshot 2: the %zu new reads (%d expected), in a row, from %d; %lld foreign, %lld other lines",
		    s2.nr_reads, NR_NEW, NEW_BASE, foreign, s2.others))
		/* Not a check: why the window may have missed them. */
		tap_diag("snapshot taken %.3f s after the new reads started (window %s)",
			 ((double)s2.ts_ns - (double)*new_start) / 1e9,
			 WINDOW_S);
	tap_ok(s2.records == NR_NEW && s2.not_shown == NR_OLD &&
	       s2.overwritten == 0 && s2.busy_rings == 0,
	       "its header: %lld records, %lld older not shown (%d expected), %lld overwritten, %lld busy rings",
	       s2.records, s2.not_shown, NR_OLD, s2.overwritten, s2.busy_rings);
	st_snap_free(&s1);
	st_snap_free(&s2);
	unlink(out);
	rmdir(dir);
	return tap_finish();
}
