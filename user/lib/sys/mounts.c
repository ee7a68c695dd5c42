// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Mount tables in mountinfo's text form (see mounts.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ringtrace/mounts.h"

/*
 * Copy field @f (ending at a space or the line's end) to @to, unescaping
 * mountinfo's octal "\040" (space), "\011", "\012" and "\134"; the end.
 */
static char *unescape(const char *f, const char *end, char *to)
{
	while (f < end && *f != ' ') {
		if (f[0] == '\\' && end - f >= 4 &&
		    f[1] >= '0' && f[1] <= '3' && f[2] >= '0' && f[2] <= '7' &&
		    f[3] >= '0' && f[3] <= '7') {
			*to++ = (char)((f[1] - '0') * 64 + (f[2] - '0') * 8 +
				       (f[3] - '0'));
			f += 4;
		} else {
			*to++ = *f++;
		}
	}
	*to++ = '\0';
	return to;
}

/* The start of the field after the one at @f, or NULL at the line's end. */
static const char *next_field(const char *f, const char *end)
{
	f = memchr(f, ' ', (size_t)(end - f));
	return f ? f + 1 : NULL;
}

/* "ID PARENT MAJ:MIN ROOT POINT ...": one mount, into @m->v[@m->nr]. */
static void parse_line(struct rt_mounts *m, const char *line,
		       const char *end, char **strings)
{
	const char *f = next_field(line, end);
	unsigned int major, minor;
	struct rt_mount *e = &m->v[m->nr];

	f = f ? next_field(f, end) : NULL;
	if (!f || sscanf(f, "%u:%u ", &major, &minor) != 2)
		return;
	f = next_field(f, end);			/* ROOT */
	if (!f || *f != '/')
		return;
	e->root = *strings;
	*strings = unescape(f, end, *strings);
	f = next_field(f, end);			/* POINT */
	if (!f || *f != '/')
		return;
	e->point = *strings;
	*strings = unescape(f, end, *strings);
	e->major = major;
	e->minor = minor;
	m->nr++;
}

int rt_mounts_parse(struct rt_mounts *m, const char *text, size_t len)
{
	const char *p, *end, *nl;
	char *strings;
	uint32_t lines = 1;

	memset(m, 0, sizeof(*m));
	/* A chunk is padded with NULs to 8 bytes: the text ends before. */
	len = strnlen(text, len);
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	m->text = malloc(len + 1);
	m->strings = malloc(len + 1);
	m->v = calloc(lines, sizeof(*m->v));
	if (!m->text || !m->strings || !m->v) {
		rt_mounts_fini(m);
		return -ENOMEM;
	}
	memcpy(m->text, text, len);
	m->text[len] = '\0';
	m->len = len;
	strings = m->strings;
	for (p = m->text, end = m->text + len; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		parse_line(m, p, nl, &strings);
	}
	return 0;
}

void rt_mounts_fini(struct rt_mounts *m)
{
	free(m->v);
	free(m->text);
	free(m->strings);
	memset(m, 0, sizeof(*m));
}

/* @rel inside directory @root (a path prefix ending at a component)? */
static size_t inside(const char *root, const char *rel, size_t rel_len)
{
	size_t n = strlen(root);

	if (n == 1)			/* "/" holds everything */
		return 0;
	if (n > rel_len || memcmp(root, rel, n) ||
	    (n < rel_len && rel[n] != '/'))
		return (size_t)-1;
	return n;
}

int rt_mounts_name(const struct rt_mounts *m, uint32_t major, uint32_t minor,
		   const char *rel, size_t rel_len, char *out, size_t size)
{
	const struct rt_mount *best = NULL;
	size_t skip = 0;
	int n;

	if (!m)
		return -1;
	/* The first mount (the table is in mount order) that holds it. */
	for (uint32_t i = 0; i < m->nr && !best; i++) {
		const struct rt_mount *e = &m->v[i];
		size_t k;

		if (e->major != major || e->minor != minor)
			continue;
		k = inside(e->root, rel, rel_len);
		if (k != (size_t)-1) {
			best = e;
			skip = k;
		}
	}
	if (!best)
		return -1;
	rel += skip;
	rel_len -= skip;
	/* "/" mounted at "/dev": "/zero" is "/dev/zero"; the root itself. */
	if (!strcmp(best->point, "/"))
		n = snprintf(out, size, "%.*s", (int)rel_len, rel_len ? rel : "/");
	else
		n = snprintf(out, size, "%s%.*s", best->point,
			     (int)(rel_len == 1 ? 0 : rel_len), rel);
	return n < 0 || (size_t)n >= size ? -1 : n;
}

static uint64_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec;
}

/* The whole of a /proc file (its size is not known before reading). */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 16384, n = 0;
	char *buf = malloc(cap), *more;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0 || !buf)
		goto fail;
	for (;;) {
		if (n == cap) {
			more = realloc(buf, cap * 2);
			if (!more)
				goto fail;
			buf = more;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

const struct rt_mounts *rt_mounts_self(bool refresh)
{
	static struct rt_mounts self;
	static bool loaded;
	static uint64_t read_at;
	struct rt_mounts fresh;
	size_t len;
	char *text;

	if (loaded && (!refresh || now_s() - read_at < 1))
		return self.text ? &self : NULL;
	loaded = true;
	read_at = now_s();
	text = slurp("/proc/self/mountinfo", &len);
	if (!text)
		return self.text ? &self : NULL;
	if (!rt_mounts_parse(&fresh, text, len)) {
		rt_mounts_fini(&self);
		self = fresh;
	}
	free(text);
	return self.text ? &self : NULL;
}
