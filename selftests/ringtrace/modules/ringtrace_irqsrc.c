// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for nested_writers: records written from hard interrupt
 * context. A pinned hard-IRQ hrtimer takes and releases a tracked lock,
 * "irqsrc_lock", on every expiry, so every expiry writes one lock record
 * while the interrupted task may be halfway through writing its own: the
 * ring's nested-writer path.
 *
 *   echo N > /sys/kernel/debug/ringtrace_irqsrc/run
 *
 * fires the timer N times every period_us on the CPU the writer runs on,
 * and returns when it is done (N acquisitions of irqsrc_lock).
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>

#include "compat.h"
#include "tracked_lock.h"

static unsigned int period_us = 20;
module_param(period_us, uint, 0644);
MODULE_PARM_DESC(period_us, "timer period, microseconds");

static DEFINE_TRACKED_SPINLOCK(irqsrc_lock, "irqsrc_lock");
static DEFINE_MUTEX(irqsrc_mutex);
static struct hrtimer irqsrc_timer;
static DECLARE_COMPLETION(irqsrc_done);
static unsigned int irqsrc_left;
static struct dentry *irqsrc_dir;

static enum hrtimer_restart irqsrc_fire(struct hrtimer *t)
{
	tracked_spin_lock(&irqsrc_lock);
	tracked_spin_unlock(&irqsrc_lock);
	if (--irqsrc_left == 0) {
		complete(&irqsrc_done);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(t, ns_to_ktime(max(READ_ONCE(period_us), 1U) * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static ssize_t irqsrc_run_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	unsigned int n;
	int err;

	err = kstrtouint_from_user(buf, count, 0, &n);
	if (err)
		return err;
	if (!n)
		return count;
	mutex_lock(&irqsrc_mutex);
	reinit_completion(&irqsrc_done);
	irqsrc_left = n;
	/* PINNED: on this CPU, where the test's workload runs too. */
	hrtimer_start(&irqsrc_timer, ns_to_ktime(READ_ONCE(period_us) * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	wait_for_completion(&irqsrc_done);
	mutex_unlock(&irqsrc_mutex);
	return count;
}

static const struct file_operations irqsrc_run_fops = {
	.owner	= THIS_MODULE,
	.write	= irqsrc_run_write,
	.llseek	= noop_llseek,
};

static int __init irqsrc_init(void)
{
	rt_hrtimer_setup(&irqsrc_timer, irqsrc_fire, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL_PINNED_HARD);
	irqsrc_dir = debugfs_create_dir("ringtrace_irqsrc", NULL);
	debugfs_create_file("run", 0200, irqsrc_dir, NULL, &irqsrc_run_fops);
	return 0;
}

static void __exit irqsrc_exit(void)
{
	debugfs_remove_recursive(irqsrc_dir);
	hrtimer_cancel(&irqsrc_timer);
}

module_init(irqsrc_init);
module_exit(irqsrc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace test: tracked-lock records from hard interrupts");
