// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat --snapshot --per-thread -t TID,TID (issue 9): the flight
 * recorder on per-thread rings. A child process has three worker threads
 * and selects two (the tool gets their ids); every thread, the main one
 * included, makes CALLS preads whose offsets carry its index and a
 * sequence number, at the same time. Worker i runs on CPU i, and moves to
 * the other CPU for its last MOVED reads. The rings are one page each, so
 * each keeps only the newest FIT reads of its thread. After an empty
 * first snapshot (tracing is on) and the workers' exit, SIGUSR2 from
 * another process asks for snapshot 2: it must hold, for each selected
 * thread, exactly its FIT newest reads, consecutive, ending with its last
 * one, stamped with its tid and with the CPU it ran on (both CPUs, in
 * order), merged in time order; nothing from the third worker, the main
 * thread or anyone else. Its header must count 2 * FIT records and as
 * overwritten everything else the kernel wrote (the tool's summary gives
 * the kernel's totals). SIGTERM then ends the tool with status 0 and no
 * snapshot at exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_snapshot.h"
#include "st_util.h"
#include "tap.h"

#define NR_WORKERS	3	/* workers 0 and 1 selected, 2 not */
#define NR_SELECTED	2
#define CALLS		2000
#define MOVED		20	/* last reads, on the other CPU */
#define MAIN_IDX	7	/* the child's main thread's reads */

static int nr_cpus;

/* The CPU worker @idx runs read @seq on. */
static int cpu_of(int idx, int seq)
{
	return (idx + (seq >= CALLS - MOVED)) % nr_cpus;
}

static int read_loop(int idx, bool pin)
{
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		return 3;
	for (int i = 0; i < CALLS; i++) {
		if (pin && (i == 0 || i == CALLS - MOVED) &&
		    !st_pin(cpu_of(idx, i)))
			return 2;
		if (!st_tagged_read(fd, (unsigned int)idx, (unsigned int)i))
			return 4;
	}
	close(fd);
	return 0;
}

static int worker(int idx, void *arg)
{
	(void)arg;
	return read_loop(idx, true);
}

static int main_thread(void *arg)
{
	(void)arg;
	return read_loop(MAIN_IDX, false);
}

/* "the kernel wrote X records, overwrote Y, lost Z" in the tool's summary. */
static bool kernel_totals(const char *file, long long *wrote,
			  long long *overwrote, long long *lost)
{
	char line[512];
	const char *p;
	bool found = false;
	FILE *f = fopen(file, "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "the kernel wrote ");
		if (p && sscanf(p, "the kernel wrote %lld records, overwrote %lld, lost %lld",
				wrote, overwrote, lost) == 3)
			found = true;
	}
	fclose(f);
	return found;
}

int main(void)
{
	char dir[] = "/tmp/rt_snapthr_XXXXXX", out[96], err[96], arg_tids[64];
	long long fit = (long long)sysconf(_SC_PAGESIZE) /
			(long long)st_cat_read_size();
	long long kept[NR_SELECTED] = { 0 }, next[NR_SELECTED], bad_cpu = 0;
	long long foreign = 0, gaps = 0, disorder = 0;
	long long wrote = -1, overwrote = -1, lost = -1;
	struct st_snap s1, s2;
	struct st_child child;
	pid_t tids[ST_MAX_THREADS], cat;
	int status, rc, last;
	bool totals;

	nr_cpus = st_online_cpus();
	if (nr_cpus < 2)
		tap_skip_all("needs at least 2 online CPUs");
	if (access(ST_CAT, X_OK))
		tap_skip_all("%s not built (make -C user)", ST_CAT);
	st_require_features(RINGTRACE_FEAT_PER_THREAD, "per-thread rings");
	tap_plan(7);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp: %s", strerror(errno));
	snprintf(out, sizeof(out), "%s/snap.json", dir);
	snprintf(err, sizeof(err), "%s/stderr", dir);
	st_threads_start(&child, NR_WORKERS, worker, main_thread, NULL, tids);
	snprintf(arg_tids, sizeof(arg_tids), "%d,%d", tids[0], tids[1]);
	cat = st_cat_start((const char *const[]){ "--snapshot", "--json",
		"--per-thread", "-t", arg_tids, "--buffer-size", "4K",
		"-o", out, NULL }, err);
	tap_ok(st_snapshot_ask(cat, out, 1),
	       "a first SIGUSR2 gives a snapshot (tracing is on)");

	st_child_go(&child);
	rc = st_child_wait(&child);
	tap_ok(rc == 0 && st_snapshot_signal_from_other(cat) &&
	       st_snapshot_wait(out, 2),
	       "%d threads made %d reads each (exit %d); another process's SIGUSR2 gives snapshot 2",
	       NR_WORKERS + 1, CALLS, rc);
	kill(cat, SIGTERM);
	waitpid(cat, &status, 0);
	last = st_snap_read(out, 1, &s1);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && last == 2,
	       "SIGTERM ends the tool cleanly (status %#x), no snapshot at exit (last is %d)",
	       status, last);

	tap_ok(s1.ended && s1.records == 0 && s1.nr_reads == 0 && !s1.others,
	       "snapshot 1 is empty (%lld records)", s1.records);

	st_snap_read(out, 2, &s2);
	for (int t = 0; t < NR_SELECTED; t++)
		next[t] = CALLS - fit;
	for (size_t i = 0; i < s2.nr_reads; i++) {
		const struct st_snap_read *r = &s2.reads[i];
		long long idx = r->pos >> ST_TAG_SHIFT;
		long long seq = r->pos & 0xffffffffLL;

		if (i && r->ts_ns < s2.reads[i - 1].ts_ns)
			disorder++;
		if (r->pid != child.pid || idx < 0 || idx >= NR_SELECTED ||
		    r->tid != tids[idx]) {
			foreign++;
			continue;
		}
		if (seq != next[idx])
			gaps++;
		next[idx] = seq + 1;
		kept[idx]++;
		if (r->cpu != cpu_of((int)idx, (int)seq))
			bad_cpu++;
	}
	tap_ok(kept[0] == fit && kept[1] == fit && !gaps && !foreign &&
	       !s2.others && next[0] == CALLS && next[1] == CALLS,
	       "snapshot 2: each selected thread's newest %lld reads (a page holds %lld), in a row, ending with its last; %lld gaps, %lld foreign, %lld other lines",
	       kept[0] < kept[1] ? kept[0] : kept[1], fit, gaps, foreign,
	       s2.others);
	tap_ok(!disorder && !bad_cpu,
	       "in time order (%lld out of order), each read stamped with the CPU its thread ran on, before and after its move (%lld wrong)",
	       disorder, bad_cpu);
	totals = kernel_totals(err, &wrote, &overwrote, &lost);
	tap_ok(totals && s2.records == NR_SELECTED * fit &&
	       s2.overwritten == overwrote && wrote - overwrote == s2.records &&
	       lost == 0 && s2.busy_rings == 0,
	       "its header: %lld records, %lld overwritten; the kernel wrote %lld, overwrote %lld, lost %lld",
	       s2.records, s2.overwritten, wrote, overwrote, lost);
	st_snap_free(&s1);
	st_snap_free(&s2);
	unlink(out);
	unlink(err);
	rmdir(dir);
	return tap_finish();
}
