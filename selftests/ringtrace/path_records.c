// SPDX-License-Identifier: GPL-2.0-only
/*
 * Path records (RINGTRACE_CFG_PATHS) against a workload with known files.
 * A child reads three files twice each (one through a symlink), a file it
 * unlinked while open, and a pipe. Each file must be named by exactly one
 * path record whose path is realpath() of the file (the last name and the
 * DELETED flag for the unlinked one, a PSEUDO name for the pipe), written
 * on the same ring right before the first vfs_read record naming it, with
 * the same timestamp, every byte after the path zero, and the counts in
 * GET_STATS matching what the rings hold.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define NR_FILES	3
#define MAX_SEEN	64

static const char *const names[NR_FILES] = {
	"/tmp/ringtrace-path-a", "/tmp/ringtrace-path-b",
	"/tmp/ringtrace-path-c",
};
static const char *const link_name = "/tmp/ringtrace-path-link";
static const char *const deleted_name = "/tmp/ringtrace-path-deleted";

struct file_id {
	unsigned int major, minor;
	unsigned long long ino;
};

struct path_seen {
	struct file_id id;
	unsigned int flags, len;
	unsigned long long ts;
	char path[PATH_MAX];
	bool pad_ok;
	bool before_first_read;	/* came before any read of it, same ring */
};

struct seen {
	struct path_seen paths[MAX_SEEN];
	int nr_paths;
	int reads;
	int reads_unnamed;	/* read records with no earlier path record */
	int bad_order;		/* named on this ring but not right before */
	const struct ringtrace_event_header *prev;	/* on this ring */
	int prev_cpu;
};

static int workload(void *arg)
{
	char buf[64];
	int fd, p[2], i, round;

	(void)arg;
	for (round = 0; round < 2; round++)
		for (i = 0; i < NR_FILES; i++) {
			fd = open(i == 2 ? link_name : names[i], O_RDONLY);
			if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
				return 2;
			close(fd);
		}
	fd = open(deleted_name, O_RDONLY);
	if (fd < 0 || unlink(deleted_name) || read(fd, buf, 8) != 8)
		return 3;
	close(fd);
	if (pipe(p) || write(p[1], "x", 1) != 1 || read(p[0], buf, 1) != 1)
		return 4;
	return 0;
}

static bool same_id(const struct file_id *a, unsigned int major,
		    unsigned int minor, unsigned long long ino)
{
	return a->major == major && a->minor == minor && a->ino == ino;
}

static struct path_seen *find_path(struct seen *s, unsigned int major,
				   unsigned int minor, unsigned long long ino)
{
	int i;

	for (i = 0; i < s->nr_paths; i++)
		if (same_id(&s->paths[i].id, major, minor, ino))
			return &s->paths[i];
	return NULL;
}

static void on_path(struct seen *s, const struct ringtrace_path_record *r)
{
	const char *path = RINGTRACE_PATH_RECORD_PATH(r);
	const unsigned char *tail = (const unsigned char *)path + r->path_len;
	const unsigned char *end = (const unsigned char *)r + r->header.size;
	struct path_seen *p;

	if (s->nr_paths == MAX_SEEN)
		return;
	p = &s->paths[s->nr_paths++];
	p->id = (struct file_id){ r->dev_major, r->dev_minor, r->ino };
	p->flags = r->flags;
	p->len = r->path_len;
	p->ts = r->ts_ns;
	p->pad_ok = r->header.size % 8 == 0 && r->__pad == 0 &&
		    r->header.misc == 0 &&
		    r->header.size == ((sizeof(*r) + r->path_len + 1 + 7) & ~7UL) &&
		    r->path_len < sizeof(p->path);
	for (; p->pad_ok && tail < end; tail++)
		if (*tail)
			p->pad_ok = false;
	if (p->pad_ok)
		memcpy(p->path, path, r->path_len + 1);
	p->before_first_read = true;
}

static void collect(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	struct seen *s = arg;
	const struct ringtrace_path_record *prev;
	struct path_seen *p;

	if (cpu != s->prev_cpu)
		s->prev = NULL;
	s->prev_cpu = cpu;
	if (h->type == RINGTRACE_RECORD_PATH) {
		on_path(s, (const void *)h);
	} else if (h->type == RINGTRACE_RECORD_VFS_READ) {
		s->reads++;
		p = find_path(s, r->dev_major, r->dev_minor, r->ino);
		if (!p) {
			s->reads_unnamed++;
		} else if (p->before_first_read && p->ts == r->task.ts_ns) {
			/* The first read of a file: its name is right before. */
			prev = (const void *)s->prev;
			if (!prev || prev->header.type != RINGTRACE_RECORD_PATH ||
			    !same_id(&p->id, prev->dev_major, prev->dev_minor,
				     prev->ino))
				s->bad_order++;
		}
		if (p)
			p->before_first_read = false;
	}
	s->prev = h;
}

static int count_paths(struct seen *s, const struct file_id *id)
{
	int i, n = 0;

	for (i = 0; i < s->nr_paths; i++)
		n += same_id(&s->paths[i].id, id->major, id->minor, id->ino);
	return n;
}

static void make_file(const char *name)
{
	int fd = open(name, O_CREAT | O_TRUNC | O_WRONLY, 0600);

	if (fd < 0 || write(fd, "0123456789abcdef", 16) != 16)
		tap_bail("cannot create %s: %s", name, strerror(errno));
	close(fd);
}

static struct file_id stat_id(const char *name)
{
	struct stat st;

	if (stat(name, &st))
		tap_bail("stat %s: %s", name, strerror(errno));
	return (struct file_id){ major(st.st_dev), minor(st.st_dev),
				 (unsigned long long)st.st_ino };
}

/*
 * Does the record's path name @real? With MOUNT_RELATIVE (PREEMPT_RT) it
 * is the part of @real inside the file's mount: a suffix of it.
 */
static bool path_matches(const struct path_seen *p, const char *real)
{
	size_t n = strlen(real);

	if (!(p->flags & RINGTRACE_PATH_MOUNT_RELATIVE))
		return !strcmp(p->path, real);
	return p->len <= n && p->path[0] == '/' &&
	       !strcmp(real + n - p->len, p->path);
}

int main(void)
{
	static struct seen seen = { .prev_cpu = -1 };
	char real[NR_FILES][PATH_MAX], deleted_real[PATH_MAX];
	struct file_id ids[NR_FILES], deleted_id;
	struct st_run r = {
		.child = workload, .ring_pages = 16,
		.record = collect, .record_arg = &seen,
	};
	struct ringtrace_stats st;
	const struct path_seen *p;
	int i, once = 0, right = 0, pads = 0, pipes = 0;

	tap_plan(10);

	for (i = 0; i < NR_FILES; i++) {
		make_file(names[i]);
		if (!realpath(names[i], real[i]))
			tap_bail("realpath %s: %s", names[i], strerror(errno));
		ids[i] = stat_id(names[i]);
	}
	unlink(link_name);
	if (symlink(names[2], link_name))
		tap_bail("symlink: %s", strerror(errno));
	make_file(deleted_name);
	if (!realpath(deleted_name, deleted_real))
		tap_bail("realpath %s: %s", deleted_name, strerror(errno));
	deleted_id = stat_id(deleted_name);

	r.cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
	r.cfg.flags |= RINGTRACE_CFG_PATHS;
	st_traced_run(&r);
	tap_ok(r.status == 0, "workload ran (exit %d)", r.status);
	tap_ok(r.drained >= 0, "rings are well formed");

	for (i = 0; i < NR_FILES; i++) {
		once += count_paths(&seen, &ids[i]) == 1;
		p = find_path(&seen, ids[i].major, ids[i].minor, ids[i].ino);
		if (p && path_matches(p, real[i]) &&
		    !(p->flags & ~RINGTRACE_PATH_MOUNT_RELATIVE))
			right++;
		else
			tap_diag("%s: got \"%s\" flags %#x", real[i],
				 p ? p->path : "(none)", p ? p->flags : 0);
	}
	tap_ok(once == NR_FILES, "each file read twice is named once (%d of %d)",
	       once, NR_FILES);
	tap_ok(right == NR_FILES,
	       "paths are realpath() of the files, a symlink resolved (%d of %d)",
	       right, NR_FILES);

	p = find_path(&seen, deleted_id.major, deleted_id.minor, deleted_id.ino);
	tap_ok(p && (p->flags & RINGTRACE_PATH_DELETED) &&
	       path_matches(p, deleted_real),
	       "an unlinked file: its last name, flag DELETED (\"%s\", %#x)",
	       p ? p->path : "(none)", p ? p->flags : 0);

	for (i = 0; i < seen.nr_paths; i++) {
		p = &seen.paths[i];
		pads += p->pad_ok;
		if ((p->flags & RINGTRACE_PATH_PSEUDO) && strstr(p->path, ":["))
			pipes++;
	}
	tap_ok(pipes == 1, "a pipe: one PSEUDO name like pipe:[N] (%d)", pipes);
	tap_ok(pads == seen.nr_paths && seen.nr_paths > 0,
	       "sizes aligned, path NUL-terminated, padding zero (%d of %d)",
	       pads, seen.nr_paths);
	tap_ok(seen.reads_unnamed == 0 && seen.reads > 0,
	       "every vfs_read record comes after its file's name (%d of %d not)",
	       seen.reads_unnamed, seen.reads);
	tap_ok(seen.bad_order == 0,
	       "a first read follows its path record on the ring (%d not)",
	       seen.bad_order);

	st = r.stats;
	tap_ok(r.stats_rc == 0 && st.path_records == (unsigned long long)seen.nr_paths &&
	       st.records == (unsigned long long)(seen.nr_paths + seen.reads) &&
	       st.path_cache_full == 0 && st.path_unresolved == 0,
	       "stats: path_records %llu of %llu records, cache_full %llu, unresolved %llu",
	       (unsigned long long)st.path_records,
	       (unsigned long long)st.records,
	       (unsigned long long)st.path_cache_full,
	       (unsigned long long)st.path_unresolved);
	for (i = 0; i < NR_FILES; i++)
		unlink(names[i]);
	unlink(link_name);
	return tap_finish();
}
