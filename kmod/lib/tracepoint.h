/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RINGTRACE_TRACEPOINT_H
#define _RINGTRACE_TRACEPOINT_H

struct module;
struct tracepoint;

/*
 * The kernel's built-in tracepoint @name ("sched_switch"), or NULL.
 * Tracepoints are not exported to modules; for_each_kernel_tracepoint()
 * and tracepoint_probe_register() are, so producers find theirs at load
 * and attach to it while a session asks. Process context.
 */
struct tracepoint *rt_tracepoint_find(const char *name);

/*
 * The tracepoint @name, built-in or a loaded module's (the built-in one
 * if both have it), or NULL. A module's comes with a reference on the
 * module in *@mod (NULL for a built-in one): it cannot be unloaded, and
 * its tracepoint stays, until rt_tracepoint_put(), which the caller
 * makes once its probe is unregistered and the probe's readers are gone.
 * Process context; takes the kernel's tracepoint module list mutex.
 */
struct tracepoint *rt_tracepoint_get(const char *name, struct module **mod);
void rt_tracepoint_put(struct module *mod);

#endif /* _RINGTRACE_TRACEPOINT_H */
