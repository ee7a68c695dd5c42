/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RINGTRACE_CHARDEV_H
#define _RINGTRACE_CHARDEV_H

#define RINGTRACE_VERSION	"0.1.0"

int rt_chardev_register(void);
void rt_chardev_unregister(void);

#endif /* _RINGTRACE_CHARDEV_H */
