// SPDX-License-Identifier: GPL-2.0-only
/*
 * A per-thread session follows each selected thread, not its id. When a
 * thread that is not its process's leader calls execve(), the kernel ends
 * the leader and hands the exec'ing thread the leader's id (de_thread():
 * the two swap their struct pid). The thread goes on in the new program
 * under the leader's id; its records must stay in its own ring, and the
 * leader's ring must get nothing more and say its thread exited.
 *
 * The child's leader makes LEADER_READS tagged reads, then lets its
 * second thread go, which makes THREAD_READS and execs this program
 * again with --after-exec: AFTER_READS more, tagged AFTER_IDX, then exit.
 * A session matching threads by pid put the after-exec reads in the
 * leader's ring.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <ringtrace/ring.h>

#include "st_util.h"
#include "tap.h"

#define LEADER_IDX	0
#define THREAD_IDX	1
#define AFTER_IDX	5
#define LEADER_READS	30
#define THREAD_READS	40
#define AFTER_READS	50
#define PAGES		16

static volatile int leader_done;

/* The leader: its reads, then the other thread may exec. */
static int leader(void *arg)
{
	int err = st_tagged_reads(LEADER_IDX, LEADER_READS);

	(void)arg;
	__atomic_store_n(&leader_done, 1, __ATOMIC_RELEASE);
	/* de_thread() ends it here, blocked until the exec. */
	for (;;)
		pause();
	return err;
}

static int exec_thread(int idx, void *arg)
{
	struct timespec ts = { 0, 1000000 };
	char *argv[] = { "thread_exec", "--after-exec", NULL };
	int err;

	(void)idx;
	(void)arg;
	while (!__atomic_load_n(&leader_done, __ATOMIC_ACQUIRE))
		nanosleep(&ts, NULL);
	err = st_tagged_reads(THREAD_IDX, THREAD_READS);
	if (err)
		return err;
	execv("/proc/self/exe", argv);
	return 5;
}

/* Tagged reads seen in one ring, by tag; the ids they were made under. */
struct ring_reads {
	long by_idx[AFTER_IDX + 1];
	long untagged;		/* the new program's loader, reading libc */
	long other;		/* any other record type */
	unsigned int after_tid;	/* task.tid of the after-exec reads */
};

static void count_ring(struct ringtrace_mmap_page *pg, size_t len,
		       size_t page_size, struct ring_reads *rr)
{
	struct rt_record rec;
	struct rt_ring r;
	int err;

	memset(rr, 0, sizeof(*rr));
	if (rt_ring_init_mmap(&r, pg, len, page_size, NULL, 0))
		tap_bail("ring: not a ring");
	err = rt_ring_refresh(&r, NULL);
	while (err == RT_RING_OK && (err = rt_ring_peek(&r, &rec)) == RT_RING_OK) {
		const struct ringtrace_vfs_read_record *v = rec.data;
		unsigned long long tag = (unsigned long long)v->pos >>
					 ST_TAG_SHIFT;

		if (rec.type != RINGTRACE_RECORD_VFS_READ) {
			rr->other++;
		} else if (v->count == 8 && tag <= AFTER_IDX) {
			rr->by_idx[tag]++;
			if (tag == AFTER_IDX)
				rr->after_tid = v->task.tid;
		} else {
			rr->untagged++;
		}
		rt_ring_advance(&r);
	}
	rt_ring_release(&r);
	rt_ring_fini(&r);
	if (err != RT_RING_EMPTY)
		tap_bail("ring: malformed (%d)", err);
}

int main(int argc, char **argv)
{
	struct ringtrace_mmap_page *pg[2];
	size_t page_size = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (1 + PAGES) * page_size;
	struct ringtrace_config cfg;
	struct ring_reads rr[2];
	pid_t tids[ST_MAX_THREADS], sel[2];
	struct st_child child;
	int fd, i, status;

	if (argc > 1 && !strcmp(argv[1], "--after-exec"))
		return st_tagged_reads(AFTER_IDX, AFTER_READS);

	st_require_features(RINGTRACE_FEAT_PER_THREAD, "per-thread rings");
	tap_plan(5);

	st_threads_start(&child, 1, exec_thread, leader, NULL, tids);
	sel[0] = child.pid;	/* the leader */
	sel[1] = tids[0];
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	cfg.flags = RINGTRACE_CFG_PER_THREAD;
	cfg.nr_tids = 2;
	cfg.tids_ptr = (uintptr_t)sel;
	fd = st_open();
	if (ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg))
		tap_bail("SET_CONFIG per-thread: %s", strerror(errno));
	for (i = 0; i < 2; i++) {
		pg[i] = st_map(fd, i, PAGES, PROT_READ | PROT_WRITE,
			       MAP_SHARED);
		if (pg[i] == MAP_FAILED)
			tap_bail("mmap thread ring %d: %s", i, strerror(errno));
	}
	if (ioctl(fd, RINGTRACE_IOC_ENABLE))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&child);
	status = st_child_wait(&child);
	/* The child has exited: nothing runs what DISABLE unpatches. */
	if (ioctl(fd, RINGTRACE_IOC_DISABLE))
		tap_bail("DISABLE: %s", strerror(errno));
	tap_ok(status == 0, "the leader read, its thread read and exec'd, the new program read and exited (exit %d)",
	       status);

	for (i = 0; i < 2; i++)
		count_ring(pg[i], len, page_size, &rr[i]);
	tap_ok(rr[0].by_idx[LEADER_IDX] == LEADER_READS &&
	       !rr[0].by_idx[THREAD_IDX] && !rr[0].by_idx[AFTER_IDX] &&
	       !rr[0].untagged,
	       "the leader's ring: its %d reads and nothing after its end (%ld, then %ld of the thread, %ld after the exec, %ld others)",
	       LEADER_READS, rr[0].by_idx[LEADER_IDX],
	       rr[0].by_idx[THREAD_IDX], rr[0].by_idx[AFTER_IDX],
	       rr[0].untagged);
	tap_ok(rr[1].by_idx[THREAD_IDX] == THREAD_READS &&
	       rr[1].by_idx[AFTER_IDX] == AFTER_READS &&
	       !rr[1].by_idx[LEADER_IDX],
	       "the exec'ing thread's ring: its %d reads before the exec and %d after (%ld, %ld, %ld of the leader's)",
	       THREAD_READS, AFTER_READS, rr[1].by_idx[THREAD_IDX],
	       rr[1].by_idx[AFTER_IDX], rr[1].by_idx[LEADER_IDX]);
	tap_ok(rr[1].after_tid == (unsigned int)child.pid &&
	       pg[1]->tid == (unsigned int)sel[1],
	       "after the exec its records say the leader's id (%u, leader %d), its ring still the id it was selected by (%u)",
	       rr[1].after_tid, child.pid, pg[1]->tid);
	tap_ok(pg[0]->thread_flags & RINGTRACE_THREAD_EXITED &&
	       pg[1]->thread_flags & RINGTRACE_THREAD_EXITED,
	       "both rings say their thread exited (%#x, %#x)",
	       pg[0]->thread_flags, pg[1]->thread_flags);
	for (i = 0; i < 2; i++)
		munmap(pg[i], len);
	close(fd);
	return tap_finish();
}
