// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's own ring read by ringtrace's reader, merged with ringtrace's
 * rings. ringtrace-cat --sample traces a workload that alternates reads
 * and CPU bursts: its cpu-clock samples, its vfs_read records and counter
 * snapshots come out in one JSON stream with non-decreasing timestamps,
 * interleaved, all of the workload's pid. Then losses: a one-page perf
 * ring left unread while a child burns CPU overflows, and once there is
 * room again the kernel's LOST record comes through the same cursor and
 * decoder as a {"type":"lost",...,"source":"perf"} event, its count
 * matching the kernel's own (PERF_FORMAT_LOST); and ringtrace-cat, its
 * output stalled, reports perf's losses in its stream and summary.
 *
 * Also a workload: `perf_samples --work N` and
 * `--burn MS [DONE-FILE [GO-FILE]]`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ringtrace/merge.h"
#include "ringtrace/output.h"
#include "ringtrace/perf_ring.h"
#include "st_util.h"
#include "tap.h"

#define CAT		"../../user/ringtrace-cat"
#define WORK_ROUNDS	30


/* Reads and CPU bursts, alternating: both kinds of record, interleaved. */
static int work(int rounds)
{
	char buf[512];
	int fd = open("/proc/self/exe", O_RDONLY);

	if (fd < 0)
		return 2;
	for (int i = 0; i < rounds; i++) {
		if (read(fd, buf, sizeof(buf)) != sizeof(buf))
			return 3;
		st_burn_cpu(10);
	}
	close(fd);
	return 0;
}

/* Run @argv with stdout to a pipe; returns the read end. */
static int spawn(char *const argv[], pid_t *pid, const char *err)
{
	int p[2];

	if (pipe(p))
		tap_bail("pipe: %s", strerror(errno));
	*pid = fork();
	if (*pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (*pid == 0) {
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (e < 0 || dup2(p[1], 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		close(p[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	/* A small pipe: a reader that stops reading blocks the writer soon. */
	fcntl(p[0], F_SETPIPE_SZ, 4096);
	return p[0];
}

/* Everything from @fd until EOF, into a growing buffer. */
static char *drain(int fd, size_t *len)
{
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	ssize_t n;

	*len = 0;
	while (buf && (n = read(fd, buf + *len, cap - *len - 1)) > 0) {
		*len += (size_t)n;
		if (cap - *len < 4096) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	close(fd);
	if (buf)
		buf[*len] = '\0';
	return buf;
}

static int finish(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *slurp(const char *path)
{
	size_t len;
	int fd = open(path, O_RDONLY);

	return fd < 0 ? strdup("") : drain(fd, &len);
}

static unsigned long long field(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

static void test_one_stream(const char *self)
{
	char rounds[16];
	char *argv[] = { CAT, "--json", "--sample", "cpu-clock:1000",
			 "--counters", "task-clock", "--interval", "50", "--",
			 (char *)self, "--work", rounds, NULL };
	const char *err = "/tmp/rt-perf-samples.err";
	unsigned long long last = 0, pid = 0;
	int samples = 0, reads = 0, counters = 0, lines = 0, backwards = 0;
	int other_pid = 0, switches = 0, prev_kind = -1, rc;
	char *out, *line, *save = NULL, *summary;
	size_t len;
	pid_t cat;

	snprintf(rounds, sizeof(rounds), "%d", WORK_ROUNDS);
	out = drain(spawn(argv, &cat, err), &len);
	rc = finish(cat);
	summary = slurp(err);
	tap_ok(rc == 0, "ringtrace-cat --sample cpu-clock:1000 --counters "
	       "task-clock --interval 50 -- workload: exit %d", rc);
	if (rc)
		tap_diag("stderr: %s", summary);

	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), lines++) {
		unsigned long long ts = field(line, "\"ts_ns\":");
		int kind = -1;

		if (ts < last) {
			if (backwards++ < 3)
				tap_diag("went back %llu ns at: %s", last - ts, line);
		}
		last = ts;
		if (strstr(line, "\"type\":\"sample\"")) {
			samples++;
			kind = 0;
		} else if (strstr(line, "\"type\":\"vfs_read\"")) {
			reads++;
			kind = 1;
		} else if (strstr(line, "\"type\":\"counters\"")) {
			counters++;
			continue;
		}
		if (kind >= 0) {
			unsigned long long p = field(line, "\"pid\":");

			if (!pid)
				pid = p;
			other_pid += p != pid;
			switches += prev_kind >= 0 && kind != prev_kind;
			prev_kind = kind;
		}
	}
	tap_diag("%d lines: %d samples, %d vfs_read, %d counters", lines,
		 samples, reads, counters);
	/*
	 * Counter snapshots come every 50 ms of wall time: how many fit in
	 * the workload depends on the emulator's speed (2 on arm64 under a
	 * quiet TCG, 3 or more on x86-64), so only "more than the final
	 * one" is asserted, no wall-clock rate.
	 */
	tap_ok(samples >= 20 && reads >= WORK_ROUNDS && counters >= 2,
	       "samples, vfs_read records and counters in one stream");
	tap_ok(backwards == 0 && lines > 0,
	       "timestamps never decrease over %d records (%d went back)",
	       lines, backwards);
	tap_ok(switches >= 10, "samples and reads interleave (%d switches)",
	       switches);
	tap_ok(other_pid == 0, "every sample and read is the workload's (%llu)",
	       pid);
	tap_ok(strstr(summary, "perf cpu-clock at 1000 Hz: ") != NULL,
	       "the summary counts the samples");
	free(out);
	free(summary);
	unlink(err);
}

/*
 * Pinned: a per-task event has one ring per CPU, and a loss is reported in
 * the ring that lost, by the next sample written there. A child that
 * migrated after the drain would leave it unreported.
 */
static int burn_child(void *arg)
{
	if (!st_pin(0))
		return 5;
	return st_burn_cpu((long)(intptr_t)arg);
}

struct lost_seen {
	unsigned int	samples;
	unsigned int	lost_records;
	uint64_t	lost;
	char		json[256];
};

static int collect(void *arg, struct rt_source *src,
		   const struct rt_record *rec, uint64_t ts)
{
	struct lost_seen *s = arg;
	struct rt_outbuf ob;
	struct rt_event ev;

	(void)ts;
	if (rt_source_decode(src, rec, &ev) != RT_DECODE_OK)
		return 0;
	if (ev.kind == RT_EVENT_SAMPLE)
		s->samples++;
	if (ev.kind != RT_EVENT_LOST)
		return 0;
	s->lost_records++;
	s->lost += ev.u.lost.count;
	/* Printed by the printer ringtrace's LOST records go through. */
	if (!s->json[0] && !rt_outbuf_init(&ob, -1, 0)) {
		rt_print_json(&ob, &ev);
		/* Without the newline, for the TAP line. */
		snprintf(s->json, sizeof(s->json), "%.*s",
			 (int)(ob.len ? ob.len - 1 : 0), ob.buf);
		rt_outbuf_fini(&ob);
	}
	return 0;
}

static void test_lost_library(void)
{
	struct rt_perf_sample_spec spec;
	struct rt_perf_sampler ps;
	struct rt_merge m;
	struct rt_merge_result res;
	struct rt_cpuset cpus;
	struct st_child child;
	struct lost_seen seen;
	struct rt_perf_target t = { .cpus = &cpus };
	char err[256];
	int64_t kernel;
	int rc, i;

	memset(&seen, 0, sizeof(seen));
	if (rt_cpuset_online(&cpus, err, sizeof(err)) ||
	    rt_perf_sample_parse("cpu-clock:1000", &spec, err, sizeof(err)))
		tap_bail("%s", err);
	spec.buffer_bytes = (uint64_t)sysconf(_SC_PAGESIZE);	/* one page */
	st_child_start(&child, burn_child, (void *)(intptr_t)1200);
	t.tids = &child.pid;
	t.nr_tids = 1;
	t.pid = child.pid;
	if (rt_perf_sampler_open(&ps, &spec, &t, (size_t)sysconf(_SC_PAGESIZE)))
		tap_bail("%s", ps.errmsg);
	if (rt_merge_init(&m, ps.srcs, ps.nr_rings, 0))
		tap_bail("out of memory");
	rt_perf_sampler_enable(&ps);
	st_child_go(&child);

	/*
	 * Leave the ring unread until the kernel has dropped samples. How
	 * long that takes depends on how much CPU the child gets (a fixed
	 * 600 ms once saw no drop on a loaded host), so ask the kernel
	 * (PERF_FORMAT_LOST, 6.0+); the bound (30 s) is for liveness only.
	 */
	for (i = 0; (kernel = rt_perf_sampler_lost(&ps)) == 0 && i < 6000; i++)
		usleep(5000);
	if (kernel < 0)
		usleep(600000);	/* no PERF_FORMAT_LOST: the old way */
	rt_merge_round(&m, 0, true, collect, &seen, &res);
	/*
	 * ...and once there is room, the next sample brings a LOST record.
	 * Take it as soon as it is there, well before the ring (about 100
	 * samples) can fill again, so that every drop has been reported.
	 */
	for (i = 0; !seen.lost_records && i < 2000; i++) {
		usleep(5000);
		rt_merge_round(&m, 0, true, collect, &seen, &res);
	}
	rt_perf_sampler_disable(&ps);
	rt_merge_round(&m, 0, true, collect, &seen, &res);
	kernel = rt_perf_sampler_lost(&ps);
	rc = st_child_wait(&child);
	tap_diag("%u samples read, %u LOST records for %llu samples, the kernel "
		 "counted %lld", seen.samples, seen.lost_records,
		 (unsigned long long)seen.lost, (long long)kernel);
	tap_ok(rc == 0 && res.error == 0 && seen.lost_records > 0 &&
	       seen.lost > 0, "a one-page perf ring left unread reports LOST "
	       "records through the common cursor");
	tap_ok(kernel >= 0 && (uint64_t)kernel >= seen.lost &&
	       (uint64_t)kernel - seen.lost <= 2 * ps.nr_rings,
	       "their counts match the kernel's PERF_FORMAT_LOST (%lld vs %llu)",
	       (long long)kernel, (unsigned long long)seen.lost);
	tap_ok(!strncmp(seen.json, "{\"type\":\"lost\",\"ts_ns\":", 23) &&
	       strstr(seen.json, "\"source\":\"perf\"}"),
	       "printed like ringtrace's LOST: %s", seen.json);
	rt_merge_fini(&m);
	rt_perf_sampler_close(&ps);
}

static void test_lost_ringtrace_cat(const char *self)
{
	const char *done = "/tmp/rt-perf-samples.done";
	const char *go = "/tmp/rt-perf-samples.go";
	char *argv[] = { CAT, "--json", "--sample", "cpu-clock:1000",
			 "--sample-buffer", "4K", "--", (char *)self,
			 "--burn", "1500", (char *)done, (char *)go, NULL };
	const char *err = "/tmp/rt-perf-samples.err";
	char *out, *summary, *line;
	size_t len;
	pid_t cat;
	int fd, rc, lines = 0;

	unlink(done);
	unlink(go);
	fd = spawn(argv, &cat, err);
	/*
	 * Stall: ringtrace-cat blocks on the full 4 KiB pipe after a few
	 * dozen lines, and its one-page perf ring (about 100 samples) cannot
	 * hold the 1500 samples of the burn. Wait for the burn to be over (it
	 * says so with a file), not for some time: under load, time says
	 * nothing about how much CPU the burn got. The bound only keeps a
	 * broken run from hanging.
	 */
	for (int i = 0; i < 12000 && access(done, F_OK); i++)
		usleep(10000);
	/* Unstall, and let the child sample on so perf emits its LOST. */
	close(open(go, O_WRONLY | O_CREAT | O_TRUNC, 0600));
	out = drain(fd, &len);
	unlink(done);
	unlink(go);
	rc = finish(cat);
	summary = slurp(err);
	for (char *p = out; (p = strstr(p, "\"source\":\"perf\"")); p++)
		lines++;
	line = strstr(summary, "perf cpu-clock");
	if (!line)
		line = summary;
	tap_diag("stream: %zu bytes, %d perf LOST records; %.*s", len, lines,
		 (int)strcspn(line, "\n"), line);
	tap_ok(rc == 0 && lines > 0 && strstr(out, "{\"type\":\"lost\"") &&
	       !strstr(summary, " 0 lost\n"),
	       "ringtrace-cat with a stalled output: perf losses in the stream "
	       "and the summary");
	free(out);
	free(summary);
	unlink(err);
}

/* "comm;frame;frame COUNT": no empty frame, no space before the count. */
static bool folded_line(const char *line, unsigned long long *count)
{
	const char *sp = strrchr(line, ' ');
	char *end;

	if (!sp || sp == line || strstr(line, ";;") || line[0] == ';' ||
	    memchr(line, ' ', (size_t)(sp - line)))
		return false;
	*count = strtoull(sp + 1, &end, 10);
	return *count > 0 && *end == '\0';
}

static void test_folded(const char *self)
{
	char *argv[] = { CAT, "--sample", "cpu-clock:1000", "-g", "--folded",
			 "-o", "/tmp/rt-folded.txt", "--", (char *)self,
			 "--work", "20", NULL };
	const char *err = "/tmp/rt-perf-samples.err";
	unsigned long long total = 0, count, samples = 0;
	char *out, *summary, *line, *save = NULL, *p;
	int rc, lines = 0, bad = 0, named = 0;
	size_t len;
	pid_t cat;

	free(drain(spawn(argv, &cat, err), &len));
	rc = finish(cat);
	summary = slurp(err);
	out = slurp("/tmp/rt-folded.txt");
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), lines++) {
		if (!folded_line(line, &count)) {
			if (bad++ < 3)
				tap_diag("malformed: %s", line);
			continue;
		}
		total += count;
		/* A kernel frame named by kallsyms, not a hex address. */
		p = strstr(line, "_[k]");
		while (p && p > line && p[-1] != ';')
			p--;
		named += p && strncmp(p, "0x", 2);
	}
	p = strstr(summary, " Hz: ");
	if (p)
		samples = strtoull(p + 5, NULL, 10);
	tap_diag("%d folded stacks, %llu samples in them, %llu taken, %d with "
		 "named kernel frames", lines, total, samples, named);
	tap_ok(rc == 0 && lines > 0 && !bad && total == samples && named > 0,
	       "--folded -g: well-formed stacks whose counts add up to the "
	       "samples, kernel frames named");
	free(out);
	free(summary);
	unlink(err);
	unlink("/tmp/rt-folded.txt");
}

int main(int argc, char **argv)
{
	char *self;

	if (argc == 3 && !strcmp(argv[1], "--work"))
		return work(atoi(argv[2]));
	if (argc >= 3 && argc <= 5 && !strcmp(argv[1], "--burn")) {
		/* see burn_child(); then say it is over in argv[3] */
		int rc = st_pin(0) ? st_burn_cpu(atol(argv[2])) : 5;

		if (argc >= 4)
			close(open(argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0600));
		/*
		 * Once argv[4] exists (the reader is draining again), burn on:
		 * perf writes its LOST record with the first sample that finds
		 * room, so losses reach the stream only if samples follow.
		 */
		if (argc == 5 && !rc) {
			for (int i = 0; i < 12000 && access(argv[4], F_OK); i++)
				usleep(10000);
			rc = st_burn_cpu(500);
		}
		return rc;
	}

	self = realpath(argv[0], NULL);
	tap_plan(11);
	test_one_stream(self);
	test_lost_library();
	test_lost_ringtrace_cat(self);
	test_folded(self);
	free(self);
	return tap_finish();
}
