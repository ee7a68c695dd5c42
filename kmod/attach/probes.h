/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event sources. Each is attached while at least one enabled session
 * asks for it and detached when the last one stops, so an idle ringtrace
 * costs the traced kernel nothing.
 */
#ifndef _RINGTRACE_PROBES_H
#define _RINGTRACE_PROBES_H

#include <linux/types.h>

/*
 * @attach: RINGTRACE_ATTACH_* wanted for vfs_read, 0: the module's choice.
 * @offcpu_stacks: offcpu records with stacks (issue 22).
 */
int rt_probes_get(u64 events, u32 attach, bool offcpu_stacks);
void rt_probes_put(u64 events);
u64 rt_probes_available(void);

/* vfs_read, through the mechanism attach.c picks. */
int rt_vfs_read_get(u32 attach);
void rt_vfs_read_put(void);
void rt_vfs_read_counts(u64 *hits, u64 *missed);

#endif /* _RINGTRACE_PROBES_H */
