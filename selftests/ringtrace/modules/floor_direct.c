// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark floor of the direct mechanism: ringtrace's own trampoline
 * and attachment code (kmod/direct_tramp_x86_64.S, kmod/direct_call.c,
 * built into this module too) with handlers that only keep the entry
 * timestamp in the call's slot and add the latency to a per-CPU sum.
 * What it costs is the direct mechanism itself, with the per-call
 * reference ringtrace takes. Unlike ringtrace.ko it attaches from its
 * init, so its exit waits for calls sleeping in vfs_read to come back.
 * Loading fails with ENODEV where the kernel has no direct calls.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/timekeeping.h>

#include "direct_call.h"

#ifdef RT_HAVE_DIRECT
static DEFINE_PER_CPU(u64, floor_sum_ns);

struct floor_call {
	u64			ts;
	struct rt_direct_att	*att;
};

bool notrace rt_direct_enter(struct rt_direct_slot *slot, struct file *file,
			     size_t count, loff_t *ppos)
{
	struct floor_call *c = (struct floor_call *)slot;

	BUILD_BUG_ON(sizeof(*c) > sizeof(*slot));
	preempt_disable_notrace();
	c->att = rt_direct_get();
	preempt_enable_notrace();
	if (!c->att)
		return false;
	c->ts = ktime_get_mono_fast_ns();
	return true;
}

void notrace rt_direct_exit(struct rt_direct_slot *slot, long ret,
			    unsigned long ret_ip)
{
	struct floor_call *c = (struct floor_call *)slot;
	u64 now = ktime_get_mono_fast_ns();

	preempt_disable_notrace();
	this_cpu_add(floor_sum_ns, now - c->ts);
	preempt_enable_notrace();
	rt_direct_put(c->att);
}

static int __init floor_direct_init(void)
{
	return rt_direct_register(false);
}

static void __exit floor_direct_exit(void)
{
	u64 sum = 0;
	int cpu;

	rt_direct_unregister(true);
	rt_direct_module_exit();
	for_each_possible_cpu(cpu)
		sum += per_cpu(floor_sum_ns, cpu);
	pr_info("direct: %llu ns inside vfs_read\n", sum);
}
#else
static int __init floor_direct_init(void)
{
	return -ENODEV;
}

static void __exit floor_direct_exit(void)
{
}
#endif

module_init(floor_direct_init);
module_exit(floor_direct_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace benchmark floor: ringtrace's direct-call trampoline on vfs_read taking timestamps");
