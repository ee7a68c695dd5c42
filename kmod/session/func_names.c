// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel functions a session traces (RINGTRACE_EVENT_FUNC,
 * ringtrace_config.nr_funcs): their names copied from the caller before
 * the session's lock is taken, checked for shape only. Whether each can
 * be probed is ENABLE's question (attach/func.c), as for vfs_read's
 * mechanism.
 *
 * Up to RINGTRACE_MAX_FUNCS names: the table is sized to the list, and
 * an index in strcmp order finds duplicates here and a name's position
 * for the probes that learn which function an address is (attach/func.c).
 */
#include <linux/errno.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "session.h"

int rt_funcs_check(const struct ringtrace_config *cfg)
{
	bool want = cfg->events & RINGTRACE_EVENT_FUNC;

	if (!want)
		return cfg->nr_funcs || cfg->func_args || cfg->funcs_ptr ?
		       -EINVAL : 0;
	if (!cfg->nr_funcs || cfg->nr_funcs > RINGTRACE_MAX_FUNCS ||
	    !cfg->funcs_ptr || cfg->func_args > RINGTRACE_FUNC_MAX_ARGS)
		return -EINVAL;
	return 0;
}

static int rt_funcs_cmp(const void *a, const void *b, const void *priv)
{
	const struct rt_func_names *f = priv;

	return strcmp(f->name[*(const u32 *)a], f->name[*(const u32 *)b]);
}

/* Into a new *@out (NULL without the event); rt_funcs_free() frees it. */
int rt_funcs_from_user(const struct ringtrace_config *cfg,
		       struct rt_func_names **out)
{
	const void __user *u = u64_to_user_ptr(cfg->funcs_ptr);
	struct rt_func_names *f;
	size_t names;
	unsigned int i;

	*out = NULL;
	if (!(cfg->events & RINGTRACE_EVENT_FUNC))
		return 0;
	/* rt_funcs_check() bounded nr_funcs: no overflow below. */
	names = flex_array_size(f, name, cfg->nr_funcs);
	f = kvzalloc(struct_size(f, name, cfg->nr_funcs) +
		     cfg->nr_funcs * sizeof(*f->by_name), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->by_name = (u32 *)((char *)f->name + names);
	if (copy_from_user(f->name, u, names)) {
		kvfree(f);
		return -EFAULT;
	}
	f->nr = cfg->nr_funcs;
	f->args = cfg->func_args;
	for (i = 0; i < f->nr; i++) {
		/* Terminated, not empty. */
		if (!memchr(f->name[i], 0, RINGTRACE_FUNC_NAME_LEN) ||
		    !f->name[i][0])
			goto inval;
		f->by_name[i] = i;
	}
	sort_r(f->by_name, f->nr, sizeof(*f->by_name), rt_funcs_cmp, NULL, f);
	/* Each named once: equal names are neighbours in that order. */
	for (i = 1; i < f->nr; i++)
		if (!rt_funcs_cmp(&f->by_name[i - 1], &f->by_name[i], f))
			goto inval;
	*out = f;
	return 0;
inval:
	kvfree(f);
	return -EINVAL;
}

int rt_funcs_lookup(const struct rt_func_names *f, const char *name)
{
	unsigned int lo = 0, hi = f->nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int c = strcmp(name, f->name[f->by_name[mid]]);

		if (!c)
			return f->by_name[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -ENOENT;
}

void rt_funcs_free(struct rt_func_names *f)
{
	kvfree(f);
}
