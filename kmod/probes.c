// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching and detaching event sources on behalf of sessions.
 */
#include <linux/errno.h>
#include <linux/ringtrace.h>

#include "probes.h"

u64 rt_probes_available(void)
{
	return RINGTRACE_EVENT_VFS_READ;
}

/* Attach every source in @events, or none of them. */
int rt_probes_get(u64 events)
{
	int err;

	if (events & ~rt_probes_available())
		return -EOPNOTSUPP;

	if (events & RINGTRACE_EVENT_VFS_READ) {
		err = rt_vfs_read_get();
		if (err)
			return err;
	}
	return 0;
}

void rt_probes_put(u64 events)
{
	if (events & RINGTRACE_EVENT_VFS_READ)
		rt_vfs_read_put();
}
