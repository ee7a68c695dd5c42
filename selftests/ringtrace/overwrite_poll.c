// SPDX-License-Identifier: GPL-2.0-only
/*
 * poll() on a flight recorder after DISABLE: an
 * overwrite-mode reader never writes data_tail (protocol.rst, "Flight
 * recorder"), so "unread" cannot mean "data_head past data_tail" there.
 * A held child makes reads into an overwrite session's per-CPU rings;
 * after DISABLE, poll() must report the session readable (DISABLE's
 * wake-up), the reader then takes its snapshot as abi.rst describes
 * (copying from overwrite_tail to data_head, writing nothing), and from
 * then on poll() with timeout 0 must return 0: an event loop would
 * otherwise spin on a ring it has already read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ringtrace/snapshot.h>

#include "st_util.h"
#include "tap.h"

#define PAGES	4
#define CALLS	200

static int reader(void *arg)
{
	(void)arg;
	return st_zero_reads(CALLS, 8);
}

static int poll_now(int fd, short *revents)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n = poll(&pfd, 1, 0);

	*revents = pfd.revents;
	return n;
}

int main(void)
{
	struct ringtrace_config cfg;
	struct rt_snapshot_copy c;
	struct st_session s;
	struct st_child child;
	unsigned char *buf;
	long long copied = 0;
	int status, first, second, third, i, err;
	short ev1, ev2, ev3;

	tap_plan(4);
	st_child_start(&child, reader, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	cfg.flags = RINGTRACE_CFG_OVERWRITE;
	st_session_open(&s, &cfg, PAGES);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&child);
	status = st_child_wait(&child);
	/* The child has exited: nothing runs what DISABLE unpatches. */
	if (st_disable(&s))
		tap_bail("DISABLE: %s", strerror(errno));
	tap_ok(status == 0, "the child made %d reads (exit %d)", CALLS, status);

	first = poll_now(s.fd, &ev1);
	tap_ok(first == 1 && (ev1 & POLLIN),
	       "after DISABLE poll() says readable (%d, %#x)", first, ev1);

	/* The snapshot a flight recorder's reader takes: it writes nothing. */
	buf = malloc(PAGES * s.page_size);
	if (!buf)
		tap_bail("no memory");
	for (i = 0; i < s.nr_cpus; i++) {
		const struct ringtrace_mmap_page *pg = s.rings[i].page;

		if (!pg)
			continue;
		err = rt_snapshot_copy_ring(pg, (const unsigned char *)pg +
					    s.page_size,
					    PAGES * s.page_size, buf, 0, &c);
		if (err != RT_SNAPSHOT_OK)
			tap_bail("snapshot of ring %d: %d", i, err);
		copied += (long long)(c.to - c.from);
	}
	tap_ok(copied > 0, "the snapshot copied the reads (%lld bytes)", copied);

	second = poll_now(s.fd, &ev2);
	third = poll_now(s.fd, &ev3);
	tap_ok(second == 0 && third == 0,
	       "once read, poll() with timeout 0 returns 0 (%d %#x, then %d %#x)",
	       second, ev2, third, ev3);
	free(buf);
	st_session_close(&s);
	return tap_finish();
}
