/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A per-CPU scratch buffer that exists while some session needs it:
 * allocated by the first rt_percpu_buf_get(), freed by the last put.
 * Probes use it with preemption disabled; a put comes after the session
 * was disabled (an RCU grace period), so no probe still uses it.
 */
#ifndef _RINGTRACE_PERCPU_BUF_H
#define _RINGTRACE_PERCPU_BUF_H

#include <linux/mutex.h>
#include <linux/types.h>

struct rt_percpu_buf {
	void __percpu	*ptr;		/* NULL while nobody needs it */
	size_t		size;		/* bytes per CPU */
	size_t		align;
	unsigned int	users;
	struct mutex	lock;		/* ptr, users */
};

#define RT_PERCPU_BUF_INIT(name, sz, al) {			\
	.size	= (sz),						\
	.align	= (al),						\
	.lock	= __MUTEX_INITIALIZER((name).lock),		\
}

int rt_percpu_buf_get(struct rt_percpu_buf *b);
void rt_percpu_buf_put(struct rt_percpu_buf *b);

#endif /* _RINGTRACE_PERCPU_BUF_H */
