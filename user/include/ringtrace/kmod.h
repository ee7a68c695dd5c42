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
 * The direct-call trampoline on vfs_read, a module of its own that
 * ringtrace.ko uses when it is loaded (kmod/direct/direct_call.h): loaded first
 * and unloaded after it.
 */
#define RT_KMOD_DIRECT_NAME	"ringtrace_direct"

/*
 * The module of the checkout a tool runs from: <checkout>/kmod/ringtrace.ko
 * when @exe is <checkout>/user/<tool>. NULL if there is no such file.
 */
const char *rt_kmod_checkout_path(const char *exe, char *buf, size_t len);

/*
 * Insert @path, or (NULL) the installed module found by modprobe rules.
 * ringtrace_direct.ko goes in first: from beside @path if it is there
 * (a failure there is only noted: vfs_read then attaches another way),
 * or as the installed module's soft dependency.
 * Each NAME=VALUE of @options must be a parameter the module declares
 * (modinfo's list; the kernel would only warn in dmesg): else -EINVAL
 * and nothing is loaded. When ringtrace is loaded already, the options
 * are written to its writable parameters (rt_kmod_params_dir); one that
 * is read-only or not in sysfs is refused (-EBUSY: unload first), and
 * nothing is written.
 */
int rt_kmod_load(const char *path, const char *options,
		 char *msg, size_t len);

/* Where the loaded module's parameters are: /sys/module/ringtrace/parameters. */
extern const char *rt_kmod_params_dir;

/*
 * Remove ringtrace.ko, then ringtrace_direct.ko if it is loaded and idle
 * (calls that slept in vfs_read across the last detach keep it until they
 * return: only noted).
 */
int rt_kmod_unload(char *msg, size_t len);

struct rt_kmod_status {
	bool	loaded;
	int	refcnt;			/* -1 when unknown */
	char	state[16];		/* "live", "coming", "going", "builtin" */
};

/* Module @name (RT_KMOD_NAME, RT_KMOD_DIRECT_NAME): loaded, state, refs. */
int rt_kmod_status(const char *name, struct rt_kmod_status *st, char *msg,
		   size_t len);

#endif /* RINGTRACE_KMOD_H */
