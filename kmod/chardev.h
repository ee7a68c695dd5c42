/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RINGTRACE_CHARDEV_H
#define _RINGTRACE_CHARDEV_H

/* /dev/ringtrace, at load and unload (chardev.c). */
int rt_chardev_register(void);
void rt_chardev_unregister(void);

#endif /* _RINGTRACE_CHARDEV_H */
