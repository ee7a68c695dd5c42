/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel tracepoint a session names among its functions
 * (RINGTRACE_FUNC_TP_PREFIX, "tp:sched:sched_switch"): attached with
 * tracepoint_probe_register(), which every other tool shares (perf, ftrace
 * events, BPF raw tracepoints, other modules), one probe per session and
 * tracepoint. attach/func.c owns the attachment, as for a function.
 */
#ifndef _RINGTRACE_ATTACH_FUNC_TP_H
#define _RINGTRACE_ATTACH_FUNC_TP_H

#include <linux/atomic.h>
#include <linux/ringtrace.h>
#include <linux/types.h>

#include "lib/compat.h"

struct rt_session;
struct tracepoint;

struct rt_func_tp {
	struct tracepoint	*tp;		/* NULL: not registered */
	/* The module whose tracepoint it is, referenced; NULL: built-in. */
	struct module		*mod;
	struct rt_session	*s;
	u32			idx;		/* in the session's names */
	/* Hits it could not record (in NMI context). */
	atomic64_t		missed;
};

/* The tracepoint's name if @name is a tracepoint's, else NULL. */
const char *rt_func_tp_name(const char *name);

/*
 * Attach @t (s and idx set) to the tracepoint @tp_name, built-in or a
 * loaded module's (which holds the module until rt_func_tp_release()): 0,
 * -ENOENT (no such tracepoint), -EOPNOTSUPP (not on this kernel: see
 * RT_HAVE_TP_ANY), or tracepoint_probe_register()'s errno.
 */
int rt_func_tp_register(struct rt_func_tp *t, const char *tp_name);

/*
 * Take @t's probe away. Its handler may still run until
 * rt_func_tp_sync() returns: call that once after a batch, then
 * rt_func_tp_release() for each, which lets a module's tracepoint go
 * (the module may be unloaded from then on).
 */
void rt_func_tp_unregister(struct rt_func_tp *t);
void rt_func_tp_sync(void);
void rt_func_tp_release(struct rt_func_tp *t);

/* What the module offers for tracepoint names on this kernel. */
#ifdef RT_HAVE_TP_ANY
#define RT_FUNC_TP_FEATURES	RINGTRACE_FEAT_FUNC_TRACEPOINT
#else
#define RT_FUNC_TP_FEATURES	0
#endif

#endif /* _RINGTRACE_ATTACH_FUNC_TP_H */
