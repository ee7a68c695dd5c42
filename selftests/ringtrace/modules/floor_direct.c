// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark floor of the direct mechanism: ringtrace_direct.ko's
 * trampoline and attachment code (kmod/direct/direct_tramp_x86_64.S and
 * kmod/direct/direct_call.c, built into this module too, privately) with
 * handlers that only keep the entry timestamp in the call's slot and add
 * the latency to a per-CPU sum. What it costs is the direct mechanism
 * itself: the trampoline, the per-call count and the static calls into
 * the handlers that ringtrace.ko's records go through as well.
 * Unlike ringtrace_direct.ko it attaches from its init, so its exit waits
 * for calls sleeping in vfs_read to come back. Being a separate direct
 * user of vfs_read, it also stands for a BPF trampoline in the
 * attach_coexist selftest. Loading fails with ENODEV where the kernel has
 * no direct calls.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/timekeeping.h>

#include "direct/direct_call.h"

#ifdef RT_HAVE_DIRECT
static DEFINE_PER_CPU(u64, floor_sum_ns);

/* Preemption is off in both (direct_call.c). */
static bool notrace floor_enter(void *data, struct file *file, size_t count,
				loff_t *ppos)
{
	*(u64 *)data = ktime_get_mono_fast_ns();
	return true;
}

static void notrace floor_exit(void *data, long ret, unsigned long ret_ip)
{
	this_cpu_add(floor_sum_ns, ktime_get_mono_fast_ns() - *(u64 *)data);
}

static const struct rt_direct_handlers floor_handlers = {
	.enter	= floor_enter,
	.exit	= floor_exit,
};

static int __init floor_direct_init(void)
{
	return rt_direct_register(&floor_handlers, false);
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
