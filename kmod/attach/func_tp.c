// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel tracepoints by name (func_tp.h): one probe function for every
 * tracepoint, whatever its prototype. A tracepoint calls its probes as
 * probe(data, arg0, arg1, ...); ours takes the data pointer and six
 * register-sized arguments, which is what the 64-bit calling conventions
 * of x86-64 and arm64 pass for any prototype of scalars and pointers:
 * a tracepoint with fewer leaves registers (on x86-64, past its fifth,
 * the caller's stack slot) that we read and the reader ignores
 * (ringtrace_func_record's nr_args; BTF says how many are meaningful).
 * Where the kernel checks each indirect call against the callee's
 * prototype (kCFI), that call would be stopped: lib/compat.h's
 * RT_HAVE_TP_ANY is not defined there and a name is refused.
 *
 * Context: 6.1 and 6.12 call probes with preemption disabled (RCU-sched);
 * 7.x calls them under SRCU-fast, preemptible, and faultable (syscall)
 * tracepoints preemptible on 6.13+ too. The probe disables preemption
 * itself around everything, so a session's enabled flag is read under
 * the RCU-sched section DISABLE's rt_sessions_synchronize() waits for;
 * unregistering waits with tracepoint_synchronize_unregister(), which
 * waits for both kinds of readers, before the probe's data is reused or
 * freed.
 *
 * A module's tracepoint (9p, ext4, kvm...) is found by name too
 * (lib/tracepoint.c) and keeps its module loaded while the probe is on
 * it, as an ftrace event enabled on it does: unloading it would free the
 * tracepoint under us.
 */
#include <linux/errno.h>
#include <linux/hardirq.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "events/func.h"
#include "func_tp.h"
#include "lib/compat.h"
#include "lib/tracepoint.h"

const char *rt_func_tp_name(const char *name)
{
	const char *last;

	if (strncmp(name, RINGTRACE_FUNC_TP_PREFIX,
		    sizeof(RINGTRACE_FUNC_TP_PREFIX) - 1))
		return NULL;
	last = strrchr(name, ':');
	return last + 1;
}

#ifdef RT_HAVE_TP_ANY

static void rt_func_tp_probe(void *data, unsigned long a0, unsigned long a1,
			     unsigned long a2, unsigned long a3,
			     unsigned long a4, unsigned long a5)
{
	const u64 args[RINGTRACE_FUNC_MAX_ARGS] = { a0, a1, a2, a3, a4, a5 };
	struct rt_func_tp *t = data;

	BUILD_BUG_ON(RINGTRACE_FUNC_MAX_ARGS != 6);
	/*
	 * An NMI may have interrupted this CPU inside a record's cgroup
	 * naming or stack capture, whose buffers are per context level up
	 * to hard interrupts: counted, not written.
	 */
	if (unlikely(in_nmi())) {
		atomic64_inc(&t->missed);
		return;
	}
	preempt_disable_notrace();
	rt_func_hit(t->s, args, t->idx, (unsigned long)t->tp, _RET_IP_);
	preempt_enable_notrace();
}

int rt_func_tp_register(struct rt_func_tp *t, const char *tp_name)
{
	struct tracepoint *tp = rt_tracepoint_get(tp_name, &t->mod);
	int err;

	if (!tp)
		return -ENOENT;
	atomic64_set(&t->missed, 0);
	err = tracepoint_probe_register(tp, (void *)rt_func_tp_probe, t);
	if (err) {
		rt_tracepoint_put(t->mod);
		t->mod = NULL;
		return err;
	}
	t->tp = tp;
	return 0;
}

void rt_func_tp_unregister(struct rt_func_tp *t)
{
	if (!t->tp)
		return;
	/* Since 5.11 it does not fail for want of memory; warn if it did. */
	WARN_ON_ONCE(tracepoint_probe_unregister(t->tp,
						 (void *)rt_func_tp_probe, t));
	t->tp = NULL;
}

void rt_func_tp_sync(void)
{
	tracepoint_synchronize_unregister();
}

void rt_func_tp_release(struct rt_func_tp *t)
{
	/* After rt_func_tp_sync(): no call of our probe is left in it. */
	rt_tracepoint_put(t->mod);
	t->mod = NULL;
}

#else /* !RT_HAVE_TP_ANY */

int rt_func_tp_register(struct rt_func_tp *t, const char *tp_name)
{
	return -EOPNOTSUPP;
}

void rt_func_tp_unregister(struct rt_func_tp *t)
{
}

void rt_func_tp_sync(void)
{
}

void rt_func_tp_release(struct rt_func_tp *t)
{
}

#endif /* RT_HAVE_TP_ANY */
