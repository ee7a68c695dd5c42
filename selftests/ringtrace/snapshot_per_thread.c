// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat --snapshot --per-thread -t TID,TID: the flight
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
 *
 * Then the same with --raw -o PREFIX: snapshot 2 is the file
 * PREFIX.2 (raw format version 3, a thread chunk per ring), whose replay
 * (-i PREFIX.2 --json -v) prints the same reads, names each ring "thread
 * TID", and counts as many records as the tool said the file kept.
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

/* What a snapshot's reads hold, checked against the workload. */
struct verdict {
	long long	kept[NR_SELECTED];
	long long	next[NR_SELECTED];
	long long	bad_cpu, foreign, gaps, disorder;
};

static void check_reads(const struct st_snap_read *reads, size_t nr,
			pid_t pid, const pid_t *tids, long long fit,
			struct verdict *v)
{
	memset(v, 0, sizeof(*v));
	for (int t = 0; t < NR_SELECTED; t++)
		v->next[t] = CALLS - fit;
	for (size_t i = 0; i < nr; i++) {
		const struct st_snap_read *r = &reads[i];
		long long idx = r->pos >> ST_TAG_SHIFT;
		long long seq = r->pos & 0xffffffffLL;

		if (i && r->ts_ns < reads[i - 1].ts_ns)
			v->disorder++;
		if (r->pid != pid || idx < 0 || idx >= NR_SELECTED ||
		    r->tid != tids[idx]) {
			v->foreign++;
			continue;
		}
		if (seq != v->next[idx])
			v->gaps++;
		v->next[idx] = seq + 1;
		v->kept[idx]++;
		if (r->cpu != cpu_of((int)idx, (int)seq))
			v->bad_cpu++;
	}
}

static bool all_kept(const struct verdict *v, long long fit)
{
	return v->kept[0] == fit && v->kept[1] == fit && !v->gaps &&
	       !v->foreign && v->next[0] == CALLS && v->next[1] == CALLS;
}

/* The vfs_read lines of a --json replay; *@others counts the rest. */
static struct st_snap_read *replay_reads(const char *file, size_t *nr,
					 long long *others)
{
	static struct st_snap_read reads[4096];
	char line[4096];
	FILE *f = fopen(file, "r");

	*nr = 0;
	*others = 0;
	if (!f)
		return reads;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "\"type\":\"vfs_read\"") ||
		    *nr == sizeof(reads) / sizeof(reads[0])) {
			++*others;
			continue;
		}
		reads[*nr] = (struct st_snap_read){
			.ts_ns = st_json_field(line, "\"ts_ns\":"),
			.cpu = st_json_field(line, "\"cpu\":"),
			.pid = st_json_field(line, "\"pid\":"),
			.tid = st_json_field(line, "\"tid\":"),
			.pos = st_json_field(line, "\"pos\":"),
		};
		++*nr;
	}
	fclose(f);
	return reads;
}

/*
 * --raw -o PREFIX on a fresh workload: snapshot 2 (after the reads) is
 * PREFIX.2; replayed, it must hold what snapshot 2 printed above.
 */
static void raw_snapshots(const char *dir, long long fit)
{
	char prefix[96], file[112], err[96], replay[96], replay_err[96],
	     arg_tids[64], needle[160], row[32];
	pid_t tids[ST_MAX_THREADS], cat;
	struct st_child child;
	struct st_snap_read *reads;
	struct verdict v;
	long long others, said, counted;
	size_t nr;
	int status, rc;
	bool one, two;

	snprintf(prefix, sizeof(prefix), "%s/snap", dir);
	snprintf(file, sizeof(file), "%s.2", prefix);
	snprintf(err, sizeof(err), "%s/raw.err", dir);
	snprintf(replay, sizeof(replay), "%s/replay.json", dir);
	snprintf(replay_err, sizeof(replay_err), "%s/replay.err", dir);
	st_threads_start(&child, NR_WORKERS, worker, main_thread, NULL, tids);
	snprintf(arg_tids, sizeof(arg_tids), "%d,%d", tids[0], tids[1]);
	cat = st_cat_start((const char *const[]){ "--snapshot", "--raw",
		"--per-thread", "-t", arg_tids, "--buffer-size", "4K",
		"-o", prefix, NULL }, err);
	snprintf(needle, sizeof(needle), "snapshot 1: %s.1 (", prefix);
	one = !kill(cat, SIGUSR2) && st_file_wait(err, needle);
	st_child_go(&child);
	rc = st_child_wait(&child);
	snprintf(needle, sizeof(needle), "snapshot 2: %s (", file);
	two = rc == 0 && st_snapshot_signal_from_other(cat) &&
	      st_file_wait(err, needle);
	kill(cat, SIGTERM);
	waitpid(cat, &status, 0);
	tap_ok(one && two && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "--raw -o PREFIX: SIGUSR2 writes PREFIX.1, then PREFIX.2 after the reads (workload %d, status %#x)",
	       rc, status);
	said = st_file_number_after(err, needle);

	status = st_cat_run((const char *const[]){ "-i", file, "--json", "-v",
		"-o", replay, NULL }, replay_err);
	reads = replay_reads(replay, &nr, &others);
	check_reads(reads, nr, child.pid, tids, fit, &v);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	       all_kept(&v, fit) && !others && !v.disorder && !v.bad_cpu,
	       "-i PREFIX.2: each selected thread's newest %lld reads, in a row, ending with its last, in time order, each on its CPU; %lld gaps, %lld foreign, %lld other lines, %lld out of order, %lld on a wrong CPU (status %#x)",
	       fit, v.gaps, v.foreign, others, v.disorder, v.bad_cpu, status);
	counted = st_cat_summary_records(replay_err);
	snprintf(row, sizeof(row), "thread %d ", tids[0]);
	one = st_file_wait(replay_err, row);
	snprintf(row, sizeof(row), "thread %d ", tids[1]);
	tap_ok(said == NR_SELECTED * fit && counted == said &&
	       (long long)nr == said && one && st_file_wait(replay_err, row),
	       "the tool said PREFIX.2 kept %lld records; its replay counts %lld and prints %lld, a 'thread TID' row per ring",
	       said, counted, (long long)nr);
	unlink(file);
	snprintf(file, sizeof(file), "%s.1", prefix);
	unlink(file);
	unlink(err);
	unlink(replay);
	unlink(replay_err);
}

int main(void)
{
	char dir[] = "/tmp/rt_snapthr_XXXXXX", out[96], err[96], arg_tids[64];
	long long fit = (long long)sysconf(_SC_PAGESIZE) /
			(long long)st_cat_read_size();
	struct verdict v;
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
	tap_plan(10);
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
	check_reads(s2.reads, s2.nr_reads, child.pid, tids, fit, &v);
	tap_ok(all_kept(&v, fit) && !s2.others,
	       "snapshot 2: each selected thread's newest %lld reads (a page holds %lld), in a row, ending with its last; %lld gaps, %lld foreign, %lld other lines",
	       v.kept[0] < v.kept[1] ? v.kept[0] : v.kept[1], fit, v.gaps,
	       v.foreign, s2.others);
	tap_ok(!v.disorder && !v.bad_cpu,
	       "in time order (%lld out of order), each read stamped with the CPU its thread ran on, before and after its move (%lld wrong)",
	       v.disorder, v.bad_cpu);
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

	raw_snapshots(dir, fit);
	rmdir(dir);
	return tap_finish();
}
