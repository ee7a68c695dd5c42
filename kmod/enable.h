/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RINGTRACE_ENABLE_H
#define _RINGTRACE_ENABLE_H

struct rt_session;

/* The list writers' lock, at load and unload (enable.c). */
void rt_enable_init(void);
void rt_enable_exit(void);

/* RINGTRACE_IOC_ENABLE and _DISABLE; DISABLE also before the last close. */
int rt_session_enable(struct rt_session *s);
int rt_session_disable(struct rt_session *s);

#endif /* _RINGTRACE_ENABLE_H */
