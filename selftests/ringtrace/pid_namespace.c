// SPDX-License-Identifier: GPL-2.0-only
/*
 * A reader in a child pid namespace: a process that unshared
 * CLONE_NEWPID (and a mount namespace for its own /proc, as unshare
 * --pid --fork --mount-proc does) forks the namespace's init, which
 * mounts that /proc, opens /dev/ringtrace and
 * traces a child of its own (pid 2 there) while a process outside the
 * namespace reads too. The reader sees pids and tids as its namespace
 * numbers them, the task_ext keeps the host's, -p PID means the reader's
 * pid 2, and nothing of the process outside is ever recorded for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define N	25
#define ZSIZE	24

/* What the namespace's init found, sent to the test over a pipe. */
struct verdict {
	int setup;		/* 0, or the step that failed */
	pid_t inner_pid;	/* the traced child's pid in the namespace */
	pid_t host_pid;		/* and on the host (its /proc/self) */
	long reads[2];		/* ZSIZE reads seen: system-wide, -p 2 */
	long ns_ids[2];		/* ... numbered as the namespace does */
	long host_ids[2];	/* ... whose task_ext has the host's ids */
	long foreign[2];	/* ZSIZE reads of anyone else */
};

struct count {
	struct verdict *v;
	int i;
};

static void record(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	const struct ringtrace_task_ext *x = (const void *)(r + 1);
	struct count *c = arg;
	struct verdict *v = c->v;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_VFS_READ || r->count != ZSIZE)
		return;
	if (!(h->misc & RINGTRACE_MISC_TASK_EXT) ||
	    x->host_pid != (uint32_t)v->host_pid) {
		v->foreign[c->i]++;
		return;
	}
	v->reads[c->i]++;
	if (r->task.pid == (uint32_t)v->inner_pid &&
	    r->task.tid == (uint32_t)v->inner_pid)
		v->ns_ids[c->i]++;
	if (x->host_tid == (uint32_t)v->host_pid)
		v->host_ids[c->i]++;
}

/* The host's /proc, kept open before ours hid it. */
static int host_proc = -1;

/* The traced child: tells its host pid, reads N times. */
static int inner_reads(void *arg)
{
	int fd = *(int *)arg;
	char self[32] = "";
	ssize_t n;

	/* In the host's /proc, "self" is our host pid. */
	n = readlinkat(host_proc, "self", self, sizeof(self) - 1);
	if (n <= 0 || write(fd, self, (size_t)n) != n)
		return 30;
	close(fd);
	return st_zero_reads(N, ZSIZE) ? 20 : 0;
}

/*
 * The namespace's init: its own /proc, two sessions, the child, the
 * verdict on @out once the process outside closed @outside_done.
 */
static int ns_init(int out, int outside_go, int outside_done)
{
	struct verdict v = { .setup = 0 };
	struct st_session s[2];
	struct ringtrace_config cfg;
	struct st_child c;
	struct count cnt;
	char buf[32] = "";
	int p[2], i;

	host_proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (getpid() != 1 || pipe(p) || host_proc < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("proc", "/proc", "proc", 0, NULL))
		v.setup = 1;
	if (!v.setup) {
		st_child_start(&c, inner_reads, &p[1]);
		close(p[1]);
		v.inner_pid = c.pid;
		cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
		cfg.flags = RINGTRACE_CFG_CGROUPS;
		st_session_open(&s[0], &cfg, 16);
		cfg.pid = c.pid;	/* 2: a pid in our namespace */
		st_session_open(&s[1], &cfg, 16);
		if (st_enable(&s[0]) || st_enable(&s[1]))
			v.setup = 2;
		st_child_go(&c);
		/* The process outside reads while we trace. */
		if (write(outside_go, "g", 1) != 1)
			v.setup = 3;
		if (read(p[0], buf, sizeof(buf) - 1) <= 0)
			v.setup = 4;
		v.host_pid = atoi(buf);
		if (st_child_wait(&c))
			v.setup = 5;
	}
	/* The outside reader's end closes its pipe: EOF here. */
	close(outside_go);
	if (read(outside_done, buf, 1) != 0)
		v.setup = 6;
	for (i = 0; !v.setup && i < 2; i++) {
		st_disable(&s[i]);
		cnt.v = &v;
		cnt.i = i;
		st_drain(&s[i], record, &cnt);
		st_session_close(&s[i]);
	}
	return write(out, &v, sizeof(v)) == sizeof(v) ? 0 : 40;
}

int main(void)
{
	struct verdict v = { .setup = 0 };
	int res[2], go[2], done[2], status;
	struct st_child outside;
	pid_t mid;

	st_require_features(RINGTRACE_FEAT_CGROUP, "pid namespace views");
	tap_plan(6);
	if (pipe(res) || pipe(go) || pipe(done))
		tap_bail("pipe: %s", strerror(errno));
	/* Reads N times once the namespace's init says go, then says done. */
	outside.pid = fork();
	if (!outside.pid) {
		char b;

		/* Its exit closes done[1], the last write end. */
		close(go[1]);
		close(done[0]);
		close(res[0]);
		close(res[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(1);
		_exit(st_zero_reads(N, ZSIZE) ? 20 : 0);
	}
	close(go[0]);
	close(done[1]);
	/* Parked before anything attaches (testing.rst: TCG). */
	if (!st_wait_in_read(outside.pid, go[0], 1))
		tap_diag("the reader outside did not park");
	mid = fork();
	if (!mid) {
		pid_t init;

		close(res[0]);
		if (unshare(CLONE_NEWPID | CLONE_NEWNS))
			_exit(50);
		init = fork();
		if (!init)
			_exit(ns_init(res[1], go[1], done[0]) ? 60 : 0);
		close(res[1]);
		close(go[1]);
		close(done[0]);
		_exit(waitpid(init, &status, 0) == init && WIFEXITED(status) ?
		      WEXITSTATUS(status) : 70);
	}
	close(go[1]);
	close(res[1]);
	close(done[0]);
	/* No read of ours while the namespace attaches and detaches. */
	waitpid(outside.pid, &status, 0);
	tap_diag("the reader outside the namespace: exit %d",
		 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	waitpid(mid, &status, 0);
	if (read(res[0], &v, sizeof(v)) != sizeof(v))
		v.setup = 99;
	tap_ok(!v.setup && WIFEXITED(status) && !WEXITSTATUS(status),
	       "a session opened in a new pid namespace (setup %d, exit %d)",
	       v.setup, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tap_ok(v.inner_pid == 2 && v.host_pid > 2,
	       "the traced child is pid %d there, %d on the host", v.inner_pid,
	       v.host_pid);
	tap_ok(v.reads[0] == N && v.ns_ids[0] == N,
	       "system-wide: its %d reads with the namespace's pid and tid "
	       "(%ld, %ld)", N, v.reads[0], v.ns_ids[0]);
	tap_ok(v.host_ids[0] == N && v.host_ids[1] == N,
	       "host_pid and host_tid are the host's (%ld, %ld)", v.host_ids[0],
	       v.host_ids[1]);
	tap_ok(v.reads[1] == N && v.ns_ids[1] == N,
	       "-p 2 from inside selects it (%ld, %ld)", v.reads[1],
	       v.ns_ids[1]);
	tap_ok(!v.foreign[0] && !v.foreign[1],
	       "the process outside the namespace is never shown (%ld, %ld)",
	       v.foreign[0], v.foreign[1]);
	return tap_finish();
}
