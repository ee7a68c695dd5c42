// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-thread mode across migrations: one selected thread moves itself
 * from CPU to CPU with sched_setaffinity() every few reads, round-robin
 * over the online CPUs, while an unselected thread reads on every CPU too.
 * The thread's ring must hold one stream: every read, in order (sequence
 * numbers in the pread() offsets), written on more than one CPU (the
 * records say which), with nothing lost and nothing of the other thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ringtrace/ring.h>

#include "st_util.h"
#include "tap.h"

#define CALLS		2000
#define HOP		25	/* reads between two moves */
#define PAGES		64	/* 256 KiB: every record fits, no reader */
#define MAX_CPUS	64

static int nr_cpus;

static int worker(int idx, void *arg)
{
	char buf[8];
	int fd = open("/dev/zero", O_RDONLY), i;

	(void)arg;
	if (fd < 0)
		return 3;
	for (i = 0; i < CALLS; i++) {
		/* Thread 0 hops; thread 1 (not selected) follows it a CPU behind. */
		if (i % HOP == 0 &&
		    !st_pin((i / HOP + (idx ? nr_cpus - 1 : 0)) % nr_cpus))
			return 2;
		if (pread(fd, buf, sizeof(buf),
			  (off_t)((unsigned long long)idx << 32 | (unsigned int)i)) !=
		    sizeof(buf))
			return 4;
	}
	close(fd);
	return 0;
}

int main(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	size_t page_size = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (1 + PAGES) * page_size;
	struct ringtrace_config cfg;
	struct ringtrace_mmap_page *pg;
	struct ringtrace_stats st;
	struct st_child child;
	struct rt_record rec;
	struct rt_ring r;
	pid_t tids[ST_MAX_THREADS];
	long mine = 0, foreign = 0, disorder = 0, next = 0, on_cpu[MAX_CPUS] = { 0 };
	int fd, err, status, cpus_seen = 0, i;

	nr_cpus = st_online_cpus();
	if (nr_cpus < 2)
		tap_skip_all("needs at least 2 online CPUs");
	if (nr_cpus > MAX_CPUS)
		nr_cpus = MAX_CPUS;
	fd = st_open();
	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	if (!(info.features & RINGTRACE_FEAT_PER_THREAD))
		tap_skip_all("the module has no per-thread rings");
	tap_plan(6);

	st_threads_start(&child, 2, worker, NULL, NULL, tids);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	cfg.flags = RINGTRACE_CFG_PER_THREAD;
	cfg.nr_tids = 1;
	cfg.tids_ptr = (uintptr_t)tids;
	if (ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg))
		tap_bail("SET_CONFIG: %s", strerror(errno));
	pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  RINGTRACE_MMAP_OFFSET(0));
	if (pg == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));
	if (ioctl(fd, RINGTRACE_IOC_ENABLE))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&child);
	status = st_child_wait(&child);
	if (ioctl(fd, RINGTRACE_IOC_DISABLE))
		tap_bail("DISABLE: %s", strerror(errno));
	tap_ok(status == 0, "2 threads x %d reads, moving every %d (exit %d)",
	       CALLS, HOP, status);

	err = rt_ring_init_mmap(&r, pg, len, page_size, NULL, 0);
	if (!err)
		err = rt_ring_refresh(&r, NULL);
	while (err == RT_RING_OK && (err = rt_ring_peek(&r, &rec)) == RT_RING_OK) {
		const struct ringtrace_vfs_read_record *v = rec.data;

		if (rec.type != RINGTRACE_RECORD_VFS_READ ||
		    v->task.tid != (unsigned int)tids[0] ||
		    (unsigned long long)v->pos >> 32 != 0) {
			foreign++;
		} else {
			if (v->pos != next)
				disorder++;
			next = v->pos + 1;
			mine++;
			if (v->task.cpu < MAX_CPUS && !on_cpu[v->task.cpu]++)
				cpus_seen++;
		}
		rt_ring_advance(&r);
	}
	rt_ring_release(&r);
	tap_ok(err == RT_RING_EMPTY, "the ring stayed well formed (%d)", err);
	tap_ok(mine == CALLS && !disorder,
	       "one ordered stream: %ld of %d reads, %ld out of order", mine,
	       CALLS, disorder);
	tap_ok(cpus_seen >= 2, "written from %d CPUs as the thread moved",
	       cpus_seen);
	tap_ok(foreign == 0, "nothing of the other thread (%ld)", foreign);
	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	err = ioctl(fd, RINGTRACE_IOC_GET_STATS, &st) ? errno : 0;
	tap_ok(!err && st.produced == CALLS && st.lost == 0,
	       "stats: produced %llu == %d, lost %llu",
	       (unsigned long long)st.produced, CALLS,
	       (unsigned long long)st.lost);
	rt_ring_fini(&r);
	munmap(pg, len);
	close(fd);
	for (i = 0; i < nr_cpus; i++)
		if (on_cpu[i])
			tap_diag("CPU %d: %ld records", i, on_cpu[i]);
	return tap_finish();
}
