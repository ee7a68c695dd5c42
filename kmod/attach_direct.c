// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_read through an ftrace direct call to our own trampoline
 * (direct_tramp_x86_64.S): the fentry site calls it without ftrace's list
 * walk, kprobe state or return-address hijack, and it calls vfs_read
 * itself, so the call's entry data lives in the trampoline's stack frame
 * (BPF's fentry/fexit do the same). x86-64 only; where ftrace has no
 * direct calls, or another direct user (a BPF trampoline) holds vfs_read,
 * attach.c falls back to fprobe or the kretprobe.
 *
 * Lifetime. A traced call that sleeps in vfs_read has the trampoline's
 * .Lreturned on its stack until it wakes, however long after detach that
 * is. Each attachment therefore has a percpu_ref: one reference for the
 * attachment itself, one per traced call between rt_direct_enter() and
 * the end of rt_direct_exit(). While it is alive the attachment holds a
 * reference on this module, so rmmod is refused (EBUSY) until the last
 * such call has returned through us; the release drops it. What runs of
 * our code after that (the rest of rt_direct_exit() and the trampoline's
 * last instructions, in tasks that may be preempted there) is waited for
 * by the module's exit: rt_direct_module_exit() waits for the pending
 * releases (rcu_barrier()) and for every task to pass a voluntary context
 * switch (synchronize_rcu_tasks()), which no task does inside our text.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu-refcount.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/ringtrace.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "direct_tramp.h"
#include "vfs_read.h"

#ifdef RT_HAVE_DIRECT

struct rt_direct_att {
	struct percpu_ref	ref;
};

/* What one traced call keeps in the trampoline's frame. */
struct rt_direct_call {
	struct rt_vfs_read_call	call;
	struct rt_direct_att	*att;
};

static struct ftrace_ops rt_direct_ops;
/* The attachment new calls take a reference on; RCU (sched) protected. */
static struct rt_direct_att __rcu *rt_direct_cur;

/* The last reference of a detached attachment is gone: nobody is in it. */
static void rt_direct_release(struct percpu_ref *ref)
{
	struct rt_direct_att *att = container_of(ref, struct rt_direct_att,
						 ref);

	percpu_ref_exit(&att->ref);
	kfree(att);
	/* Taken in rt_direct_attach(); see the top of this file. */
	module_put(THIS_MODULE);
}

bool notrace rt_direct_enter(struct rt_direct_slot *slot, struct file *file,
			     size_t count, loff_t *ppos)
{
	struct rt_direct_call *c = (struct rt_direct_call *)slot;
	struct rt_direct_att *att;
	bool traced = false;

	BUILD_BUG_ON(sizeof(*c) > sizeof(*slot));
	/* The mechanisms' handlers run with preemption off (vfs_read.h). */
	preempt_disable_notrace();
	att = rcu_dereference_sched(rt_direct_cur);
	/* Not once detach has begun: that call then runs untraced. */
	if (att && percpu_ref_tryget_live(&att->ref)) {
		traced = rt_vfs_read_enter(&c->call, file, count, ppos);
		if (traced)
			c->att = att;
		else
			percpu_ref_put(&att->ref);
	}
	preempt_enable_notrace();
	return traced;
}

void notrace rt_direct_exit(struct rt_direct_slot *slot, long ret,
			    unsigned long ret_ip)
{
	struct rt_direct_call *c = (struct rt_direct_call *)slot;
	struct rt_direct_att *att = c->att;

	/*
	 * A call that entered before a detach writes nothing, even if a new
	 * session has attached since: the other mechanisms drop such calls
	 * with their return hooks, and the records must not differ.
	 */
	if (likely(!percpu_ref_is_dying(&att->ref))) {
		preempt_disable_notrace();
		rt_vfs_read_exit(&c->call, ret, ret_ip);
		preempt_enable_notrace();
	}
	/* May free att and drop the module reference: nothing after it. */
	percpu_ref_put(&att->ref);
}

/*
 * vfs_read past its fentry site, from a kprobe that is never armed:
 * registering a disabled kprobe resolves the symbol (vfs_read is not
 * exported) and checks it is probe-able without changing any text.
 */
static int rt_direct_find_orig(unsigned long *func, unsigned long *orig)
{
	struct kprobe kp = {
		.symbol_name	= "vfs_read",
		.flags		= KPROBE_FLAG_DISABLED,
	};
	unsigned long ip;
	u8 insn[5];
	u32 endbr;
	int err;

	err = register_kprobe(&kp);
	if (err)
		return err;
	ip = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	/* The kprobe may sit past an ENDBR (IBT); the fentry site follows it. */
	if (copy_from_kernel_nofault(&endbr, (void *)ip, sizeof(endbr)))
		return -EFAULT;
	if (endbr == 0xfa1e0ff3)	/* endbr64: f3 0f 1e fa */
		ip += 4;
	/*
	 * A 5-byte NOP or a CALL (another ftrace user is on): anything
	 * else means we misunderstood this kernel's layout.
	 */
	if (copy_from_kernel_nofault(insn, (void *)ip, sizeof(insn)))
		return -EFAULT;
	if (insn[0] != 0xe8 && memcmp(insn, "\x0f\x1f\x44\x00\x00", 5)) {
		pr_warn("vfs_read: no fentry site at %pS (%*ph)\n", (void *)ip,
			(int)sizeof(insn), insn);
		return -EOPNOTSUPP;
	}
	*func = ip;
	*orig = ip + sizeof(insn);
	return 0;
}

static bool rt_direct_available(void)
{
	return true;
}

static int rt_direct_attach(unsigned int maxactive)
{
	struct rt_direct_att *att;
	unsigned long func, orig;
	int err;

	err = rt_direct_find_orig(&func, &orig);
	if (err)
		return err;
	att = kzalloc(sizeof(*att), GFP_KERNEL);
	if (!att)
		return -ENOMEM;
	err = percpu_ref_init(&att->ref, rt_direct_release, 0, GFP_KERNEL);
	if (err)
		goto free_att;
	/* The attachment's own reference pins the module: see the top. */
	__module_get(THIS_MODULE);
	/* Read by the trampoline only once ftrace patched the site in. */
	WRITE_ONCE(rt_direct_orig, orig);
	rcu_assign_pointer(rt_direct_cur, att);

	memset(&rt_direct_ops, 0, sizeof(rt_direct_ops));
	err = ftrace_set_filter_ip(&rt_direct_ops, func, 0, 0);
	if (err)
		goto unpublish;
	err = rt_register_ftrace_direct(&rt_direct_ops,
					(unsigned long)rt_direct_tramp);
	if (err)
		goto free_filter;
	return 0;

free_filter:
	ftrace_free_filter(&rt_direct_ops);
unpublish:
	RCU_INIT_POINTER(rt_direct_cur, NULL);
	synchronize_rcu();
	/* No call can have taken a reference: this is the last one. */
	percpu_ref_kill(&att->ref);
	return err;
free_att:
	kfree(att);
	return err;
}

/*
 * Returns once no new call enters our code; calls already inside vfs_read
 * come back through the trampoline later, write nothing (no session wants
 * them any more once the last one detached) and drop their references.
 */
static void rt_direct_detach(void)
{
	struct rt_direct_att *att;

	att = rcu_dereference_protected(rt_direct_cur, true);
	WARN_ON(rt_unregister_ftrace_direct(&rt_direct_ops,
					    (unsigned long)rt_direct_tramp));
	RCU_INIT_POINTER(rt_direct_cur, NULL);
	/* rt_direct_enter() is an RCU-sched reader of rt_direct_cur. */
	synchronize_rcu();
	percpu_ref_kill(&att->ref);
}

/* The stack holds each call's data: there is no slot to run out of. */
static u64 rt_direct_missed(void)
{
	return 0;
}

void rt_direct_module_exit(void)
{
	/* Releases queued by percpu_ref_kill() have run... */
	rcu_barrier();
	/* ...and no task is still on the trampoline's last instructions. */
	synchronize_rcu_tasks();
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

void rt_direct_module_exit(void)
{
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
