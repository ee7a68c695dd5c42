// SPDX-License-Identifier: GPL-2.0-only
/* cgroup v2 helpers for the container tests (st_cgroup.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <linux/magic.h>

#include "st_cgroup.h"
#include "st_util.h"
#include "tap.h"

void st_cgroup_mount(void)
{
	struct statfs fs;

	if (!statfs(RT_CGROUP_ROOT, &fs) && fs.f_type == CGROUP2_SUPER_MAGIC)
		return;
	if (mount("cgroup2", RT_CGROUP_ROOT, "cgroup2", 0, NULL))
		tap_skip_all("no cgroup2 at %s and cannot mount it: %s",
			     RT_CGROUP_ROOT, strerror(errno));
}

uint64_t st_cgroup_make(const char *path)
{
	char err[512];
	uint64_t id;

	if (mkdir(path, 0755) && errno != EEXIST)
		tap_bail("mkdir %s: %s", path, strerror(errno));
	if (rt_cgroup_id(RT_CGROUP_ROOT, path, &id, err, sizeof(err)))
		tap_bail("%s", err);
	return id;
}

void st_cgroup_move(const char *path, pid_t pid)
{
	char file[PATH_MAX], text[32];
	int err;

	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	snprintf(text, sizeof(text), "%d", pid);
	err = st_write_file(file, text, false);
	if (err)
		tap_bail("moving %d into %s: %s", pid, path, strerror(err));
}

void st_cgroup_start(struct st_child *c, int nr, int (*fn)(void *),
		     const char *const where[], pid_t pid[])
{
	int i;

	for (i = 0; i < nr; i++) {
		st_child_start(&c[i], fn, (void *)(long)i);
		st_cgroup_move(where[i], c[i].pid);
		pid[i] = c[i].pid;
	}
}

void st_cgroup_trace(struct st_child *c, int nr,
		     const struct ringtrace_config *cfg, st_record_fn record,
		     void *arg)
{
	struct st_session s;
	int i;

	st_session_open(&s, cfg, 16);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	for (i = 0; i < nr; i++)
		st_child_go(&c[i]);
	for (i = 0; i < nr; i++)
		if (st_child_wait(&c[i]))
			tap_diag("workload %d failed", i);
	st_disable(&s);
	if (st_drain(&s, record, arg) < 0)
		tap_diag("malformed ring");
	st_session_close(&s);
}
