// SPDX-License-Identifier: GPL-2.0-only
/*
 * Detaching vfs_read while a traced call sleeps inside it, on whichever
 * mechanism the module uses. The call must come back unharmed (its data
 * read, its return value right), must not be recorded by a session that
 * started after it entered (every mechanism drops the calls of a past
 * attachment), and the next call must be. ringtrace.ko itself must be
 * unloadable meanwhile, whatever the mechanism: the test unloads and
 * reloads it while the call sleeps. With the direct call the sleeping
 * call has the trampoline as its return address, so ringtrace_direct.ko
 * (which holds it) must stay pinned, rmmod refused, until the call has
 * come back, and be released after.
 *
 * That call is the dying attachment's last: its return frees it. A fork
 * storm runs while it comes back (started after the new session's attach,
 * stopped before its detach: Documentation/testing.rst's TCG rule), so
 * the per-CPU allocator's pcpu_lock, which every fork and exit takes for
 * the mm's counters, is contended when the release frees the attachment's
 * per-CPU counts. On a PREEMPT_RT kernel that lock sleeps: freeing with
 * preemption disabled there is "sleeping function called from invalid
 * context" (DEBUG_ATOMIC_SLEEP, the debug-rt kernel) or, contended,
 * "scheduling while atomic", which the runner's splat check fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define REFCNT		"/sys/module/ringtrace/refcnt"
#define DIRECT_REFCNT	"/sys/module/ringtrace_direct/refcnt"
#define FIRST_READ	64	/* bytes the first read asks for */
#define SECOND_READ	32	/* and the second */

static int data_pipe[2];

#define STORM_MAX	16	/* fork storm processes, at most */
#define STORM_WARM	50	/* forks each, before the call is woken */

struct storm {
	pid_t pid[STORM_MAX];
	int nr;
	unsigned long *forks;	/* shared: forks done, all together */
};

/* Fork and reap as fast as possible until killed. */
static void storm_worker(unsigned long *forks, int ready)
{
	pid_t pid;

	/* Holds no session open (it is killed, but its last child may not
	 * be reaped yet when the test closes its session). */
	if (write(ready, "r", 1) != 1)
		_exit(1);
	close_range(3, ~0U, 0);
	for (;;) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0) {
			waitpid(pid, NULL, 0);
			__atomic_add_fetch(forks, 1, __ATOMIC_RELAXED);
		}
	}
}

/*
 * One storm process per online CPU; returns once they have forked
 * STORM_WARM times each on average, so that the storm is in full swing
 * when the call comes back (a progress condition, not a timing one).
 */
static void storm_start(struct storm *st)
{
	int ready[2], i;
	char c;

	st->forks = mmap(NULL, sizeof(*st->forks), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st->forks == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	if (pipe(ready))
		tap_bail("pipe: %s", strerror(errno));
	st->nr = st_online_cpus();
	if (st->nr > STORM_MAX)
		st->nr = STORM_MAX;
	for (i = 0; i < st->nr; i++) {
		st->pid[i] = fork();
		if (st->pid[i] < 0)
			tap_bail("fork: %s", strerror(errno));
		if (st->pid[i] == 0)
			storm_worker(st->forks, ready[1]);
	}
	close(ready[1]);
	for (i = 0; i < st->nr; i++)
		if (read(ready[0], &c, 1) != 1)
			tap_bail("a fork storm process died at its start");
	close(ready[0]);
	/* Liveness bound: ten minutes. */
	for (i = 0; i < 60000; i++) {
		if (__atomic_load_n(st->forks, __ATOMIC_RELAXED) >=
		    (unsigned long)STORM_WARM * st->nr)
			return;
		usleep(10000);
	}
	tap_bail("the fork storm made no progress");
}

static unsigned long storm_stop(struct storm *st)
{
	unsigned long n;
	int i;

	for (i = 0; i < st->nr; i++)
		kill(st->pid[i], SIGKILL);
	for (i = 0; i < st->nr; i++)
		waitpid(st->pid[i], NULL, 0);
	n = __atomic_load_n(st->forks, __ATOMIC_RELAXED);
	munmap(st->forks, sizeof(*st->forks));
	return n;
}

/* Two reads of the pipe: the first blocks across the detach. */
static int workload(void *arg)
{
	char buf[FIRST_READ];

	(void)arg;
	if (read(data_pipe[0], buf, FIRST_READ) != 5)
		return 2;
	if (read(data_pipe[0], buf, SECOND_READ) != 6)
		return 3;
	return 0;
}

static long refcnt(const char *file)
{
	FILE *f = fopen(file, "r");
	long n = -1;

	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static __u32 attached_with(struct st_session *s)
{
	struct ringtrace_info info = { .size = sizeof(info) };

	if (ioctl(s->fd, RINGTRACE_IOC_GET_INFO, &info) ||
	    info.size < RINGTRACE_INFO_SIZE_VER1)
		return 0;
	return info.vfs_read_attach;
}

/* vfs_read_attach=NAME if the runner forced a mechanism, else "". */
static void forced_param(char *buf, size_t len)
{
	char param[128], name[32] = "";

	st_attach_param(param, sizeof(param));
	buf[0] = '\0';
	if (strncmp(param, "auto: ", 6) && sscanf(param, "%31s", name) == 1)
		snprintf(buf, len, "vfs_read_attach=%s", name);
}

int main(void)
{
	struct ringtrace_config cfg;
	struct st_session s1, s2;
	struct st_child child;
	struct st_reads seen = { .n = 0 };
	struct storm storm;
	unsigned long forks;
	long base, dbase = -1, after = -1, dafter = -1;
	char params[64];
	bool direct;
	int i, err;

	tap_plan(8);
	if (pipe(data_pipe))
		tap_bail("pipe: %s", strerror(errno));
	base = refcnt(REFCNT);
	if (base < 0)
		tap_bail("cannot read %s", REFCNT);
	forced_param(params, sizeof(params));
	dbase = refcnt(DIRECT_REFCNT);	/* -1: not loaded */

	st_child_start(&child, workload, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	st_session_open(&s1, &cfg, 16);
	if (st_enable(&s1))
		tap_bail("ENABLE: %s", strerror(errno));
	direct = attached_with(&s1) == RINGTRACE_ATTACH_DIRECT;
	tap_diag("attached with mechanism %u%s", attached_with(&s1),
		 direct ? " (direct)" : "");
	st_child_go(&child);
	if (!st_wait_in_read(child.pid, data_pipe[0], FIRST_READ))
		tap_bail("the child never blocked in its first read");

	/* The only session goes: vfs_read is detached, the call sleeps on. */
	st_disable(&s1);
	st_session_close(&s1);
	after = refcnt(REFCNT);
	tap_ok(after == base,
	       "no reference on ringtrace.ko left behind (refcnt %ld, %ld before)",
	       after, base);
	err = st_unload_module("ringtrace");
	tap_ok(!err, "ringtrace.ko unloads while the call sleeps in vfs_read (%s)",
	       err ? strerror(err) : "done");
	if (direct) {
		dafter = refcnt(DIRECT_REFCNT);
		err = st_unload_module("ringtrace_direct");
		tap_ok(dafter == dbase + 1 && (err == EWOULDBLOCK || err == EBUSY),
		       "direct: the sleeping call pins ringtrace_direct.ko (refcnt %ld, %ld before) and its rmmod is refused (%s)",
		       dafter, dbase, err ? strerror(err) : "it unloaded!");
	} else {
		tap_skip("ringtrace_direct.ko pinned: only the direct call returns through it");
	}
	err = st_load_module("kmod/ringtrace.ko", params);
	if (err && err != EEXIST)
		tap_bail("reloading ringtrace.ko (%s): %s", params,
			 strerror(err));

	/*
	 * A new session, then the first call returns (freeing the dying
	 * attachment, beside the fork storm), then a second one.
	 */
	st_session_open(&s2, &cfg, 16);
	if (st_enable(&s2))
		tap_bail("ENABLE: %s", strerror(errno));
	storm_start(&storm);
	if (write(data_pipe[1], "hello", 5) != 5)
		tap_bail("cannot wake the child");
	tap_ok(st_wait_in_read(child.pid, data_pipe[0], SECOND_READ),
	       "the call that slept across the detach came back with its 5 bytes");
	forks = storm_stop(&storm);
	tap_diag("%lu forks by %d fork storm processes while it came back",
		 forks, storm.nr);
	if (write(data_pipe[1], "world!", 6) != 6)
		tap_bail("cannot wake the child");
	tap_ok(st_child_wait(&child) == 0,
	       "and the child's second read got its 6 bytes (both return values right)");
	st_disable(&s2);
	st_drain(&s2, st_collect_reads, &seen);
	st_session_close(&s2);
	tap_ok(seen.n == 1 && seen.ret[0] == 6 && seen.count[0] == SECOND_READ,
	       "the new session recorded the second read only (%d records, first: ret %lld, count %llu)",
	       seen.n, seen.n ? seen.ret[0] : 0, seen.n ? seen.count[0] : 0);

	/* Released through RCU callbacks: give them a moment. */
	for (i = 0; i < 100; i++) {
		after = refcnt(REFCNT);
		dafter = direct ? refcnt(DIRECT_REFCNT) : dbase;
		if (after == base && dafter == dbase)
			break;
		usleep(50000);
	}
	tap_ok(after == base && dafter == dbase,
	       "every reference dropped once the calls came back (ringtrace %ld, %ld before; ringtrace_direct %ld, %ld before)",
	       after, base, dafter, dbase);
	tap_ok(!st_probes_on("vfs_read"), "nothing left attached to vfs_read");
	return tap_finish();
}
