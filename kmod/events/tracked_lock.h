/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracked spinlocks: spinlocks that measure themselves.
 *
 * A tracked spinlock is a raw_spinlock_t plus its own statistics
 * (acquisitions, contended acquisitions, total and longest wait, total and
 * longest hold) and a name. ringtrace lists every tracked lock in the
 * system (ringtrace-lockstat, /sys/kernel/debug/ringtrace/lock_stat) and,
 * while a session asks for RINGTRACE_EVENT_LOCK, writes one "lock" record
 * per acquisition (or per acquisition over the session's thresholds).
 *
 * It wraps raw_spinlock_t, not spinlock_t, so it means the same thing on
 * every kernel: a true spinning lock, usable in any context, hard
 * interrupts included, and on PREEMPT_RT too (where spinlock_t becomes a
 * sleeping rt_mutex). Keep tracked critical sections short, as for any raw
 * spinlock; on PREEMPT_RT they add to scheduling latency.
 *
 * Statistics are updated by the lock holder, under the lock itself: no
 * other lock, no atomic operation on the fast path. The cost is one clock
 * read per uncontended acquisition, two per contended one, one per release.
 *
 * Example, in another module (built against this header and ringtrace.ko's
 * Module.symvers, see Documentation/tracked-locks.rst):
 *
 *	static DEFINE_TRACKED_SPINLOCK(my_lock, "my_driver_queue");
 *
 *	tracked_spin_lock(&my_lock);
 *	... short critical section ...
 *	tracked_spin_unlock(&my_lock);
 *
 * Locks inside objects: tracked_spin_lock_init(&obj->lock, "obj") after
 * allocation and tracked_spin_lock_destroy(&obj->lock) before freeing (it
 * may sleep). Locks of a module are forgotten when the module unloads.
 */
#ifndef _RINGTRACE_TRACKED_LOCK_H
#define _RINGTRACE_TRACKED_LOCK_H

#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

#include "lib/compat.h"

struct module;

#define TRACKED_LOCK_NAME_LEN	32	/* RINGTRACE_LOCK_NAME_LEN */

struct tracked_lock_stats {
	u64	acquisitions;
	u64	contended;
	u64	wait_total_ns;
	u64	wait_max_ns;
	u64	hold_total_ns;
	u64	hold_max_ns;
};

struct tracked_spinlock {
	raw_spinlock_t		lock;
	/* The current holder's acquisition, written under the lock. */
	u64			acquired_ns;
	u64			wait_ns;
	bool			contended;
	struct tracked_lock_stats stats;	/* written under the lock */

	const char		*name;
	u64			id;		/* 0 until registered */
	struct module		*owner;
	struct list_head	node;		/* on the registry */
};

/* What an unlock hands to the record writer, copied while still locked. */
struct tracked_lock_sample {
	u64		released_ns;
	u64		wait_ns;
	u64		hold_ns;
	u64		id;
	const char	*name;
	bool		contended;
};

/* Exported by ringtrace.ko. */
extern int tracked_lock_events_users;
void __tracked_spin_lock_init(struct tracked_spinlock *l, const char *name,
			      struct module *owner);
void __tracked_spin_lock_first_use(struct tracked_spinlock *l,
				   struct module *owner);
void tracked_spin_lock_destroy(struct tracked_spinlock *l);
void __tracked_lock_emit(const struct tracked_lock_sample *s);
int __tracked_spin_trylock(struct tracked_spinlock *l);

#define __TRACKED_SPINLOCK_INITIALIZER(var, lockname) {			\
	.lock	= __RAW_SPIN_LOCK_UNLOCKED(var.lock),			\
	.name	= lockname,						\
	.node	= LIST_HEAD_INIT(var.node),				\
}

/* A static tracked lock; it joins the registry on first use. */
#define DEFINE_TRACKED_SPINLOCK(var, lockname)				\
	struct tracked_spinlock var =					\
		__TRACKED_SPINLOCK_INITIALIZER(var, lockname)

/* One lockdep class per call site, like raw_spin_lock_init(). */
#define tracked_spin_lock_init(l, lockname)				\
do {									\
	raw_spin_lock_init(&(l)->lock);					\
	__tracked_spin_lock_init(l, lockname, THIS_MODULE);		\
} while (0)

/* Just acquired after waiting @wait ns: the contention statistics. */
static __always_inline void __tracked_spin_waited(struct tracked_spinlock *l,
						  u64 wait)
{
	struct tracked_lock_stats *st = &l->stats;

	l->wait_ns = wait;
	l->contended = true;
	/* WRITE_ONCE: the statistics table reads them without the lock. */
	WRITE_ONCE(st->contended, st->contended + 1);
	WRITE_ONCE(st->wait_total_ns, st->wait_total_ns + wait);
	if (wait > st->wait_max_ns)
		WRITE_ONCE(st->wait_max_ns, wait);
}

/* Just acquired without waiting. */
static __always_inline void __tracked_spin_free(struct tracked_spinlock *l)
{
	l->wait_ns = 0;
	l->contended = false;
}

static __always_inline void __tracked_spin_check_registered(struct tracked_spinlock *l)
{
	if (unlikely(!READ_ONCE(l->id)))
		__tracked_spin_lock_first_use(l, THIS_MODULE);
}

/*
 * The raw spinlock is taken at the arch level, with the lockdep and
 * lock-stat annotations __raw_spin_lock() makes under CONFIG_LOCK_STAT
 * (LOCK_CONTENDED()): lockdep is told of a blocking acquisition before
 * the trylock, so it records the lock order and the IRQ usage even when
 * the lock was free. raw_spin_trylock() would have told it of a trylock,
 * for which it records neither; raw_spin_trylock() followed by
 * raw_spin_lock() cannot be used either, as do_raw_spin_lock() is not
 * exported under CONFIG_DEBUG_SPINLOCK. Every tracked acquisition and
 * release goes through these two, so the arch lock is always paired.
 */
static __always_inline void __tracked_spin_acquire(struct tracked_spinlock *l)
	__acquires(&l->lock)
{
	u64 start, now;

	__tracked_spin_check_registered(l);
	preempt_disable();
	spin_acquire(&l->lock.dep_map, 0, 0, _RET_IP_);
	/*
	 * The accounting sits inside each branch: sparse cannot follow a
	 * branch on a flag set by a trylock.
	 */
	if (arch_spin_trylock(&l->lock.raw_lock)) {
		now = ktime_get_mono_fast_ns();
		__tracked_spin_free(l);
	} else {
		lock_contended(&l->lock.dep_map, _RET_IP_);
		start = ktime_get_mono_fast_ns();
		arch_spin_lock(&l->lock.raw_lock);
		now = ktime_get_mono_fast_ns();
		__tracked_spin_waited(l, now - start);
	}
	lock_acquired(&l->lock.dep_map, _RET_IP_);
	mmiowb_spin_lock();
	__acquire(&l->lock);
	l->acquired_ns = now;
	WRITE_ONCE(l->stats.acquisitions, l->stats.acquisitions + 1);
}

/*
 * Unlock, leaving preemption disabled: the caller writes the record, if
 * any, then enables it. So a record's name is read inside the RCU-sched
 * section that tracked_spin_lock_destroy() waits for: the lock (and its
 * name) can be freed as soon as destroy returns, even if the last unlocker
 * has not finished its record yet.
 */
static __always_inline void __tracked_spin_release(struct tracked_spinlock *l)
	__releases(&l->lock)
{
	spin_release(&l->lock.dep_map, _RET_IP_);
	mmiowb_spin_unlock();
	arch_spin_unlock(&l->lock.raw_lock);
	__release(&l->lock);
}

/* Still locked: account the hold and take what a record needs. */
static __always_inline bool __tracked_spin_releasing(struct tracked_spinlock *l,
						     struct tracked_lock_sample *s)
{
	struct tracked_lock_stats *st = &l->stats;
	u64 now = ktime_get_mono_fast_ns();
	u64 hold = now - l->acquired_ns;

	WRITE_ONCE(st->hold_total_ns, st->hold_total_ns + hold);
	if (hold > st->hold_max_ns)
		WRITE_ONCE(st->hold_max_ns, hold);
	if (likely(!READ_ONCE(tracked_lock_events_users)))
		return false;
	s->released_ns = now;
	s->wait_ns = l->wait_ns;
	s->hold_ns = hold;
	s->id = l->id;
	s->name = l->name;
	s->contended = l->contended;
	return true;
}

static inline void tracked_spin_lock(struct tracked_spinlock *l)
	__acquires(&l->lock)
{
	__tracked_spin_acquire(l);
}

/*
 * Non-zero if it took the lock (out of line, tracked_lock.c). A macro
 * around __cond_lock() so that sparse sees its conditional acquire, as
 * for spin_trylock().
 */
#define tracked_spin_trylock(l)						\
	__cond_lock(&(l)->lock, __tracked_spin_trylock(l))

static inline void tracked_spin_unlock(struct tracked_spinlock *l)
	__releases(&l->lock)
{
	struct tracked_lock_sample s;
	bool emit = __tracked_spin_releasing(l, &s);

	__tracked_spin_release(l);
	if (unlikely(emit))
		__tracked_lock_emit(&s);
	preempt_enable();
}

#define tracked_spin_lock_irqsave(l, flags)				\
do {									\
	local_irq_save(flags);						\
	__tracked_spin_acquire(l);					\
} while (0)

static inline void tracked_spin_unlock_irqrestore(struct tracked_spinlock *l,
						  unsigned long flags)
	__releases(&l->lock)
{
	struct tracked_lock_sample s;
	bool emit = __tracked_spin_releasing(l, &s);

	__tracked_spin_release(l);
	local_irq_restore(flags);
	if (unlikely(emit))
		__tracked_lock_emit(&s);
	preempt_enable();
}

static inline void tracked_spin_lock_irq(struct tracked_spinlock *l)
	__acquires(&l->lock)
{
	local_irq_disable();
	__tracked_spin_acquire(l);
}

static inline void tracked_spin_unlock_irq(struct tracked_spinlock *l)
	__releases(&l->lock)
{
	struct tracked_lock_sample s;
	bool emit = __tracked_spin_releasing(l, &s);

	__tracked_spin_release(l);
	local_irq_enable();
	if (unlikely(emit))
		__tracked_lock_emit(&s);
	preempt_enable();
}

#endif /* _RINGTRACE_TRACKED_LOCK_H */
