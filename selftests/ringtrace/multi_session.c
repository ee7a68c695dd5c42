// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sessions are independent: two sessions tracing the same process each
 * get every record; disabling or closing one leaves the other untouched;
 * each keeps its own statistics.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define N	100

static int ctl_pipe[2];

static void zero_reads(int n)
{
	if (st_zero_reads(n, 16))
		_exit(20);
}

/* N reads, wait for the parent (one traced pipe read), N/2 reads. */
static int workload(void *arg)
{
	char b;

	(void)arg;
	zero_reads(N);
	if (read(ctl_pipe[0], &b, 1) != 1)
		return 2;
	zero_reads(N / 2);
	return 0;
}

static void count_reads(const struct ringtrace_event_header *h, int cpu,
			void *arg)
{
	(void)cpu;
	if (h->type == RINGTRACE_RECORD_VFS_READ)
		++*(long *)arg;
}

int main(void)
{
	struct ringtrace_config cfg;
	struct ringtrace_stats st1, st2;
	struct st_session a, b;
	struct st_child child;
	long na = 0, nb = 0, na2 = 0, nb2 = 0;

	tap_plan(5);
	if (pipe(ctl_pipe))
		tap_bail("pipe: %s", strerror(errno));
	st_child_start(&child, workload, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	st_session_open(&a, &cfg, 16);
	st_session_open(&b, &cfg, 16);
	if (st_enable(&a) || st_enable(&b))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&child);
	usleep(200000);
	/* The first phase is over when the child blocks on the pipe. */
	for (int i = 0; i < 500 && na < N; i++) {
		if (st_drain(&a, count_reads, &na) < 0)
			break;
		usleep(10000);
	}
	st_drain(&b, count_reads, &nb);
	tap_ok(na == N && nb == N, "both sessions see all %d reads (%ld, %ld)",
	       N, na, nb);

	st_disable(&a);
	if (write(ctl_pipe[1], "g", 1) != 1)
		tap_bail("cannot release the child");
	tap_ok(st_child_wait(&child) == 0, "workload ran");
	st_disable(&b);
	st_drain(&a, count_reads, &na2);
	st_drain(&b, count_reads, &nb2);
	tap_ok(na2 == 0, "the disabled session gets nothing more (%ld)", na2);
	tap_ok(nb2 == N / 2 + 1, "the other gets the rest: %d (%ld)", N / 2 + 1,
	       nb2);
	st_stats(&a, &st1);
	st_stats(&b, &st2);
	tap_ok(st1.produced == N && st2.produced == N + N / 2 + 1,
	       "separate statistics (%llu, %llu)",
	       (unsigned long long)st1.produced,
	       (unsigned long long)st2.produced);
	st_session_close(&a);
	st_session_close(&b);
	return tap_finish();
}
