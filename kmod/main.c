// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace: vfs_read and lock events in perf-style mmap rings on
 * /dev/ringtrace. See Documentation/index.rst.
 */
#include <linux/init.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/ringtrace.h>

#include "attach/attach.h"
#include "chardev.h"
#include "enable.h"
#include "events/lock_events.h"
#include "events/inread.h"
#include "events/offcpu.h"
#include "lib/version.h"
#include "lock_stats.h"
#include "mmap.h"
#include "session/producer.h"

/*
 * The producers, in the order a session gets them (and puts them back in
 * reverse): vfs_read is attached before sched_switch is followed, so that
 * its calls find the off-CPU table once it is published; tracked locks,
 * which cannot fail, last.
 */
static struct rt_producer *const rt_producers_all[] = {
	&rt_vfs_read_producer,
	&rt_contention_producer,
	&rt_offcpu_producer,
	&rt_lock_producer,
	&rt_func_producer,
};

static void rt_producers_unregister(void)
{
	int i;

	for (i = ARRAY_SIZE(rt_producers_all) - 1; i >= 0; i--)
		rt_producer_unregister(rt_producers_all[i]);
}

static int __init rt_init(void)
{
	int err, i;

	if (!is_power_of_2(rt_max_ring_pages)) {
		pr_err("max_ring_pages must be a power of two, not %u\n",
		       rt_max_ring_pages);
		return -EINVAL;
	}

	err = rt_lock_registry_init();
	if (err)
		return err;
	rt_contention_init();
	rt_offcpu_init();
	rt_inread_init();
	rt_enable_init();
	for (i = 0; i < ARRAY_SIZE(rt_producers_all); i++)
		rt_producer_register(rt_producers_all[i]);

	err = rt_chardev_register();
	if (err) {
		pr_err("cannot register /dev/%s: %d\n",
		       RINGTRACE_DEVICE_NAME, err);
		goto err_producers;
	}
	rt_lock_stats_debugfs_init();
	pr_info("version %s, ABI %d, /dev/%s\n", RINGTRACE_VERSION,
		RINGTRACE_ABI_VERSION, RINGTRACE_DEVICE_NAME);
	return 0;

err_producers:
	rt_producers_unregister();
	rt_enable_exit();
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
	rt_producers_unregister();
	rt_enable_exit();
	rt_lock_registry_exit();
}

module_init(rt_init);
module_exit(rt_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The ringtrace authors");
MODULE_DESCRIPTION("vfs_read and lock tracing into perf-style mmap rings");
MODULE_VERSION(RINGTRACE_VERSION);
/* modprobe loads the direct-call trampoline first (attach/direct.c). */
MODULE_SOFTDEP("pre: ringtrace_direct");
