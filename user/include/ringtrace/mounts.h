/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A mount table in /proc/PID/mountinfo's text form: where each device's
 * filesystem is mounted, so that a path the module could only name
 * inside its mount (RINGTRACE_PATH_MOUNT_RELATIVE, PREEMPT_RT kernels)
 * gets the mount point in front of it. Live, the reader's own table
 * (the namespace whose pids the records carry too); on replay, the one
 * the recording kept (the raw file's MOUNTS chunk, rawfile.h).
 */
#ifndef RINGTRACE_MOUNTS_H
#define RINGTRACE_MOUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rt_mount {
	uint32_t	major, minor;
	const char	*root;		/* the directory of the fs mounted */
	const char	*point;		/* where: unescaped, as a path */
};

struct rt_mounts {
	struct rt_mount	*v;
	uint32_t	nr;
	char		*text;		/* the table as read (chunk payload) */
	size_t		len;		/* its bytes, NUL excluded */
	char		*strings;	/* the unescaped roots and points */
};

/*
 * Parse @len bytes of mountinfo text (a copy is kept in @m->text).
 * Lines that do not parse are skipped. 0, or -ENOMEM.
 */
int rt_mounts_parse(struct rt_mounts *m, const char *text, size_t len);
void rt_mounts_fini(struct rt_mounts *m);

/*
 * The reader's own table, read once and kept for the process; with
 * @refresh, read again if a second or more has passed since the last
 * read (a mount made since). NULL if /proc cannot be read.
 */
const struct rt_mounts *rt_mounts_self(bool refresh);

/*
 * @rel (a path from the root of device @major:@minor's filesystem, "/"
 * first) as seen from the table: the mount point of a mount of that
 * device whose root holds @rel, then the rest of @rel. The length
 * written to @out (NUL-terminated), or -1 if no mount of the table
 * holds it or @size is too small.
 */
int rt_mounts_name(const struct rt_mounts *m, uint32_t major, uint32_t minor,
		   const char *rel, size_t rel_len, char *out, size_t size);

#endif
