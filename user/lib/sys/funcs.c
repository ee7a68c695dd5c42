// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Kernel functions by name or glob (see funcs.h). */
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/funcs.h"
#include "ringtrace/hash.h"

const char *const rt_funcs_lists[] = {
	"/sys/kernel/tracing/available_filter_functions",
	"/sys/kernel/debug/tracing/available_filter_functions",
	"/proc/kallsyms",
	NULL,
};

/*
 * What vfs_read calls on a page-cache read, outermost first, then the
 * read_iter of common filesystems: the kernel's list decides which are
 * there (copy_page_to_iter is notrace on 6.1 and 7.2, ext4's only once
 * the module is loaded).
 */
const char *const rt_funcs_read_callees[] = {
	"rw_verify_area", "security_file_permission", "filemap_read",
	"filemap_get_pages", "copy_page_to_iter", "touch_atime",
	"generic_file_read_iter", "shmem_file_read_iter",
	"ext4_file_read_iter", "xfs_file_read_iter", "btrfs_file_read_iter",
	NULL,
};

#define MAX_PATTERNS	64

struct patterns {
	char		p[MAX_PATTERNS][RINGTRACE_FUNC_NAME_LEN];
	bool		matched[MAX_PATTERNS];
	uint32_t	n;
	bool		globs;
};

static int split(const char *list, struct patterns *ps, char *err,
		 size_t errlen)
{
	const char *p = list;

	memset(ps, 0, sizeof(*ps));
	while (*p) {
		size_t len = strcspn(p, ",");

		if (!len) {
			snprintf(err, errlen, "an empty name in '%s'", list);
			return -1;
		}
		if (len >= RINGTRACE_FUNC_NAME_LEN) {
			snprintf(err, errlen, "'%.*s' is longer than %d bytes",
				 (int)len, p, RINGTRACE_FUNC_NAME_LEN - 1);
			return -1;
		}
		if (ps->n == MAX_PATTERNS) {
			snprintf(err, errlen, "more than %d names", MAX_PATTERNS);
			return -1;
		}
		memcpy(ps->p[ps->n], p, len);
		if (strcspn(ps->p[ps->n], "*?[") != len)
			ps->globs = true;
		ps->n++;
		p += len + (p[len] == ',');
	}
	if (!ps->n) {
		snprintf(err, errlen, "no function named");
		return -1;
	}
	return 0;
}

/* The names in out by hash: index + 1, 0 free; at most half taken. */
#define NAME_SLOTS	(2 * RINGTRACE_MAX_FUNCS)

/*
 * @name into @out unless there already (found through @index: a glob
 * such as "*" matches tens of thousands of lines); false when that is one
 * too many.
 */
static bool add(const char *name, char (*out)[RINGTRACE_FUNC_NAME_LEN],
		uint32_t *nr, uint32_t *wanted, uint32_t *index)
{
	uint32_t s;

	for (s = rt_fnv32_str(RT_FNV32_INIT, name) & (NAME_SLOTS - 1); index[s];
	     s = (s + 1) & (NAME_SLOTS - 1))
		if (!strcmp(out[index[s] - 1], name))
			return true;
	(*wanted)++;
	if (*nr == RINGTRACE_MAX_FUNCS)
		return false;
	snprintf(out[(*nr)++], RINGTRACE_FUNC_NAME_LEN, "%s", name);
	index[s] = *nr;
	return true;
}

/* A line's function: ftrace's "name [mod]", or kallsyms' text symbols. */
static const char *line_name(char *line)
{
	char *save, *a, *b, *c;

	a = strtok_r(line, " \t\n", &save);
	if (!a)
		return NULL;
	b = strtok_r(NULL, " \t\n", &save);
	c = b ? strtok_r(NULL, " \t\n", &save) : NULL;
	if (c && strlen(b) == 1 && strspn(a, "0123456789abcdefABCDEF") ==
	    strlen(a))
		/* a function's split-off cold part is not its entry */
		return strchr("tTwW", b[0]) && !strstr(c, ".cold") &&
		       strlen(c) < RINGTRACE_FUNC_NAME_LEN ? c : NULL;
	return strlen(a) < RINGTRACE_FUNC_NAME_LEN ? a : NULL;
}

static FILE *open_list(const char *const *lists, const char **which)
{
	for (size_t i = 0; lists[i]; i++) {
		FILE *f = fopen(lists[i], "re");

		if (f) {
			*which = lists[i];
			return f;
		}
	}
	return NULL;
}

static int no_list(const char *const *lists, const char *what, char *err,
		   size_t errlen)
{
	snprintf(err, errlen, "%s: cannot read the kernel's list of functions "
		 "(%s, or %s)", what, lists[0] ? lists[0] : "none given",
		 lists[0] && lists[1] ? lists[1] : "none");
	return -1;
}

static int resolve_defaults(const char *const *defaults, FILE *f,
			    char (*out)[RINGTRACE_FUNC_NAME_LEN], uint32_t *nr,
			    uint32_t *index, const char *which, char *err,
			    size_t errlen)
{
	bool found[MAX_PATTERNS] = { false };
	char *line = NULL;
	size_t cap = 0, n;
	uint32_t wanted = 0;

	for (n = 0; defaults[n] && n < MAX_PATTERNS; n++)
		;
	while (getline(&line, &cap, f) > 0) {
		const char *name = line_name(line);

		for (size_t i = 0; name && i < n; i++)
			if (!strcmp(name, defaults[i]))
				found[i] = true;
	}
	free(line);
	for (size_t i = 0; i < n; i++)
		if (found[i] && !add(defaults[i], out, nr, &wanted, index))
			break;
	if (!*nr) {
		snprintf(err, errlen, "%s lists none of %s, %s...: name "
			 "functions", which, defaults[0] ? defaults[0] : "",
			 defaults[0] && defaults[1] ? defaults[1] : "");
		return -1;
	}
	return 0;
}

int rt_funcs_resolve(const char *patterns, const char *const *defaults,
		     const char *const *lists,
		     char (*out)[RINGTRACE_FUNC_NAME_LEN], uint32_t *nr,
		     char *err, size_t errlen)
{
	static struct patterns ps;
	static uint32_t index[NAME_SLOTS];
	const char *which = NULL;
	char *line = NULL;
	size_t cap = 0;
	uint32_t wanted = 0;
	bool over = false;
	FILE *f;
	int ret = 0;

	*nr = 0;
	memset(index, 0, sizeof(index));
	if (patterns && split(patterns, &ps, err, errlen))
		return -1;
	f = open_list(lists, &which);
	if (!patterns) {
		if (!f)
			return no_list(lists, "the default functions", err,
				       errlen);
		ret = resolve_defaults(defaults, f, out, nr, index, which, err,
				       errlen);
		fclose(f);
		return ret;
	}
	if (!f) {
		if (ps.globs)
			return no_list(lists, patterns, err, errlen);
		for (uint32_t i = 0; i < ps.n; i++)
			if (!add(ps.p[i], out, nr, &wanted, index))
				over = true;
		goto check;
	}
	while (getline(&line, &cap, f) > 0) {
		const char *name = line_name(line);

		for (uint32_t i = 0; name && i < ps.n; i++) {
			if (fnmatch(ps.p[i], name, 0))
				continue;
			ps.matched[i] = true;
			if (!add(name, out, nr, &wanted, index))
				over = true;
		}
	}
	free(line);
	fclose(f);
	for (uint32_t i = 0; i < ps.n; i++) {
		if (!ps.matched[i]) {
			snprintf(err, errlen, "'%s' matches no function %s lists",
				 ps.p[i], which);
			return -1;
		}
	}
check:
	if (over) {
		snprintf(err, errlen, "'%s' names %u functions (%s, %s, ...): at "
			 "most %d per session", patterns, wanted, out[0], out[1],
			 RINGTRACE_MAX_FUNCS);
		return -1;
	}
	return 0;
}

bool rt_func_name_is_tp(const char *name)
{
	return !strncmp(name, RINGTRACE_FUNC_TP_PREFIX,
			sizeof(RINGTRACE_FUNC_TP_PREFIX) - 1);
}
