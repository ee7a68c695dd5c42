// SPDX-License-Identifier: GPL-2.0-only
/*
 * A tracked lock may be destroyed and freed as soon as its owner holds it
 * last, even while another thread's unlock is still writing that thread's
 * lock record: the record must carry the lock's real name, read before the
 * memory went away. The lockfree module arranges it on every round (see
 * its comment): a SCHED_FIFO thread preempts the unlocker right where
 * preemption comes back, and a third thread destroys the lock, scribbles
 * over its name and frees it meanwhile. Every record of the victim lock
 * must be named "lockfree_victim" (two per round); under KASAN (the debug
 * kernel) the runner also fails a use-after-free report. The window only
 * opens on preemptible kernels (PREEMPT, PREEMPT_RT, preempt=full); on
 * others this passes either way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define RUN	"/sys/kernel/debug/ringtrace_lockfree/run"
#define ROUNDS	20

struct tally {
	unsigned long long victim, other;
};

static void count(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_lock_record *r = (const void *)h;
	struct tally *t = arg;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_LOCK || (r->flags & RINGTRACE_LOCK_KERNEL))
		return;
	if (!strcmp(r->name, "lockfree_victim"))
		t->victim++;
	else if (strcmp(r->name, "ringtrace_sessions"))
		t->other++;
}

static int run(void *arg)
{
	char n[16];
	int fd, err = 0;

	(void)arg;
	snprintf(n, sizeof(n), "%d", ROUNDS);
	fd = open(RUN, O_WRONLY);
	if (fd < 0 || write(fd, n, strlen(n)) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	return err;
}

int main(void)
{
	struct ringtrace_config cfg;
	struct st_child c;
	struct tally t = {};
	struct st_session s;
	int err, rc;

	tap_plan(3);
	if (st_online_cpus() < 2)
		tap_skip_all("needs 2 CPUs");
	err = st_load_module("selftests/ringtrace/modules/ringtrace_lockfree.ko", "");
	if (err && err != EEXIST)
		tap_bail("loading ringtrace_lockfree.ko: %s", strerror(err));

	cfg = st_config(RINGTRACE_EVENT_LOCK, -1);
	st_session_open(&s, &cfg, 64);
	st_child_start(&c, run, NULL);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&c);
	rc = st_child_wait(&c);
	st_disable(&s);
	if (st_drain(&s, count, &t) < 0)
		tap_diag("malformed ring");
	st_session_close(&s);

	tap_ok(rc == 0, "%d rounds ran (%s)", ROUNDS, rc ? strerror(rc) : "ok");
	tap_ok(t.victim == 2 * ROUNDS && t.other == 0,
	       "%llu records named lockfree_victim of %d, %llu named otherwise",
	       t.victim, 2 * ROUNDS, t.other);
	err = st_unload_module("ringtrace_lockfree");
	tap_ok(!err, "unload lockfree: %s", err ? strerror(err) : "done");
	return tap_finish();
}
