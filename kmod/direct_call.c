// SPDX-License-Identifier: GPL-2.0
/*
 * Installing and removing the direct call from vfs_read's fentry site to
 * our trampoline (direct_tramp_x86_64.S), and keeping the code it returns
 * through alive. Shared by ringtrace.ko (attach_direct.c) and the
 * benchmark's floor module, which differ only in their handlers and in
 * how they wait for sleeping calls (below).
 *
 * Lifetime. A traced call that sleeps in vfs_read has the trampoline's
 * .Lreturned on its stack until it wakes, however long after detach that
 * is. Each attachment has a percpu_ref: one reference for the attachment
 * itself, one per traced call from its entry handler to the end of its
 * exit handler. ringtrace.ko pins itself while the attachment lives
 * (rmmod is refused until the last such call came back; its sessions pin
 * it while attached anyway); the floor module attaches from its init and
 * instead waits in its exit for the count to drain. What runs of our code
 * after the last put (the rest of the exit handler, the trampoline's last
 * instructions, in tasks that may be preempted there) is waited for by
 * rt_direct_module_exit(): pending releases (rcu_barrier()), then one
 * voluntary context switch of every task (synchronize_rcu_tasks()), which
 * no task makes inside our text.
 */
#include <linux/completion.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu-refcount.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "direct_call.h"

#ifdef RT_HAVE_DIRECT

static struct ftrace_ops rt_direct_ops;
/* The attachment new calls take a reference on; RCU (sched) protected. */
static struct rt_direct_att __rcu *rt_direct_cur;

/* The last reference of a detached attachment is gone: nobody is in it. */
static void rt_direct_release(struct percpu_ref *ref)
{
	struct rt_direct_att *att = container_of(ref, struct rt_direct_att,
						 ref);
	struct completion *drained = att->drained;
	bool pinned = att->pinned;

	percpu_ref_exit(&att->ref);
	kfree(att);
	if (drained)
		complete(drained);
	/* Taken in rt_direct_register(); see the top of this file. */
	if (pinned)
		module_put(THIS_MODULE);
}

struct rt_direct_att *rt_direct_get(void)
{
	struct rt_direct_att *att;

	/* The caller runs with preemption off: an RCU-sched reader. */
	att = rcu_dereference_sched(rt_direct_cur);
	/* Not once detach has begun: that call then runs untraced. */
	if (att && percpu_ref_tryget_live(&att->ref))
		return att;
	return NULL;
}

/*
 * vfs_read past its fentry site, from a kprobe that is never armed:
 * registering a disabled kprobe resolves the symbol (vfs_read is not
 * exported) and checks it is probe-able without changing any text.
 */
static int rt_direct_find(unsigned long *func, unsigned long *orig)
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
	/* The kprobe may sit before an ENDBR (IBT); the fentry site follows. */
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

int rt_direct_register(bool pin_module)
{
	struct rt_direct_att *att;
	unsigned long func, orig;
	int err;

	err = rt_direct_find(&func, &orig);
	if (err)
		return err;
	att = kzalloc(sizeof(*att), GFP_KERNEL);
	if (!att)
		return -ENOMEM;
	err = percpu_ref_init(&att->ref, rt_direct_release, 0, GFP_KERNEL);
	if (err)
		goto free_att;
	att->pinned = pin_module;
	if (pin_module)
		__module_get(THIS_MODULE);
	/*
	 * Read by the trampoline only once ftrace has patched the site in,
	 * which orders these stores before (text_poke's serialisation).
	 */
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
 * Returns once no new call enters our handlers. Calls already inside
 * vfs_read come back through the trampoline later, see a dying reference
 * and drop it; with @wait, returns only once they all have.
 */
void rt_direct_unregister(bool wait)
{
	DECLARE_COMPLETION_ONSTACK(drained);
	struct rt_direct_att *att;

	att = rcu_dereference_protected(rt_direct_cur, true);
	WARN_ON(rt_unregister_ftrace_direct(&rt_direct_ops,
					    (unsigned long)rt_direct_tramp));
	RCU_INIT_POINTER(rt_direct_cur, NULL);
	/* rt_direct_get() callers are RCU-sched readers of rt_direct_cur. */
	synchronize_rcu();
	/* No one else sees att any more; the release reads this field. */
	if (wait)
		att->drained = &drained;
	percpu_ref_kill(&att->ref);
	if (wait)
		wait_for_completion(&drained);
}

void rt_direct_module_exit(void)
{
	/* Releases queued by percpu_ref_kill() have run... */
	rcu_barrier();
	/* ...and no task is still on the trampoline's last instructions. */
	synchronize_rcu_tasks();
}

#else /* !RT_HAVE_DIRECT */

void rt_direct_module_exit(void)
{
}

#endif /* RT_HAVE_DIRECT */
