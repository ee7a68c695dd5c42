// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for the expected-splat test lockdep_abba (debug kernel):
 * takes two locks in one order, then in the other, once each and
 * uncontended, at load time. Lockdep must report the AB-BA inversion for
 * tracked spinlocks (plain=0) exactly as it does for plain raw spinlocks
 * (plain=1). Before tracked locks annotated a real acquisition (their
 * fast path was a trylock, for which lockdep records no order) only the
 * raw pair was reported. Load it only in a VM booted for this one test:
 * lockdep stops checking after its first report.
 */
#include <linux/module.h>
#include <linux/spinlock.h>

#include "events/tracked_lock.h"

static bool plain;
module_param(plain, bool, 0444);
MODULE_PARM_DESC(plain, "use raw_spinlock_t instead of tracked spinlocks");

static DEFINE_TRACKED_SPINLOCK(abba_tracked_a, "abba_tracked_a");
static DEFINE_TRACKED_SPINLOCK(abba_tracked_b, "abba_tracked_b");
static DEFINE_RAW_SPINLOCK(abba_raw_a);
static DEFINE_RAW_SPINLOCK(abba_raw_b);

static void abba_tracked(struct tracked_spinlock *x, struct tracked_spinlock *y)
{
	tracked_spin_lock(x);
	tracked_spin_lock(y);
	tracked_spin_unlock(y);
	tracked_spin_unlock(x);
}

static void abba_raw(raw_spinlock_t *x, raw_spinlock_t *y)
{
	raw_spin_lock(x);
	raw_spin_lock(y);
	raw_spin_unlock(y);
	raw_spin_unlock(x);
}

static int __init abba_init(void)
{
	if (plain) {
		abba_raw(&abba_raw_a, &abba_raw_b);
		abba_raw(&abba_raw_b, &abba_raw_a);
	} else {
		abba_tracked(&abba_tracked_a, &abba_tracked_b);
		abba_tracked(&abba_tracked_b, &abba_tracked_a);
	}
	return 0;
}

static void __exit abba_exit(void)
{
}

module_init(abba_init);
module_exit(abba_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace test: an AB-BA lock order for lockdep to report");
