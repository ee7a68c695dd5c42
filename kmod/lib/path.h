/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file's path in probe context (path.c): what a path record says.
 */
#ifndef _RINGTRACE_PATH_H
#define _RINGTRACE_PATH_H

#include <linux/types.h>

struct file;

/* The module-wide per-CPU buffer names are built in, while needed. */
int rt_path_buffers_get(void);
void rt_path_buffers_put(void);

/* What one vfs_read return knows about its file, resolved at most once. */
struct rt_path_call {
	struct file	*file;
	u64		ino;
	u32		dev;		/* MKDEV(major, minor) */
	/* Filled by rt_path_resolve(), for the first session that names it. */
	const char	*name;		/* not NUL-terminated; NULL: not yet */
	u32		len;
	u32		flags;		/* RINGTRACE_PATH_* but TRUNCATED/UNCACHED */
};

/*
 * Resolve @c's name into this CPU's buffer (rt_path_buffers_get() held,
 * preemption disabled); sets name, len and flags.
 */
void rt_path_resolve(struct rt_path_call *c);

#endif /* _RINGTRACE_PATH_H */
