// SPDX-License-Identifier: GPL-2.0
/*
 * Installing and removing the direct call from vfs_read's fentry site to
 * our trampoline (direct_tramp_x86_64.S), calling its user's handlers, and
 * keeping the code sleeping calls return through alive. Built into
 * ringtrace_direct.ko (direct_main.c), whose user is ringtrace.ko
 * (attach_direct.c), and into the benchmark's floor module.
 *
 * Lifetime of this code. A traced call that sleeps in vfs_read has the
 * trampoline's .Lreturned on its stack until it wakes, however long after
 * detach that is. Each attachment has a percpu_ref: one reference for the
 * attachment itself, one per traced call from its entry to the end of its
 * exit. ringtrace_direct.ko pins itself while an attachment lives (rmmod
 * is refused until the last such call came back); the floor module
 * instead waits in its exit for the count to drain. What runs of our
 * code after the last put (the rest of rt_direct_exit(), the trampoline's
 * last instructions, in tasks that may be preempted there) is waited for
 * by rt_direct_module_exit(): pending releases (rcu_barrier()), then one
 * voluntary context switch of every task (synchronize_rcu_tasks()), which
 * no task makes inside our text.
 *
 * Lifetime of the user's code. Its handlers are called only inside
 * RCU-sched read sections (preemption off), and only while the call's
 * attachment is live: rt_direct_unregister() kills it, then waits for a
 * grace period, after which no call is in a handler and none enters one.
 * The user may be unloaded then, with calls still asleep in vfs_read.
 */
#include <linux/completion.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu-refcount.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "compat.h"
#include "direct_call.h"

#ifdef RT_HAVE_DIRECT

struct rt_direct_att {
	struct percpu_ref			ref;
	const struct rt_direct_handlers		*h;
	struct completion			*drained; /* unregister waits */
	bool					pinned;	/* holds THIS_MODULE */
};

static DEFINE_MUTEX(rt_direct_mutex);	/* register against unregister */
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

/*
 * Called by the trampoline with preemption enabled (it runs in vfs_read's
 * context). The user's filters first: a call nobody wants takes no
 * reference.
 */
bool notrace rt_direct_enter(struct rt_direct_slot *slot, struct file *file,
			     size_t count, loff_t *ppos)
{
	struct rt_direct_att *att;
	bool traced = false;

	preempt_disable_notrace();
	/* An RCU-sched reader: rt_direct_unregister() waits for us. */
	att = rcu_dereference_sched(rt_direct_cur);
	if (att && att->h->enter(slot->data, file, count, ppos) &&
	    percpu_ref_tryget_live(&att->ref)) {
		slot->att = att;
		traced = true;
	}
	preempt_enable_notrace();
	return traced;
}

void notrace rt_direct_exit(struct rt_direct_slot *slot, long ret,
			    unsigned long ret_ip)
{
	struct rt_direct_att *att = slot->att;

	/*
	 * A call that entered before a detach calls nothing, even if the
	 * user has attached again since: its handlers may be gone, and the
	 * other mechanisms drop such calls with their return hooks too.
	 * The dying check and the call are one RCU-sched read section,
	 * which rt_direct_unregister() waits for after the kill.
	 */
	preempt_disable_notrace();
	if (likely(!percpu_ref_is_dying(&att->ref)))
		att->h->exit(slot->data, ret, ret_ip);
	preempt_enable_notrace();
	/* May free the attachment and the module: nothing after it. */
	percpu_ref_put(&att->ref);
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

int rt_direct_register(const struct rt_direct_handlers *h, bool pin_module)
{
	struct rt_direct_att *att;
	unsigned long func, orig;
	int err;

	mutex_lock(&rt_direct_mutex);
	err = -EBUSY;
	if (rcu_access_pointer(rt_direct_cur))
		goto unlock;
	err = rt_direct_find(&func, &orig);
	if (err)
		goto unlock;
	err = -ENOMEM;
	att = kzalloc(sizeof(*att), GFP_KERNEL);
	if (!att)
		goto unlock;
	err = percpu_ref_init(&att->ref, rt_direct_release, 0, GFP_KERNEL);
	if (err)
		goto free_att;
	att->h = h;
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
	mutex_unlock(&rt_direct_mutex);
	return 0;

free_filter:
	ftrace_free_filter(&rt_direct_ops);
unpublish:
	RCU_INIT_POINTER(rt_direct_cur, NULL);
	synchronize_rcu();
	/* No call can have taken a reference: this is the last one. */
	percpu_ref_kill(&att->ref);
	goto unlock;
free_att:
	kfree(att);
unlock:
	mutex_unlock(&rt_direct_mutex);
	return err;
}

/*
 * Returns once no call is in the user's handlers and none will enter
 * them. Calls already inside vfs_read come back through the trampoline
 * later, see a dying reference and drop it; with @wait, returns only once
 * they all have.
 */
void rt_direct_unregister(bool wait)
{
	DECLARE_COMPLETION_ONSTACK(drained);
	struct rt_direct_att *att;

	mutex_lock(&rt_direct_mutex);
	att = rcu_dereference_protected(rt_direct_cur,
					lockdep_is_held(&rt_direct_mutex));
	if (WARN_ON_ONCE(!att))
		goto unlock;
	WARN_ON(rt_unregister_ftrace_direct(&rt_direct_ops,
					    (unsigned long)rt_direct_tramp));
	RCU_INIT_POINTER(rt_direct_cur, NULL);
	/* Read by the release, which can only run after the kill. */
	if (wait)
		att->drained = &drained;
	percpu_ref_kill(&att->ref);
	/*
	 * Pairs with the RCU-sched read sections of rt_direct_enter() (which
	 * read rt_direct_cur) and rt_direct_exit() (which checks the kill):
	 * after this grace period neither runs a handler of this attachment.
	 */
	synchronize_rcu();
	if (wait)
		wait_for_completion(&drained);
unlock:
	mutex_unlock(&rt_direct_mutex);
}

static int rt_direct_api_attach(const struct rt_direct_handlers *h)
{
	return rt_direct_register(h, true);
}

static void rt_direct_api_detach(void)
{
	rt_direct_unregister(false);
}

void rt_direct_module_exit(void)
{
	/* Releases queued by percpu_ref_kill() have run... */
	rcu_barrier();
	/* ...and no task is still on the trampoline's last instructions. */
	synchronize_rcu_tasks();
}

#else /* !RT_HAVE_DIRECT */

/* The module loads everywhere; ringtrace.ko then uses another mechanism. */
static int rt_direct_api_attach(const struct rt_direct_handlers *h)
{
	return -EOPNOTSUPP;
}

static void rt_direct_api_detach(void)
{
}

void rt_direct_module_exit(void)
{
}

#endif /* RT_HAVE_DIRECT */

const struct rt_direct_api rt_direct_api = {
	.version	= RT_DIRECT_API_VERSION,
	.data_size	= RT_DIRECT_DATA_SIZE,
	.attach		= rt_direct_api_attach,
	.detach		= rt_direct_api_detach,
};

/* The floor module links this file privately, beside ringtrace_direct.ko. */
#ifndef RT_DIRECT_PRIVATE
EXPORT_SYMBOL_GPL(rt_direct_api);
#endif
