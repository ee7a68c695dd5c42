/* SPDX-License-Identifier: GPL-2.0 */
/* Extensible ioctl structures (ioctl_struct.c). */
#ifndef _RINGTRACE_IOCTL_STRUCT_H
#define _RINGTRACE_IOCTL_STRUCT_H

#include <linux/compiler_types.h>
#include <linux/types.h>

/* The size field, checked: at least @min_size, at most a page (E2BIG). */
int rt_get_struct_size(const void __user *uarg, u32 min_size, u32 *usize);
/* @kbuf back to the caller, as much as both sides know; sets its size. */
int rt_copy_struct_out(void __user *uarg, void *kbuf, u32 ksize,
		       u32 min_size);

#endif /* _RINGTRACE_IOCTL_STRUCT_H */
