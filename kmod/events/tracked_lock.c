// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of tracked spinlocks (tracked_lock.h): every tracked lock in
 * the system, for the statistics table. Locks join on init or first use and
 * leave on destroy or when their module goes away. Readers walk the list
 * under RCU; writers take a raw spinlock that is a leaf (nothing is taken
 * under it), so registering on first use is safe in any context, even with
 * other tracked locks held.
 */
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/rculist.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "lock_events.h"
#include "tracked_lock.h"

static DEFINE_RAW_SPINLOCK(rt_lock_registry_lock);
static LIST_HEAD(rt_lock_registry);
static atomic64_t rt_lock_last_id = ATOMIC64_INIT(0);

/* Callers hold rt_lock_registry_lock. */
static void rt_lock_add(struct tracked_spinlock *l, struct module *owner)
{
	l->owner = owner;
	if (!l->name)
		l->name = "(unnamed)";
	list_add_tail_rcu(&l->node, &rt_lock_registry);
	/* Last: a non-zero id tells lockers the lock is registered. */
	WRITE_ONCE(l->id, atomic64_inc_return(&rt_lock_last_id));
}

void __tracked_spin_lock_init(struct tracked_spinlock *l, const char *name,
			      struct module *owner)
{
	unsigned long flags;

	/* The object may come from non-zeroed memory. */
	l->acquired_ns = 0;
	l->wait_ns = 0;
	l->contended = false;
	memset(&l->stats, 0, sizeof(l->stats));
	l->name = name;
	l->id = 0;

	raw_spin_lock_irqsave(&rt_lock_registry_lock, flags);
	rt_lock_add(l, owner);
	raw_spin_unlock_irqrestore(&rt_lock_registry_lock, flags);
}
EXPORT_SYMBOL_GPL(__tracked_spin_lock_init);

/*
 * A DEFINE_TRACKED_SPINLOCK() lock, zeroed by the loader, used for the
 * first time. @locker is the module whose code took it, which need not be
 * the one that defines it (an exported lock): a static lock belongs to
 * the module image it lives in, and leaves the registry with that module
 * (rt_lock_module_notify() finds it by address), so no owner is recorded.
 */
void __tracked_spin_lock_first_use(struct tracked_spinlock *l,
				   struct module *locker)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&rt_lock_registry_lock, flags);
	if (!l->id)	/* another CPU may have won the race */
		rt_lock_add(l, NULL);
	raw_spin_unlock_irqrestore(&rt_lock_registry_lock, flags);
}
EXPORT_SYMBOL_GPL(__tracked_spin_lock_first_use);

/* Callers hold rt_lock_registry_lock; @l is registered (id != 0). */
static void rt_lock_del(struct tracked_spinlock *l)
{
	list_del_rcu(&l->node);
	/* Registered again if it is used again (a static lock). */
	WRITE_ONCE(l->id, 0);
}

/*
 * May sleep: waits until no statistics reader, and no unlocker still
 * writing a record of @l (tracked_lock.h), can still see @l or its name.
 * The registry lock decides whether @l is still registered: its module's
 * unload notifier may have removed it already.
 */
void tracked_spin_lock_destroy(struct tracked_spinlock *l)
{
	unsigned long flags;

	might_sleep();
	raw_spin_lock_irqsave(&rt_lock_registry_lock, flags);
	if (l->id)
		rt_lock_del(l);
	raw_spin_unlock_irqrestore(&rt_lock_registry_lock, flags);
	/* Unconditional: an unlocker may still be writing a record. */
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(tracked_spin_lock_destroy);

/*
 * tracked_spin_trylock(): the arch trylock, annotated for lockdep as a
 * trylock (which records no lock order, rightly: it cannot deadlock), and
 * counted as an acquisition without waiting. Out of line: sparse cannot
 * follow a conditional acquire through an inline body.
 */
int __tracked_spin_trylock(struct tracked_spinlock *l)
{
	__tracked_spin_check_registered(l);
	preempt_disable();
	if (!arch_spin_trylock(&l->lock.raw_lock)) {
		preempt_enable();
		return 0;
	}
	spin_acquire(&l->lock.dep_map, 0, 1, _RET_IP_);
	mmiowb_spin_lock();
	__tracked_spin_free(l);
	l->acquired_ns = ktime_get_mono_fast_ns();
	WRITE_ONCE(l->stats.acquisitions, l->stats.acquisitions + 1);
	return 1;
}
EXPORT_SYMBOL_GPL(__tracked_spin_trylock);

/*
 * Visit every registered lock, under RCU: @fn must not sleep. Returns how
 * many locks were visited. @fn gets the lock's id as read here, once: a
 * lock rt_lock_del() took out of the list can still be reached by a
 * walker until the grace period ends, with its id already 0;
 * such a lock has left the registry and is skipped, and a lock read with
 * a non-zero id is reported under that id even if it leaves meanwhile.
 */
unsigned int rt_lock_for_each(rt_lock_visit_fn fn, void *arg)
{
	struct tracked_spinlock *l;
	unsigned int n = 0;
	u64 id;

	rcu_read_lock();
	list_for_each_entry_rcu(l, &rt_lock_registry, node) {
		id = READ_ONCE(l->id);
		if (!id)
			continue;
		fn(l, id, arg);
		n++;
	}
	rcu_read_unlock();
	return n;
}

/*
 * A module is going away: forget its locks, static ones (in its image) and
 * the ones it registered but did not destroy.
 */
static int rt_lock_module_notify(struct notifier_block *nb,
				 unsigned long state, void *data)
{
	struct tracked_spinlock *l, *tmp;
	struct module *mod = data;
	unsigned long flags;
	bool removed = false;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;

	raw_spin_lock_irqsave(&rt_lock_registry_lock, flags);
	list_for_each_entry_safe(l, tmp, &rt_lock_registry, node) {
		if (l->owner == mod || within_module((unsigned long)l, mod)) {
			rt_lock_del(l);
			removed = true;
		}
	}
	raw_spin_unlock_irqrestore(&rt_lock_registry_lock, flags);
	if (removed)
		synchronize_rcu();
	return NOTIFY_OK;
}

static struct notifier_block rt_lock_module_nb = {
	.notifier_call = rt_lock_module_notify,
};

int rt_lock_registry_init(void)
{
	return register_module_notifier(&rt_lock_module_nb);
}

void rt_lock_registry_exit(void)
{
	unregister_module_notifier(&rt_lock_module_nb);
}
