// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cgroup filter (ringtrace_config.nr_cgroups): workloads in
 * sibling cgroups, only the selected one (and its descendants) recorded;
 * a task moved between cgroups recorded only while inside, a read that
 * moved recorded by no session filtering on either end whatever other
 * sessions exist; a traced
 * cgroup removed while the session runs; ANDed with the pid filter; the
 * ids the kernel refuses; the paths ringtrace-cat --cgroup takes as
 * records print them ("/rt_st_a", "/") and the errors it gives.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_cgroup.h"
#include "st_util.h"
#include "tap.h"

#define N	40
#define ZSIZE	24		/* the workloads' reads: told apart by size */
#define ROOT	RT_CGROUP_ROOT
#define CG_A	ROOT "/rt_st_a"
#define CG_SUB	ROOT "/rt_st_a/sub"
#define CG_B	ROOT "/rt_st_b"
#define CG_GONE	ROOT "/rt_st_gone"

struct count {
	pid_t pid[3];
	long of[3];		/* ZSIZE reads of each workload */
	long others;
};

static void counter(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	struct count *c = arg;
	int i;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_VFS_READ || r->count != ZSIZE)
		return;
	for (i = 0; i < 3; i++)
		if (c->pid[i] && r->task.pid == (uint32_t)c->pid[i]) {
			c->of[i]++;
			return;
		}
	c->others++;
}

static int reads(void *arg)
{
	return st_zero_reads((int)(long)arg, ZSIZE) ? 20 : 0;
}

/* Workload i of three(): (i + 1) * N reads. */
static int reads_i(void *arg)
{
	return st_zero_reads(((int)(long)arg + 1) * N, ZSIZE) ? 20 : 0;
}

static struct ringtrace_config cg_config(pid_t pid, const uint64_t *ids,
					 uint32_t nr)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, pid);

	cfg.nr_cgroups = nr;
	cfg.cgroup_ids_ptr = (uintptr_t)ids;
	return cfg;
}

/* Three held workloads in @where[i] reading N, 2N, 3N times, traced by @cfg. */
static struct count three(struct ringtrace_config cfg, const char *where[3],
			  int pid_of)
{
	struct count n = { .others = 0 };
	struct st_child c[3];

	st_cgroup_start(c, 3, reads_i, where, n.pid);
	if (pid_of >= 0)
		cfg.pid = c[pid_of].pid;
	st_cgroup_trace(c, 3, &cfg, counter, &n);
	return n;
}

/*
 * Reads N in B, parks; (moved into A) reads 2N, parks; (moved back to B)
 * reads 3N. Park i is a read of i bytes from a pipe: not a ZSIZE read
 * (entered in one cgroup, returned in another, it is recorded by
 * neither), and told apart from the previous park, which the child may
 * still be seen in just after its go-ahead was written.
 */
struct mover {
	int park[2];		/* the child reads its go-ahead here */
};

static int moving(void *arg)
{
	struct mover *m = arg;
	char b[2];
	int i;

	for (i = 1; i <= 3; i++) {
		if (st_zero_reads(i * N, ZSIZE))
			return 20;
		if (i < 3 && read(m->park[0], b, i) != i)
			return 21;
	}
	return 0;
}

static long moved_mid_run(uint64_t id_a)
{
	struct count n = { .others = 0 };
	struct st_session s;
	struct ringtrace_config cfg = cg_config(-1, &id_a, 1);
	struct mover m;
	struct st_child c;

	if (pipe(m.park))
		tap_bail("pipe: %s", strerror(errno));
	st_child_start(&c, moving, &m);
	st_cgroup_move(CG_B, c.pid);
	n.pid[0] = c.pid;
	st_session_open(&s, &cfg, 16);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&c);
	if (!st_wait_in_read(c.pid, m.park[0], 1))
		tap_diag("the child did not park");
	st_cgroup_move(CG_A, c.pid);
	if (write(m.park[1], "g", 1) != 1)
		tap_bail("write: %s", strerror(errno));
	if (!st_wait_in_read(c.pid, m.park[0], 2))
		tap_diag("the child did not park again");
	st_cgroup_move(CG_B, c.pid);
	if (write(m.park[1], "gg", 2) != 2)
		tap_bail("write: %s", strerror(errno));
	if (st_child_wait(&c) != 0)
		tap_diag("workload failed");
	st_disable(&s);
	st_drain(&s, counter, &n);
	st_session_close(&s);
	close(m.park[0]);
	close(m.park[1]);
	return n.of[0] * 1000 + n.others;
}

/* The one-byte park reads of @pid, seen by one session. */
struct parks {
	pid_t pid;
	long n;
};

static void park_counter(const struct ringtrace_event_header *h, int cpu,
			 void *arg)
{
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	struct parks *p = arg;

	(void)cpu;
	if (h->type == RINGTRACE_RECORD_VFS_READ && r->count == 1 &&
	    r->task.pid == (uint32_t)p->pid)
		p->n++;
}

static int park_once(void *arg)
{
	struct mover *m = arg;
	char b;

	return read(m->park[0], &b, 1) == 1 ? 0 : 21;
}

/*
 * A read that enters in B and returns in A, beside a session with no
 * cgroup filter (which has the module follow the call from its entry):
 * that session records it, the session on A does not. Each session checks
 * both ends of a call against its own filter, whatever other sessions
 * want (before, the one on A recorded it because the other one existed).
 */
static void moved_beside_another(uint64_t id_a)
{
	struct ringtrace_config on_a = cg_config(-1, &id_a, 1), all;
	struct st_session s_all, s_a;
	struct parks p_all = { 0 }, p_a = { 0 };
	struct mover m;
	struct st_child c;

	if (pipe(m.park))
		tap_bail("pipe: %s", strerror(errno));
	st_child_start(&c, park_once, &m);
	st_cgroup_move(CG_B, c.pid);
	all = st_config(RINGTRACE_EVENT_VFS_READ, c.pid);
	st_session_open(&s_all, &all, 16);
	st_session_open(&s_a, &on_a, 16);
	if (st_enable(&s_all) || st_enable(&s_a))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&c);
	if (!st_wait_in_read(c.pid, m.park[0], 1))
		tap_diag("the child did not park");
	st_cgroup_move(CG_A, c.pid);
	if (write(m.park[1], "g", 1) != 1)
		tap_bail("write: %s", strerror(errno));
	if (st_child_wait(&c) != 0)
		tap_diag("workload failed");
	st_disable(&s_all);
	st_disable(&s_a);
	p_all.pid = p_a.pid = c.pid;
	st_drain(&s_all, park_counter, &p_all);
	st_drain(&s_a, park_counter, &p_a);
	st_session_close(&s_all);
	st_session_close(&s_a);
	close(m.park[0]);
	close(m.park[1]);
	tap_ok(p_all.n == 1 && p_a.n == 0,
	       "a read entered in B and returned in A, beside a session with "
	       "no cgroup filter: recorded by it (%ld), not by the session "
	       "on A (%ld)", p_all.n, p_a.n);
}

/* Traced cgroup: a workload reads N there and exits, the cgroup goes. */
static void removed_while_traced(void)
{
	struct count n = { .others = 0 };
	uint64_t id = st_cgroup_make(CG_GONE);
	struct ringtrace_config cfg = cg_config(-1, &id, 1);
	struct st_session s;
	struct st_child c;
	int rc;

	st_child_start(&c, reads, (void *)(long)N);
	st_cgroup_move(CG_GONE, c.pid);
	n.pid[0] = c.pid;
	st_session_open(&s, &cfg, 16);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&c);
	st_child_wait(&c);
	rc = rmdir(CG_GONE);
	tap_ok(rc == 0, "a traced cgroup can be removed while traced (%s)",
	       rc ? strerror(errno) : "ok");
	if (st_zero_reads(N, ZSIZE))
		tap_diag("reads failed");
	rc = st_disable(&s);
	st_drain(&s, counter, &n);
	tap_ok(rc == 0 && n.of[0] == N && n.others == 0,
	       "... and the session ends cleanly with its %d reads (%ld, %ld others)",
	       N, n.of[0], n.others);
	/* Configuring it again: the id names nothing now. */
	errno = 0;
	rc = ioctl(s.fd, RINGTRACE_IOC_SET_CONFIG, &cfg);
	tap_ok(rc == -1 && errno == ENOENT,
	       "SET_CONFIG with the removed cgroup's id: ENOENT (%s)",
	       strerror(errno));
	st_session_close(&s);
}

static int set_config_errno(const struct ringtrace_config *cfg)
{
	int fd = st_open(), rc;

	rc = ioctl(fd, RINGTRACE_IOC_SET_CONFIG, cfg) ? errno : 0;
	close(fd);
	return rc;
}

/*
 * Run ringtrace-cat @opts --cgroup @arg; what it wrote on standard error
 * in @out (@len bytes of it), its exit status returned (-1: no exit).
 */
static int cli_run(const char *opts, const char *arg, char *out, size_t size,
		   size_t *len)
{
	char cmd[512];
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), "../../user/ringtrace-cat %s --cgroup '%s' "
		 "2>&1 >/dev/null", opts, arg);
	p = popen(cmd, "r");
	if (!p)
		tap_bail("popen: %s", strerror(errno));
	*len = fread(out, 1, size - 1, p);
	out[*len] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ringtrace-cat --cgroup @arg: exit status 2 and @want in its message. */
static void cli_error(const char *arg, const char *want, const char *what)
{
	char out[1024];
	size_t len;
	int rc = cli_run("-d 1", arg, out, sizeof(out), &len);

	tap_ok(rc == 2 && strstr(out, want), "ringtrace-cat --cgroup %s: %s",
	       what, strtok(out, "\n") ? out : "(nothing said)");
}

/* ringtrace-cat --cgroup @arg traces (exit 0, nothing on stderr). */
static void cli_ok(const char *arg, const char *what)
{
	char out[1024];
	size_t len;
	int rc = cli_run("-q -d 0.1", arg, out, sizeof(out), &len);

	tap_ok(rc == 0 && !len, "ringtrace-cat --cgroup %s: %s (%s)", arg,
	       what, strtok(out, "\n") ? out : "nothing said");
}

int main(void)
{
	const char *sib[3] = { CG_A, CG_B, CG_SUB };
	struct ringtrace_config cfg;
	uint64_t ids[RINGTRACE_MAX_CGROUPS + 1];
	uint64_t id_a, id_b;
	struct count n;
	long moved;

	st_require_features(RINGTRACE_FEAT_CGROUP, "the cgroup filter");
	st_cgroup_mount();
	tap_plan(18);
	id_a = st_cgroup_make(CG_A);
	st_cgroup_make(CG_SUB);
	id_b = st_cgroup_make(CG_B);

	n = three(cg_config(-1, &id_a, 1), sib, -1);
	tap_ok(n.of[0] == N && n.of[1] == 0 && n.of[2] == 3 * N && !n.others,
	       "cgroup A: A's %d reads and A/sub's %d, none of sibling B's "
	       "(%ld, %ld, %ld, %ld others)", N, 3 * N, n.of[0], n.of[2],
	       n.of[1], n.others);

	ids[0] = id_b;
	ids[1] = id_a;
	n = three(cg_config(-1, ids, 2), sib, -1);
	tap_ok(n.of[0] == N && n.of[1] == 2 * N && n.of[2] == 3 * N && !n.others,
	       "cgroups B and A: every workload (%ld, %ld, %ld, %ld others)",
	       n.of[0], n.of[1], n.of[2], n.others);

	/* AND with the pid filter: B's workload selected, A's cgroup. */
	n = three(cg_config(0, &id_a, 1), sib, 1);
	tap_ok(!n.of[0] && !n.of[1] && !n.of[2] && !n.others,
	       "pid of B's workload AND cgroup A: nothing (%ld, %ld, %ld, %ld)",
	       n.of[0], n.of[1], n.of[2], n.others);
	n = three(cg_config(0, &id_a, 1), sib, 0);
	tap_ok(n.of[0] == N && !n.of[1] && !n.of[2] && !n.others,
	       "pid of A's workload AND cgroup A: its %d reads (%ld, %ld, %ld, %ld)",
	       N, n.of[0], n.of[1], n.of[2], n.others);

	moved = moved_mid_run(id_a);
	tap_ok(moved == 2L * N * 1000,
	       "a task moved into A and out again: only its %d reads inside "
	       "(%ld, %ld others)", 2 * N, moved / 1000, moved % 1000);

	moved_beside_another(id_a);
	removed_while_traced();

	cfg = cg_config(-1, ids, 1);
	ids[0] = 0xfffffff0ull;
	tap_ok(set_config_errno(&cfg) == ENOENT, "an id of no cgroup: ENOENT");
	ids[0] = id_a;
	ids[1] = id_a;
	cfg.nr_cgroups = 2;
	tap_ok(set_config_errno(&cfg) == EINVAL, "an id repeated: EINVAL");
	cfg.nr_cgroups = RINGTRACE_MAX_CGROUPS + 1;
	tap_ok(set_config_errno(&cfg) == EINVAL, "more than %d ids: EINVAL",
	       RINGTRACE_MAX_CGROUPS);
	cfg.nr_cgroups = 1;
	cfg.cgroup_ids_ptr = 0;
	tap_ok(set_config_errno(&cfg) == EINVAL, "ids without a pointer: EINVAL");

	cli_ok("/rt_st_a", "a cgroup named as records name it (from the root)");
	cli_ok("/", "the root cgroup as records name it");
	cli_error("/nonexistent/cg", "no such cgroup", "a nonexistent path");
	cli_error("/proc", "is not a cgroup", "a directory not on cgroup2");
	cli_error("rt_st_a/cgroup.procs", "not a cgroup",
		  "a cgroup's file, relative to " ROOT);

	rmdir(CG_SUB);
	rmdir(CG_A);
	rmdir(CG_B);
	return tap_finish();
}
