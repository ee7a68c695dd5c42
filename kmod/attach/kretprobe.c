// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_read through a kretprobe: available on every kernel. The entry
 * handler runs from the kprobe (an ftrace callback where the kernel has
 * KPROBES_ON_FTRACE, an int3 otherwise); the instance holds the call's
 * data until the return trampoline, whichever CPU the call returns on.
 */
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/ringtrace.h>

#include "attach.h"
#include "events/vfs_read.h"

static struct kretprobe rt_kretprobe;

static int rt_kretprobe_entry(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct rt_vfs_read_call *call = (struct rt_vfs_read_call *)ri->data;

	/* Non-zero: no return probe for this call. */
	return !rt_vfs_read_enter(call,
			(struct file *)regs_get_kernel_argument(regs, 0),
			regs_get_kernel_argument(regs, 2),
			(loff_t *)regs_get_kernel_argument(regs, 3));
}

/*
 * Kretprobe handlers run with preemption disabled; regs->ip is already
 * the real return address.
 */
static int rt_kretprobe_return(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	rt_vfs_read_exit((const struct rt_vfs_read_call *)ri->data,
			 regs_return_value(regs), instruction_pointer(regs));
	return 0;
}

static bool rt_kretprobe_available(void)
{
	return true;
}

static int rt_kretprobe_attach(unsigned int maxactive)
{
	/* register_kretprobe() fills in kp; start from scratch. */
	rt_kretprobe = (struct kretprobe) {
		.kp.symbol_name	= "vfs_read",
		.entry_handler	= rt_kretprobe_entry,
		.handler	= rt_kretprobe_return,
		.data_size	= sizeof(struct rt_vfs_read_call),
		.maxactive	= maxactive,
	};
	return register_kretprobe(&rt_kretprobe);
}

/* Returns after every handler finished (it waits for an RCU grace period). */
static void rt_kretprobe_detach(void)
{
	unregister_kretprobe(&rt_kretprobe);
}

static u64 rt_kretprobe_missed(void)
{
	return READ_ONCE(rt_kretprobe.nmissed) +
	       READ_ONCE(rt_kretprobe.kp.nmissed);
}

const struct rt_attach_ops rt_attach_kretprobe = {
	.name		= "kretprobe",
	.id		= RINGTRACE_ATTACH_KRETPROBE,
	.available	= rt_kretprobe_available,
	.attach		= rt_kretprobe_attach,
	.detach		= rt_kretprobe_detach,
	.missed		= rt_kretprobe_missed,
};
