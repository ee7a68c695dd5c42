// SPDX-License-Identifier: GPL-2.0
/*
 * What a session named: the table path records (emit/path_record.c) and
 * cgroup records (emit/cgroup_record.c) each keep, so that a file or a
 * cgroup is named once per enabled period, right before the first record
 * that refers to it (Documentation/protocol.rst, "Path records").
 *
 * A fixed-size open-addressed table that the probes of every CPU use at
 * once with preemption disabled: a slot is claimed by cmpxchg on its key
 * and published with a release store of its state, so there is no lock
 * to take in probe context. A key looks at RT_PATH_PROBES slots from its
 * hash; when all are taken by other keys the table is full for it and it
 * is named before every record (RINGTRACE_PATH_UNCACHED, counted in
 * path_cache_full).
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "path_cache.h"

/* Slots a file may use, from its hash on: bounds the work per lookup. */
#define RT_PATH_PROBES		16

enum rt_path_state {
	RT_PATH_BUSY,		/* claimed, being named (or not yet visible) */
	RT_PATH_NAMED,		/* its path record was written at ts */
	RT_PATH_UNNAMED,	/* claimed, but the record was lost: name again */
};

struct rt_path_slot {
	u64	key;		/* hash | 1; 0: free. Claimed by cmpxchg */
	u64	ino;
	u64	ts;		/* ts_ns of the path record */
	u32	dev;		/* MKDEV(major, minor) */
	u32	state;		/* enum rt_path_state, release/acquire */
};

struct rt_path_cache {
	u32			mask;		/* slots - 1 */
	struct rt_path_slot	slots[];
};

struct rt_path_cache *rt_path_cache_alloc(u32 entries)
{
	struct rt_path_cache *pc;

	entries = roundup_pow_of_two(max_t(u32, entries, RT_PATH_PROBES));
	pc = kvzalloc(struct_size(pc, slots, entries), GFP_KERNEL_ACCOUNT);
	if (!pc)
		return NULL;
	pc->mask = entries - 1;
	return pc;
}

void rt_path_cache_free(struct rt_path_cache *pc)
{
	kvfree(pc);
}

void rt_path_cache_reset(struct rt_path_cache *pc)
{
	if (pc)
		memset(pc->slots, 0, (pc->mask + 1) * sizeof(pc->slots[0]));
}

/*
 * Has the session named (dev, ino) in a record that a reader merging the
 * rings by time sees before one stamped @ts? If not, claim it (*slotp) or
 * say why the caller must name it anyway.
 */
enum rt_path_verdict rt_path_lookup(struct rt_path_cache *pc, u32 dev,
				    u64 ino, u64 ts, struct rt_path_slot **slotp,
				    u64 *named_ts)
{
	u64 hash = (ino ^ ((u64)dev << 32) ^ dev) * GOLDEN_RATIO_64;
	u64 key = hash | 1, cur;
	struct rt_path_slot *slot;
	unsigned int i;
	u32 state;

	for (i = 0; i < RT_PATH_PROBES; i++) {
		slot = &pc->slots[((hash >> 32) + i) & pc->mask];
		cur = READ_ONCE(slot->key);
		if (!cur) {
			cur = cmpxchg(&slot->key, 0, key);
			if (!cur) {
				/* state is RT_PATH_BUSY (0) until we publish */
				slot->ino = ino;
				slot->dev = dev;
				*slotp = slot;
				return RT_PATH_OWN;
			}
		}
		if (cur != key)
			continue;
		/*
		 * Pairs with the smp_store_release() in rt_path_publish():
		 * ino, dev and ts are the owner's once the state says so.
		 */
		state = smp_load_acquire(&slot->state);
		if (state == RT_PATH_BUSY)
			return RT_PATH_RACE;	/* cannot tell: name it */
		if (slot->ino != ino || slot->dev != dev)
			continue;		/* another file, same hash */
		if (state == RT_PATH_UNNAMED) {
			if (cmpxchg(&slot->state, RT_PATH_UNNAMED,
				    RT_PATH_BUSY) != RT_PATH_UNNAMED)
				return RT_PATH_RACE;
			*slotp = slot;
			return RT_PATH_OWN;
		}
		/*
		 * Named on some ring at slot->ts: a record stamped no later
		 * could come first in a merged stream (another CPU, or a
		 * tie), so it brings its own path record.
		 */
		if (slot->ts >= ts)
			return RT_PATH_RACE;
		/* NAMED is final: slot->ts stays for the enabled period. */
		*named_ts = slot->ts;
		return RT_PATH_SKIP;
	}
	return RT_PATH_FULL;
}

void rt_path_publish(struct rt_path_slot *slot, u64 ts, bool written)
{
	slot->ts = ts;
	/* Pairs with smp_load_acquire() in rt_path_lookup(). */
	smp_store_release(&slot->state,
			  written ? RT_PATH_NAMED : RT_PATH_UNNAMED);
}
