/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Kernel functions by name or glob, resolved in userspace against the
 * list of what the kernel can trace, before a session names them
 * (ringtrace_config.funcs_ptr, at most RINGTRACE_MAX_FUNCS): --graph's
 * --graph-funcs, and its default list of vfs_read's usual callees, of
 * which only those the running kernel has are asked for.
 */
#ifndef RINGTRACE_FUNCS_H
#define RINGTRACE_FUNCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/ringtrace.h>

/*
 * Where the names come from, the first one readable: ftrace's list of
 * functions it can hook (lines "name" or "name [module]"), else
 * kallsyms' text symbols ("addr t name [module]"). NULL-terminated.
 */
extern const char *const rt_funcs_lists[];

/* vfs_read's usual callees, the first RINGTRACE_MAX_FUNCS found kept. */
extern const char *const rt_funcs_read_callees[];

/*
 * @patterns: a comma list of names and fnmatch(3) globs; NULL: the
 * names of @defaults that @lists holds, in their order. Fills @out with
 * the distinct names matched (*@nr of them). Returns 0, or -1 with why
 * in @err: a pattern that matches nothing, more than
 * RINGTRACE_MAX_FUNCS names in all, no default present, no readable list
 * for a glob (a plain name then passes as is: the module says whether it
 * can trace it).
 */
int rt_funcs_resolve(const char *patterns, const char *const *defaults,
		     const char *const *lists,
		     char (*out)[RINGTRACE_FUNC_NAME_LEN], uint32_t *nr,
		     char *err, size_t errlen);

/*
 * Whether @name, of a session's list, is a kernel tracepoint's
 * ("tp:SUBSYS:EVENT", RINGTRACE_FUNC_TP_PREFIX), not a function's.
 */
bool rt_func_name_is_tp(const char *name);

#endif /* RINGTRACE_FUNCS_H */
