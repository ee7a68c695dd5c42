// SPDX-License-Identifier: GPL-2.0-only
/*
 * Off-CPU intervals (RINGTRACE_EVENT_OFFCPU), four scenarios:
 *
 * 1. nanosleep: a child sleeps 20 ms ten times. At least ten offcpu
 *    records in state S whose kernel stack holds do_nanosleep, together
 *    at least the 200 ms asked for (less the few microseconds from arming
 *    the timer to leaving the CPU, 200 us allowed per sleep) and at most
 *    the time the child itself measured around its sleeps.
 * 2. a pipe read whose writer waits: the parent writes only after it saw
 *    the child blocked in read() and slept 20 ms more. The vfs_read record
 *    says offcpu_ns (RINGTRACE_MISC_OFFCPU), no more than lat_ns and at
 *    least the writer's wait; its offcpu_max_ts names an offcpu record of
 *    the same thread, in state S, inside the call, stack in pipe_read.
 * 3. exact counts: two processes ping-pong 200 round trips over two pipes
 *    with min_offcpu_ns 0. The parent reads each one's context switch
 *    counts (/proc/PID/status) while they are held before the run and
 *    while they are parked after it (switched out: /proc/PID/syscall
 *    waits for that); it disables the session while they are parked.
 *    Every switch-out in between had its switch-in, except the park's:
 *    records in state S/D/other = voluntary switches - 1, in state R =
 *    involuntary ones, per task, exactly.
 * 4. not asked: a vfs_read-only session gets no offcpu record and vfs_read
 *    records without RINGTRACE_MISC_OFFCPU.
 * Workloads are held while the session is enabled and stopped or parked
 * before it is disabled (testing.rst, TCG).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define NR_SLEEPS	10
#define SLEEP_NS	20000000ull
#define ROUNDS		200
#define MAX_RECS	4096

struct offcpu_rec {
	unsigned int tid, state;
	unsigned long long ts, dur;
	bool nanosleep, pipe_read;
};

struct seen {
	int nr;
	struct offcpu_rec recs[MAX_RECS];
	int reads;
	struct ringtrace_vfs_read_record read;	/* the last one */
	int reads_with_offcpu;
	int bad;
};

static struct seen seen;

static bool stack_has(const struct ringtrace_event_header *h, size_t fixed,
		      const char *name)
{
	const struct ringtrace_stack_trailer *t;
	const unsigned long long *ip;
	const struct st_ksym *sym;
	int i;

	if (!(h->misc & RINGTRACE_MISC_STACK))
		return false;
	t = (const void *)((const char *)h + h->size - sizeof(*t));
	ip = (const void *)((const char *)h + fixed);
	for (i = 0; i < t->nr_kernel; i++) {
		sym = st_ksym_lookup(ip[i]);
		if (sym && strstr(sym->name, name))
			return true;
	}
	return false;
}

static void collect(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_offcpu_record *o = (const void *)h;
	struct seen *s = arg;
	struct offcpu_rec *r;

	(void)cpu;
	if (h->type == RINGTRACE_RECORD_VFS_READ) {
		s->reads++;
		if (h->size < sizeof(s->read)) {
			s->bad++;
			return;
		}
		memcpy(&s->read, h, sizeof(s->read));
		s->reads_with_offcpu += !!(h->misc & RINGTRACE_MISC_OFFCPU);
		return;
	}
	if (h->type != RINGTRACE_RECORD_OFFCPU)
		return;
	if (h->size < sizeof(*o) || s->nr == MAX_RECS) {
		s->bad++;
		return;
	}
	r = &s->recs[s->nr++];
	r->tid = o->task.tid;
	r->state = o->state;
	r->ts = o->task.ts_ns;
	r->dur = o->offcpu_ns;
	r->nanosleep = stack_has(h, sizeof(*o), "do_nanosleep");
	r->pipe_read = stack_has(h, sizeof(*o), "pipe_read");
}

static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Shared with the children: what they measured, the pingers' pids. */
static unsigned long long *shared;
#define slept_ns	(&shared[2])

static int sleeper(void *arg)
{
	struct timespec req = { 0, SLEEP_NS };
	unsigned long long t;
	int i;

	(void)arg;
	for (i = 0; i < NR_SLEEPS; i++) {
		t = mono_ns();
		if (nanosleep(&req, NULL))
			return 1;
		*slept_ns += mono_ns() - t;
	}
	return 0;
}

static struct ringtrace_config stack_config(uint64_t events, uint64_t min)
{
	struct ringtrace_config cfg = st_config(events, -1);

	cfg.min_offcpu_ns = min;
	cfg.stack_events = RINGTRACE_EVENT_OFFCPU;
	cfg.stack_kernel_depth = 32;
	return cfg;
}

static void test_nanosleep(void)
{
	struct st_run r = {
		.child = sleeper, .ring_pages = 64,
		.record = collect, .record_arg = &seen,
	};
	unsigned long long total = 0;
	int nr_s = 0, i;

	memset(&seen, 0, sizeof(seen));
	*slept_ns = 0;
	r.cfg = stack_config(RINGTRACE_EVENT_OFFCPU, 1000000);
	st_traced_run(&r);
	for (i = 0; i < seen.nr; i++) {
		if (seen.recs[i].state != RINGTRACE_OFFCPU_SLEEP ||
		    !seen.recs[i].nanosleep)
			continue;
		nr_s++;
		total += seen.recs[i].dur;
	}
	tap_ok(r.status == 0 && r.drained >= 0 && !seen.bad,
	       "nanosleep: workload ran, %d offcpu records", seen.nr);
	tap_ok(nr_s >= NR_SLEEPS,
	       "nanosleep: %d records in state S with do_nanosleep (>= %d)",
	       nr_s, NR_SLEEPS);
	tap_ok(total >= NR_SLEEPS * (SLEEP_NS - 200000) && total <= *slept_ns,
	       "nanosleep: off CPU %llu ns, between the sleeps asked for (%llu) "
	       "and the time the child measured (%llu)", total,
	       NR_SLEEPS * SLEEP_NS, *slept_ns);
}

static void test_pipe_read(void)
{
	struct ringtrace_vfs_read_record *rd = &seen.read;
	int g[2], p[2], i, found = -1, status;
	struct ringtrace_config cfg;
	struct st_session sess;
	pid_t pid;
	char c = 'x';

	memset(&seen, 0, sizeof(seen));
	if (pipe(g) || pipe(p))
		tap_bail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (!pid) {
		/* Parked on the gate first, so that it is held at ENABLE. */
		char b;

		if (read(g[0], &b, 1) != 1)
			_exit(2);
		_exit(read(p[0], &b, 1) == 1 ? 0 : 3);
	}
	cfg = stack_config(RINGTRACE_EVENT_OFFCPU | RINGTRACE_EVENT_VFS_READ,
			   1000000);
	cfg.pid = pid;
	if (!st_wait_in_read(pid, g[0], 1))
		tap_bail("the child never blocked on its gate");
	st_session_open(&sess, &cfg, 64);
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	/* Release the gate; the writer waits until the read blocked. */
	if (write(g[1], &c, 1) != 1)
		tap_bail("write: %s", strerror(errno));
	if (!st_wait_in_read(pid, p[0], 1))
		tap_bail("the child never blocked in its read");
	usleep(SLEEP_NS / 1000);
	if (write(p[1], &c, 1) != 1)
		tap_bail("write: %s", strerror(errno));
	waitpid(pid, &status, 0);
	i = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	st_disable(&sess);
	st_drain(&sess, collect, &seen);
	st_session_close(&sess);
	close(g[0]);
	close(g[1]);
	close(p[0]);
	close(p[1]);

	for (int k = 0; k < seen.nr; k++)
		if (seen.recs[k].ts == rd->offcpu_max_ts &&
		    seen.recs[k].tid == rd->task.tid)
			found = k;
	tap_ok(i == 0 && seen.reads == 1 && seen.reads_with_offcpu == 1,
	       "pipe read: one vfs_read record, with MISC_OFFCPU (%d of %d)",
	       seen.reads_with_offcpu, seen.reads);
	tap_ok(rd->offcpu_ns <= rd->lat_ns && rd->offcpu_ns >= SLEEP_NS &&
	       rd->offcpu_max_ns <= rd->offcpu_ns,
	       "pipe read: offcpu %llu ns <= lat %llu ns, >= the writer's wait, "
	       "longest %llu", (unsigned long long)rd->offcpu_ns,
	       (unsigned long long)rd->lat_ns,
	       (unsigned long long)rd->offcpu_max_ns);
	tap_ok(found >= 0 && seen.recs[found].dur == rd->offcpu_max_ns &&
	       seen.recs[found].state == RINGTRACE_OFFCPU_SLEEP &&
	       seen.recs[found].pipe_read &&
	       seen.recs[found].ts <= rd->task.ts_ns &&
	       seen.recs[found].ts - seen.recs[found].dur >=
			rd->task.ts_ns - rd->lat_ns,
	       "pipe read: offcpu_max_ts names its offcpu record (S, in "
	       "pipe_read, inside the call)");
}

/* Context switches of @pid so far, from /proc/PID/status. */
static void switches(pid_t pid, long *vol, long *invol)
{
	char path[64], line[256];
	FILE *f;

	*vol = *invol = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "voluntary_ctxt_switches: %ld", vol);
		sscanf(line, "nonvoluntary_ctxt_switches: %ld", invol);
	}
	fclose(f);
}

static void pinger(int gate, int park, int out, int in, bool first)
{
	char c = 0;
	int i;

	if (read(gate, &c, 1) != 1)
		_exit(2);
	for (i = 0; i < ROUNDS; i++) {
		if (first && write(out, &c, 1) != 1)
			_exit(3);
		if (read(in, &c, 1) != 1)
			_exit(4);
		if (!first && write(out, &c, 1) != 1)
			_exit(3);
	}
	_exit(read(park, &c, 1) == 1 ? 0 : 5);
}

static void test_ping_pong(void)
{
	int gate[2], park[2], ab[2], ba[2], k, status, ok = 0;
	long v0[2], n0[2], v1[2], n1[2];
	struct ringtrace_config cfg;
	struct ringtrace_stats st;
	struct st_session sess;
	pid_t leader, pid[2];
	int stats_rc;
	char c[2] = { 0, 0 };

	memset(&seen, 0, sizeof(seen));
	shared[0] = shared[1] = 0;
	if (pipe(gate) || pipe(park) || pipe(ab) || pipe(ba))
		tap_bail("pipe: %s", strerror(errno));
	/* A leader, so that one pid (and its descendants) names both. */
	leader = fork();
	if (leader < 0)
		tap_bail("fork: %s", strerror(errno));
	if (!leader) {
		pid_t a, b;

		a = fork();
		if (!a)
			pinger(gate[0], park[0], ab[1], ba[0], true);
		b = fork();
		if (!b)
			pinger(gate[0], park[0], ba[1], ab[0], false);
		shared[0] = (unsigned long long)a;
		shared[1] = (unsigned long long)b;
		while (wait(&status) > 0)
			ok += WIFEXITED(status) && !WEXITSTATUS(status);
		_exit(ok == 2 ? 0 : 1);
	}
	for (k = 0; k < 5000 && !shared[1]; k++)
		usleep(1000);
	pid[0] = (pid_t)shared[0];
	pid[1] = (pid_t)shared[1];
	for (k = 0; k < 2; k++)
		if (!pid[k] || !st_wait_in_read(pid[k], gate[0], 1))
			tap_bail("pinger %d never blocked on its gate", k);

	cfg = st_config(RINGTRACE_EVENT_OFFCPU, leader);
	cfg.flags = RINGTRACE_CFG_INHERIT;
	cfg.min_offcpu_ns = 0;
	st_session_open(&sess, &cfg, 256);
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	for (k = 0; k < 2; k++)
		switches(pid[k], &v0[k], &n0[k]);
	if (write(gate[1], c, 2) != 2)
		tap_bail("write: %s", strerror(errno));
	for (k = 0; k < 2; k++) {
		if (!st_wait_in_read(pid[k], park[0], 1))
			tap_bail("pinger %d never parked", k);
		switches(pid[k], &v1[k], &n1[k]);
	}
	st_disable(&sess);
	if (write(park[1], c, 2) != 2)
		tap_bail("write: %s", strerror(errno));
	waitpid(leader, &status, 0);
	st_drain(&sess, collect, &seen);
	stats_rc = st_stats(&sess, &st);
	st_session_close(&sess);

	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status) && !seen.bad,
	       "ping-pong: %d round trips ran, %d offcpu records", ROUNDS,
	       seen.nr);
	/* What a failure below needs to be told apart: not seen or lost. */
	if (stats_rc)
		tap_diag("GET_STATS: %s", strerror(-stats_rc));
	else
		tap_diag("session: produced %llu, records %llu, lost %llu, "
			 "no ring %llu, offcpu_missed %llu (module)",
			 (unsigned long long)st.produced,
			 (unsigned long long)st.records,
			 (unsigned long long)st.lost,
			 (unsigned long long)st.no_ring,
			 (unsigned long long)st.offcpu_missed);
	for (k = 0; k < 2; k++) {
		int vol = 0, invol = 0;

		for (int i = 0; i < seen.nr; i++) {
			if (seen.recs[i].tid != (unsigned int)pid[k])
				continue;
			if (seen.recs[i].state == RINGTRACE_OFFCPU_PREEMPTED)
				invol++;
			else
				vol++;
		}
		tap_ok(vol == v1[k] - v0[k] - 1 && invol == n1[k] - n0[k],
		       "ping-pong task %d: %d voluntary + %d preempted records "
		       "= %ld - 1 + %ld switches", k, vol, invol,
		       v1[k] - v0[k], n1[k] - n0[k]);
	}
}

static int zero_reads_and_sleep(void *arg)
{
	struct timespec req = { 0, 2000000 };

	(void)arg;
	return st_zero_reads(10, 64) || nanosleep(&req, NULL) ? 2 : 0;
}

static void test_not_asked(void)
{
	struct st_run r = {
		.child = zero_reads_and_sleep, .ring_pages = 16,
		.record = collect, .record_arg = &seen,
	};

	memset(&seen, 0, sizeof(seen));
	r.cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
	st_traced_run(&r);
	tap_ok(r.status == 0 && seen.reads == 10 && seen.nr == 0 &&
	       seen.reads_with_offcpu == 0 && seen.read.offcpu_ns == 0,
	       "not asked: %d vfs_read records, none with MISC_OFFCPU (%d), "
	       "%d offcpu records", seen.reads, seen.reads_with_offcpu,
	       seen.nr);
}

int main(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	int fd;

	fd = st_open();
	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	close(fd);
	if (!(info.events & RINGTRACE_EVENT_OFFCPU))
		tap_skip_all("the module has no offcpu event");
	if (!st_ksyms_load())
		tap_skip_all("/proc/kallsyms hides addresses (kptr_restrict)");
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));

	tap_plan(10);
	test_nanosleep();
	test_pipe_read();
	test_ping_pong();
	test_not_asked();
	return tap_finish();
}
