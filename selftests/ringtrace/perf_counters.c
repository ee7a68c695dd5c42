// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf_event_open() counters beside ringtrace, against workloads with
 * known costs: a child that touches N fresh pages takes at least N page
 * faults; a child that burns CPU has a task-clock within a few percent of
 * its own CPU clock and of what wait4() reports; hardware counters are
 * <not supported> with a reason in this VM (no PMU) while the software
 * ones count; and ringtrace-cat --counters prints the same in its
 * perf-stat-like summary and in its JSON stream, exiting 0.
 *
 * Also a workload: `perf_counters --touch N` and `--burn MS`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ringtrace/perf_counters.h"
#include "st_util.h"
#include "tap.h"

#define PAGES		2000
#define BURN_MS		300
#define CAT		"../../user/ringtrace-cat"

static long page_size;

static int touch(long pages)
{
	char *p = mmap(NULL, (size_t)(pages * page_size), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 2;
	/* One fault per page: no transparent huge page may cover them. */
	madvise(p, (size_t)(pages * page_size), MADV_NOHUGEPAGE);
	for (long i = 0; i < pages; i++)
		p[i * page_size] = 1;
	return 0;
}


static int touch_child(void *arg)
{
	return touch((long)(intptr_t)arg);
}

/* Burns, then reports its own CPU clock through the pipe in @arg. */
static int burn_child(void *arg)
{
	int fd = (int)(intptr_t)arg;
	uint64_t t;

	st_burn_cpu(BURN_MS);
	t = st_cputime_ns();
	return write(fd, &t, sizeof(t)) == sizeof(t) ? 0 : 3;
}

static void open_counters(struct rt_counters *cs, const char *list, pid_t pid)
{
	struct rt_perf_target t = { .tids = &pid, .nr_tids = 1, .pid = pid };
	char err[512];

	if (rt_counters_parse(cs, list, err, sizeof(err)))
		tap_bail("%s", err);
	if (rt_counters_open(cs, &t))
		tap_bail("%s", cs->errmsg);
	rt_counters_enable(cs, st_now_ns());
}

static uint64_t value(const struct rt_counters *cs, const char *name)
{
	int i = rt_counters_find(cs, name);

	return i >= 0 && cs->sum[i].status == RT_COUNTER_OK ? cs->sum[i].value : 0;
}

static void test_page_faults(void)
{
	struct rt_counters cs;
	struct st_child child;
	uint64_t faults, minor;
	int rc;

	st_child_start(&child, touch_child, (void *)(intptr_t)PAGES);
	open_counters(&cs, "page-faults,minor-faults", child.pid);
	st_child_go(&child);
	rc = st_child_wait(&child);
	rt_counters_read(&cs, st_now_ns());
	faults = value(&cs, "page-faults");
	minor = value(&cs, "minor-faults");
	tap_ok(rc == 0 && faults >= PAGES && faults < PAGES + 2000,
	       "page-faults of a child touching %d fresh pages: %llu (>= %d)",
	       PAGES, (unsigned long long)faults, PAGES);
	tap_ok(minor >= PAGES, "minor-faults: %llu", (unsigned long long)minor);
	rt_counters_close(&cs);
}

static void test_task_clock(void)
{
	struct rt_counters cs;
	struct st_child child;
	struct rusage ru;
	uint64_t clk, self = 0, rusage_ns;
	int p[2], status, ok;

	if (pipe(p))
		tap_bail("pipe: %s", strerror(errno));
	st_child_start(&child, burn_child, (void *)(intptr_t)p[1]);
	close(p[1]);
	open_counters(&cs, "task-clock,context-switches", child.pid);
	st_child_go(&child);
	ok = read(p[0], &self, sizeof(self)) == sizeof(self);
	close(p[0]);
	if (child.go_fd >= 0)
		close(child.go_fd);
	if (wait4(child.pid, &status, 0, &ru) != child.pid)
		tap_bail("wait4: %s", strerror(errno));
	rt_counters_read(&cs, st_now_ns());
	clk = value(&cs, "task-clock");
	rusage_ns = ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) *
		    1000000000ull + ((uint64_t)ru.ru_utime.tv_usec +
				     (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
	tap_diag("task-clock %.3f ms, the child's CPU clock %.3f ms, "
		 "wait4 %.3f ms", clk / 1e6, self / 1e6, rusage_ns / 1e6);
	/*
	 * Same clock (the scheduler's). The child's own clock also counts
	 * what it ran before the counters were enabled (its start, the
	 * gate), and task-clock also counts its exit path; an emulated
	 * debug kernel on a loaded host stretches either to tens of ms
	 * (7.2 under load: over +5 ms in 3 of 4 runs; 7.2-debug: 25 ms
	 * below the child's clock).
	 */
	tap_ok(ok && clk + 50000000 >= self * 95 / 100 &&
	       clk <= self + self / 10 + 50000000,
	       "task-clock within -5%%/+10%% (+-50 ms) of the child's own CPU clock");
	/* Tick-sampled utime/stime: a looser bound. */
	tap_ok(clk + 20000000 >= rusage_ns * 80 / 100 &&
	       clk <= rusage_ns * 120 / 100 + 20000000,
	       "task-clock within 20%% (+20 ms) of wait4()'s CPU time");
	rt_counters_close(&cs);
}

static void test_hardware(void)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads",
		"LLC-load-misses",
	};
	struct rt_counters cs;
	struct st_child child;
	int unsupported = 0, explained = 0, rc;

	st_child_start(&child, touch_child, (void *)(intptr_t)100);
	open_counters(&cs, "default", child.pid);
	st_child_go(&child);
	rc = st_child_wait(&child);
	rt_counters_read(&cs, st_now_ns());
	for (size_t i = 0; i < sizeof(hw) / sizeof(hw[0]); i++) {
		int k = rt_counters_find(&cs, hw[i]);

		if (k < 0 || cs.sum[k].status != RT_COUNTER_NOT_SUPPORTED)
			continue;
		unsupported++;
		explained += strstr(cs.c[k].reason, "ENOENT") != NULL;
		if (i == 0)
			tap_diag("cycles: <not supported> (%s)", cs.c[k].reason);
	}
	if (getenv("RINGTRACE_VM"))
		tap_ok(unsupported == 8 && explained == 8,
		       "in the VM all 8 hardware counters are <not supported> "
		       "with ENOENT and a reason (%d, %d)", unsupported, explained);
	else
		tap_skip("not in the VM: this machine may have a PMU");
	tap_ok(rc == 0 && value(&cs, "task-clock") > 0 &&
	       value(&cs, "page-faults") >= 100,
	       "software counters still count beside them (task-clock %llu, "
	       "page-faults %llu)", (unsigned long long)value(&cs, "task-clock"),
	       (unsigned long long)value(&cs, "page-faults"));
	rt_counters_close(&cs);
}

/* Run @argv with stdout and stderr to files; its exit status. */
static int run(char *const argv[], const char *out, const char *err)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *slurp(const char *path)
{
	static char buf[1 << 20];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* "             2,123      page-faults" -> 2123 */
static long long summary_value(const char *text, const char *name)
{
	char key[64];
	const char *p, *line;
	long long v = 0;

	snprintf(key, sizeof(key), "      %s ", name);
	p = strstr(text, key);
	if (!p)
		return -1;
	for (line = p; line > text && line[-1] != '\n'; line--)
		;
	for (; line < p; line++)
		if (*line >= '0' && *line <= '9')
			v = v * 10 + (*line - '0');
		else if (*line == '.')
			break;
	return v;
}

static void test_ringtrace_cat(const char *self)
{
	char pages[16];
	char *summary_argv[] = { CAT, "--counters", "default", "--", (char *)self,
				 "--touch", pages, NULL };
	char *json_argv[] = { CAT, "--json", "--counters",
			      "task-clock,page-faults,cycles", "--interval", "20",
			      "--", (char *)self, "--burn", "200", NULL };
	const char *out = "/tmp/rt-perf-counters.out";
	const char *err = "/tmp/rt-perf-counters.err";
	char *text, *p;
	long long faults;
	int rc, records = 0, with_null = 0;

	snprintf(pages, sizeof(pages), "%d", PAGES);
	rc = run(summary_argv, out, err);
	text = slurp(err);
	faults = summary_value(text, "page-faults");
	tap_ok(rc == 0, "ringtrace-cat --counters default -- %s --touch %d: exit %d",
	       self, PAGES, rc);
	if (rc)
		tap_diag("stderr: %s", text);
	tap_ok(faults >= PAGES, "its summary counts %lld page-faults (>= %d)",
	       faults, PAGES);
	tap_ok(strstr(text, "<not supported>      cycles") &&
	       strstr(text, "(ENOENT: no PMU counts this event here") &&
	       strstr(text, "msec task-clock") &&
	       strstr(text, "seconds time elapsed"),
	       "the summary prints cycles as <not supported> with the reason, "
	       "task-clock in msec");

	rc = run(json_argv, out, err);
	text = slurp(out);
	for (p = text; (p = strstr(p, "{\"type\":\"counters\"")); p++) {
		const char *c = strstr(p, "\"cycles\":");

		records++;
		with_null += c && !strncmp(c, "\"cycles\":null", 13);
	}
	tap_ok(rc == 0 && records >= 3 && with_null == records &&
	       strstr(text, "\"cpu\":-1,\"pid\":"),
	       "--json --interval 20: %d counters records of the process, "
	       "cycles null in each (%d)", records, with_null);
	unlink(out);
	unlink(err);
}

int main(int argc, char **argv)
{
	page_size = sysconf(_SC_PAGESIZE);
	if (argc == 3 && !strcmp(argv[1], "--touch"))
		return touch(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "--burn"))
		return st_burn_cpu(atol(argv[2]));

	tap_plan(10);
	test_page_faults();
	test_task_clock();
	test_hardware();
	test_ringtrace_cat(argv[0][0] == '/' ? argv[0] :
			   realpath(argv[0], NULL));
	return tap_finish();
}
