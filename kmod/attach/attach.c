// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching vfs_read for the sessions that want it: the first session to
 * enable attaches, through the mechanism it asks for, or the one the
 * vfs_read_attach parameter forces, or else the cheapest one this kernel
 * offers that shares vfs_read with every other tool; the last one to stop
 * detaches. The mechanisms themselves are fprobe.c, kretprobe.c, direct.c.
 *
 * A good neighbour: a mechanism that locks other tools out of vfs_read
 * while attached (->excludes: the direct call, ftrace's one direct
 * trampoline per function) is never chosen automatically, and says what
 * it excludes in the kernel log when it attaches.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/ringtrace.h>
#include <linux/string.h>

#include "attach.h"
#include "events/offcpu.h"
#include "events/vfs_read.h"
#include "session/producer.h"
#include "session/session.h"

/*
 * Every mechanism, cheapest first: the names the parameter accepts and
 * the order auto tries the shared ones in. The direct call is offered
 * while ringtrace_direct.ko is loaded (direct.c), and only on
 * request.
 */
static const struct rt_attach_ops *const rt_attach_all[] = {
	&rt_attach_direct,
	&rt_attach_fprobe,
	&rt_attach_kretprobe,
};

static unsigned int vfs_read_maxactive;
module_param(vfs_read_maxactive, uint, 0444);
MODULE_PARM_DESC(vfs_read_maxactive,
		 "vfs_read calls tracked at once (0: max(256, 32 * possible CPUs)); calls beyond are counted as missed");

static DEFINE_MUTEX(rt_attach_mutex);	/* everything below */
static const struct rt_attach_ops *rt_attach_forced;	/* NULL: auto */
static const struct rt_attach_ops *rt_attach_cur;	/* while attached */
static unsigned int rt_attach_users;
static u64 rt_attach_missed_earlier;	/* by past attachments */

/* One auto may take: offered, and excluding nobody. */
static bool rt_attach_auto_ok(const struct rt_attach_ops *ops)
{
	return !ops->excludes && ops->available();
}

/* What auto picks now: the cheapest one it may take. */
static const struct rt_attach_ops *rt_attach_auto(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rt_attach_all); i++)
		if (rt_attach_auto_ok(rt_attach_all[i]))
			return rt_attach_all[i];
	return NULL;
}

static const struct rt_attach_ops *rt_attach_choose(void)
{
	return rt_attach_forced ?: rt_attach_auto();
}

/* The mechanism RINGTRACE_ATTACH_* @id names, or NULL. */
static const struct rt_attach_ops *rt_attach_by_id(u32 id)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rt_attach_all); i++)
		if (rt_attach_all[i]->id == id)
			return rt_attach_all[i];
	return NULL;
}

/*
 * vfs_read_attach=auto|direct|fprobe|kretprobe. Takes effect at the next
 * attach: sessions tracing now keep the mechanism they started with.
 */
static int rt_attach_param_set(const char *val, const struct kernel_param *kp)
{
	const struct rt_attach_ops *ops = NULL;
	int i;

	if (!sysfs_streq(val, "auto")) {
		for (i = 0; i < ARRAY_SIZE(rt_attach_all); i++)
			if (sysfs_streq(val, rt_attach_all[i]->name))
				ops = rt_attach_all[i];
		if (!ops)
			return -EINVAL;
		if (!ops->available())
			return -EOPNOTSUPP;
	}
	mutex_lock(&rt_attach_mutex);
	rt_attach_forced = ops;
	mutex_unlock(&rt_attach_mutex);
	return 0;
}

static int rt_attach_param_get(char *buf, const struct kernel_param *kp)
{
	const struct rt_attach_ops *ops;
	int n;

	mutex_lock(&rt_attach_mutex);
	ops = rt_attach_cur ?: rt_attach_choose();
	n = sysfs_emit(buf, "%s%s (%s)\n", rt_attach_forced ? "" : "auto: ",
		       ops ? ops->name : "none",
		       rt_attach_cur ? "attached" : "next attach");
	mutex_unlock(&rt_attach_mutex);
	return n;
}

static const struct kernel_param_ops rt_attach_param_ops = {
	.set	= rt_attach_param_set,
	.get	= rt_attach_param_get,
};
module_param_cb(vfs_read_attach, &rt_attach_param_ops, NULL, 0644);
/* module_param_cb() declares no type: modinfo and ringtrace-ctl want one. */
__MODULE_PARM_TYPE(vfs_read_attach, "string");
MODULE_PARM_DESC(vfs_read_attach,
		 "How to attach vfs_read: auto (the default: fprobe where the kernel has it, else kretprobe; both share vfs_read with other tools), fprobe, kretprobe or direct (needs ringtrace_direct.ko; locks BPF fentry/fexit/LSM programs out of vfs_read while attached); applies from the next attach");

static int rt_attach_one(const struct rt_attach_ops *ops)
{
	return ops->attach(vfs_read_maxactive ?:
			   max_t(unsigned int, 256, 32 * num_possible_cpus()));
}

static int rt_attach_with(const struct rt_attach_ops *ops)
{
	int err = rt_attach_one(ops);

	if (err == -EBUSY && ops->excludes) {
		pr_err("cannot attach to vfs_read with %s: another tool holds what it needs (a BPF fentry/fexit/LSM program?); the default mechanism shares vfs_read\n",
		       ops->name);
		return err;
	}
	if (err) {
		pr_err("cannot attach to vfs_read with %s: %d\n", ops->name, err);
		return err;
	}
	rt_attach_cur = ops;
	if (ops->excludes)
		pr_notice("vfs_read attached with %s, which %s while attached (ftrace keeps one direct call per function: bpftrace kfunc:, libbpf tools and BPF security agents cannot attach to vfs_read until ringtrace detaches; livepatches, kprobes and fprobes share it)\n",
			  ops->name, ops->excludes);
	return 0;
}

/*
 * The asked-for or forced mechanism, or the cheapest shared one that
 * attaches: a mechanism the kernel offers can still be refused, and the
 * next one then serves. One that was asked for and is refused fails the
 * enable.
 */
static int rt_attach_first(const struct rt_attach_ops *want)
{
	int i, err = -EOPNOTSUPP;

	want = want ?: rt_attach_forced;
	if (want)
		return want->available() ? rt_attach_with(want) : -EOPNOTSUPP;
	for (i = 0; i < ARRAY_SIZE(rt_attach_all); i++) {
		if (!rt_attach_auto_ok(rt_attach_all[i]))
			continue;
		err = rt_attach_one(rt_attach_all[i]);
		if (!err) {
			rt_attach_cur = rt_attach_all[i];
			return 0;
		}
		pr_notice("cannot attach to vfs_read with %s (%d), trying the next mechanism\n",
			  rt_attach_all[i]->name, err);
	}
	return err;
}

/*
 * Session @s starts tracing vfs_read with the mechanism it asks for
 * (vfs_read_attach, RINGTRACE_ATTACH_*; 0: whichever). One mechanism
 * serves every session: while others trace, asking for another one is
 * EBUSY.
 */
static int rt_vfs_read_get(const struct rt_session *s)
{
	u32 attach = s->vfs_read_attach;
	const struct rt_attach_ops *want = NULL;
	int err = 0;

	if (attach) {
		want = rt_attach_by_id(attach);
		if (!want)
			return -EINVAL;
	}
	mutex_lock(&rt_attach_mutex);
	if (rt_attach_users == 0)
		err = rt_attach_first(want);
	else if (want && want != rt_attach_cur)
		err = -EBUSY;
	if (!err)
		rt_attach_users++;
	mutex_unlock(&rt_attach_mutex);
	return err;
}

static void rt_vfs_read_put(const struct rt_session *s)
{
	mutex_lock(&rt_attach_mutex);
	if (!WARN_ON_ONCE(rt_attach_users == 0) && --rt_attach_users == 0) {
		rt_attach_cur->detach();
		/* Calls still inside vfs_read will never reach our exit. */
		rt_offcpu_vfs_read_detached();
		rt_attach_missed_earlier += rt_attach_cur->missed();
		rt_attach_cur = NULL;
	}
	mutex_unlock(&rt_attach_mutex);
}

/* vfs_read calls seen since load, and those no mechanism could follow. */
static void rt_vfs_read_stats(struct ringtrace_stats *st)
{
	st->vfs_read_hits = rt_vfs_read_hits();
	mutex_lock(&rt_attach_mutex);
	st->vfs_read_missed = rt_attach_missed_earlier;
	if (rt_attach_cur)
		st->vfs_read_missed += rt_attach_cur->missed();
	mutex_unlock(&rt_attach_mutex);
}

struct rt_producer rt_vfs_read_producer = {
	.name		= "vfs_read",
	.events		= RINGTRACE_EVENT_VFS_READ,
	.get		= rt_vfs_read_get,
	.put		= rt_vfs_read_put,
	.stats		= rt_vfs_read_stats,
};

u32 rt_vfs_read_attach_id(void)
{
	const struct rt_attach_ops *ops;

	mutex_lock(&rt_attach_mutex);
	ops = rt_attach_cur ?: rt_attach_choose();
	mutex_unlock(&rt_attach_mutex);
	return ops ? ops->id : 0;
}

u32 rt_vfs_read_attach_mask(void)
{
	u32 mask = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(rt_attach_all); i++)
		if (rt_attach_all[i]->available())
			mask |= 1U << rt_attach_all[i]->id;
	return mask;
}
