// SPDX-License-Identifier: GPL-2.0
/*
 * Any kernel function a session names (RINGTRACE_EVENT_FUNC): ENABLE
 * attaches the session's own probes, DISABLE takes them away. Good
 * neighbour only: the plain functions through func_probes.h (one fprobe
 * for them all where the kernel has fprobe, else a kretprobe each), never
 * the direct call, which locks BPF trampolines out; a tracepoint's name
 * (RINGTRACE_FUNC_TP_PREFIX) gets a tracepoint probe (func_tp.c), shared
 * by design. A function none can probe (no such symbol, notrace or
 * inlined, kprobe blacklist) fails the ENABLE with the probe's errno and
 * a line naming it in the kernel log.
 *
 * The probes are the session's own, so a handler knows its session from
 * the probe (no walk of the list); the session's enabled flag gates it
 * (events/func.c says under what protection).
 *
 * A call the probes cannot follow has no record: the kernel counts it,
 * and GET_STATS reports the sum as the session's func_missed. DISABLE
 * takes the probes away but keeps what they missed, until the session is
 * freed.
 */
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/ringtrace.h>
#include <linux/slab.h>

#include "attach.h"
#include "func_probes.h"
#include "func_tp.h"
#include "events/inread.h"
#include "session/producer.h"
#include "session/session.h"

/*
 * One session's probes, from its first ENABLE until it is freed; the
 * session's lock serialises everything but the list. The fprobe stays at
 * one address for the session's life (func_fprobe.c says why it matters).
 */
struct rt_func_attach {
	struct list_head	node;
	const struct rt_session	*s;
	/* Calls missed by the probes of past ENABLEs. */
	u64			missed;
	struct rt_func_set	set;	/* the plain functions */
	/* The tracepoints, one probe each, while enabled. */
	struct rt_func_tp	*tps;
	unsigned int		nr_tps;
};

static DEFINE_MUTEX(rt_func_mutex);	/* the list, not what it holds */
static LIST_HEAD(rt_func_attached);
static atomic64_t rt_func_gen = ATOMIC64_INIT(0);

u32 rt_func_attach_id(void)
{
	return rt_func_probes_id;
}

/* What @a's tracepoint probes could not record (hits in NMI). */
static u64 rt_func_tps_missed(const struct rt_func_attach *a)
{
	u64 missed = 0;
	unsigned int i;

	for (i = 0; i < a->nr_tps; i++)
		missed += atomic64_read(&a->tps[i].missed);
	return missed;
}

/* Under the session's lock; @a stays, with what its probes missed. */
static void rt_func_detach(struct rt_func_attach *a)
{
	unsigned int i;

	for (i = 0; i < a->nr_tps; i++)
		rt_func_tp_unregister(&a->tps[i]);
	/* One wait for every tracepoint probe's readers, both kinds. */
	if (a->nr_tps)
		rt_func_tp_sync();
	a->missed += rt_func_probes_unregister(&a->set);
	for (i = 0; i < a->nr_tps; i++)
		rt_func_tp_release(&a->tps[i]);
	/* No handler runs any more: the count is final. */
	a->missed += rt_func_tps_missed(a);
	kvfree(a->tps);
	a->tps = NULL;
	a->nr_tps = 0;
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

/* @s's tracepoints, after its functions: each attached, or none. */
static int rt_func_tps_register(struct rt_func_attach *a,
				struct rt_session *s, const u32 *idx,
				unsigned int n)
{
	const struct rt_func_names *f = s->funcs;
	unsigned int i;
	int err;

	a->tps = kvcalloc(n, sizeof(*a->tps), GFP_KERNEL);
	if (!a->tps)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct rt_func_tp *t = &a->tps[i];

		/* Written before the probe can run; its handler only reads. */
		t->s = s;
		t->idx = idx[i];
		err = rt_func_tp_register(t, rt_func_tp_name(f->name[idx[i]]));
		if (err) {
			pr_notice("cannot trace %s with a tracepoint probe: %s (%d)\n",
				  f->name[idx[i]], err == -ENOENT ?
				  "no such built-in tracepoint" :
				  rt_func_refusal(err), err);
			return err;
		}
		a->nr_tps++;
	}
	return 0;
}

/*
 * @s (disabled, its names stable) starts tracing its functions: every
 * probe attached, or none and the first refusal's errno.
 */
static int rt_func_attach(struct rt_func_attach *a, struct rt_session *s)
{
	const struct rt_func_names *f = s->funcs;
	unsigned int i, nr_fn = 0, back, nr_tp;
	u32 *idx;
	int err = 0;

	/* Functions from the front, tracepoints from the back. */
	idx = kvmalloc_array(f->nr, sizeof(*idx), GFP_KERNEL);
	if (!idx)
		return -ENOMEM;
	back = f->nr;
	for (i = 0; i < f->nr; i++) {
		if (rt_func_tp_name(f->name[i]))
			idx[--back] = i;
		else
			idx[nr_fn++] = i;
	}
	nr_tp = f->nr - nr_fn;
	if (nr_fn)
		err = rt_func_probes_register(&a->set, s, idx, nr_fn,
					      atomic64_inc_return(&rt_func_gen));
	if (!err && nr_tp)
		err = rt_func_tps_register(a, s, idx + nr_fn, nr_tp);
	if (err)
		rt_func_detach(a);
	kvfree(idx);
	return err;
}

static int rt_func_get(const struct rt_session *s)
{
	struct rt_func_attach *a;
	int err;

	if (!s->funcs)
		return -EINVAL;
	/* Calls inside reads: the depths exist before a probe asks. */
	if (s->flags & RINGTRACE_CFG_FUNC_IN_READ) {
		err = rt_inread_get(s->flags & RINGTRACE_CFG_FUNC_HOLD);
		if (err)
			return err;
	}
	a = rt_func_find(s);
	if (!a) {
		a = kzalloc(sizeof(*a), GFP_KERNEL);
		if (!a) {
			err = -ENOMEM;
			goto err_inread;
		}
		a->s = s;
		mutex_lock(&rt_func_mutex);
		list_add(&a->node, &rt_func_attached);
		mutex_unlock(&rt_func_mutex);
	}
	/* The probes write into it: the producer's session is ours to use. */
	err = rt_func_attach(a, (struct rt_session *)s);
	if (err)
		goto err_inread;
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

	lockdep_assert_held(&s->lock);
	a = rt_func_find(s);
	if (!a)
		return;
	st->func_missed = a->missed + rt_func_probes_missed(&a->set) +
			  rt_func_tps_missed(a);
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
	kfree(a);
}

struct rt_producer rt_func_producer = {
	.name		= "func",
	.events		= RINGTRACE_EVENT_FUNC,
	.features	= RINGTRACE_FEAT_FUNC | RINGTRACE_FEAT_FUNC_IN_READ |
			  RINGTRACE_FEAT_FUNC_HOLD | RT_FUNC_TP_FEATURES,
	.get		= rt_func_get,
	.put		= rt_func_put,
	.session_stats	= rt_func_session_stats,
	.release	= rt_func_release,
};
