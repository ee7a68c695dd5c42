// SPDX-License-Identifier: GPL-2.0-only
/*
 * Flight recorder: a one-page ring in overwrite mode wraps tens
 * of thousands of times while a process on CPU 0 makes 200000 preads
 * (the offset is a sequence number) and the irqsrc module's hrtimer writes
 * lock records from hard IRQ on the same CPU (nested writers). A thread on
 * CPU 1 snapshots the ring without pause with libringtrace's
 * rt_snapshot_copy_ring() (copy, fence, re-read the tail, discard what was
 * overwritten) and checks every record it keeps: whole (fields consistent
 * with the sequence number; lock records named), and the reads of one
 * snapshot consecutive unless a LOST record lies between. After DISABLE
 * the last snapshot must hold exactly the newest records: the last read,
 * and the ones before it back to a full ring. RINGTRACE_TEST_NAIVE=1 copies
 * without the re-check, to show the test catches torn records;
 * RINGTRACE_OVERWRITE_READS=N makes N reads instead of 200000.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ringtrace/barrier.h>
#include <ringtrace/snapshot.h>

#include "st_util.h"
#include "tap.h"

/* RINGTRACE_OVERWRITE_READS overrides it (a longer soak). */
#define NR_READS_DEFAULT	200000
static long nr_reads = NR_READS_DEFAULT;
#define RUN		"/sys/kernel/debug/ringtrace_irqsrc/run"
#define EXPIRIES	"20000"

struct checker {
	struct st_ring *ring;
	pid_t child;
	bool naive;
	volatile bool stop;
	unsigned char *buf;
	/* results */
	unsigned long long snapshots, busy, kept, torn, gaps, lost_records;
	unsigned long long irq_records;
	long long last_pos;		/* newest read of the last snapshot */
	unsigned long long last_run;	/* consecutive reads ending there */
	unsigned long long last_bytes;	/* bytes the last snapshot kept */
	int error;
};

static int read_zero(void *arg)
{
	char buf[64];
	int fd = open("/dev/zero", O_RDONLY);
	long i;

	(void)arg;
	if (fd < 0 || !st_pin(0))
		return 2;
	for (i = 0; i < nr_reads; i++)
		if (pread(fd, buf, 1 + i % 64, i) != 1 + i % 64)
			return 1;
	return 0;
}

static int fire_timer(void *arg)
{
	(void)arg;
	return st_pinned_write(0, RUN, EXPIRIES);
}

/* What a copy without the tail re-check would keep: everything. */
static int naive_copy(const struct ringtrace_mmap_page *pg,
		      const unsigned char *data, uint64_t size,
		      unsigned char *buf, struct rt_snapshot_copy *c)
{
	uint64_t head = rt_load_head_acquire(&pg->data_head);
	uint64_t tail = rt_load_u64_once(&pg->overwrite_tail);

	if (head - tail > size)
		return RT_SNAPSHOT_BUSY;
	for (uint64_t p = tail; p < head; p++)
		buf[p - tail] = data[p & (size - 1)];
	c->base = c->from = tail;
	c->to = head;
	return RT_SNAPSHOT_OK;
}

/* Check one snapshot's records. */
static void check(struct checker *ck, const struct rt_snapshot_copy *c)
{
	uint64_t pos = c->from;
	long long prev = -1;
	bool lost_between = false;
	unsigned long long run = 0;

	while (pos < c->to) {
		const unsigned char *p = ck->buf + (pos - c->base);
		const struct ringtrace_event_header *h = (const void *)p;

		if (h->size < 16 || h->size % 8 || h->size > c->to - pos) {
			ck->torn++;
			return;		/* cannot walk further */
		}
		ck->kept++;
		if (h->type == RINGTRACE_RECORD_LOST) {
			ck->lost_records++;
			lost_between = true;
		} else if (h->type == RINGTRACE_RECORD_LOCK) {
			const struct ringtrace_lock_record *l = (const void *)p;

			if (h->size < sizeof(*l) ||
			    strcmp(l->name, "irqsrc_lock") || l->task.cpu != 0)
				ck->torn++;
			else
				ck->irq_records++;
		} else if (h->type == RINGTRACE_RECORD_VFS_READ) {
			const struct ringtrace_vfs_read_record *r = (const void *)p;

			if (h->size != sizeof(*r) ||
			    r->task.pid != (unsigned int)ck->child ||
			    r->task.cpu != 0 || r->pos < 0 ||
			    r->count != (unsigned long long)(1 + r->pos % 64) ||
			    r->ret != (long long)r->count) {
				ck->torn++;
			} else {
				if (prev >= 0 && r->pos != prev + 1 &&
				    !lost_between)
					ck->gaps++;
				run = prev >= 0 && r->pos == prev + 1 ? run + 1 : 1;
				prev = r->pos;
				lost_between = false;
			}
		} else {
			ck->torn++;
		}
		pos += h->size;
	}
	ck->last_pos = prev;
	ck->last_run = run;
	ck->last_bytes = c->to - c->from;
}

static int snapshot_once(struct checker *ck)
{
	const struct ringtrace_mmap_page *pg = ck->ring->page;
	const unsigned char *data = (const unsigned char *)pg + pg->data_offset;
	struct rt_snapshot_copy c;
	int ret;

	if (ck->naive)
		ret = naive_copy(pg, data, pg->data_size, ck->buf, &c);
	else
		ret = rt_snapshot_copy_ring(pg, data, pg->data_size, ck->buf,
					    0, &c);
	if (ret == RT_SNAPSHOT_BUSY) {
		ck->busy++;
		return 0;
	}
	if (ret)
		return ret;
	ck->snapshots++;
	check(ck, &c);
	return 0;
}

static void *checker_main(void *arg)
{
	struct checker *ck = arg;

	st_pin(1);
	while (!ck->stop && !ck->error)
		ck->error = snapshot_once(ck);
	return NULL;
}

int main(void)
{
	struct checker ck = { .last_pos = -1 };
	struct ringtrace_config cfg;
	struct ringtrace_stats st;
	struct st_child reader, timer;
	struct st_session s;
	pthread_t tid;
	int err, rr, rt;

	tap_plan(7);
	if (st_online_cpus() < 2)
		tap_skip_all("needs 2 CPUs (the checker runs beside the writers)");
	err = st_load_module("selftests/ringtrace/modules/ringtrace_irqsrc.ko",
			     "period_us=20");
	if (err && err != EEXIST)
		tap_bail("loading ringtrace_irqsrc.ko: %s", strerror(err));
	ck.naive = getenv("RINGTRACE_TEST_NAIVE") != NULL;
	if (getenv("RINGTRACE_OVERWRITE_READS"))
		nr_reads = atol(getenv("RINGTRACE_OVERWRITE_READS"));
	if (nr_reads < 1000)
		tap_bail("RINGTRACE_OVERWRITE_READS: at least 1000");

	st_child_start(&reader, read_zero, NULL);
	st_child_start(&timer, fire_timer, NULL);
	/*
	 * The reader's reads, and the lock records of the timer interrupts
	 * that hit it: nested inside its own writes, on CPU 0's ring.
	 */
	cfg = st_config(RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_LOCK,
			reader.pid);
	cfg.flags |= RINGTRACE_CFG_OVERWRITE;
	st_session_open(&s, &cfg, 1);
	ck.ring = &s.rings[0];
	ck.child = reader.pid;
	if (!ck.ring->page)
		tap_bail("CPU 0 has no ring");
	ck.buf = malloc(ck.ring->page->data_size);
	if (!ck.buf)
		tap_bail("out of memory");
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	tap_ok(ck.ring->page->flags & RINGTRACE_PAGE_OVERWRITE,
	       "the control page says overwrite mode (flags %#x)",
	       ck.ring->page->flags);
	if (pthread_create(&tid, NULL, checker_main, &ck))
		tap_bail("pthread_create");
	st_child_go(&reader);
	st_child_go(&timer);
	rr = st_child_wait(&reader);
	rt = st_child_wait(&timer);
	ck.stop = true;
	pthread_join(tid, NULL);
	st_disable(&s);
	if (st_stats(&s, &st))
		tap_bail("GET_STATS: %s", strerror(errno));

	tap_diag("%llu snapshots (%llu busy), %llu records kept, %llu from IRQ, %llu LOST records; ring wrapped %llu times; kernel: %llu records, %llu overwritten, %llu lost",
		 ck.snapshots, ck.busy, ck.kept, ck.irq_records,
		 ck.lost_records,
		 (unsigned long long)(ck.ring->page->data_head /
				      ck.ring->page->data_size),
		 (unsigned long long)st.records,
		 (unsigned long long)st.overwritten,
		 (unsigned long long)st.lost);
	tap_ok(rr == 0 && rt == 0 && ck.error == 0,
	       "workloads ran (reads %d, timer %d), snapshots well formed (%d)",
	       rr, rt, ck.error);
	tap_ok(ck.snapshots > 1000 && st.overwritten > (unsigned long long)nr_reads / 2,
	       "%llu snapshots while %llu records were overwritten",
	       ck.snapshots, (unsigned long long)st.overwritten);
	tap_ok(ck.torn == 0, "no torn or half-overwritten record kept (%llu)",
	       ck.torn);
	tap_ok(ck.gaps == 0, "reads consecutive in every snapshot (%llu gaps)",
	       ck.gaps);

	/* The last snapshot, writers stopped: exactly the newest records. */
	ck.stop = false;
	ck.naive = false;
	ck.error = snapshot_once(&ck);
	/*
	 * The ring keeps the newest records: if it holds a read, the newest
	 * one must be the last. It may hold none when the timer's records
	 * after the last read filled it (seen on 7.2-rt, where the timer
	 * interrupts a slow last read many times); then they are all newer
	 * than every read, and the next check sees a full ring of them.
	 */
	tap_ok(ck.error == 0 && ck.torn == 0 &&
	       (ck.last_pos == nr_reads - 1 || ck.last_pos == -1),
	       "the final snapshot ends with the last read (%lld; -1: only the timer's newer records)",
	       ck.last_pos);
	tap_ok(ck.last_bytes + sizeof(struct ringtrace_lock_record) >
	       ck.ring->page->data_size &&
	       ck.last_bytes <= ck.ring->page->data_size && ck.gaps == 0,
	       "and holds a full ring of the newest (%llu of %llu bytes, the last %llu reads in a row)",
	       ck.last_bytes, (unsigned long long)ck.ring->page->data_size,
	       ck.last_run);
	st_session_close(&s);
	st_unload_module("ringtrace_irqsrc");
	free(ck.buf);
	return tap_finish();
}
