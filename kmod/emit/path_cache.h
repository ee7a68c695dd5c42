/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path records (ABI 2): the name of each file a session's vfs_read records
 * name, written once per file per session. See path_cache.c and
 * Documentation/protocol.rst ("Path records").
 */
#ifndef _RINGTRACE_PATH_CACHE_H
#define _RINGTRACE_PATH_CACHE_H

#include <linux/types.h>

struct file;
struct rt_session;
struct rt_path_cache;

struct rt_path_cache *rt_path_cache_alloc(u32 entries);
void rt_path_cache_free(struct rt_path_cache *pc);
/* Forget every file: called on ENABLE, when no probe sees the session. */
void rt_path_cache_reset(struct rt_path_cache *pc);

/* The module-wide per-CPU buffer d_path() writes into. */
int rt_path_buffers_get(void);
void rt_path_buffers_put(void);

/*
 * The table of what a session named, keyed (dev, ino). Path records use
 * it for files; cgroup records (issue 24) a table of their own, keyed
 * (0, cgroup id). rt_path_lookup() says whether a record stamped @ts
 * needs a name before it, and claims the slot (*slotp) if it is the first
 * to name it; rt_path_publish() then says the name was written at @ts
 * (or lost). On RT_PATH_SKIP, *named_ts is when it was named (issue 19:
 * the memo in session.h). Lock-free; preemption disabled.
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

/* What one vfs_read return knows about its file, resolved at most once. */
struct rt_path_call {
	struct file	*file;
	u64		ino;
	u32		dev_major;
	u32		dev_minor;
	/* Filled by the first session that needs the name. */
	const char	*name;		/* not NUL-terminated; NULL: not yet */
	u32		len;
	u32		flags;		/* RINGTRACE_PATH_* but TRUNCATED/UNCACHED */
};

/*
 * Before a vfs_read record of @call goes into @s's ring for @cpu: write
 * the path record there if @s has not named the file yet (or cannot
 * remember it). Preemption disabled, task context. Returns the time of
 * the path record that already named the file for a record stamped @ts
 * (RT_PATH_SKIP), RT_NAMED_NONE otherwise.
 */
u64 rt_path_before_record(struct rt_session *s, int cpu, u64 ts,
			  struct rt_path_call *call);

#endif /* _RINGTRACE_PATH_CACHE_H */
