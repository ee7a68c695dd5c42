// SPDX-License-Identifier: GPL-2.0
/*
 * Any kernel function a session names (RINGTRACE_EVENT_FUNC): ENABLE
 * attaches one probe per function for that session, DISABLE takes them
 * away. Good neighbour only: an fprobe where the kernel has one (an
 * ftrace callback shared with every other ftrace user), else a kretprobe;
 * never the direct call, which locks BPF trampolines out. A function
 * neither can probe (no such symbol, notrace or inlined, kprobe
 * blacklist) fails the ENABLE with the probe's errno and a line naming
 * it in the kernel log. A tracepoint's name (RINGTRACE_FUNC_TP_PREFIX)
 * gets a tracepoint probe instead (func_tp.c), shared by design.
 *
 * The probes are the session's own, so a handler knows its session from
 * the probe (no walk of the list); the session's enabled flag gates it
 * (events/func.c says under what protection).
 *
 * A call the probe cannot follow (every return instance taken: more than
 * RT_FUNC_MAXACTIVE calls in flight; a probe hit inside another probe's
 * handler) has no record: the kernel counts it in the probe's nmissed,
 * and GET_STATS reports the sum as the session's func_missed. DISABLE
 * takes the probes away but keeps what they missed, until the session is
 * freed.
 */
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/ringtrace.h>
#include <linux/slab.h>

#include "attach.h"
#include "func_tp.h"
#include "events/func.h"
#include "events/inread.h"
#include "lib/compat.h"
#include "session/producer.h"
#include "session/session.h"

/* Calls of one function followed at once, per session (kretprobe). */
#define RT_FUNC_MAXACTIVE	64

struct rt_func_probe {
#ifdef RT_HAVE_FPROBE
	struct fprobe		fp;
#else
	struct kretprobe	krp;
#endif
	/* A name with RINGTRACE_FUNC_TP_PREFIX: a tracepoint's (func_tp.c). */
	struct rt_func_tp	tp;
	bool			is_tp;
	struct rt_session	*s;
	/* Unique to this attachment: a call entered under another is not ours. */
	u64			gen;
	unsigned long		addr;	/* the probed address */
	u32			idx;
	bool			registered;
};

/*
 * One session's probes, from its first ENABLE until it is freed; the
 * session's lock serialises everything but the list.
 */
struct rt_func_attach {
	struct list_head	node;
	const struct rt_session	*s;
	/* Calls missed by the probes of past ENABLEs. */
	u64			missed;
	unsigned int		nr;
	struct rt_func_probe	p[RINGTRACE_MAX_FUNCS];
#ifndef RT_HAVE_FPROBE
	/* unregister_kretprobes()' array: one grace period for them all. */
	struct kretprobe	*batch[RINGTRACE_MAX_FUNCS];
#endif
};

static DEFINE_MUTEX(rt_func_mutex);	/* the list, not what it holds */
static LIST_HEAD(rt_func_attached);
static atomic64_t rt_func_gen = ATOMIC64_INIT(0);

/* The call's first @n arguments, by the arch's calling convention. */
#define rt_func_args(c, regs, n, get)					\
	do {								\
		u32 __i;						\
									\
		for (__i = 0; __i < (n); __i++)				\
			(c)->args[__i] = get((regs), __i);		\
	} while (0)

#ifdef RT_HAVE_FPROBE

/*
 * fgraph (6.14+) keeps a sleeping call's return hook pointing at the
 * fprobe's address after unregister_fprobe(), and runs it if an fprobe
 * is registered there again (attach/fprobe.c has the story): freed and
 * allocated again, an attachment may land there. The entry data carries
 * the attachment's generation, unique per probe, and the exit drops a
 * call whose generation is not the probe's.
 */
static int rt_func_fprobe_entry(struct fprobe *fp, unsigned long entry_ip,
				unsigned long ret_ip, rt_fprobe_regs *regs,
				void *entry_data)
{
	struct rt_func_probe *p = container_of(fp, struct rt_func_probe, fp);
	struct rt_func_call *c = entry_data;
	bool want;

	preempt_disable_notrace();
	c->gen = p->gen;
	rt_func_args(c, regs, p->s->funcs->args, rt_fprobe_arg);
	want = rt_func_enter(p->s, c);
	preempt_enable_notrace();
	/* Non-zero: no exit handler for this call. */
	return !want;
}

static void rt_func_fprobe_exit(struct fprobe *fp, unsigned long entry_ip,
				unsigned long ret_ip, rt_fprobe_regs *regs,
				void *entry_data)
{
	struct rt_func_probe *p = container_of(fp, struct rt_func_probe, fp);
	const struct rt_func_call *c = entry_data;

	if (c->gen != p->gen)
		return;
	/* The record goes to this CPU's ring, whichever hook calls us. */
	preempt_disable_notrace();
	rt_func_exit(p->s, c, p->idx, entry_ip, rt_fprobe_retval(regs),
		     ret_ip);
	preempt_enable_notrace();
}

static int rt_func_register(struct rt_func_probe *p, const char *name)
{
	BUILD_BUG_ON(sizeof(struct rt_func_call) > RT_FPROBE_DATA_MAX);
	p->fp = (struct fprobe) {
		.entry_handler		= rt_func_fprobe_entry,
		.exit_handler		= rt_func_fprobe_exit,
		.entry_data_size	= sizeof(struct rt_func_call),
	};
	rt_fprobe_set_maxactive(&p->fp, RT_FUNC_MAXACTIVE);
	return register_fprobe_syms(&p->fp, &name, 1);
}

/* @a's registered function probes; returns once no handler of them runs. */
static void rt_func_unregister_all(struct rt_func_attach *a)
{
	unsigned int i;

	for (i = 0; i < a->nr; i++)
		if (a->p[i].registered && !a->p[i].is_tp)
			unregister_fprobe(&a->p[i].fp);
}

/* The calls it could not follow (no return hook, recursion). */
static u64 rt_func_missed(const struct rt_func_probe *p)
{
	return READ_ONCE(p->fp.nmissed);
}

static const char *const rt_func_mechanism = "fprobe";
#define RT_FUNC_ATTACH_ID	RINGTRACE_ATTACH_FPROBE

#else /* !RT_HAVE_FPROBE: the kretprobe */

static int rt_func_kretprobe_entry(struct kretprobe_instance *ri,
				   struct pt_regs *regs)
{
	struct rt_func_probe *p =
		container_of(get_kretprobe(ri), struct rt_func_probe, krp);
	struct rt_func_call *c = (struct rt_func_call *)ri->data;

	c->gen = p->gen;
	rt_func_args(c, regs, p->s->funcs->args, regs_get_kernel_argument);
	/* Kprobe handlers run with preemption disabled. Non-zero: no return. */
	return !rt_func_enter(p->s, c);
}

static int rt_func_kretprobe_return(struct kretprobe_instance *ri,
				    struct pt_regs *regs)
{
	struct rt_func_probe *p =
		container_of(get_kretprobe(ri), struct rt_func_probe, krp);

	rt_func_exit(p->s, (const struct rt_func_call *)ri->data, p->idx,
		     p->addr, regs_return_value(regs), instruction_pointer(regs));
	return 0;
}

static int rt_func_register(struct rt_func_probe *p, const char *name)
{
	int err;

	p->krp = (struct kretprobe) {
		.kp.symbol_name	= name,
		.entry_handler	= rt_func_kretprobe_entry,
		.handler	= rt_func_kretprobe_return,
		.data_size	= sizeof(struct rt_func_call),
		.maxactive	= RT_FUNC_MAXACTIVE,
	};
	err = register_kretprobe(&p->krp);
	if (!err)
		p->addr = (unsigned long)p->krp.kp.addr;
	return err;
}

/*
 * @a's registered function probes, all at once: unregister_kretprobe()
 * waits for a grace period each, unregister_kretprobes() once for the
 * batch (64 of ext4's functions attached and detached: 3.3 s one by one,
 * 2.4 s batched, 6.1 under QEMU TCG). Returns after every handler
 * finished.
 */
static void rt_func_unregister_all(struct rt_func_attach *a)
{
	unsigned int i, n = 0;

	for (i = 0; i < a->nr; i++)
		if (a->p[i].registered && !a->p[i].is_tp)
			a->batch[n++] = &a->p[i].krp;
	if (n)
		unregister_kretprobes(a->batch, n);
}

/*
 * The calls it could not follow: no free instance (maxactive), or the
 * kprobe hit while another kprobe's handler ran on the CPU.
 */
static u64 rt_func_missed(const struct rt_func_probe *p)
{
	return READ_ONCE(p->krp.nmissed) + READ_ONCE(p->krp.kp.nmissed);
}

static const char *const rt_func_mechanism = "kretprobe";
#define RT_FUNC_ATTACH_ID	RINGTRACE_ATTACH_KRETPROBE

#endif /* RT_HAVE_FPROBE */

u32 rt_func_attach_id(void)
{
	return RT_FUNC_ATTACH_ID;
}

/* Why a probe was refused, for the kernel log. */
static const char *rt_func_refusal(int err)
{
	switch (err) {
	case -ENOENT:
		return "no such function, or one ftrace cannot hook (notrace, inlined)";
	case -EINVAL:
		return "the kernel refuses to probe it (kprobe blacklist, not a function entry)";
	case -EBUSY:
		return "another probe holds it exclusively";
	case -EOPNOTSUPP:
		return "this kernel checks indirect calls' prototypes (CFI)";
	}
	return "refused";
}

/* Attach @p to the function or tracepoint @name. */
static int rt_func_probe_register(struct rt_func_probe *p, const char *name)
{
	const char *tp = rt_func_tp_name(name);

	p->is_tp = tp;
	if (!tp)
		return rt_func_register(p, name);
	p->tp.s = p->s;
	p->tp.idx = p->idx;
	return rt_func_tp_register(&p->tp, tp);
}

/* What @p could not record: calls it could not follow, hits in NMI. */
static u64 rt_func_probe_missed(const struct rt_func_probe *p)
{
	return p->is_tp ? atomic64_read(&p->tp.missed) : rt_func_missed(p);
}

/* Under the session's lock; @a stays, with what its probes missed. */
static void rt_func_detach(struct rt_func_attach *a)
{
	struct rt_func_probe *p;
	bool tps = false;
	unsigned int i;

	for (i = 0; i < a->nr; i++) {
		p = &a->p[i];
		if (!p->registered || !p->is_tp)
			continue;
		rt_func_tp_unregister(&p->tp);
		tps = true;
	}
	/* One wait for every tracepoint probe's readers, both kinds. */
	if (tps)
		rt_func_tp_sync();
	rt_func_unregister_all(a);
	for (i = 0; i < a->nr; i++) {
		p = &a->p[i];
		if (!p->registered)
			continue;
		if (p->is_tp)
			rt_func_tp_release(&p->tp);
		/* No handler runs any more: the count is final. */
		a->missed += rt_func_probe_missed(p);
		p->registered = false;
	}
}

/* @s's probes, or NULL before its first ENABLE. */
static struct rt_func_attach *rt_func_find(const struct rt_session *s)
{
	struct rt_func_attach *a;

	mutex_lock(&rt_func_mutex);
	list_for_each_entry(a, &rt_func_attached, node) {
		if (a->s == s) {
			mutex_unlock(&rt_func_mutex);
			return a;
		}
	}
	mutex_unlock(&rt_func_mutex);
	return NULL;
}

/*
 * @s (disabled, its names stable) starts tracing its functions: a probe
 * each, or none and the first refusal's errno.
 */
static int rt_func_get(const struct rt_session *s)
{
	const struct rt_func_names *f = s->funcs;
	struct rt_func_attach *a;
	unsigned int i;
	int err;

	if (!f)
		return -EINVAL;
	/* Calls inside reads: the depths exist before a probe asks. */
	if (s->flags & RINGTRACE_CFG_FUNC_IN_READ) {
		err = rt_inread_get();
		if (err)
			return err;
	}
	a = rt_func_find(s);
	if (!a) {
		/* RINGTRACE_MAX_FUNCS probes: several pages, maybe not contiguous. */
		a = kvzalloc(sizeof(*a), GFP_KERNEL);
		if (!a) {
			err = -ENOMEM;
			goto err_inread;
		}
		a->s = s;
		mutex_lock(&rt_func_mutex);
		list_add(&a->node, &rt_func_attached);
		mutex_unlock(&rt_func_mutex);
	}
	a->nr = f->nr;
	for (i = 0; i < f->nr; i++) {
		struct rt_func_probe *p = &a->p[i];

		/* Written before the probe can run; its handlers only read. */
		p->s = (struct rt_session *)s;
		p->idx = i;
		p->gen = atomic64_inc_return(&rt_func_gen);
		err = rt_func_probe_register(p, f->name[i]);
		if (err) {
			pr_notice("cannot trace %s with %s: %s (%d)\n",
				  f->name[i],
				  p->is_tp ? "a tracepoint probe" :
				  rt_func_mechanism,
				  p->is_tp && err == -ENOENT ?
				  "no such built-in tracepoint" :
				  rt_func_refusal(err), err);
			rt_func_detach(a);
			goto err_inread;
		}
		p->registered = true;
	}
	return 0;

err_inread:
	if (s->flags & RINGTRACE_CFG_FUNC_IN_READ)
		rt_inread_put();
	return err;
}

static void rt_func_put(const struct rt_session *s)
{
	struct rt_func_attach *a = rt_func_find(s);

	if (!WARN_ON_ONCE(!a))
		rt_func_detach(a);
	/* No probe of ours runs any more: the depths may go. */
	if (s->flags & RINGTRACE_CFG_FUNC_IN_READ)
		rt_inread_put();
}

/* Under s->lock, which get and put hold too: what @s's probes missed. */
static void rt_func_session_stats(struct rt_session *s,
				  struct ringtrace_stats *st)
{
	struct rt_func_attach *a;
	unsigned int i;

	lockdep_assert_held(&s->lock);
	a = rt_func_find(s);
	if (!a)
		return;
	st->func_missed = a->missed;
	for (i = 0; i < a->nr; i++)
		if (a->p[i].registered)
			st->func_missed += rt_func_probe_missed(&a->p[i]);
}

/* @s, disabled (no probe registered), is being freed. */
static void rt_func_release(struct rt_session *s)
{
	struct rt_func_attach *a = rt_func_find(s);

	if (!a)
		return;
	mutex_lock(&rt_func_mutex);
	list_del(&a->node);
	mutex_unlock(&rt_func_mutex);
	kvfree(a);
}

struct rt_producer rt_func_producer = {
	.name		= "func",
	.events		= RINGTRACE_EVENT_FUNC,
	.features	= RINGTRACE_FEAT_FUNC | RINGTRACE_FEAT_FUNC_IN_READ |
			  RT_FUNC_TP_FEATURES,
	.get		= rt_func_get,
	.put		= rt_func_put,
	.session_stats	= rt_func_session_stats,
	.release	= rt_func_release,
};
