// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark floor: the cheapest thing a kprobe-based vfs_read latency
 * tracer could do. It takes a timestamp at entry and one at return and
 * keeps nothing but a per-CPU sum, so what it costs is the probe mechanism
 * itself. Two shapes:
 *
 *   split=1 (default)  a kprobe and a kretprobe, each taking a timestamp
 *                      (what ftrace's p:/r: pair and bpftrace use);
 *   split=0            one kretprobe whose entry handler takes the entry
 *                      timestamp (what ringtrace uses).
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/timekeeping.h>

static bool split = true;
module_param(split, bool, 0444);
MODULE_PARM_DESC(split, "kprobe + kretprobe (1) or one kretprobe with an entry handler (0)");

static DEFINE_PER_CPU(u64, floor_entry_ts);
static DEFINE_PER_CPU(u64, floor_sum_ns);

static int floor_kprobe_pre(struct kprobe *p, struct pt_regs *regs)
{
	this_cpu_write(floor_entry_ts, ktime_get_mono_fast_ns());
	return 0;
}

static int floor_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(u64 *)ri->data = ktime_get_mono_fast_ns();
	return 0;
}

static int floor_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	u64 now = ktime_get_mono_fast_ns();
	u64 start = split ? this_cpu_read(floor_entry_ts) : *(u64 *)ri->data;

	this_cpu_add(floor_sum_ns, now - start);
	return 0;
}

static struct kprobe floor_kprobe = {
	.symbol_name	= "vfs_read",
	.pre_handler	= floor_kprobe_pre,
};

static struct kretprobe floor_kretprobe = {
	.kp.symbol_name	= "vfs_read",
	.handler	= floor_return,
	.data_size	= sizeof(u64),
	.maxactive	= 256,
};

static int __init floor_init(void)
{
	int err;

	if (split) {
		err = register_kprobe(&floor_kprobe);
		if (err)
			return err;
	} else {
		floor_kretprobe.entry_handler = floor_entry;
	}
	err = register_kretprobe(&floor_kretprobe);
	if (err)
		goto err_kprobe;
	return 0;

err_kprobe:
	if (split)
		unregister_kprobe(&floor_kprobe);
	return err;
}

static void __exit floor_exit(void)
{
	u64 sum = 0;
	int cpu;

	unregister_kretprobe(&floor_kretprobe);
	if (split)
		unregister_kprobe(&floor_kprobe);
	for_each_possible_cpu(cpu)
		sum += per_cpu(floor_sum_ns, cpu);
	pr_info("%s: %llu ns inside vfs_read, %d missed\n",
		split ? "kprobe+kretprobe" : "kretprobe", sum,
		floor_kretprobe.nmissed);
}

module_init(floor_init);
module_exit(floor_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace benchmark floor: empty vfs_read probes taking timestamps");
