// SPDX-License-Identifier: GPL-2.0-only
/*
 * Record contents against a workload with known reads. A child reads a
 * file of known size in fixed chunks, then a pread, a pipe read and a read
 * into a bad buffer: exactly one vfs_read record per call must appear, in
 * order, with the right task, file, position, count, result, a plausible
 * latency and a timestamp inside the workload's window.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define FILE_SIZE	10000
#define CHUNK		1000
#define NR_CHUNK_READS	(FILE_SIZE / CHUNK + 1)		/* + the EOF read */
#define NR_EXPECTED	(NR_CHUNK_READS + 3)
#define COMM		"rt-contents"

static const char *path = "/tmp/ringtrace-record-contents";

struct expect {
	long long pos, count, ret;
	bool pipe;
};

struct seen {
	struct ringtrace_vfs_read_record rec[64];
	int n;
	int other;		/* records of any other type */
	int wrong_cpu;		/* task.cpu != the ring's CPU */
};

static int workload(void *arg)
{
	static char buf[CHUNK];
	int fd, p[2], i;

	(void)arg;
	prctl(PR_SET_NAME, COMM);
	fd = open(path, O_RDONLY);
	if (fd < 0 || pipe(p))
		return 2;
	if (write(p[1], "hello", 5) != 5)
		return 3;
	for (i = 0; i < NR_CHUNK_READS; i++)
		if (read(fd, buf, CHUNK) < 0)
			return 4;
	if (pread(fd, buf, 300, 5000) != 300)
		return 5;
	if (read(p[0], buf, 64) != 5)
		return 6;
	lseek(fd, 0, SEEK_SET);
	/* An address no process can write to: the kernel's. */
	if (read(fd, (void *)-4096L, 10) != -1 || errno != EFAULT)
		return 7;
	return 0;
}

static void collect(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	struct seen *s = arg;

	if (h->type != RINGTRACE_RECORD_VFS_READ ||
	    h->size != sizeof(s->rec[0])) {
		s->other++;
		return;
	}
	if (((const struct ringtrace_vfs_read_record *)h)->task.cpu !=
	    (unsigned int)cpu)
		s->wrong_cpu++;
	if (s->n < (int)(sizeof(s->rec) / sizeof(s->rec[0])))
		memcpy(&s->rec[s->n], h, sizeof(s->rec[0]));
	s->n++;
}

static int by_time(const void *a, const void *b)
{
	const struct ringtrace_vfs_read_record *x = a, *y = b;

	return x->task.ts_ns < y->task.ts_ns ? -1 : x->task.ts_ns > y->task.ts_ns;
}

static bool zero_after_nul(const char *s, size_t n)
{
	size_t i = strnlen(s, n);

	for (; i < n; i++)
		if (s[i])
			return false;
	return true;
}

int main(void)
{
	static char content[FILE_SIZE];
	struct expect want[NR_EXPECTED];
	struct ringtrace_config cfg;
	struct ringtrace_stats st;
	struct st_session sess;
	struct st_child child;
	struct seen seen = { .n = 0 };
	struct stat file_st;
	uint64_t t0, t1;
	int fd, i, rc, bad_task = 0, bad_file = 0, bad_args = 0, bad_time = 0;
	bool pad_ok = true;

	tap_plan(12);

	memset(content, 'r', sizeof(content));
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0 || write(fd, content, sizeof(content)) != FILE_SIZE)
		tap_bail("cannot create %s: %s", path, strerror(errno));
	close(fd);
	if (stat(path, &file_st))
		tap_bail("stat %s: %s", path, strerror(errno));

	for (i = 0; i < NR_CHUNK_READS; i++)
		want[i] = (struct expect){ .pos = (long long)i * CHUNK,
					   .count = CHUNK,
					   .ret = i < FILE_SIZE / CHUNK ? CHUNK : 0 };
	want[i++] = (struct expect){ .pos = 5000, .count = 300, .ret = 300 };
	want[i++] = (struct expect){ .pos = -1, .count = 64, .ret = 5,
				     .pipe = true };
	want[i++] = (struct expect){ .pos = 0, .count = 10, .ret = -EFAULT };

	st_child_start(&child, workload, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	st_session_open(&sess, &cfg, 16);
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	t0 = st_now_ns();
	st_child_go(&child);
	rc = st_child_wait(&child);
	t1 = st_now_ns();
	st_disable(&sess);
	tap_ok(rc == 0, "workload ran (exit %d)", rc);

	tap_ok(st_drain(&sess, collect, &seen) >= 0, "rings are well formed");
	tap_ok(seen.n == NR_EXPECTED && seen.other == 0,
	       "exactly %d vfs_read records (got %d, and %d others)",
	       NR_EXPECTED, seen.n, seen.other);
	if (seen.n > NR_EXPECTED)
		seen.n = NR_EXPECTED;
	tap_ok(seen.wrong_cpu == 0, "each record is in its CPU's ring");

	/* The child may migrate between CPUs: order by time, not by ring. */
	qsort(seen.rec, (size_t)seen.n, sizeof(seen.rec[0]), by_time);
	for (i = 0; i < seen.n; i++) {
		const struct ringtrace_vfs_read_record *r = &seen.rec[i];
		const struct expect *w = &want[i];

		if (r->task.pid != (unsigned int)child.pid ||
		    r->task.tid != (unsigned int)child.pid ||
		    strcmp(r->task.comm, COMM))
			bad_task++;
		if (!w->pipe && (r->dev_major != major(file_st.st_dev) ||
				 r->dev_minor != minor(file_st.st_dev) ||
				 r->ino != file_st.st_ino))
			bad_file++;
		if (r->pos != w->pos || (long long)r->count != w->count ||
		    r->ret != w->ret) {
			bad_args++;
			tap_diag("call %d: pos %lld count %llu ret %lld, want %lld %lld %lld",
				 i, (long long)r->pos,
				 (unsigned long long)r->count,
				 (long long)r->ret, w->pos, w->count, w->ret);
		}
		if (r->task.ts_ns < t0 || r->task.ts_ns > t1 ||
		    r->lat_ns == 0 || r->lat_ns > r->task.ts_ns - t0)
			bad_time++;
		if (r->header.misc || r->task.__pad ||
		    !zero_after_nul(r->task.comm, sizeof(r->task.comm)))
			pad_ok = false;
	}
	tap_ok(bad_task == 0, "pid, tid and comm are the child's (%d wrong)",
	       bad_task);
	tap_ok(bad_file == 0, "dev %u:%u and inode %llu match stat() (%d wrong)",
	       major(file_st.st_dev), minor(file_st.st_dev),
	       (unsigned long long)file_st.st_ino, bad_file);
	tap_ok(bad_args == 0, "positions, counts and results in call order (%d wrong)",
	       bad_args);
	tap_ok(seen.n > 1 && seen.rec[NR_EXPECTED - 2].pos == -1,
	       "a pipe read has no position (-1)");
	tap_ok(seen.n == NR_EXPECTED && seen.rec[NR_EXPECTED - 1].ret == -EFAULT,
	       "a failed read reports -errno");
	tap_ok(bad_time == 0,
	       "timestamps inside the workload, latencies positive and shorter (%d wrong)",
	       bad_time);
	tap_ok(pad_ok, "misc, padding and comm tail are zero");

	rc = st_stats(&sess, &st);
	tap_ok(rc == 0 && st.produced == NR_EXPECTED &&
	       st.records == NR_EXPECTED && st.lost == 0,
	       "stats: produced %llu, records %llu, lost %llu",
	       (unsigned long long)st.produced,
	       (unsigned long long)st.records, (unsigned long long)st.lost);
	st_session_close(&sess);
	unlink(path);
	return tap_finish();
}
