// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_read through an ftrace direct call to our own trampoline
 * (direct_tramp_x86_64.S): the fentry site calls it without ftrace's list
 * walk, kprobe state or return-address hijack, and it calls vfs_read
 * itself, so the call's entry data lives in the trampoline's stack frame
 * (BPF's fentry/fexit do the same). x86-64 only; where ftrace has no
 * direct calls, or another direct user (a BPF trampoline) holds vfs_read,
 * attach.c falls back to fprobe or the kretprobe. Installing the call and
 * the lifetime of the code sleeping calls return through: direct_call.c.
 */
#include <linux/preempt.h>
#include <linux/ringtrace.h>

#include "direct_call.h"
#include "vfs_read.h"

#ifdef RT_HAVE_DIRECT

/* What one traced call keeps in the trampoline's frame. */
struct rt_direct_call {
	struct rt_vfs_read_call	call;
	struct rt_direct_att	*att;
};

bool notrace rt_direct_enter(struct rt_direct_slot *slot, struct file *file,
			     size_t count, loff_t *ppos)
{
	struct rt_direct_call *c = (struct rt_direct_call *)slot;
	struct rt_direct_att *att;
	bool traced = false;

	BUILD_BUG_ON(sizeof(*c) > sizeof(*slot));
	/* The mechanisms' handlers run with preemption off (vfs_read.h). */
	preempt_disable_notrace();
	/* The filters first: a call nobody wants takes no reference. */
	if (rt_vfs_read_enter(&c->call, file, count, ppos)) {
		att = rt_direct_get();
		if (att) {
			c->att = att;
			traced = true;
		}
	}
	preempt_enable_notrace();
	return traced;
}

void notrace rt_direct_exit(struct rt_direct_slot *slot, long ret,
			    unsigned long ret_ip)
{
	struct rt_direct_call *c = (struct rt_direct_call *)slot;

	/*
	 * A call that entered before a detach writes nothing, even if a new
	 * session has attached since: the other mechanisms drop such calls
	 * with their return hooks, and the records must not differ.
	 */
	if (likely(!rt_direct_dying(c->att))) {
		preempt_disable_notrace();
		rt_vfs_read_exit(&c->call, ret, ret_ip);
		preempt_enable_notrace();
	}
	/* May free the attachment and the module: nothing after it. */
	rt_direct_put(c->att);
}

static bool rt_direct_available(void)
{
	return true;
}

/* rmmod is refused while a call that entered through us sleeps. */
static int rt_direct_attach(unsigned int maxactive)
{
	return rt_direct_register(true);
}

static void rt_direct_detach(void)
{
	rt_direct_unregister(false);
}

/* The stack holds each call's data: there is no slot to run out of. */
static u64 rt_direct_missed(void)
{
	return 0;
}

#else /* !RT_HAVE_DIRECT */

static bool rt_direct_available(void)
{
	return false;
}

static int rt_direct_attach(unsigned int maxactive)
{
	return -EOPNOTSUPP;
}

static void rt_direct_detach(void)
{
}

static u64 rt_direct_missed(void)
{
	return 0;
}

#endif /* RT_HAVE_DIRECT */

const struct rt_attach_ops rt_attach_direct = {
	.name		= "direct",
	.id		= RINGTRACE_ATTACH_DIRECT,
	.available	= rt_direct_available,
	.attach		= rt_direct_attach,
	.detach		= rt_direct_detach,
	.missed		= rt_direct_missed,
};
