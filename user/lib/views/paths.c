// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* (dev, ino) -> path, bounded (see paths.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "ringtrace/mounts.h"
#include "ringtrace/paths.h"
#include "ringtrace/record.h"

int rt_paths_init(struct rt_paths *p)
{
	memset(p, 0, sizeof(*p));
	p->entries = calloc(RT_PATHS_MAX + RT_PATHS_SPILL, sizeof(*p->entries));
	p->slots = calloc(RT_PATHS_SLOTS, sizeof(*p->slots));
	if (!p->entries || !p->slots) {
		rt_paths_fini(p);
		return -ENOMEM;
	}
	return 0;
}

void rt_paths_fini(struct rt_paths *p)
{
	free(p->entries);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

static uint32_t slot_of(uint32_t maj, uint32_t min, uint64_t ino)
{
	uint64_t h = (ino ^ ((uint64_t)maj << 52) ^ ((uint64_t)min << 32)) *
		     0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 40) & (RT_PATHS_SLOTS - 1);
}

/* The slot holding the file, or the free slot where it would go. */
static uint32_t *find(const struct rt_paths *p, uint32_t maj, uint32_t min,
		      uint64_t ino)
{
	for (uint32_t s = slot_of(maj, min, ino);; s = (s + 1) & (RT_PATHS_SLOTS - 1)) {
		const struct rt_path_entry *e;

		if (!p->slots[s])
			return &p->slots[s];
		e = &p->entries[p->slots[s] - 1];
		if (e->ino == ino && e->dev_major == maj && e->dev_minor == min)
			return &p->slots[s];
	}
}

void rt_paths_set(struct rt_paths *p, uint32_t dev_major, uint32_t dev_minor,
		  uint64_t ino, const char *path, size_t len)
{
	struct rt_path_entry *e;
	uint32_t *slot;

	if (!p->entries)
		return;
	slot = find(p, dev_major, dev_minor, ino);
	if (*slot)
		return;
	/*
	 * RT_PATHS_MAX is half the slots: probes stay short, find() ends.
	 * Past it, the spill: the latest names, for the records after them.
	 */
	if (p->nr >= RT_PATHS_MAX) {
		p->dropped++;
		e = &p->entries[RT_PATHS_MAX + p->spill_next++ % RT_PATHS_SPILL];
	} else {
		e = &p->entries[p->nr];
		*slot = ++p->nr;
	}
	e->dev_major = dev_major;
	e->dev_minor = dev_minor;
	e->ino = ino;
	if (len >= RT_PATH_MAX) {
		memcpy(e->path, "...", 3);
		memcpy(e->path + 3, path + len - (RT_PATH_MAX - 4), RT_PATH_MAX - 4);
		e->path[RT_PATH_MAX - 1] = '\0';
	} else {
		memcpy(e->path, path, len);
		e->path[len] = '\0';
	}
}

void rt_paths_use_own_mounts(struct rt_paths *p)
{
	p->mounts = rt_mounts_self(false);
	p->live_mounts = true;
}

/*
 * A mount-relative name with its mount point in front, in @out; else
 * "[M:m]" in front (no mount of the table holds it). A truncated name
 * (its start cut off) has no known place in its mount: "[M:m]" too.
 */
static void mount_name(struct rt_paths *p, const struct rt_path_event *ev,
		       char *out, size_t size)
{
	if (!(ev->flags & RINGTRACE_PATH_TRUNCATED)) {
		if (rt_mounts_name(p->mounts, ev->dev_major, ev->dev_minor,
				   ev->path, ev->len, out, size) >= 0)
			return;
		if (p->live_mounts) {
			p->mounts = rt_mounts_self(true);
			if (rt_mounts_name(p->mounts, ev->dev_major,
					   ev->dev_minor, ev->path, ev->len,
					   out, size) >= 0)
				return;
		}
	}
	snprintf(out, size, "[%u:%u]%.*s", ev->dev_major, ev->dev_minor,
		 (int)ev->len, ev->path);
}

void rt_paths_add(struct rt_paths *p, const struct rt_path_event *ev)
{
	char name[RT_PATH_MAX + 64], rel[RT_PATH_MAX + 64];
	int n;

	if (ev->flags & RINGTRACE_PATH_UNRESOLVED || !ev->len)
		return;
	if (ev->flags & RINGTRACE_PATH_MOUNT_RELATIVE)
		mount_name(p, ev, rel, sizeof(rel));
	else
		snprintf(rel, sizeof(rel), "%.*s", (int)ev->len, ev->path);
	n = snprintf(name, sizeof(name), "%s%s%s",
		     ev->flags & RINGTRACE_PATH_TRUNCATED ? "..." : "", rel,
		     ev->flags & RINGTRACE_PATH_DELETED ? " (deleted)" : "");
	if (n < 0)
		return;
	/* rt_paths_set() keeps the end of a name too long for the table. */
	rt_paths_set(p, ev->dev_major, ev->dev_minor, ev->ino, name,
		     (size_t)n < sizeof(name) ? (size_t)n : sizeof(name) - 1);
}

void rt_paths_add_cgroup(struct rt_paths *p, const struct rt_cgroup_event *ev)
{
	char name[RT_PATH_MAX];
	int n;

	if (ev->flags & RINGTRACE_CGROUP_UNRESOLVED || !ev->len)
		return;
	n = snprintf(name, sizeof(name), "%s%.*s",
		     ev->flags & RINGTRACE_CGROUP_TRUNCATED ? "..." : "",
		     (int)ev->len, ev->path);
	if (n < 0)
		return;
	rt_paths_set(p, RT_PATHS_CGROUP_DEV, RT_PATHS_CGROUP_DEV, ev->id, name,
		     (size_t)n < sizeof(name) ? (size_t)n : sizeof(name) - 1);
}

bool rt_paths_take(struct rt_paths *p, const struct rt_event *ev)
{
	if (ev->kind == RT_EVENT_PATH) {
		if (p)
			rt_paths_add(p, &ev->u.path);
		return true;
	}
	if (ev->kind == RT_EVENT_CGROUP) {
		if (p)
			rt_paths_add_cgroup(p, &ev->u.cgroup);
		return true;
	}
	return false;
}

void rt_paths_name(const struct rt_paths *p, struct rt_event *ev)
{
	if (!p)
		return;
	if (ev->kind == RT_EVENT_VFS_READ)
		ev->u.vfs_read.path = rt_paths_get(p, ev->u.vfs_read.dev_major,
						   ev->u.vfs_read.dev_minor,
						   ev->u.vfs_read.ino);
	if (rt_event_about_task(ev->kind) && ev->ext.present)
		ev->ext.cgroup = rt_paths_get(p, RT_PATHS_CGROUP_DEV,
					      RT_PATHS_CGROUP_DEV,
					      ev->ext.cgroup_id);
}

const char *rt_paths_get(const struct rt_paths *p, uint32_t dev_major,
			 uint32_t dev_minor, uint64_t ino)
{
	const uint32_t *slot;

	if (!p || !p->entries)
		return NULL;
	slot = find(p, dev_major, dev_minor, ino);
	if (*slot)
		return p->entries[*slot - 1].path;
	/* The spill, newest first: the name written right before. */
	for (uint32_t i = 1; i <= RT_PATHS_SPILL && i <= p->spill_next; i++) {
		const struct rt_path_entry *e = &p->entries[RT_PATHS_MAX +
			(p->spill_next - i) % RT_PATHS_SPILL];

		if (e->ino == ino && e->dev_major == dev_major &&
		    e->dev_minor == dev_minor)
			return e->path;
	}
	return NULL;
}

unsigned int rt_paths_scan_pid(struct rt_paths *p, int pid)
{
	char dir[64], link[320], target[RT_PATH_MAX];
	unsigned int added = 0;
	struct dirent *d;
	struct stat st;
	DIR *fds;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	fds = opendir(dir);
	if (!fds)
		return 0;
	while ((d = readdir(fds))) {
		ssize_t n;

		if (d->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s", dir, d->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0 || target[0] != '/' || stat(link, &st))
			continue;
		if (rt_paths_get(p, major(st.st_dev), minor(st.st_dev),
				 st.st_ino))
			continue;
		rt_paths_set(p, major(st.st_dev), minor(st.st_dev), st.st_ino,
			     target, (size_t)n);
		added++;
	}
	closedir(fds);
	return added;
}

const char *rt_path_class(const char *path, char *buf, size_t len)
{
	size_t kind = strspn(path, "abcdefghijklmnopqrstuvwxyz_");
	size_t digits;

	/* "KIND:[DIGITS]" and nothing else: a pseudo file of that kind. */
	if (!kind || strncmp(path + kind, ":[", 2))
		return path;
	digits = strspn(path + kind + 2, "0123456789");
	if (!digits || strcmp(path + kind + 2 + digits, "]"))
		return path;
	snprintf(buf, len, "%.*s:[*]", (int)kind, path);
	return buf;
}
