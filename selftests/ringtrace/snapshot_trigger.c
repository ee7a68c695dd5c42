// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat --snapshot --trigger: one slow read among 100 000 fast
 * ones gives exactly one dump, holding that read and every read before
 * it. The flight recorder runs on a process pinned to CPU 0, with rings
 * large enough for all of its reads. The process reads /dev/zero 100 000
 * times (pread, the offsets are sequence numbers), then a pipe whose
 * writer sleeps 300ms first: the slow read; then 10 more fast reads and a
 * second slow pipe read. The trigger is 'lat > 100ms && path ~ "pipe:*"'
 * (a fast read of the pipe or a slow one of /dev/zero never matches),
 * with --post 60s: the second slow read, inside the dump's --post time,
 * is part of it and dumps nothing, and SIGTERM after the process exited
 * closes the dump with what the rings hold then (no wall-clock race).
 * The dump must be one file PREFIX.YYYYMMDD-HHMMSS.NNNNNNNNN (besides
 * PREFIX.1, the SIGUSR2 snapshot that says tracing is on), and replayed it
 * must hold the 100 000 reads in order, then the slow read, then the 10
 * reads and the second slow read after it; the tool must have checked
 * every record of the process, and say it made one dump.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_snapshot.h"
#include "st_util.h"
#include "tap.h"

#define NR_FAST		100000
#define NR_AFTER	10

/* Write one byte to @fd after @ms, in a child (the pipe's slow writer). */
static int slow_writer(int fd, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		_exit(write(fd, "x", 1) == 1 ? 0 : 1);
	}
	return 0;
}

static int app(void *arg)
{
	char buf[64];
	int fd = open("/dev/zero", O_RDONLY), p[2];

	(void)arg;
	if (fd < 0 || !st_pin(0) || pipe(p))
		return 2;
	for (long i = 0; i < NR_FAST; i++)
		if (pread(fd, buf, 1, i) != 1)
			return 1;
	if (slow_writer(p[1], 300) || read(p[0], buf, 1) != 1)
		return 3;
	for (long i = NR_FAST; i < NR_FAST + NR_AFTER; i++)
		if (pread(fd, buf, 1, i) != 1)
			return 1;
	if (slow_writer(p[1], 300) || read(p[0], buf, 1) != 1)
		return 3;
	while (wait(NULL) > 0)
		;
	return 0;
}

/* The dumps named by time in @dir: their count, the last one's path. */
static int timed_dumps(const char *dir, char *path, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		unsigned int date, time;
		char dot;

		/* trig.YYYYMMDD-HHMMSS.NNNNNNNNN */
		if (sscanf(e->d_name, "trig.%8u-%6u%c", &date, &time, &dot) != 3 ||
		    dot != '.' || strlen(e->d_name) != strlen("trig.") + 25)
			continue;
		n++;
		snprintf(path, len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	return n;
}

int main(void)
{
	char dir[] = "/tmp/rt_trigger_XXXXXX", prefix[96], err[96], json[96];
	char arg_pid[16], dump[512] = "", line[4096];
	long long fast = 0, after = 0, slow = 0, others = 0, disorder = 0;
	long long expect = 0, checked;
	struct st_child child;
	int status, rc, n;
	pid_t cat;
	FILE *f;

	tap_plan(7);
	if (access(ST_CAT, X_OK))
		tap_skip_all("%s not built (make -C user)", ST_CAT);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp: %s", strerror(errno));
	snprintf(prefix, sizeof(prefix), "%s/trig", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	snprintf(json, sizeof(json), "%s/dump.json", dir);
	st_child_start(&child, app, NULL);
	snprintf(arg_pid, sizeof(arg_pid), "%d", child.pid);
	cat = st_cat_start((const char *const[]){ "--snapshot", "--raw",
		"-p", arg_pid, "--buffer-size", "16M",
		"--trigger", "lat > 100ms && path ~ \"pipe:*\"",
		"--post", "60s", "-o", prefix, NULL }, err);
	kill(cat, SIGUSR2);
	tap_ok(st_file_wait(err, "snapshot 1: "),
	       "a first SIGUSR2 gives snapshot 1 (tracing is on)");

	st_child_go(&child);
	rc = st_child_wait(&child);
	kill(cat, SIGTERM);
	waitpid(cat, &status, 0);
	tap_ok(rc == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the app's reads done (exit %d); SIGTERM ends the tool cleanly (status %#x)",
	       rc, status);

	n = timed_dumps(dir, dump, sizeof(dump));
	tap_ok(n == 1, "exactly one dump named by its trigger's time (%d): %s",
	       n, dump);
	tap_ok(n == 1 && st_file_wait(err, dump) &&
	       st_file_number_after(err, "--trigger: ") >= 0 &&
	       st_file_wait(err, " 1 dump") &&
	       st_file_wait(err, ": vfs_read by "),
	       "standard error names the trigger's record and the file, and one dump");
	/* The tool checked each record of the process: every read. */
	expect = NR_FAST + NR_AFTER + 2;
	checked = st_file_number_after(err, "--trigger: ");
	tap_ok(checked == expect, "%lld records checked (the app made %lld reads)",
	       checked, expect);

	status = n == 1 ? st_cat_run((const char *const[]){ "-q", "-i", dump,
		"--json", "-o", json, NULL }, NULL) : -1;
	f = status == 0 ? fopen(json, "r") : NULL;
	while (f && fgets(line, sizeof(line), f)) {
		long long pos = st_json_field(line, "\"pos\":");

		if (!strstr(line, "\"type\":\"vfs_read\"") ||
		    st_json_field(line, "\"pid\":") != child.pid) {
			others++;
		} else if (strstr(line, "\"path\":\"pipe:")) {
			if (st_json_field(line, "\"lat_ns\":") < 100000000 ||
			    fast != NR_FAST || (slow == 1 && after != NR_AFTER))
				disorder++;
			slow++;
		} else if (!slow) {
			disorder += pos != fast;
			fast++;
		} else {
			disorder += pos != NR_FAST + after;
			after++;
		}
	}
	if (f)
		fclose(f);
	tap_ok(fast == NR_FAST && slow >= 1 && disorder == 0,
	       "the dump holds the %lld reads before the slow one, in order, then it (%lld fast, %lld slow, %lld out of place)",
	       (long long)NR_FAST, fast, slow, disorder);
	tap_ok(after == NR_AFTER && slow == 2 && others == 0,
	       "and the --post records: the %d reads and the second slow one, which dumped nothing (%lld after, %lld slow, %lld other lines)",
	       NR_AFTER, after, slow, others);
	/* What the tool said, for a failure's diagnosis. */
	f = tap.failed ? fopen(err, "r") : NULL;
	while (f && fgets(line, sizeof(line), f))
		tap_diag("%s", strtok(line, "\n") ? line : "");
	if (f)
		fclose(f);
	unlink(json);
	unlink(err);
	if (dump[0])
		unlink(dump);
	snprintf(line, sizeof(line), "%s.1", prefix);
	unlink(line);
	rmdir(dir);
	return tap_finish();
}
