// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sessions come and go while the lock contention probe runs preemptible.
 * On 7.x a tracepoint probe runs under SRCU-fast with preemption enabled,
 * so contention_begin's walk of the enabled sessions is not an RCU-sched
 * reader by itself: it must disable preemption, or a walker preempted on
 * a session reads it after DISABLE's synchronize_rcu() let it be freed.
 * Session A stays enabled (it keeps the probe attached); sessions B are
 * opened, enabled, disabled and closed in a loop while four processes
 * pread() /proc/locks, whose percpu_down_write() of file_rwsem contends
 * (held across the 2000 locks this test lists there): a contention_begin
 * from process context, preemptible on 7.x. Run with slub_debug=P (as
 * scripts/check's kernels stage does for 7.x), a freed session read by a
 * late walker is poisoned and the kernel's report ends the VM run with a
 * splat (vm-run exit 125). That takes a preemption inside a few loads;
 * what fails every run is the walk's own check (active.h,
 * RT_ASSERT_RCU_READER()): the first begin that walks preemptible warns,
 * on a stock kernel through preempt_count, on a debug one through
 * lockdep, and the VM (panic_on_warn) ends with that splat. Here: the
 * loop completes, A records the contentions, B's do too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define READERS		4
#define CYCLES		200
/* Locks listed in /proc/locks: each read holds file_rwsem across them. */
#define FILE_LOCKS	2000


/*
 * One contender, a process of its own: each read of /proc/locks
 * write-locks file_rwsem (a percpu_rw_semaphore) for as long as it lists
 * the locks, and another contender's read waits, preemptible.
 */
static void contender(void)
{
	static char buf[1 << 20];
	int fd = open("/proc/locks", O_RDONLY);

	for (;;) {
		if (fd < 0 || pread(fd, buf, sizeof(buf), 0) < 0)
			_exit(1);
	}
}

static void count_contended(const struct ringtrace_event_header *h, int cpu,
			    void *arg)
{
	const struct ringtrace_lock_record *r = (const void *)h;

	(void)cpu;
	if (h->type == RINGTRACE_RECORD_LOCK && (r->flags & RINGTRACE_LOCK_KERNEL))
		++*(unsigned long long *)arg;
}

int main(void)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_LOCK_CONTENTION, -1);
	unsigned long long a_records = 0, b_records = 0;
	pid_t readers[READERS];
	struct st_session a, b;
	int i, cycles = 0, started = 0, lockfd;

	tap_plan(3);
	/* Non-adjacent ranges: each stays a lock of its own. */
	lockfd = open("/tmp", O_TMPFILE | O_RDWR, 0600);
	if (lockfd < 0)
		tap_bail("O_TMPFILE in /tmp: %s", strerror(errno));
	for (i = 0; i < FILE_LOCKS; i++) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
				    .l_start = 2 * i, .l_len = 1 };

		if (fcntl(lockfd, F_SETLK, &fl))
			tap_bail("F_SETLK: %s", strerror(errno));
	}
	st_require_features(RINGTRACE_FEAT_LOCK_CONTENTION,
			    "lock contention tracepoints");
	st_session_open(&a, &cfg, 16);
	/*
	 * A attaches the contention probes before any reader runs (attach
	 * with the workload parked: TCG and live code patching).
	 */
	if (st_enable(&a))
		tap_bail("ENABLE: %s", strerror(errno));
	for (i = 0; i < READERS; i++) {
		readers[i] = fork();
		if (!readers[i])
			contender();
		started += readers[i] > 0;
	}
	for (i = 0; i < CYCLES; i++) {
		st_session_open(&b, &cfg, 2);
		if (st_enable(&b)) {
			st_session_close(&b);
			break;
		}
		usleep(1000);
		st_disable(&b);
		st_drain(&b, count_contended, &b_records);
		st_session_close(&b);
		cycles++;
		/* Keep A's rings from filling: it only needs to see some. */
		if (!(i % 16))
			st_drain(&a, count_contended, &a_records);
	}
	for (i = 0; i < READERS; i++) {
		if (readers[i] > 0) {
			kill(readers[i], SIGKILL);
			waitpid(readers[i], NULL, 0);
		}
	}
	st_disable(&a);
	st_drain(&a, count_contended, &a_records);
	st_session_close(&a);
	if (lockfd >= 0)
		close(lockfd);

	tap_ok(started == READERS && cycles == CYCLES,
	       "%d sessions opened, enabled, disabled and closed beside %d processes reading /proc/locks",
	       cycles, started);
	tap_ok(a_records > 0,
	       "the session kept enabled recorded the readers' contentions (%llu)",
	       a_records);
	tap_ok(b_records > 0,
	       "the short-lived sessions recorded some too (%llu): the probe walked them",
	       b_records);
	return tap_finish();
}
