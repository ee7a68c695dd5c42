// SPDX-License-Identifier: GPL-2.0-only
/*
 * No silent loss for RINGTRACE_EVENT_FUNC: T threads, more than the
 * probe's return instances (RT_FUNC_MAXACTIVE, 64), sleep in
 * eventfd_read() at once, each on an eventfd of its own, until the
 * workload writes to every one. The session traces eventfd_read (which
 * nothing else in the VM calls) for the workload's pid: every call is
 * a record or counted in func_missed, records + lost + func_missed == T
 * exactly, read after DISABLE took the probes away. Where the probe
 * has a fixed number of return instances (the kretprobe: 6.1, or any
 * kernel without CONFIG_FPROBE; the rethook fprobe: 6.5 to 6.13) some
 * calls must be missed; fgraph's fprobe (6.14+) keeps returns per task
 * and follows all T (func_missed 0).
 * The threads start only after ENABLE (under TCG, attaching a probe to a
 * function another vCPU runs crashes the guest). With --workload, only
 * the threads (func_cli.sh's ringtrace-cat COMMAND).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define T	100	/* threads asleep in eventfd_read at once */

static char names[RINGTRACE_MAX_FUNCS][RINGTRACE_FUNC_NAME_LEN];

struct sleeper {
	pthread_t thread;
	int fd;
	int tid;	/* set, with fd, before the read; then ready */
	int ready;
	int ok;		/* its read returned the 8 bytes written */
};

static struct sleeper sl[T];

static void *sleep_in_read(void *arg)
{
	struct sleeper *t = arg;
	uint64_t v;

	t->fd = eventfd(0, EFD_CLOEXEC);
	t->tid = gettid();
	__atomic_store_n(&t->ready, 1, __ATOMIC_RELEASE);
	if (t->fd < 0)
		return NULL;
	t->ok = read(t->fd, &v, sizeof(v)) == sizeof(v) && v == 1;
	return NULL;
}

/* The held child: T threads asleep in read at once, then woken. */
static int workload(void *arg)
{
	pthread_attr_t attr;
	uint64_t one = 1;
	int i, bad = 0;

	(void)arg;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < T; i++)
		if (pthread_create(&sl[i].thread, &attr, sleep_in_read, &sl[i]))
			return 100 + i;
	for (i = 0; i < T; i++) {
		while (!__atomic_load_n(&sl[i].ready, __ATOMIC_ACQUIRE))
			usleep(1000);
		/* /proc reads: not eventfd_read. */
		if (sl[i].fd < 0 || !st_wait_in_read(sl[i].tid, sl[i].fd, 8))
			return 200;
	}
	/* All T inside the call at once: now wake them. */
	for (i = 0; i < T; i++)
		if (write(sl[i].fd, &one, sizeof(one)) != sizeof(one))
			bad++;
	for (i = 0; i < T; i++) {
		pthread_join(sl[i].thread, NULL);
		bad += !sl[i].ok;
	}
	return bad;
}

struct seen {
	long func, ours;
	const struct st_run *run;
};

static void count(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_func_record *r = (const void *)h;
	struct seen *s = arg;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_FUNC)
		return;
	s->func++;
	if (r->func_idx == 0 && r->ret == 8 &&
	    r->task.pid == (uint32_t)s->run->cfg.pid)
		s->ours++;
}

/*
 * Whether the module's probe follows every call however many are in
 * flight: fprobe (CONFIG_FPROBE, 6.5+, kmod/lib/compat.h) on fgraph
 * (6.14+), which keeps returns per task. Else the kretprobe or fprobe on
 * rethook, with RT_FUNC_MAXACTIVE return instances.
 */
static bool follows_every_call(void)
{
	struct utsname u;
	int major = 0, minor = 0, v;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		tap_bail("kernel release %s", u.release);
	v = major * 1000 + minor;
	return v >= 6014 && st_ksym_exists("register_fprobe_syms");
}

int main(int argc, char **argv)
{
	struct st_run r;
	struct seen s = { 0 };
	unsigned long long sum;
	bool every;

	/* func_cli.sh traces it with ringtrace-cat -e func:eventfd_read. */
	if (argc == 2 && !strcmp(argv[1], "--workload"))
		return workload(NULL);
	tap_plan(5);
	st_require_features(RINGTRACE_FEAT_FUNC, "function tracing");
	/* func_missed ends RINGTRACE_STATS_SIZE_FUNCS; later ABI grows past. */
	tap_ok(offsetof(struct ringtrace_stats, func_missed) ==
	       RINGTRACE_STATS_SIZE_VALUES &&
	       RINGTRACE_STATS_SIZE_VALUES + sizeof(__u64) ==
	       RINGTRACE_STATS_SIZE_FUNCS &&
	       sizeof(struct ringtrace_stats) >= RINGTRACE_STATS_SIZE_FUNCS,
	       "stats %zu bytes, func_missed at %zu",
	       sizeof(struct ringtrace_stats),
	       offsetof(struct ringtrace_stats, func_missed));
	st_ksyms_load();
	if (!st_ksym_exists("eventfd_read"))
		tap_bail("no eventfd_read in kallsyms");
	every = follows_every_call();

	strcpy(names[0], "eventfd_read");
	memset(&r, 0, sizeof(r));
	r.cfg = st_config(RINGTRACE_EVENT_FUNC, 0);
	r.cfg.nr_funcs = 1;
	r.cfg.funcs_ptr = (uintptr_t)names;
	r.child = workload;
	r.ring_pages = 16;
	r.record = count;
	r.record_arg = &s;
	s.run = &r;
	st_traced_run(&r);
	tap_ok(r.status == 0 && r.drained >= 0 && r.stats_rc == 0 &&
	       r.stats.size == sizeof(struct ringtrace_stats),
	       "%d threads asleep in eventfd_read at once, all woken (status "
	       "%d), drained %ld, stats %d (%u bytes)", T, r.status,
	       r.drained, r.stats_rc, r.stats.size);
	tap_ok(s.ours == s.func && r.stats.records == (uint64_t)s.func &&
	       r.stats.produced == r.stats.records + r.stats.lost,
	       "every record one of the threads' calls (%ld of %ld), produced "
	       "%llu == records %llu + lost %llu", s.ours, s.func,
	       (unsigned long long)r.stats.produced,
	       (unsigned long long)r.stats.records,
	       (unsigned long long)r.stats.lost);
	sum = r.stats.produced + r.stats.func_missed;
	tap_ok(sum == T, "records %llu + lost %llu + func_missed %llu == %d "
	       "calls, after DISABLE", (unsigned long long)r.stats.records,
	       (unsigned long long)r.stats.lost,
	       (unsigned long long)r.stats.func_missed, T);
	if (every)
		tap_ok(r.stats.func_missed == 0 && r.stats.records == T,
		       "fprobe on fgraph (returns kept per task): all %d calls "
		       "followed, %llu missed", T,
		       (unsigned long long)r.stats.func_missed);
	else
		tap_ok(r.stats.func_missed > 0,
		       "fixed return instances (kretprobe, or fprobe on "
		       "rethook): %llu of %d calls missed, counted",
		       (unsigned long long)r.stats.func_missed, T);
	return tap_finish();
}
