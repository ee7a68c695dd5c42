// SPDX-License-Identifier: GPL-2.0-only
/*
 * Records that say which cgroup (RINGTRACE_CFG_CGROUPS): two
 * workloads in sibling cgroups; every one of their vfs_read records
 * carries a task_ext with its cgroup's id and its host pid and tid, each
 * cgroup is named by a cgroup record with its path, on the same ring and
 * before the first record giving its id, with the same timestamp; the
 * padding after the path is zero. Without the flag, records are as before
 * (no task_ext, no cgroup record).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "st_cgroup.h"
#include "st_util.h"
#include "tap.h"

#define N	30
#define ZSIZE	24
#define CG_A	RT_CGROUP_ROOT "/rt_st_rec_a"
#define CG_B	RT_CGROUP_ROOT "/rt_st_rec_b"

struct seen {
	pid_t pid[2];
	uint64_t id[2];
	long reads[2];		/* ZSIZE reads of each workload */
	long ext_ok[2];		/* ... with the right task_ext */
	long no_ext;		/* vfs_read records without a task_ext */
	uint64_t first_ts[2];	/* the earliest read of each, and its ring */
	int first_cpu[2];
	int named[2];		/* cgroup records naming it */
	int name_ok[2];		/* ... with the right path and padding */
	long cgroup_records;
	bool seen_name[2][64];	/* per CPU: named on this ring already */
	uint64_t name_ts[2][64];
};

static const char *const paths[2] = { "/rt_st_rec_a", "/rt_st_rec_b" };

static void on_cgroup(const struct ringtrace_cgroup_record *r, int cpu,
		      struct seen *s)
{
	const char *path = RINGTRACE_CGROUP_RECORD_PATH(r);
	size_t i, pad = r->header.size - sizeof(*r);
	bool zero = true;
	int w;

	s->cgroup_records++;
	for (w = 0; w < 2; w++) {
		if (r->cgroup_id != s->id[w])
			continue;
		s->named[w]++;
		for (i = r->path_len; i < pad; i++)
			zero &= !path[i];
		if (r->path_len == strlen(paths[w]) && r->path_len < pad &&
		    !memcmp(path, paths[w], r->path_len) && zero &&
		    !r->flags && !r->__pad)
			s->name_ok[w]++;
		if (cpu < 64) {
			s->seen_name[w][cpu] = true;
			s->name_ts[w][cpu] = r->ts_ns;
		}
	}
}

static void record(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	const struct ringtrace_task_ext *x = (const void *)(r + 1);
	struct seen *s = arg;
	int w;

	if (h->type == RINGTRACE_RECORD_CGROUP) {
		on_cgroup((const void *)h, cpu, s);
		return;
	}
	if (h->type != RINGTRACE_RECORD_VFS_READ)
		return;
	if (!(h->misc & RINGTRACE_MISC_TASK_EXT) ||
	    h->size < sizeof(*r) + sizeof(*x)) {
		s->no_ext++;
		return;
	}
	for (w = 0; w < 2; w++) {
		if (r->task.pid != (uint32_t)s->pid[w] || r->count != ZSIZE)
			continue;
		s->reads[w]++;
		if (x->cgroup_id == s->id[w] && x->host_pid == r->task.pid &&
		    x->host_tid == r->task.tid)
			s->ext_ok[w]++;
		if (s->reads[w] == 1 || r->task.ts_ns < s->first_ts[w]) {
			s->first_ts[w] = r->task.ts_ns;
			s->first_cpu[w] = cpu;
		}
	}
}

/* Workload i: (i + 1) * N reads. */
static int reads(void *arg)
{
	return st_zero_reads(((int)(long)arg + 1) * N, ZSIZE) ? 20 : 0;
}

/* Workloads in A (N reads) and B (2N), traced system-wide with @flags. */
static struct seen run(uint32_t flags, uint64_t id_a, uint64_t id_b)
{
	static const char *const where[2] = { CG_A, CG_B };
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	struct seen s = { .cgroup_records = 0 };
	struct st_child c[2];

	s.id[0] = id_a;
	s.id[1] = id_b;
	cfg.flags = flags;
	st_cgroup_start(c, 2, reads, where, s.pid);
	st_cgroup_trace(c, 2, &cfg, record, &s);
	return s;
}

/* The cgroup records naming @arg's cgroup: their path_len and flags. */
struct long_name {
	uint64_t id;
	int records, too_long, truncated;
	char tail[16];		/* the last bytes kept */
};

static void long_record(const struct ringtrace_event_header *h, int cpu,
			void *arg)
{
	const struct ringtrace_cgroup_record *r = (const void *)h;
	struct long_name *l = arg;
	size_t n;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_CGROUP || r->cgroup_id != l->id)
		return;
	l->records++;
	l->too_long += r->path_len > RINGTRACE_CGROUP_PATH_MAX ||
		       sizeof(*r) + r->path_len > h->size;
	l->truncated += !!(r->flags & RINGTRACE_CGROUP_TRUNCATED);
	n = r->path_len < sizeof(l->tail) - 1 ? r->path_len : sizeof(l->tail) - 1;
	if (r->path_len <= RINGTRACE_CGROUP_PATH_MAX)
		memcpy(l->tail, RINGTRACE_CGROUP_RECORD_PATH(r) + r->path_len - n, n);
}

/*
 * A cgroup whose name is as long as a name may be (255 bytes) under the
 * root: its path ("/" and the name) is one byte over what a record
 * carries. Every kernel's record says so and keeps at most
 * RINGTRACE_CGROUP_PATH_MAX bytes (the 6.15+ walk once kept 256).
 */
static void long_name(void)
{
	static char path[sizeof(RT_CGROUP_ROOT) + 256];
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	const char *where[1] = { path };
	struct long_name l = { .records = 0 };
	struct st_child c[1];
	pid_t pid[1];
	int n;

	n = snprintf(path, sizeof(path), "%s/", RT_CGROUP_ROOT);
	memset(path + n, 'x', 254);
	path[n + 254] = 'z';
	path[n + 255] = '\0';
	l.id = st_cgroup_make(path);
	cfg.flags = RINGTRACE_CFG_CGROUPS;
	st_cgroup_start(c, 1, reads, where, pid);
	st_cgroup_trace(c, 1, &cfg, long_record, &l);
	rmdir(path);
	tap_ok(l.records >= 1 && !l.too_long && l.truncated == l.records,
	       "a 255-byte cgroup name: %d record(s), each TRUNCATED and at most %d bytes (%d longer), ending '%s'",
	       l.records, RINGTRACE_CGROUP_PATH_MAX, l.too_long, l.tail);
}

int main(void)
{
	uint64_t id_a, id_b;
	struct seen s;
	int w;

	st_require_features(RINGTRACE_FEAT_CGROUP, "cgroup records");
	st_cgroup_mount();
	tap_plan(8);
	id_a = st_cgroup_make(CG_A);
	id_b = st_cgroup_make(CG_B);

	s = run(RINGTRACE_CFG_CGROUPS, id_a, id_b);
	tap_ok(s.reads[0] == N && s.reads[1] == 2 * N && !s.no_ext,
	       "every vfs_read record carries a task_ext (%ld and %ld reads, "
	       "%ld without)", s.reads[0], s.reads[1], s.no_ext);
	tap_ok(s.ext_ok[0] == N && s.ext_ok[1] == 2 * N,
	       "... with its cgroup's id and its host pid and tid (%ld, %ld)",
	       s.ext_ok[0], s.ext_ok[1]);
	for (w = 0; w < 2; w++) {
		int cpu = s.first_cpu[w];
		/* The first read's ring named it, with the same time. */
		bool before = cpu < 64 && s.seen_name[w][cpu] &&
			      s.name_ts[w][cpu] == s.first_ts[w];

		tap_ok(s.named[w] >= 1 && s.name_ok[w] == s.named[w] && before,
		       "%s named by %d cgroup record(s), path and padding "
		       "right in %d, on the first read's ring with its time: %s",
		       paths[w], s.named[w], s.name_ok[w], before ? "yes" : "no");
	}
	/* Two CPUs may both name a cgroup first (protocol.rst): not more. */
	tap_ok(s.named[0] <= 2 && s.named[1] <= 2,
	       "each cgroup named at most once per CPU that raced (%d, %d)",
	       s.named[0], s.named[1]);

	s = run(0, id_a, id_b);
	tap_ok(s.reads[0] == 0 && s.no_ext > 0 && !s.cgroup_records,
	       "without RINGTRACE_CFG_CGROUPS: no task_ext, no cgroup record "
	       "(%ld with, %ld cgroup records)", s.reads[0], s.cgroup_records);
	{
		struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
		int fd = st_open();

		cfg.flags = 1U << 30;
		tap_ok(ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg) == -1 &&
		       errno == EINVAL, "an unknown config flag is still EINVAL");
		close(fd);
	}
	rmdir(CG_A);
	rmdir(CG_B);
	long_name();
	return tap_finish();
}
