// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace: vfs_read and lock events in perf-style mmap rings on
 * /dev/ringtrace. See Documentation/index.rst.
 */
#include <linux/init.h>
#include <linux/log2.h>
#include <linux/module.h>

#include "chardev.h"
#include "ring.h"
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

	err = rt_chardev_register();
	if (err) {
		pr_err("cannot register /dev/%s: %d\n",
		       RINGTRACE_DEVICE_NAME, err);
		return err;
	}
	pr_info("version %s, ABI %d, /dev/%s\n", RINGTRACE_VERSION,
		RINGTRACE_ABI_VERSION, RINGTRACE_DEVICE_NAME);
	return 0;
}

static void __exit rt_exit(void)
{
	/*
	 * No session can exist: each open file pins the module. The probes
	 * were detached when the last session was disabled.
	 */
	rt_chardev_unregister();
}

module_init(rt_init);
module_exit(rt_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The ringtrace authors");
MODULE_DESCRIPTION("vfs_read and lock tracing into perf-style mmap rings");
MODULE_VERSION(RINGTRACE_VERSION);
