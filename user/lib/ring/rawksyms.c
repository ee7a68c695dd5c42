// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The raw file's KSYMS chunk (see rawfile.h). Written once, when a
 * recording of kernel frames ends: the file is read back (the live
 * writer copies ring bytes and does no per-record work), every kernel
 * frame marks the kallsyms symbol it falls in, and the marked symbols
 * are appended. On replay they name kernel frames as the recording
 * boot's /proc/kallsyms would (same lookup, same names).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ringtrace/folded.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/stream.h"

_Static_assert(sizeof(struct rt_raw_ksyms_head) == 72, "ksyms head layout");
_Static_assert(sizeof(struct rt_raw_ksym) == 24, "ksym layout");

struct marks {
	const struct rt_ksyms	*k;
	uint8_t			*used;		/* per kallsyms symbol */
	uint64_t		read_ip;	/* vfs_read's (0: none) */
	char			kernel[64];	/* the recording's release */
};

static void mark(struct marks *m, uint64_t ip)
{
	const struct rt_ksym *s;

	if ((int64_t)ip >= 0 || rt_sample_frame_is_marker(ip))
		return;			/* a user address, or perf's marker */
	s = rt_ksyms_lookup(m->k, ip);
	if (s)
		m->used[s - m->k->syms] = 1;
}

static int on_record(void *arg, const struct rt_source *src,
		     const struct rt_record *rec, int ret,
		     const struct rt_event *ev)
{
	struct marks *m = arg;

	(void)src;
	(void)rec;
	if (ret != RT_DECODE_OK)
		return 0;
	/* The stack trailer is set only for the kinds that carry one. */
	if (rt_event_about_task(ev->kind))
		for (uint32_t i = 0; ev->stack.kernel &&
				     i < ev->stack.nr_kernel; i++)
			mark(m, rt_stack_frame(ev->stack.kernel, i));
	/*
	 * a func record's function, named on replay (--graph, the stream);
	 * and vfs_read itself, the root --graph's weighted views put the
	 * callees under.
	 */
	if (ev->kind == RT_EVENT_FUNC) {
		mark(m, ev->u.func.ip);
		mark(m, m->read_ip);
	}
	if (ev->kind == RT_EVENT_SAMPLE) {
		const struct rt_sample_event *s = &ev->u.sample;

		mark(m, s->ip);
		for (uint32_t i = 0; s->frames && i < s->nr_frames; i++)
			mark(m, rt_sample_frame(s, i));
	}
	return 0;
}

/* Every record of @path through on_record(): the frames are marked. */
static int mark_file(const char *path, struct marks *m, char *err, size_t len)
{
	struct rt_stream st = { .format = RT_FORMAT_TEXT };
	struct rt_outbuf ob;
	struct rt_raw_file f;
	int ret = rt_raw_open(&f, path);

	if (ret) {
		snprintf(err, len, "%s", f.errmsg);
		rt_raw_close(&f);
		return ret;
	}
	if (rt_outbuf_init(&ob, -1, 4096)) {
		rt_raw_close(&f);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	/* The symbols are the recording boot's: say which kernel's. */
	memcpy(m->kernel, f.hdr.kernel, sizeof(m->kernel));
	m->kernel[sizeof(m->kernel) - 1] = '\0';
	st.out = &ob;
	st.on_record = on_record;
	st.on_record_arg = m;
	/* A corrupt record stops the walk: the frames before it count. */
	rt_stream_file(&st, &f);
	rt_outbuf_fini(&ob);
	rt_raw_close(&f);
	return 0;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The chunk of the marked symbols, in @buf (malloc'ed); its size. */
static size_t build_chunk(const struct marks *m, unsigned char **buf,
			  uint32_t *nr)
{
	struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_KSYMS };
	struct rt_raw_ksyms_head h;
	size_t size = sizeof(c) + sizeof(h), at;

	memset(&h, 0, sizeof(h));
	*nr = 0;
	for (uint32_t i = 0; i < m->k->nr; i++) {
		const struct rt_ksym *s = &m->k->syms[i];

		if (!m->used[i])
			continue;
		size += (sizeof(struct rt_raw_ksym) + strlen(s->name) + 1 +
			 (s->module ? strlen(s->module) : 0) + 1 + 7) & ~(size_t)7;
		(*nr)++;
	}
	*buf = calloc(1, size);
	if (!*buf)
		return 0;
	c.size = size - sizeof(c);
	h.nr = *nr;
	memcpy(h.kernel, m->kernel, sizeof(h.kernel));
	memcpy(*buf, &c, sizeof(c));
	memcpy(*buf + sizeof(c), &h, sizeof(h));
	at = sizeof(c) + sizeof(h);
	for (uint32_t i = 0; i < m->k->nr; i++) {
		const struct rt_ksym *s = &m->k->syms[i];
		size_t nl = strlen(s->name) + 1;
		size_t ml = (s->module ? strlen(s->module) : 0) + 1;
		struct rt_raw_ksym e = { .addr = s->addr };

		if (!m->used[i])
			continue;
		e.size = (uint32_t)((sizeof(e) + nl + ml + 7) & ~(size_t)7);
		/* The extent --kallsyms gives it (rt_ksyms_parse()). */
		e.len = s->end > s->addr ? s->end - s->addr : 0;
		memcpy(*buf + at, &e, sizeof(e));
		memcpy(*buf + at + sizeof(e), s->name, nl);
		if (s->module)
			memcpy(*buf + at + sizeof(e) + nl, s->module, ml);
		at += e.size;
	}
	return size;
}

int rt_raw_append_ksyms(const char *path, const char *kallsyms, char *err,
			size_t len)
{
	struct rt_ksyms k;
	struct marks m = { .k = &k };
	unsigned char *buf = NULL;
	uint32_t nr = 0;
	size_t size;
	int ret, fd;

	ret = rt_ksyms_load(&k, kallsyms);
	if (ret) {
		snprintf(err, len, "cannot read %s: %s", kallsyms,
			 strerror(-ret));
		return ret;
	}
	if (!k.nr) {
		snprintf(err, len, "%s shows no addresses (kernel.kptr_restrict)",
			 kallsyms);
		rt_ksyms_free(&k);
		return -EPERM;
	}
	m.read_ip = rt_ksyms_addr_of(&k, "vfs_read");
	m.used = calloc(k.nr, 1);
	if (!m.used) {
		rt_ksyms_free(&k);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	ret = mark_file(path, &m, err, len);
	/*
	 * _text too, frames or not: a --kallsyms FILE given on replay is
	 * checked against it (another boot's KASLR offset moves it).
	 */
	for (uint32_t i = 0; !ret && i < k.nr; i++)
		if (!strcmp(k.syms[i].name, "_text"))
			m.used[i] = 1;
	size = ret ? 0 : build_chunk(&m, &buf, &nr);
	if (!ret && !size) {
		snprintf(err, len, "out of memory");
		ret = -ENOMEM;
	}
	free(m.used);
	rt_ksyms_free(&k);
	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	ret = fd < 0 ? -errno : write_all(fd, buf, size);
	if (fd >= 0 && close(fd) && !ret)
		ret = -errno;
	free(buf);
	if (ret) {
		snprintf(err, len, "appending to %s: %s", path, strerror(-ret));
		return ret;
	}
	return (int)nr;
}

bool rt_raw_ksyms_info(const struct rt_raw_file *f, uint32_t *nr,
		       char *kernel, size_t len)
{
	struct rt_raw_ksyms_head h;

	if (!f->ksyms.offset || f->ksyms.size < sizeof(h))
		return false;
	memcpy(&h, f->map + f->ksyms.offset, sizeof(h));
	h.kernel[sizeof(h.kernel) - 1] = '\0';
	*nr = h.nr;
	snprintf(kernel, len, "%s", h.kernel);
	return true;
}

int rt_raw_read_ksyms(const struct rt_raw_file *f, struct rt_ksyms *k,
		      char *err, size_t len)
{
	const unsigned char *p = f->map + f->ksyms.offset;
	uint64_t left = f->ksyms.size, at;
	unsigned long long chunk = (unsigned long long)(f->ksyms.offset -
						       sizeof(struct rt_raw_chunk));
	struct rt_raw_ksyms_head h;
	uint64_t prev = 0;
	uint32_t n = 0, cap;

	memset(k, 0, sizeof(*k));
	err[0] = '\0';
	if (!f->ksyms.offset)
		return 0;
	if (left < sizeof(h)) {
		snprintf(err, len, "kernel symbols chunk at offset %llu is cut "
			 "in its header: no symbol read", chunk);
		return 0;
	}
	memcpy(&h, p, sizeof(h));
	/* Never more than the bytes can hold, whatever nr says. */
	cap = (uint32_t)((left - sizeof(h)) / (sizeof(struct rt_raw_ksym) + 8));
	if (h.nr < cap)
		cap = h.nr;
	k->syms = calloc(cap + 1, sizeof(*k->syms));
	k->names = malloc(left);
	if (!k->syms || !k->names) {
		rt_ksyms_free(k);
		return -ENOMEM;
	}
	memcpy(k->names, p, left);
	for (at = sizeof(h); n < cap;) {
		struct rt_raw_ksym e;
		const char *name = k->names + at + sizeof(e), *mod;
		const char *why = NULL;

		if (left - at < sizeof(e)) {
			why = "cut";
		} else {
			memcpy(&e, p + at, sizeof(e));
			if (e.size % 8 || e.size < sizeof(e) + 2 ||
			    e.size > left - at)
				why = e.size > left - at ? "cut" :
				      "bad entry size";
			else if (!memchr(name, '\0', e.size - sizeof(e)) ||
				 !memchr(name + strlen(name) + 1, '\0',
					 e.size - sizeof(e) - strlen(name) - 1))
				why = "unterminated name";
			else if (e.addr < prev || !e.addr)
				why = "address out of order";
		}
		if (why) {
			snprintf(err, len, "kernel symbols chunk at offset %llu: "
				 "entry %u of %u at offset %llu: %s; the %u "
				 "before it were read", chunk, n + 1, h.nr,
				 (unsigned long long)(f->ksyms.offset + at),
				 why, n);
			break;
		}
		mod = name + strlen(name) + 1;
		k->syms[n++] = (struct rt_ksym){
			.addr = e.addr, .name = name,
			.module = *mod ? mod : NULL,
			.end = e.len ? e.addr + e.len : 0,
		};
		prev = e.addr;
		at += e.size;
	}
	if (!err[0] && n < h.nr)
		snprintf(err, len, "kernel symbols chunk at offset %llu is cut: "
			 "%u of its %u symbols were read", chunk, n, h.nr);
	k->nr = n;
	return (int)n;
}
