// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for graph_fanout.sh: a file whose every read() calls
 * RINGTRACE_MAX_FUNCS marked functions once each, in order, so that a
 * session tracing as many functions as one may has an exact answer:
 *
 *   ringtrace_fan_00() ... ringtrace_fan_63()
 *
 * /sys/kernel/debug/ringtrace_fanout/fan: each read() fills the buffer
 * with zeros (dd makes exactly count reads) after the 64 calls; "calls"
 * counts the reads that made them. Each function stores its own number,
 * so no two have the same code for the compiler to fold into one, and
 * none is inlined: each keeps its symbol and ftrace entry.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/ringtrace.h>
#include <linux/uaccess.h>

#include "ringtrace_fanout.h"

static struct dentry *fan_dir;
static atomic64_t fan_calls = ATOMIC64_INIT(0);
static unsigned int fan_last;

#define FAN(n)						\
	noinline void ringtrace_fan_##n(void)		\
	{						\
		WRITE_ONCE(fan_last, 1##n - 100);	\
	}
FAN(00)
FAN(01)
FAN(02)
FAN(03)
FAN(04)
FAN(05)
FAN(06)
FAN(07)
FAN(08)
FAN(09)
FAN(10)
FAN(11)
FAN(12)
FAN(13)
FAN(14)
FAN(15)
FAN(16)
FAN(17)
FAN(18)
FAN(19)
FAN(20)
FAN(21)
FAN(22)
FAN(23)
FAN(24)
FAN(25)
FAN(26)
FAN(27)
FAN(28)
FAN(29)
FAN(30)
FAN(31)
FAN(32)
FAN(33)
FAN(34)
FAN(35)
FAN(36)
FAN(37)
FAN(38)
FAN(39)
FAN(40)
FAN(41)
FAN(42)
FAN(43)
FAN(44)
FAN(45)
FAN(46)
FAN(47)
FAN(48)
FAN(49)
FAN(50)
FAN(51)
FAN(52)
FAN(53)
FAN(54)
FAN(55)
FAN(56)
FAN(57)
FAN(58)
FAN(59)
FAN(60)
FAN(61)
FAN(62)
FAN(63)
#undef FAN

/* In the order a read calls them: ringtrace_fan_NN is fan[NN]. */
static void (*const fan[])(void) = {
	ringtrace_fan_00, ringtrace_fan_01, ringtrace_fan_02, ringtrace_fan_03,
	ringtrace_fan_04, ringtrace_fan_05, ringtrace_fan_06, ringtrace_fan_07,
	ringtrace_fan_08, ringtrace_fan_09, ringtrace_fan_10, ringtrace_fan_11,
	ringtrace_fan_12, ringtrace_fan_13, ringtrace_fan_14, ringtrace_fan_15,
	ringtrace_fan_16, ringtrace_fan_17, ringtrace_fan_18, ringtrace_fan_19,
	ringtrace_fan_20, ringtrace_fan_21, ringtrace_fan_22, ringtrace_fan_23,
	ringtrace_fan_24, ringtrace_fan_25, ringtrace_fan_26, ringtrace_fan_27,
	ringtrace_fan_28, ringtrace_fan_29, ringtrace_fan_30, ringtrace_fan_31,
	ringtrace_fan_32, ringtrace_fan_33, ringtrace_fan_34, ringtrace_fan_35,
	ringtrace_fan_36, ringtrace_fan_37, ringtrace_fan_38, ringtrace_fan_39,
	ringtrace_fan_40, ringtrace_fan_41, ringtrace_fan_42, ringtrace_fan_43,
	ringtrace_fan_44, ringtrace_fan_45, ringtrace_fan_46, ringtrace_fan_47,
	ringtrace_fan_48, ringtrace_fan_49, ringtrace_fan_50, ringtrace_fan_51,
	ringtrace_fan_52, ringtrace_fan_53, ringtrace_fan_54, ringtrace_fan_55,
	ringtrace_fan_56, ringtrace_fan_57, ringtrace_fan_58, ringtrace_fan_59,
	ringtrace_fan_60, ringtrace_fan_61, ringtrace_fan_62, ringtrace_fan_63,
};

static_assert(ARRAY_SIZE(fan) == RINGTRACE_MAX_FUNCS);

static ssize_t fan_read(struct file *file, char __user *buf, size_t len,
			loff_t *pos)
{
	unsigned int i;
	size_t left;

	for (i = 0; i < ARRAY_SIZE(fan); i++)
		fan[i]();
	atomic64_inc(&fan_calls);
	left = clear_user(buf, len);
	if (left == len)
		return -EFAULT;
	return len - left;
}

static const struct file_operations fan_fops = {
	.owner	= THIS_MODULE,
	.read	= fan_read,
	.llseek	= noop_llseek,
};

static int fan_calls_get(void *data, u64 *val)
{
	*val = atomic64_read(&fan_calls);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(fan_calls_fops, fan_calls_get, NULL, "%llu\n");

static int __init fan_init(void)
{
	fan_dir = debugfs_create_dir("ringtrace_fanout", NULL);
	if (IS_ERR(fan_dir))
		return PTR_ERR(fan_dir);
	debugfs_create_file("fan", 0444, fan_dir, NULL, &fan_fops);
	debugfs_create_file_unsafe("calls", 0444, fan_dir, NULL,
				   &fan_calls_fops);
	return 0;
}

static void __exit fan_exit(void)
{
	debugfs_remove_recursive(fan_dir);
}

module_init(fan_init);
module_exit(fan_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ringtrace selftest: a read that calls 64 marked functions");
