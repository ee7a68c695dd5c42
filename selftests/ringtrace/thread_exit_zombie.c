// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-thread rings of zombies: a thread that has exited
 * but whose task is not released yet must still get
 * RINGTRACE_THREAD_EXITED within a flush period (abi.rst), and from
 * DISABLE. Two such threads: (1) a thread-group leader that exits with
 * SYS_exit while its other thread runs on (the leader stays a zombie
 * until the whole group is gone); (2) a single-threaded child that has
 * exited and is not reaped (the test waits for it with WNOWAIT). For each,
 * the test polls the ring's control page for up to 30 s (liveness,
 * not speed) while the session is enabled. For (2), a second session,
 * with the longest flush period (its timer has not run yet), is disabled
 * as soon as the child is a zombie and must have the flag from DISABLE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define PAGES		4
#define CALLS		50
#define FLUSH_MS	20
#define LONG_FLUSH_MS	60000	/* the longest: not before DISABLE here */
#define WAIT_MS		30000	/* liveness bound, not a timing check */

struct traced {
	int fd;
	struct ringtrace_mmap_page *pg;
	size_t len;
};

static void traced_open(struct traced *t, pid_t tid, unsigned int flush_ms)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	void *p;

	t->fd = st_open();
	cfg.flags = RINGTRACE_CFG_PER_THREAD;
	cfg.nr_tids = 1;
	cfg.tids_ptr = (uintptr_t)&tid;
	cfg.flush_ms = flush_ms;
	if (ioctl(t->fd, RINGTRACE_IOC_SET_CONFIG, &cfg))
		tap_bail("SET_CONFIG per-thread: %s", strerror(errno));
	t->len = (1 + PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	p = mmap(NULL, t->len, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd,
		 RINGTRACE_MMAP_OFFSET(0));
	if (p == MAP_FAILED)
		tap_bail("mmap thread ring: %s", strerror(errno));
	t->pg = p;
	if (ioctl(t->fd, RINGTRACE_IOC_ENABLE))
		tap_bail("ENABLE: %s", strerror(errno));
}

static void traced_close(struct traced *t)
{
	munmap(t->pg, t->len);
	close(t->fd);
}

static unsigned int thread_flags(const struct traced *t)
{
	return __atomic_load_n(&t->pg->thread_flags, __ATOMIC_ACQUIRE);
}

/* Poll the flag, 30 s at most; how long it took in *@waited. */
static bool flagged_within(const struct traced *t, int *waited)
{
	for (*waited = 0; *waited < WAIT_MS; *waited += 10) {
		if (thread_flags(t) & RINGTRACE_THREAD_EXITED)
			return true;
		usleep(10000);
	}
	return false;
}

/* Case 1: the other thread sleeps on; the test kills the process. */
static int sleeper(int idx, void *arg)
{
	(void)idx;
	(void)arg;
	for (int i = 0; i < 1200; i++)
		usleep(100000);
	return 0;
}

/* Case 1: the leader reads, then exits alone. */
static int leader_exits(void *arg)
{
	(void)arg;
	if (st_zero_reads(CALLS, 8))
		return 1;
	syscall(SYS_exit, 0);
	return 1;
}

/* Case 2: reads, then exits; nobody reaps it until the test is done. */
static int child_exits(void *arg)
{
	(void)arg;
	return st_zero_reads(CALLS, 8);
}

int main(void)
{
	pid_t tids[ST_MAX_THREADS];
	struct st_child child;
	struct traced t, t2;
	siginfo_t si;
	int waited;
	bool ok;

	st_require_features(RINGTRACE_FEAT_PER_THREAD, "per-thread rings");
	tap_plan(4);

	/* 1: the group leader exits with SYS_exit, its thread runs on. */
	st_threads_start(&child, 1, sleeper, leader_exits, NULL, tids);
	traced_open(&t, child.pid, FLUSH_MS);
	st_child_go(&child);
	ok = flagged_within(&t, &waited);
	tap_ok(ok, "a leader that left with SYS_exit while its thread runs is flagged (%#x, polled %d ms)",
	       thread_flags(&t), waited);
	/* Stop the workload before DISABLE detaches the probes. */
	kill(child.pid, SIGKILL);
	st_child_wait(&child);
	if (ioctl(t.fd, RINGTRACE_IOC_DISABLE))
		tap_bail("DISABLE: %s", strerror(errno));
	traced_close(&t);

	/* 2: an exited child nobody reaped yet. */
	st_child_start(&child, child_exits, NULL);
	traced_open(&t, child.pid, FLUSH_MS);
	traced_open(&t2, child.pid, LONG_FLUSH_MS);
	st_child_go(&child);
	if (waitid(P_PID, (id_t)child.pid, &si, WEXITED | WNOWAIT))
		tap_bail("waitid: %s", strerror(errno));
	ok = si.si_code == CLD_EXITED && si.si_status == 0;
	tap_ok(ok, "the child made %d reads and exited (code %d, status %d), not reaped",
	       CALLS, si.si_code, si.si_status);
	if (ioctl(t2.fd, RINGTRACE_IOC_DISABLE))
		tap_bail("DISABLE: %s", strerror(errno));
	tap_ok(thread_flags(&t2) & RINGTRACE_THREAD_EXITED,
	       "DISABLE flags the unreaped child's ring (%#x)", thread_flags(&t2));
	ok = flagged_within(&t, &waited);
	tap_ok(ok, "the unreaped child's ring is flagged while enabled (%#x, polled %d ms)",
	       thread_flags(&t), waited);
	if (ioctl(t.fd, RINGTRACE_IOC_DISABLE))
		tap_bail("DISABLE: %s", strerror(errno));
	traced_close(&t);
	traced_close(&t2);
	st_child_wait(&child);
	return tap_finish();
}
