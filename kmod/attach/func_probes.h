/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probes on the plain functions of one session (not its tracepoints,
 * func_tp.h), one mechanism per kernel, chosen by what it provides:
 *
 * - func_fprobe.c: one fprobe for all of them, registered in one batch
 *   (one ftrace update however many functions), its handlers learning
 *   which function an address is at its first call;
 * - func_kretprobe.c, where the kernel has no fprobe (Debian 6.1): one
 *   kretprobe per function, registered one by one, taken away in one
 *   batch.
 *
 * Both share the function with every other tool (an ftrace callback,
 * kprobes on ftrace); neither is the direct call, which locks BPF
 * trampolines out. attach/func.c owns the set and serialises these calls
 * under the session's lock.
 */
#ifndef _RINGTRACE_ATTACH_FUNC_PROBES_H
#define _RINGTRACE_ATTACH_FUNC_PROBES_H

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/types.h>

#include "lib/compat.h"

struct rt_session;

/* Calls of one function followed at once, per session (return hooks). */
#define RT_FUNC_MAXACTIVE	64

#ifdef RT_HAVE_FPROBE
struct rt_func_ipslot;

struct rt_func_set {
	struct fprobe		fp;
	struct rt_session	*s;
	/* Unique to this attachment: a call entered under another is not ours. */
	u64			gen;
	/* Where each function's calls come in, learnt (func_fprobe.c). */
	struct rt_func_ipslot	*slots;
	unsigned int		bits;
	/* Calls at an address that is none of the names (an alias). */
	atomic64_t		unknown;
	bool			registered;
};
#else
struct rt_func_krp;

struct rt_func_set {
	struct rt_func_krp	*p;
	struct kretprobe	**batch;	/* unregister_kretprobes()' */
	unsigned int		nr;		/* registered */
};
#endif

/*
 * Attach @set to the functions @idx[0..@n) of @s's names, @n > 0, none a
 * tracepoint's, under the generation @gen: all of them, or none and the
 * errno of the first refused (named in the kernel log). Process context.
 */
int rt_func_probes_register(struct rt_func_set *set, struct rt_session *s,
			    const u32 *idx, unsigned int n, u64 gen);

/*
 * Take every probe of @set away (none registered: nothing to do); returns
 * once no handler of them runs, with the calls they missed, final.
 */
u64 rt_func_probes_unregister(struct rt_func_set *set);

/* Calls @set's probes could not follow so far (no return hook, recursion). */
u64 rt_func_probes_missed(const struct rt_func_set *set);

/* RINGTRACE_ATTACH_*, for GET_INFO. */
extern const u32 rt_func_probes_id;

/* Why a probe was refused, for the kernel log. */
static inline const char *rt_func_refusal(int err)
{
	switch (err) {
	case -ENOENT:
		return "no such function, or one ftrace cannot hook (notrace, inlined)";
	case -EINVAL:
		return "the kernel refuses to probe it (kprobe blacklist, not a function entry)";
	case -EBUSY:
		return "another probe holds it exclusively";
	case -EOPNOTSUPP:
		return "this kernel checks indirect calls' prototypes (CFI)";
	}
	return "refused";
}

#endif /* _RINGTRACE_ATTACH_FUNC_PROBES_H */
