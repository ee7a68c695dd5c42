/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vfs_read events, split in two: what a call records (vfs_read.c: the
 * filters, the fields, the record) and how the module gets called at the
 * function's entry and return (attach/, one file per mechanism).
 * Every mechanism hands the same two functions the same arguments, so the
 * records and the filters are the same whichever one is in use.
 */
#ifndef _RINGTRACE_VFS_READ_H
#define _RINGTRACE_VFS_READ_H

#include <linux/fs.h>
#include <linux/types.h>

/*
 * What the entry hands to the return of the same call. The mechanism keeps
 * it per call (kretprobe instance, fprobe entry data), not per CPU: a call
 * may sleep, and return on another CPU, while others run.
 */
struct rt_vfs_read_call {
	struct file *file;	/* held by our caller until after we return */
	u64	ts;		/* entry time */
	u64	ino;
	u64	count;
	s64	pos;
	/*
	 * The file's device as a dev_t, not two u32s: the direct call's slot
	 * holds 56 bytes (direct_tramp.h) and the off-CPU fields needed 12 more.
	 */
	u32	dev;
	/* offcpu.c's table generation at entry, 0: not followed. */
	u32	offcpu_gen;
	u64	offcpu_total;	/* the caller's off-CPU total at entry */
};

/*
 * vfs_read(file, buf, count, ppos) entered, in the mechanism's handler with
 * preemption disabled. True: some session wants this call, @call is filled
 * and the mechanism must call rt_vfs_read_exit() when it returns. False:
 * nobody wants it; skip the return hook.
 */
bool rt_vfs_read_enter(struct rt_vfs_read_call *call, struct file *file,
		       size_t count, loff_t *ppos);

/*
 * The call that rt_vfs_read_enter() accepted returned @ret to @ret_ip (the
 * caller's code: what a stack trace of the call starts from), with
 * preemption disabled.
 */
void rt_vfs_read_exit(const struct rt_vfs_read_call *call, long ret,
		      unsigned long ret_ip);

/* vfs_read calls seen since load, every mechanism together. */
u64 rt_vfs_read_hits(void);

#endif /* _RINGTRACE_VFS_READ_H */
