// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vfs_read attach mechanism: GET_INFO names the one in use while a
 * session traces (the forced one, from the module's vfs_read_attach
 * parameter, or else the cheapest the kernel offers that shares vfs_read
 * with other tools: fprobe, else the kretprobe; the direct call, offered
 * where the kernel has direct calls and ringtrace_direct.ko is loaded (by
 * the runner, as ringtrace-ctl does), only when forced), and that mechanism
 * keeps each call's entry data with the call: a read that blocks on a
 * pipe and is moved to another CPU while it sleeps still gives exactly one
 * record, written on the CPU it returned on, whose latency covers the
 * whole time it was known to be blocked. The bounds are causal (the call
 * had entered before t1 and could not return before t2), not timing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ringtrace/attach.h"
#include "st_util.h"
#include "tap.h"


#define WORKLOAD_READ	64	/* bytes the workload asks for */

static int data_pipe[2];

struct seen {
	struct ringtrace_vfs_read_record rec;
	int ring_cpu;
	int n;
};

/* On CPU 0, block in one read of the pipe until the parent writes. */
static int workload(void *arg)
{
	char buf[WORKLOAD_READ];

	(void)arg;
	if (!st_pin(0))
		return 2;
	return read(data_pipe[0], buf, sizeof(buf)) == 5 ? 0 : 3;
}

static void collect(const struct ringtrace_event_header *h, int cpu,
		    void *arg)
{
	struct seen *s = arg;

	if (h->type != RINGTRACE_RECORD_VFS_READ)
		return;
	if (!s->n++) {
		memcpy(&s->rec, h, sizeof(s->rec));
		s->ring_cpu = cpu;
	}
}

/* libringtrace's names, "?" for an id it does not know. */
static const char *mech_name(__u32 id)
{
	return rt_attach_name(id) ?: "?";
}

/*
 * The order auto tries them in (kmod/attach/attach.c): the cheapest that shares
 * vfs_read with other tools. Never the direct call, even when offered: it
 * holds vfs_read's one direct-call trampoline, which BPF's need.
 */
static __u32 cheapest(__u32 mask)
{
	static const __u32 order[] = {
		RINGTRACE_ATTACH_FPROBE, RINGTRACE_ATTACH_KRETPROBE,
	};
	unsigned int i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (mask & (1u << order[i]))
			return order[i];
	return 0;
}

int main(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	char param[128] = "", want[32] = "";
	struct ringtrace_config cfg;
	struct st_session s;
	struct st_child child;
	struct seen seen = { .n = 0 };
	cpu_set_t cpus;
	uint64_t t1, t2, entry;
	bool forced;
	int i;

	if (st_online_cpus() < 2)
		tap_skip_all("needs 2 CPUs to move a sleeping call");
	tap_plan(8);
	if (pipe(data_pipe))
		tap_bail("pipe: %s", strerror(errno));

	st_child_start(&child, workload, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	st_session_open(&s, &cfg, 16);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));

	if (ioctl(s.fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	st_attach_param(param, sizeof(param));
	forced = strncmp(param, "auto: ", 6) != 0;
	sscanf(param + (forced ? 0 : 6), "%31s", want);
	tap_diag("vfs_read_attach: %s", param);
	tap_ok(info.size >= RINGTRACE_INFO_SIZE_VER1 &&
	       (info.vfs_read_attach_mask & (1u << info.vfs_read_attach)),
	       "GET_INFO names an offered mechanism: %s (mask 0x%x)",
	       mech_name(info.vfs_read_attach), info.vfs_read_attach_mask);
	tap_ok(!strcmp(want, mech_name(info.vfs_read_attach)) &&
	       strstr(param, "(attached)"),
	       "it is the one the parameter says is attached (%s)", want);
	if (forced)
		tap_ok(true, "forced: the cheapest-first choice is not ours");
	else
		tap_ok(info.vfs_read_attach == cheapest(info.vfs_read_attach_mask),
		       "auto picks the cheapest shared one offered: fprobe, else the kretprobe, never direct");
	if (!st_kernel_has_direct_calls())
		tap_skip("the direct call: this kernel has no ftrace direct calls");
	else
		tap_ok(access("/sys/module/ringtrace_direct", F_OK) == 0 &&
		       (info.vfs_read_attach_mask &
			(1u << RINGTRACE_ATTACH_DIRECT)),
		       "the kernel has direct calls: ringtrace_direct.ko is loaded and the direct call offered (mask 0x%x)",
		       info.vfs_read_attach_mask);

	/* Gate open: the child pins itself to CPU 0 and blocks in read(). */
	st_child_go(&child);
	/*
	 * In the data pipe's read: the fd and count tell it from the gate's
	 * read, which the child may still be in just after st_child_go().
	 */
	for (i = 0; i < 3000 &&
		    !st_in_read(child.pid, data_pipe[0], WORKLOAD_READ); i++)
		usleep(1000);
	t1 = st_now_ns();
	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	if (sched_setaffinity(child.pid, sizeof(cpus), &cpus))
		tap_bail("sched_setaffinity: %s", strerror(errno));
	usleep(20000);
	t2 = st_now_ns();
	if (write(data_pipe[1], "hello", 5) != 5)
		tap_bail("cannot wake the child");
	tap_ok(i < 3000 && st_child_wait(&child) == 0,
	       "the child blocked in read() and then read the 5 bytes");
	st_disable(&s);
	st_drain(&s, collect, &seen);

	tap_ok(seen.n == 1 && seen.rec.ret == 5 &&
	       seen.rec.count == WORKLOAD_READ &&
	       seen.rec.pos == -1,
	       "one record for the pipe read (%d records, ret %lld)", seen.n,
	       (long long)seen.rec.ret);
	tap_ok(seen.n == 1 && seen.rec.task.cpu == 1 && seen.ring_cpu == 1,
	       "written on CPU 1, where the call returned (task.cpu %u, ring %d)",
	       seen.rec.task.cpu, seen.ring_cpu);
	entry = seen.rec.task.ts_ns - seen.rec.lat_ns;
	tap_ok(seen.n == 1 && entry <= t1 && seen.rec.task.ts_ns >= t2,
	       "its latency spans the sleep: entered %lld ns before t1, returned %lld ns after t2",
	       (long long)(t1 - entry), (long long)(seen.rec.task.ts_ns - t2));
	st_session_close(&s);
	return tap_finish();
}
