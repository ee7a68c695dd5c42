// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-thread mode (RINGTRACE_CFG_PER_THREAD): a child process with three
 * worker threads selects two of them. The session must have exactly two
 * rings, each control page naming its thread; each ring must hold all of
 * its thread's reads, in order, and nothing else: not the third worker's,
 * not the child's main thread's, although all of them read at the same
 * time. Every read carries its thread index and sequence number in its
 * pread() offset. Also: the ABI refuses a thread that does not exist, a
 * repeated one, a ring index past the list and a mode change once rings
 * are mapped; an exited thread's ring says so and stays readable.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ringtrace/ring.h>

#include "st_util.h"
#include "tap.h"

#define NR_WORKERS	3	/* workers 0 and 1 selected, 2 not */
#define NR_SELECTED	2
#define CALLS		500
#define PAGES		16
#define MAIN_IDX	7	/* the child's main thread's reads */

static int worker(int idx, void *arg)
{
	(void)arg;
	return st_tagged_reads((unsigned int)idx, CALLS);
}

static int main_thread(void *arg)
{
	(void)arg;
	return st_tagged_reads(MAIN_IDX, CALLS);
}

struct ring_check {
	unsigned int idx;	/* the worker this ring belongs to */
	pid_t tid;
	long mine, foreign, out_of_order, next;
	unsigned long long lost;
};

static int set_config(int fd, const pid_t *tids, unsigned int nr, pid_t pid)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, pid);

	cfg.flags = nr ? RINGTRACE_CFG_PER_THREAD : 0;
	cfg.nr_tids = nr;
	cfg.tids_ptr = (uintptr_t)tids;
	return ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg) ? errno : 0;
}

static void check_ring(struct ringtrace_mmap_page *pg, size_t len,
		       size_t page_size, struct ring_check *rc)
{
	struct rt_record rec;
	struct rt_ring r;
	int err;

	err = rt_ring_init_mmap(&r, pg, len, page_size, NULL, 0);
	if (err) {
		rc->foreign = -1;
		return;
	}
	err = rt_ring_refresh(&r, NULL);
	while (err == RT_RING_OK && (err = rt_ring_peek(&r, &rec)) == RT_RING_OK) {
		const struct ringtrace_vfs_read_record *v = rec.data;
		unsigned long long n = (unsigned long long)v->pos & 0xffffffffull;

		if (rec.type == RINGTRACE_RECORD_LOST) {
			rc->lost += ((const struct ringtrace_lost_record *)rec.data)->lost;
		} else if (rec.type != RINGTRACE_RECORD_VFS_READ ||
			   v->task.tid != (unsigned int)rc->tid ||
			   (unsigned long long)v->pos >> ST_TAG_SHIFT != rc->idx) {
			rc->foreign++;
		} else {
			if ((long)n != rc->next)
				rc->out_of_order++;
			rc->next = (long)n + 1;
			rc->mine++;
		}
		rt_ring_advance(&r);
	}
	rt_ring_release(&r);
	rt_ring_fini(&r);
	if (err != RT_RING_EMPTY)
		rc->foreign = -1;
}

int main(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	struct ring_check rc[NR_SELECTED];
	struct ringtrace_mmap_page *pg[NR_SELECTED];
	size_t page_size = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (1 + PAGES) * page_size;
	pid_t tids[ST_MAX_THREADS], bad[2];
	struct ringtrace_stats st;
	struct st_child child;
	int fd, err, i, status;
	void *p;

	fd = st_open();
	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	if (!(info.features & RINGTRACE_FEAT_PER_THREAD))
		tap_skip_all("the module has no per-thread rings");
	tap_plan(12);

	st_threads_start(&child, NR_WORKERS, worker, main_thread, NULL, tids);

	/* A thread id nobody has: ESRCH; the same one twice: EINVAL. */
	bad[0] = tids[0];
	bad[1] = 0x3ffffff0;
	err = set_config(fd, bad, 2, -1);
	tap_ok(err == ESRCH, "a thread that does not exist: ESRCH (%s)",
	       strerror(err));
	bad[1] = tids[0];
	err = set_config(fd, bad, 2, -1);
	i = set_config(fd, tids, NR_SELECTED, child.pid);
	tap_ok(err == EINVAL && i == EINVAL,
	       "a repeated thread, or a pid with a thread list: EINVAL (%s, %s)",
	       strerror(err), strerror(i));

	err = set_config(fd, tids, NR_SELECTED, -1);
	if (err)
		tap_bail("SET_CONFIG per-thread: %s", strerror(err));
	for (i = 0; i < NR_SELECTED; i++) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 RINGTRACE_MMAP_OFFSET(i));
		if (p == MAP_FAILED)
			tap_bail("mmap thread ring %d: %s", i, strerror(errno));
		pg[i] = p;
		rc[i] = (struct ring_check){ .idx = (unsigned int)i,
					     .tid = tids[i] };
	}
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd,
		 RINGTRACE_MMAP_OFFSET(NR_SELECTED));
	err = p == MAP_FAILED ? errno : 0;
	tap_ok(err == EINVAL, "no ring past the thread list (%s)",
	       strerror(err));
	tap_ok(pg[0]->cpu == RINGTRACE_CPU_NONE && pg[1]->cpu == RINGTRACE_CPU_NONE &&
	       pg[0]->tid == (unsigned int)tids[0] &&
	       pg[1]->tid == (unsigned int)tids[1] &&
	       pg[0]->version >= 3,
	       "each control page names its thread (%u, %u) and no CPU",
	       pg[0]->tid, pg[1]->tid);
	err = set_config(fd, NULL, 0, -1);
	tap_ok(err == EBUSY, "no switch to per-CPU rings once thread rings "
	       "are mapped (%s)", strerror(err));

	if (ioctl(fd, RINGTRACE_IOC_ENABLE))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&child);
	status = st_child_wait(&child);
	/* The child has exited: nothing runs what DISABLE unpatches. */
	if (ioctl(fd, RINGTRACE_IOC_DISABLE))
		tap_bail("DISABLE: %s", strerror(errno));
	tap_ok(status == 0, "4 threads x %d reads ran (exit %d)", CALLS, status);

	for (i = 0; i < NR_SELECTED; i++)
		check_ring(pg[i], len, page_size, &rc[i]);
	for (i = 0; i < NR_SELECTED; i++)
		tap_ok(rc[i].mine == CALLS && !rc[i].out_of_order && !rc[i].lost,
		       "ring %d: all %d reads of thread %d, in order (%ld, %ld "
		       "out of order, %llu lost)", i, CALLS, rc[i].tid,
		       rc[i].mine, rc[i].out_of_order, rc[i].lost);
	tap_ok(rc[0].foreign == 0 && rc[1].foreign == 0,
	       "nothing from another thread in either ring (%ld, %ld)",
	       rc[0].foreign, rc[1].foreign);
	tap_ok(pg[0]->thread_flags & RINGTRACE_THREAD_EXITED &&
	       pg[1]->thread_flags & RINGTRACE_THREAD_EXITED,
	       "both rings say their thread exited (%#x, %#x)",
	       pg[0]->thread_flags, pg[1]->thread_flags);

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	err = ioctl(fd, RINGTRACE_IOC_GET_STATS, &st) ? errno : 0;
	tap_ok(!err && st.nr_rings == NR_SELECTED &&
	       st.produced == NR_SELECTED * CALLS && st.no_ring == 0,
	       "stats: %u rings, produced %llu == %d, no_ring %llu, "
	       "not in task context %llu", st.nr_rings,
	       (unsigned long long)st.produced, NR_SELECTED * CALLS,
	       (unsigned long long)st.no_ring,
	       (unsigned long long)st.thread_not_task);

	/* The session is still open: its rings stay readable after exit. */
	tap_ok(pg[0]->data_head == pg[0]->data_tail && pg[0]->data_head > 0,
	       "the exited thread's ring was drained to its end (%llu bytes)",
	       (unsigned long long)pg[0]->data_head);
	for (i = 0; i < NR_SELECTED; i++)
		munmap(pg[i], len);
	close(fd);
	return tap_finish();
}
