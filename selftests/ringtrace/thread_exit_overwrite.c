// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-thread rings in overwrite mode: abi.rst promises
 * RINGTRACE_THREAD_EXITED within a flush period of a thread's exit, and
 * a flight recorder's session has a flush period too, although it sends
 * no flush wake-ups. A child process selects one worker thread; the
 * worker makes a few reads and exits while the child's main thread sleeps
 * on. The worker's ring must get the flag while the session is still
 * enabled, before any DISABLE: the test polls the control page for up to
 * 30 s (liveness, not speed). Also: no flush wake-up reaches poll()
 * (a flight recorder's reader sleeps until it wants a snapshot).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define PAGES		4
#define CALLS		100
#define FLUSH_MS	20
#define WAIT_MS		30000	/* liveness bound, not a timing check */

static int worker(int idx, void *arg)
{
	(void)idx;
	(void)arg;
	return st_zero_reads(CALLS, 8);
}

/* The main thread outlives the worker; the test kills the child. */
static int sleeper(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1200; i++)
		usleep(100000);
	return 0;
}

int main(void)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	size_t page_size = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (1 + PAGES) * page_size;
	struct ringtrace_mmap_page *pg;
	pid_t tids[ST_MAX_THREADS];
	struct st_child child;
	struct pollfd pfd;
	unsigned int flags_before, flags_enabled;
	int fd, waited, readable;
	void *p;

	st_require_features(RINGTRACE_FEAT_PER_THREAD | RINGTRACE_FEAT_OVERWRITE,
			    "per-thread overwrite rings");
	tap_plan(3);
	fd = st_open();

	st_threads_start(&child, 1, worker, sleeper, NULL, tids);
	cfg.flags = RINGTRACE_CFG_PER_THREAD | RINGTRACE_CFG_OVERWRITE;
	cfg.nr_tids = 1;
	cfg.tids_ptr = (uintptr_t)tids;
	cfg.flush_ms = FLUSH_MS;
	if (ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg))
		tap_bail("SET_CONFIG per-thread overwrite: %s", strerror(errno));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 RINGTRACE_MMAP_OFFSET(0));
	if (p == MAP_FAILED)
		tap_bail("mmap thread ring: %s", strerror(errno));
	pg = p;
	if (ioctl(fd, RINGTRACE_IOC_ENABLE))
		tap_bail("ENABLE: %s", strerror(errno));
	flags_before = __atomic_load_n(&pg->thread_flags, __ATOMIC_ACQUIRE);
	st_child_go(&child);

	for (waited = 0; waited < WAIT_MS; waited += 10) {
		if (__atomic_load_n(&pg->thread_flags, __ATOMIC_ACQUIRE) &
		    RINGTRACE_THREAD_EXITED)
			break;
		usleep(10000);
	}
	flags_enabled = __atomic_load_n(&pg->thread_flags, __ATOMIC_ACQUIRE);
	tap_ok(!(flags_before & RINGTRACE_THREAD_EXITED),
	       "the worker's ring is not flagged before it runs (%#x)",
	       flags_before);
	tap_ok(flags_enabled & RINGTRACE_THREAD_EXITED,
	       "the exited worker's ring is flagged while still enabled (%#x, polled %d ms)",
	       flags_enabled, waited);

	/* The flush timer ran many periods by now: none may wake a reader. */
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	readable = poll(&pfd, 1, 0);
	tap_ok(readable == 0, "no flush wake-up in overwrite mode (poll %d, %#x)",
	       readable, pfd.revents);

	/* Stop the workload before DISABLE detaches the probes. */
	kill(child.pid, SIGKILL);
	st_child_wait(&child);
	if (ioctl(fd, RINGTRACE_IOC_DISABLE))
		tap_bail("DISABLE: %s", strerror(errno));
	munmap(p, len);
	close(fd);
	return tap_finish();
}
