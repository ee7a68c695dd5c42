// SPDX-License-Identifier: GPL-2.0-only
/*
 * Filters, applied before any ring work: process (and, with INHERIT, its
 * descendants), CPU, minimum latency, and the default exclusion of the
 * reader's own process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define N	50

struct count {
	pid_t pid;		/* count records of this process... */
	long of_pid;
	long others;		/* ...and of any other */
	long on_cpu[2];
	unsigned long long max_lat, min_lat;
};

static int nr_cpus;

static void zero_reads(int n)
{
	if (st_zero_reads(n, 16))
		_exit(20);
}

static void counter(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	struct count *c = arg;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_VFS_READ)
		return;
	if (r->task.pid == (unsigned int)c->pid)
		c->of_pid++;
	else
		c->others++;
	if (r->task.cpu < 2)
		c->on_cpu[r->task.cpu]++;
	if (r->lat_ns > c->max_lat)
		c->max_lat = r->lat_ns;
	if (!c->min_lat || r->lat_ns < c->min_lat)
		c->min_lat = r->lat_ns;
}

/* Trace @cfg while @fn runs in a gated child; count what was recorded. */
static struct count trace(struct ringtrace_config cfg, bool pid_is_child,
			  int (*fn)(void *), void *arg)
{
	struct st_session s;
	struct st_child c;
	struct count n = { 0 };

	st_child_start(&c, fn, arg);
	if (pid_is_child)
		cfg.pid = c.pid;
	n.pid = c.pid;
	st_session_open(&s, &cfg, 16);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&c);
	if (st_child_wait(&c) != 0)
		tap_diag("workload failed");
	st_disable(&s);
	if (st_drain(&s, counter, &n) < 0)
		tap_diag("malformed ring");
	st_session_close(&s);
	return n;
}

/* The child reads N times; its own child (a grandchild) reads 2N times. */
static int family(void *arg)
{
	pid_t g;
	int status;

	(void)arg;
	zero_reads(N);
	g = fork();
	if (g == 0) {
		zero_reads(2 * N);
		_exit(0);
	}
	return waitpid(g, &status, 0) == g && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0 ? 0 : 1;
}

static int on_each_cpu(void *arg)
{
	(void)arg;
	st_pin(0);
	zero_reads(N);
	st_pin(1);
	zero_reads(N);
	return 0;
}

/* Fast reads, then one pipe read that waits ~30 ms for its data. */
static int slow_and_fast(void *arg)
{
	int p[2];
	char b;
	pid_t w;

	(void)arg;
	zero_reads(N);
	if (pipe(p))
		return 2;
	w = fork();
	if (w == 0) {
		usleep(30000);
		_exit(write(p[1], "x", 1) == 1 ? 0 : 1);
	}
	if (read(p[0], &b, 1) != 1)
		return 3;
	waitpid(w, NULL, 0);
	return 0;
}

int main(void)
{
	struct ringtrace_config cfg;
	struct count n;
	unsigned char mask[1] = { 1 << 1 };
	pid_t self = getpid();

	nr_cpus = st_online_cpus();
	tap_plan(8);

	cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
	n = trace(cfg, true, family, NULL);
	tap_ok(n.of_pid == N && n.others == 0,
	       "pid filter: the process's %d reads, not its child's (%ld, %ld others)",
	       N, n.of_pid, n.others);

	cfg.flags = RINGTRACE_CFG_INHERIT;
	n = trace(cfg, true, family, NULL);
	tap_ok(n.of_pid == N && n.others == 2 * N,
	       "pid filter with INHERIT: its %d and its child's %d (%ld, %ld)",
	       N, 2 * N, n.of_pid, n.others);

	/* System-wide: our own reads are not traced unless asked. */
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	n = trace(cfg, false, family, NULL);
	tap_ok(n.of_pid == N && n.others >= 2 * N,
	       "system-wide sees the whole workload (%ld + %ld)", n.of_pid,
	       n.others);
	{
		struct st_session s;
		struct count mine = { .pid = self };

		cfg = st_config(RINGTRACE_EVENT_VFS_READ, self);
		st_session_open(&s, &cfg, 16);
		st_enable(&s);
		zero_reads(N);
		st_disable(&s);
		st_drain(&s, counter, &mine);
		st_session_close(&s);
		tap_ok(mine.of_pid == 0, "the reader's own reads are excluded (%ld)",
		       mine.of_pid);

		cfg.flags = RINGTRACE_CFG_INCLUDE_SELF;
		mine.of_pid = 0;
		st_session_open(&s, &cfg, 16);
		st_enable(&s);
		zero_reads(N);
		st_disable(&s);
		st_drain(&s, counter, &mine);
		st_session_close(&s);
		tap_ok(mine.of_pid == N, "... unless INCLUDE_SELF (%ld of %d)",
		       mine.of_pid, N);
	}

	if (nr_cpus >= 2) {
		cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
		cfg.cpu_mask_ptr = (uintptr_t)mask;
		cfg.cpu_mask_bytes = sizeof(mask);
		n = trace(cfg, true, on_each_cpu, NULL);
		tap_ok(n.on_cpu[1] == N && n.on_cpu[0] == 0,
		       "CPU filter {1}: the %d reads on CPU 1 only (%ld on 0, %ld on 1)",
		       N, n.on_cpu[0], n.on_cpu[1]);
	} else {
		tap_skip("CPU filter: needs 2 CPUs");
	}

	cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
	n = trace(cfg, true, slow_and_fast, NULL);
	tap_ok(n.of_pid == N + 1, "no latency filter: all %d reads (%ld)", N + 1,
	       n.of_pid);
	cfg.min_latency_ns = 10000000;	/* 10 ms */
	n = trace(cfg, true, slow_and_fast, NULL);
	tap_ok(n.of_pid == 1 && n.min_lat >= 10000000,
	       "min latency 10 ms: only the slow pipe read (%ld, %llu ns)",
	       n.of_pid, n.min_lat);
	return tap_finish();
}
