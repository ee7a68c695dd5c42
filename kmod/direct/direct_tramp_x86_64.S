/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfs_read's ftrace direct-call trampoline, with call-the-original
 * semantics (what BPF's fexit trampolines do), for x86-64.
 *
 * ftrace patches vfs_read's fentry site into "call rt_direct_tramp" (or,
 * while other ftrace users share the function, its ftrace caller returns
 * into us with the same stack). We arrive with vfs_read's arguments in
 * %rdi, %rsi, %rdx, %rcx and two return addresses on the stack:
 *
 *	 8(%rsp)	vfs_read's caller
 *	 0(%rsp)	where the call goes on: vfs_read past its fentry site,
 *			or, while a livepatch (an IPMODIFY ftrace user)
 *			shares vfs_read, its replacement, which the ftrace
 *			caller wrote there from the patched regs->ip
 *
 * Frame, once built (direct_tramp.h), %rsp-based:
 *
 *	104(%rsp)	vfs_read's caller
 *	 96(%rsp)	where the call goes on
 *	 64(%rsp)	vfs_read's arguments, then its return value
 *	  0(%rsp)	the per-call slot
 *
 * Untraced calls (rt_direct_enter() says no) return to that address at
 * once. Traced ones call it (so a livepatch's replacement is what runs,
 * as under BPF's trampolines with BPF_TRAMP_F_ORIG_STACK) and come back
 * to .Lreturned with its return value, call rt_direct_exit(), drop the
 * address and return to vfs_read's caller. A call that sleeps in
 * vfs_read keeps .Lreturned on its stack for as long as it sleeps: the
 * module may not go away meanwhile (direct_call.c holds a reference
 * until every such call has come back).
 *
 * Hardening, as the kernel's own ftrace and retpoline code do it:
 * - IBT: ENDBR at the entry (its address is taken); the original is
 *   entered with PUSH;RET, not an indirect CALL, because vfs_read+N has no
 *   ENDBR and the module cannot emit a direct CALL to an address known
 *   only at run time.
 * - Return thunks: every RET is the kernel's RET macro (the return thunk
 *   on RETHUNK kernels), including the PUSH;RET.
 * - RSB: PUSH;RET would pop the return-stack entry of our own CALL and
 *   leave every later return mispredicted; a pointless CALL to a stub
 *   whose speculative return lands on INT3 rebalances it (ftrace_64.S's
 *   .Ldo_rebalance), so vfs_read's own RET predicts .Lreturned.
 * - Call-depth tracking (6.2+, retbleed=stuff): the entry accounts for
 *   ftrace's CALL, which is not accounted; the intra-function CALLs are
 *   not accounted and every RET is, so the counter can only run low,
 *   which makes the kernel stuff the RSB sooner: never later.
 * - ORC: the frame is %rsp-based and %rbp is never touched, so the
 *   unwinder walks through it from inside vfs_read (vfs_read appears
 *   twice, as under BPF trampolines) and keeps the caller's %rbp, which
 *   frame-pointer-based functions further up (do_syscall_64, whose
 *   kernel-stack offset randomisation makes it one) need. The hints below
 *   say what objtool cannot infer. An %rbp frame was tried first: the
 *   hint needed after vfs_read's return cannot say where %rbp was saved,
 *   and unwinds from there computed do_syscall_64's frame from our %rbp
 *   ("stack going in the wrong direction", 7.2 with perf -g).
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>

/* RT_HAVE_DIRECT, RT_CALL_DEPTH_ACCOUNT: compat.h, through it. */
#include "direct_tramp.h"

#ifdef RT_HAVE_DIRECT

	.text
SYM_CODE_START(rt_direct_tramp)
	UNWIND_HINT_FUNC
	ENDBR
	RT_CALL_DEPTH_ACCOUNT
	subq	$RT_DIRECT_FRAME, %rsp
	movq	%rdi, RT_DIRECT_ARGS + 0(%rsp)
	movq	%rsi, RT_DIRECT_ARGS + 8(%rsp)
	movq	%rdx, RT_DIRECT_ARGS + 16(%rsp)
	movq	%rcx, RT_DIRECT_ARGS + 24(%rsp)

	/* rt_direct_enter(slot, file, count, ppos): %rdx, %rcx in place */
	movq	%rdi, %rsi
	movq	%rsp, %rdi
	call	rt_direct_enter

	movq	RT_DIRECT_ARGS + 0(%rsp), %rdi
	movq	RT_DIRECT_ARGS + 8(%rsp), %rsi
	movq	RT_DIRECT_ARGS + 16(%rsp), %rdx
	movq	RT_DIRECT_ARGS + 24(%rsp), %rcx
	testb	%al, %al
	jz	.Luntraced

	/* Call vfs_read past its fentry site; it returns to .Lreturned. */
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lcall_orig
.Lreturned:
	/*
	 * Reached by vfs_read's RET, which objtool cannot follow: the frame
	 * is what it was at the CALL (%rbp untouched). The unwinder uses the
	 * CALL's own entry for return addresses, so this only matters for
	 * interrupts from here on.
	 */
	UNWIND_HINT type=UNWIND_HINT_TYPE_CALL sp_reg=ORC_REG_SP sp_offset=RT_DIRECT_FRAME+8
	movq	%rax, RT_DIRECT_RET(%rsp)
	/* rt_direct_exit(slot, ret, caller's return address) */
	movq	%rsp, %rdi
	movq	%rax, %rsi
	movq	RT_DIRECT_FRAME + 8(%rsp), %rdx
	call	rt_direct_exit
	movq	RT_DIRECT_RET(%rsp), %rax
	/* Drop the frame and vfs_read's fentry return: back to its caller. */
	addq	$RT_DIRECT_FRAME + 8, %rsp
	UNWIND_HINT_FUNC
	RET

.Luntraced:
	addq	$RT_DIRECT_FRAME, %rsp
	RET

.Lcall_orig:
	/*
	 * Stack: .Lreturned, the frame, where the call goes on; make it
	 * that address, .Lreturned. PUSH computes the address before it
	 * moves %rsp.
	 */
	pushq	RT_DIRECT_FRAME + 8(%rsp)
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lrebalance
	int3
.Lrebalance:
	addq	$8, %rsp
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(rt_direct_tramp)

#endif /* RT_HAVE_DIRECT */
