// SPDX-License-Identifier: GPL-2.0
/*
 * A session's functions where the kernel has no fprobe (func_probes.h):
 * one kretprobe each (a kprobe on the function's ftrace site, shared with
 * every other kprobe user), registered one by one, since Debian 6.1
 * exports no batch that registers many at the cost of one: attaching
 * costs in proportion to the number of functions (about 50 ms each under
 * QEMU TCG). Taking them away is one batch, unregister_kretprobes(), one
 * grace period for them all.
 *
 * A call the probe cannot follow (every return instance taken: more than
 * RT_FUNC_MAXACTIVE calls in flight; a hit inside another kprobe's
 * handler) is counted by the kernel in the probe's nmissed.
 */
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/slab.h>

#include "func_probes.h"
#include "events/func.h"
#include "session/session.h"

#ifndef RT_HAVE_FPROBE

struct rt_func_krp {
	struct kretprobe	krp;
	struct rt_session	*s;
	u32			idx;	/* in the session's names */
};

const u32 rt_func_probes_id = RINGTRACE_ATTACH_KRETPROBE;

static int rt_func_kretprobe_entry(struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	struct rt_func_krp *p =
		container_of(get_kretprobe(ri), struct rt_func_krp, krp);
	struct rt_func_call *c = (struct rt_func_call *)ri->data;
	u32 i;

	for (i = 0; i < p->s->funcs->args; i++)
		c->args[i] = regs_get_kernel_argument(regs, i);
	/* Kprobe handlers run with preemption disabled. Non-zero: no return. */
	return !rt_func_enter(p->s, c);
}

static int rt_func_kretprobe_return(struct kretprobe_instance *ri,
				    struct pt_regs *regs)
{
	struct rt_func_krp *p =
		container_of(get_kretprobe(ri), struct rt_func_krp, krp);

	rt_func_exit(p->s, (const struct rt_func_call *)ri->data, p->idx,
		     (unsigned long)p->krp.kp.addr, regs_return_value(regs),
		     instruction_pointer(regs));
	return 0;
}

static void rt_func_krp_free(struct rt_func_set *set)
{
	kvfree(set->batch);
	kvfree(set->p);
	set->batch = NULL;
	set->p = NULL;
}

int rt_func_probes_register(struct rt_func_set *set, struct rt_session *s,
			    const u32 *idx, unsigned int n, u64 gen)
{
	unsigned int i;
	int err = 0;

	set->nr = 0;
	set->p = kvcalloc(n, sizeof(*set->p), GFP_KERNEL);
	set->batch = kvcalloc(n, sizeof(*set->batch), GFP_KERNEL);
	if (!set->p || !set->batch) {
		rt_func_krp_free(set);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct rt_func_krp *p = &set->p[i];
		const char *name = s->funcs->name[idx[i]];

		/* Written before the probe can run; its handlers only read. */
		p->s = s;
		p->idx = idx[i];
		p->krp = (struct kretprobe) {
			.kp.symbol_name	= name,
			.entry_handler	= rt_func_kretprobe_entry,
			.handler	= rt_func_kretprobe_return,
			.data_size	= sizeof(struct rt_func_call),
			.maxactive	= RT_FUNC_MAXACTIVE,
		};
		err = register_kretprobe(&p->krp);
		if (err) {
			pr_notice("cannot trace %s with kretprobe: %s (%d)\n",
				  name, rt_func_refusal(err), err);
			break;
		}
		set->batch[set->nr++] = &p->krp;
	}
	/* A refused ENABLE records nothing: what its probes missed goes. */
	if (err)
		rt_func_probes_unregister(set);
	return err;
}

/*
 * unregister_kretprobe() waits for a grace period each,
 * unregister_kretprobes() once for the batch (64 of ext4's functions
 * attached and detached: 3.3 s one by one, 2.4 s batched, 6.1 under QEMU
 * TCG). Returns after every handler finished.
 */
u64 rt_func_probes_unregister(struct rt_func_set *set)
{
	u64 missed;

	if (set->nr)
		unregister_kretprobes(set->batch, set->nr);
	/* No handler runs any more: the counts are final. */
	missed = rt_func_probes_missed(set);
	set->nr = 0;
	rt_func_krp_free(set);
	return missed;
}

/*
 * The calls it could not follow: no free instance (maxactive), or the
 * kprobe hit while another kprobe's handler ran on the CPU.
 */
u64 rt_func_probes_missed(const struct rt_func_set *set)
{
	u64 missed = 0;
	unsigned int i;

	for (i = 0; i < set->nr; i++)
		missed += READ_ONCE(set->p[i].krp.nmissed) +
			  READ_ONCE(set->p[i].krp.kp.nmissed);
	return missed;
}

#endif /* !RT_HAVE_FPROBE */
