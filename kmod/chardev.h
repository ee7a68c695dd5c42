/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RINGTRACE_CHARDEV_H
#define _RINGTRACE_CHARDEV_H

int rt_chardev_register(void);
void rt_chardev_unregister(void);

#include <linux/compiler_types.h>
#include <linux/types.h>

/* An extensible ioctl structure's size field, checked (chardev.c). */
int rt_get_struct_size(const void __user *uarg, u32 min_size, u32 *usize);

#endif /* _RINGTRACE_CHARDEV_H */
