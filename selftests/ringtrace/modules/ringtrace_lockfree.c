// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for tracked_lock_free: a tracked lock in a heap object is
 * destroyed and freed by one thread right after another thread's unlock,
 * while that unlock is still writing its lock record. Legal for the
 * object's owner (it took the lock after the last user released it, and
 * destroyed it before freeing); the record must still carry the right
 * name, and KASAN must see no use after free.
 *
 * Each round, on CPU 0: "unlocker" (normal priority) takes the lock and
 * wakes "hog" (SCHED_FIFO, same CPU) while holding it. On a preemptible
 * kernel hog runs as soon as the unlocker enables preemption again: it
 * lets "freer" (CPU 1) take the lock, destroy it, scribble over the name
 * and free the object, and keeps the unlocker off the CPU until then.
 * Before the fix, preemption came back between the unlock and the record:
 * the record was then written from freed memory. Needs 2 CPUs and a
 * preemptible kernel (PREEMPT, PREEMPT_RT, or preempt=full) to fail.
 *
 *   echo N > /sys/kernel/debug/ringtrace_lockfree/run    (N rounds)
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "events/tracked_lock.h"

#define VICTIM_NAME	"lockfree_victim"

struct victim {
	struct tracked_spinlock	lock;
	char			name[TRACKED_LOCK_NAME_LEN];
};

struct round {
	struct victim		*v;
	struct completion	hog_go, free_go, freed, hog_done, unlocked;
};

static struct dentry *lf_dir;
static DEFINE_MUTEX(lf_mutex);

static int lf_unlocker(void *arg)
{
	struct round *r = arg;

	tracked_spin_lock(&r->v->lock);
	complete(&r->hog_go);		/* hog preempts us at the next chance */
	tracked_spin_unlock(&r->v->lock);
	complete(&r->unlocked);
	return 0;
}

static int lf_hog(void *arg)
{
	struct round *r = arg;
	unsigned int ms;

	wait_for_completion(&r->hog_go);
	complete(&r->free_go);
	/* Keep CPU 0 from the unlocker until the object is gone (2 s at most). */
	for (ms = 0; ms < 2000 && !completion_done(&r->freed); ms++) {
		mdelay(1);
		cond_resched();	/* a quiescent state for the freer's RCU wait */
	}
	complete(&r->hog_done);
	return 0;
}

static int lf_freer(void *arg)
{
	struct round *r = arg;
	struct victim *v = r->v;

	wait_for_completion(&r->free_go);
	tracked_spin_lock(&v->lock);
	tracked_spin_unlock(&v->lock);
	tracked_spin_lock_destroy(&v->lock);
	memset(v->name, 'X', sizeof(v->name) - 1);
	kfree(v);
	complete(&r->freed);
	return 0;
}

static int lf_round(void)
{
	static int (*const fns[3])(void *) = { lf_unlocker, lf_hog, lf_freer };
	static const char *const names[3] = { "unlocker", "hog", "freer" };
	struct task_struct *t[3];
	struct round r = {};
	int i;

	r.v = kzalloc(sizeof(*r.v), GFP_KERNEL);
	if (!r.v)
		return -ENOMEM;
	strscpy(r.v->name, VICTIM_NAME, sizeof(r.v->name));
	tracked_spin_lock_init(&r.v->lock, r.v->name);
	init_completion(&r.hog_go);
	init_completion(&r.free_go);
	init_completion(&r.freed);
	init_completion(&r.hog_done);
	init_completion(&r.unlocked);

	for (i = 0; i < 3; i++) {
		t[i] = kthread_create(fns[i], &r, "lockfree/%s", names[i]);
		if (IS_ERR(t[i])) {
			while (i--)
				kthread_stop(t[i]);	/* never woken */
			tracked_spin_lock_destroy(&r.v->lock);
			kfree(r.v);
			return -ENOMEM;
		}
	}
	kthread_bind(t[0], 0);
	kthread_bind(t[1], 0);
	kthread_bind(t[2], 1);
	sched_set_fifo(t[1]);
	for (i = 2; i >= 0; i--)
		wake_up_process(t[i]);
	wait_for_completion(&r.unlocked);
	wait_for_completion(&r.hog_done);
	wait_for_completion(&r.freed);
	return 0;
}

static ssize_t lf_run_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	unsigned int rounds, i;
	int err;

	err = kstrtouint_from_user(buf, count, 0, &rounds);
	if (err)
		return err;
	if (num_online_cpus() < 2 || !cpu_online(0) || !cpu_online(1))
		return -ENODEV;
	mutex_lock(&lf_mutex);
	for (i = 0; i < rounds && !err; i++)
		err = lf_round();
	mutex_unlock(&lf_mutex);
	return err ? err : count;
}

static const struct file_operations lf_run_fops = {
	.owner	= THIS_MODULE,
	.write	= lf_run_write,
	.llseek	= noop_llseek,
};

static int __init lf_init(void)
{
	lf_dir = debugfs_create_dir("ringtrace_lockfree", NULL);
	debugfs_create_file("run", 0200, lf_dir, NULL, &lf_run_fops);
	return 0;
}

static void __exit lf_exit(void)
{
	debugfs_remove_recursive(lf_dir);
}

module_init(lf_init);
module_exit(lf_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace test: a tracked lock freed while its last unlock writes a record");
