// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel stacks on vfs_read records while another tool hooks vfs_read's
 * return too (an ftrace kretprobe event): its trampoline's address then
 * sits in the return slot the module's stack capture used as its anchor.
 * Each stack must still start at vfs_read's caller
 * (the read system call: ksys_read or __x64_sys_read) and hold no frame of
 * ringtrace's modules, of kprobes or of a return trampoline (nor of what
 * a trampoline calls: fprobe_return on arm64), with every
 * mechanism the kernel offers (each session asks for one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ringtrace/attach.h"
#include "st_util.h"
#include "tap.h"

#define NR_READS	20
#define NAME		"rtother_vfs_read"
#define EVENT		"kprobes/" NAME

struct seen {
	int reads, with_stack, first_caller, machinery;
	char first[64], bad[64];
};

/* A frame of the probe machinery rather than of the traced call. */
static bool machinery(const struct st_ksym *sym)
{
	static const char *const words[] = {
		"kprobe", "trampoline", "return_to_handler", "ftrace",
		"fprobe", "rethook", "fgraph",
	};
	unsigned int i;

	if (!strncmp(sym->module, "ringtrace", 9))
		return true;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(sym->name, words[i]))
			return true;
	return false;
}

static void collect(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_stack_trailer *t;
	const unsigned long long *ip;
	const struct st_ksym *sym;
	struct seen *s = arg;
	int i;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_VFS_READ)
		return;
	s->reads++;
	if (!(h->misc & RINGTRACE_MISC_STACK))
		return;
	t = (const void *)((const char *)h + h->size - sizeof(*t));
	if (!t->nr_kernel)
		return;
	s->with_stack++;
	ip = (const void *)((const char *)h +
			    sizeof(struct ringtrace_vfs_read_record));
	sym = st_ksym_lookup(ip[0]);
	if (!s->first[0])
		snprintf(s->first, sizeof(s->first), "%.63s",
			 sym ? sym->name : "?");
	if (sym && strstr(sym->name, "sys_read"))
		s->first_caller++;
	for (i = 0; i < t->nr_kernel; i++) {
		sym = st_ksym_lookup(ip[i]);
		if (sym && machinery(sym)) {
			if (!s->machinery++)
				snprintf(s->bad, sizeof(s->bad), "%.40s [%.20s]",
					 sym->name, sym->module);
		}
	}
}

static int reads(void *arg)
{
	(void)arg;
	return st_zero_reads(NR_READS, 64) ? 2 : 0;
}

/* One traced run with @mech while the other tool's hook is on. */
static void check(unsigned int mech)
{
	const char *m = rt_attach_name(mech);
	struct seen seen = { 0 };
	struct st_run r = {
		.child = reads, .ring_pages = 16,
		.record = collect, .record_arg = &seen,
	};
	long long before, after;

	before = st_kprobe_hits(NAME);
	r.cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
	r.cfg.vfs_read_attach = mech;
	r.cfg.stack_events = RINGTRACE_EVENT_VFS_READ;
	r.cfg.stack_kernel_depth = 16;
	st_traced_run(&r);	/* the child has exited when it returns */
	after = st_kprobe_hits(NAME);

	tap_ok(r.status == 0 && r.drained >= 0 && seen.reads == NR_READS,
	       "%s: workload ran, %d records", m, seen.reads);
	tap_ok(before >= 0 && after - before >= NR_READS,
	       "%s: the kretprobe event hooked the same reads (%lld hits)",
	       m, after - before);
	tap_ok(seen.with_stack == seen.reads,
	       "%s: every record carries kernel frames (%d of %d)",
	       m, seen.with_stack, seen.reads);
	tap_ok(seen.first_caller == seen.reads,
	       "%s: each stack starts at vfs_read's caller (%d of %d; first frame %s)",
	       m, seen.first_caller, seen.reads, seen.first);
	tap_ok(seen.machinery == 0,
	       "%s: no frame of ringtrace, kprobes or a trampoline (%d; first %s)",
	       m, seen.machinery, seen.machinery ? seen.bad : "none");
}

int main(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	unsigned int mech, nr = 0;
	int fd, err;

	fd = st_open();
	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info) ||
	    !(info.features & RINGTRACE_FEAT_STACK_KERNEL))
		tap_skip_all("the module has no kernel stacks");
	close(fd);
	if (!st_ksyms_load())
		tap_skip_all("/proc/kallsyms hides addresses (kptr_restrict)");
	for (mech = 1; mech < 32; mech++)
		nr += !!(info.vfs_read_attach_mask & (1u << mech));
	if (!nr)
		tap_bail("the module offers no vfs_read mechanism (mask %#x)",
			 info.vfs_read_attach_mask);

	tap_plan(5 * nr);
	/*
	 * The other tool's return hook, on before the workloads exist: its
	 * text patching must not meet a vCPU running vfs_read (TCG).
	 */
	err = st_tracefs_write("kprobe_events", "r:" EVENT " vfs_read\n", true);
	if (err)
		tap_bail("cannot add the kretprobe event: %s", strerror(err));
	err = st_tracefs_write("events/" EVENT "/enable", "1\n", false);
	if (err)
		tap_bail("cannot enable the kretprobe event: %s",
			 strerror(err));
	for (mech = 1; mech < 32; mech++)
		if (info.vfs_read_attach_mask & (1u << mech))
			check(mech);
	st_tracefs_write("events/" EVENT "/enable", "0\n", false);
	st_tracefs_write("kprobe_events", "-:" EVENT "\n", true);
	return tap_finish();
}
