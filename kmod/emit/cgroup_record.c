// SPDX-License-Identifier: GPL-2.0
/*
 * Records that say which cgroup (RINGTRACE_CFG_CGROUPS): every vfs_read,
 * lock and offcpu record carries a struct ringtrace_task_ext (the task's
 * cgroup v2 id, its initial-namespace pid and tid; emit.h writes it), and
 * each cgroup is named once per enabled period by a cgroup record written
 * right before the first record giving its id, on the same ring, as path
 * records name files: the same lock-free table (session/path_cache.c)
 * decides who names it, keyed (0, id) in a table of the session's own.
 *
 * The name is built in the probe, by compat.h's rt_cgroup_path(). Where
 * that takes kernfs_rename_lock (before 6.15, RT_CGROUP_PATH_LOCKS) a lock
 * record may be written holding that very lock, and an offcpu record
 * holding the runqueue's raw lock: there only vfs_read records name
 * cgroups.
 */
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "emit.h"
#include "lib/compat.h"
#include "session/active.h"
#include "session/path_cache.h"

/* Names are built here; one per context level, so probes may nest. */
struct rt_cgroup_buf {
	char	path[RINGTRACE_CGROUP_PATH_MAX + 2];	/* rt_cgroup_path()'s */
	bool	busy;
};

static DEFINE_PER_CPU(struct rt_cgroup_buf[4], rt_cgroup_bufs);

static void rt_cgroup_fill(struct ringtrace_cgroup_record *rec,
			   unsigned int size, u64 ts, u64 id, u32 flags,
			   const char *name, u32 len)
{
	BUILD_BUG_ON(sizeof(*rec) != 32);
	rec->header.type = RINGTRACE_RECORD_CGROUP;
	rec->header.misc = 0;
	rec->header.size = size;
	rec->ts_ns = ts;
	rec->cgroup_id = id;
	rec->flags = flags;
	rec->path_len = len;
	rec->__pad = 0;
	/* The name right after the fixed part: RINGTRACE_CGROUP_RECORD_PATH(). */
	rt_emit_name_copy(rec, sizeof(*rec), size, name, len);
}

u64 rt_cgroup_before_record(struct rt_session *s, int slot, u64 ts,
			    struct cgroup *cgrp, bool in_lock)
{
	u64 named_ts = RT_NAMED_NONE;
	struct rt_cgroup_buf *b;
	struct ringtrace_cgroup_record *rec = NULL;
	struct rt_path_slot *named = NULL;
	enum rt_path_verdict v;
	u64 id = rt_cgroup_id(cgrp);
	bool truncated = false;
	unsigned int size;
	struct rt_ring *ring;
	u32 len, flags = 0;
	int n;

	/*
	 * A lock record may be written with the lock just taken (contention
	 * end): if it were kernfs_rename_lock, kernfs_path_from_node() would
	 * spin on it forever. An offcpu record is written under the
	 * runqueue's raw lock, where a spinlock_t may not be taken (it sleeps
	 * on PREEMPT_RT, and rq lock -> kernfs_rename_lock is an order no one
	 * else keeps). Leave such a cgroup for a vfs_read to name.
	 */
	if ((RT_CGROUP_PATH_LOCKS && in_lock) || slot < 0)
		return RT_NAMED_NONE;
	/* Ids only (RINGTRACE_CFG_NO_CGROUP_NAMES). */
	if (!s->cgroups.names)
		return RT_NAMED_NONE;
	v = rt_path_lookup(s->cgroups.names, 0, id, ts, &named, &named_ts);
	if (v == RT_PATH_SKIP)
		return named_ts;
	b = this_cpu_ptr(&rt_cgroup_bufs[min_t(unsigned int, interrupt_context_level(), 3)]);
	if (b->busy)		/* a probe nested in our own naming */
		goto out;
	/* Only this CPU, at this level, uses b: no atomics needed. */
	b->busy = true;
	barrier();
	n = rt_cgroup_path(cgrp, b->path, RINGTRACE_CGROUP_PATH_MAX,
			   &truncated);
	len = max(n, 0);
	if (n < 0)
		flags |= RINGTRACE_CGROUP_UNRESOLVED;
	if (truncated)
		flags |= RINGTRACE_CGROUP_TRUNCATED;
	if (v == RT_PATH_FULL)
		flags |= RINGTRACE_CGROUP_UNCACHED;
	size = rt_emit_name_size(sizeof(*rec), len);
	rec = rt_session_reserve_slot(s, slot, size, ts, &ring);
	if (rec) {
		rt_cgroup_fill(rec, size, ts, id, flags, b->path, len);
		rt_ring_commit(ring);
	}
	barrier();
	b->busy = false;
out:
	if (named)
		rt_path_publish(named, ts, rec);
	return RT_NAMED_NONE;
}
