// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Kernel symbols (see ksyms.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/ksyms.h"
#include "ringtrace/sys.h"

static int by_addr(const void *a, const void *b)
{
	const struct rt_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static bool same_owner(const struct rt_ksym *a, const struct rt_ksym *b)
{
	return a->module == b->module ||
	       (a->module && b->module && !strcmp(a->module, b->module));
}

/*
 * Each function's end: where the next function of its owner (the kernel,
 * or its module) starts. The last one of its owner ends at the next
 * symbol of that owner of any type (its data, when it follows the text),
 * RT_KSYM_LAST_EXTENT past it at most. @syms sorted by address, their
 * end set to whether they are functions.
 */
static void set_ends(struct rt_ksym *syms, uint32_t n)
{
	uint64_t next_text = 0, next_any = 0;
	bool group_text = false;	/* a function at this address */

	for (uint32_t i = n; i-- > 0;) {
		struct rt_ksym *s = &syms[i], *after = i + 1 < n ? s + 1 : NULL;

		group_text = group_text || s->end != 0;
		if (after && !same_owner(s, after)) {
			next_text = 0;
			next_any = 0;
		}
		s->end = next_text;
		if (!next_text) {
			s->end = s->addr + RT_KSYM_LAST_EXTENT;
			if (next_any && next_any < s->end)
				s->end = next_any;
		}
		/* For the symbols below it (aliases at its address excepted). */
		if (i && syms[i - 1].addr < s->addr) {
			next_any = s->addr;
			if (group_text)
				next_text = s->addr;
			group_text = false;
		}
	}
}

int rt_ksyms_parse(struct rt_ksyms *k, const char *text)
{
	size_t len = strlen(text), lines = 0;
	uint32_t n = 0, kept = 0;
	char *p, *types;

	memset(k, 0, sizeof(*k));
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	k->names = malloc(len + 1);
	k->syms = calloc(lines + 1, sizeof(*k->syms));
	if (!k->names || !k->syms) {
		rt_ksyms_free(k);
		return -ENOMEM;
	}
	memcpy(k->names, text, len + 1);
	for (p = k->names; *p;) {
		char *nl = strchr(p, '\n'), *end, *name, type;
		uint64_t addr;

		if (nl)
			*nl = '\0';
		/* "ffffffff81000000 T _stext" or "... t name\t[module]" */
		addr = strtoull(p, &end, 16);
		if (end != p && end[0] == ' ' && end[1] && end[2] == ' ') {
			char *mod = NULL, *sep;

			type = end[1];
			name = end + 3;
			sep = name + strcspn(name, "\t ");
			/* "name\t[module]": the module, for the stream's frames. */
			if (*sep && (mod = strchr(sep + 1, '[')) != NULL) {
				mod++;
				mod[strcspn(mod, "]")] = '\0';
			}
			*sep = '\0';
			/*
			 * Every symbol bounds the one before it; only the
			 * functions are kept (the type, in end, until then).
			 */
			if (addr)
				k->syms[n++] = (struct rt_ksym){
					addr, name, mod,
					strchr("tTwW", type) != NULL };
			else
				k->nr_hidden++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	qsort(k->syms, n, sizeof(*k->syms), by_addr);
	types = malloc(n + 1);
	if (!types) {
		rt_ksyms_free(k);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		types[i] = (char)k->syms[i].end;
	set_ends(k->syms, n);
	for (uint32_t i = 0; i < n; i++)
		if (types[i])
			k->syms[kept++] = k->syms[i];
	free(types);
	k->nr = kept;
	return 0;
}

int rt_ksyms_load(struct rt_ksyms *k, const char *path)
{
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap);
	ssize_t n;
	int fd, ret;

	memset(k, 0, sizeof(*k));
	if (!buf)
		return -ENOMEM;
	fd = rt_sys.open(path, O_RDONLY, 0);
	if (fd < 0) {
		ret = -errno;
		free(buf);
		return ret;
	}
	while ((n = rt_sys.read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 4096) {
			char *more = realloc(buf, cap * 2);

			if (!more)
				break;
			buf = more;
			cap *= 2;
		}
	}
	rt_sys.close(fd);
	buf[len] = '\0';
	ret = rt_ksyms_parse(k, buf);
	free(buf);
	return ret;
}

const char *rt_ksyms_find(const struct rt_ksyms *k, uint64_t addr)
{
	const struct rt_ksym *s = rt_ksyms_lookup(k, addr);

	return s ? s->name : NULL;
}

uint64_t rt_ksyms_addr_of(const struct rt_ksyms *k, const char *name)
{
	for (uint32_t i = 0; i < k->nr; i++)
		if (!strcmp(k->syms[i].name, name))
			return k->syms[i].addr;
	return 0;
}

const char *rt_ksyms_arch(const struct rt_ksyms *k)
{
	uint64_t at = rt_ksyms_addr_of(k, "_text");

	if (!k->nr)
		return NULL;
	/* The kernel's own text when it is there, else any symbol. */
	if (!at)
		at = k->syms[0].addr;
	return at >= 0xffffffff80000000ull ? "x86_64" : "aarch64";
}

const struct rt_ksym *rt_ksyms_lookup(const struct rt_ksyms *k, uint64_t addr)
{
	uint32_t lo = 0, hi = k->nr;

	if (!k->nr || addr < k->syms[0].addr)
		return NULL;
	/* The last symbol at or below addr. */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* A raw file's KSYMS keep only some symbols: not past their end. */
	if (k->syms[lo].end && addr >= k->syms[lo].end)
		return NULL;
	return &k->syms[lo];
}

const char *rt_ksyms_func_name(void *arg, uint64_t ip)
{
	const struct rt_ksym *s = rt_ksyms_lookup(arg, ip);

	return s ? s->name : NULL;
}

void rt_ksyms_free(struct rt_ksyms *k)
{
	free(k->syms);
	free(k->names);
	k->syms = NULL;
	k->names = NULL;
	k->nr = 0;
}
