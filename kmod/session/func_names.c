// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel functions a session traces (RINGTRACE_EVENT_FUNC,
 * ringtrace_config.nr_funcs): their names copied from the caller before
 * the session's lock is taken, checked for shape only. Whether each can
 * be probed is ENABLE's question (attach/func.c), as for vfs_read's
 * mechanism.
 */
#include <linux/errno.h>
#include <linux/slab.h>
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

/* Into a new *@out (NULL without the event); the caller frees it. */
int rt_funcs_from_user(const struct ringtrace_config *cfg,
		       struct rt_func_names **out)
{
	const void __user *u = u64_to_user_ptr(cfg->funcs_ptr);
	struct rt_func_names *f;
	unsigned int i, j;

	*out = NULL;
	if (!(cfg->events & RINGTRACE_EVENT_FUNC))
		return 0;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	if (copy_from_user(f->name, u,
			   (size_t)cfg->nr_funcs * RINGTRACE_FUNC_NAME_LEN)) {
		kfree(f);
		return -EFAULT;
	}
	f->nr = cfg->nr_funcs;
	f->args = cfg->func_args;
	for (i = 0; i < f->nr; i++) {
		/* Terminated, not empty, each named once. */
		if (!memchr(f->name[i], 0, RINGTRACE_FUNC_NAME_LEN) ||
		    !f->name[i][0])
			goto inval;
		for (j = 0; j < i; j++)
			if (!strcmp(f->name[i], f->name[j]))
				goto inval;
	}
	*out = f;
	return 0;
inval:
	kfree(f);
	return -EINVAL;
}
