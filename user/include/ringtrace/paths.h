/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Names of files by (dev, ino): records carry dev:ino only. The table is
 * filled from what knows a name: path records, when the module emits them,
 * and, best effort, a look at /proc/PID/fd of the processes seen, done
 * once at the end (a file closed by then, or a process gone, stays
 * dev:ino). Bounded: past RT_PATHS_MAX names new ones are not kept
 * (counted), but the last RT_PATHS_SPILL of them still name the records
 * right after their path record: past its own table the module names a
 * file before every record (RINGTRACE_PATH_UNCACHED), so a reader of
 * more distinct files than both tables hold (an exporter running for
 * months) still names each read. A path longer than RT_PATH_MAX - 1 bytes keeps its end (the
 * file's own name), after "...".
 */
#ifndef RINGTRACE_PATHS_H
#define RINGTRACE_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_PATHS_MAX	8192u		/* names kept */
#define RT_PATHS_SLOTS	16384u		/* hash slots, power of two */
#define RT_PATHS_SPILL	64u		/* the latest names not kept */
#define RT_PATH_MAX	512u		/* longer: "..." and the last bytes */

struct rt_path_entry {
	uint32_t	dev_major;
	uint32_t	dev_minor;
	uint64_t	ino;
	char		path[RT_PATH_MAX];
};

struct rt_paths {
	struct rt_path_entry	*entries;
	uint32_t		nr;
	uint32_t		*slots;		/* index + 1; 0: free */
	uint64_t		dropped;	/* names not kept: table full */
	uint32_t		spill_next;	/* entries[RT_PATHS_MAX + i] */
	/*
	 * Where each device is mounted, for names relative to their mount;
	 * NULL: shown "[M:m]/name". live_mounts: the reader's own table,
	 * read again (at most once a second) when a device is not in it.
	 */
	const struct rt_mounts	*mounts;
	bool			live_mounts;
};

/* Name mount-relative paths from the reader's own mount table. */
void rt_paths_use_own_mounts(struct rt_paths *p);

int rt_paths_init(struct rt_paths *p);
void rt_paths_fini(struct rt_paths *p);

/* Remember @path for the file; the first name given wins. */
void rt_paths_set(struct rt_paths *p, uint32_t dev_major, uint32_t dev_minor,
		  uint64_t ino, const char *path, size_t len);

struct rt_mounts;
struct rt_path_event;
struct rt_cgroup_event;
struct rt_event;

/*
 * Remember a path record's name, shown the way its flags say it must be
 * read: "..." before a truncated name (the kernel kept its end), a name
 * relative to the root of the mount of device M:m (PREEMPT_RT kernels,
 * where the probe cannot walk to the process's root) after that mount's
 * point in @p->mounts, or after "[M:m]" if none holds it, " (deleted)"
 * after an unlinked file's, as /proc does. Pseudo names ("pipe:[N]") and
 * plain paths are kept as they are; an unresolved one is not kept.
 */
void rt_paths_add(struct rt_paths *p, const struct rt_path_event *ev);

/*
 * cgroup paths share the table, under a device no file has
 * (majors are 12 bits), keyed by cgroup id. A truncated path starts
 * with "..."; an unresolved one is not kept.
 */
#define RT_PATHS_CGROUP_DEV	UINT32_MAX
void rt_paths_add_cgroup(struct rt_paths *p, const struct rt_cgroup_event *ev);

/*
 * Keep what a name record (path or cgroup) says: true if @ev was one (it
 * names the records that follow; nothing to print).
 */
bool rt_paths_take(struct rt_paths *p, const struct rt_event *ev);

/* Give @ev the names the table has: its file's, its cgroup's. */
void rt_paths_name(const struct rt_paths *p, struct rt_event *ev);

/* The name of a file, or NULL. */
const char *rt_paths_get(const struct rt_paths *p, uint32_t dev_major,
			 uint32_t dev_minor, uint64_t ino);

/*
 * Best effort: name every file that process @pid has open now, from
 * /proc/@pid/fd (readlink + stat per descriptor: call it once at the end,
 * never per record). Returns how many names were added.
 */
unsigned int rt_paths_scan_pid(struct rt_paths *p, int pid);

/*
 * @path, or its kind when it names a file by its inode alone: a pipe or a
 * socket ("pipe:[11069]", "socket:[42]") becomes "pipe:[*]", "socket:[*]"
 * (in @buf). Two runs read other pipes: compared by kind, they line up.
 */
const char *rt_path_class(const char *path, char *buf, size_t len);

#endif /* RINGTRACE_PATHS_H */
