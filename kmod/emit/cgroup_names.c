// SPDX-License-Identifier: GPL-2.0
/*
 * Records that say which cgroup (issue 24, RINGTRACE_CFG_CGROUPS): every
 * vfs_read, lock and offcpu record carries a struct ringtrace_task_ext (the
 * task's cgroup v2 id, its initial-namespace pid and tid), and each
 * cgroup is named once per enabled period by a cgroup record written
 * right before the first record giving its id, on the same ring, as path
 * records name files: the same lock-free table (path_cache.c) decides who
 * names it, keyed (0, id) in a table of the session's own.
 *
 * The name is built in the probe. Since 6.15 kernfs names are freed after
 * an RCU grace period, so a walk up the cgroup's ancestors under RCU needs
 * no lock; before, kernfs_path_from_node() takes kernfs_rename_lock, a
 * spinlock (irqs off), which is fine in a probe but sleeps on PREEMPT_RT:
 * there the record goes out UNRESOLVED (compat.h); and a lock record may
 * be written holding that very lock, an offcpu record holding the
 * runqueue's raw lock, so there only vfs_read records name cgroups.
 */
#include <linux/cgroup.h>
#include <linux/kernfs.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include "lib/compat.h"
#include "path_cache.h"
#include "session/session.h"

/* Without cgroups there is nothing to name (compat.h). */
#ifdef CONFIG_CGROUPS
/* Names are built here; one per context level, so probes may nest. */
struct rt_cgroup_buf {
	char	path[RINGTRACE_CGROUP_PATH_MAX + 1];
	bool	busy;
};

static DEFINE_PER_CPU(struct rt_cgroup_buf[4], rt_cgroup_bufs);

/* Names built under kernfs_rename_lock (compat.h). */
#ifdef RT_KERNFS_PATH_LOCKED
static const bool rt_kernfs_path_locked = true;
#else
static const bool rt_kernfs_path_locked;
#endif
#endif /* CONFIG_CGROUPS */

#ifdef CONFIG_CGROUPS
#ifdef RT_KERNFS_RCU_NAME
/*
 * @cgrp's path into @buf (RINGTRACE_CGROUP_PATH_MAX + 1 bytes), built
 * from its end; only the last names kept if too long. Returns its length
 * (not NUL-terminated).
 */
static u32 rt_cgroup_path(struct cgroup *cgrp, char *buf, u32 *flags)
{
	char *end = buf + RINGTRACE_CGROUP_PATH_MAX + 1, *p = end;
	const char *name;
	size_t n;

	rcu_read_lock();
	for (; cgroup_parent(cgrp); cgrp = cgroup_parent(cgrp)) {
		name = rcu_dereference(cgrp->kn->name);
		n = strnlen(name, RINGTRACE_CGROUP_PATH_MAX);
		if (n + 1 > (size_t)(p - buf)) {
			*flags |= RINGTRACE_CGROUP_TRUNCATED;
			break;
		}
		p -= n;
		memcpy(p, name, n);
		*--p = '/';
	}
	rcu_read_unlock();
	if (p == end)
		*--p = '/';	/* the root */
	n = end - p;
	memmove(buf, p, n);
	return n;
}
#elif defined(RT_KERNFS_PATH_LOCKED)
static u32 rt_cgroup_path(struct cgroup *cgrp, char *buf, u32 *flags)
{
	int len = kernfs_path_from_node(cgrp->kn, NULL, buf,
					RINGTRACE_CGROUP_PATH_MAX + 1);

	if (len < 0) {
		*flags |= RINGTRACE_CGROUP_UNRESOLVED;
		return 0;
	}
	if (len > RINGTRACE_CGROUP_PATH_MAX) {
		*flags |= RINGTRACE_CGROUP_TRUNCATED;
		len = RINGTRACE_CGROUP_PATH_MAX;
	}
	return len;
}
#else
static u32 rt_cgroup_path(struct cgroup *cgrp, char *buf, u32 *flags)
{
	*flags |= RINGTRACE_CGROUP_UNRESOLVED;
	return 0;
}
#endif

static void rt_cgroup_fill(struct ringtrace_cgroup_record *rec,
			   unsigned int size, u64 ts, u64 id, u32 flags,
			   const char *name, u32 len)
{
	char *path = (char *)(rec + 1);	/* RINGTRACE_CGROUP_RECORD_PATH() */

	BUILD_BUG_ON(sizeof(*rec) != 32);
	rec->header.type = RINGTRACE_RECORD_CGROUP;
	rec->header.misc = 0;
	rec->header.size = size;
	rec->ts_ns = ts;
	rec->cgroup_id = id;
	rec->flags = flags;
	rec->path_len = len;
	rec->__pad = 0;
	memcpy(path, name, len);
	/* The NUL and the padding: every byte of a record is written. */
	memset(path + len, 0, size - sizeof(*rec) - len);
}
#endif /* CONFIG_CGROUPS */

u64 rt_cgroup_before_record(struct rt_session *s, int slot, u64 ts,
			    struct cgroup *cgrp, bool in_lock)
{
#ifdef CONFIG_CGROUPS
	u64 named_ts = RT_NAMED_NONE;
	struct rt_cgroup_buf *b;
	struct ringtrace_cgroup_record *rec = NULL;
	struct rt_path_slot *named = NULL;
	enum rt_path_verdict v;
	u64 id = cgroup_id(cgrp);
	unsigned int size;
	struct rt_ring *ring;
	u32 len, flags = 0;

	/*
	 * A lock record may be written with the lock just taken (contention
	 * end): if it were kernfs_rename_lock, kernfs_path_from_node() would
	 * spin on it forever. An offcpu record is written under the
	 * runqueue's raw lock, where a spinlock_t may not be taken (it sleeps
	 * on PREEMPT_RT, and rq lock -> kernfs_rename_lock is an order no one
	 * else keeps). Leave such a cgroup for a vfs_read to name.
	 */
	if ((rt_kernfs_path_locked && in_lock) || slot < 0)
		return RT_NAMED_NONE;
	/* issue 19: ids only (RINGTRACE_CFG_NO_CGROUP_NAMES). */
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
	len = rt_cgroup_path(cgrp, b->path, &flags);
	if (v == RT_PATH_FULL)
		flags |= RINGTRACE_CGROUP_UNCACHED;
	size = ALIGN(sizeof(*rec) + len + 1, RINGTRACE_RECORD_ALIGN);
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
#endif
	return RT_NAMED_NONE;
}
