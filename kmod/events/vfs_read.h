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
	/*
	 * Held by our caller until after we return: the file's device and
	 * inode are read from it when the record is written, which leaves
	 * room in the direct call's 56-byte slot (direct_tramp.h).
	 */
	struct file *file;
	u64	ts;		/* entry time */
	u64	count;
	s64	pos;
	/*
	 * The task's cgroup (v2) at entry, by id: a session filtering on
	 * cgroups records a call only if it returns in the cgroup it entered
	 * (the entry's cgroup may be gone by then: no pointer is kept).
	 */
	u64	cgroup_id;
	u64	offcpu_total;	/* the caller's off-CPU total at entry */
	/* offcpu.c's table generation at entry, 0: not followed. */
	u32	offcpu_gen;
	/*
	 * inread.c's table generation when the call was counted in the
	 * caller's depth (| 1: not followed, the table full); 0: not
	 * counted. Fills what was padding: the direct call's slot keeps
	 * its 56 bytes.
	 */
	u32	inread_gen;
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
