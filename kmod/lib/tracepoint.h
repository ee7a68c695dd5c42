/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RINGTRACE_TRACEPOINT_H
#define _RINGTRACE_TRACEPOINT_H

struct tracepoint;

/*
 * The kernel's tracepoint @name ("sched_switch"), or NULL. Tracepoints are
 * not exported to modules; for_each_kernel_tracepoint() and
 * tracepoint_probe_register() are, so producers find theirs at load and
 * attach to it while a session asks. Process context.
 */
struct tracepoint *rt_tracepoint_find(const char *name);

#endif /* _RINGTRACE_TRACEPOINT_H */
