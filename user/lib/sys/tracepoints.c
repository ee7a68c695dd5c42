// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Kernel tracepoints by name, checked (see tracepoints.h). */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ringtrace/btf.h"
#include "ringtrace/funcs.h"
#include "ringtrace/tracepoints.h"

static const char *const events_dirs[] = {
	"/sys/kernel/tracing/events",
	"/sys/kernel/debug/tracing/events",
	NULL,
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

bool rt_tracepoint_spec_ok(const char *spec, size_t n)
{
	size_t parts = 1, run = 0;

	for (size_t i = 0; i < n; i++) {
		if (spec[i] == ':') {
			if (!run || ++parts > 2)
				return false;
			run = 0;
			continue;
		}
		if (!rt_ident_char(spec[i]))
			return false;
		run++;
	}
	return run != 0;
}

/* tracefs' events folder: @events if given, else the kernel's; NULL: none. */
static const char *events_dir(const char *events)
{
	for (size_t i = 0; !events && events_dirs[i]; i++)
		if (is_dir(events_dirs[i]))
			events = events_dirs[i];
	return events && is_dir(events) ? events : NULL;
}

/*
 * "SUBSYS:EVENT" against tracefs' @events folder: true when it is there,
 * or when tracefs cannot say (@events NULL: not mounted, as in many
 * containers; a tracepoint without an event of its own, named without a
 * subsystem).
 */
static bool subsystem_ok(const char *spec, const char *events)
{
	const char *colon = strchr(spec, ':');
	char path[4096];

	if (!colon || !events)
		return true;
	snprintf(path, sizeof(path), "%s/%.*s/%s", events,
		 (int)(colon - spec), spec, colon + 1);
	return is_dir(path);
}

/*
 * The modules' BTF files one check has opened, by file name: each is
 * read at most once, however many of the session's tracepoints are
 * looked up in it (all of ext4's events; a name no module has, looked
 * for in every file), and all are closed when the check ends. An entry
 * a name looked up: a file of the folder, or a subsystem's name that has
 * none. What it holds is bounded by the loaded modules' BTF (about 5 MiB
 * for 150 modules, where a name no module has reads them all), and only
 * while the check runs.
 */
struct mod_btf {
	char		*name;
	struct rt_btf	*btf;		/* NULL: not a regular file */
};

struct mod_btfs {
	struct rt_btf	*base;		/* vmlinux's, which they split from */
	struct mod_btf	*v;
	size_t		nr, cap;
};

static void mod_btfs_close(struct mod_btfs *m)
{
	for (size_t i = 0; i < m->nr; i++) {
		rt_btf_close(m->v[i].btf);
		free(m->v[i].name);
	}
	free(m->v);
}

/* File @name of @folder, opened the first time; NULL: no memory. */
static struct mod_btf *mod_btf_get(struct mod_btfs *m, const char *folder,
				   const char *name)
{
	struct mod_btf *e;
	char path[4096];
	struct stat st;

	for (size_t i = 0; i < m->nr; i++)
		if (!strcmp(m->v[i].name, name))
			return &m->v[i];
	if (m->nr == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		struct mod_btf *v = realloc(m->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		m->v = v;
		m->cap = cap;
	}
	e = &m->v[m->nr];
	e->btf = NULL;
	e->name = strdup(name);
	if (!e->name)
		return NULL;
	/* A file: never a FIFO or a device, which a read could block on. */
	if (snprintf(path, sizeof(path), "%s/%s", folder, name) <
	    (int)sizeof(path) && !stat(path, &st) && S_ISREG(st.st_mode)) {
		e->btf = rt_btf_open_split(path, m->base);
		if (!e->btf) {
			free(e->name);
			return NULL;
		}
	}
	m->nr++;
	return e;
}

/* Tracepoint @tp in the module BTF file @name of @folder; see below. */
static int in_module(struct mod_btfs *m, const char *folder,
		     const char *name, const char *tp,
		     struct rt_func_arg_descs *d, char *why, size_t whylen)
{
	struct mod_btf *e = mod_btf_get(m, folder, name);

	if (!e)
		return -ENOMEM;
	if (!e->btf)
		return -ENOENT;
	return rt_btf_tracepoint(e->btf, tp, d, why, whylen);
}

/*
 * A loaded module's tracepoint @tp, from the module's split BTF (@m's)
 * beside its base's file when that is named vmlinux, as the kernel's is
 * (/sys/kernel/btf/vmlinux, /sys/kernel/btf/MODULE): the module named
 * like the subsystem @subsys (@len bytes) first (ext4's, kvm's), then
 * every other one. 0 and *@d; -EOPNOTSUPP where one has it with an
 * argument the probe cannot take (@why); else -ENOENT (no module's BTF
 * has it: built without; a file that cannot be read is passed over).
 */
static int module_tracepoint(struct mod_btfs *m, const char *subsys,
			     size_t len, const char *tp,
			     struct rt_func_arg_descs *d, char *why,
			     size_t whylen)
{
	const char *vmlinux = rt_btf_path(m->base), *slash;
	char folder[4096], own[256];
	struct dirent *e;
	DIR *dir;
	int ret;

	slash = strrchr(vmlinux, '/');
	if (!slash || strcmp(slash + 1, "vmlinux") || len >= sizeof(own) ||
	    snprintf(folder, sizeof(folder), "%.*s", (int)(slash - vmlinux),
		     vmlinux) >= (int)sizeof(folder))
		return -ENOENT;
	snprintf(own, sizeof(own), "%.*s", (int)len, subsys);
	ret = in_module(m, folder, own, tp, d, why, whylen);
	if (!ret || ret == -EOPNOTSUPP)
		return ret;
	dir = opendir(folder);
	if (!dir)
		return -ENOENT;
	ret = -ENOENT;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, own) ||
		    !strcmp(e->d_name, slash + 1))
			continue;
		ret = in_module(m, folder, e->d_name, tp, d, why, whylen);
		if (!ret || ret == -EOPNOTSUPP)
			break;
		ret = -ENOENT;
	}
	closedir(dir);
	return ret;
}

/*
 * *max_args is read from the descriptions' nr_args, which stop at
 * RT_FUNC_ARG_DESCS: that must be no fewer than a record carries.
 */
_Static_assert(RT_FUNC_ARG_DESCS >= RINGTRACE_FUNC_MAX_ARGS,
	       "a description keeps as many arguments as a record carries");

/* rt_tracepoints_check(), with the modules' BTF files it opens in @m. */
static int check(const char (*names)[RINGTRACE_FUNC_NAME_LEN], uint32_t nr,
		 struct mod_btfs *m, const char *events, uint32_t *max_args,
		 struct rt_func_arg_descs *descs, char *err, size_t errlen)
{
	struct rt_btf *btf = m->base;
	const size_t skip = sizeof(RINGTRACE_FUNC_TP_PREFIX) - 1;
	const char *dir = NULL;
	bool looked = false;

	*max_args = 0;
	if (descs)
		memset(descs, 0, nr * sizeof(*descs));
	for (uint32_t i = 0; i < nr; i++) {
		const char *spec = names[i] + skip, *tp;
		struct rt_func_arg_descs own, *d = descs ? &descs[i] : &own;
		char why[256];
		int ret;

		if (!rt_func_name_is_tp(names[i]))
			continue;
		tp = strrchr(spec, ':');
		tp = tp ? tp + 1 : spec;
		ret = rt_btf_tracepoint(btf, tp, d, why, sizeof(why));
		/* Looked up once, and only for a session with tracepoints. */
		if (!looked) {
			dir = events_dir(events);
			looked = true;
		}
		if (ret == -ENOENT) {
			/*
			 * Not built in. A loaded module's (ext4, kvm, 9p...)
			 * has its event in tracefs, and its arguments are
			 * in the module's own BTF where it was built with
			 * one (hex without); the kernel module finds the
			 * tracepoint.
			 */
			if (!dir || !strchr(spec, ':') ||
			    !subsystem_ok(spec, dir)) {
				snprintf(err, errlen, "cannot trace %s: no such "
					 "tracepoint (the kernel's BTF has no %s%s)",
					 names[i], tp, dir ?
					 ", and no loaded module's event in tracefs "
					 "has the name" :
					 "; a module's is found by its tracefs "
					 "event, and tracefs is not mounted");
				return -1;
			}
			ret = module_tracepoint(m, spec,
						(size_t)(strchr(spec, ':') - spec),
						tp, d, why, sizeof(why));
			if (ret == -ENOENT)
				ret = -ENODATA;	/* its module has no BTF */
		}
		if (ret == -ENODATA) {
			/* No BTF for it: the module says whether it exists. */
			*max_args = RINGTRACE_FUNC_MAX_ARGS;
		} else if (ret) {
			snprintf(err, errlen, "cannot trace %s: %s", names[i],
				 why);
			return -1;
		} else if (d->nr_args > *max_args) {
			*max_args = d->nr_args < RINGTRACE_FUNC_MAX_ARGS ?
				    d->nr_args : RINGTRACE_FUNC_MAX_ARGS;
		}
		if (!subsystem_ok(spec, dir)) {
			snprintf(err, errlen, "cannot trace %s: tracefs has no "
				 "event %s (the tracepoint %s is under another "
				 "subsystem, or name it tp:%s)", names[i], spec,
				 tp, tp);
			return -1;
		}
	}
	return 0;
}

int rt_tracepoints_check(const char (*names)[RINGTRACE_FUNC_NAME_LEN],
			 uint32_t nr, struct rt_btf *btf, const char *events,
			 uint32_t *max_args, struct rt_func_arg_descs *descs,
			 char *err, size_t errlen)
{
	struct mod_btfs m = { .base = btf };
	int ret;

	ret = check(names, nr, &m, events, max_args, descs, err, errlen);
	mod_btfs_close(&m);
	return ret;
}

void rt_functions_describe(const char (*names)[RINGTRACE_FUNC_NAME_LEN],
			   uint32_t nr, struct rt_btf *btf,
			   struct rt_func_arg_descs *descs)
{
	for (uint32_t i = 0; i < nr; i++) {
		struct rt_func_arg_descs d;

		/* No BTF, or one we cannot read: the arguments stay hex. */
		if (!rt_func_name_is_tp(names[i]) &&
		    !rt_btf_func(btf, names[i], &d, NULL, 0))
			descs[i] = d;
	}
}
