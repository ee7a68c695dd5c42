/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * cgroup v2 paths to the ids the module filters by: the id of
 * a cgroup is its directory's kernfs node id, which name_to_handle_at()
 * returns as an 8-byte handle on cgroup2 (as perf and bpftool find it).
 */
#ifndef RINGTRACE_CGROUP_H
#define RINGTRACE_CGROUP_H

#include <stddef.h>
#include <stdint.h>

/* Where cgroup2 is mounted; a relative --cgroup PATH is under it. */
#define RT_CGROUP_ROOT		"/sys/fs/cgroup"

/*
 * The id of the cgroup v2 directory @arg (absolute, or relative to
 * @root: RT_CGROUP_ROOT unless a test says otherwise). 0, or -errno with
 * a sentence in @err: no such path, not a directory, not on cgroup2, on a
 * v1 hierarchy, or a host with no v2 hierarchy at @root.
 */
int rt_cgroup_id(const char *root, const char *arg, uint64_t *id,
		 char *err, size_t err_len);

#endif /* RINGTRACE_CGROUP_H */
