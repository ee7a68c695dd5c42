/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock records: written for tracked locks (tracked_lock.h) and for kernel
 * lock contention (probe_lock_contention.c), both in the same shape.
 */
#ifndef _RINGTRACE_LOCK_EVENTS_H
#define _RINGTRACE_LOCK_EVENTS_H

#include <linux/types.h>

struct tracked_spinlock;

/* Write one lock record to every session that wants it; any context. */
void rt_lock_emit(u64 ts, u64 lock_id, const char *name, u64 wait_ns,
		  u64 hold_ns, u32 flags);

/* Sessions asking for tracked-lock records come and go. */
void rt_lock_events_get(void);
void rt_lock_events_put(void);

/* The registry (tracked_lock.c). */
int rt_lock_registry_init(void);
void rt_lock_registry_exit(void);
/* @id: the lock's, read once by rt_lock_for_each(); never 0. */
typedef void (*rt_lock_visit_fn)(struct tracked_spinlock *l, u64 id,
				 void *arg);
unsigned int rt_lock_for_each(rt_lock_visit_fn fn, void *arg);

/* Kernel lock contention tracepoints (probe_lock_contention.c). */
bool rt_contention_available(void);
int rt_contention_get(void);
void rt_contention_put(void);
u64 rt_contention_missed(void);
int rt_contention_init(void);

#endif /* _RINGTRACE_LOCK_EVENTS_H */
