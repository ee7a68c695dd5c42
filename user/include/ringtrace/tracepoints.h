/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The kernel tracepoints a session names (-e tp:SUBSYS:EVENT), checked
 * before anything attaches: the kernel's BTF says whether each exists
 * and what it takes, tracefs whether it belongs to the subsystem named.
 */
#ifndef RINGTRACE_TRACEPOINTS_H
#define RINGTRACE_TRACEPOINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/ringtrace.h>

#include "ringtrace/record.h"

struct rt_btf;

/*
 * The @n bytes at @spec (not terminated) are what follows "tp:": a
 * tracepoint's own name, after at most one subsystem and a ':'
 * ("sched:sched_switch", "sys_enter"), each made of C identifier
 * characters (a subsystem may begin with a digit: "9p").
 */
bool rt_tracepoint_spec_ok(const char *spec, size_t n);

/*
 * The tracepoints among @names (RINGTRACE_FUNC_TP_PREFIX ones; the others
 * are functions, skipped): 0 and, in *@max_args, the most arguments one
 * of them takes (at most RINGTRACE_FUNC_MAX_ARGS; RINGTRACE_FUNC_MAX_ARGS
 * when the kernel has no BTF to say), or -1 with why in @err: no such
 * built-in tracepoint, one under another subsystem, an argument a record
 * cannot carry. @btf: the kernel's BTF (rt_btf_open()); @events:
 * tracefs' events folder (NULL: the running kernel's; not checked where
 * absent). @descs (NULL: not wanted): @nr entries, by the index in
 * @names, each tracepoint's arguments as its BTF says (the first
 * RT_FUNC_ARG_DESCS), nr_args 0 for a function or where the BTF cannot
 * say, for the printers (rt_output_set_func_args()).
 */
int rt_tracepoints_check(const char (*names)[RINGTRACE_FUNC_NAME_LEN],
			 uint32_t nr, struct rt_btf *btf, const char *events,
			 uint32_t *max_args, struct rt_func_arg_descs *descs,
			 char *err, size_t errlen);

/*
 * The functions among @names (the others are tracepoints, described by
 * rt_tracepoints_check()): descs[i] from the kernel's BTF (@btf, the
 * same handle, not read again) where it has one FUNC of that name whose
 * parameters registers carry; left as they are otherwise (no BTF, a
 * static name of several functions, a struct by value).
 */
void rt_functions_describe(const char (*names)[RINGTRACE_FUNC_NAME_LEN],
			   uint32_t nr, struct rt_btf *btf,
			   struct rt_func_arg_descs *descs);

#endif /* RINGTRACE_TRACEPOINTS_H */
