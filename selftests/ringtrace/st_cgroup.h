/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgroup v2 for the container tests: cgroup2 mounted at
 * /sys/fs/cgroup (the guest mounts none), cgroups made, tasks moved.
 */
#ifndef RINGTRACE_SELFTEST_CGROUP_H
#define RINGTRACE_SELFTEST_CGROUP_H

#include <stdint.h>
#include <sys/types.h>

#include "ringtrace/cgroup.h"
#include "st_util.h"

/* Mount cgroup2 at RT_CGROUP_ROOT unless it is; skip the test (TAP) if not. */
void st_cgroup_mount(void);
/* mkdir @path (absolute) if needed; its cgroup id. Bails out (TAP). */
uint64_t st_cgroup_make(const char *path);
/* Move process @pid into the cgroup at @path. Bails out (TAP). */
void st_cgroup_move(const char *path, pid_t pid);

/*
 * Workloads in cgroups, the run the container tests share. Start: @nr
 * held children, child i running @fn((void *)(long)i) in the cgroup at
 * @where[i], its pid in @pid[i] (set cfg.pid from it before tracing if
 * wanted). Trace: open a session of @cfg (16 data pages a ring), enable,
 * release them, wait for them (a failed one is a TAP diagnostic),
 * disable, drain every record into @record(@arg), close.
 */
void st_cgroup_start(struct st_child *c, int nr, int (*fn)(void *),
		     const char *const where[], pid_t pid[]);
void st_cgroup_trace(struct st_child *c, int nr,
		     const struct ringtrace_config *cfg, st_record_fn record,
		     void *arg);

#endif /* RINGTRACE_SELFTEST_CGROUP_H */
