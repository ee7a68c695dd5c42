// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_read events: at entry, decide whether any session wants the calling
 * task and, if so, save the arguments and the entry time in the call's
 * slot; at return, write one record per interested session. Filtering at
 * entry means a call nobody wants costs the hook and nothing more: no
 * return hook, no ring work. The hooks themselves (kretprobe, fprobe) are
 * in attach_*.c and call the two functions here.
 */
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/percpu.h>
#include <linux/timekeeping.h>

#include "emit/path_cache.h"
#include "lib/stack.h"
#include "offcpu.h"
#include "session/session.h"
#include "vfs_read.h"

static DEFINE_PER_CPU(u64, rt_vfs_read_hits_pcpu);

/* vfs_read(struct file *file, char __user *buf, size_t count, loff_t *ppos) */
bool rt_vfs_read_enter(struct rt_vfs_read_call *call, struct file *file,
		       size_t count, loff_t *ppos)
{
	struct inode *inode;

	this_cpu_inc(rt_vfs_read_hits_pcpu);
	if (!rt_sessions_want(RINGTRACE_EVENT_VFS_READ, current))
		return false;	/* no return hook for this call */

	/* The caller holds a reference on @file for the whole call. */
	inode = file_inode(file);
	call->file = file;
	call->ino = inode->i_ino;
	call->dev = inode->i_sb->s_dev;
	call->count = count;
	/* NULL for stream files (pipes, sockets...): no position. */
	call->pos = ppos ? *ppos : -1;
	/* issue 22: where the caller's off-CPU total stands (offcpu.c). */
	rt_offcpu_read_enter(call);
	/* Last, so the latency leaves out our own work. */
	call->ts = ktime_get_mono_fast_ns();
	return true;
}

/* issue 22: the off-CPU part, when followed and the session asked. */
static void rt_vfs_read_fill_offcpu(struct ringtrace_vfs_read_record *rec,
				    const struct rt_session *s,
				    const struct rt_offcpu_span *span)
{
	if (span && (s->events & RINGTRACE_EVENT_OFFCPU)) {
		rec->header.misc |= RINGTRACE_MISC_OFFCPU;
		rec->offcpu_ns = span->total_ns;
		rec->offcpu_max_ns = span->max_ns;
		rec->offcpu_max_ts = span->max_ts;
	} else {
		rec->offcpu_ns = 0;
		rec->offcpu_max_ns = 0;
		rec->offcpu_max_ts = 0;
	}
}

static void rt_vfs_read_fill(const struct rt_session *s,
			     struct ringtrace_vfs_read_record *rec,
			     unsigned int size, u16 misc,
			     const struct rt_vfs_read_call *call,
			     u64 now, int cpu, long ret)
{
	/* Every byte of the record is written: no hole, no padding left. */
	BUILD_BUG_ON(sizeof(*rec) != RINGTRACE_VFS_READ_SIZE_OFFCPU);
	BUILD_BUG_ON(sizeof(*rec) % RINGTRACE_RECORD_ALIGN);

	rec->header.type = RINGTRACE_RECORD_VFS_READ;
	rec->header.misc = misc;
	rec->header.size = size;
	rt_fill_task_ctx(s, &rec->task, now, cpu);
	rec->dev_major = MAJOR(call->dev);
	rec->dev_minor = MINOR(call->dev);
	rec->ino = call->ino;
	rec->pos = call->pos;
	rec->count = call->count;
	rec->ret = ret;
	rec->lat_ns = now - call->ts;
}

/* One record, with the session's stack trailer if it asks for one. */
static void rt_vfs_read_write(struct rt_session *s, int cpu, u64 now,
			      const struct rt_vfs_read_call *call, long ret,
			      unsigned long ret_addr,
			      const struct rt_offcpu_span *span,
			      struct rt_names_memo *m)
{
	struct ringtrace_vfs_read_record *rec;
	unsigned int ext = rt_task_ext_size(s);
	unsigned int size = sizeof(*rec) + ext;
	struct cgroup *cgrp = NULL;
	struct rt_stack st;
	bool stack = false;
	struct rt_ring *ring;
	u16 misc = 0;

	/*
	 * issue 24: the task's cgroup, named first (cgroup_names.c); issue
	 * 19: not asked again while this ring's memo says it is named.
	 */
	if (ext) {
		u64 id, named;

		cgrp = rt_current_cgroup();
		id = rt_cgroup_id(cgrp);
		if (s->cgroups.names && !rt_names_memo_cgroup(m, id, now)) {
			named = rt_cgroup_before_record(s,
							rt_session_slot(s, cpu),
							now, cgrp, false);
			rt_names_memo_set_cgroup(m, id, named);
		}
		misc |= RINGTRACE_MISC_TASK_EXT;
	}

	/* ABI 2: a stack trailer (stack.c). */
	if (unlikely(s->stack_events & RINGTRACE_EVENT_VFS_READ)) {
		stack = rt_stack_get(&st, s->stack_kernel_depth,
				     s->stack_user_depth, ret_addr);
		if (stack) {
			size += rt_stack_size(&st);
			misc |= RINGTRACE_MISC_STACK;
		} else {
			this_cpu_inc(s->xcounts->stack_missed);
		}
	}
	rec = rt_session_reserve(s, cpu, size, now, &ring);
	if (rec) {
		rt_vfs_read_fill(s, rec, size, misc, call, now, cpu, ret);
		rt_vfs_read_fill_offcpu(rec, s, span);
		if (ext)
			rt_fill_task_ext((void *)(rec + 1), cgrp, current);
		if (stack)
			rt_stack_write((char *)(rec + 1) + ext, &st);
		rt_ring_commit(ring);
	}
	if (stack)
		rt_stack_put(&st);
}

void rt_vfs_read_exit(const struct rt_vfs_read_call *call, long ret,
		      unsigned long ret_ip)
{
	u64 now = ktime_get_mono_fast_ns();
	int cpu = smp_processor_id();
	struct rt_offcpu_span span;
	bool followed;
	struct rt_session *s;

	/* issue 22: unpins the caller's table entry, whoever wants it. */
	followed = rt_offcpu_read_exit(call, &span);

	/* Preemption is disabled here: the RCU section for the walk. */
	rt_for_each_active_session(s) {
		struct rt_names_memo *m;

		if (!(s->events & RINGTRACE_EVENT_VFS_READ) ||
		    now - call->ts < s->min_latency_ns ||
		    !cpumask_test_cpu(cpu, s->cpus) ||
		    !rt_session_wants_task(s, current))
			continue;
		/* issue 21: ret and count ranges, before any ring work. */
		if (unlikely(s->vfs_read_values) &&
		    !rt_session_values_match(s, call->count, ret)) {
			this_cpu_inc(s->xcounts->vfs_read_filtered);
			continue;
		}
		/* issue 19: this ring's memo (session.h); -1: no ring. */
		m = rt_names_memo(s, rt_session_slot(s, cpu));
		/*
		 * ABI 2: the file's name first, on this ring (path_cache.c),
		 * unless the memo says this ring's last record's file was
		 * named before now (issue 19).
		 */
		if (s->paths && !rt_names_memo_file(m, call->dev, call->ino,
						    now)) {
			/* Built here: most sessions ask for no paths. */
			struct rt_path_call path = {
				.file		= call->file,
				.ino		= call->ino,
				.dev_major	= MAJOR(call->dev),
				.dev_minor	= MINOR(call->dev),
			};
			u64 named;

			named = rt_path_before_record(s, cpu, now, &path);
			rt_names_memo_set_file(m, call->dev, call->ino, named);
		}
		rt_vfs_read_write(s, cpu, now, call, ret, ret_ip,
				  followed ? &span : NULL, m);
	}
}

u64 rt_vfs_read_hits(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(rt_vfs_read_hits_pcpu, cpu);
	return sum;
}
