// SPDX-License-Identifier: GPL-2.0
/*
 * Installing and removing the direct call from vfs_read's fentry site to
 * our trampoline (direct_tramp_x86_64.S), calling its user's handlers, and
 * keeping the code sleeping calls return through alive. Built into
 * ringtrace_direct.ko (direct_main.c), whose user is ringtrace.ko
 * (attach/direct.c), and into the benchmark's floor module.
 *
 * Lifetime of this code. A traced call that sleeps in vfs_read has the
 * trampoline's .Lreturned on its stack until it wakes, however long after
 * detach that is. So each attachment counts the calls in flight through
 * it, from their entry to the end of their exit (struct rt_direct_att):
 * ringtrace_direct.ko pins itself while an attachment lives (rmmod is
 * refused until the last such call came back); the floor module instead
 * waits in its exit for the count to drain. What runs of our code after
 * the last count (the rest of rt_direct_exit(), the trampoline's last
 * instructions, in tasks that may be preempted there) is waited for by
 * rt_direct_module_exit(): one voluntary context switch of every task
 * (synchronize_rcu_tasks()), which no task makes inside our text.
 *
 * Lifetime of the user's code. Its handlers are called only inside
 * RCU-sched read sections (preemption off), and only while the call's
 * attachment is live: rt_direct_unregister() kills it, then waits for a
 * grace period, after which no call is in a handler and none enters one.
 * The user may be unloaded then, with calls still asleep in vfs_read.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/uaccess.h>

#include "direct_call.h"
#include "lib/compat.h"

#ifdef RT_HAVE_DIRECT

/*
 * The calls in flight through an attachment are counted like a
 * percpu_ref, but with the counting done inside the RCU-sched sections
 * (preemption off) that the trampoline's C halves need anyway, so that no
 * call pays percpu_ref's own rcu_read_lock()/rcu_read_unlock(), which
 * PREEMPT_RCU kernels (Debian's) make out of line: about 150 ns a call
 * under TCG, as much as the rest of the floor's bookkeeping.
 *
 * While live: a per-CPU count, +1 at entry and -1 at exit on whichever CPU
 * each runs (only the sum means anything). Once dying (rt_direct_kill()):
 * exits decrement @dying_count instead, which starts at a bias no number
 * of calls can reach, so that it cannot hit zero before the per-CPU sum,
 * read after a grace period in which every per-CPU update has ended, has
 * replaced the bias. The last call out, or the kill if there is none,
 * releases the attachment.
 */
#define RT_DIRECT_BIAS		(LONG_MAX / 2)

struct rt_direct_att {
	long __percpu				*live;
	atomic_long_t				dying_count;
	bool					dying;
	struct completion			*drained; /* unregister waits */
	bool					pinned;	/* holds THIS_MODULE */
};

/* What the static calls below call while nobody is attached: never. */
static bool notrace rt_direct_enter_none(void *data, struct file *file,
					 size_t count, loff_t *ppos)
{
	return false;
}

static void notrace rt_direct_exit_none(void *data, long ret,
					unsigned long ret_ip)
{
}

/*
 * The live attachment's handlers, called directly, not through a pointer:
 * an indirect call is a retpoline on kernels that use them (every Debian
 * kernel under TCG: "Spectre V2 : Mitigation: Retpolines"), two per
 * traced call. rt_direct_register() points them at the user's handlers
 * before vfs_read is patched, so no call runs them meanwhile; after a
 * detach's grace period, when none runs a handler any more, they point at
 * the stubs above again, before the user (ringtrace.ko) may unload. Only
 * one attachment is live at a time (rt_direct_mutex, -EBUSY), and calls of
 * a dying one call nothing, so the handlers a call reaches are always its
 * own attachment's.
 */
DEFINE_STATIC_CALL(rt_direct_enter_call, rt_direct_enter_none);
DEFINE_STATIC_CALL(rt_direct_exit_call, rt_direct_exit_none);

static DEFINE_MUTEX(rt_direct_mutex);	/* register against unregister */
static struct ftrace_ops rt_direct_ops;

/* The attachment new calls are counted in; RCU (sched) protected. */
static struct rt_direct_att __rcu *rt_direct_cur;

/*
 * The last call of a dying attachment is gone: nobody is in it. Process
 * context with preemption enabled: on PREEMPT_RT free_percpu()'s
 * pcpu_lock and the slab allocator's local locks sleep.
 */
static void rt_direct_release(struct rt_direct_att *att)
{
	struct completion *drained = att->drained;
	bool pinned = att->pinned;

	might_sleep();
	free_percpu(att->live);
	kfree(att);
	if (drained)
		complete(drained);
	/* Taken in rt_direct_register(); see the top of this file. */
	if (pinned)
		module_put(THIS_MODULE);
}

/*
 * Called by the trampoline with preemption enabled (it runs in vfs_read's
 * context). The user's filters first: a call nobody wants is not counted.
 */
bool notrace rt_direct_enter(struct rt_direct_slot *slot, struct file *file,
			     size_t count, loff_t *ppos)
{
	struct rt_direct_att *att;
	bool traced = false;

	preempt_disable_notrace();
	/*
	 * An RCU-sched reader: rt_direct_kill() waits for us. An attachment
	 * still published is counted per CPU (see above), even if its kill
	 * has begun: the kill sums the per-CPU counts only after this
	 * section has ended.
	 */
	att = rcu_dereference_sched(rt_direct_cur);
	if (att &&
	    static_call(rt_direct_enter_call)(slot->data, file, count, ppos)) {
		this_cpu_inc(*att->live);
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
	bool last = false;

	/*
	 * A call that entered before a detach calls nothing, even if the
	 * user has attached again since: its handlers may be gone, and the
	 * other mechanisms drop such calls with their return hooks too.
	 * The dying check, the call and the per-CPU count are one RCU-sched
	 * read section, which rt_direct_kill() waits for after setting
	 * ->dying.
	 */
	preempt_disable_notrace();
	if (likely(!READ_ONCE(att->dying))) {
		static_call(rt_direct_exit_call)(slot->data, ret, ret_ip);
		this_cpu_dec(*att->live);
	} else {
		last = atomic_long_dec_and_test(&att->dying_count);
	}
	preempt_enable_notrace();
	/*
	 * Released outside the RCU-sched section: nothing else can reach
	 * @att once its count is zero, and freeing may sleep on RT. The
	 * trampoline calls us with preemption enabled, from vfs_read's
	 * context, where sleeping is allowed. May free the module: nothing
	 * but returns after this.
	 */
	if (last)
		rt_direct_release(att);
}

/* No call runs the user's handlers, and none will (rt_direct_kill()). */
static void rt_direct_unset_handlers(void)
{
	static_call_update(rt_direct_enter_call, rt_direct_enter_none);
	static_call_update(rt_direct_exit_call, rt_direct_exit_none);
}

/*
 * @att is no longer published: no call will be counted in it any more.
 * Returns after a grace period, once no call is in its handlers and none
 * will enter them, and the static calls point at the stubs again; the
 * attachment lives on until its last call left.
 */
static void rt_direct_kill(struct rt_direct_att *att)
{
	long sum = 0;
	int cpu;

	WRITE_ONCE(att->dying, true);
	/*
	 * Pairs with the RCU-sched read sections of rt_direct_enter() (which
	 * read rt_direct_cur, cleared by our caller) and rt_direct_exit()
	 * (which reads ->dying): after this grace period neither runs a
	 * handler of @att nor touches its per-CPU counts, so their sum is
	 * final: the calls still to come back, each through ->dying_count.
	 */
	synchronize_rcu();
	rt_direct_unset_handlers();
	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(att->live, cpu);
	/* Fully ordered, like the exits' decrements: one of us releases. */
	if (atomic_long_add_return(sum - RT_DIRECT_BIAS,
				   &att->dying_count) == 0)
		rt_direct_release(att);
}

/*
 * vfs_read's fentry site, from a kprobe that is never armed: registering
 * a disabled kprobe resolves the symbol (vfs_read is not exported) and
 * checks it is probe-able without changing any text.
 */
static int rt_direct_find(unsigned long *func)
{
	struct kprobe kp = {
		.symbol_name	= "vfs_read",
		.flags		= KPROBE_FLAG_DISABLED,
	};
	unsigned long ip;
	u8 insn[5];
	u32 endbr;
	int err, tries;

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
	 * else means we misunderstood this kernel's layout. An INT3 in the
	 * first byte is text_poke_bp() at work: another tool is patching
	 * the site right now, which takes a few synchronisations of every
	 * CPU; look again a little later.
	 */
	for (tries = 0; tries < 50; tries++) {
		if (copy_from_kernel_nofault(insn, (void *)ip, sizeof(insn)))
			return -EFAULT;
		if (insn[0] != 0xcc)
			break;
		msleep(20);
	}
	if (insn[0] == 0xcc) {
		pr_warn("vfs_read: its fentry site at %pS is still being patched by another tool after 1 s (%*ph): try again\n",
			(void *)ip, (int)sizeof(insn), insn);
		return -EAGAIN;
	}
	if (insn[0] != 0xe8 && memcmp(insn, "\x0f\x1f\x44\x00\x00", 5)) {
		pr_warn("vfs_read: no fentry site at %pS (%*ph)\n", (void *)ip,
			(int)sizeof(insn), insn);
		return -EOPNOTSUPP;
	}
	*func = ip;
	return 0;
}

/*
 * ftrace asks before an IPMODIFY user (a livepatch) and this direct call
 * share vfs_read, whichever comes first, with its direct_mutex held (so
 * nothing here may take rt_direct_mutex, which is held around ftrace
 * calls). Sharing needs nothing of us: the trampoline always calls the
 * address the ftrace caller left at its return slot, which is the
 * patched regs->ip, so the livepatch's replacement is what runs, traced.
 * Without this callback ftrace refuses either side with -EBUSY.
 */
static int rt_direct_ops_cmd(struct ftrace_ops *op, enum ftrace_ops_cmd cmd)
{
	switch (cmd) {
	case FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_SELF:
	case FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER:
		pr_info("vfs_read's direct call shares the function with an IPMODIFY ftrace user (a livepatch): its replacement runs, traced\n");
		return 0;
	case FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER:
		return 0;
	}
	return -EINVAL;
}

/* The callback's two shapes (compat.h: 7.x passes the function's address). */
static int __maybe_unused rt_direct_ops_func(struct ftrace_ops *op,
					     enum ftrace_ops_cmd cmd)
{
	return rt_direct_ops_cmd(op, cmd);
}

static int __maybe_unused rt_direct_ops_func_ip(struct ftrace_ops *op,
						unsigned long ip,
						enum ftrace_ops_cmd cmd)
{
	return rt_direct_ops_cmd(op, cmd);
}

int rt_direct_register(const struct rt_direct_handlers *h, bool pin_module)
{
	struct rt_direct_att *att;
	unsigned long func;
	int err;

	mutex_lock(&rt_direct_mutex);
	err = -EBUSY;
	if (rcu_access_pointer(rt_direct_cur))
		goto unlock;
	err = rt_direct_find(&func);
	if (err)
		goto unlock;
	err = -ENOMEM;
	att = kzalloc(sizeof(*att), GFP_KERNEL);
	if (!att)
		goto unlock;
	att->live = alloc_percpu(long);
	if (!att->live)
		goto free_att;
	atomic_long_set(&att->dying_count, RT_DIRECT_BIAS);
	att->pinned = pin_module;
	if (pin_module)
		__module_get(THIS_MODULE);
	/*
	 * Called through only once ftrace has patched the site in, which
	 * orders these updates before (text_poke's serialisation).
	 */
	static_call_update(rt_direct_enter_call, h->enter);
	static_call_update(rt_direct_exit_call, h->exit);
	rcu_assign_pointer(rt_direct_cur, att);

	memset(&rt_direct_ops, 0, sizeof(rt_direct_ops));
	rt_direct_ops.ops_func = rt_ftrace_ops_func(rt_direct_ops_func_ip,
						    rt_direct_ops_func);
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
	/* No call came through: this releases it. */
	rt_direct_kill(att);
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
	/* Read by the release, which can only run after the kill began. */
	if (wait)
		att->drained = &drained;
	rt_direct_kill(att);
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
	/* No task is still on the trampoline's last instructions. */
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
