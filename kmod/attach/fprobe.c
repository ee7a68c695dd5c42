// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_read through an fprobe: an ftrace callback at entry and a return
 * hook (rethook until 6.13, the function-graph shadow stack from 6.14)
 * that keeps the call's entry data per task, so a call that sleeps or
 * returns on another CPU still finds its own. Cheaper than the kretprobe:
 * no kprobe state to save and restore around the handlers. Where the
 * kernel has no fprobe (Debian 6.1), this mechanism is not available.
 */
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/ringtrace.h>

#include "attach.h"
#include "events/vfs_read.h"
#include "lib/compat.h"

#ifdef RT_HAVE_FPROBE

/*
 * A call that sleeps in vfs_read across a detach and an attach again must
 * not reach the second attachment's exit handler.
 *
 * rethook (up to 6.13): unregister_fprobe() frees the fprobe's rethook,
 * whose handler it clears first; a pending call returns through its node
 * and finds no handler. The next attachment gets a new rethook. Safe.
 *
 * fgraph (6.14+): the call's return hook is an entry on the task's shadow
 * stack holding the fprobe's address and the entry data. It stays there,
 * and fprobe_return() runs it, as long as fgraph's fprobe ops stay
 * registered; any other fprobe with an exit handler (a tracefs fprobe
 * event on any function) keeps them so. fprobe_return() only checks that
 * some registered fprobe has that address (fprobe_registered()). With one
 * static fprobe registered again at the same address, the old call ran
 * our exit handler with the old attachment's entry data, and fprobe's own
 * size check on that entry (the WARN at fprobe.c:683 of 7.2.13, reached
 * only for a registered fprobe) could fire (panic_on_warn).
 *
 * Two guards, harmless on rethook:
 *
 * - The entry data carries the attachment's generation, and the exit
 *   handler drops a call whose generation is not the current one. The
 *   data is the call's own (written by our entry handler of that
 *   attachment), so this holds however fprobe finds the handler. The
 *   generation moves on only under the attach mutex, after the previous
 *   unregister_fprobe() (which waits until no handler runs, so no old
 *   entry handler stores the new value), and a grace period separates
 *   that store from the next registration: both handlers run in
 *   RCU-sched read-side sections (ftrace callbacks with preemption off;
 *   fprobe_return() under rcu_sched), and one that can see the new
 *   registration began after the grace period, so it sees the new
 *   generation too. No barrier is needed in the handlers.
 *   This one alone keeps every such call out of the records.
 * - Successive attachments alternate between two fprobes, so a call that
 *   slept across one detach + attach points at an fprobe that is not
 *   registered: fprobe_return() skips it without looking at its data
 *   (no handler call, and fprobe's size check is not reached). One that
 *   sleeps across two finds its fprobe registered again: the generation
 *   drops it, but fprobe's check runs on it first (not seen to fire;
 *   what could make it fire is fprobe's own matter).
 *
 * Allocating a new fprobe per attachment instead would not prove more:
 * fgraph keeps no reference, so the old one could only be freed at an
 * unknown time, and a later allocation may land at the same address.
 */
struct rt_fprobe_call {
	struct rt_vfs_read_call	call;
	unsigned long		gen;	/* rt_fprobe_gen at entry */
};

static struct fprobe rt_fprobes[2];
static unsigned long rt_fprobe_gen;	/* written under the attach mutex */

static struct fprobe *rt_fprobe_cur(void)
{
	return &rt_fprobes[READ_ONCE(rt_fprobe_gen) & 1];
}

static int rt_fprobe_entry(struct fprobe *fp, unsigned long entry_ip,
			   unsigned long ret_ip, rt_fprobe_regs *regs,
			   void *entry_data)
{
	struct rt_fprobe_call *c = entry_data;

	c->gen = READ_ONCE(rt_fprobe_gen);
	/* Non-zero: no exit handler for this call. */
	return !rt_vfs_read_enter(&c->call,
			(struct file *)rt_fprobe_arg(regs, 0),
			rt_fprobe_arg(regs, 2),
			(loff_t *)rt_fprobe_arg(regs, 3));
}

static void rt_fprobe_exit(struct fprobe *fp, unsigned long entry_ip,
			   unsigned long ret_ip, rt_fprobe_regs *regs,
			   void *entry_data)
{
	const struct rt_fprobe_call *c = entry_data;

	/* Entered under a past attachment: not this one's (see above). */
	if (c->gen != READ_ONCE(rt_fprobe_gen))
		return;
	/*
	 * The session walk is an RCU reader and the record goes to this
	 * CPU's ring: make sure of what the kretprobe handler gets for free,
	 * whichever return hook calls us.
	 */
	preempt_disable_notrace();
	rt_vfs_read_exit(&c->call, rt_fprobe_retval(regs), ret_ip);
	preempt_enable_notrace();
}

static bool rt_fprobe_available(void)
{
	return true;
}

static int rt_fprobe_attach(unsigned int maxactive)
{
	static const char *const syms[] = { "vfs_read" };
	struct fprobe *fp;

	BUILD_BUG_ON(sizeof(struct rt_fprobe_call) > RT_FPROBE_DATA_MAX);
	/* A new attachment, seen by every handler that can see it (above). */
	WRITE_ONCE(rt_fprobe_gen, rt_fprobe_gen + 1);
	synchronize_rcu();
	fp = rt_fprobe_cur();
	*fp = (struct fprobe) {
		.entry_handler		= rt_fprobe_entry,
		.exit_handler		= rt_fprobe_exit,
		.entry_data_size	= sizeof(struct rt_fprobe_call),
	};
	rt_fprobe_set_maxactive(fp, maxactive);
	return register_fprobe_syms(fp, (const char **)syms, 1);
}

/*
 * unregister_fprobe() waits until no handler runs; a call still inside
 * vfs_read then returns past the hook without calling us (rethook), or
 * is dropped by the guards above (fgraph).
 */
static void rt_fprobe_detach(void)
{
	unregister_fprobe(rt_fprobe_cur());
}

static u64 rt_fprobe_missed(void)
{
	return READ_ONCE(rt_fprobe_cur()->nmissed);
}

#else /* !RT_HAVE_FPROBE */

static bool rt_fprobe_available(void)
{
	return false;
}

static int rt_fprobe_attach(unsigned int maxactive)
{
	return -EOPNOTSUPP;
}

static void rt_fprobe_detach(void)
{
}

static u64 rt_fprobe_missed(void)
{
	return 0;
}

#endif /* RT_HAVE_FPROBE */

const struct rt_attach_ops rt_attach_fprobe = {
	.name		= "fprobe",
	.id		= RINGTRACE_ATTACH_FPROBE,
	.available	= rt_fprobe_available,
	.attach		= rt_fprobe_attach,
	.detach		= rt_fprobe_detach,
	.missed		= rt_fprobe_missed,
};
