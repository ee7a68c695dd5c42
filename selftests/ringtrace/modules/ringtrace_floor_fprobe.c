// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark floor of the fprobe mechanism: one fprobe on vfs_read whose
 * entry handler keeps the entry timestamp in the call's entry data and
 * whose exit handler adds the latency to a per-CPU sum. What it costs is
 * the fprobe mechanism itself, the same hooks ringtrace's fprobe attach
 * uses (kmod/attach/fprobe.c). Loading fails with ENODEV on a kernel
 * without fprobe.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/timekeeping.h>

#include "lib/compat.h"

#ifdef RT_HAVE_FPROBE
static DEFINE_PER_CPU(u64, floor_sum_ns);

static int floor_entry(struct fprobe *fp, unsigned long entry_ip,
		       unsigned long ret_ip, rt_fprobe_regs *regs, void *data)
{
	*(u64 *)data = ktime_get_mono_fast_ns();
	return 0;
}

static void floor_exit(struct fprobe *fp, unsigned long entry_ip,
		       unsigned long ret_ip, rt_fprobe_regs *regs, void *data)
{
	u64 now = ktime_get_mono_fast_ns();

	/* Like attach_fprobe.c, whichever return hook calls us. */
	preempt_disable_notrace();
	this_cpu_add(floor_sum_ns, now - *(u64 *)data);
	preempt_enable_notrace();
}

static struct fprobe floor_fprobe = {
	.entry_handler		= floor_entry,
	.exit_handler		= floor_exit,
	.entry_data_size	= sizeof(u64),
};

static int __init floor_fprobe_init(void)
{
	static const char *const syms[] = { "vfs_read" };

	rt_fprobe_set_maxactive(&floor_fprobe, 256);
	return register_fprobe_syms(&floor_fprobe, (const char **)syms, 1);
}

static void __exit floor_fprobe_exit(void)
{
	u64 sum = 0;
	int cpu;

	unregister_fprobe(&floor_fprobe);
	for_each_possible_cpu(cpu)
		sum += per_cpu(floor_sum_ns, cpu);
	pr_info("fprobe: %llu ns inside vfs_read, %lu missed\n", sum,
		floor_fprobe.nmissed);
}
#else
static int __init floor_fprobe_init(void)
{
	return -ENODEV;
}

static void __exit floor_fprobe_exit(void)
{
}
#endif

module_init(floor_fprobe_init);
module_exit(floor_fprobe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace benchmark floor: an empty fprobe on vfs_read taking timestamps");
