// SPDX-License-Identifier: GPL-2.0
/*
 * issue 9: buffer health through GET_STATS. Besides the session totals,
 * a caller that knows RINGTRACE_STATS_SIZE_VER2 may pass an array for one
 * struct ringtrace_ring_stats per ring: records, lost, high-water fill and
 * wake-ups of each ring, from the kernel's own counters.
 */
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>

#include "chardev.h"
#include "session.h"

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
	if (usize < RINGTRACE_STATS_SIZE_VER2)
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
 * Copy each ring's entry to the caller: as much of it as the caller knows,
 * and zeroes in what it reserved beyond our structure. Rings are set once
 * and live as long as the session: no session lock is needed to read
 * them, and none is held while copying to userspace.
 */
static int rt_ring_stats_copy_out(struct rt_session *s,
				  const struct rt_ring_stats_in *in,
				  struct ringtrace_stats *st)
{
	u8 __user *dst = u64_to_user_ptr(in->ptr);
	u32 n = min_t(u32, in->entry_size, sizeof(struct ringtrace_ring_stats));
	struct ringtrace_ring_stats rs;
	struct rt_ring *ring;
	u32 filled = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		/* Pairs with smp_store_release() in rt_session_get_ring(). */
		ring = smp_load_acquire(&s->rings[cpu]);
		if (!ring)
			continue;
		memset(&rs, 0, sizeof(rs));
		rt_ring_ring_stats(ring, &rs);
		st->wakeups += rs.wakeups;
		st->overwritten += rs.overwritten;
		if (!dst || filled >= in->nr)
			continue;
		if (copy_to_user(dst, &rs, n) ||
		    clear_user(dst + n, in->entry_size - n))
			return -EFAULT;
		dst += in->entry_size;
		filled++;
	}
	st->rings_ptr = in->ptr;
	st->ring_entry_size = in->entry_size;
	st->nr_ring_entries = filled;
	return 0;
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
