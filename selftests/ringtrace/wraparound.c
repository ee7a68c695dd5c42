// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wrap-around: a reader drains a one-page ring while a child makes 20000
 * reads into it. The ring wraps hundreds of times; records that straddle
 * its end must come out whole (the reader's bounce buffer), in order, and
 * every record is accounted for: the child encodes a sequence number in
 * each pread's offset, and the gaps in the sequence are exactly what the
 * LOST records report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include <ringtrace/ring.h>

#include "st_util.h"
#include "tap.h"

#define NR_READS	20000

struct reader {
	struct st_session *sess;
	volatile bool stop;
	long records;
	long wrapped;		/* records that straddled the end of the ring */
	long bad;		/* wrong fields */
	long out_of_order;
	long gaps;		/* sequence numbers missing */
	unsigned long long lost;
	long long last_seq;
	int error;
	pid_t child;
};

static int workload(void *arg)
{
	char buf[64];
	long i;
	int fd = open("/dev/zero", O_RDONLY);

	(void)arg;
	st_pin(0);
	for (i = 0; i < NR_READS; i++)
		if (pread(fd, buf, 1 + i % 64, i) != 1 + i % 64)
			return 2;
	return 0;
}

static void check(struct reader *rd, const struct rt_record *rec,
		  uint64_t pos, uint64_t size)
{
	const struct ringtrace_vfs_read_record *r = rec->data;

	if ((pos & (size - 1)) + rec->size > size)
		rd->wrapped++;
	if (rec->type == RINGTRACE_RECORD_LOST) {
		rd->lost += ((const struct ringtrace_lost_record *)rec->data)->lost;
		return;
	}
	rd->records++;
	if (rec->type != RINGTRACE_RECORD_VFS_READ ||
	    r->task.pid != (unsigned int)rd->child ||
	    r->count != (unsigned long long)(1 + r->pos % 64) ||
	    r->ret != (long long)r->count) {
		rd->bad++;
		return;
	}
	if (r->pos <= rd->last_seq)
		rd->out_of_order++;
	else
		rd->gaps += r->pos - rd->last_seq - 1;
	rd->last_seq = r->pos;
}

static int drain(struct reader *rd, struct rt_ring *r, uint64_t size)
{
	struct rt_record rec;
	int err = rt_ring_refresh(r, NULL);

	while (err == RT_RING_OK) {
		uint64_t pos = r->pos;

		err = rt_ring_peek(r, &rec);
		if (err != RT_RING_OK)
			break;
		check(rd, &rec, pos, size);
		rt_ring_advance(r);
	}
	rt_ring_release(r);
	return err == RT_RING_EMPTY ? 0 : err;
}

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	struct st_ring *sr = &rd->sess->rings[0];
	struct pollfd pfd = { .fd = rd->sess->fd, .events = POLLIN };
	struct rt_ring r;
	bool last = false;

	rd->error = rt_ring_init_mmap(&r, sr->page, sr->len,
				      rd->sess->page_size, NULL, 0);
	while (!rd->error) {
		poll(&pfd, 1, 10);
		rd->error = drain(rd, &r, sr->page->data_size);
		if (last)
			break;
		last = rd->stop;	/* one more pass after the stop */
	}
	rt_ring_fini(&r);
	return NULL;
}

int main(void)
{
	struct reader rd = { .last_seq = -1 };
	struct ringtrace_config cfg;
	struct ringtrace_stats st;
	struct st_session sess;
	struct st_child child;
	pthread_t tid;
	int rc;

	tap_plan(7);
	st_child_start(&child, workload, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	cfg.watermark_bytes = 1024;
	cfg.flush_ms = 5;
	st_session_open(&sess, &cfg, 1);
	rd.sess = &sess;
	rd.child = child.pid;
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	if (pthread_create(&tid, NULL, reader_main, &rd))
		tap_bail("pthread_create");
	st_child_go(&child);
	rc = st_child_wait(&child);
	st_disable(&sess);
	rd.stop = true;
	pthread_join(tid, NULL);
	/* Dropped after the last LOST record could be written. */
	rd.lost += sess.rings[0].page->lost_pending;

	tap_ok(rc == 0, "workload ran (exit %d)", rc);
	tap_ok(rd.error == 0, "the ring stayed well formed (%d)", rd.error);
	/*
	 * How often it wraps depends on how often the reader ran, which a
	 * loaded host decides (once seen under 10): a few times is the point.
	 */
	tap_ok(sess.rings[0].page->data_head > 3 * sess.page_size,
	       "the ring wrapped %llu times",
	       (unsigned long long)(sess.rings[0].page->data_head /
				    sess.page_size));
	tap_ok(rd.wrapped > 0 && rd.bad == 0,
	       "%ld records straddled the end and all %ld came out whole",
	       rd.wrapped, rd.records);
	tap_ok(rd.out_of_order == 0, "records in call order (%ld not)",
	       rd.out_of_order);
	tap_ok(rd.gaps + (NR_READS - 1 - rd.last_seq) == (long)rd.lost,
	       "missing sequence numbers (%ld) == records reported lost (%llu)",
	       rd.gaps + (long)(NR_READS - 1 - rd.last_seq), rd.lost);
	rc = st_stats(&sess, &st);
	tap_ok(rc == 0 &&
	       st.produced == (unsigned long long)rd.records + rd.lost &&
	       st.produced == NR_READS,
	       "produced %llu == consumed %ld + lost %llu",
	       (unsigned long long)st.produced, rd.records, rd.lost);
	st_session_close(&sess);
	return tap_finish();
}
