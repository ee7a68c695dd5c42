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
 *
 * For irq_lock_names: kernel lock contention in hard-IRQ and task context
 * on one CPU at once (not on PREEMPT_RT, where rwlock_t sleeps).
 *
 *   echo N > /sys/kernel/debug/ringtrace_irqsrc/names
 *
 * A kthread on CPU 1 keeps taking irqsrc_static_rw (static: it has a
 * symbol) and, inside it, a heap rwlock (no symbol), with interrupts off;
 * a kthread on CPU 0 write-locks irqsrc_static_rw N times, contending
 * often, while the timer, on CPU 0 too, write-locks the heap rwlock on
 * every expiry, contending often: the interrupt's contention is resolved
 * to a name while the task's may be halfway through its own.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "events/tracked_lock.h"
#include "lib/compat.h"

static unsigned int period_us = 20;
module_param(period_us, uint, 0644);
MODULE_PARM_DESC(period_us, "timer period, microseconds");

static DEFINE_TRACKED_SPINLOCK(irqsrc_lock, "irqsrc_lock");
static DEFINE_MUTEX(irqsrc_mutex);
static struct hrtimer irqsrc_timer;
static DECLARE_COMPLETION(irqsrc_done);
static unsigned int irqsrc_left;
static struct dentry *irqsrc_dir;

static DEFINE_RWLOCK(irqsrc_static_rw);
static rwlock_t *irqsrc_heap_rw;	/* set: the timer contends on it */

/*
 * An rwlock_t in hard IRQ context is fine without PREEMPT_RT (the only
 * kernels this scenario runs on), but lockdep with PROVE_RAW_LOCK_NESTING
 * (default since 6.9; the 7.2 debug kernel) judges it by its RT meaning
 * and reports "Invalid wait context". The override map says, as the
 * kernel's own non-RT-only code does, that config-wait locks are meant
 * here. 6.1 has no such map and no such check.
 */
#ifdef DEFINE_WAIT_OVERRIDE_MAP
static DEFINE_WAIT_OVERRIDE_MAP(irqsrc_not_rt_map, LD_WAIT_CONFIG);
#define irqsrc_not_rt_begin()	lock_map_acquire_try(&irqsrc_not_rt_map)
#define irqsrc_not_rt_end()	lock_map_release(&irqsrc_not_rt_map)
#else
#define irqsrc_not_rt_begin()	do { } while (0)
#define irqsrc_not_rt_end()	do { } while (0)
#endif

static enum hrtimer_restart irqsrc_fire(struct hrtimer *t)
{
	rwlock_t *heap = READ_ONCE(irqsrc_heap_rw);

	if (heap) {
		irqsrc_not_rt_begin();
		write_lock(heap);
		write_unlock(heap);
		irqsrc_not_rt_end();
	} else {
		tracked_spin_lock(&irqsrc_lock);
		tracked_spin_unlock(&irqsrc_lock);
	}
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

/* Busy for @ns by the clock: calibrated delays are far off under TCG. */
static void irqsrc_spin(u64 ns)
{
	u64 end = ktime_get_mono_fast_ns() + ns;

	while (ktime_get_mono_fast_ns() < end)
		cpu_relax();
}

struct irqsrc_names {
	rwlock_t		*heap;
	unsigned int		n;
	struct completion	done[2];
	struct completion	holding;	/* the holder has started */
	bool			stop;
};

/* CPU 1: hold both, interrupts off, again and again. */
static int irqsrc_holder(void *arg)
{
	struct irqsrc_names *nm = arg;

	while (!READ_ONCE(nm->stop)) {
		write_lock_irq(&irqsrc_static_rw);
		write_lock(nm->heap);
		if (!completion_done(&nm->holding))
			complete(&nm->holding);
		irqsrc_spin(100 * NSEC_PER_USEC);
		write_unlock(nm->heap);
		write_unlock_irq(&irqsrc_static_rw);
		irqsrc_spin(10 * NSEC_PER_USEC);
		cond_resched();
	}
	complete(&nm->done[0]);
	return 0;
}

/* CPU 0: the task-context contender, with the timer running here. */
static int irqsrc_contender(void *arg)
{
	struct irqsrc_names *nm = arg;
	unsigned int i;

	wait_for_completion(&nm->holding);
	irqsrc_left = UINT_MAX;
	hrtimer_start(&irqsrc_timer, ns_to_ktime(READ_ONCE(period_us) * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	for (i = 0; i < nm->n; i++) {
		write_lock(&irqsrc_static_rw);
		irqsrc_spin(500);
		write_unlock(&irqsrc_static_rw);
		irqsrc_spin(2 * NSEC_PER_USEC);	/* the holder takes it back */
		if (i % 64 == 63)
			cond_resched();
	}
	hrtimer_cancel(&irqsrc_timer);
	WRITE_ONCE(nm->stop, true);
	complete(&nm->done[1]);
	return 0;
}

static int irqsrc_names(unsigned int n)
{
	struct irqsrc_names nm = { .n = n };
	struct task_struct *t[2];
	int i;

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return -EOPNOTSUPP;	/* rwlock_t sleeps: not in hard IRQ */
	if (num_online_cpus() < 2 || !cpu_online(0) || !cpu_online(1))
		return -ENODEV;
	nm.heap = kmalloc(sizeof(*nm.heap), GFP_KERNEL);
	if (!nm.heap)
		return -ENOMEM;
	rwlock_init(nm.heap);
	init_completion(&nm.holding);
	for (i = 0; i < 2; i++) {
		init_completion(&nm.done[i]);
		t[i] = kthread_create(i ? irqsrc_contender : irqsrc_holder, &nm,
				      "irqsrc/%s", i ? "contender" : "holder");
		if (IS_ERR(t[i])) {
			if (i)
				kthread_stop(t[0]);	/* never woken */
			kfree(nm.heap);
			return PTR_ERR(t[i]);
		}
		kthread_bind(t[i], 1 - i);
	}
	WRITE_ONCE(irqsrc_heap_rw, nm.heap);
	wake_up_process(t[0]);
	wake_up_process(t[1]);
	wait_for_completion(&nm.done[1]);
	wait_for_completion(&nm.done[0]);
	WRITE_ONCE(irqsrc_heap_rw, NULL);
	kfree(nm.heap);
	return 0;
}

static ssize_t irqsrc_names_write(struct file *file, const char __user *buf,
				  size_t count, loff_t *ppos)
{
	unsigned int n;
	int err;

	err = kstrtouint_from_user(buf, count, 0, &n);
	if (err)
		return err;
	mutex_lock(&irqsrc_mutex);
	err = irqsrc_names(n);
	mutex_unlock(&irqsrc_mutex);
	return err ? err : count;
}

static const struct file_operations irqsrc_names_fops = {
	.owner	= THIS_MODULE,
	.write	= irqsrc_names_write,
	.llseek	= noop_llseek,
};

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
	debugfs_create_file("names", 0200, irqsrc_dir, NULL, &irqsrc_names_fops);
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
