// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching and detaching event sources on behalf of sessions: all of a
 * session's sources, or none.
 */
#include <linux/errno.h>
#include <linux/ringtrace.h>

#include "events/lock_events.h"
#include "events/offcpu.h"
#include "probes.h"

u64 rt_probes_available(void)
{
	u64 events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_LOCK;

	if (rt_contention_available())
		events |= RINGTRACE_EVENT_LOCK_CONTENTION;
	if (rt_offcpu_available())
		events |= RINGTRACE_EVENT_OFFCPU;	/* issue 22 */
	return events;
}

int rt_probes_get(u64 events, u32 attach, bool offcpu_stacks)
{
	int err;

	if (events & ~rt_probes_available())
		return -EOPNOTSUPP;

	if (events & RINGTRACE_EVENT_VFS_READ) {
		err = rt_vfs_read_get(attach);
		if (err)
			return err;
	}
	if (events & RINGTRACE_EVENT_LOCK_CONTENTION) {
		err = rt_contention_get();
		if (err)
			goto err_vfs_read;
	}
	/* issue 22: before vfs_read's calls can ask for their off-CPU time. */
	if (events & RINGTRACE_EVENT_OFFCPU) {
		err = rt_offcpu_get(offcpu_stacks);
		if (err)
			goto err_contention;
	}
	/* Cannot fail: tracked locks call us, we only count listeners. */
	if (events & RINGTRACE_EVENT_LOCK)
		rt_lock_events_get();
	return 0;

err_contention:
	if (events & RINGTRACE_EVENT_LOCK_CONTENTION)
		rt_contention_put();
err_vfs_read:
	if (events & RINGTRACE_EVENT_VFS_READ)
		rt_vfs_read_put();
	return err;
}

void rt_probes_put(u64 events)
{
	if (events & RINGTRACE_EVENT_LOCK)
		rt_lock_events_put();
	if (events & RINGTRACE_EVENT_OFFCPU)
		rt_offcpu_put();
	if (events & RINGTRACE_EVENT_LOCK_CONTENTION)
		rt_contention_put();
	if (events & RINGTRACE_EVENT_VFS_READ)
		rt_vfs_read_put();
}
