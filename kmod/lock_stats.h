/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RINGTRACE_LOCK_STATS_H
#define _RINGTRACE_LOCK_STATS_H

#include <linux/compiler_types.h>

long rt_ioctl_lock_stats(void __user *uarg);
void rt_lock_stats_debugfs_init(void);
void rt_lock_stats_debugfs_exit(void);

#endif /* _RINGTRACE_LOCK_STATS_H */
