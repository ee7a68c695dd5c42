// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The real libkmod calls behind the seam (see sys_kmod.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "ringtrace/sys_kmod.h"

/* libkmod's own log lines would come before, and repeat, our messages. */
static void quiet(void *data, int priority, const char *file, int line,
		  const char *fn, const char *format, va_list args)
{
	(void)data;
	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	(void)format;
	(void)args;
}

static struct kmod_ctx *new_ctx(const char *dirname,
				const char * const *config_paths)
{
	struct kmod_ctx *ctx = kmod_new(dirname, config_paths);

	if (ctx)
		kmod_set_log_fn(ctx, quiet, NULL);
	return ctx;
}

static int probe_insert(struct kmod_module *mod, const char *options)
{
	return kmod_module_probe_insert_module(mod, KMOD_PROBE_FAIL_ON_LOADED,
					       options, NULL, NULL,
					       NULL);
}

/*
 * "parmtype" entries are "NAME:TYPE" (every module_param() has one) and
 * "parm" entries "NAME:DESCRIPTION": a parameter of module_param_cb()
 * has only the second unless its module declares a type. Each name once.
 */
/* Whether NAME (@n bytes at @name) is a word of @buf's first @used. */
static bool param_listed(const char *buf, size_t used, const char *name,
			 size_t n)
{
	size_t i = 0;

	while (i < used) {
		size_t w = strcspn(buf + i, " ");

		if (w == n && !memcmp(buf + i, name, n))
			return true;
		i += w + 1;
	}
	return false;
}

static int params(const struct kmod_module *mod, char *buf, size_t len)
{
	struct kmod_list *info = NULL, *l;
	size_t used = 0;
	int ret = kmod_module_get_info(mod, &info);

	if (ret < 0)
		return ret;
	if (len)
		buf[0] = '\0';
	kmod_list_foreach(l, info) {
		const char *v = kmod_module_info_get_value(l);
		size_t n;

		const char *key = kmod_module_info_get_key(l);

		if ((strcmp(key, "parmtype") && strcmp(key, "parm")) || !v)
			continue;
		n = strcspn(v, ":");
		if (param_listed(buf, used, v, n))
			continue;
		if (used + n + 2 > len) {
			ret = -ENAMETOOLONG;
			break;
		}
		memcpy(buf + used, v, n);
		used += n;
		buf[used++] = ' ';
		buf[used] = '\0';
	}
	kmod_module_info_free_list(info);
	return ret < 0 ? ret : 0;
}

/* One initializer for both tables (a const copy is not a constant). */
#define REAL_RT_SYS_KMOD { \
	.new_ctx	= new_ctx, \
	.unref_ctx	= kmod_unref, \
	.new_from_path	= kmod_module_new_from_path, \
	.new_from_name	= kmod_module_new_from_name, \
	.new_from_lookup = kmod_module_new_from_lookup, \
	.list_module	= kmod_module_get_module, \
	.unref_list	= kmod_module_unref_list, \
	.unref		= kmod_module_unref, \
	.insert		= kmod_module_insert_module, \
	.probe_insert	= probe_insert, \
	.remove		= kmod_module_remove_module, \
	.initstate	= kmod_module_get_initstate, \
	.refcnt		= kmod_module_get_refcnt, \
	.path		= kmod_module_get_path, \
	.params		= params, \
}

static const struct rt_sys_kmod rt_sys_kmod_real = REAL_RT_SYS_KMOD;

struct rt_sys_kmod rt_sys_kmod = REAL_RT_SYS_KMOD;

void rt_sys_kmod_reset(void)
{
	rt_sys_kmod = rt_sys_kmod_real;
}
