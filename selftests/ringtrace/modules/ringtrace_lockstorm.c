// SPDX-License-Identifier: GPL-2.0
/*
 * Contention you can reproduce: kthreads hammering tracked spinlocks, so
 * tests and demos see real contention even on a 2-vCPU VM.
 *
 *   insmod ringtrace_lockstorm.ko threads=2 iterations=10000 hold_ns=1000 locks=1
 *   echo 1 > /sys/kernel/debug/ringtrace_lockstorm/run   (returns when done)
 *
 * Parameters can be changed between runs in /sys/module/.../parameters.
 * Every run uses every locking variant of the API (lock, irqsave, irq,
 * trylock) in turn, and takes the static lock "lockstorm_static" once, so
 * that both registration paths are exercised. A run makes exactly
 * threads * iterations acquisitions of the "lockstorm-N" locks.
 *
 * Every 4th iteration the threads also take a plain kernel mutex,
 * storm_kmutex: two contending spinlock holders never queue (the second
 * spins on qspinlock's pending bit, which the lock:contention_* tracepoints
 * do not report), but a contended mutex always does, so this gives the
 * kernel-contention path something real to see.
 *
 * Whether the storm itself contends depends on both vCPUs running at once,
 * which a busy host does not promise. So each run first forces contention
 * it can count on: a kthread on CPU 0 holds "lockstorm_forced" for 20 ms
 * while one on CPU 1 takes it (when there are two CPUs), and then holds
 * storm_kmutex, sleeping, while the other takes it (works on one CPU too).
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "events/tracked_lock.h"

static unsigned int threads = 2;
module_param(threads, uint, 0644);
MODULE_PARM_DESC(threads, "kthreads per run (1..64)");
static unsigned int iterations = 10000;
module_param(iterations, uint, 0644);
MODULE_PARM_DESC(iterations, "acquisitions per thread per run");
static unsigned int hold_ns = 1000;
module_param(hold_ns, uint, 0644);
MODULE_PARM_DESC(hold_ns, "time spent holding the lock, each time");

static unsigned int nr_locks = 1;
module_param_named(locks, nr_locks, uint, 0444);
MODULE_PARM_DESC(locks, "number of tracked locks the threads share (1..16)");

#define STORM_MAX_THREADS	64
#define STORM_MAX_LOCKS		16

static struct tracked_spinlock storm_locks[STORM_MAX_LOCKS];
static char storm_names[STORM_MAX_LOCKS][TRACKED_LOCK_NAME_LEN];
static DEFINE_TRACKED_SPINLOCK(storm_static, "lockstorm_static");
static DEFINE_TRACKED_SPINLOCK(storm_forced, "lockstorm_forced");
static DEFINE_MUTEX(storm_mutex);	/* one run at a time */
static DEFINE_MUTEX(storm_kmutex);	/* contended on purpose */
static struct dentry *storm_dir;

struct storm_thread {
	unsigned int index;
	unsigned int iterations;
	unsigned int hold_ns;
	struct completion done;
};

static void storm_once(struct tracked_spinlock *l, unsigned int variant,
		       unsigned int hold)
{
	unsigned long flags;

	switch (variant % 4) {
	case 0:
		tracked_spin_lock(l);
		ndelay(hold);
		tracked_spin_unlock(l);
		break;
	case 1:
		tracked_spin_lock_irqsave(l, flags);
		ndelay(hold);
		tracked_spin_unlock_irqrestore(l, flags);
		break;
	case 2:
		tracked_spin_lock_irq(l);
		ndelay(hold);
		tracked_spin_unlock_irq(l);
		break;
	default:
		if (!tracked_spin_trylock(l))
			tracked_spin_lock(l);
		ndelay(hold);
		tracked_spin_unlock(l);
		break;
	}
}

static int storm_thread_fn(void *arg)
{
	struct storm_thread *t = arg;
	unsigned int i;

	for (i = 0; i < t->iterations; i++) {
		storm_once(&storm_locks[(i + t->index) % nr_locks], i, t->hold_ns);
		if (i % 4 == 0) {
			mutex_lock(&storm_kmutex);
			ndelay(t->hold_ns);
			mutex_unlock(&storm_kmutex);
		}
		if (i % 64 == 63)
			cond_resched();
	}
	complete(&t->done);
	return 0;
}

struct storm_forcing {
	struct completion spin_held;
	struct completion mutex_held;
	struct completion done[2];
	bool spin;		/* two CPUs: force the tracked lock too */
};

static int storm_force_holder(void *arg)
{
	struct storm_forcing *f = arg;

	if (f->spin) {
		tracked_spin_lock(&storm_forced);
		complete(&f->spin_held);
		mdelay(20);
		tracked_spin_unlock(&storm_forced);
	}
	mutex_lock(&storm_kmutex);
	complete(&f->mutex_held);
	msleep(20);
	mutex_unlock(&storm_kmutex);
	complete(&f->done[0]);
	return 0;
}

static int storm_force_contender(void *arg)
{
	struct storm_forcing *f = arg;

	if (f->spin) {
		wait_for_completion(&f->spin_held);
		tracked_spin_lock(&storm_forced);	/* spins ~20 ms */
		tracked_spin_unlock(&storm_forced);
	}
	wait_for_completion(&f->mutex_held);
	mutex_lock(&storm_kmutex);			/* sleeps ~20 ms */
	mutex_unlock(&storm_kmutex);
	complete(&f->done[1]);
	return 0;
}

/* Contention that happens whatever the host's scheduling. */
static int storm_force(void)
{
	struct storm_forcing f = { .spin = num_online_cpus() >= 2 };
	struct task_struct *t[2];
	int i;

	init_completion(&f.spin_held);
	init_completion(&f.mutex_held);
	/* Both exist before either runs: neither can wait for a missing peer. */
	for (i = 0; i < 2; i++) {
		init_completion(&f.done[i]);
		t[i] = kthread_create(i ? storm_force_contender : storm_force_holder,
				      &f, "lockstorm/force%d", i);
		if (IS_ERR(t[i])) {
			if (i)
				kthread_stop(t[0]);	/* never woken: fn not run */
			return PTR_ERR(t[i]);
		}
	}
	for (i = 0; i < 2; i++) {
		if (f.spin)
			kthread_bind(t[i], i);
		wake_up_process(t[i]);
	}
	for (i = 0; i < 2; i++)
		wait_for_completion(&f.done[i]);
	return 0;
}

static int storm_run(void)
{
	unsigned int n = clamp(READ_ONCE(threads), 1U, STORM_MAX_THREADS);
	struct storm_thread *t;
	struct task_struct *task;
	unsigned int i, started = 0;
	int err = 0;

	t = kcalloc(n, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;

	mutex_lock(&storm_mutex);
	tracked_spin_lock(&storm_static);
	tracked_spin_unlock(&storm_static);
	err = storm_force();
	if (err)
		goto unlock;
	for (i = 0; i < n; i++) {
		t[i].index = i;
		t[i].iterations = READ_ONCE(iterations);
		t[i].hold_ns = READ_ONCE(hold_ns);
		init_completion(&t[i].done);
		task = kthread_run(storm_thread_fn, &t[i], "lockstorm/%u", i);
		if (IS_ERR(task)) {
			err = PTR_ERR(task);
			break;
		}
		started++;
	}
	/* The threads exit on their own; wait for every one we started. */
	for (i = 0; i < started; i++)
		wait_for_completion(&t[i].done);
unlock:
	mutex_unlock(&storm_mutex);
	kfree(t);
	return err;
}

static ssize_t storm_run_write(struct file *file, const char __user *buf,
			       size_t count, loff_t *ppos)
{
	int err = storm_run();

	return err ? err : count;
}

static const struct file_operations storm_run_fops = {
	.owner	= THIS_MODULE,
	.write	= storm_run_write,
	.llseek	= noop_llseek,
};

static int __init storm_init(void)
{
	unsigned int i;

	if (!nr_locks || nr_locks > STORM_MAX_LOCKS)
		return -EINVAL;
	for (i = 0; i < nr_locks; i++) {
		snprintf(storm_names[i], sizeof(storm_names[i]), "lockstorm-%u", i);
		tracked_spin_lock_init(&storm_locks[i], storm_names[i]);
	}
	storm_dir = debugfs_create_dir("ringtrace_lockstorm", NULL);
	debugfs_create_file("run", 0200, storm_dir, NULL, &storm_run_fops);
	return 0;
}

static void __exit storm_exit(void)
{
	unsigned int i;

	debugfs_remove_recursive(storm_dir);
	for (i = 0; i < nr_locks; i++)
		tracked_spin_lock_destroy(&storm_locks[i]);
	/* storm_static leaves the registry with the module. */
}

module_init(storm_init);
module_exit(storm_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace test: kthreads contending on tracked spinlocks");
