/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgroup v2 for the container tests (issue 24): cgroup2 mounted at
 * /sys/fs/cgroup (the guest mounts none), cgroups made, tasks moved.
 */
#ifndef RINGTRACE_SELFTEST_CGROUP_H
#define RINGTRACE_SELFTEST_CGROUP_H

#include <stdint.h>
#include <sys/types.h>

#include "ringtrace/cgroup.h"

/* Mount cgroup2 at RT_CGROUP_ROOT unless it is; skip the test (TAP) if not. */
void st_cgroup_mount(void);
/* mkdir @path (absolute) if needed; its cgroup id. Bails out (TAP). */
uint64_t st_cgroup_make(const char *path);
/* Move process @pid into the cgroup at @path. Bails out (TAP). */
void st_cgroup_move(const char *path, pid_t pid);

#endif /* RINGTRACE_SELFTEST_CGROUP_H */
