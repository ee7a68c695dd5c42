// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace: vfs_read and lock events in perf-style mmap rings on
 * /dev/ringtrace. See Documentation/index.rst.
 */
#include <linux/init.h>
#include <linux/log2.h>
#include <linux/module.h>

#include "chardev.h"
#include "events/lock_events.h"
#include "events/offcpu.h"
#include "lib/version.h"
#include "lock_stats.h"
#include "ring/ring.h"
#include "session/session.h"
#include <linux/ringtrace.h>

unsigned int rt_max_ring_pages = 16384;	/* 64 MiB with 4 KiB pages */
module_param_named(max_ring_pages, rt_max_ring_pages, uint, 0444);
MODULE_PARM_DESC(max_ring_pages,
		 "Largest ring a mapping may ask for, in data pages (a power of two)");

static int __init rt_init(void)
{
	int err;

	if (!is_power_of_2(rt_max_ring_pages)) {
		pr_err("max_ring_pages must be a power of two, not %u\n",
		       rt_max_ring_pages);
		return -EINVAL;
	}

	err = rt_lock_registry_init();
	if (err)
		return err;
	rt_contention_init();
	rt_offcpu_init();	/* issue 22 */
	rt_session_list_init();

	err = rt_chardev_register();
	if (err) {
		pr_err("cannot register /dev/%s: %d\n",
		       RINGTRACE_DEVICE_NAME, err);
		goto err_sessions;
	}
	rt_lock_stats_debugfs_init();
	pr_info("version %s, ABI %d, /dev/%s\n", RINGTRACE_VERSION,
		RINGTRACE_ABI_VERSION, RINGTRACE_DEVICE_NAME);
	return 0;

err_sessions:
	rt_session_list_exit();
	rt_lock_registry_exit();
	return err;
}

static void __exit rt_exit(void)
{
	/*
	 * No session can exist: each open file pins the module. The probes
	 * were detached when the last session was disabled.
	 */
	rt_lock_stats_debugfs_exit();
	rt_chardev_unregister();
	rt_session_list_exit();
	rt_lock_registry_exit();
}

module_init(rt_init);
module_exit(rt_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The ringtrace authors");
MODULE_DESCRIPTION("vfs_read and lock tracing into perf-style mmap rings");
MODULE_VERSION(RINGTRACE_VERSION);
/* modprobe loads the direct-call trampoline first (attach_direct.c). */
MODULE_SOFTDEP("pre: ringtrace_direct");
