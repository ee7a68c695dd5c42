// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel stacks on lock records (stack_events = RINGTRACE_EVENT_LOCK).
 * The lockstorm test module's kthreads take a tracked lock: every record
 * of it must carry a stack trailer whose first frame is in the lockstorm
 * module (where the lock was released), none in ringtrace.ko, and no user
 * stack (4 frames are asked for; kernel threads have none: USER_NONE).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define STORM_LOCK	"lockstorm-0"
#define STORM_RUN	"/sys/kernel/debug/ringtrace_lockstorm/run"

struct seen {
	int records, with_stack, bad_layout, first_storm, ours, user_none;
	char first[64];
};

static void collect(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_lock_record *r = (const void *)h;
	const struct ringtrace_stack_trailer *t;
	const unsigned long long *ip;
	const struct st_ksym *sym;
	struct seen *s = arg;
	int i;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_LOCK || strcmp(r->name, STORM_LOCK))
		return;
	s->records++;
	if (!(h->misc & RINGTRACE_MISC_STACK))
		return;
	s->with_stack++;
	t = (const void *)((const char *)h + h->size - sizeof(*t));
	if (h->size != sizeof(*r) + 8 * (t->nr_kernel + t->nr_user) +
		       sizeof(*t) || !t->nr_kernel || t->nr_kernel > 8) {
		s->bad_layout++;
		return;
	}
	s->user_none += !t->nr_user &&
			(t->flags & RINGTRACE_STACK_USER_NONE);
	ip = (const void *)(r + 1);
	for (i = 0; i < t->nr_kernel; i++) {
		sym = st_ksym_lookup(ip[i]);
		if (!sym)
			continue;
		if (i == 0) {
			s->first_storm += !strcmp(sym->module,
						  "ringtrace_lockstorm");
			if (!s->first[0])
				snprintf(s->first, sizeof(s->first), "%.40s [%.20s]",
					 sym->name, sym->module);
		}
		s->ours += !strcmp(sym->module, "ringtrace");
	}
}

static int load_storm(void)
{
	int fd, err = 0;

	fd = open(st_ko("selftests/ringtrace/modules/ringtrace_lockstorm.ko"),
		  O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, "threads=2 iterations=500", 0) &&
	    errno != EEXIST)
		err = errno;
	close(fd);
	return err;
}

int main(void)
{
	struct ringtrace_config cfg;
	struct st_session sess;
	struct seen seen = { 0 };
	int fd, err;

	err = load_storm();
	if (err)
		tap_bail("loading lockstorm: %s", strerror(err));
	/* After loading: the module's symbols are listed too. */
	if (!st_ksyms_load())
		tap_skip_all("/proc/kallsyms hides addresses (kptr_restrict)");
	tap_plan(5);

	cfg = st_config(RINGTRACE_EVENT_LOCK, -1);
	cfg.stack_events = RINGTRACE_EVENT_LOCK;
	cfg.stack_kernel_depth = 8;
	cfg.stack_user_depth = 4;
	st_session_open(&sess, &cfg, 256);
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	fd = open(STORM_RUN, O_WRONLY);
	err = fd < 0 || write(fd, "1", 1) != 1;
	if (fd >= 0)
		close(fd);
	st_disable(&sess);
	if (st_drain(&sess, collect, &seen) < 0)
		err = 1;
	tap_ok(!err && seen.records > 0,
	       "the storm ran: %d records of %s", seen.records, STORM_LOCK);
	tap_ok(seen.with_stack == seen.records && seen.bad_layout == 0,
	       "every record carries a well-formed trailer, 1..8 kernel frames (%d of %d, %d bad)",
	       seen.with_stack, seen.records, seen.bad_layout);
	tap_ok(seen.first_storm == seen.with_stack,
	       "the first frame is in the lockstorm module (%d of %d; %s)",
	       seen.first_storm, seen.with_stack, seen.first);
	tap_ok(seen.ours == 0, "no frame of ringtrace's own (%d)", seen.ours);
	tap_ok(seen.user_none == seen.with_stack,
	       "kernel threads: no user stack, USER_NONE (%d of %d)",
	       seen.user_none, seen.with_stack);
	st_session_close(&sess);
	syscall(SYS_delete_module, "ringtrace_lockstorm", O_NONBLOCK);
	return tap_finish();
}
