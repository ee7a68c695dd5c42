// SPDX-License-Identifier: GPL-2.0-only
/*
 * poll()/epoll wake-ups: a reader sleeping in poll() is woken when a ring
 * passes its watermark, not before; a trickle below the watermark is still
 * delivered by the flush timer; DISABLE wakes the reader so it can drain;
 * and with nothing new, poll() times out. The test traces its own process
 * (RINGTRACE_CFG_INCLUDE_SELF): only the main thread reads, from /dev/zero.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define REC	sizeof(struct ringtrace_vfs_read_record)
/*
 * How long a reader waits for a wake-up that must come. Only a bound: a
 * wake-up is told from a time-out by poll()'s result, never by how long it
 * took (the VM's speed is not the kernel's behaviour).
 */
#define WAKE_MS	30000

struct waiter {
	int fd;
	bool use_epoll;
	int timeout_ms;
	volatile bool done;
	int result;		/* poll's return value */
	uint64_t woke_ns;
	pthread_t thread;
};

static void *wait_main(void *arg)
{
	struct waiter *w = arg;
	struct pollfd pfd = { .fd = w->fd, .events = POLLIN };
	struct epoll_event ev = { .events = EPOLLIN };
	int ep;

	if (w->use_epoll) {
		ep = epoll_create1(EPOLL_CLOEXEC);
		epoll_ctl(ep, EPOLL_CTL_ADD, w->fd, &ev);
		w->result = epoll_wait(ep, &ev, 1, w->timeout_ms);
		close(ep);
	} else {
		w->result = poll(&pfd, 1, w->timeout_ms);
	}
	w->woke_ns = st_now_ns();
	w->done = true;
	return NULL;
}

static void wait_start(struct waiter *w, int fd, bool use_epoll, int timeout_ms)
{
	*w = (struct waiter){ .fd = fd, .use_epoll = use_epoll,
			      .timeout_ms = timeout_ms };
	if (pthread_create(&w->thread, NULL, wait_main, w))
		tap_bail("pthread_create");
	usleep(100000);	/* let it block */
}

static void do_reads(int n)
{
	static int fd = -1;
	char buf[8];

	if (fd < 0)
		fd = open("/dev/zero", O_RDONLY);
	while (n-- > 0)
		if (read(fd, buf, sizeof(buf)) != sizeof(buf))
			tap_bail("read /dev/zero: %s", strerror(errno));
}

/*
 * Drain, and forget a wake-up the flush timer may have raised before the
 * drain: with nothing unread it raises no more.
 */
static void settle(struct st_session *s)
{
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };

	st_drain(s, NULL, NULL);
	usleep(300000);
	poll(&pfd, 1, 0);
}

/* A session on our own process, pinned to CPU 0 so one ring fills. */
static void open_self(struct st_session *s, uint32_t watermark, uint32_t flush)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ,
						getpid());

	cfg.flags = RINGTRACE_CFG_INCLUDE_SELF;
	cfg.watermark_bytes = watermark;
	cfg.flush_ms = flush;
	st_session_open(s, &cfg, 4);
	if (st_enable(s))
		tap_bail("ENABLE: %s", strerror(errno));
}

int main(void)
{
	struct st_session s;
	struct waiter w;
	uint64_t t0;

	tap_plan(8);
	if (!st_pin(0))
		tap_bail("cannot pin to CPU 0");

	open_self(&s, 10 * REC, 60000);
	wait_start(&w, s.fd, false, 300);
	pthread_join(w.thread, NULL);
	tap_ok(w.result == 0, "nothing traced: poll times out");

	wait_start(&w, s.fd, false, WAKE_MS);
	do_reads(5);
	usleep(500000);
	tap_ok(!w.done, "5 records, watermark 10: the reader sleeps on");
	t0 = st_now_ns();
	do_reads(10);
	pthread_join(w.thread, NULL);
	tap_ok(w.result == 1, "crossing the watermark wakes it (%d, after %llu ms)",
	       w.result, (unsigned long long)((w.woke_ns - t0) / 1000000));
	st_drain(&s, NULL, NULL);

	wait_start(&w, s.fd, false, WAKE_MS);
	st_disable(&s);
	pthread_join(w.thread, NULL);
	tap_ok(w.result == 1, "DISABLE wakes a sleeping reader");
	tap_ok(st_drain(&s, NULL, NULL) >= 0, "and it can drain");
	st_session_close(&s);

	open_self(&s, 1 << 20, 200);
	wait_start(&w, s.fd, false, WAKE_MS);
	t0 = st_now_ns();
	do_reads(1);
	pthread_join(w.thread, NULL);
	tap_ok(w.result == 1,
	       "flush timer (200 ms) delivers a trickle below the watermark (after %llu ms)",
	       (unsigned long long)((w.woke_ns - t0) / 1000000));
	settle(&s);

	wait_start(&w, s.fd, true, WAKE_MS);
	t0 = st_now_ns();
	do_reads(1);
	pthread_join(w.thread, NULL);
	tap_ok(w.result == 1,
	       "epoll_wait is woken the same way (after %llu ms)",
	       (unsigned long long)((w.woke_ns - t0) / 1000000));
	settle(&s);

	wait_start(&w, s.fd, true, 300);
	pthread_join(w.thread, NULL);
	tap_ok(w.result == 0, "drained: epoll_wait times out");
	st_disable(&s);
	st_session_close(&s);
	return tap_finish();
}
