// SPDX-License-Identifier: GPL-2.0
/*
 * Test module A for tracked_lock_owner: defines and exports a static
 * tracked lock, "lockowner_shared", which it never takes itself, and
 * destroys it when it unloads (as a module may). Module B takes it first.
 */
#include <linux/module.h>

#include "ringtrace_lockowner.h"

/* DEFINE_TRACKED_SPINLOCK() spelt out: checkpatch pairs it with the export. */
struct tracked_spinlock lockowner_shared =
	__TRACKED_SPINLOCK_INITIALIZER(lockowner_shared, "lockowner_shared");
EXPORT_SYMBOL_GPL(lockowner_shared);

static int __init lockowner_a_init(void)
{
	return 0;
}

static void __exit lockowner_a_exit(void)
{
	tracked_spin_lock_destroy(&lockowner_shared);
}

module_init(lockowner_a_init);
module_exit(lockowner_a_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace test: a module exporting a static tracked lock");
