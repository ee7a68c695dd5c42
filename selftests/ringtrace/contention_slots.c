// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel lock contention: one table slot per (task, lock), however many
 * contention_begin events a mutex wait reports. The mutexwait module
 * makes a waiter B report a second begin while a slot freed since its
 * first begin lies before its own (see the module's comment): no recorded
 * wait of B may be longer than B's longest mutex_lock() call as the
 * module timed it (before the fix B's first slot leaked and a later wait
 * was counted from it). Then a calibrated contention of exactly N: exactly
 * N records of calib_mutex, and no contention missed meanwhile.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define DIR		"/sys/kernel/debug/ringtrace_mutexwait/"
#define CALIBRATED	50

struct tally {
	int b_tid;
	unsigned long long b_records, b_too_long, b_max_wait;
	unsigned long long max_b_ns;
	unsigned long long calib;
};

/* Whether the kernel names calib_mutex (st_lock_nameable()). */
static bool calib_named;

static void count(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_lock_record *r = (const void *)h;
	struct tally *t = arg;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_LOCK || !(r->flags & RINGTRACE_LOCK_KERNEL))
		return;
	/* By kind where it has no name of its own: the calibrating waiter's. */
	if (!strcmp(r->name, "calib_mutex") ||
	    (!calib_named && !strcmp(r->name, "mutex") &&
	     !strcmp(r->task.comm, "mutexwait/calib")))
		t->calib++;
	if ((int)r->task.tid != t->b_tid || strcmp(r->name, "mutex"))
		return;
	t->b_records++;
	if (r->wait_ns > t->b_max_wait)
		t->b_max_wait = r->wait_ns;
	t->b_too_long += r->wait_ns > t->max_b_ns;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

static int do_run(void *arg)
{
	(void)arg;
	/* The module's preemption trick needs the writer on B's CPU. */
	if (!st_pin(0))
		return 2;
	return write_file(DIR "run", "1");	/* 0 or the errno */
}

static int do_calibrate(void *arg)
{
	char n[16];

	(void)arg;
	snprintf(n, sizeof(n), "%d", CALIBRATED);
	return write_file(DIR "calibrate", n) ? 1 : 0;
}

static int run_traced(int (*fn)(void *), struct st_session *s)
{
	struct st_child c;

	st_child_start(&c, fn, NULL);
	if (st_enable(s))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&c);
	return st_child_wait(&c);
}

int main(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	struct ringtrace_config cfg;
	struct ringtrace_stats st0, st1;
	struct tally t = {};
	struct st_session s;
	int err, found = 0;
	FILE *f;

	tap_plan(5);
	st_session_open(&s, NULL, 256);
	if (ioctl(s.fd, RINGTRACE_IOC_GET_INFO, &info) ||
	    !(info.features & RINGTRACE_FEAT_LOCK_CONTENTION))
		tap_skip_all("no lock contention tracepoints");
	cfg = st_config(RINGTRACE_EVENT_LOCK_CONTENTION, -1);
	if (ioctl(s.fd, RINGTRACE_IOC_SET_CONFIG, &cfg))
		tap_bail("SET_CONFIG: %s", strerror(errno));
	err = st_load_module("selftests/ringtrace/modules/ringtrace_mutexwait.ko", "");
	if (err)
		tap_bail("loading ringtrace_mutexwait.ko: %s", strerror(err));
	calib_named = st_lock_nameable("calib_mutex", "ringtrace_mutexwait");

	err = run_traced(do_run, &s);
	st_disable(&s);
	f = fopen(DIR "result", "r");
	if (!f || fscanf(f, "%d %llu %d", &t.b_tid, &t.max_b_ns, &found) != 3)
		tap_bail("reading %sresult", DIR);
	fclose(f);
	st_drain(&s, count, &t);
	if (err == EOPNOTSUPP) {
		tap_skip("PREEMPT_RT: mutexes are rt_mutexes, one begin per wait");
		tap_skip("PREEMPT_RT: no colliding-wait scenario");
		tap_skip("PREEMPT_RT: no colliding-wait scenario");
	} else {
		tap_ok(err == 0 && found,
		       "waiters slept in colliding mutexes (run %s, collision %s)",
		       err ? strerror(err) : "ok", found ? "found" : "not found");
		tap_ok(t.b_records == 2, "B: 2 contentions, 2 records (%llu)",
		       t.b_records);
		tap_ok(t.b_records && !t.b_too_long,
		       "no wait of B longer than its longest mutex_lock() (%llu > %llu ns: %llu)",
		       t.b_max_wait, t.max_b_ns, t.b_too_long);
	}

	st_stats(&s, &st0);
	t.calib = 0;
	err = run_traced(do_calibrate, &s);
	st_disable(&s);
	st_stats(&s, &st1);
	st_drain(&s, count, &t);
	tap_ok(err == 0 && t.calib == CALIBRATED,
	       "calibrated contention: %llu records of calib_mutex%s, want %d",
	       t.calib, calib_named ? "" :
	       " (\"mutex\" of mutexwait/calib: kallsyms has no name of its own for it)",
	       CALIBRATED);
	tap_ok(st1.contention_missed == st0.contention_missed,
	       "no contention missed meanwhile (%llu -> %llu)",
	       (unsigned long long)st0.contention_missed,
	       (unsigned long long)st1.contention_missed);
	st_session_close(&s);
	err = st_unload_module("ringtrace_mutexwait");
	if (err)
		tap_diag("unloading ringtrace_mutexwait: %s", strerror(err));
	return tap_finish();
}
