// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for contention_slots: kthreads sleeping in contended
 * mutexes, arranged so that the kernel-contention table's slot claiming is
 * put to the test, then a calibrated contention of exactly N.
 *
 * ringtrace keeps each contention's begin in a slot found by probing from
 * hash_long(task ^ lock, 12) (probe_lock_contention.c; this module mirrors
 * that hash to pick a colliding lock, so it must follow it if it changes).
 * "run" does, with waiters A and B bound to CPU 0:
 *  1. A sleeps in mutex a; B sleeps in mutex b, where (B, b) hashes to
 *     the slot (A, a) holds: B's contention takes the next slot;
 *  2. a is released (A done: its slot is free again), then b is released
 *     and re-taken with preemption off before B can run, so B wakes, fails
 *     and reports contention_begin again: it must find its own slot, not
 *     claim the freed one (before the fix it did, and the first slot
 *     leaked: waits were measured from the wrong begin);
 *  3. the same again: A sleeps in a, B in b, both released. Before the
 *     fix, B's leaked slot was found and its wait counted from step 1.
 * B's every mutex_lock(b) is timed from the call to the return: no
 * recorded wait of B may be longer (max_b_ns). Then "calibrate N": N times
 * a third waiter sleeps in calib_mutex while it is held: exactly N
 * contentions of it.
 *
 *   echo 1 > /sys/kernel/debug/ringtrace_mutexwait/run
 *   cat /sys/kernel/debug/ringtrace_mutexwait/result   (B's tid, max_b_ns, found)
 *   echo N > /sys/kernel/debug/ringtrace_mutexwait/calibrate
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#define MW_BITS		12	/* RT_CONT_BITS in probe_lock_contention.c */
#define MW_CANDIDATES	32768	/* mutexes tried for a collision */

static DEFINE_MUTEX(mw_run_mutex);
static DEFINE_MUTEX(calib_mutex);
static struct dentry *mw_dir;
static pid_t mw_b_tid;
static u64 mw_max_b_ns;
static bool mw_found;

struct mw_waiter {
	struct mutex		*lock;		/* the one to contend on */
	struct completion	go, done;
	unsigned int		rounds;
	u64			max_ns;		/* longest mutex_lock() */
	struct task_struct	*task;
};

static int mw_waiter_fn(void *arg)
{
	struct mw_waiter *w = arg;
	u64 t0, t;

	while (w->rounds--) {
		wait_for_completion(&w->go);
		t0 = ktime_get_mono_fast_ns();
		mutex_lock(w->lock);
		t = ktime_get_mono_fast_ns() - t0;
		if (t > w->max_ns)
			w->max_ns = t;
		mutex_unlock(w->lock);
		complete(&w->done);
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static unsigned int mw_slot(struct task_struct *t, const void *lock)
{
	return hash_long((unsigned long)t ^ (unsigned long)lock, MW_BITS);
}

/* Wait until @w sleeps in its mutex (contention_begin has fired). */
static void mw_wait_blocked(struct mw_waiter *w)
{
	unsigned int ms;

	for (ms = 0; ms < 5000; ms++) {
		if (READ_ONCE(w->task->__state) == TASK_UNINTERRUPTIBLE)
			return;
		usleep_range(1000, 2000);
	}
}

static int mw_start(struct mw_waiter *w, struct mutex *lock,
		    unsigned int rounds, const char *name)
{
	w->lock = lock;
	w->rounds = rounds;
	w->max_ns = 0;
	init_completion(&w->go);
	init_completion(&w->done);
	w->task = kthread_create(mw_waiter_fn, w, "mutexwait/%s", name);
	if (IS_ERR(w->task))
		return PTR_ERR(w->task);
	get_task_struct(w->task);
	kthread_bind(w->task, 0);
	wake_up_process(w->task);
	return 0;
}

static void mw_stop(struct mw_waiter *w)
{
	kthread_stop(w->task);
	put_task_struct(w->task);
}

/*
 * One contention of @w: it sleeps in its held mutex, then gets it.
 * The candidates share one lockdep class and mw_run() holds two of them
 * at once, always a then b: @subclass tells lockdep the nesting is meant.
 */
static void mw_contend_begin(struct mw_waiter *w, unsigned int subclass)
{
	mutex_lock_nested(w->lock, subclass);
	complete(&w->go);
	mw_wait_blocked(w);
}

static int mw_run(void)
{
	struct mw_waiter a, b;
	struct mutex *m;	/* candidates for a colliding lock */
	u16 *first_a;		/* per slot: A's first candidate there, or 0 */
	unsigned int i, slot;
	int err = -ENOMEM;

	/* Allocated first: a started waiter can only be stopped by its rounds. */
	first_a = kcalloc(BIT(MW_BITS), sizeof(*first_a), GFP_KERNEL);
	m = vmalloc(MW_CANDIDATES * sizeof(*m));
	if (!m || !first_a)
		goto out_free;
	for (i = 0; i < MW_CANDIDATES; i++)
		mutex_init(&m[i]);
	err = mw_start(&a, &m[0], 2, "a");
	if (err)
		goto out_free;
	err = mw_start(&b, &m[1], 2, "b");
	if (err)
		goto out_a;
	/*
	 * A pair of locks, one for each, whose (task, lock) hash to the same
	 * slot: A's candidates from the first half, B's from the second.
	 * Choosing both (not B's alone against a fixed lock of A's) makes a
	 * miss practically impossible (one fixed target once missed 32767
	 * tries on 6.1).
	 */
	for (i = 1; i < MW_CANDIDATES / 2; i++) {
		slot = mw_slot(a.task, &m[i]);
		if (!first_a[slot])
			first_a[slot] = i;
	}
	for (i = MW_CANDIDATES / 2; i < MW_CANDIDATES; i++)
		if (first_a[mw_slot(b.task, &m[i])])
			break;
	mw_found = i < MW_CANDIDATES;
	if (mw_found) {
		a.lock = &m[first_a[mw_slot(b.task, &m[i])]];
		b.lock = &m[i];
	}

	/* 1. A in a, then B in b: B's slot is the one after A's. */
	mw_contend_begin(&a, 0);
	mw_contend_begin(&b, SINGLE_DEPTH_NESTING);
	/* 2. A done; b changes hands under B's nose: B begins again. */
	mutex_unlock(a.lock);
	wait_for_completion(&a.done);
	preempt_disable();
	mutex_unlock(b.lock);
	if (!mutex_trylock(b.lock))
		err = -EAGAIN;	/* B cannot run on CPU 0 before us */
	preempt_enable();
	if (!err) {
		msleep(20);	/* B wakes, fails, sleeps again */
		mw_wait_blocked(&b);
		mutex_unlock(b.lock);
	}
	wait_for_completion(&b.done);
	/* 3. Both again. */
	mw_contend_begin(&a, 0);
	mw_contend_begin(&b, SINGLE_DEPTH_NESTING);
	mutex_unlock(a.lock);
	wait_for_completion(&a.done);
	mutex_unlock(b.lock);
	wait_for_completion(&b.done);

	mw_b_tid = task_pid_nr(b.task);
	mw_max_b_ns = b.max_ns;
	mw_stop(&b);
out_a:
	mw_stop(&a);
out_free:
	vfree(m);
	kfree(first_a);
	return err;
}

static int mw_calibrate(unsigned int n)
{
	struct mw_waiter c;
	int err;

	err = mw_start(&c, &calib_mutex, n, "calib");
	if (err)
		return err;
	while (n--) {
		mw_contend_begin(&c, 0);
		mutex_unlock(&calib_mutex);
		wait_for_completion(&c.done);
	}
	mw_stop(&c);
	return 0;
}

static ssize_t mw_run_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	int err;

	/*
	 * PREEMPT_RT's mutex is an rt_mutex: one contention_begin per wait,
	 * and no trylock past a woken waiter. The scenario is the non-RT
	 * mutex's.
	 */
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return -EOPNOTSUPP;
	mutex_lock(&mw_run_mutex);
	err = mw_run();
	mutex_unlock(&mw_run_mutex);
	return err ? err : count;
}

static ssize_t mw_calibrate_write(struct file *file, const char __user *buf,
				  size_t count, loff_t *ppos)
{
	unsigned int n;
	int err;

	err = kstrtouint_from_user(buf, count, 0, &n);
	if (err)
		return err;
	mutex_lock(&mw_run_mutex);
	err = mw_calibrate(n);
	mutex_unlock(&mw_run_mutex);
	return err ? err : count;
}

static int mw_result_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d %llu %d\n", mw_b_tid, mw_max_b_ns, mw_found);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mw_result);

static const struct file_operations mw_run_fops = {
	.owner	= THIS_MODULE,
	.write	= mw_run_write,
	.llseek	= noop_llseek,
};

static const struct file_operations mw_calibrate_fops = {
	.owner	= THIS_MODULE,
	.write	= mw_calibrate_write,
	.llseek	= noop_llseek,
};

static int __init mw_init(void)
{
	mw_dir = debugfs_create_dir("ringtrace_mutexwait", NULL);
	debugfs_create_file("run", 0200, mw_dir, NULL, &mw_run_fops);
	debugfs_create_file("calibrate", 0200, mw_dir, NULL, &mw_calibrate_fops);
	debugfs_create_file("result", 0400, mw_dir, NULL, &mw_result_fops);
	return 0;
}

static void __exit mw_exit(void)
{
	debugfs_remove_recursive(mw_dir);
}

module_init(mw_init);
module_exit(mw_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace test: kthreads sleeping in contended mutexes");
