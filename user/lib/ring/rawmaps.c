// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The raw file's MAPS chunk (see rawfile.h): writing the /proc snapshot
 * when recording starts, and walking its entries on replay.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/outbuf.h"
#include "ringtrace/procmaps.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/sys.h"
#include "ringtrace/usyms.h"

_Static_assert(sizeof(struct rt_raw_map) == 72, "rt_raw_map layout");
_Static_assert(RT_USYMS_BUILD_ID_MAX ==
	       sizeof(((struct rt_raw_map *)0)->build_id), "build-id size");

/* A binary's build-id, read once however many processes map it. */
struct bid {
	char		*path;
	uint8_t		id[RT_USYMS_BUILD_ID_MAX];
	uint32_t	len;
};

struct snap {
	unsigned char	*buf;		/* the chunk's payload */
	size_t		len, cap;
	struct bid	*bids;
	uint32_t	nr_bids, cap_bids;
	uint32_t	pid;
	char		comm[16];
	bool		nomem;
};

static const struct bid *bid_of(struct snap *s, const char *path)
{
	struct bid *b;

	for (uint32_t i = 0; i < s->nr_bids; i++)
		if (!strcmp(s->bids[i].path, path))
			return &s->bids[i];
	if (s->nr_bids == s->cap_bids) {
		uint32_t cap = s->cap_bids ? 2 * s->cap_bids : 64;

		b = realloc(s->bids, cap * sizeof(*b));
		if (!b)
			return NULL;
		s->bids = b;
		s->cap_bids = cap;
	}
	b = &s->bids[s->nr_bids];
	b->path = strdup(path);
	if (!b->path)
		return NULL;
	b->len = rt_usyms_file_build_id(path, b->id);
	s->nr_bids++;
	return b;
}

static void add(void *arg, const struct rt_procmap *m)
{
	struct snap *s = arg;
	size_t plen = strlen(m->path) + 1;
	size_t size = (sizeof(struct rt_raw_map) + plen + 7) & ~(size_t)7;
	const struct bid *b = bid_of(s, m->path);
	struct rt_raw_map e;

	if (s->len + size > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 65536;
		unsigned char *n;

		while (cap < s->len + size)
			cap *= 2;
		n = realloc(s->buf, cap);
		if (!n) {
			s->nomem = true;
			return;
		}
		s->buf = n;
		s->cap = cap;
	}
	memset(&e, 0, sizeof(e));
	e.size = (uint32_t)size;
	e.pid = s->pid;
	e.start = m->start;
	e.end = m->end;
	e.pgoff = m->pgoff;
	memcpy(e.comm, s->comm, sizeof(e.comm));
	if (b && b->len) {
		e.build_id_len = (uint8_t)b->len;
		memcpy(e.build_id, b->id, b->len);
	}
	/* Fully initialised: the padding after the path is zero. */
	memset(s->buf + s->len, 0, size);
	memcpy(s->buf + s->len, &e, sizeof(e));
	memcpy(s->buf + s->len + sizeof(e), m->path, plen);
	s->len += size;
}

static void read_comm(uint32_t pid, char *comm)
{
	char path[64], buf[32];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	memset(comm, 0, 16);
	n = rt_sys_read_file(path, buf, sizeof(buf));
	if (n <= 0)
		return;
	buf[15] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	memcpy(comm, buf, strlen(buf));
}

uint32_t rt_raw_write_maps(struct rt_outbuf *ob)
{
	struct rt_raw_chunk h = { .kind = RT_RAW_CHUNK_MAPS };
	struct snap s;
	struct dirent *d;
	uint32_t procs = 0;
	DIR *dir;

	memset(&s, 0, sizeof(s));
	dir = opendir("/proc");
	if (!dir)
		return 0;
	while ((d = readdir(dir)) && !s.nomem) {
		char *end;
		unsigned long pid = strtoul(d->d_name, &end, 10);

		if (*end || !pid)
			continue;
		s.pid = (uint32_t)pid;
		read_comm(s.pid, s.comm);
		/* Kernel threads have no maps; a process gone is just skipped. */
		if (!rt_procmaps_read(s.pid, add, &s))
			procs++;
	}
	closedir(dir);
	if (s.len) {
		h.size = s.len;
		rt_outbuf_append(ob, &h, sizeof(h));
		rt_outbuf_append(ob, s.buf, s.len);
	}
	for (uint32_t i = 0; i < s.nr_bids; i++)
		free(s.bids[i].path);
	free(s.bids);
	free(s.buf);
	return procs;
}

uint32_t rt_raw_foreach_map(const struct rt_raw_file *f,
			    void (*fn)(void *arg, const struct rt_raw_map *m,
				       const char *path),
			    void *arg)
{
	uint32_t bad = 0;

	for (uint32_t c = 0; c < f->nr_maps; c++) {
		const unsigned char *p = f->map + f->maps[c].offset;
		uint64_t left = f->maps[c].size;

		while (left >= sizeof(struct rt_raw_map)) {
			struct rt_raw_map e;
			const char *path = (const char *)p + sizeof(e);

			memcpy(&e, p, sizeof(e));
			if (e.size % 8 || e.size <= sizeof(e) || e.size > left ||
			    !memchr(path, '\0', e.size - sizeof(e)) ||
			    e.build_id_len > sizeof(e.build_id)) {
				bad++;
				break;
			}
			e.comm[sizeof(e.comm) - 1] = '\0';
			fn(arg, &e, path);
			p += e.size;
			left -= e.size;
		}
	}
	return bad;
}
