// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace on vfs_read beside other users of the same function. An
 * ftrace kprobe event and ringtrace count the same 100 reads at once,
 * whichever mechanism the module uses. Then another direct-call user
 * (the direct floor module, as a BPF trampoline would) holds vfs_read:
 * forcing the direct mechanism fails the enable cleanly (EBUSY), auto
 * still records every read, and the other user keeps the function.
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

#define NR_READS	100
#define GROUP		"rtcoexist"
#define NAME		"rtcoexist_vfs_read"	/* kprobe_profile shows it alone */
#define EVENT		GROUP "/" NAME
#define FLOOR		"selftests/ringtrace/modules/ringtrace_floor_direct.ko"

static int set_param(const char *mech)
{
	FILE *f = fopen(ST_ATTACH_PARAM, "w");
	int err;

	if (!f)
		return -1;
	err = fputs(mech, f) < 0;
	return fclose(f) || err ? -1 : 0;
}

/* A session tracing vfs_read cannot enable: the forced mechanism is refused. */
static bool enable_fails_busy(void)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ,
						getpid());
	struct st_session s;
	int err;

	st_session_open(&s, &cfg, 4);
	err = -st_enable(&s);
	st_session_close(&s);
	return err == EBUSY;
}

static int workload(void *arg)
{
	(void)arg;
	return st_zero_reads(NR_READS, 64) ? 2 : 0;
}

struct count {
	int vfs_read;
};

static void collect(const struct ringtrace_event_header *h, int cpu,
		    void *arg)
{
	(void)cpu;
	if (h->type == RINGTRACE_RECORD_VFS_READ)
		((struct count *)arg)->vfs_read++;
}

/* One traced run of the workload; the mechanism used and the records. */
static int traced_reads(__u32 *mech, __u32 *mask)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	struct ringtrace_config cfg;
	struct count c = { 0 };
	struct st_session s;
	struct st_child child;
	int status;

	st_child_start(&child, workload, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	st_session_open(&s, &cfg, 16);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	if (ioctl(s.fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	*mech = info.vfs_read_attach;
	*mask = info.vfs_read_attach_mask;
	st_child_go(&child);
	status = st_child_wait(&child);
	st_disable(&s);
	st_drain(&s, collect, &c);
	st_session_close(&s);
	return status == 0 ? c.vfs_read : -1;
}

int main(void)
{
	long long before, after;
	__u32 mech, mask;
	char param[64] = "", param_word[16] = "auto";
	int n, err;

	st_attach_param(param, sizeof(param));
	/* "auto: fprobe (...)" or a forced "direct (...)": what to restore. */
	sscanf(strncmp(param, "auto", 4) ? param : "auto", "%15s", param_word);
	tap_plan(5);

	/* 1: a kprobe event and ringtrace, both on, nothing else reading. */
	err = st_tracefs_write("kprobe_events", "p:" EVENT " vfs_read\n", true);
	if (err)
		tap_bail("cannot add the kprobe event: %s", strerror(err));
	err = st_tracefs_write("events/" EVENT "/enable", "1\n", false);
	if (err)
		tap_bail("cannot enable the kprobe event: %s", strerror(err));
	before = st_kprobe_hits(NAME);
	n = traced_reads(&mech, &mask);
	after = st_kprobe_hits(NAME);
	st_tracefs_write("events/" EVENT "/enable", "0\n", false);
	st_tracefs_write("kprobe_events", "-:" EVENT "\n", true);
	tap_diag("mechanism %u (offered 0x%x), parameter %s", mech, mask,
		 param);
	tap_ok(n == NR_READS, "beside a kprobe event, ringtrace recorded all %d reads (%d)",
	       NR_READS, n);
	tap_ok(before >= 0 && after - before >= NR_READS,
	       "and the kprobe event saw them too (%lld hits)", after - before);

	/* 2: another direct-call user holds vfs_read first. */
	if (!(mask & (1u << RINGTRACE_ATTACH_DIRECT))) {
		tap_skip("direct refused: the kernel offers no direct calls");
		tap_skip("direct refused: records");
		tap_skip("direct refused: the other user");
		return tap_finish();
	}
	err = st_load_module(FLOOR, "");
	if (err)
		tap_bail("loading the direct floor module: %s", strerror(err));
	if (set_param("direct"))
		tap_bail("cannot force vfs_read_attach=direct");
	tap_ok(enable_fails_busy(), "with vfs_read's direct call taken, forcing direct fails the enable (EBUSY)");
	if (set_param("auto"))
		tap_bail("cannot set vfs_read_attach=auto");
	n = traced_reads(&mech, &mask);
	tap_ok(n == NR_READS && mech != RINGTRACE_ATTACH_DIRECT,
	       "auto still records all %d reads (%d, mechanism %u)", NR_READS,
	       n, mech);
	set_param(param_word);
	err = st_unload_module("ringtrace_floor_direct");
	tap_ok(!err, "the other user kept vfs_read until it left (unload: %s)",
	       err ? strerror(err) : "ok");
	return tap_finish();
}
