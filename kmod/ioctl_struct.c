// SPDX-License-Identifier: GPL-2.0
/*
 * Extensible ioctl structures (Documentation/abi.rst): each starts with a
 * __u32 size saying how much of it the caller knows. The ioctls of
 * chardev.c, ring_stats.c and lock_stats.c check and answer them here.
 */
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/uaccess.h>

#include "ioctl_struct.h"

/*
 * The size field (first __u32) of an extensible ioctl structure: at least
 * the first published size, at most a page (E2BIG, as clone3() and
 * openat2() do), so that checking a newer caller's tail for zeroes is
 * bounded.
 */
int rt_get_struct_size(const void __user *uarg, u32 min_size, u32 *usize)
{
	if (get_user(*usize, (const u32 __user *)uarg))
		return -EFAULT;
	if (*usize < min_size)
		return -EINVAL;
	if (*usize > PAGE_SIZE)
		return -E2BIG;
	return 0;
}

/*
 * Copy an extensible output structure (first field: __u32 size) back to
 * userspace: as much as both sides know, with size telling how much that was.
 */
int rt_copy_struct_out(void __user *uarg, void *kbuf, u32 ksize,
		       u32 min_size)
{
	u32 usize;
	int err;

	err = rt_get_struct_size(uarg, min_size, &usize);
	if (err)
		return err;
	usize = min(usize, ksize);
	*(u32 *)kbuf = usize;
	return copy_to_user(uarg, kbuf, usize) ? -EFAULT : 0;
}
