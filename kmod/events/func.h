/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calls of any kernel function a session names (RINGTRACE_EVENT_FUNC):
 * what a call records (func.c: the filters, the record) apart from how
 * the module gets called at the function's entry and return
 * (attach/func.c: one fprobe for a session's functions, or a kretprobe
 * per function).
 */
#ifndef _RINGTRACE_EVENTS_FUNC_H
#define _RINGTRACE_EVENTS_FUNC_H

#include <linux/ringtrace.h>
#include <linux/types.h>

#include "inread.h"

struct rt_session;

/* What the entry hands to the return of the same call, kept per call. */
struct rt_func_call {
	u64	ts;		/* entry time */
	u64	gen;		/* the attachment's, attach/func_fprobe.c */
	u64	args[RINGTRACE_FUNC_MAX_ARGS];
	u32	idx;		/* the function's, where one probe has many */
	/* Where rt_func_enter() found the task's read: its exit looks there. */
	struct rt_inread_ref inread;
};

/*
 * The function entered, preemption disabled, @c->args filled by the
 * mechanism: true if @s wants this call (@c->ts is then set and the
 * mechanism must call rt_func_exit() at its return).
 */
bool rt_func_enter(struct rt_session *s, struct rt_func_call *c);

/*
 * The call rt_func_enter() accepted returned @ret to @ret_ip, preemption
 * disabled: function @idx of @s's list, probed at @ip.
 */
void rt_func_exit(struct rt_session *s, const struct rt_func_call *c,
		  u32 idx, unsigned long ip, long ret, unsigned long ret_ip);

/*
 * Tracepoint @idx of @s's list, at @ip, fired with @args (the session's
 * func_args of them), preemption disabled: one record, lat_ns and ret 0,
 * if @s wants it. @anchor: where the kernel stack starts (rt_stack_get()).
 */
void rt_func_hit(struct rt_session *s, const u64 *args, u32 idx,
		 unsigned long ip, unsigned long anchor);

#endif /* _RINGTRACE_EVENTS_FUNC_H */
