/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Kernel tracepoints' and functions' prototypes, read from the kernel's
 * BTF (/sys/kernel/btf/vmlinux: raw BTF, Documentation/bpf/btf.rst), so
 * that `-e tp:SUBSYS:EVENT` can tell before anything attaches whether the
 * tracepoint exists, and a record show what its arguments are (-e tp:,
 * -e func: --args). Our own small parser of the raw format: header, type
 * section, string section.
 *
 * For every tracepoint NAME the kernel's BTF holds
 * `typedef void (*btf_trace_NAME)(void *__data, <TP_PROTO's args>)`: the
 * arguments are that prototype's parameters after the first. Their names
 * come from the FUNC `__bpf_trace_NAME` where there is one with the same
 * parameters (a TRACE_EVENT's; an event defined from a class has none),
 * else from the FUNC `__probestub_NAME` (every event's, since 6.4), else
 * they are arg0, arg1...
 */
#ifndef RINGTRACE_BTF_H
#define RINGTRACE_BTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ringtrace/record.h"

#define RT_BTF_VMLINUX	"/sys/kernel/btf/vmlinux"

/*
 * A character of a C identifier: what BTF's names and a tracepoint's
 * subsystem and event names (-e tp:) are made of.
 */
static inline bool rt_ident_char(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

struct rt_btf;

/*
 * The kernel's BTF, read once for all the lookups of a session's start
 * (the file is about 5 MiB: reading and indexing it is what a lookup
 * would cost, not the lookup). Nothing is read until the first lookup,
 * so that a session that looks nothing up reads nothing; then the whole
 * file, every type's place indexed and the names of its FUNCs and
 * TYPEDEFs hashed, once. A file that could not be read stays that
 * way: every lookup answers with that failure and its message. One
 * thread at a time.
 *
 * @path: the BTF file (NULL: /sys/kernel/btf/vmlinux). NULL: no memory.
 */
struct rt_btf *rt_btf_open(const char *path);
void rt_btf_close(struct rt_btf *btf);

/*
 * A module's BTF (/sys/kernel/btf/MODULE), split from @base (vmlinux's,
 * which must outlive it): its types and strings go on from the base's,
 * which its own refer to. Lookups find the module's tracepoints and
 * functions, with argument types of either file; the base is read first,
 * and its failure is the module's.
 */
struct rt_btf *rt_btf_open_split(const char *path, struct rt_btf *base);

/* The file @btf reads. */
const char *rt_btf_path(const struct rt_btf *btf);

/*
 * Tracepoint @tp ("sched_switch": the tracepoint's own name): 0 and *out
 * its arguments as a record's description (record.h: the first
 * RT_FUNC_ARG_DESCS of them, every one checked); -ENOENT: no such
 * tracepoint in that BTF; -ENODATA: no BTF file (or unreadable);
 * -EINVAL: a malformed BTF (say where in err); -EOPNOTSUPP: an argument a
 * generic probe cannot take (struct/union by value, float, wider than 8
 * bytes: err names it); -ENOMEM. err always says why in one line on
 * failure; *out is all zeros then.
 */
int rt_btf_tracepoint(struct rt_btf *btf, const char *tp,
		      struct rt_func_arg_descs *out, char *err, size_t errlen);

/*
 * Kernel function @name's prototype (-e func:NAME) as a tracepoint's,
 * every parameter an argument: 0 and *out; -ENOENT where the BTF has no
 * single FUNC of that name (none, or several: static functions of one
 * name); -EOPNOTSUPP where its parameters are not what registers carry
 * (none, a struct by value, a float, variadic); the others as
 * rt_btf_tracepoint()'s. *out is all zeros on failure.
 */
int rt_btf_func(struct rt_btf *btf, const char *name,
		struct rt_func_arg_descs *out, char *err, size_t errlen);

#endif /* RINGTRACE_BTF_H */
