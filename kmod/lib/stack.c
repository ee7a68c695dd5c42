// SPDX-License-Identifier: GPL-2.0
/*
 * Stacks of probed calls, captured in the probe into a per-CPU buffer (one
 * per context level: task, softirq, hardirq, NMI, so that a lock record
 * written from an interrupt cannot overwrite the stack a vfs_read return
 * is copying), then copied into the record's trailer once its size is
 * known.
 *
 * Kernel stacks: stack_trace_save(), the exported unwinder entry (the
 * _regs and _user variants are not exported to modules). It starts in our
 * own handler, so the frames up to the probed call's are cut: up to the
 * return address the caller gives (vfs_read's, which the return probe
 * knows), or else those inside this module.
 *
 * The return address a mechanism hands us is what it found in vfs_read's
 * return slot. Another tool hooking the same return (a kretprobe, an
 * fexit program, a function_graph user) may have put its trampoline
 * there, while the unwinder shows the real caller (it translates those
 * trampolines back): the anchor is then not found. We
 * then cut, besides this module's frames, those of ringtrace_direct.ko
 * (the direct call's trampoline and exit, which call us), the
 * trampoline's own return address into vfs_read's fentry site (the
 * probed function is not its own caller), any return trampoline the
 * unwinder left as it is, and the C functions a return trampoline calls
 * on its way to our handler. These last are what arm64 shows: when the
 * fprobe (fgraph, 6.14 and later) hooked vfs_read's return after a
 * kretprobe did, the return address fprobe hands us is the kretprobe's
 * trampoline, while arm64's unwinder lists fprobe_return and
 * ftrace_return_to_handler, called from return_to_handler, then
 * translates both trampolines back to the real caller; the stack started
 * at fprobe_return. ringtrace_direct.ko and the trampolines
 * have no exported address test, so those frames are named with
 * sprint_symbol(), only on this path, and only until the first frame that
 * is none of them.
 *
 * User stacks: a frame-pointer walk from the registers the task entered
 * the kernel with, reading each frame with copy_from_user_nofault(), which
 * never sleeps nor faults pages in: what is not resident ends the walk
 * (RINGTRACE_STACK_USER_FAULT). perf --call-graph fp does the same walk
 * (its own code is not exported either). Code built without frame
 * pointers gives a short or wrong chain, as with perf. x86-64 and arm64
 * (64-bit tasks); the architectures' differences are in one block below.
 */
#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/ringtrace.h>

#include "compat.h"
#include "percpu_buf.h"
#include "stack.h"
#include "version.h"

/* Frames of our handler and the probe machinery under the probed call. */
#define RT_STACK_SLACK		24
/*
 * The return of vfs_read's fentry call (after endbr64 and a 5-byte call):
 * "vfs_read+0xN/..." with N below 16. vfs_read is not exported on 6.1,
 * so it is recognised by name.
 */
#define RT_STACK_FENTRY_SYM	"vfs_read+0x"
#define RT_STACK_LEVELS		4	/* interrupt_context_level() values */

struct rt_stack_buf {
	unsigned long	kernel[RINGTRACE_STACK_MAX_DEPTH + RT_STACK_SLACK];
	unsigned long	user[RINGTRACE_STACK_MAX_DEPTH];
	char		sym[KSYM_SYMBOL_LEN];	/* rt_stack_machinery() */
	bool		busy;
};

static struct rt_percpu_buf rt_stack_bufs =
	RT_PERCPU_BUF_INIT(rt_stack_bufs,
			   RT_STACK_LEVELS * sizeof(struct rt_stack_buf),
			   __alignof__(struct rt_stack_buf));

int rt_stack_buffers_get(void)
{
	return rt_percpu_buf_get(&rt_stack_bufs);
}

void rt_stack_buffers_put(void)
{
	rt_percpu_buf_put(&rt_stack_bufs);
}

/* This CPU's buffer for @level (preemption disabled). */
static struct rt_stack_buf *rt_stack_buf(unsigned int level)
{
	struct rt_stack_buf __percpu *bufs = rt_stack_bufs.ptr;

	return this_cpu_ptr(bufs) + level;
}

/* sprint_symbol()'s @sym names the function @name ("name+off/size"). */
static bool rt_stack_sym_is(const char *sym, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(sym, name, len) && sym[len] == '+';
}

/*
 * A frame of the probe machinery above the probed call's caller, outside
 * this module: ringtrace_direct.ko, or a return trampoline of the kernel
 * that the unwinder did not translate. sprint_symbol() gives
 * "name+off/size [module]"; it takes no lock that could sleep.
 */
static bool rt_stack_machinery(struct rt_stack_buf *b, unsigned long ip)
{
	static const char direct[] = " [" RT_DIRECT_MODULE "]";
	static const char *const tramps[] = {
		/* The trampolines. */
		"__kretprobe_trampoline", "kretprobe_trampoline",
		"arch_rethook_trampoline", "rethook_trampoline",
		"return_to_handler",
		/* What they call before our handler (fgraph, rethook). */
		"fprobe_return", "ftrace_return_to_handler",
		"__ftrace_return_to_handler", "fprobe_exit_handler",
		"rethook_trampoline_handler", "arch_rethook_trampoline_callback",
		"kretprobe_rethook_handler", "trampoline_probe_handler",
		"__kretprobe_trampoline_handler", "kretprobe_trampoline_handler",
	};
	size_t len, i;

	sprint_symbol(b->sym, ip);
	/* The direct trampoline was called from vfs_read's fentry site. */
	len = sizeof(RT_STACK_FENTRY_SYM) - 1;
	if (!strncmp(b->sym, RT_STACK_FENTRY_SYM, len) &&
	    isxdigit(b->sym[len]) && b->sym[len + 1] == '/')
		return true;
	len = strlen(b->sym);
	if (len >= sizeof(direct) - 1 &&
	    !strcmp(b->sym + len - (sizeof(direct) - 1), direct))
		return true;
	for (i = 0; i < ARRAY_SIZE(tramps); i++)
		if (rt_stack_sym_is(b->sym, tramps[i]))
			return true;
	return false;
}

/*
 * A capture in interrupt context that interrupted a task inside fgraph's
 * return_to_handler: ORC cannot step from there ("stack going in the
 * wrong direction?", printed once per boot, scripts/vm/splat-ignore) and
 * stops, so the stack ends with the interrupted return_to_handler and
 * the task's frames below it are missing. Flag it as truncated. A
 * complete kernel stack never ends there (it ends at the entry code),
 * and only the last frame is looked up, only in interrupt context.
 */
static bool rt_stack_cut_at_fgraph(struct rt_stack_buf *b, unsigned int n,
				   unsigned int max)
{
	if (in_task() || !n || n == max)
		return false;
	sprint_symbol(b->sym, b->kernel[n - 1]);
	return rt_stack_sym_is(b->sym, "return_to_handler");
}

static u16 rt_stack_kernel(struct rt_stack_buf *b, unsigned int depth,
			   unsigned long anchor, u32 *flags,
			   const unsigned long **start)
{
	unsigned int n, i = 0;
	bool lost = false;

	n = stack_trace_save(b->kernel, depth + RT_STACK_SLACK, 0);
	if (anchor) {
		while (i < n && b->kernel[i] != anchor)
			i++;
		if (i == n) {	/* not found: keep what is not ours */
			i = 0;
			lost = true;
		}
	}
	if (!i)
		while (i < n && within_module(b->kernel[i], THIS_MODULE))
			i++;
	/* Another hook at the return slot: see the top of this file. */
	if (lost)
		while (i < n && rt_stack_machinery(b, b->kernel[i]))
			i++;
	/* A full buffer may have had more frames beyond it. */
	if (n - i > depth || n == depth + RT_STACK_SLACK ||
	    rt_stack_cut_at_fgraph(b, n, depth + RT_STACK_SLACK))
		*flags |= RINGTRACE_STACK_KERNEL_TRUNCATED;
	*start = b->kernel + i;
	return min(n - i, depth);
}

/*
 * What differs between architectures, all here: where the walk starts (the
 * user pc and frame pointer the task entered the kernel with), how a frame
 * pointer is aligned, and what a saved return address holds besides the
 * address. Elsewhere (and for 32-bit tasks) there are no user stacks.
 *
 * x86-64: %rbp points at {saved %rbp, return address}, 8-byte aligned.
 *
 * arm64: x29 points at an AAPCS64 frame record {saved x29, saved x30 (the
 * link register)}, 16 bytes, kept 16-byte aligned by the compilers; the
 * saved x30 may carry a pointer authentication code in its upper bits
 * (code built with -mbranch-protection, as Debian builds its packages):
 * stripped to the address. A compat (AArch32) task has no such records:
 * none.
 */
#if defined(CONFIG_X86_64)
#define RT_STACK_USER		1
#define RT_USER_FP_ALIGN	8

static bool rt_user_start(struct pt_regs *regs, unsigned long *pc,
			  unsigned long *fp)
{
	if (!user_64bit_mode(regs))
		return false;
	*pc = regs->ip;
	*fp = regs->bp;
	return true;
}

static unsigned long rt_user_ret(unsigned long ret)
{
	return ret;
}
#elif defined(CONFIG_ARM64)
#define RT_STACK_USER		1
#define RT_USER_FP_ALIGN	16

static bool rt_user_start(struct pt_regs *regs, unsigned long *pc,
			  unsigned long *fp)
{
	if (compat_user_mode(regs))
		return false;
	*pc = instruction_pointer(regs);
	*fp = regs->regs[29];
	return true;
}

static unsigned long rt_user_ret(unsigned long ret)
{
	return ptrauth_strip_user_insn_pac(ret);
}
#endif

u64 rt_stack_features(void)
{
	u64 features = RINGTRACE_FEAT_STACK_KERNEL;

#ifdef RT_STACK_USER
	features |= RINGTRACE_FEAT_STACK_USER;
#endif
	return features;
}

#ifdef RT_STACK_USER
/* The frame a frame pointer points at: the caller's, and where we return. */
struct rt_user_frame {
	unsigned long	next;
	unsigned long	ret;
};

/* The end of the chain: no frame pointer, or not one (misaligned). */
static bool rt_user_fp_ends(unsigned long fp)
{
	return !fp || (fp & (RT_USER_FP_ALIGN - 1));
}

static u16 rt_stack_user(unsigned long *ips, unsigned int depth, u32 *flags)
{
	struct task_struct *task = current;
	unsigned long pc, fp, prev = 0;
	struct rt_user_frame frame;
	struct pt_regs *regs;
	unsigned int n = 0;

	/*
	 * Only a task that entered from user mode has user registers that
	 * say where the probed call came from; not an interrupt of it.
	 */
	if (!in_task() || !task->mm ||
	    (task->flags & (PF_KTHREAD | PF_IO_WORKER)))
		goto none;
	regs = task_pt_regs(task);
	if (!user_mode(regs) || !rt_user_start(regs, &pc, &fp))
		goto none;

	ips[n++] = pc;
	/* Bounded by depth; user memory only decides where the chain ends. */
	while (n < depth) {
		if (rt_user_fp_ends(fp))
			return n;
		/*
		 * A caller's frame lies above its callee's: a frame pointer
		 * that repeats or goes down would loop (perf's walk repeats
		 * such a frame to its depth). Stop, and say so.
		 */
		if (fp <= prev) {
			*flags |= RINGTRACE_STACK_USER_LOOP;
			return n;
		}
		if (copy_from_user_nofault(&frame, (void __user *)fp,
					   sizeof(frame))) {
			*flags |= RINGTRACE_STACK_USER_FAULT;
			return n;
		}
		frame.ret = rt_user_ret(frame.ret);
		if (!frame.ret)
			return n;
		ips[n++] = frame.ret;
		prev = fp;
		fp = frame.next;
	}
	if (fp > prev && !rt_user_fp_ends(fp))
		*flags |= RINGTRACE_STACK_USER_TRUNCATED;
	return n;
none:
	*flags |= RINGTRACE_STACK_USER_NONE;
	return 0;
}
#else
static u16 rt_stack_user(unsigned long *ips, unsigned int depth, u32 *flags)
{
	*flags |= RINGTRACE_STACK_USER_NONE;
	return 0;
}
#endif

bool rt_stack_get(struct rt_stack *st, unsigned int kdepth,
		  unsigned int udepth, unsigned long anchor)
{
	unsigned int level = interrupt_context_level();
	struct rt_stack_buf *b;

	b = rt_stack_buf(level);
	if (b->busy)
		return false;
	/* Only this CPU, at this level, uses b: no atomics needed. */
	b->busy = true;
	barrier();

	st->level = level;
	st->flags = 0;
	st->nr_kernel = 0;
	st->nr_user = 0;
	st->kernel = b->kernel;
	st->user = b->user;
	if (kdepth)
		st->nr_kernel = rt_stack_kernel(b, kdepth, anchor, &st->flags,
						&st->kernel);
	if (udepth)
		st->nr_user = rt_stack_user(b->user, udepth, &st->flags);
	return true;
}

void rt_stack_put(const struct rt_stack *st)
{
	struct rt_stack_buf *b;

	b = rt_stack_buf(st->level);
	/* Our copy out of the buffer is done before another use of it. */
	barrier();
	b->busy = false;
}

void rt_stack_write(void *dst, const struct rt_stack *st)
{
	struct ringtrace_stack_trailer *t;
	u64 *ip = dst;
	unsigned int i;

	BUILD_BUG_ON(sizeof(*t) != sizeof(u64));
	for (i = 0; i < st->nr_kernel; i++)
		*ip++ = st->kernel[i];
	for (i = 0; i < st->nr_user; i++)
		*ip++ = st->user[i];
	t = (struct ringtrace_stack_trailer *)ip;
	t->nr_kernel = st->nr_kernel;
	t->nr_user = st->nr_user;
	t->flags = st->flags;
}
