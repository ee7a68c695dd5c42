// SPDX-License-Identifier: GPL-2.0-only
/*
 * A full path cache. With path_cache_entries at its minimum (16 files), a
 * child reads 48 files twice each: the first files fill the cache and are
 * named once; every other one is named before each of its reads with the
 * UNCACHED flag, and GET_STATS counts those in path_cache_full. No read is
 * left without a name before it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define NR_FILES	48
#define CACHE		16

static unsigned long long inos[NR_FILES];

struct per_file {
	int named, uncached, reads;
	bool named_first;	/* a path record came before its first read */
};

struct seen {
	struct per_file f[NR_FILES];
	unsigned long long uncached_records;
	int path_records;
};

static void file_name(char *buf, size_t n, int i)
{
	snprintf(buf, n, "/tmp/ringtrace-cachefull-%02d", i);
}

static int workload(void *arg)
{
	char name[64], buf[8];
	int i, round, fd;

	(void)arg;
	for (round = 0; round < 2; round++)
		for (i = 0; i < NR_FILES; i++) {
			file_name(name, sizeof(name), i);
			fd = open(name, O_RDONLY);
			if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
				return 2;
			close(fd);
		}
	return 0;
}

static int which(unsigned long long ino)
{
	int i;

	for (i = 0; i < NR_FILES; i++)
		if (inos[i] == ino)
			return i;
	return -1;
}

static void collect(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_path_record *p = (const void *)h;
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	struct seen *s = arg;
	int i;

	(void)cpu;
	if (h->type == RINGTRACE_RECORD_PATH) {
		s->path_records++;
		if (p->flags & RINGTRACE_PATH_UNCACHED)
			s->uncached_records++;
		i = which(p->ino);
		if (i < 0)
			return;
		s->f[i].named++;
		if (p->flags & RINGTRACE_PATH_UNCACHED)
			s->f[i].uncached++;
	} else if (h->type == RINGTRACE_RECORD_VFS_READ) {
		i = which(r->ino);
		if (i < 0)
			return;
		if (!s->f[i].reads++)
			s->f[i].named_first = s->f[i].named > 0;
	}
}

int main(void)
{
	static struct seen seen;
	struct st_run r = {
		.child = workload, .ring_pages = 64,
		.record = collect, .record_arg = &seen,
	};
	struct ringtrace_stats st;
	char name[64];
	struct stat sb;
	int i, fd, cached = 0, uncached = 0, odd = 0, unnamed = 0;

	tap_plan(6);
	for (i = 0; i < NR_FILES; i++) {
		file_name(name, sizeof(name), i);
		fd = open(name, O_CREAT | O_TRUNC | O_WRONLY, 0600);
		if (fd < 0 || write(fd, "12345678", 8) != 8 || fstat(fd, &sb))
			tap_bail("cannot create %s: %s", name, strerror(errno));
		inos[i] = (unsigned long long)sb.st_ino;
		close(fd);
	}

	r.cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
	r.cfg.flags |= RINGTRACE_CFG_PATHS;
	r.cfg.path_cache_entries = 1;	/* rounded up to the minimum */
	st_traced_run(&r);
	tap_ok(r.status == 0, "workload ran (exit %d)", r.status);
	tap_ok(r.drained >= 0, "rings are well formed");

	for (i = 0; i < NR_FILES; i++) {
		const struct per_file *f = &seen.f[i];

		if (f->named == 1 && !f->uncached)
			cached++;
		else if (f->named == 2 && f->uncached == 2)
			uncached++;
		else
			odd++;
		if (f->reads != 2 || !f->named_first)
			unnamed++;
	}
	tap_ok(cached > 0 && cached <= CACHE,
	       "at most %d files cached and named once (%d)", CACHE, cached);
	tap_ok(odd == 0 && cached + uncached == NR_FILES,
	       "the others named before each read, UNCACHED (%d; %d neither)",
	       uncached, odd);
	tap_ok(unnamed == 0, "every file named before its first read (%d not)",
	       unnamed);
	st = r.stats;
	tap_ok(r.stats_rc == 0 && st.path_cache_full == seen.uncached_records &&
	       st.path_cache_full >= 2ULL * uncached &&
	       st.path_records == (unsigned long long)seen.path_records,
	       "stats: path_cache_full %llu (%llu UNCACHED records), path_records %llu",
	       (unsigned long long)st.path_cache_full, seen.uncached_records,
	       (unsigned long long)st.path_records);
	for (i = 0; i < NR_FILES; i++) {
		file_name(name, sizeof(name), i);
		unlink(name);
	}
	return tap_finish();
}
