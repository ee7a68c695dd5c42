/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a session named (path_cache.c): one table for the files its path
 * records named, keyed (dev, ino), and one for the cgroups its cgroup
 * records named, keyed (0, cgroup id). Documentation/protocol.rst, "Path
 * records".
 */
#ifndef _RINGTRACE_PATH_CACHE_H
#define _RINGTRACE_PATH_CACHE_H

#include <linux/types.h>

struct rt_path_cache;

struct rt_path_cache *rt_path_cache_alloc(u32 entries);
void rt_path_cache_free(struct rt_path_cache *pc);
/* Forget every name: called on ENABLE, when no probe sees the session. */
void rt_path_cache_reset(struct rt_path_cache *pc);

/*
 * rt_path_lookup() says whether a record stamped @ts needs a name before
 * it, and claims the slot (*slotp) if it is the first to name it;
 * rt_path_publish() then says the name was written at @ts (or lost). On
 * RT_PATH_SKIP, *named_ts is when it was named (what the names memo of
 * session/active.h remembers). Lock-free; preemption disabled.
 */
enum rt_path_verdict {
	RT_PATH_SKIP,		/* named before this record: nothing to do */
	RT_PATH_OWN,		/* ours to name: slot set after writing */
	RT_PATH_RACE,		/* another CPU is naming it: name it too */
	RT_PATH_FULL,		/* no room: name it, uncached */
};

struct rt_path_slot;
enum rt_path_verdict rt_path_lookup(struct rt_path_cache *pc, u32 dev,
				    u64 ino, u64 ts,
				    struct rt_path_slot **slotp, u64 *named_ts);
void rt_path_publish(struct rt_path_slot *slot, u64 ts, bool written);

#endif /* _RINGTRACE_PATH_CACHE_H */
