// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark floor of the fprobe mechanism: one fprobe on vfs_read whose
 * entry handler keeps the entry timestamp in the call's entry data and
 * whose exit handler adds the latency to a per-CPU sum. What it costs is
 * the fprobe mechanism itself, the same hooks ringtrace's fprobe attach
 * uses (kmod/attach/fprobe.c). Loading fails with ENODEV on a kernel
 * without fprobe.
 *
 * funcs= lists the functions the fprobe hooks (default vfs_read): with
 * vfs_read's callees, the hooks of a function graph, recording nothing.
 */
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "lib/compat.h"

#define FLOOR_MAX_FUNCS	8

static char *funcs = "vfs_read";
module_param(funcs, charp, 0444);
MODULE_PARM_DESC(funcs, "functions to hook, comma-separated");

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

/*
 * funcs, cut at its commas: syms point into it. register_fprobe_syms()
 * sorts syms, so the first name given is kept apart for the exit line.
 */
static char *floor_names;
static const char *floor_syms[FLOOR_MAX_FUNCS];
static const char *floor_first;
static int floor_nr;

static int __init floor_fprobe_init(void)
{
	char *p, *name;
	int err;

	floor_names = kstrdup(funcs, GFP_KERNEL);
	if (!floor_names)
		return -ENOMEM;
	p = floor_names;
	err = -EINVAL;
	while ((name = strsep(&p, ","))) {
		if (!*name)
			continue;
		if (floor_nr == FLOOR_MAX_FUNCS) {
			err = -E2BIG;
			goto err_free;
		}
		floor_syms[floor_nr++] = name;
	}
	if (!floor_nr)
		goto err_free;
	floor_first = floor_syms[0];
	rt_fprobe_set_maxactive(&floor_fprobe, 256);
	err = register_fprobe_syms(&floor_fprobe, floor_syms, floor_nr);
	if (err)
		goto err_free;
	return 0;

err_free:
	kfree(floor_names);
	return err;
}

static void __exit floor_fprobe_exit(void)
{
	u64 sum = 0;
	int cpu;

	unregister_fprobe(&floor_fprobe);
	for_each_possible_cpu(cpu)
		sum += per_cpu(floor_sum_ns, cpu);
	/* bench/vmbench.c reads the number after "ns inside ..., ". */
	if (floor_nr == 1)
		pr_info("fprobe: %llu ns inside %s, %lu missed\n", sum,
			floor_first, floor_fprobe.nmissed);
	else
		pr_info("fprobe: %llu ns inside %s and %d more functions, %lu missed\n",
			sum, floor_first, floor_nr - 1, floor_fprobe.nmissed);
	kfree(floor_names);
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
MODULE_DESCRIPTION("ringtrace benchmark floor: an empty fprobe taking timestamps");
