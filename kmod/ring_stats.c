// SPDX-License-Identifier: GPL-2.0
/*
 * buffer health through GET_STATS. Besides the session totals,
 * a caller that knows RINGTRACE_STATS_SIZE_HEALTH may pass an array for one
 * struct ringtrace_ring_stats per ring: records, lost, high-water fill and
 * wake-ups of each ring, from the kernel's own counters.
 */
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>

#include "ioctl_struct.h"
#include "ring_stats.h"
#include "session/session.h"

/* The three input fields of a SIZE_VER2 caller, copied in. */
struct rt_ring_stats_in {
	u64 ptr;
	u32 entry_size;
	u32 nr;
};

static int rt_ring_stats_copy_in(const void __user *uarg,
				 struct rt_ring_stats_in *in)
{
	const u8 __user *u = uarg;
	u32 usize;
	int err;

	err = rt_get_struct_size(uarg, RINGTRACE_STATS_SIZE_VER0, &usize);
	if (err)
		return err;
	memset(in, 0, sizeof(*in));
	if (usize < RINGTRACE_STATS_SIZE_HEALTH)
		return 0;	/* an older caller: totals only */
	if (copy_from_user(&in->ptr,
			   u + offsetof(struct ringtrace_stats, rings_ptr),
			   sizeof(in->ptr)) ||
	    copy_from_user(&in->entry_size,
			   u + offsetof(struct ringtrace_stats, ring_entry_size),
			   sizeof(in->entry_size)) ||
	    copy_from_user(&in->nr,
			   u + offsetof(struct ringtrace_stats, nr_ring_entries),
			   sizeof(in->nr)))
		return -EFAULT;
	if (!in->ptr)
		return 0;
	if (in->entry_size < RINGTRACE_RING_STATS_SIZE_VER0)
		return -EINVAL;
	if (in->entry_size > PAGE_SIZE)
		return -E2BIG;
	return 0;
}

/*
 * Each ring's entry, taken under the session lock (the thread list may
 * change with SET_CONFIG otherwise) into @rs (room for @room), then copied
 * to the caller with no lock held (copy_to_user() may fault and take
 * mmap_lock, which mmap() holds while it takes the session lock).
 */
static u32 rt_ring_stats_collect(struct rt_session *s,
				 struct ringtrace_ring_stats *rs, u32 room,
				 struct ringtrace_stats *st)
{
	struct ringtrace_ring_stats one;
	struct rt_ring *ring;
	unsigned int i;
	u32 filled = 0;

	mutex_lock(&s->lock);
	for (i = 0; i < s->nr_slots; i++) {
		ring = s->rings[i];
		if (!ring)
			continue;
		memset(&one, 0, sizeof(one));
		rt_ring_ring_stats(ring, &one);
		if (s->threads.nr && i < s->threads.nr)
			one.tid = s->threads.tids[i];
		st->wakeups += one.wakeups;
		st->overwritten += one.overwritten;
		if (filled < room)
			rs[filled++] = one;
	}
	mutex_unlock(&s->lock);
	return filled;
}

static int rt_ring_stats_copy_out(struct rt_session *s,
				  const struct rt_ring_stats_in *in,
				  struct ringtrace_stats *st)
{
	u8 __user *dst = u64_to_user_ptr(in->ptr);
	u32 n = min_t(u32, in->entry_size, sizeof(struct ringtrace_ring_stats));
	u32 room = dst ? min_t(u32, in->nr, rt_session_capacity()) : 0;
	struct ringtrace_ring_stats *rs = NULL;
	u32 filled, i;
	int err = 0;

	if (room) {
		rs = kvcalloc(room, sizeof(*rs), GFP_KERNEL_ACCOUNT);
		if (!rs)
			return -ENOMEM;
	}
	filled = rt_ring_stats_collect(s, rs, room, st);
	for (i = 0; i < filled; i++, dst += in->entry_size) {
		if (copy_to_user(dst, &rs[i], n) ||
		    clear_user(dst + n, in->entry_size - n)) {
			err = -EFAULT;
			break;
		}
	}
	kvfree(rs);
	st->rings_ptr = in->ptr;
	st->ring_entry_size = in->entry_size;
	st->nr_ring_entries = filled;
	return err;
}

int rt_ring_stats_request(struct rt_session *s, void __user *uarg,
			  struct ringtrace_stats *st)
{
	struct rt_ring_stats_in in;
	int err;

	err = rt_ring_stats_copy_in(uarg, &in);
	if (err)
		return err;
	return rt_ring_stats_copy_out(s, &in, st);
}
