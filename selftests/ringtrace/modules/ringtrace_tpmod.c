// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for tp_module.sh: a module's own tracepoint,
 * ringtrace_tpmod:ringtrace_tpmod_hit(int seq, unsigned long cookie),
 * fired only when asked, so that attaching to it never races a vCPU
 * running it (QEMU TCG's cross-modifying code).
 *
 *   echo N > /sys/kernel/debug/ringtrace_tpmod/fire
 *
 * fires it N times from the writer's context, seq 0 to N - 1, cookie
 * RINGTRACE_TPMOD_COOKIE.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>

#define CREATE_TRACE_POINTS
#include "ringtrace_tpmod_trace.h"

#define RINGTRACE_TPMOD_COOKIE	0x5eedUL
#define RINGTRACE_TPMOD_MAX	100000

static struct dentry *tpmod_dir;

static ssize_t tpmod_fire(struct file *file, const char __user *buf,
			  size_t len, loff_t *ppos)
{
	unsigned int n, i;
	int err;

	err = kstrtouint_from_user(buf, len, 0, &n);
	if (err)
		return err;
	if (n > RINGTRACE_TPMOD_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		trace_ringtrace_tpmod_hit(i, RINGTRACE_TPMOD_COOKIE);
	return len;
}

static const struct file_operations tpmod_fops = {
	.owner	= THIS_MODULE,
	.write	= tpmod_fire,
	.llseek	= noop_llseek,
};

static int __init tpmod_init(void)
{
	tpmod_dir = debugfs_create_dir("ringtrace_tpmod", NULL);
	debugfs_create_file("fire", 0200, tpmod_dir, NULL, &tpmod_fops);
	return 0;
}

static void __exit tpmod_exit(void)
{
	debugfs_remove_recursive(tpmod_dir);
}

module_init(tpmod_init);
module_exit(tpmod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace test: a module's own tracepoint, fired on demand");
