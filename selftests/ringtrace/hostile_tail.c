// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hostile data_tail: data_tail is the only thing the kernel reads from the
 * user-writable control page. While children read on every CPU, the test
 * writes nonsense into data_tail (0, ~0, head + 1, unaligned, far behind,
 * random). The kernel must stay healthy (the runner fails the test on any
 * splat), drop-and-count while the tail makes no sense, keep its own
 * accounting exact, and resume normal service once the tail is sane.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define MAX_CPUS	64

static int reader_loop(void *arg)
{
	char buf[64];
	int fd = open("/dev/zero", O_RDONLY);

	st_pin((int)(long)arg);
	for (;;)
		if (read(fd, buf, sizeof(buf)) < 0)
			return 2;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Tail values that make no sense, relative to the ring's current head. */
static uint64_t hostile(struct ringtrace_mmap_page *pg, int i, uint64_t *rnd)
{
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);

	switch (i % 7) {
	case 0: return 0;
	case 1: return ~0ull;
	case 2: return head + 1;
	case 3: return head - 3;			/* unaligned */
	case 4: return head - pg->data_size - 8;	/* too far behind */
	case 5: return head + (1ull << 40);
	default: return xorshift(rnd);
	}
}

int main(void)
{
	struct st_child kids[MAX_CPUS];
	struct ringtrace_stats st0, st1;
	struct ringtrace_config cfg;
	struct st_session sess;
	int ncpu = st_online_cpus(), cpu, i;
	uint64_t rnd = 0x9e3779b97f4a7c15ull, t_end;
	unsigned long long lost_before;
	long after;
	int err;

	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	tap_plan(6);

	cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	st_session_open(&sess, &cfg, 2);
	/*
	 * Attach, then start the readers; stop them before detaching.
	 * Patching vfs_read while another vCPU runs it crashes guests
	 * under QEMU TCG, ftrace's own kprobe events included
	 * (Documentation/testing.rst), so no test does that.
	 */
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	for (cpu = 0; cpu < ncpu; cpu++) {
		st_child_start(&kids[cpu], reader_loop, (void *)(long)cpu);
		st_child_go(&kids[cpu]);
	}

	/* Two seconds of nonsense on every ring, producers running. */
	t_end = st_now_ns() + 2000000000ull;
	for (i = 0; st_now_ns() < t_end; i++) {
		for (cpu = 0; cpu < ncpu; cpu++)
			__atomic_store_n(&sess.rings[cpu].page->data_tail,
					 hostile(sess.rings[cpu].page, i, &rnd),
					 __ATOMIC_RELEASE);
		usleep(100);
	}
	err = st_stats(&sess, &st0);
	tap_ok(err == 0 &&
	       st0.produced == st0.records + st0.lost,
	       "accounting exact under attack: produced %llu = %llu + %llu lost",
	       (unsigned long long)st0.produced,
	       (unsigned long long)st0.records, (unsigned long long)st0.lost);
	tap_ok(st0.produced > 1000, "producers kept running (%llu events)",
	       (unsigned long long)st0.produced);

	/* A tail ahead of the head means "no room": everything is dropped. */
	for (cpu = 0; cpu < ncpu; cpu++)
		__atomic_store_n(&sess.rings[cpu].page->data_tail,
				 sess.rings[cpu].page->data_head + 8,
				 __ATOMIC_RELEASE);
	usleep(20000);	/* let writers that read the old tail finish */
	st_stats(&sess, &st0);
	usleep(200000);
	st_stats(&sess, &st1);
	tap_ok(st1.records == st0.records && st1.lost > st0.lost,
	       "a tail ahead of the head drops and counts (%llu more lost)",
	       (unsigned long long)(st1.lost - st0.lost));

	/* Sane again: skip whatever is there and read what comes next. */
	lost_before = st1.lost;
	for (cpu = 0; cpu < ncpu; cpu++)
		__atomic_store_n(&sess.rings[cpu].page->data_tail,
				 __atomic_load_n(&sess.rings[cpu].page->data_head,
						 __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
	usleep(100000);
	for (cpu = 0; cpu < ncpu; cpu++) {
		kill(kids[cpu].pid, SIGKILL);
		st_child_wait(&kids[cpu]);
	}
	st_disable(&sess);
	after = st_drain(&sess, NULL, NULL);
	tap_ok(after > 0, "with a sane tail, records flow again (%ld)", after);
	st_stats(&sess, &st1);
	tap_ok(st1.produced == st1.records + st1.lost && st1.lost >= lost_before,
	       "accounting still exact: produced %llu = %llu + %llu lost",
	       (unsigned long long)st1.produced,
	       (unsigned long long)st1.records, (unsigned long long)st1.lost);

	st_session_close(&sess);
	/* The module still works for a fresh session. */
	st_session_open(&sess, &cfg, 1);
	tap_ok(st_enable(&sess) == 0 && st_disable(&sess) == 0,
	       "a new session works afterwards");
	st_session_close(&sess);
	return tap_finish();
}
