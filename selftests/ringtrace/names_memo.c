// SPDX-License-Identifier: GPL-2.0-only
/*
 * each ring remembers the file and the cgroup its last vfs_read
 * record found named, and skips the session's tables while they stay the
 * same (kmod/session/session.h, struct rt_names_memo). That must not change what
 * is named: a child alternates between CPUs 0 and 1 and between two
 * cgroups, reading three files in runs of the same one, and every file
 * and cgroup must be named exactly once per enabled period, before its
 * first record (earlier, or the same time on the same ring); after the
 * session is disabled and enabled again, all of them once more (the memo
 * is reset with the tables: each period begins on each CPU with the file
 * and cgroup the last one ended with); the same in a per-thread session, whose one
 * ring is written from both CPUs. And RINGTRACE_CFG_NO_CGROUP_NAMES
 * (ringtrace-cat --no-cgroup-names; --no-paths leaves out
 * RINGTRACE_CFG_PATHS): records keep their cgroup ids, and no path or
 * cgroup record is written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "st_cgroup.h"
#include "st_util.h"
#include "tap.h"

#define NR_FILES	3
#define ROUNDS		8
#define READS		24	/* per round, in runs of RUN of one file */
#define RUN		4
#define RSIZE		37	/* our reads' count, to tell them apart */
/* and RUN reads of file 0 in cgroup X on each CPU at the start and end */
#define MAX_READS	(ROUNDS * READS + 4 * RUN)
#define PAGES		16
#define CG_X		RT_CGROUP_ROOT "/rt_st_memo_x"
#define CG_Y		RT_CGROUP_ROOT "/rt_st_memo_y"

static const char *const files[NR_FILES] = {
	"/tmp/ringtrace-memo-a", "/tmp/ringtrace-memo-b",
	"/tmp/ringtrace-memo-c",
};
static const char *const cgroups[2] = { CG_X, CG_Y };

/* Keys 0..2: the files; 3 and 4: the cgroups. */
#define NR_KEYS		(NR_FILES + 2)

struct key_seen {
	int names;
	uint64_t ts;		/* of the (last) name */
	int ring;
};

struct seen {
	pid_t pid;
	unsigned long long ino[NR_FILES];
	unsigned int major[NR_FILES], minor[NR_FILES];
	uint64_t cg_id[2];
	struct key_seen key[NR_KEYS];
	long path_records, cgroup_records;
	/* our reads: the file's and the cgroup's key, time, ring */
	int nr_reads, no_ext;
	int rd_file[MAX_READS], rd_cg[MAX_READS], rd_ring[MAX_READS];
	uint64_t rd_ts[MAX_READS];
	int cpus_used[2];
};

static int file_key(const struct seen *s, unsigned int major,
		    unsigned int minor, unsigned long long ino)
{
	for (int f = 0; f < NR_FILES; f++)
		if (s->ino[f] == ino && s->major[f] == major &&
		    s->minor[f] == minor)
			return f;
	return -1;
}

static int cgroup_key(const struct seen *s, uint64_t id)
{
	for (int c = 0; c < 2; c++)
		if (s->cg_id[c] == id)
			return NR_FILES + c;
	return -1;
}

static void named(struct seen *s, int k, uint64_t ts, int ring)
{
	if (k < 0)
		return;
	s->key[k].names++;
	s->key[k].ts = ts;
	s->key[k].ring = ring;
}

static void record(const struct ringtrace_event_header *h, int ring,
		   void *arg)
{
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	const struct ringtrace_task_ext *x = (const void *)(r + 1);
	struct seen *s = arg;
	int n;

	if (h->type == RINGTRACE_RECORD_PATH) {
		const struct ringtrace_path_record *p = (const void *)h;

		s->path_records++;
		named(s, file_key(s, p->dev_major, p->dev_minor, p->ino),
		      p->ts_ns, ring);
		return;
	}
	if (h->type == RINGTRACE_RECORD_CGROUP) {
		const struct ringtrace_cgroup_record *c = (const void *)h;

		s->cgroup_records++;
		named(s, cgroup_key(s, c->cgroup_id), c->ts_ns, ring);
		return;
	}
	if (h->type != RINGTRACE_RECORD_VFS_READ ||
	    r->task.pid != (uint32_t)s->pid || r->count != RSIZE)
		return;
	n = s->nr_reads;
	if (n == MAX_READS)
		return;
	s->nr_reads++;
	if (r->task.cpu < 2)
		s->cpus_used[r->task.cpu]++;
	s->rd_file[n] = file_key(s, r->dev_major, r->dev_minor, r->ino);
	if (!(h->misc & RINGTRACE_MISC_TASK_EXT) ||
	    h->size < sizeof(*r) + sizeof(*x)) {
		s->no_ext++;
		s->rd_cg[n] = -1;
	} else {
		s->rd_cg[n] = cgroup_key(s, x->cgroup_id);
	}
	s->rd_ts[n] = r->task.ts_ns;
	s->rd_ring[n] = ring;
}

/* Reads named by nothing before them: earlier, or a tie on their ring. */
static int unnamed(const struct seen *s, int k, int i)
{
	const struct key_seen *ks;

	if (k < 0)
		return 1;
	ks = &s->key[k];
	if (!ks->names)
		return 1;
	return !(ks->ts < s->rd_ts[i] ||
		 (ks->ts == s->rd_ts[i] && ks->ring == s->rd_ring[i]));
}

/*
 * RUN reads of file 0 in cgroup X on each CPU: what the last records of
 * one period and the first of the next on each ring are about, so that a
 * memo kept across ENABLE would hide their names in the next period.
 */
static int same_on_each_cpu(int fd, int cpus)
{
	char buf[RSIZE];

	for (int cpu = 0; cpu < 2; cpu++) {
		if (cpus > 1 && !st_pin(cpu))
			return 11;
		st_cgroup_move(CG_X, getpid());
		for (int i = 0; i < RUN; i++)
			if (pread(fd, buf, sizeof(buf), 0) < 0)
				return 12;
	}
	return 0;
}

static int workload(void *arg)
{
	int fds[NR_FILES], cpus = st_online_cpus(), err;
	char buf[RSIZE];

	(void)arg;
	for (int f = 0; f < NR_FILES; f++) {
		fds[f] = open(files[f], O_RDONLY | O_CLOEXEC);
		if (fds[f] < 0)
			return 10;
	}
	err = same_on_each_cpu(fds[0], cpus);
	if (err)
		return err;
	for (int round = 0; round < ROUNDS; round++) {
		/* A new CPU every round, a new cgroup every other one. */
		if (cpus > 1 && !st_pin(round % 2))
			return 11;
		st_cgroup_move(cgroups[(round / 2) % 2], getpid());
		for (int i = 0; i < READS; i++) {
			int fd = fds[(i / RUN + round) % NR_FILES];

			if (pread(fd, buf, sizeof(buf), 0) < 0)
				return 12;
		}
	}
	return same_on_each_cpu(fds[0], cpus);
}

static void seen_init(struct seen *s)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	for (int f = 0; f < NR_FILES; f++) {
		if (stat(files[f], &st))
			tap_bail("stat %s: %s", files[f], strerror(errno));
		s->ino[f] = st.st_ino;
		s->major[f] = major(st.st_dev);
		s->minor[f] = minor(st.st_dev);
	}
}

/* One enabled period of @ss with a fresh child, drained into @s. */
static void period(struct st_session *ss, struct st_child *c, struct seen *s,
		   uint64_t id_x, uint64_t id_y)
{
	seen_init(s);
	s->cg_id[0] = id_x;
	s->cg_id[1] = id_y;
	s->pid = c->pid;
	if (st_enable(ss))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(c);
	if (st_child_wait(c))
		tap_diag("workload failed");
	st_disable(ss);
	if (st_drain(ss, record, s) < 0)
		tap_diag("malformed ring");
}

/* Every key named exactly once, and no read before its names. */
static void check_named(const struct seen *s, const char *what)
{
	int bad_file = 0, bad_cg = 0, once = 0;

	for (int k = 0; k < NR_KEYS; k++)
		once += s->key[k].names == 1;
	for (int i = 0; i < s->nr_reads; i++) {
		bad_file += unnamed(s, s->rd_file[i], i);
		bad_cg += unnamed(s, s->rd_cg[i], i);
	}
	tap_ok(s->nr_reads == MAX_READS && !s->no_ext,
	       "%s: all %d reads recorded with a task_ext (%d, %d without; "
	       "%d on CPU 0, %d on CPU 1)", what, MAX_READS, s->nr_reads,
	       s->no_ext, s->cpus_used[0], s->cpus_used[1]);
	tap_ok(once == NR_KEYS,
	       "%s: each of 3 files and 2 cgroups named exactly once (names: "
	       "%d %d %d, %d %d)", what, s->key[0].names, s->key[1].names,
	       s->key[2].names, s->key[3].names, s->key[4].names);
	tap_ok(!bad_file && !bad_cg,
	       "%s: no read before its file's and its cgroup's names (%d, %d)",
	       what, bad_file, bad_cg);
}

/* A per-thread session on @tid alone: its ring is slot 0. */
static void per_thread_open(struct st_session *ss, pid_t tid)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	struct ringtrace_info info = { .size = sizeof(info) };
	int32_t tids[1] = { tid };
	void *p;

	cfg.flags = RINGTRACE_CFG_PER_THREAD | RINGTRACE_CFG_PATHS |
		    RINGTRACE_CFG_CGROUPS;
	cfg.nr_tids = 1;
	cfg.tids_ptr = (uintptr_t)tids;
	ss->fd = st_open();
	if (ioctl(ss->fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	ss->page_size = info.page_size;
	if (ioctl(ss->fd, RINGTRACE_IOC_SET_CONFIG, &cfg))
		tap_bail("SET_CONFIG per-thread: %s", strerror(errno));
	ss->nr_cpus = 1;
	ss->rings = calloc(1, sizeof(*ss->rings));
	if (!ss->rings)
		tap_bail("out of memory");
	p = st_map(ss->fd, 0, PAGES, PROT_READ | PROT_WRITE, MAP_SHARED);
	if (p == MAP_FAILED)
		tap_bail("mmap thread ring: %s", strerror(errno));
	ss->rings[0].page = p;
	ss->rings[0].len = (1 + (size_t)PAGES) * ss->page_size;
}

int main(void)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	static struct seen s;
	struct st_session ss;
	struct st_child c;
	uint64_t id_x, id_y;
	int f, fd;

	st_require_features(RINGTRACE_FEAT_PATHS | RINGTRACE_FEAT_CGROUP |
			    RINGTRACE_FEAT_CGROUP_IDS | RINGTRACE_FEAT_PER_THREAD,
			    "path records, cgroup ids without names");
	st_cgroup_mount();
	tap_plan(12);
	for (f = 0; f < NR_FILES; f++) {
		fd = open(files[f], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0644);
		if (fd < 0 || write(fd, "ringtrace memo test\n", 20) != 20)
			tap_bail("cannot write %s", files[f]);
		close(fd);
	}
	id_x = st_cgroup_make(CG_X);
	id_y = st_cgroup_make(CG_Y);
	if (st_online_cpus() < 2)
		tap_diag("one CPU online: no migration between rings");

	/* Per-CPU rings, system-wide: two enabled periods. */
	cfg.flags = RINGTRACE_CFG_PATHS | RINGTRACE_CFG_CGROUPS;
	st_session_open(&ss, &cfg, PAGES);
	st_child_start(&c, workload, NULL);
	period(&ss, &c, &s, id_x, id_y);
	check_named(&s, "per-CPU rings");
	st_child_start(&c, workload, NULL);
	period(&ss, &c, &s, id_x, id_y);
	check_named(&s, "enabled again");
	st_session_close(&ss);

	/* One thread's ring, written from both CPUs. */
	st_child_start(&c, workload, NULL);
	per_thread_open(&ss, c.pid);
	period(&ss, &c, &s, id_x, id_y);
	check_named(&s, "per-thread ring");
	st_session_close(&ss);

	/* Ids only: --no-paths --no-cgroup-names. */
	cfg.flags = RINGTRACE_CFG_CGROUPS | RINGTRACE_CFG_NO_CGROUP_NAMES;
	st_session_open(&ss, &cfg, PAGES);
	st_child_start(&c, workload, NULL);
	period(&ss, &c, &s, id_x, id_y);
	st_session_close(&ss);
	{
		int wrong = 0;

		for (int i = 0; i < s.nr_reads; i++)
			wrong += s.rd_cg[i] < 0;
		tap_ok(s.nr_reads == MAX_READS && !s.no_ext && !wrong,
		       "NO_CGROUP_NAMES: every read keeps its cgroup's id (%d "
		       "reads, %d without a task_ext, %d with another id)",
		       s.nr_reads, s.no_ext, wrong);
	}
	tap_ok(!s.path_records && !s.cgroup_records,
	       "NO_CGROUP_NAMES, no PATHS: no path record, no cgroup record "
	       "(%ld, %ld)", s.path_records, s.cgroup_records);

	fd = st_open();
	cfg.flags = RINGTRACE_CFG_NO_CGROUP_NAMES;
	tap_ok(ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg) == -1 &&
	       errno == EINVAL,
	       "NO_CGROUP_NAMES without CGROUPS is EINVAL");
	close(fd);

	rmdir(CG_X);
	rmdir(CG_Y);
	for (f = 0; f < NR_FILES; f++)
		unlink(files[f]);
	return tap_finish();
}
