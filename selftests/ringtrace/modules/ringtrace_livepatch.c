// SPDX-License-Identifier: GPL-2.0
/*
 * A livepatch of vfs_read for attach_neighbours: the replacement is a
 * copy of vfs_read (fs/read_write.c, from the exported helpers it uses)
 * that also counts the calls made by one process, so a test can tell
 * that the replacement is what ran while ringtrace traced the function,
 * whichever of the two came first.
 *
 *   insmod ringtrace_livepatch.ko pid=PID    (0: count nobody)
 *   /sys/module/ringtrace_livepatch/parameters/calls   the count
 *   echo 0 > /sys/kernel/livepatch/ringtrace_livepatch/enabled; rmmod
 *
 * Applying it registers an IPMODIFY ftrace user on vfs_read: a direct
 * call without ops_func refuses it, and it refuses such a direct call.
 */
#include <linux/fs.h>
#include <linux/fsnotify.h>
#include <linux/livepatch.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/xacct.h>
#include <linux/uio.h>

static int pid;
module_param(pid, int, 0644);
MODULE_PARM_DESC(pid, "count the vfs_read calls of this process (tgid)");

static atomic_long_t rt_lp_calls;

static int rt_lp_calls_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&rt_lp_calls));
}

static const struct kernel_param_ops rt_lp_calls_ops = {
	.get	= rt_lp_calls_get,
};
module_param_cb(calls, &rt_lp_calls_ops, NULL, 0444);
MODULE_PARM_DESC(calls, "vfs_read calls of pid that ran the replacement");

static ssize_t rt_lp_sync_read(struct file *file, char __user *buf,
			       size_t len, loff_t *ppos)
{
	struct kiocb kiocb;
	struct iov_iter iter;
	ssize_t ret;

	init_sync_kiocb(&kiocb, file);
	kiocb.ki_pos = ppos ? *ppos : 0;
	iov_iter_ubuf(&iter, ITER_DEST, buf, len);
	ret = file->f_op->read_iter(&kiocb, &iter);
	WARN_ON_ONCE(ret == -EIOCBQUEUED);
	if (ppos)
		*ppos = kiocb.ki_pos;
	return ret;
}

static ssize_t rt_lp_vfs_read(struct file *file, char __user *buf,
			      size_t count, loff_t *pos)
{
	ssize_t ret;

	if (pid && task_tgid_nr(current) == READ_ONCE(pid))
		atomic_long_inc(&rt_lp_calls);
	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	if (!(file->f_mode & FMODE_CAN_READ))
		return -EINVAL;
	if (unlikely(!access_ok(buf, count)))
		return -EFAULT;
	ret = rw_verify_area(READ, file, pos, count);
	if (ret)
		return ret;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	if (file->f_op->read)
		ret = file->f_op->read(file, buf, count, pos);
	else if (file->f_op->read_iter)
		ret = rt_lp_sync_read(file, buf, count, pos);
	else
		ret = -EINVAL;
	if (ret > 0) {
		fsnotify_access(file);
		add_rchar(current, ret);
	}
	inc_syscr(current);
	return ret;
}

static struct klp_func rt_lp_funcs[] = {
	{
		.old_name	= "vfs_read",
		.new_func	= rt_lp_vfs_read,
	},
	{ }
};

static struct klp_object rt_lp_objs[] = {
	{
		/* NULL name: vmlinux */
		.funcs		= rt_lp_funcs,
	},
	{ }
};

static struct klp_patch rt_lp_patch = {
	.mod		= THIS_MODULE,
	.objs		= rt_lp_objs,
};

static int __init rt_lp_init(void)
{
	return klp_enable_patch(&rt_lp_patch);
}

static void __exit rt_lp_exit(void)
{
}

module_init(rt_lp_init);
module_exit(rt_lp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace selftest: a livepatch of vfs_read that counts one process's calls");
MODULE_INFO(livepatch, "Y");
