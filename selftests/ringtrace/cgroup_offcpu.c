// SPDX-License-Identifier: GPL-2.0-only
/*
 * Offcpu records say which cgroup (cgroups on off-CPU records): two
 * workloads in sibling cgroups A and B each read /dev/zero once, then
 * sleep NR_SLEEPS times; a session with RINGTRACE_CFG_CGROUPS and the
 * cgroup filter on A, vfs_read and offcpu with kernel stacks:
 *
 * 1. A's offcpu records (at least one per sleep, state S) all carry a
 *    task_ext (RINGTRACE_MISC_TASK_EXT) with A's id and A's host pid and
 *    tid, at the end of the 64-byte fixed part: the stack trailer's
 *    frames follow it and hold do_nanosleep.
 * 2. Nothing of B is recorded: no offcpu record, no read.
 * 3. A is named by a cgroup record with its path.
 * 4. An offcpu-only session (no vfs_read to name it) names A itself where
 *    the probe can build a name without a lock (6.15 and later: the path;
 *    PREEMPT_RT before: UNRESOLVED), and leaves it unnamed before 6.15
 *    otherwise (the name would take kernfs_rename_lock under the
 *    runqueue's lock; abi.rst): every record still carries A's id.
 *
 * Workloads are held while the session is enabled and have exited before
 * it is disabled (testing.rst, TCG).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "st_cgroup.h"
#include "st_util.h"
#include "tap.h"

#define NR_SLEEPS	5
#define SLEEP_NS	10000000L
#define ZSIZE		24
#define CG_A		RT_CGROUP_ROOT "/rt_st_off_a"
#define CG_B		RT_CGROUP_ROOT "/rt_st_off_b"
#define PATH_A		"/rt_st_off_a"

struct seen {
	pid_t pid[2];
	uint64_t id_a;
	long offcpu[2];		/* offcpu records of each workload */
	long sleeps_a;		/* A's in state S with do_nanosleep */
	long ext_ok_a;		/* A's with the right task_ext */
	long reads[2];
	long named_a;		/* cgroup records naming A */
	long named_ok_a;	/* ... with its path, flags 0 */
	long unresolved_a;	/* ... UNRESOLVED, no path */
	long bad;
};

static bool has_nanosleep(const struct ringtrace_event_header *h, size_t fixed)
{
	const struct ringtrace_stack_trailer *t;
	const unsigned long long *ip;
	const struct st_ksym *sym;
	int i;

	if (!(h->misc & RINGTRACE_MISC_STACK))
		return false;
	t = (const void *)((const char *)h + h->size - sizeof(*t));
	if (fixed + (t->nr_kernel + t->nr_user) * 8ul + sizeof(*t) != h->size)
		return false;
	ip = (const void *)((const char *)h + fixed);
	for (i = 0; i < t->nr_kernel; i++) {
		sym = st_ksym_lookup(ip[i]);
		if (sym && strstr(sym->name, "do_nanosleep"))
			return true;
	}
	return false;
}

static void on_offcpu(const struct ringtrace_event_header *h, struct seen *s,
		      int w)
{
	const struct ringtrace_offcpu_record *o = (const void *)h;
	const struct ringtrace_task_ext *x = (const void *)(o + 1);
	const size_t fixed = sizeof(*o) + sizeof(*x);

	s->offcpu[w]++;
	if (w || h->size < fixed) {
		s->bad += !w;
		return;
	}
	if ((h->misc & RINGTRACE_MISC_TASK_EXT) && x->cgroup_id == s->id_a &&
	    x->host_pid == o->task.pid && x->host_tid == o->task.tid)
		s->ext_ok_a++;
	if (o->state == RINGTRACE_OFFCPU_SLEEP && has_nanosleep(h, fixed))
		s->sleeps_a++;
}

static void record(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_cgroup_record *c = (const void *)h;
	const struct ringtrace_task_ctx *t = (const void *)(h + 1);
	struct seen *s = arg;
	int w;

	(void)cpu;
	if (h->type == RINGTRACE_RECORD_CGROUP) {
		if (c->cgroup_id != s->id_a)
			return;
		s->named_a++;
		if (!c->flags && c->path_len == strlen(PATH_A) &&
		    !memcmp(RINGTRACE_CGROUP_RECORD_PATH(c), PATH_A,
			    sizeof(PATH_A)))
			s->named_ok_a++;
		if (c->flags == RINGTRACE_CGROUP_UNRESOLVED && !c->path_len)
			s->unresolved_a++;
		return;
	}
	if (h->type != RINGTRACE_RECORD_OFFCPU &&
	    h->type != RINGTRACE_RECORD_VFS_READ)
		return;
	for (w = 0; w < 2; w++) {
		if (t->pid != (uint32_t)s->pid[w])
			continue;
		if (h->type == RINGTRACE_RECORD_OFFCPU)
			on_offcpu(h, s, w);
		else
			s->reads[w]++;
	}
}

static int workload(void *arg)
{
	struct timespec req = { 0, SLEEP_NS };
	int i;

	(void)arg;
	if (st_zero_reads(1, ZSIZE))
		return 20;
	for (i = 0; i < NR_SLEEPS; i++)
		if (nanosleep(&req, NULL))
			return 21;
	return 0;
}

static struct seen run(uint64_t events, uint64_t id_a)
{
	static const char *const where[2] = { CG_A, CG_B };
	struct ringtrace_config cfg = st_config(events, -1);
	struct seen s = { .id_a = id_a };
	struct st_child c[2];

	cfg.flags = RINGTRACE_CFG_CGROUPS;
	cfg.nr_cgroups = 1;
	cfg.cgroup_ids_ptr = (uintptr_t)&id_a;
	cfg.min_offcpu_ns = 1000000;
	cfg.stack_events = RINGTRACE_EVENT_OFFCPU;
	cfg.stack_kernel_depth = 32;
	st_cgroup_start(c, 2, workload, where, s.pid);
	st_cgroup_trace(c, 2, &cfg, record, &s);
	return s;
}

/* 6.15 and later name a cgroup in the probe without a lock (compat.h). */
static bool lockless_names(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		tap_bail("uname");
	return major > 6 || (major == 6 && minor >= 15);
}

static bool preempt_rt(void)
{
	FILE *f = fopen("/sys/kernel/realtime", "r");
	int rt = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &rt) != 1)
		rt = 0;
	fclose(f);
	return rt == 1;
}

int main(void)
{
	const uint64_t both = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_OFFCPU;
	uint64_t id_a;
	struct seen s;

	st_require_features(RINGTRACE_FEAT_CGROUP, "cgroup records");
	st_cgroup_mount();
	if (!st_ksyms_load())
		tap_skip_all("no /proc/kallsyms");
	tap_plan(6);
	id_a = st_cgroup_make(CG_A);
	st_cgroup_make(CG_B);

	s = run(both, id_a);
	tap_ok(s.offcpu[0] >= NR_SLEEPS && s.ext_ok_a == s.offcpu[0] && !s.bad,
	       "every offcpu record of A carries A's id, host pid and tid "
	       "(%ld of %ld, %ld malformed)", s.ext_ok_a, s.offcpu[0], s.bad);
	tap_ok(s.sleeps_a >= NR_SLEEPS,
	       "the stack follows the task_ext: %ld sleeps in do_nanosleep "
	       "(>= %d)", s.sleeps_a, NR_SLEEPS);
	tap_ok(!s.offcpu[1] && !s.reads[1] && s.reads[0] == 1,
	       "--cgroup A: none of B's sleeps or reads (%ld, %ld), A's read "
	       "(%ld)", s.offcpu[1], s.reads[1], s.reads[0]);
	tap_ok(s.named_a >= 1 && s.named_ok_a == s.named_a,
	       "A named %ld time(s), with its path", s.named_a);

	s = run(RINGTRACE_EVENT_OFFCPU, id_a);
	tap_ok(s.offcpu[0] >= NR_SLEEPS && s.ext_ok_a == s.offcpu[0] &&
	       !s.offcpu[1] && !s.reads[0],
	       "offcpu only: A's %ld records carry its id, none of B's (%ld)",
	       s.offcpu[0], s.offcpu[1]);
	if (lockless_names())
		tap_ok(s.named_a >= 1 && s.named_ok_a == s.named_a,
		       "offcpu only, 6.15+: the offcpu record names A "
		       "(%ld, %ld with its path)", s.named_a, s.named_ok_a);
	else if (preempt_rt())
		tap_ok(s.named_a >= 1 && s.unresolved_a == s.named_a,
		       "offcpu only, PREEMPT_RT before 6.15: A named "
		       "UNRESOLVED (%ld, %ld)", s.named_a, s.unresolved_a);
	else
		tap_ok(!s.named_a,
		       "offcpu only, before 6.15: no name under the runqueue "
		       "lock (%ld cgroup records)", s.named_a);
	rmdir(CG_A);
	rmdir(CG_B);
	return tap_finish();
}
