// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Folded stacks for flame graphs (see folded.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "ringtrace/escape.h"
#include "ringtrace/folded.h"
#include "ringtrace/hash.h"
#include "ringtrace/paths.h"
#include "ringtrace/sys.h"
#include "ringtrace/usyms.h"


int rt_folded_init(struct rt_folded *f)
{
	memset(f, 0, sizeof(*f));
	f->stacks = calloc(RT_FOLDED_MAX_STACKS, sizeof(*f->stacks));
	f->frames = malloc(RT_FOLDED_MAX_FRAMES * sizeof(*f->frames));
	if (!f->stacks || !f->frames) {
		rt_folded_fini(f);
		return -ENOMEM;
	}
	return 0;
}

void rt_folded_fini(struct rt_folded *f)
{
	free(f->stacks);
	free(f->frames);
	f->stacks = NULL;
	f->frames = NULL;
}

/* The stack of @ev, root first: user frames, then kernel frames. */
static uint32_t stack_of(const struct rt_event *ev, uint64_t *out,
			 uint32_t *nr_kernel)
{
	const struct rt_sample_event *s = &ev->u.sample;
	uint64_t user[RT_FOLDED_DEPTH], kern[RT_FOLDED_DEPTH];
	uint32_t nu = 0, nk = 0, n = 0;
	bool in_kernel = false;

	if (!s->frames) {
		/* No chain: the ip alone; the upper half is the kernel's. */
		out[0] = s->ip;
		*nr_kernel = (int64_t)s->ip < 0;
		return 1;
	}
	for (uint32_t i = 0; i < s->nr_frames; i++) {
		uint64_t ip = rt_sample_frame(s, i);

		if (rt_sample_frame_is_marker(ip)) {
			in_kernel = ip != (uint64_t)PERF_CONTEXT_USER;
			continue;
		}
		/* Leaf first in the chain: keep the frames nearest the leaf. */
		if (in_kernel && nk < RT_FOLDED_DEPTH)
			kern[nk++] = ip;
		else if (!in_kernel && nu + nk < RT_FOLDED_DEPTH)
			user[nu++] = ip;
	}
	while (nu)
		out[n++] = user[--nu];
	*nr_kernel = nk;
	while (nk && n < RT_FOLDED_DEPTH)
		out[n++] = kern[--nk];
	return n;
}

static bool same(const struct rt_folded *f, const struct rt_folded_stack *st,
		 uint32_t pid, const char *comm, const uint64_t *frames, uint32_t nr,
		 uint32_t nr_kernel, bool file)
{
	return st->nr == nr && st->nr_kernel == nr_kernel && st->file == file &&
	       !strcmp(st->comm, comm) && (!f->usyms || st->pid == pid) &&
	       !memcmp(f->frames + st->first, frames, nr * sizeof(*frames));
}

/*
 * Count @weight for the stack @frames (root first) of @comm / @pid; @file:
 * the frames are a file's dev and ino.
 */
static void insert(struct rt_folded *f, const char *comm, uint32_t pid,
		   const uint64_t *frames, uint32_t nr, uint32_t nr_kernel,
		   bool file, uint64_t weight)
{
	struct rt_folded_stack *st;
	uint32_t slot;
	uint64_t h;

	h = rt_fnv64(RT_FNV64_INIT, comm, strlen(comm) + 1);
	h = rt_fnv64(h, frames, nr * sizeof(*frames));
	h = rt_fnv64(h, &nr_kernel, sizeof(nr_kernel));
	h = rt_fnv64(h, &file, sizeof(file));
	if (f->usyms) {
		h = rt_fnv64(h, &pid, sizeof(pid));
		rt_usyms_see(f->usyms, pid, comm);
	}
	for (slot = (uint32_t)h & (RT_FOLDED_MAX_STACKS - 1);;
	     slot = (slot + 1) & (RT_FOLDED_MAX_STACKS - 1)) {
		st = &f->stacks[slot];
		if (!st->count)
			break;
		if (st->hash == h &&
		    same(f, st, pid, comm, frames, nr, nr_kernel, file)) {
			st->count += weight;
			f->weight += weight;
			return;
		}
	}
	/* Keep the table at most 3/4 full so probes stay short. */
	if (f->nr_stacks >= RT_FOLDED_MAX_STACKS / 4 * 3 ||
	    f->nr_frames + nr > RT_FOLDED_MAX_FRAMES) {
		f->dropped++;
		return;
	}
	st->hash = h;
	st->count = weight;
	st->first = f->nr_frames;
	st->nr = (uint16_t)nr;
	st->nr_kernel = (uint16_t)nr_kernel;
	st->file = file;
	st->pid = pid;
	memcpy(st->comm, comm, sizeof(st->comm));
	memcpy(f->frames + f->nr_frames, frames, nr * sizeof(*frames));
	f->nr_frames += nr;
	f->nr_stacks++;
	f->weight += weight;
	f->kernel_stacks += nr_kernel > 0;
	/* A new stack: make sure its user frames' mappings are known. */
	for (uint32_t i = 0; f->usyms && !file && i < nr - nr_kernel; i++)
		rt_usyms_check(f->usyms, pid, comm, frames[i]);
}

void rt_folded_add(struct rt_folded *f, const struct rt_event *ev)
{
	uint64_t frames[RT_FOLDED_DEPTH];
	uint32_t nr, nr_kernel;

	if (ev->kind != RT_EVENT_SAMPLE)
		return;
	f->samples++;
	nr = stack_of(ev, frames, &nr_kernel);
	insert(f, ev->comm, ev->pid, frames, nr, nr_kernel, false, 1);
}

void rt_folded_add_stack(struct rt_folded *f, const struct rt_event *ev,
			 uint64_t weight)
{
	const struct rt_stack *s = &ev->stack;
	uint64_t frames[RT_FOLDED_DEPTH];
	uint32_t n = 0, nk = 0;

	f->samples++;
	if (s->nr_kernel || s->nr_user)
		f->stacks_seen++;
	if (!weight)
		return;
	/* No trailer: the weight still counts, on the thread's name alone. */
	/* The trailer is innermost first: reverse each part, user below kernel. */
	for (uint32_t i = s->nr_user; i-- > 0 && n < RT_FOLDED_DEPTH;)
		frames[n++] = rt_stack_frame(s->user, i);
	for (uint32_t i = s->nr_kernel; i-- > 0 && n < RT_FOLDED_DEPTH; nk++)
		frames[n++] = rt_stack_frame(s->kernel, i);
	insert(f, ev->comm, ev->pid, frames, n, nk, false, weight);
}

void rt_folded_add_read(struct rt_folded *f, const struct rt_event *ev,
			uint64_t weight)
{
	const struct rt_vfs_read_event *r = &ev->u.vfs_read;
	uint64_t file[2] = { (uint64_t)r->dev_major << 32 | r->dev_minor,
			     r->ino };

	if (ev->stack.nr_kernel || ev->stack.nr_user) {
		rt_folded_add_stack(f, ev, weight);
		return;
	}
	f->samples++;
	if (weight)
		insert(f, ev->comm, ev->pid, file, 2, 0, true, weight);
}

void rt_folded_add_func(struct rt_folded *f, const struct rt_event *ev)
{
	const struct rt_stack *s = &ev->stack;
	uint64_t frames[RT_FOLDED_DEPTH], ip = ev->u.func.ip;
	uint32_t n = 0, nk = 0;

	f->samples++;
	if (s->nr_kernel || s->nr_user)
		f->stacks_seen++;
	if (!ev->u.func.lat_ns)
		return;
	/*
	 * As rt_folded_add_stack(), with room kept for the leaf: the
	 * function, a kernel frame named by its address (the trailer's
	 * innermost frame is its caller's, or its own entry).
	 */
	for (uint32_t i = s->nr_user; i-- > 0 && n < RT_FOLDED_DEPTH - 1;)
		frames[n++] = rt_stack_frame(s->user, i);
	for (uint32_t i = s->nr_kernel; i-- > 0 && n < RT_FOLDED_DEPTH - 1; nk++)
		frames[n++] = rt_stack_frame(s->kernel, i);
	if (!nk || frames[n - 1] != ip) {
		frames[n++] = ip;
		nk++;
	}
	insert(f, ev->comm, ev->pid, frames, n, nk, false, ev->u.func.lat_ns);
}

void rt_folded_add_frames(struct rt_folded *f, const char *comm, uint32_t pid,
			  const uint64_t *frames, uint32_t nr, uint64_t weight)
{
	if (!weight || !nr)
		return;
	if (nr > RT_FOLDED_DEPTH)
		nr = RT_FOLDED_DEPTH;
	insert(f, comm, pid, frames, nr, nr, false, weight);
}

/* A growable string, for the end-of-run lines. */
struct line {
	char	*s;
	size_t	len, cap;
};

static void put(struct line *l, const char *s, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		char *p;

		while (cap < l->len + n + 1)
			cap *= 2;
		p = realloc(l->s, cap);
		if (!p)
			return;
		l->s = p;
		l->cap = cap;
	}
	memcpy(l->s + l->len, s, n);
	l->len += n;
	l->s[l->len] = '\0';
}

/*
 * @name (at most @max bytes) as one frame: a line per stack, so control
 * characters and bytes that are not UTF-8 are escaped as the text stream
 * escapes them; ';' and ' ' are the format's separators (C++ names and
 * file names have both) and become '_'.
 */
static void put_name(struct line *l, const char *name, size_t max)
{
	char esc[RT_PATH_MAX * RT_TEXT_ESCAPE_MAX + 1];
	size_t n;

	if (max > RT_PATH_MAX)
		max = RT_PATH_MAX;
	n = (size_t)(rt_text_escape(esc, name, max, NULL) - esc);
	for (size_t i = 0; i < n; i++)
		if (esc[i] == ';' || esc[i] == ' ')
			esc[i] = '_';
	put(l, esc, n);
}

const char *rt_folded_file(const struct rt_folded *f,
			   const struct rt_folded_stack *st, char *buf,
			   size_t len)
{
	const uint64_t *frames = f->frames + st->first;
	uint32_t major = (uint32_t)(frames[0] >> 32), minor = (uint32_t)frames[0];
	const char *path = f->paths ? rt_paths_get(f->paths, major, minor,
						   frames[1]) : NULL;

	if (path)
		return f->file_classes ? rt_path_class(path, buf, len) : path;
	snprintf(buf, len, "%u:%u ino %llu", major, minor,
		 (unsigned long long)frames[1]);
	return buf;
}

static void put_frame(struct line *l, uint64_t ip, bool kernel,
		      const struct rt_ksyms *ksyms, struct rt_usyms *usyms,
		      const struct rt_folded_stack *st)
{
	char buf[256], *end;
	const char *name = kernel && ksyms ? rt_ksyms_find(ksyms, ip) :
			   !kernel && usyms ? rt_usyms_name(usyms, st->pid,
							    st->comm, ip, buf,
							    sizeof(buf)) : NULL;

	put(l, ";", 1);
	if (ip == RT_FOLDED_OFFCPU_FRAME) {
		put(l, RT_FOLDED_OFFCPU_NAME, sizeof(RT_FOLDED_OFFCPU_NAME) - 1);
		return;
	}
	if (name) {
		put_name(l, name, RT_PATH_MAX);
	} else {
		end = rt_fmt_hex(buf, ip);
		put(l, buf, (size_t)(end - buf));
	}
	if (kernel)
		put(l, "_[k]", 4);
}

static char *render(const struct rt_folded *f, const struct rt_folded_stack *st,
		    const struct rt_ksyms *ksyms)
{
	char num[24], *end;
	struct line l = { 0 };

	if (st->comm[0])
		put_name(&l, st->comm, sizeof(st->comm));
	else
		put(&l, "-", 1);
	if (st->file) {
		char buf[64];

		put(&l, ";", 1);
		put_name(&l, rt_folded_file(f, st, buf, sizeof(buf)),
			 RT_PATH_MAX);
	}
	for (uint32_t i = 0; !st->file && i < st->nr; i++)
		put_frame(&l, f->frames[st->first + i],
			  i >= (uint32_t)(st->nr - st->nr_kernel), ksyms,
			  f->usyms, st);
	end = rt_fmt_u64(num + 1, st->count);
	num[0] = ' ';
	*end++ = '\n';
	put(&l, num, (size_t)(end - num));
	return l.s;
}

static int by_text(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	return strcmp(x ? x : "", y ? y : "");
}

static void append_line(void *arg, const char *line, size_t len)
{
	rt_outbuf_append(arg, line, len);
}

uint32_t rt_folded_write(const struct rt_folded *f,
			 const struct rt_ksyms *ksyms, struct rt_outbuf *ob)
{
	return rt_folded_foreach(f, ksyms, append_line, ob);
}

/* Same text up to the count (the last space). */
static bool same_stack(const char *a, const char *b)
{
	size_t la = (size_t)(strrchr(a, ' ') - a);

	return la == (size_t)(strrchr(b, ' ') - b) && !memcmp(a, b, la);
}

/* @line's stack with @count instead of its own (end of run, once a line). */
static void emit_merged(const char *line, uint64_t count,
			void (*fn)(void *arg, const char *line, size_t len),
			void *arg)
{
	size_t n = (size_t)(strrchr(line, ' ') - line) + 1;
	char num[24], *end = rt_fmt_u64(num, count), *out;

	*end++ = '\n';
	out = malloc(n + (size_t)(end - num));
	if (!out)
		return;
	memcpy(out, line, n);
	memcpy(out + n, num, (size_t)(end - num));
	fn(arg, out, n + (size_t)(end - num));
	free(out);
}

uint32_t rt_folded_foreach(const struct rt_folded *f,
			   const struct rt_ksyms *ksyms,
			   void (*fn)(void *arg, const char *line, size_t len),
			   void *arg)
{
	char **lines = calloc(f->nr_stacks ? f->nr_stacks : 1, sizeof(*lines));
	uint32_t n = 0, out = 0;

	if (!lines)
		return 0;
	for (uint32_t i = 0; i < RT_FOLDED_MAX_STACKS && n < f->nr_stacks; i++)
		if (f->stacks[i].count)
			lines[n++] = render(f, &f->stacks[i], ksyms);
	qsort(lines, n, sizeof(*lines), by_text);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t count;
		bool merged;

		if (!lines[i])
			continue;
		/*
		 * Stacks are kept per process for naming: two processes of one
		 * name with the same stack give one line, as in perf script.
		 */
		count = strtoull(strrchr(lines[i], ' ') + 1, NULL, 10);
		merged = false;
		while (i + 1 < n && lines[i + 1] &&
		       same_stack(lines[i], lines[i + 1])) {
			count += strtoull(strrchr(lines[i + 1], ' ') + 1, NULL, 10);
			free(lines[i++]);
			merged = true;
		}
		if (merged)
			emit_merged(lines[i], count, fn, arg);
		else
			fn(arg, lines[i], strlen(lines[i]));
		out++;
		free(lines[i]);
	}
	free(lines);
	return out;
}
