// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel stacks on vfs_read records (stack_events, stack_kernel_depth).
 * A child reads /dev/zero: every record must carry a stack trailer whose
 * frames, looked up in /proc/kallsyms, are the callers of vfs_read (the
 * read system call: ksys_read or __x64_sys_read), none of them
 * ringtrace's own. A second session asks for 2 frames: exactly 2, flagged
 * KERNEL_TRUNCATED.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define NR_READS	20

struct seen {
	int reads, with_stack, bad_layout, syscall_frame, ours;
	int max_frames, min_frames, truncated;
	char first[64];
};

static void collect(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_stack_trailer *t;
	const unsigned long long *ip;
	const struct st_ksym *sym;
	struct seen *s = arg;
	bool syscall = false;
	int i;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_VFS_READ)
		return;
	s->reads++;
	if (!(h->misc & RINGTRACE_MISC_STACK))
		return;
	s->with_stack++;
	t = (const void *)((const char *)h + h->size - sizeof(*t));
	if (h->size != sizeof(struct ringtrace_vfs_read_record) +
		       8 * (t->nr_kernel + t->nr_user) + sizeof(*t) ||
	    t->nr_user || (t->flags & ~RINGTRACE_STACK_KERNEL_TRUNCATED)) {
		s->bad_layout++;
		return;
	}
	ip = (const void *)((const char *)h +
			    sizeof(struct ringtrace_vfs_read_record));
	if (t->nr_kernel > s->max_frames)
		s->max_frames = t->nr_kernel;
	if (t->nr_kernel < s->min_frames)
		s->min_frames = t->nr_kernel;
	s->truncated += !!(t->flags & RINGTRACE_STACK_KERNEL_TRUNCATED);
	for (i = 0; i < t->nr_kernel; i++) {
		sym = st_ksym_lookup(ip[i]);
		if (!sym)
			continue;
		if (i == 0 && !s->first[0])
			snprintf(s->first, sizeof(s->first), "%.63s", sym->name);
		if (strstr(sym->name, "sys_read"))
			syscall = true;
		s->ours += !strcmp(sym->module, "ringtrace");
	}
	s->syscall_frame += syscall;
}

static int reads(void *arg)
{
	(void)arg;
	return st_zero_reads(NR_READS, 64) ? 2 : 0;
}

static void run(unsigned int depth, struct seen *seen)
{
	struct st_run r = {
		.child = reads, .ring_pages = 16,
		.record = collect, .record_arg = seen,
	};

	memset(seen, 0, sizeof(*seen));
	seen->min_frames = 1 << 30;
	r.cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
	r.cfg.stack_events = RINGTRACE_EVENT_VFS_READ;
	r.cfg.stack_kernel_depth = (__u8)depth;
	st_traced_run(&r);
	tap_ok(r.status == 0 && r.drained >= 0 && seen->reads == NR_READS,
	       "depth %u: workload ran, %d records", depth, seen->reads);
}

int main(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	struct seen seen;
	int fd;

	fd = st_open();
	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info) ||
	    !(info.features & RINGTRACE_FEAT_STACK_KERNEL))
		tap_skip_all("the module has no kernel stacks");
	close(fd);
	if (!st_ksyms_load())
		tap_skip_all("/proc/kallsyms hides addresses (kptr_restrict)");

	tap_plan(8);
	run(16, &seen);
	tap_ok(seen.with_stack == seen.reads && seen.bad_layout == 0,
	       "every record carries a well-formed kernel-only trailer (%d of %d, %d bad)",
	       seen.with_stack, seen.reads, seen.bad_layout);
	tap_ok(seen.syscall_frame == seen.reads,
	       "each stack holds the read system call (%d of %d; first frame %s)",
	       seen.syscall_frame, seen.reads, seen.first);
	tap_ok(seen.ours == 0, "no frame of ringtrace's own (%d)", seen.ours);
	tap_ok(seen.max_frames <= 16 && seen.min_frames >= 2,
	       "between 2 and 16 frames (%d..%d)", seen.min_frames,
	       seen.max_frames);

	run(2, &seen);
	tap_ok(seen.with_stack == seen.reads && seen.bad_layout == 0 &&
	       seen.min_frames == 2 && seen.max_frames == 2,
	       "depth 2: exactly 2 frames (%d..%d)", seen.min_frames,
	       seen.max_frames);
	tap_ok(seen.truncated == seen.reads,
	       "depth 2: flagged KERNEL_TRUNCATED (%d of %d)", seen.truncated,
	       seen.reads);
	return tap_finish();
}
