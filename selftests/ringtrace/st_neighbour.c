// SPDX-License-Identifier: GPL-2.0-only
/* The neighbours_* selftests' shared driver (st_neighbour.h). */
#define _GNU_SOURCE
#include <dirent.h>
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

/*
 * Each line of @path (a small procfs or sysfs file) that starts with
 * @key (NULL: every line), after @prefix.
 */
static void diag_lines(const char *prefix, const char *path, const char *key)
{
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!key || !strncmp(line, key, strlen(key)))
			tap_diag("%s%s", prefix, line);
	}
	fclose(f);
}

/* The first line of @path, or "?". */
static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "?");
	if (f) {
		if (!fgets(buf, (int)len, f))
			snprintf(buf, len, "?");
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

static void diag_task(const char *dir, const char *what)
{
	char path[640], comm[64], wchan[64];

	snprintf(path, sizeof(path), "%s/comm", dir);
	first_line(path, comm, sizeof(comm));
	snprintf(path, sizeof(path), "%s/wchan", dir);
	first_line(path, wchan, sizeof(wchan));
	tap_diag("%s %s (%s), wchan %s", what, dir, comm, wchan);
	snprintf(path, sizeof(path), "%s/status", dir);
	diag_lines("  ", path, "State:");
	snprintf(path, sizeof(path), "%s/stack", dir);
	diag_lines("    ", path, NULL);
}

void st_nb_diag_tasks(pid_t pid)
{
	char dir[64], path[320];
	struct dirent *d;
	DIR *tasks;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	tasks = opendir(dir);
	if (!tasks) {
		tap_diag("process %d is gone", (int)pid);
		return;
	}
	while ((d = readdir(tasks)))
		if (d->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
			diag_task(path, "task");
		}
	closedir(tasks);
}

/* The tasks of every process whose patch_state is @stale, at most @room. */
static unsigned int diag_stragglers(const char *stale, unsigned int room)
{
	char tdir[300], path[600], state[16];
	struct dirent *p, *t;
	unsigned int n = 0;
	DIR *procs, *tasks;

	procs = opendir("/proc");
	while (procs && (p = readdir(procs))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(tdir, sizeof(tdir), "/proc/%s/task", p->d_name);
		tasks = opendir(tdir);
		while (tasks && (t = readdir(tasks))) {
			if (t->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/patch_state", tdir,
				 t->d_name);
			first_line(path, state, sizeof(state));
			if (strcmp(state, stale))
				continue;
			if (n++ < room) {
				snprintf(path, sizeof(path), "%s/%s", tdir,
					 t->d_name);
				diag_task(path, "not yet transitioned:");
			}
		}
		if (tasks)
			closedir(tasks);
	}
	if (procs)
		closedir(procs);
	return n;
}

void st_nb_diag_livepatch(void)
{
	char path[512], enabled[16], transition[16];
	struct dirent *d;
	DIR *lp = opendir("/sys/kernel/livepatch");

	while (lp && (d = readdir(lp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/livepatch/%s/enabled",
			 d->d_name);
		first_line(path, enabled, sizeof(enabled));
		snprintf(path, sizeof(path),
			 "/sys/kernel/livepatch/%s/transition", d->d_name);
		first_line(path, transition, sizeof(transition));
		tap_diag("livepatch %s: enabled %s, transition %s", d->d_name,
			 enabled, transition);
		/* Those not yet at the target, "enabled", hold it up. */
		if (!strcmp(transition, "1"))
			tap_diag("%u tasks not yet transitioned",
				 diag_stragglers(strcmp(enabled, "1") ? "1" : "0",
						 20));
	}
	if (lp)
		closedir(lp);
}

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
