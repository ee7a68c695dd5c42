// SPDX-License-Identifier: GPL-2.0
/*
 * Test module B for tracked_lock_owner: takes module A's exported static
 * tracked lock once at load, so that the lock's first use, and so its
 * registration, happens in B's code.
 */
#include <linux/module.h>

#include "ringtrace_lockowner.h"

static int __init lockowner_b_init(void)
{
	tracked_spin_lock(&lockowner_shared);
	tracked_spin_unlock(&lockowner_shared);
	return 0;
}

static void __exit lockowner_b_exit(void)
{
}

module_init(lockowner_b_init);
module_exit(lockowner_b_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace test: takes another module's static tracked lock first");
