// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat --per-thread with --raw and --sample. A child
 * process has two worker threads, both selected with -t; worker i makes
 * READS(i) preads whose offsets carry its index and a sequence number,
 * then spins for BURN_MS of its own CPU time; the child's main thread,
 * not selected, makes MAIN_READS reads meanwhile. Each run waits for the
 * tool's first --stats line (tracing is on) before the threads go.
 *
 *  1. live: --per-thread -t A,B --json --sample cpu-clock: each worker's
 *     reads exactly, in order, none of the main thread's; samples of
 *     both workers and of no other thread.
 *  2. raw: the same with --raw -g -o FILE: the file is raw format
 *     version 3 (per-thread chunks), and -i FILE --json -v prints the same
 *     reads per thread as the live run, samples of both workers (with
 *     call chains) and of no other thread, names each ring "thread TID",
 *     and counts the same records as the live run's summary.
 *  3. counters: --counters task-clock --interval 20ms counts each worker
 *     alone, a counter snapshot per worker and interval (pid=TID), none of
 *     another thread, live with --json; with --raw -o FILE, -i FILE prints
 *     as many counter snapshots as the recording run's summary counted,
 *     and its own summary says the same, each of a worker; the summary's
 *     table is titled with the threads.
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
#include <time.h>
#include <unistd.h>

#include "st_snapshot.h"
#include "st_util.h"
#include "tap.h"

#define NR_WORKERS	2
#define READS(i)	(300 + 200 * (i))
#define MAIN_READS	150
#define MAIN_IDX	7
#define BURN_MS		150	/* each worker's CPU time, sampled */

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int worker(int idx, void *arg)
{
	volatile unsigned long spin = 0;
	uint64_t until;
	int ret;

	(void)arg;
	ret = st_tagged_reads((unsigned int)idx, READS(idx));
	until = thread_cpu_ns() + BURN_MS * 1000000ull;
	while (thread_cpu_ns() < until)
		for (int i = 0; i < 10000; i++)
			spin++;
	return ret;
}

static int main_thread(void *arg)
{
	(void)arg;
	return st_tagged_reads(MAIN_IDX, MAIN_READS);
}

/* Whether @file holds @needle (NUL-free text files). */
static bool file_has(const char *file, const char *needle)
{
	char line[4096];
	bool found = false;
	FILE *f = fopen(file, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, needle) != NULL;
	fclose(f);
	return found;
}

/* Run the tool with @args, stderr to @err; wait for it when @wait. */
static pid_t run_cat(const char *const *args, const char *err, bool wait,
		     int *status)
{
	const char *argv[32] = { ST_CAT };
	int n = 1, fd;
	pid_t pid;

	while (args[n - 1] && n < 31) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (!pid) {
		fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(126);
		execv(ST_CAT, (char *const *)argv);
		_exit(127);
	}
	if (wait && waitpid(pid, status, 0) != pid)
		tap_bail("waitpid: %s", strerror(errno));
	return pid;
}

/* A traced run of a fresh workload with the tool's @args; its status. */
static int traced_run(const char *const *args, const char *err,
		      pid_t *child_pid, pid_t *tids, char *tid_arg,
		      size_t tid_len, int *child_rc)
{
	const char *full[32];
	struct st_child child;
	int n = 0, status = -1;
	pid_t cat;

	st_threads_start(&child, NR_WORKERS, worker, main_thread, NULL, tids);
	snprintf(tid_arg, tid_len, "%d,%d", tids[0], tids[1]);
	full[n++] = "--per-thread";
	full[n++] = "-t";
	full[n++] = tid_arg;
	full[n++] = "--stats";
	full[n++] = "20ms";
	for (int i = 0; args[i] && n < 31; i++)
		full[n++] = args[i];
	full[n] = NULL;
	/* A previous run's stderr must not pass for this one's --stats. */
	unlink(err);
	cat = run_cat(full, err, false, NULL);
	/* Its first --stats line: the session is enabled. */
	for (int i = 0; i < 6000 && !file_has(err, "s] "); i++) {
		if (waitpid(cat, &status, WNOHANG) == cat) {
			st_child_go(&child);
			st_child_wait(&child);
			return status;
		}
		usleep(10000);
	}
	st_child_go(&child);
	*child_rc = st_child_wait(&child);
	*child_pid = child.pid;
	kill(cat, SIGINT);
	waitpid(cat, &status, 0);
	return status;
}

struct counts {
	long long	reads[NR_WORKERS];
	long long	samples[NR_WORKERS];
	long long	counters[NR_WORKERS];	/* counter snapshots */
	long long	counters_foreign;	/* of no worker */
	long long	chains;		/* samples with a "callchain" */
	long long	foreign;	/* reads or samples of another thread */
	long long	gaps;		/* a worker's reads not in sequence */
};

/* JSON field @key's integer in @line; -1 if absent. */
static long long field(const char *line, const char *key)
{
	char k[32];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\":", key);
	p = strstr(line, k);
	return p ? strtoll(p + strlen(k), NULL, 10) : -1;
}

static void count_json(const char *file, pid_t pid, const pid_t *tids,
		       struct counts *c)
{
	char line[65536];
	long long next[NR_WORKERS] = { 0 };
	FILE *f = fopen(file, "r");

	memset(c, 0, sizeof(*c));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		bool read = !strncmp(line, "{\"type\":\"vfs_read\"", 18);
		bool sample = !strncmp(line, "{\"type\":\"sample\"", 16);
		bool counters = !strncmp(line, "{\"type\":\"counters\"", 18);
		long long tid = field(line, "tid"), pos = field(line, "pos");
		int w;

		if (counters) {
			/* A row per thread: "pid" is the thread's id. */
			for (w = 0; w < NR_WORKERS &&
				    field(line, "pid") != tids[w]; w++)
				;
			if (w == NR_WORKERS)
				c->counters_foreign++;
			else
				c->counters[w]++;
			continue;
		}
		if (!read && !sample)
			continue;
		for (w = 0; w < NR_WORKERS && tid != tids[w]; w++)
			;
		if (w == NR_WORKERS || field(line, "pid") != pid) {
			c->foreign++;
			continue;
		}
		if (sample) {
			c->samples[w]++;
			c->chains += strstr(line, "\"callchain\"") != NULL;
			continue;
		}
		if (pos >> ST_TAG_SHIFT != w || (pos & 0xffffffffLL) != next[w])
			c->gaps++;
		next[w] = (pos & 0xffffffffLL) + 1;
		c->reads[w]++;
	}
	fclose(f);
}

static bool exact_reads(const struct counts *c)
{
	for (int w = 0; w < NR_WORKERS; w++)
		if (c->reads[w] != READS(w))
			return false;
	return !c->gaps;
}

int main(void)
{
	char dir[] = "/tmp/rt_thrraw_XXXXXX", live[96], live_err[96],
	     raw[96], raw_err[96], replay[96], replay_err[96], hdr[96],
	     tid_arg[64], row[64];
	pid_t tids[NR_WORKERS], pid = 0;
	struct counts lc, rc;
	int status, child_rc = -1;
	long long live_n, replay_n;

	if (access(ST_CAT, X_OK))
		tap_skip_all("%s not built (make -C user)", ST_CAT);
	st_require_features(RINGTRACE_FEAT_PER_THREAD, "per-thread rings");
	tap_plan(10);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp: %s", strerror(errno));
	snprintf(live, sizeof(live), "%s/live.json", dir);
	snprintf(live_err, sizeof(live_err), "%s/live.err", dir);
	snprintf(raw, sizeof(raw), "%s/t.raw", dir);
	snprintf(raw_err, sizeof(raw_err), "%s/raw.err", dir);
	snprintf(replay, sizeof(replay), "%s/replay.json", dir);
	snprintf(replay_err, sizeof(replay_err), "%s/replay.err", dir);
	snprintf(hdr, sizeof(hdr), "%s/header", dir);

	/* 1. live */
	status = traced_run((const char *const[]){ "--json", "--sample",
		"cpu-clock:999", "-o", live, NULL }, live_err, &pid, tids,
		tid_arg, sizeof(tid_arg), &child_rc);
	count_json(live, pid, tids, &lc);
	live_n = st_cat_summary_records(live_err);
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status) && !child_rc &&
	       exact_reads(&lc) && !lc.foreign,
	       "live --per-thread -t %s --sample: %lld and %lld reads (wanted %d and %d), %lld out of sequence, %lld of other threads (status %#x, workload %d)",
	       tid_arg, lc.reads[0], lc.reads[1], READS(0), READS(1), lc.gaps,
	       lc.foreign, status, child_rc);
	tap_ok(lc.samples[0] && lc.samples[1],
	       "live: samples of both threads (%lld, %lld)", lc.samples[0],
	       lc.samples[1]);
	if (!exact_reads(&lc))
		tap_diag("live stderr: %s", live_err);

	/* 2. raw, then replayed */
	status = traced_run((const char *const[]){ "--raw", "--sample",
		"cpu-clock:999", "-g", "-o", raw, NULL }, raw_err, &pid, tids,
		tid_arg, sizeof(tid_arg), &child_rc);
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status) && !child_rc,
	       "--per-thread -t %s --raw --sample -g -o FILE (status %#x, workload %d)",
	       tid_arg, status, child_rc);
	run_cat((const char *const[]){ "-i", raw, "--header", "-o", hdr,
		NULL }, replay_err, true, &status);
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status) &&
	       file_has(hdr, "format version: 3"),
	       "the file is raw format version 3 (status %#x)", status);
	run_cat((const char *const[]){ "-i", raw, "--json", "-v", "-o",
		replay, NULL }, replay_err, true, &status);
	count_json(replay, pid, tids, &rc);
	replay_n = st_cat_summary_records(replay_err);
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status) && exact_reads(&rc) &&
	       !rc.foreign && replay_n == live_n && live_n >= READS(0) + READS(1),
	       "-i FILE: %lld and %lld reads as live, %lld out of sequence, %lld of other threads; %lld records, live %lld (status %#x)",
	       rc.reads[0], rc.reads[1], rc.gaps, rc.foreign, replay_n, live_n,
	       status);
	tap_ok(rc.samples[0] && rc.samples[1] &&
	       rc.chains == rc.samples[0] + rc.samples[1],
	       "-i FILE: samples of both threads (%lld, %lld), each with its call chain (%lld)",
	       rc.samples[0], rc.samples[1], rc.chains);
	snprintf(row, sizeof(row), "thread %d ", tids[0]);
	tap_ok(file_has(replay_err, row) &&
	       (snprintf(row, sizeof(row), "thread %d ", tids[1]),
		file_has(replay_err, row)),
	       "-i FILE -v: a row per thread ring");

	/* 3. counters, live then raw and replayed */
	status = traced_run((const char *const[]){ "--json", "--counters",
		"task-clock", "--interval", "20ms", "-o", live, NULL }, live_err,
		&pid, tids, tid_arg, sizeof(tid_arg), &child_rc);
	count_json(live, pid, tids, &lc);
	snprintf(row, sizeof(row), "thread id '%d,%d'", tids[0], tids[1]);
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status) && !child_rc &&
	       exact_reads(&lc) && lc.counters[0] && lc.counters[1] &&
	       !lc.counters_foreign && file_has(live_err, row),
	       "live --per-thread -t %s --counters --interval: %lld and %lld counter snapshots of the workers, %lld of no worker; reads exact; the table is for %s (status %#x, workload %d)",
	       tid_arg, lc.counters[0], lc.counters[1], lc.counters_foreign,
	       row, status, child_rc);
	if (!lc.counters[0] || !file_has(live_err, row))
		tap_diag("live stderr: %s", live_err);
	status = traced_run((const char *const[]){ "--raw", "--counters",
		"task-clock", "--interval", "20ms", "-o", raw, NULL }, raw_err,
		&pid, tids, tid_arg, sizeof(tid_arg), &child_rc);
	live_n = st_cat_summary_count(raw_err, "counter snapshot");
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status) && !child_rc &&
	       live_n > 0,
	       "--per-thread -t %s --raw --counters -o FILE: %lld counter snapshots (status %#x, workload %d)",
	       tid_arg, live_n, status, child_rc);
	run_cat((const char *const[]){ "-i", raw, "--json", "-o", replay,
		NULL }, replay_err, true, &status);
	count_json(replay, pid, tids, &rc);
	replay_n = st_cat_summary_count(replay_err, "counter snapshot");
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status) && exact_reads(&rc) &&
	       rc.counters[0] && rc.counters[1] && !rc.counters_foreign &&
	       replay_n == live_n &&
	       rc.counters[0] + rc.counters[1] == live_n,
	       "-i FILE: %lld + %lld counter snapshots of the workers printed, %lld of no worker; its summary %lld, the recording's %lld; reads exact (status %#x)",
	       rc.counters[0], rc.counters[1], rc.counters_foreign, replay_n,
	       live_n, status);

	unlink(live);
	unlink(live_err);
	unlink(raw);
	unlink(raw_err);
	unlink(replay);
	unlink(replay_err);
	unlink(hdr);
	rmdir(dir);
	return tap_finish();
}
