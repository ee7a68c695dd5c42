// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for graph_tree.sh: a file whose every read() runs a known
 * call tree of marked functions with known sleeps, so that --graph
 * vfs_read has an exact answer to give:
 *
 *   ringtrace_ct_outer()
 *     ringtrace_ct_first()        sleeps CT_FIRST_US
 *     ringtrace_ct_middle()
 *       ringtrace_ct_inner()      sleeps CT_INNER_US
 *
 * /sys/kernel/debug/ringtrace_calltree/tree: each read() fills the buffer
 * with zeros (like /dev/zero, so dd makes exactly count reads) after the
 * tree ran once; "calls" counts the trees run. The functions are never
 * inlined, so each keeps its own symbol and ftrace entry, and fprobe or
 * a kretprobe can take it.
 *
 * Each sleep is off CPU for at least its time, always: a worker wakes the
 * sleeper only once it saw it off its CPU, and after sleeping that long
 * itself. A timer the sleeper armed (usleep_range) could fire before the
 * sleeper reached schedule() when the host holds its vCPU up under
 * emulation; the sleep then ends without the task ever leaving its CPU,
 * and --graph rightly shows no off-CPU time in it.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "ringtrace_calltree.h"

#define CT_FIRST_US	3000
#define CT_INNER_US	2000

static struct dentry *ct_dir;
static atomic64_t ct_calls = ATOMIC64_INIT(0);

struct ct_wake {
	struct work_struct	work;
	struct completion	done;
	struct task_struct	*sleeper;
	unsigned int		us;
};

static void ct_waker(struct work_struct *work)
{
	struct ct_wake *w = container_of(work, struct ct_wake, work);

	/* Asleep in wait_for_completion(), switched out. */
	while (task_is_running(w->sleeper) || READ_ONCE(w->sleeper->on_cpu))
		usleep_range(20, 50);
	usleep_range(w->us, w->us + 100);
	complete(&w->done);
}

/* Off CPU for at least @us (see the top of the file). */
static noinline void ct_sleep(unsigned int us)
{
	struct ct_wake w = { .sleeper = current, .us = us };

	INIT_WORK_ONSTACK(&w.work, ct_waker);
	init_completion(&w.done);
	schedule_work(&w.work);
	wait_for_completion(&w.done);
	/* The worker may still be returning from complete(). */
	flush_work(&w.work);
	destroy_work_on_stack(&w.work);
}

noinline void ringtrace_ct_first(void)
{
	ct_sleep(CT_FIRST_US);
}

noinline void ringtrace_ct_inner(void)
{
	ct_sleep(CT_INNER_US);
}

noinline void ringtrace_ct_middle(void)
{
	ringtrace_ct_inner();
	/* Not a tail call: the middle span holds the inner one. */
	barrier();
}

noinline void ringtrace_ct_outer(void)
{
	ringtrace_ct_first();
	ringtrace_ct_middle();
	atomic64_inc(&ct_calls);
}

static ssize_t ct_read(struct file *file, char __user *buf, size_t len,
		       loff_t *pos)
{
	size_t left;

	ringtrace_ct_outer();
	left = clear_user(buf, len);
	if (left == len)
		return -EFAULT;
	return len - left;
}

static const struct file_operations ct_fops = {
	.owner	= THIS_MODULE,
	.read	= ct_read,
	.llseek	= noop_llseek,
};

static int ct_calls_get(void *data, u64 *val)
{
	*val = atomic64_read(&ct_calls);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ct_calls_fops, ct_calls_get, NULL, "%llu\n");

static int __init ct_init(void)
{
	ct_dir = debugfs_create_dir("ringtrace_calltree", NULL);
	if (IS_ERR(ct_dir))
		return PTR_ERR(ct_dir);
	debugfs_create_file("tree", 0444, ct_dir, NULL, &ct_fops);
	debugfs_create_file_unsafe("calls", 0444, ct_dir, NULL,
				   &ct_calls_fops);
	return 0;
}

static void __exit ct_exit(void)
{
	debugfs_remove_recursive(ct_dir);
}

module_init(ct_init);
module_exit(ct_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace selftest: a read that runs a known call tree");
