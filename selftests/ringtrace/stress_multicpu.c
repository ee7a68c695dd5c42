// SPDX-License-Identifier: GPL-2.0-only
/*
 * Multi-CPU stress: threads pinned to every CPU hammer vfs_read while a
 * reader drains every ring concurrently. Each call carries its own check
 * value: thread t's call number n is pread(fd, buf, count(t, n), t << 40 | n)
 * on /dev/zero, so every record can be verified on its own (right thread,
 * right comm, count matching its position: nothing torn) and against its
 * predecessor (strictly increasing n per thread: nothing reordered). Gaps
 * must equal what LOST records report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <ringtrace/ring.h>

#include "st_util.h"
#include "tap.h"

#define MAX_THREADS	8
#define CALLS		20000
#define SEQ_BITS	40

static int nr_threads;
/* Known before the fork: the traced child must make no other reads. */
static int nr_cpus;

static unsigned long long check_count(unsigned int t, unsigned long long n)
{
	return 1 + ((n * 2654435761u) ^ (t * 40503u)) % 200;
}

static void *hammer(void *arg)
{
	unsigned int t = (unsigned int)(long)arg;
	char name[16], buf[256];
	unsigned long long n;
	int fd = open("/dev/zero", O_RDONLY);

	snprintf(name, sizeof(name), "rtw-%u", t);
	prctl(PR_SET_NAME, name);
	st_pin((int)t % nr_cpus);
	for (n = 0; n < CALLS; n++) {
		size_t c = check_count(t, n);

		if (pread(fd, buf, c, (off_t)((unsigned long long)t << SEQ_BITS | n)) !=
		    (ssize_t)c)
			return (void *)1;
	}
	close(fd);
	return NULL;
}

static int workload(void *arg)
{
	pthread_t th[MAX_THREADS];
	void *ret;
	int t, bad = 0;

	(void)arg;
	for (t = 0; t < nr_threads; t++)
		if (pthread_create(&th[t], NULL, hammer, (void *)(long)t))
			return 2;
	for (t = 0; t < nr_threads; t++) {
		pthread_join(th[t], &ret);
		bad += ret != NULL;
	}
	return bad ? 3 : 0;
}

struct verify {
	struct st_session *sess;
	volatile bool stop;
	pid_t child;
	int error;
	long records, torn, reordered, gaps;
	unsigned long long lost;
	long long last[MAX_THREADS];
	unsigned int tid[MAX_THREADS];
};

static void verify_one(struct verify *v, const struct rt_record *rec)
{
	const struct ringtrace_vfs_read_record *r = rec->data;
	unsigned long long t, n;
	char comm[16];

	if (rec->type == RINGTRACE_RECORD_LOST) {
		v->lost += ((const struct ringtrace_lost_record *)rec->data)->lost;
		return;
	}
	v->records++;
	t = (unsigned long long)r->pos >> SEQ_BITS;
	n = (unsigned long long)r->pos & ((1ull << SEQ_BITS) - 1);
	if (rec->type != RINGTRACE_RECORD_VFS_READ ||
	    rec->size != sizeof(*r) || t >= (unsigned int)nr_threads ||
	    r->task.pid != (unsigned int)v->child ||
	    r->count != check_count((unsigned int)t, n) ||
	    r->ret != (long long)r->count) {
		v->torn++;
		return;
	}
	snprintf(comm, sizeof(comm), "rtw-%llu", t);
	if (!v->tid[t])
		v->tid[t] = r->task.tid;
	if (r->task.tid != v->tid[t] || strcmp(comm, r->task.comm))
		v->torn++;
	if ((long long)n <= v->last[t])
		v->reordered++;
	else
		v->gaps += (long long)n - v->last[t] - 1;
	v->last[t] = (long long)n;
}

static void *reader_main(void *arg)
{
	struct verify *v = arg;
	struct st_session *s = v->sess;
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };
	struct rt_ring rings[64];
	struct rt_record rec;
	int cpu, ncpu = st_online_cpus(), err = 0;
	bool last = false;

	for (cpu = 0; cpu < ncpu && !v->error; cpu++)
		v->error = rt_ring_init_mmap(&rings[cpu], s->rings[cpu].page,
					     s->rings[cpu].len, s->page_size,
					     NULL, 0);
	while (!v->error) {
		poll(&pfd, 1, 10);
		for (cpu = 0; cpu < ncpu; cpu++) {
			err = rt_ring_refresh(&rings[cpu], NULL);
			while (err == RT_RING_OK &&
			       (err = rt_ring_peek(&rings[cpu], &rec)) == RT_RING_OK) {
				verify_one(v, &rec);
				rt_ring_advance(&rings[cpu]);
			}
			rt_ring_release(&rings[cpu]);
			if (err != RT_RING_EMPTY) {
				v->error = err;
				break;
			}
		}
		if (last)
			break;
		last = v->stop;
	}
	for (cpu = 0; cpu < ncpu; cpu++)
		rt_ring_fini(&rings[cpu]);
	return NULL;
}

int main(void)
{
	struct verify v = { .error = 0 };
	struct ringtrace_config cfg;
	struct ringtrace_stats st;
	struct st_session sess;
	struct st_child child;
	long missing = 0;
	pthread_t reader;
	int cpu, t, rc;

	nr_cpus = st_online_cpus();
	nr_threads = 2 * nr_cpus;
	if (nr_threads > MAX_THREADS)
		nr_threads = MAX_THREADS;
	if (st_online_cpus() > 64)
		tap_skip_all("more than 64 CPUs");
	for (t = 0; t < MAX_THREADS; t++)
		v.last[t] = -1;
	tap_plan(6);

	st_child_start(&child, workload, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	cfg.watermark_bytes = 4096;
	st_session_open(&sess, &cfg, 4);
	v.sess = &sess;
	v.child = child.pid;
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	if (pthread_create(&reader, NULL, reader_main, &v))
		tap_bail("pthread_create");
	st_child_go(&child);
	rc = st_child_wait(&child);
	st_disable(&sess);
	v.stop = true;
	pthread_join(reader, NULL);
	for (cpu = 0; cpu < st_online_cpus(); cpu++)
		v.lost += sess.rings[cpu].page->lost_pending;
	for (t = 0; t < nr_threads; t++)
		missing += CALLS - 1 - v.last[t];

	tap_ok(rc == 0, "%d threads x %d calls ran (exit %d)", nr_threads,
	       CALLS, rc);
	tap_ok(v.error == 0, "every ring stayed well formed (%d)", v.error);
	tap_ok(v.torn == 0, "no torn record among %ld (%ld bad)", v.records,
	       v.torn);
	tap_ok(v.reordered == 0, "no reordered record (%ld)", v.reordered);
	tap_ok(v.gaps + missing == (long)v.lost,
	       "missing calls (%ld) == records reported lost (%llu)",
	       v.gaps + missing, v.lost);
	rc = st_stats(&sess, &st);
	tap_ok(rc == 0 &&
	       st.produced == (unsigned long long)v.records + v.lost &&
	       st.produced == (unsigned long long)nr_threads * CALLS,
	       "produced %llu == consumed %ld + lost %llu",
	       (unsigned long long)st.produced, v.records, v.lost);
	st_session_close(&sess);
	return tap_finish();
}
