// SPDX-License-Identifier: GPL-2.0-only
/* The neighbours_* selftests' shared driver (st_neighbour.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ringtrace/attach.h"
#include "st_neighbour.h"
#include "st_util.h"
#include "tap.h"

static int workload(void *arg)
{
	(void)arg;
	return st_zero_reads(ST_NB_READS, 64) ? 2 : 0;
}

/* What one scenario saw. */
struct outcome {
	int rt_err;		/* ENABLE's errno, 0 */
	long rt_reads;		/* records of the workload's reads */
	int nb_err;		/* the neighbour's start: 0 or errno */
	long nb_reads;		/* its count, -1 if it failed */
	int status;		/* the workload's */
	char why[256];
};

static void scenario(const struct st_neighbour *nb, unsigned int mech,
		     bool rt_first, struct outcome *o)
{
	struct ringtrace_config cfg;
	struct st_session s;
	struct st_child child;
	bool nb_on = false;

	memset(o, 0, sizeof(*o));
	o->nb_reads = -1;
	st_child_start(&child, workload, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	cfg.vfs_read_attach = mech;
	st_session_open(&s, &cfg, 16);
	if (!rt_first) {
		o->nb_err = nb->start(child.pid, o->why, sizeof(o->why));
		nb_on = !o->nb_err;
	}
	o->rt_err = st_enable(&s) ? errno : 0;
	if (rt_first) {
		o->nb_err = nb->start(child.pid, o->why, sizeof(o->why));
		nb_on = !o->nb_err;
	}
	st_child_go(&child);
	o->status = st_child_wait(&child);
	/* Detach in the reverse order of attach. */
	if (rt_first && nb_on)
		o->nb_reads = nb->stop(o->why, sizeof(o->why));
	if (!o->rt_err) {
		struct st_reads reads = { .n = 0 };

		st_disable(&s);
		st_drain(&s, st_collect_reads, &reads);
		o->rt_reads = reads.n;
	}
	if (!rt_first && nb_on)
		o->nb_reads = nb->stop(o->why, sizeof(o->why));
	st_session_close(&s);
}

static void check(const struct st_neighbour *nb, unsigned int mech,
		  bool rt_first)
{
	const char *first = rt_first ? "ringtrace" : nb->name;
	const char *second = rt_first ? nb->name : "ringtrace";
	const char *m = rt_attach_name(mech);
	struct outcome o;

	scenario(nb, mech, rt_first, &o);
	if (o.status)
		tap_diag("the workload failed (%d)", o.status);
	if (!nb->shares_with || nb->shares_with(mech)) {
		tap_ok(!o.rt_err && o.rt_reads == ST_NB_READS && !o.status,
		       "%s, %s first: ringtrace recorded all %d reads (%ld%s%s)",
		       m, first, ST_NB_READS, o.rt_reads,
		       o.rt_err ? ", enable: " : "",
		       o.rt_err ? strerror(o.rt_err) : "");
		tap_ok(!o.nb_err && o.nb_reads == ST_NB_READS,
		       "%s, %s first: %s counted all %d (%ld%s%s)", m, first,
		       nb->name, ST_NB_READS, o.nb_reads, o.why[0] ? ": " : "",
		       o.why);
		return;
	}
	/* They cannot share: the second is refused, the first goes on. */
	if (rt_first) {
		tap_ok(o.nb_err != 0, "%s, ringtrace first: %s is refused (%s)",
		       m, second, o.why[0] ? o.why : "it attached");
		tap_ok(!o.rt_err && o.rt_reads == ST_NB_READS,
		       "%s, ringtrace first: ringtrace still recorded all %d (%ld)",
		       m, ST_NB_READS, o.rt_reads);
	} else {
		tap_ok(o.rt_err == EBUSY,
		       "%s, %s first: ringtrace's enable is refused with EBUSY (%s)",
		       m, first, o.rt_err ? strerror(o.rt_err) : "it enabled");
		tap_ok(!o.nb_err && o.nb_reads == ST_NB_READS,
		       "%s, %s first: %s still counted all %d (%ld%s%s)", m,
		       first, nb->name, ST_NB_READS, o.nb_reads,
		       o.why[0] ? ": " : "", o.why);
	}
}

int st_neighbour_main(const struct st_neighbour *nb)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	char param[64];
	int fd = st_open();
	unsigned int mech, planned = 1;

	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	close(fd);
	st_attach_param(param, sizeof(param));
	for (mech = 1; mech <= RINGTRACE_ATTACH_DIRECT; mech++)
		if (info.vfs_read_attach_mask & (1u << mech))
			planned += 4;
	tap_plan((int)planned);
	tap_diag("offered 0x%x, parameter %s", info.vfs_read_attach_mask,
		 param);
	/*
	 * Auto (with no mechanism forced) takes one that shares vfs_read,
	 * even with ringtrace_direct.ko loaded.
	 */
	if (!strncmp(param, "auto", 4))
		tap_ok(info.vfs_read_attach != RINGTRACE_ATTACH_DIRECT &&
		       info.vfs_read_attach,
		       "auto chooses %s, a mechanism that shares vfs_read",
		       rt_attach_name(info.vfs_read_attach) ?: "?");
	else
		tap_skip("vfs_read_attach is forced (%s): auto not checked",
			 param);
	for (mech = 1; mech <= RINGTRACE_ATTACH_DIRECT; mech++) {
		if (!(info.vfs_read_attach_mask & (1u << mech)))
			continue;
		check(nb, mech, false);
		check(nb, mech, true);
	}
	return tap_finish();
}
