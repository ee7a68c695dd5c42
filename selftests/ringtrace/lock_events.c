// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracked spinlocks and lock records, with real contention from the
 * lockstorm test module (2 kthreads on one tracked lock): with threshold 0
 * there is exactly one record per acquisition, some contended; the
 * statistics table agrees with the records to the nanosecond; thresholds
 * select; kernel lock contention (lock:contention_* tracepoints) arrives
 * in the same shape; a module's locks leave the table when it unloads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define THREADS		2
#define ITERATIONS	5000
#define STORM_LOCK	"lockstorm-0"
#define FORCED_LOCK	"lockstorm_forced"	/* contended once per run */
#define STORM_RUN	"/sys/kernel/debug/ringtrace_lockstorm/run"
#define MAX_LOCKS	256

struct totals {
	unsigned long long records, contended, wait, hold;
	unsigned long long wait_max, hold_max;
	unsigned long long kernel, kernel_bad, kernel_kmutex, below_threshold;
	unsigned long long forced, forced_contended;
	uint64_t lock_id;
	unsigned long long min_wait, min_hold;	/* the session's thresholds */
};

/* Whether the kernel names storm_kmutex (st_lock_nameable()). */
static bool kmutex_named;

static void add_lock(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_lock_record *r = (const void *)h;
	struct totals *t = arg;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_LOCK)
		return;
	if (r->flags & RINGTRACE_LOCK_KERNEL) {
		t->kernel++;
		if (r->hold_ns || !r->wait_ns || !(r->flags & RINGTRACE_LOCK_CONTENDED) ||
		    !strncmp(r->name, "0x", 2) || !r->name[0])
			t->kernel_bad++;
		/* By kind where it has no name of its own: the storm's tasks. */
		t->kernel_kmutex += !strcmp(r->name, "storm_kmutex") ||
			(!kmutex_named && !strcmp(r->name, "mutex") &&
			 !strncmp(r->task.comm, "lockstorm/", 10));
		return;
	}
	if (!strcmp(r->name, FORCED_LOCK)) {
		t->forced++;
		t->forced_contended += !!(r->flags & RINGTRACE_LOCK_CONTENDED);
		return;
	}
	if (strcmp(r->name, STORM_LOCK))
		return;
	if ((t->min_wait || t->min_hold) &&
	    !((t->min_wait && r->wait_ns >= t->min_wait) ||
	      (t->min_hold && r->hold_ns >= t->min_hold)))
		t->below_threshold++;
	t->lock_id = r->lock_id;
	t->records++;
	t->contended += !!(r->flags & RINGTRACE_LOCK_CONTENDED);
	t->wait += r->wait_ns;
	t->hold += r->hold_ns;
	if (r->wait_ns > t->wait_max)
		t->wait_max = r->wait_ns;
	if (r->hold_ns > t->hold_max)
		t->hold_max = r->hold_ns;
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

/* The lock table; returns nr_locks, fills up to MAX_LOCKS entries. */
static int lock_table(int fd, struct ringtrace_lock_stat *e, unsigned int *n,
		      bool reset)
{
	struct ringtrace_lock_stats_query q = {
		.size = sizeof(q),
		.entry_size = sizeof(*e),
		.nr_entries = MAX_LOCKS,
		.entries = (uintptr_t)e,
		.flags = reset ? RINGTRACE_LOCK_STATS_RESET : 0,
	};

	if (ioctl(fd, RINGTRACE_IOC_LOCK_STATS, &q))
		return -errno;
	*n = q.nr_entries;
	return (int)q.nr_locks;
}

static const struct ringtrace_lock_stat *find(const struct ringtrace_lock_stat *e,
					      unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			return &e[i];
	return NULL;
}

/* Run the storm with @cfg tracing it; the records' totals. */
static struct totals storm(struct ringtrace_config cfg)
{
	struct totals t = { .min_wait = cfg.lock_min_wait_ns,
			    .min_hold = cfg.lock_min_hold_ns };
	struct st_session s;
	int err;

	st_session_open(&s, &cfg, 512);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	err = write_file(STORM_RUN, "1");
	if (err)
		tap_diag("running the storm: %s", strerror(err));
	st_disable(&s);
	if (st_drain(&s, add_lock, &t) < 0)
		tap_diag("malformed ring");
	st_session_close(&s);
	return t;
}

static int load_storm(void)
{
	char params[128];
	int fd, err = 0;

	snprintf(params, sizeof(params), "threads=%d iterations=%d hold_ns=2000",
		 THREADS, ITERATIONS);
	fd = open(st_ko("selftests/ringtrace/modules/ringtrace_lockstorm.ko"),
		  O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, params, 0) && errno != EEXIST)
		err = errno;
	close(fd);
	return err;
}

int main(void)
{
	static struct ringtrace_lock_stat table[MAX_LOCKS];
	const struct ringtrace_lock_stat *e, *f;
	struct ringtrace_info info = { .size = sizeof(info) };
	struct ringtrace_config cfg;
	struct totals t;
	unsigned int n = 0;
	int fd, err, nr_before, nr_after;

	tap_plan(12);
	fd = st_open();
	ioctl(fd, RINGTRACE_IOC_GET_INFO, &info);
	err = load_storm();
	if (err)
		tap_bail("loading ringtrace_lockstorm.ko: %s", strerror(err));
	kmutex_named = st_lock_nameable("storm_kmutex", "ringtrace_lockstorm");

	/* Zero the statistics so that they cover exactly one storm. */
	lock_table(fd, table, &n, true);
	cfg = st_config(RINGTRACE_EVENT_LOCK, -1);
	t = storm(cfg);
	nr_before = lock_table(fd, table, &n, false);
	e = find(table, n, STORM_LOCK);

	tap_ok(t.records == THREADS * ITERATIONS,
	       "threshold 0: one record per acquisition (%llu of %d)",
	       t.records, THREADS * ITERATIONS);
	f = find(table, n, FORCED_LOCK);
	if (st_online_cpus() >= 2)
		tap_ok(t.forced == 2 && t.forced_contended == 1 && f &&
		       f->acquisitions == 2 && f->contended == 1 &&
		       f->wait_total_ns >= 10000000,
		       "forced contention: 2 records, 1 contended, waited %llu ns (storm: %llu contended)",
		       f ? (unsigned long long)f->wait_total_ns : 0, t.contended);
	else
		tap_skip("forced contention of a tracked lock needs 2 CPUs");
	tap_ok(e && e->acquisitions == t.records && e->contended == t.contended,
	       "table: %llu acquisitions, %llu contended, as the records",
	       e ? (unsigned long long)e->acquisitions : 0,
	       e ? (unsigned long long)e->contended : 0);
	tap_ok(e && e->wait_total_ns == t.wait && e->hold_total_ns == t.hold,
	       "table: wait %llu ns, hold %llu ns, to the nanosecond",
	       e ? (unsigned long long)e->wait_total_ns : 0,
	       e ? (unsigned long long)e->hold_total_ns : 0);
	tap_ok(e && e->wait_max_ns == t.wait_max && e->hold_max_ns == t.hold_max &&
	       e->lock_id == t.lock_id,
	       "table: maxima and lock id match the records");
	tap_ok(find(table, n, "lockstorm_static") && find(table, n, "ringtrace_sessions"),
	       "static and init-registered locks are listed (%d locks)", nr_before);

	lock_table(fd, table, &n, true);
	e = find(table, n, STORM_LOCK);
	lock_table(fd, table, &n, false);
	e = find(table, n, STORM_LOCK);
	tap_ok(e && e->acquisitions == 0 && e->hold_total_ns == 0,
	       "RINGTRACE_LOCK_STATS_RESET zeroes the statistics");

	cfg.lock_min_wait_ns = 1;	/* only acquisitions that waited */
	t = storm(cfg);
	lock_table(fd, table, &n, false);
	e = find(table, n, STORM_LOCK);
	tap_ok(e && t.records == e->contended && t.below_threshold == 0 &&
	       t.records < e->acquisitions,
	       "min wait 1 ns: only the %llu contended acquisitions (of %llu)",
	       t.records, e ? (unsigned long long)e->acquisitions : 0);

	cfg.lock_min_wait_ns = 0;
	cfg.lock_min_hold_ns = 1000000;	/* 1 ms, far above hold_ns */
	t = storm(cfg);
	tap_ok(t.below_threshold == 0 && t.records < THREADS * ITERATIONS / 10,
	       "min hold 1 ms: %llu records, none below the threshold",
	       t.records);

	if (info.features & RINGTRACE_FEAT_LOCK_CONTENTION) {
		cfg = st_config(RINGTRACE_EVENT_LOCK_CONTENTION, -1);
		t = storm(cfg);
		tap_ok(t.kernel_kmutex > 0 && t.kernel_bad == 0 && t.records == 0,
		       "kernel lock contention: %llu records (%llu on storm_kmutex%s), named, no hold time",
		       t.kernel, t.kernel_kmutex, kmutex_named ? "" :
		       ": \"mutex\" of the storm's tasks, kallsyms has no name of its own for it");
	} else {
		tap_skip("kernel lock contention: tracepoints not available here");
	}

	err = syscall(SYS_delete_module, "ringtrace_lockstorm", O_NONBLOCK) ? errno : 0;
	tap_ok(err == 0, "the test module unloads (%s)", err ? strerror(err) : "ok");
	nr_after = lock_table(fd, table, &n, false);
	tap_ok(nr_after == nr_before - 3 && !find(table, n, STORM_LOCK) &&
	       !find(table, n, "lockstorm_static") && !find(table, n, FORCED_LOCK),
	       "its locks left the table (%d -> %d)", nr_before, nr_after);
	close(fd);
	return tap_finish();
}
