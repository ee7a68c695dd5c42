// SPDX-License-Identifier: GPL-2.0-only
/*
 * The views of a two-cgroup recording: ringtrace-cat --cgroup
 * A --cgroup B --raw records this program run as its COMMAND, which forks
 * one reader into A (N reads) and one into B (2N reads); replayed, the
 * raw file gives --hist-by cgroup one histogram per cgroup with exactly
 * those counts, --summary a CGROUP column with them, --json the cgroup
 * path on every record of each, and --perfetto the process names with
 * their cgroup. Then off-CPU: ringtrace-cat --cgroup A -e vfs_read,offcpu
 * with a reader-sleeper in each cgroup: A's sleeps are offcpu records
 * named A in --json, text and --hist-by cgroup; none of B's is recorded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_cgroup.h"
#include "st_util.h"
#include "tap.h"

#define N	20
#define ZSIZE	24
#define CAT	"../../user/ringtrace-cat"
#define CG_A	RT_CGROUP_ROOT "/rt_st_views_a"
#define CG_B	RT_CGROUP_ROOT "/rt_st_views_b"
#define SLEEPS	5

/* A read that names the cgroup (before 6.15), then SLEEPS 10 ms sleeps. */
static int sleeper(void)
{
	struct timespec req = { 0, 10000000L };
	int i;

	if (st_zero_reads(1, ZSIZE))
		return 20;
	for (i = 0; i < SLEEPS; i++)
		if (nanosleep(&req, NULL))
			return 21;
	return 0;
}

/*
 * The COMMAND: a reader (@sleep: a sleeper) in each cgroup, which moves
 * itself there first.
 */
static int work(bool sleep)
{
	const char *cg[2] = { CG_A, CG_B };
	int w, status, failed = 0;
	pid_t pid[2];

	for (w = 0; w < 2; w++) {
		pid[w] = fork();
		if (!pid[w]) {
			char file[128], me[16];

			snprintf(file, sizeof(file), "%s/cgroup.procs", cg[w]);
			snprintf(me, sizeof(me), "%d", getpid());
			if (st_write_file(file, me, false))
				_exit(10);
			if (sleep)
				_exit(sleeper());
			_exit(st_zero_reads((w + 1) * N, ZSIZE) ? 20 : 0);
		}
	}
	for (w = 0; w < 2; w++)
		failed |= waitpid(pid[w], &status, 0) != pid[w] ||
			  !WIFEXITED(status) || WEXITSTATUS(status);
	return failed;
}

/* Run @cmd; its standard output in @out (NUL-terminated); exit status. */
static int run(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	int status;

	if (!p)
		tap_bail("popen: %s", strerror(errno));
	while (n < len - 1 && !feof(p))
		n += fread(out + n, 1, len - 1 - n, p);
	out[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The "count N," line of the histogram "@[cgroup PATH]" in @out; -1. */
static long hist_count(const char *out, const char *path)
{
	char head[128];
	const char *p;
	long n;

	snprintf(head, sizeof(head), "@[cgroup %s]\n", path);
	p = strstr(out, head);
	if (!p || !(p = strstr(p, "  count ")) || sscanf(p, "  count %ld,", &n) != 1)
		return -1;
	return n;
}

/*
 * CALLS of the --summary row for @path's cgroup and /dev/zero (on
 * PREEMPT_RT named relative to its mount: "[0:5]/zero"); -1.
 */
static long summary_calls(const char *out, const char *path)
{
	const char *line = out;
	char comm[32], cg[128], file[128];
	unsigned long pid;
	long calls;

	for (; line && *line; line = strchr(line, '\n'), line += !!line) {
		if (sscanf(line, "%31s %lu %ld %*s %*s %*s %*s %*s %127s %127s",
			   comm, &pid, &calls, cg, file) == 5 &&
		    !strcmp(cg, path) && strlen(file) >= 5 &&
		    !strcmp(file + strlen(file) - 5, "/zero"))
			return calls;
	}
	return -1;
}

static long count_lines(const char *out, const char *needle)
{
	long n = 0;

	for (const char *p = out; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* Lines of @out that hold both @a and @b. */
static long count_lines_with(const char *out, const char *a, const char *b)
{
	const char *line, *end;
	long n = 0;

	for (line = out; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		n += memmem(line, end - line, a, strlen(a)) &&
		     memmem(line, end - line, b, strlen(b));
	}
	return n;
}

int main(int argc, char **argv)
{
	static char out[1 << 20];
	char dir[] = "/tmp/rt_cgviews_XXXXXX", cmd[1024];
	int rc;

	if (argc > 1 && !strcmp(argv[1], "--work"))
		return work(false);
	if (argc > 1 && !strcmp(argv[1], "--sleep"))
		return work(true);
	st_require_features(RINGTRACE_FEAT_CGROUP, "cgroup views");
	st_cgroup_mount();
	tap_plan(10);
	st_cgroup_make(CG_A);
	st_cgroup_make(CG_B);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp: %s", strerror(errno));

	snprintf(cmd, sizeof(cmd), CAT " -q --cgroup rt_st_views_a --cgroup "
		 "%s --raw -o %s/rec.raw -- %s --work", CG_B, dir, argv[0]);
	rc = run(cmd, out, sizeof(out));
	tap_ok(rc == 0, "ringtrace-cat --cgroup A --cgroup B --raw -- workload "
	       "(exit %d)", rc);

	snprintf(cmd, sizeof(cmd), CAT " -q -i %s/rec.raw --hist-by cgroup",
		 dir);
	rc = run(cmd, out, sizeof(out));
	tap_ok(rc == 0 && hist_count(out, "/rt_st_views_a") == N &&
	       hist_count(out, "/rt_st_views_b") == 2 * N &&
	       count_lines(out, "@[cgroup ") == 2,
	       "--hist-by cgroup: A's %d and B's %d, no other (%ld, %ld, %ld)",
	       N, 2 * N, hist_count(out, "/rt_st_views_a"),
	       hist_count(out, "/rt_st_views_b"), count_lines(out, "@[cgroup "));

	snprintf(cmd, sizeof(cmd), CAT " -q -i %s/rec.raw --summary", dir);
	rc = run(cmd, out, sizeof(out));
	tap_ok(rc == 0 && strstr(out, "CGROUP") &&
	       summary_calls(out, "/rt_st_views_a") == N &&
	       summary_calls(out, "/rt_st_views_b") == 2 * N,
	       "--summary: a CGROUP column, A's row %ld calls, B's %ld",
	       summary_calls(out, "/rt_st_views_a"),
	       summary_calls(out, "/rt_st_views_b"));

	snprintf(cmd, sizeof(cmd), CAT " -q -i %s/rec.raw --json", dir);
	rc = run(cmd, out, sizeof(out));
	tap_ok(rc == 0 &&
	       count_lines(out, "\"cgroup\":\"/rt_st_views_a\"") == N &&
	       count_lines(out, "\"cgroup\":\"/rt_st_views_b\"") == 2 * N &&
	       count_lines(out, "\"host_pid\":") == 3 * N,
	       "--json replay: \"cgroup\" on each record (%ld, %ld), host_pid "
	       "(%ld)", count_lines(out, "\"cgroup\":\"/rt_st_views_a\""),
	       count_lines(out, "\"cgroup\":\"/rt_st_views_b\""),
	       count_lines(out, "\"host_pid\":"));

	snprintf(cmd, sizeof(cmd), CAT " -q -i %s/rec.raw", dir);
	rc = run(cmd, out, sizeof(out));
	tap_ok(rc == 0 && count_lines(out, " cgroup=/rt_st_views_a") == N &&
	       count_lines(out, " cgroup=/rt_st_views_b") == 2 * N,
	       "text replay: cgroup= on each record (%ld, %ld)",
	       count_lines(out, " cgroup=/rt_st_views_a"),
	       count_lines(out, " cgroup=/rt_st_views_b"));

	snprintf(cmd, sizeof(cmd), CAT " -q -i %s/rec.raw --perfetto %s/p.json "
		 "&& cat %s/p.json", dir, dir, dir);
	rc = run(cmd, out, sizeof(out));
	tap_ok(rc == 0 && count_lines(out, "(cgroup /rt_st_views_a)") == 1 &&
	       count_lines(out, "(cgroup /rt_st_views_b)") == 1,
	       "--perfetto: each process named with its cgroup (%ld, %ld)",
	       count_lines(out, "(cgroup /rt_st_views_a)"),
	       count_lines(out, "(cgroup /rt_st_views_b)"));

	/* cgroups on off-CPU records: A's sleeps, named; none of B's. */
	snprintf(cmd, sizeof(cmd), CAT " -q --cgroup rt_st_views_a -e "
		 "vfs_read,offcpu --raw -o %s/off.raw -- %s --sleep", dir,
		 argv[0]);
	rc = run(cmd, out, sizeof(out));
	snprintf(cmd, sizeof(cmd), CAT " -q -i %s/off.raw --json", dir);
	rc |= run(cmd, out, sizeof(out));
	{
		long a = count_lines_with(out, "\"type\":\"offcpu\"",
					  "\"cgroup\":\"/rt_st_views_a\"");
		long all = count_lines(out, "\"type\":\"offcpu\"");
		long ids = count_lines_with(out, "\"type\":\"offcpu\"",
					    "\"cgroup_id\":");

		tap_ok(rc == 0 && a >= SLEEPS && ids == all &&
		       !count_lines(out, "rt_st_views_b"),
		       "--cgroup A -e vfs_read,offcpu, --json: A's sleeps named "
		       "A (%ld >= %d), every offcpu line with a cgroup_id "
		       "(%ld of %ld), nothing of B", a, SLEEPS, ids, all);
	}
	snprintf(cmd, sizeof(cmd), CAT " -q -i %s/off.raw -e offcpu", dir);
	rc = run(cmd, out, sizeof(out));
	tap_ok(rc == 0 && count_lines_with(out, " offcpu: ",
					   " cgroup=/rt_st_views_a") >= SLEEPS,
	       "text: offcpu lines say cgroup=/rt_st_views_a (%ld)",
	       count_lines_with(out, " offcpu: ", " cgroup=/rt_st_views_a"));
	snprintf(cmd, sizeof(cmd), CAT " -q -i %s/off.raw -e offcpu "
		 "--hist-by cgroup", dir);
	rc = run(cmd, out, sizeof(out));
	tap_ok(rc == 0 && hist_count(out, "/rt_st_views_a") >= SLEEPS &&
	       count_lines(out, "@[cgroup ") == 1 &&
	       strstr(out, "@[cgroup /rt_st_views_a]\n off CPU\n"),
	       "--hist-by cgroup: A's off-CPU histogram (%ld), no other key",
	       hist_count(out, "/rt_st_views_a"));

	/* Replay on a host without those cgroups: the file names them. */
	rmdir(CG_A);
	rmdir(CG_B);
	snprintf(cmd, sizeof(cmd), CAT " -q -i %s/rec.raw --hist-by cgroup",
		 dir);
	rc = run(cmd, out, sizeof(out));
	tap_ok(rc == 0 && hist_count(out, "/rt_st_views_a") == N,
	       "the raw file keeps the names once the cgroups are gone (%ld)",
	       hist_count(out, "/rt_st_views_a"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		tap_diag("could not remove %s", dir);
	return tap_finish();
}
