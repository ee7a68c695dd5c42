/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A kernel tracepoint's prototype, read from the kernel's BTF
 * (/sys/kernel/btf/vmlinux: raw BTF, Documentation/bpf/btf.rst), so that
 * `-e tp:SUBSYS:EVENT` can tell before anything attaches whether the
 * tracepoint exists and what its arguments are. Our own small parser of
 * the raw format: header, type section, string section.
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

#define RT_TP_MAX_ARGS	16

struct rt_tp_arg {
	char		name[32];	/* C identifier, or "argN" */
	uint32_t	size;		/* bytes: 1, 2, 4 or 8 */
	bool		is_ptr;		/* a pointer (size 8) */
	bool		is_signed;	/* a signed integer or enum */
};

struct rt_tp_proto {
	uint32_t		nr_args;
	struct rt_tp_arg	arg[RT_TP_MAX_ARGS];
};

/*
 * Tracepoint @tp ("sched_switch": the tracepoint's own name) from the BTF
 * at @path (NULL: /sys/kernel/btf/vmlinux).
 * 0 and *out filled; -ENOENT: no such tracepoint in that BTF; -ENODATA: no
 * BTF file (or unreadable); -EINVAL: a malformed BTF (say where in err);
 * -EOPNOTSUPP: an argument a generic probe cannot take (struct/union by
 * value, float, wider than 8 bytes: err names it). err always says why in
 * one line on failure.
 *
 * The whole file is read on each call; no state is kept between calls.
 * Only a complete BTF (vmlinux's) is understood, not a module's split BTF.
 */
int rt_btf_tracepoint(const char *path, const char *tp,
		      struct rt_tp_proto *out, char *err, size_t errlen);

/*
 * The prototypes of kernel functions @names (@nr of them, -e func:NAME)
 * from the BTF at @path (NULL: /sys/kernel/btf/vmlinux), in one reading:
 * out[i] as a tracepoint's (every parameter an argument), nr_args 0 where
 * the BTF has no single FUNC of that name (none, or several: static
 * functions of one name) or its parameters are not what registers carry
 * (a struct by value, a float, variadic, more than RT_TP_MAX_ARGS).
 * 0; -ENODATA: no BTF file; -EINVAL: a malformed one (err says where);
 * out all zeros then.
 */
int rt_btf_funcs(const char *path, const char *const *names, uint32_t nr,
		 struct rt_tp_proto *out, char *err, size_t errlen);

#endif /* RINGTRACE_BTF_H */
