// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_read through an fprobe: an ftrace callback at entry and a return
 * hook (rethook until 6.13, the function-graph shadow stack from 6.14)
 * that keeps the call's entry data per task, so a call that sleeps or
 * returns on another CPU still finds its own. Cheaper than the kretprobe:
 * no kprobe state to save and restore around the handlers. Where the
 * kernel has no fprobe (Debian 6.1), this mechanism is not available.
 */
#include <linux/preempt.h>
#include <linux/ringtrace.h>

#include "compat.h"
#include "vfs_read.h"

#ifdef RT_HAVE_FPROBE

static struct fprobe rt_fprobe;

static int rt_fprobe_entry(struct fprobe *fp, unsigned long entry_ip,
			   unsigned long ret_ip, rt_fprobe_regs *regs,
			   void *entry_data)
{
	/* Non-zero: no exit handler for this call. */
	return !rt_vfs_read_enter(entry_data,
			(struct file *)rt_fprobe_arg(regs, 0),
			rt_fprobe_arg(regs, 2),
			(loff_t *)rt_fprobe_arg(regs, 3));
}

static void rt_fprobe_exit(struct fprobe *fp, unsigned long entry_ip,
			   unsigned long ret_ip, rt_fprobe_regs *regs,
			   void *entry_data)
{
	/*
	 * The session walk is an RCU reader and the record goes to this
	 * CPU's ring: make sure of what the kretprobe handler gets for free,
	 * whichever return hook calls us.
	 */
	preempt_disable_notrace();
	rt_vfs_read_exit(entry_data, rt_fprobe_retval(regs), ret_ip);
	preempt_enable_notrace();
}

static bool rt_fprobe_available(void)
{
	return true;
}

static int rt_fprobe_attach(unsigned int maxactive)
{
	static const char *const syms[] = { "vfs_read" };

	BUILD_BUG_ON(sizeof(struct rt_vfs_read_call) > RT_FPROBE_DATA_MAX);
	rt_fprobe = (struct fprobe) {
		.entry_handler		= rt_fprobe_entry,
		.exit_handler		= rt_fprobe_exit,
		.entry_data_size	= sizeof(struct rt_vfs_read_call),
	};
	rt_fprobe_set_maxactive(&rt_fprobe, maxactive);
	return register_fprobe_syms(&rt_fprobe, (const char **)syms, 1);
}

/*
 * unregister_fprobe() waits until no handler runs; a call still inside
 * vfs_read then returns past the hook without calling us.
 */
static void rt_fprobe_detach(void)
{
	unregister_fprobe(&rt_fprobe);
}

static u64 rt_fprobe_missed(void)
{
	return READ_ONCE(rt_fprobe.nmissed);
}

#else /* !RT_HAVE_FPROBE */

static bool rt_fprobe_available(void)
{
	return false;
}

static int rt_fprobe_attach(unsigned int maxactive)
{
	return -EOPNOTSUPP;
}

static void rt_fprobe_detach(void)
{
}

static u64 rt_fprobe_missed(void)
{
	return 0;
}

#endif /* RT_HAVE_FPROBE */

const struct rt_attach_ops rt_attach_fprobe = {
	.name		= "fprobe",
	.id		= RINGTRACE_ATTACH_FPROBE,
	.available	= rt_fprobe_available,
	.attach		= rt_fprobe_attach,
	.detach		= rt_fprobe_detach,
	.missed		= rt_fprobe_missed,
};
