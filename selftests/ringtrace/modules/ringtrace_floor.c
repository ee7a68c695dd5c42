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
 *
 * funcs= lists the functions probed (default vfs_read). With split=0 each
 * gets its own kretprobe, as ringtrace's func events on the kretprobe
 * (kmod/attach/func.c): the hooks of a function graph, recording nothing.
 * split=1 keeps one entry timestamp per CPU, which nested calls would
 * overwrite, so it takes one function only.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#define FLOOR_MAX_FUNCS	8

static bool split = true;
module_param(split, bool, 0444);
MODULE_PARM_DESC(split, "kprobe + kretprobe (1) or one kretprobe with an entry handler (0)");

static char *funcs = "vfs_read";
module_param(funcs, charp, 0444);
MODULE_PARM_DESC(funcs, "functions to probe, comma-separated (more than one: split=0)");

static DEFINE_PER_CPU(u64, floor_entry_ts);
static DEFINE_PER_CPU(u64, floor_sum_ns);

/* funcs, cut at its commas: the probes' symbol names point into it. */
static char *floor_names;
static struct kretprobe floor_kretprobes[FLOOR_MAX_FUNCS];
static struct kretprobe *floor_rps[FLOOR_MAX_FUNCS];
static int floor_nr;

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
	.pre_handler	= floor_kprobe_pre,
};

static int floor_parse(void)
{
	char *p, *name;

	floor_names = kstrdup(funcs, GFP_KERNEL);
	if (!floor_names)
		return -ENOMEM;
	p = floor_names;
	while ((name = strsep(&p, ","))) {
		struct kretprobe *krp;

		if (!*name)
			continue;
		if (floor_nr == FLOOR_MAX_FUNCS)
			return -E2BIG;
		krp = &floor_kretprobes[floor_nr];
		krp->kp.symbol_name = name;
		krp->handler = floor_return;
		if (!split)
			krp->entry_handler = floor_entry;
		krp->data_size = sizeof(u64);
		krp->maxactive = 256;
		floor_rps[floor_nr++] = krp;
	}
	if (!floor_nr || (split && floor_nr > 1))
		return -EINVAL;
	return 0;
}

static int __init floor_init(void)
{
	int err;

	err = floor_parse();
	if (err)
		goto err_free;
	if (split) {
		floor_kprobe.symbol_name = floor_kretprobes[0].kp.symbol_name;
		err = register_kprobe(&floor_kprobe);
		if (err)
			goto err_free;
	}
	/* All or none: on failure it unregisters those it registered. */
	err = register_kretprobes(floor_rps, floor_nr);
	if (err)
		goto err_kprobe;
	return 0;

err_kprobe:
	if (split)
		unregister_kprobe(&floor_kprobe);
err_free:
	kfree(floor_names);
	return err;
}

static void __exit floor_exit(void)
{
	int cpu, i, missed = 0;
	u64 sum = 0;

	unregister_kretprobes(floor_rps, floor_nr);
	if (split)
		unregister_kprobe(&floor_kprobe);
	for_each_possible_cpu(cpu)
		sum += per_cpu(floor_sum_ns, cpu);
	for (i = 0; i < floor_nr; i++)
		missed += floor_kretprobes[i].nmissed;
	/* bench/vmbench.c reads the number after "ns inside ..., ". */
	if (floor_nr == 1)
		pr_info("%s: %llu ns inside %s, %d missed\n",
			split ? "kprobe+kretprobe" : "kretprobe", sum,
			floor_kretprobes[0].kp.symbol_name, missed);
	else
		pr_info("kretprobe: %llu ns inside %s and %d more functions, %d missed\n",
			sum, floor_kretprobes[0].kp.symbol_name, floor_nr - 1,
			missed);
	kfree(floor_names);
}

module_init(floor_init);
module_exit(floor_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace benchmark floor: empty probes taking timestamps");
