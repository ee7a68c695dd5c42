/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Loading, unloading and inspecting ringtrace.ko with libkmod (what
 * ringtrace-ctl does). Each call returns 0 or -errno and leaves a sentence
 * in @msg either way.
 */
#ifndef RINGTRACE_KMOD_H
#define RINGTRACE_KMOD_H

#include <stdbool.h>
#include <stddef.h>

#define RT_KMOD_NAME	"ringtrace"

/*
 * The module of the checkout a tool runs from: <checkout>/kmod/ringtrace.ko
 * when @exe is <checkout>/user/<tool>. NULL if there is no such file.
 */
const char *rt_kmod_checkout_path(const char *exe, char *buf, size_t len);

/* Insert @path, or (NULL) the installed module found by modprobe rules. */
int rt_kmod_load(const char *path, const char *options,
		 char *msg, size_t len);

int rt_kmod_unload(char *msg, size_t len);

struct rt_kmod_status {
	bool	loaded;
	int	refcnt;			/* -1 when unknown */
	char	state[16];		/* "live", "coming", "going", "builtin" */
};

int rt_kmod_status(struct rt_kmod_status *st, char *msg, size_t len);

#endif /* RINGTRACE_KMOD_H */
