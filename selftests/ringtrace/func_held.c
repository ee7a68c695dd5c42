// SPDX-License-Identifier: GPL-2.0-only
/*
 * Calls held until their read returns (RINGTRACE_CFG_FUNC_HOLD): the
 * callees of the reads faster than min_latency_ns cost no record. The
 * workload alternates FAST reads of the fanout test module's file (each
 * calls ringtrace_fan_0000..0002, among its 1024, and sleeps nowhere)
 * with SLOW reads of the calltree module's (each runs
 * ringtrace_ct_outer { ct_first (sleeps 3 ms), ct_middle { ct_inner
 * (2 ms) } }). The session traces vfs_read and those seven functions,
 * inside reads only, with min_latency_ns 2 ms, and holds calls:
 *
 *  - every slow read's four calls are written, in order, right before
 *    the read's own record on the same ring (held, then written when the
 *    read returned), and nothing else of the calltree is;
 *  - of the fast reads' 3 * FAST calls, those written belong to a fanout
 *    read that was itself recorded (one that took 2 ms after all, under
 *    an emulator), three each; the rest are counted in func_fast_read,
 *    written + func_fast_read == 3 * FAST exactly, and some were
 *    dropped;
 *  - the same run without the flag writes all 3 * FAST calls and counts
 *    none: the count above is the flag's doing.
 *
 * SET_CONFIG refuses the flag without RINGTRACE_CFG_FUNC_IN_READ or
 * without min_latency_ns. The probes attach before the workload starts
 * (under TCG, attaching a probe on a function another vCPU runs crashes
 * the guest).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define FAST	40	/* reads of the fanout file */
#define SLOW	6	/* reads of the calltree file */
#define NR_FAN	3	/* ringtrace_fan_0000..0002 */
#define NR_CT	4	/* the calltree's functions, in the order they return */
#define MIN_LAT	2000000ULL

#define FAN_FILE	"/sys/kernel/debug/ringtrace_fanout/fan"
#define CT_FILE		"/sys/kernel/debug/ringtrace_calltree/tree"

static char names[NR_FAN + NR_CT][RINGTRACE_FUNC_NAME_LEN] = {
	"ringtrace_fan_0000", "ringtrace_fan_0001", "ringtrace_fan_0002",
	"ringtrace_ct_first", "ringtrace_ct_inner", "ringtrace_ct_middle",
	"ringtrace_ct_outer",
};

static int workload(void *arg)
{
	char buf[512];
	int fan = open(FAN_FILE, O_RDONLY), ct = open(CT_FILE, O_RDONLY);
	int i, bad = 0;

	(void)arg;
	if (fan < 0 || ct < 0)
		return 100;
	for (i = 0; i < FAST; i++) {
		bad += pread(fan, buf, sizeof(buf), 0) != sizeof(buf);
		if (i % (FAST / SLOW) == 0 && i / (FAST / SLOW) < SLOW)
			bad += pread(ct, buf, sizeof(buf), 0) <= 0;
	}
	return bad;
}

struct seen {
	uint64_t fan_ino, ct_ino;
	const struct st_run *run;	/* its cfg.pid: the workload's */
	long fast_read;			/* stats.func_fast_read */
	long fan_calls, ct_calls, fan_reads, ct_reads, other;
	/* Per ring: calltree calls since the ring's last calltree read. */
	long ct_pending[1024];
	long fan_pending[1024];
	long ct_in_order;	/* slow reads right after their 4 calls */
	long fan_whole;		/* recorded fast reads right after their 3 */
	int next_ct[1024];	/* the calltree call expected next */
};

static void count(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	struct seen *s = arg;

	if (cpu < 0 || cpu >= 1024)
		return;
	if (h->type == RINGTRACE_RECORD_FUNC) {
		const struct ringtrace_func_record *r = (const void *)h;

		if (r->task.pid != (uint32_t)s->run->cfg.pid) {
			s->other++;
		} else if (r->func_idx < NR_FAN) {
			s->fan_calls++;
			s->fan_pending[cpu]++;
		} else {
			/* first, inner, middle, outer: the order they return. */
			if ((int)r->func_idx - NR_FAN == s->next_ct[cpu])
				s->next_ct[cpu]++;
			s->ct_calls++;
			s->ct_pending[cpu]++;
		}
	} else if (h->type == RINGTRACE_RECORD_VFS_READ) {
		const struct ringtrace_vfs_read_record *r = (const void *)h;

		if (r->task.pid != (uint32_t)s->run->cfg.pid)
			return;
		if (r->ino == s->ct_ino) {
			s->ct_reads++;
			s->ct_in_order += s->ct_pending[cpu] == NR_CT &&
					  s->next_ct[cpu] == NR_CT;
		} else if (r->ino == s->fan_ino) {
			s->fan_reads++;
			s->fan_whole += s->fan_pending[cpu] == NR_FAN;
		}
		s->ct_pending[cpu] = 0;
		s->fan_pending[cpu] = 0;
		s->next_ct[cpu] = 0;
	}
}

static struct ringtrace_config held_config(uint32_t flags, uint64_t min_lat)
{
	struct ringtrace_config c = st_config(RINGTRACE_EVENT_VFS_READ |
					      RINGTRACE_EVENT_FUNC, 0);

	c.flags = flags;
	c.min_latency_ns = min_lat;
	c.nr_funcs = NR_FAN + NR_CT;
	c.funcs_ptr = (uintptr_t)names;
	return c;
}

static void traced(struct seen *s, uint32_t flags)
{
	struct st_run r;
	struct stat fan, ct;

	if (stat(FAN_FILE, &fan) || stat(CT_FILE, &ct))
		tap_bail("the test modules' files: %s", strerror(errno));
	memset(s, 0, sizeof(*s));
	s->fan_ino = fan.st_ino;
	s->ct_ino = ct.st_ino;
	memset(&r, 0, sizeof(r));
	r.cfg = held_config(flags, MIN_LAT);
	r.child = workload;
	r.ring_pages = 64;
	r.record = count;
	r.record_arg = s;
	s->run = &r;
	st_traced_run(&r);
	if (r.status || r.drained < 0 || r.stats_rc ||
	    r.stats.size != sizeof(struct ringtrace_stats) || r.stats.lost)
		tap_bail("traced run: status %d, drained %ld, stats %d (%u "
			 "bytes), lost %llu", r.status, r.drained, r.stats_rc,
			 r.stats.size, (unsigned long long)r.stats.lost);
	s->fast_read = (long)r.stats.func_fast_read;
	s->run = NULL;
}

static void refused(uint32_t flags, uint64_t min_lat, const char *what)
{
	struct ringtrace_config c = held_config(flags, min_lat);
	int fd = st_open(), ret;

	ret = ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &c);
	tap_ok(ret == -1 && errno == EINVAL, "the flag %s: SET_CONFIG %d (%s)",
	       what, ret, ret ? strerror(errno) : "accepted");
	close(fd);
}

static void load(const char *ko)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "insmod '%s'", st_ko(ko));
	if (system(cmd))
		tap_bail("cannot load %s", ko);
}

int main(void)
{
	static struct seen held, plain;
	long dropped, plain_dropped;

	tap_plan(7);
	st_require_features(RINGTRACE_FEAT_FUNC_HOLD, "held calls");
	if (system("mountpoint -q /sys/kernel/debug || "
		   "mount -t debugfs none /sys/kernel/debug"))
		tap_bail("no debugfs");
	load("selftests/ringtrace/modules/ringtrace_fanout.ko");
	load("selftests/ringtrace/modules/ringtrace_calltree.ko");

	refused(RINGTRACE_CFG_FUNC_HOLD, MIN_LAT, "without calls inside reads");
	refused(RINGTRACE_CFG_FUNC_IN_READ | RINGTRACE_CFG_FUNC_HOLD, 0,
		"without min_latency_ns");

	traced(&held, RINGTRACE_CFG_FUNC_IN_READ | RINGTRACE_CFG_FUNC_HOLD);
	dropped = held.fast_read;
	traced(&plain, RINGTRACE_CFG_FUNC_IN_READ);
	plain_dropped = plain.fast_read;

	tap_ok(held.ct_reads == SLOW && held.ct_calls == SLOW * NR_CT &&
	       held.ct_in_order == SLOW,
	       "%d slow reads recorded (%ld), each right after its %d calls in "
	       "the order they returned (%ld of them), %ld calltree calls",
	       SLOW, held.ct_reads, NR_CT, held.ct_in_order, held.ct_calls);
	tap_ok(held.fan_calls == held.fan_reads * NR_FAN &&
	       held.fan_whole == held.fan_reads,
	       "fanout calls written only for the %ld fanout reads recorded "
	       "(slower than 2 ms), %d each, right before them: %ld calls",
	       held.fan_reads, NR_FAN, held.fan_calls);
	tap_ok(held.fan_calls + dropped == FAST * NR_FAN && dropped > 0 &&
	       held.other == 0,
	       "written %ld + func_fast_read %ld == %d fast-read calls, some "
	       "dropped; no other task's (%ld)", held.fan_calls, dropped,
	       FAST * NR_FAN, held.other);
	tap_ok(plain.fan_calls == FAST * NR_FAN && plain_dropped == 0 &&
	       plain.ct_calls == SLOW * NR_CT,
	       "without the flag: every fast read's calls written (%ld of %d), "
	       "none counted (%ld), the slow reads' %ld", plain.fan_calls,
	       FAST * NR_FAN, plain_dropped, plain.ct_calls);
	/* What the flag saves: records written for the same workload. */
	tap_ok(held.fan_calls + held.ct_calls < plain.fan_calls + plain.ct_calls,
	       "func records: %ld held against %ld without the flag",
	       held.fan_calls + held.ct_calls, plain.fan_calls + plain.ct_calls);

	if (system("rmmod ringtrace_calltree ringtrace_fanout"))
		tap_diag("could not unload the test modules");
	return tap_finish();
}
