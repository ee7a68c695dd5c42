/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels ringtrace builds against (Debian's 6.1,
 * 6.12 and sid's 7.2, with and without PREEMPT_RT, on x86-64 and arm64),
 * kept in one place and keyed on what the kernel provides, so the rest of
 * the module reads like code for the newest kernel. The assembly of
 * direct/ includes it too: what it needs comes first, the C after.
 */
#ifndef _RINGTRACE_COMPAT_H
#define _RINGTRACE_COMPAT_H

#include <linux/version.h>

/*
 * ftrace's direct calls to a trampoline of ours (direct/): x86-64
 * kernels built with them. Elsewhere ringtrace_direct.ko is built empty
 * and the direct call is not offered.
 */
#if defined(CONFIG_X86_64) && \
	defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)
#define RT_HAVE_DIRECT	1
#endif

#ifdef __ASSEMBLY__
/*
 * The trampoline's annotations: 7.x moved ANNOTATE_NOENDBR and its kin
 * into <linux/annotate.h>; 6.2 added call-depth tracking (retbleed=stuff),
 * whose accounting an entry reached by a CALL that is not accounted does
 * itself.
 */
#if __has_include("linux/annotate.h")
#include <linux/annotate.h>
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define RT_CALL_DEPTH_ACCOUNT	CALL_DEPTH_ACCOUNT
#else
#define RT_CALL_DEPTH_ACCOUNT
#endif
#else /* !__ASSEMBLY__ */

#include <linux/bug.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/timer.h>

/* 6.3 made vma->vm_flags read-only and added vm_flags_{set,clear}(). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void rt_vm_flags_set(struct vm_area_struct *vma, vm_flags_t f)
{
	vma->vm_flags |= f;
}

static inline void rt_vm_flags_clear(struct vm_area_struct *vma, vm_flags_t f)
{
	vma->vm_flags &= ~f;
}
#else
#define rt_vm_flags_set		vm_flags_set
#define rt_vm_flags_clear	vm_flags_clear
#endif

/* 6.2 renamed del_timer_sync(); 6.15 dropped the old name. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define rt_timer_delete_sync	del_timer_sync
#else
#define rt_timer_delete_sync	timer_delete_sync
#endif

/*
 * 6.16 renamed from_timer() to timer_container_of() and dropped the old
 * name; both are macros, so the new name's absence says which one we have.
 */
#ifndef timer_container_of
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

/*
 * 6.13 added hrtimer_setup(), which sets the callback too, and later
 * kernels dropped hrtimer_init(). Only the selftest modules use hrtimers.
 */
#include <linux/hrtimer.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void rt_hrtimer_setup(struct hrtimer *t,
				    enum hrtimer_restart (*fn)(struct hrtimer *),
				    clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(t, clock, mode);
	t->function = fn;
}
#else
#define rt_hrtimer_setup	hrtimer_setup
#endif

/*
 * fprobe with an exit handler and per-call entry data. Debian 6.1 has no
 * CONFIG_FPROBE. 6.2 gave the entry handler a return value (non-zero: no
 * exit handler for this call) and entry data, 6.5 passed the return
 * address: from there on the handlers have the shape attach/fprobe.c
 * uses, which a typedef does not let the preprocessor see, hence the
 * version. 6.14 moved fprobe from ftrace + rethook onto fgraph: the
 * handlers get ftrace_regs instead of pt_regs, and <linux/fprobe.h>
 * gained MAX_FPROBE_DATA_SIZE (entry data is limited to it), the key
 * used below; fgraph needs no preallocated return hooks, so nr_maxactive
 * became unused there, and a later kernel (sid's 7.2) removed it.
 */
#if IS_ENABLED(CONFIG_FPROBE) && \
	LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define RT_HAVE_FPROBE	1
#include <linux/fprobe.h>
#include <linux/ptrace.h>
#ifdef MAX_FPROBE_DATA_SIZE
#define rt_fprobe_regs		struct ftrace_regs
#define rt_fprobe_arg(r, n)	ftrace_regs_get_argument((r), (n))
#define rt_fprobe_retval(r)	ftrace_regs_get_return_value(r)
#define RT_FPROBE_DATA_MAX	MAX_FPROBE_DATA_SIZE
#define rt_fprobe_set_maxactive(fp, n)	do { } while (0)
#else
#define rt_fprobe_regs		struct pt_regs
#define rt_fprobe_arg(r, n)	regs_get_kernel_argument((r), (n))
#define rt_fprobe_retval(r)	regs_return_value(r)
#define RT_FPROBE_DATA_MAX	SIZE_MAX	/* rethook nodes: no limit */
/* Return hooks preallocated: calls beyond are counted in nmissed. */
#define rt_fprobe_set_maxactive(fp, n)	((fp)->nr_maxactive = (n))
#endif
#endif

/*
 * Any tracepoint, by name (attach/func_tp.c): one probe of ours takes the
 * tracepoint's data pointer and six register-sized arguments whatever the
 * tracepoint's prototype, which the 64-bit calling conventions of x86-64
 * and arm64 allow: fewer arguments leave registers (or, past x86-64's
 * fifth, a caller's stack slot) we read and ignore. A kernel with
 * control-flow integrity (kCFI, FineIBT) checks every indirect call's
 * prototype and would stop the first call: there it is not offered, and
 * a tracepoint name is refused (EOPNOTSUPP) at ENABLE.
 */
#if BITS_PER_LONG == 64 && !defined(CONFIG_CFI_CLANG) && !defined(CONFIG_CFI)
#define RT_HAVE_TP_ANY	1
#endif

/*
 * ftrace direct calls (direct/direct_call.c). 6.5 removed the single-function
 * register_ftrace_direct(ip, addr) and renamed the ops-based
 * *_ftrace_direct_multi() to *_ftrace_direct(), whose unregister frees
 * the filter when asked; on 6.1 we free it ourselves.
 */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
#include <linux/ftrace.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
#define rt_register_ftrace_direct	register_ftrace_direct_multi
static inline int rt_unregister_ftrace_direct(struct ftrace_ops *ops,
					      unsigned long addr)
{
	int err = unregister_ftrace_direct_multi(ops, addr);

	ftrace_free_filter(ops);
	return err;
}
#else
#define rt_register_ftrace_direct	register_ftrace_direct
#define rt_unregister_ftrace_direct(ops, addr) \
	unregister_ftrace_direct((ops), (addr), true)
#endif

/*
 * ftrace_ops.ops_func, which lets a direct call share a function with an
 * IPMODIFY user (a livepatch): 7.x added the function's address as its
 * second argument. The member's type says which shape this kernel has:
 * a typedef is invisible to the preprocessor, the compiler sees it.
 */
typedef int (*rt_ops_func_ip_t)(struct ftrace_ops *op, unsigned long ip,
				enum ftrace_ops_cmd cmd);
#define rt_ftrace_ops_func(with_ip, without_ip)				\
	__builtin_choose_expr(__builtin_types_compatible_p(		\
		typeof(((struct ftrace_ops *)NULL)->ops_func),		\
		rt_ops_func_ip_t), (with_ip), (without_ip))
#endif

/*
 * 7.x's compiler context analysis replaced sparse's __cond_lock() with
 * __cond_acquires() on the function; where it is gone, a conditional
 * acquire is just its condition (what non-sparse builds always had).
 */
#ifndef __cond_lock
#define __cond_lock(x, c)	(c)
#endif

/*
 * Cgroups. A kernel without CONFIG_CGROUPS (the allnoconfig-based debug
 * kernels of scripts/debug-kernel) declares none of these: the cgroup
 * filter and task_ext are refused there before any lookup
 * (rt_cgroup_features() is 0 without RT_HAVE_CGROUPS), so the stubs are
 * never reached, but the module must still build. Callers of the task and id helpers run with
 * preemption disabled (the task's css_set is RCU-protected).
 */
#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/kernfs.h>

#define RT_HAVE_CGROUPS		IS_ENABLED(CONFIG_CGROUPS)
#include <linux/rcupdate.h>
#include <linux/string.h>

static inline struct cgroup *rt_cgroup_get_from_id(u64 id)
{
#ifdef CONFIG_CGROUPS
	return cgroup_get_from_id(id);
#else
	return ERR_PTR(-EOPNOTSUPP);
#endif
}

static inline void rt_cgroup_put(struct cgroup *cgrp)
{
#ifdef CONFIG_CGROUPS
	cgroup_put(cgrp);
#endif
}

/* @task's cgroup v2. */
static __always_inline struct cgroup *rt_task_dfl_cgroup(struct task_struct *task)
{
#ifdef CONFIG_CGROUPS
	return task_dfl_cgroup(task);
#else
	return NULL;
#endif
}

static __always_inline u64 rt_cgroup_id(struct cgroup *cgrp)
{
#ifdef CONFIG_CGROUPS
	return cgroup_id(cgrp);
#else
	return 0;
#endif
}

/* Pointer compares only: @cgrp's ancestor array. */
static __always_inline bool rt_cgroup_is_descendant(struct cgroup *cgrp,
						    struct cgroup *ancestor)
{
#ifdef CONFIG_CGROUPS
	return cgroup_is_descendant(cgrp, ancestor);
#else
	return false;
#endif
}

/*
 * A cgroup's path in probe context, into @buf (@max + 2 bytes): its
 * length, not NUL-terminated, at most @max (*truncated then says whether
 * it lost its first components), or -1 when it cannot be built here.
 *
 * 6.15 made kernfs node names and parents RCU-protected (freed after a
 * grace period on rename), so a walk up the ancestors under
 * rcu_read_lock() needs no lock, and keeps the last names when the path
 * is too long. Before, kernfs_path_from_node() takes kernfs_rename_lock, a
 * spinlock with interrupts off: fine in a probe, unless the probe runs
 * holding that lock or the runqueue's (RT_CGROUP_PATH_LOCKS: such callers
 * must not name), and a sleeping lock on PREEMPT_RT, where no name can be
 * built at all.
 */
#if !IS_ENABLED(CONFIG_CGROUPS)
#define RT_CGROUP_PATH_LOCKS	0
static inline int rt_cgroup_path_of(struct cgroup *cgrp, char *buf, u32 max,
				    bool *truncated)
{
	return -1;
}
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
#define RT_CGROUP_PATH_LOCKS	0
/*
 * Its last components that fit in @max bytes; a name alone too long for
 * them, its last bytes.
 */
static inline int rt_cgroup_path_of(struct cgroup *cgrp, char *buf, u32 max,
				    bool *truncated)
{
	char *end = buf + max, *p = end;
	const char *name;
	size_t n;

	rcu_read_lock();
	for (; cgroup_parent(cgrp); cgrp = cgroup_parent(cgrp)) {
		name = rcu_dereference(cgrp->kn->name);
		n = strlen(name);
		if (n + 1 > (size_t)(p - buf)) {
			*truncated = true;
			if (p == end) {
				p = buf;
				memcpy(p, name + n - max, max);
			}
			break;
		}
		p -= n;
		memcpy(p, name, n);
		*--p = '/';
	}
	rcu_read_unlock();
	if (p == end)
		*--p = '/';	/* the root */
	n = end - p;
	memmove(buf, p, n);
	return n;
}
#elif !IS_ENABLED(CONFIG_PREEMPT_RT)
#define RT_CGROUP_PATH_LOCKS	1
/*
 * Its first bytes. kernfs_path_from_node() answers with the whole path's
 * length (strlcpy()) or, since its strscpy()/scnprintf() rewrite, which
 * 6.1's stable updates took, with the bytes it wrote: a byte more room
 * than a record keeps tells a path one byte too long in both.
 */
static inline int rt_cgroup_path_of(struct cgroup *cgrp, char *buf, u32 max,
				    bool *truncated)
{
	return kernfs_path_from_node(cgrp->kn, NULL, buf, max + 2);
}
#else
#define RT_CGROUP_PATH_LOCKS	0
static inline int rt_cgroup_path_of(struct cgroup *cgrp, char *buf, u32 max,
				    bool *truncated)
{
	return -1;
}
#endif

/*
 * @cgrp's path in @buf (@max + 2 bytes), at most @max bytes of it: the one
 * bound every variant above answers to. The length, or -1: no name.
 */
static inline int rt_cgroup_path(struct cgroup *cgrp, char *buf, u32 max,
				 bool *truncated)
{
	int len = rt_cgroup_path_of(cgrp, buf, max, truncated);

	if (len > (int)max) {
		*truncated = true;
		len = max;
	}
	return len < 0 ? -1 : len;
}

/*
 * A file's path in probe context (lib/path.c). d_path() walks under RCU
 * with rename_lock's and mount_lock's seqcounts and takes them as
 * spinlocks when a rename or a mount change raced that pass; d_dname
 * methods may take spinlocks of their own (dma-buf). On PREEMPT_RT those
 * are sleeping locks, which a probe must not take: there the path is
 * built by a lockless walk of our own.
 */
#define RT_D_PATH_SLEEPS	IS_ENABLED(CONFIG_PREEMPT_RT)

/*
 * Whether @task still runs on a CPU (its last switch not finished), read
 * with acquire: pairs with finish_task_switch()'s smp_store_release() of
 * prev->on_cpu, which exists on SMP kernels only (a UP kernel has no
 * other CPU to be running it on).
 */
static inline bool rt_task_on_cpu_acquire(struct task_struct *task)
{
#ifdef CONFIG_SMP
	/* Pairs with finish_task_switch()'s release of prev->on_cpu. */
	return smp_load_acquire(&task->on_cpu);
#else
	return task == current;
#endif
}

/*
 * With CONFIG_DEBUG_LOCK_ALLOC, mutex_lock() has no fast path: every
 * acquisition enters the slow path, which reports lock contention
 * tracepoints even when the lock was free (events/contention.c).
 */
#define RT_MUTEX_NO_FASTPATH	IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC)

/*
 * arm64's user stack walk (stack.c) strips the pointer authentication code
 * from saved return addresses. 6.4 renamed ptrauth_strip_insn_pac() (an
 * inline of <asm/pointer_auth.h>, which works on user and kernel
 * addresses alike) to ptrauth_strip_user_insn_pac(), a macro of
 * <asm/compiler.h>: its absence says which one we have.
 */
#ifdef CONFIG_ARM64
#include <asm/compiler.h>
#include <asm/pointer_auth.h>
#ifndef ptrauth_strip_user_insn_pac
#define ptrauth_strip_user_insn_pac(ptr)	ptrauth_strip_insn_pac(ptr)
#endif
#endif

/*
 * RT_ASSERT_RCU_READER(held, msg): a producer about to read what RCU
 * protects (the enabled sessions, the off-CPU table) warns, once per
 * call site, when it is no reader. Kernels with CONFIG_PROVE_RCU ask
 * lockdep whether @held. Elsewhere, Debian's stock kernels among them,
 * RCU_LOCKDEP_WARN is compiled out (and rcu_read_lock_held() answers 1),
 * so ask what being a reader leaves behind: preemption or interrupts
 * disabled (an RCU-sched reader, which synchronize_rcu() waits for), or,
 * with CONFIG_PREEMPT_RCU, rcu_read_lock()'s nesting in current
 * (rcu_preempt_depth(), 0 without it, where rcu_read_lock() disables
 * preemption). Without CONFIG_PREEMPT_COUNT preemptible() is 0: nothing
 * can be told, the check is constant and compiled away. Debian's kernels
 * have it (PREEMPT_DYNAMIC). The cost on the hot path, where readers run
 * with preemption disabled: one per-CPU load of preempt_count, a test and
 * a predicted branch (three instructions in x86-64's vfs_read entry);
 * interrupts and rcu_preempt_depth() are looked at only when the count
 * is 0, on the way to the warning, whose once flag costs nothing before.
 */
static __always_inline bool rt_rcu_reader(void)
{
	return !preemptible() || rcu_preempt_depth() > 0;
}

#ifdef CONFIG_PROVE_RCU
#define RT_ASSERT_RCU_READER(held, msg)	RCU_LOCKDEP_WARN(!(held), msg)
#else
#define RT_ASSERT_RCU_READER(held, msg)	WARN_ONCE(!rt_rcu_reader(), msg)
#endif

#endif /* !__ASSEMBLY__ */

#endif /* _RINGTRACE_COMPAT_H */
