/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftrace direct-call trampoline (direct_tramp_x86_64.S) and what it
 * calls (direct_call.c). Both are built into ringtrace_direct.ko, and
 * into the benchmark's floor module with handlers that take timestamps.
 *
 * The trampoline is reached from vfs_read's fentry site with vfs_read's
 * arguments in registers. It calls rt_direct_enter() with a slot in its
 * own stack frame; if that returns true it calls the original function
 * (past the fentry site), then rt_direct_exit() with the same slot, the
 * return value and the caller's return address, and returns to
 * vfs_read's caller. Otherwise it returns into vfs_read and is gone.
 */
#ifndef _RINGTRACE_DIRECT_TRAMP_H
#define _RINGTRACE_DIRECT_TRAMP_H

/* RT_HAVE_DIRECT: x86-64 kernels with ftrace direct calls. */
#include "lib/compat.h"

/* The frame below the trampoline's saved %rbp. */
#define RT_DIRECT_SLOT_SIZE	64	/* rt_direct_enter()'s per-call slot */
#define RT_DIRECT_ARGS		64	/* vfs_read's four argument registers */
#define RT_DIRECT_RET		64	/* its return value, once it returned */
#define RT_DIRECT_FRAME		96

#ifndef __ASSEMBLY__
#include <linux/fs.h>
#include <linux/types.h>

struct rt_direct_att;

/*
 * 64 bytes, aligned: what one traced call keeps between entry and exit,
 * in the trampoline's frame. The handlers own @data; direct_call.c keeps
 * the attachment the call entered through.
 */
struct rt_direct_slot {
	u64			data[RT_DIRECT_SLOT_SIZE / 8 - 1];
	struct rt_direct_att	*att;
};

/*
 * Called with preemption enabled (the trampoline runs in vfs_read's
 * context). True: the call is traced, rt_direct_exit() follows with the
 * same slot once vfs_read returned, on whichever CPU it returns on.
 */
bool rt_direct_enter(struct rt_direct_slot *slot, struct file *file,
		     size_t count, loff_t *ppos);
void rt_direct_exit(struct rt_direct_slot *slot, long ret,
		    unsigned long ret_ip);

/* The trampoline's entry (never called from C). */
void rt_direct_tramp(void);
#endif /* !__ASSEMBLY__ */

#endif /* _RINGTRACE_DIRECT_TRAMP_H */
