/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock records: written for tracked locks (tracked_lock.h) and for kernel
 * lock contention (contention.c), both in the same shape.
 */
#ifndef _RINGTRACE_LOCK_EVENTS_H
#define _RINGTRACE_LOCK_EVENTS_H

#include <linux/types.h>

struct rt_producer;
struct tracked_spinlock;

/* Write one lock record to every session that wants it; any context. */
void rt_lock_emit(u64 ts, u64 lock_id, const char *name, u64 wait_ns,
		  u64 hold_ns, u32 flags);

/*
 * The producers of lock records (session/producer.h): tracked locks, whose
 * unlocks call us while a session listens, and the contention
 * tracepoints, attached while one does.
 */
extern struct rt_producer rt_lock_producer;
extern struct rt_producer rt_contention_producer;

/* The registry (tracked_lock.c). */
int rt_lock_registry_init(void);
void rt_lock_registry_exit(void);
/* @id: the lock's, read once by rt_lock_for_each(); never 0. */
typedef void (*rt_lock_visit_fn)(struct tracked_spinlock *l, u64 id,
				 void *arg);
unsigned int rt_lock_for_each(rt_lock_visit_fn fn, void *arg);

/* Kernel lock contention tracepoints (contention.c), found at load. */
int rt_contention_init(void);

#endif /* _RINGTRACE_LOCK_EVENTS_H */
