// SPDX-License-Identifier: GPL-2.0
/*
 * A session's functions through one fprobe (func_probes.h): however many
 * it names, register_fprobe_syms() resolves them and ftrace patches every
 * call site in one update, where a probe per function paid an update (and
 * under QEMU TCG about 50 ms) each.
 *
 * One probe for all means its handlers must find which function a call
 * is from the address fprobe gives them, which is where ftrace hooks the
 * function (its entry, or just past an ENDBR or a BTI landing pad). No
 * exported interface turns a name into that address, so the handlers
 * learn it: the first call at an address asks kallsyms for the symbol
 * around it (sprint_symbol_no_offset(), lock-free, as printk's %pS does
 * from any context), finds the name in the session's list (a binary
 * search, session/func_names.c) and keeps the answer in a small table of
 * its own. Every later call is a hash and one or two loads. An address
 * whose symbol is none of the names (an alias kallsyms prefers) is
 * counted as missed, never recorded under a wrong name.
 */
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "func_probes.h"
#include "events/func.h"
#include "session/session.h"

#ifdef RT_HAVE_FPROBE

/* Return hooks for all of a session's functions (rethook, up to 6.13). */
#define RT_FUNC_SET_MAXACTIVE	4096

/* An address no slot holds yet / one being written. */
#define RT_FUNC_IP_FREE		0UL
#define RT_FUNC_IP_BUSY		1UL

struct rt_func_ipslot {
	unsigned long	ip;	/* published last: see rt_func_ip_idx() */
	u32		idx;
};

const u32 rt_func_probes_id = RINGTRACE_ATTACH_FPROBE;

/* The index of the name whose function holds @ip, or -ENOENT. */
static noinline int rt_func_ip_resolve(const struct rt_func_set *set,
				       unsigned long ip)
{
	/* As vsprintf's %pS: on the stack, only on an address's first call. */
	char sym[KSYM_SYMBOL_LEN];
	char *mod;

	sprint_symbol_no_offset(sym, ip);
	/* A module's function reads "name [module]". */
	mod = strchr(sym, ' ');
	if (mod)
		*mod = '\0';
	return rt_funcs_lookup(set->s->funcs, sym);
}

/*
 * Which of the session's functions @ip is, preemption disabled (any
 * context, NMI included: no lock). Several CPUs may learn the same
 * address at once and each keep a slot; the table has room for four per
 * name, and when probing finds no room the answer is found again without
 * being kept.
 */
static int rt_func_ip_idx(struct rt_func_set *set, unsigned long ip)
{
	unsigned int mask = (1U << set->bits) - 1;
	unsigned int i = hash_long(ip, set->bits);
	unsigned int n;
	unsigned long cur;
	int idx;

	for (n = 0; n <= mask; n++, i = (i + 1) & mask) {
		/* Pairs with the release below: the slot's idx is written. */
		cur = smp_load_acquire(&set->slots[i].ip);
		if (cur == ip)
			return set->slots[i].idx;
		if (cur == RT_FUNC_IP_FREE)
			break;
	}
	idx = rt_func_ip_resolve(set, ip);
	if (idx < 0)
		return idx;
	/* Learn it: claim a free slot, fill it, then publish the address. */
	for (; n <= mask; n++, i = (i + 1) & mask) {
		if (cmpxchg(&set->slots[i].ip, RT_FUNC_IP_FREE,
			    RT_FUNC_IP_BUSY) != RT_FUNC_IP_FREE)
			continue;
		set->slots[i].idx = idx;
		/* Pairs with the acquire above: idx before the address. */
		smp_store_release(&set->slots[i].ip, ip);
		break;
	}
	return idx;
}

/* The call's first @n arguments, by the arch's calling convention. */
static void rt_func_fprobe_args(struct rt_func_call *c, rt_fprobe_regs *regs,
				u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		c->args[i] = rt_fprobe_arg(regs, i);
}

/*
 * fgraph (6.14+) keeps a sleeping call's return hook pointing at the
 * fprobe's address after unregister_fprobe(), and runs it if an fprobe is
 * registered there again (attach/fprobe.c has the story): the session's
 * next ENABLE registers this same fprobe. The entry data carries the
 * attachment's generation, unique per ENABLE, and the exit drops a call
 * whose generation is not the probe's before it looks at anything else.
 */
static int rt_func_fprobe_entry(struct fprobe *fp, unsigned long entry_ip,
				unsigned long ret_ip, rt_fprobe_regs *regs,
				void *entry_data)
{
	struct rt_func_set *set = container_of(fp, struct rt_func_set, fp);
	struct rt_func_call *c = entry_data;
	bool want = false;
	int idx;

	preempt_disable_notrace();
	idx = rt_func_ip_idx(set, entry_ip);
	if (likely(idx >= 0)) {
		c->gen = set->gen;
		c->idx = idx;
		rt_func_fprobe_args(c, regs, set->s->funcs->args);
		want = rt_func_enter(set->s, c);
	} else {
		atomic64_inc(&set->unknown);
	}
	preempt_enable_notrace();
	/* Non-zero: no exit handler for this call. */
	return !want;
}

static void rt_func_fprobe_exit(struct fprobe *fp, unsigned long entry_ip,
				unsigned long ret_ip, rt_fprobe_regs *regs,
				void *entry_data)
{
	struct rt_func_set *set = container_of(fp, struct rt_func_set, fp);
	const struct rt_func_call *c = entry_data;

	if (c->gen != set->gen)
		return;
	/* The record goes to this CPU's ring, whichever hook calls us. */
	preempt_disable_notrace();
	rt_func_exit(set->s, c, c->idx, entry_ip, rt_fprobe_retval(regs),
		     ret_ip);
	preempt_enable_notrace();
}

/*
 * Which name made register_fprobe_syms() refuse the batch: halves of it
 * registered on a probe of no consequence (its handler records nothing),
 * each half that registers taken away at once and the search going on in
 * the other. About log2(n) registrations, only when the batch failed.
 */
static int rt_func_scratch_entry(struct fprobe *fp, unsigned long entry_ip,
				 unsigned long ret_ip, rt_fprobe_regs *regs,
				 void *entry_data)
{
	return 0;
}

static DEFINE_MUTEX(rt_func_scratch_mutex);
static struct fprobe rt_func_scratch;	/* static: handlers may still look */

static int rt_func_scratch_try(const char **syms, unsigned int n)
{
	int err;

	rt_func_scratch = (struct fprobe) {
		.entry_handler	= rt_func_scratch_entry,
	};
	err = register_fprobe_syms(&rt_func_scratch, syms, n);
	if (!err)
		unregister_fprobe(&rt_func_scratch);
	return err;
}

/* The first name refused on its own, and its errno in *@err; or NULL. */
static const char *rt_func_fprobe_refused(const char **syms, unsigned int n,
					  int *err)
{
	const char *name = NULL;

	mutex_lock(&rt_func_scratch_mutex);
	while (n > 1) {
		unsigned int half = n / 2;

		/* Either half refused: the search goes on in it. */
		if (rt_func_scratch_try(syms, half)) {
			n = half;
		} else {
			syms += half;
			n -= half;
		}
	}
	*err = rt_func_scratch_try(syms, 1);
	if (*err)
		name = syms[0];
	mutex_unlock(&rt_func_scratch_mutex);
	return name;
}

int rt_func_probes_register(struct rt_func_set *set, struct rt_session *s,
			    const u32 *idx, unsigned int n, u64 gen)
{
	const char *refused;
	const char **syms;
	unsigned int i;
	int err, why;

	BUILD_BUG_ON(sizeof(struct rt_func_call) > RT_FPROBE_DATA_MAX);
	/* register_fprobe_syms() sorts the array: one of our own. */
	syms = kvmalloc_array(n, sizeof(*syms), GFP_KERNEL);
	if (!syms)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		syms[i] = s->funcs->name[idx[i]];
	/* Four slots a name: room for the CPUs learning one at once. */
	set->bits = ilog2(roundup_pow_of_two(max(4 * n, 16U)));
	set->slots = kvcalloc(1U << set->bits, sizeof(*set->slots),
			      GFP_KERNEL);
	if (!set->slots) {
		err = -ENOMEM;
		goto out;
	}
	/* Written before the probe can run; its handlers only read. */
	set->s = s;
	set->gen = gen;
	atomic64_set(&set->unknown, 0);
	set->fp = (struct fprobe) {
		.entry_handler		= rt_func_fprobe_entry,
		.exit_handler		= rt_func_fprobe_exit,
		.entry_data_size	= sizeof(struct rt_func_call),
	};
	rt_fprobe_set_maxactive(&set->fp, min(n * RT_FUNC_MAXACTIVE,
					      RT_FUNC_SET_MAXACTIVE));
	err = register_fprobe_syms(&set->fp, syms, n);
	if (!err) {
		set->registered = true;
		goto out;
	}
	kvfree(set->slots);
	set->slots = NULL;
	if (n > 1) {
		refused = rt_func_fprobe_refused(syms, n, &why);
	} else {
		refused = syms[0];
		why = err;
	}
	if (refused)
		pr_notice("cannot trace %s with fprobe: %s (%d)\n", refused,
			  rt_func_refusal(why), why);
	else
		pr_notice("cannot trace %u functions with one fprobe: %s (%d)\n",
			  n, rt_func_refusal(err), err);
out:
	kvfree(syms);
	return err;
}

u64 rt_func_probes_unregister(struct rt_func_set *set)
{
	if (!set->registered)
		return 0;
	unregister_fprobe(&set->fp);
	set->registered = false;
	/* No entry handler runs any more: nothing looks at the table. */
	kvfree(set->slots);
	set->slots = NULL;
	return rt_func_probes_missed(set);
}

u64 rt_func_probes_missed(const struct rt_func_set *set)
{
	return READ_ONCE(set->fp.nmissed) + atomic64_read(&set->unknown);
}

#endif /* RT_HAVE_FPROBE */
