// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_read events: one kretprobe whose entry handler decides whether any
 * session wants the calling task and, if so, saves the arguments and the
 * entry time in the instance; the return handler writes one record per
 * interested session. Filtering at entry means a call nobody wants costs
 * the probe hit and nothing more: no return trampoline, no ring work.
 */
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/timekeeping.h>

#include "path_cache.h"
#include "probes.h"
#include "session.h"
#include "stack.h"

static unsigned int vfs_read_maxactive;
module_param(vfs_read_maxactive, uint, 0444);
MODULE_PARM_DESC(vfs_read_maxactive,
		 "vfs_read calls tracked at once (0: max(256, 32 * possible CPUs)); calls beyond are counted as missed");

/* What the entry handler hands to the return handler. */
struct rt_vfs_read_call {
	struct file *file;	/* held by our caller until after we return */
	u64	ts;		/* entry time */
	u64	ino;
	u64	count;
	s64	pos;
	u32	dev_major;
	u32	dev_minor;
};

static DEFINE_PER_CPU(u64, rt_vfs_read_hits);

static DEFINE_MUTEX(rt_vfs_read_mutex);	/* the fields below */
static unsigned int rt_vfs_read_users;
static u64 rt_vfs_read_missed_earlier;	/* by past registrations */
static struct kretprobe rt_vfs_read_probe;

/* vfs_read(struct file *file, char __user *buf, size_t count, loff_t *pos) */
static int rt_vfs_read_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct rt_vfs_read_call *call = (struct rt_vfs_read_call *)ri->data;
	struct file *file = (struct file *)regs_get_kernel_argument(regs, 0);
	loff_t *ppos = (loff_t *)regs_get_kernel_argument(regs, 3);
	struct inode *inode;

	this_cpu_inc(rt_vfs_read_hits);
	if (!rt_sessions_want(RINGTRACE_EVENT_VFS_READ, current))
		return 1;	/* no return probe for this call */

	/* The caller holds a reference on @file for the whole call. */
	inode = file_inode(file);
	call->file = file;
	call->ino = inode->i_ino;
	call->dev_major = MAJOR(inode->i_sb->s_dev);
	call->dev_minor = MINOR(inode->i_sb->s_dev);
	call->count = regs_get_kernel_argument(regs, 2);
	/* NULL for stream files (pipes, sockets...): no position. */
	call->pos = ppos ? *ppos : -1;
	/* Last, so the latency leaves out our own work. */
	call->ts = ktime_get_mono_fast_ns();
	return 0;
}

static void rt_vfs_read_fill(struct ringtrace_vfs_read_record *rec,
			     unsigned int size,
			     const struct rt_vfs_read_call *call,
			     u64 now, int cpu, long ret)
{
	/* Every byte of the record is written: no hole, no padding left. */
	BUILD_BUG_ON(sizeof(*rec) != 96);
	BUILD_BUG_ON(sizeof(*rec) % RINGTRACE_RECORD_ALIGN);

	rec->header.type = RINGTRACE_RECORD_VFS_READ;
	rec->header.misc = size > sizeof(*rec) ? RINGTRACE_MISC_STACK : 0;
	rec->header.size = size;
	rt_fill_task_ctx(&rec->task, now, cpu);
	rec->dev_major = call->dev_major;
	rec->dev_minor = call->dev_minor;
	rec->ino = call->ino;
	rec->pos = call->pos;
	rec->count = call->count;
	rec->ret = ret;
	rec->lat_ns = now - call->ts;
}

/* One record, with the session's stack trailer if it asks for one. */
static void rt_vfs_read_write(struct rt_session *s, int cpu, u64 now,
			      const struct rt_vfs_read_call *call, long ret,
			      unsigned long ret_addr)
{
	struct ringtrace_vfs_read_record *rec;
	unsigned int size = sizeof(*rec);
	struct rt_stack st;
	bool stack = false;
	struct rt_ring *ring;

	/* ABI 2: a stack trailer (stack.c). */
	if (unlikely(s->stack_events & RINGTRACE_EVENT_VFS_READ)) {
		stack = rt_stack_get(&st, s->stack_kernel_depth,
				     s->stack_user_depth, ret_addr);
		if (stack)
			size += rt_stack_size(&st);
		else
			this_cpu_inc(s->xcounts->stack_missed);
	}
	rec = rt_session_reserve(s, cpu, size, now, &ring);
	if (rec) {
		rt_vfs_read_fill(rec, size, call, now, cpu, ret);
		if (stack)
			rt_stack_write(rec + 1, &st);
		rt_ring_commit(ring);
	}
	if (stack)
		rt_stack_put(&st);
}

static int rt_vfs_read_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	const struct rt_vfs_read_call *call = (void *)ri->data;
	u64 now = ktime_get_mono_fast_ns();
	long ret = regs_return_value(regs);
	int cpu = smp_processor_id();
	struct rt_path_call path = {
		.file		= call->file,
		.ino		= call->ino,
		.dev_major	= call->dev_major,
		.dev_minor	= call->dev_minor,
	};
	struct rt_session *s;

	/* Preemption is disabled here: the RCU section for the walk. */
	rt_for_each_active_session(s) {
		if (!(s->events & RINGTRACE_EVENT_VFS_READ) ||
		    now - call->ts < s->min_latency_ns ||
		    !cpumask_test_cpu(cpu, s->cpus) ||
		    !rt_session_wants_task(s, current))
			continue;
		/* ABI 2: the file's name first, on this ring (path_cache.c). */
		if (s->paths)
			rt_path_before_record(s, cpu, now, &path);
		/* Where vfs_read returns to: its caller's frame. */
		rt_vfs_read_write(s, cpu, now, call, ret,
				  instruction_pointer(regs));
	}
	return 0;
}

int rt_vfs_read_get(void)
{
	struct kretprobe *rp = &rt_vfs_read_probe;
	int err = 0;

	mutex_lock(&rt_vfs_read_mutex);
	if (rt_vfs_read_users == 0) {
		/* register_kretprobe() fills in kp; start from scratch. */
		*rp = (struct kretprobe) {
			.kp.symbol_name	= "vfs_read",
			.entry_handler	= rt_vfs_read_entry,
			.handler	= rt_vfs_read_return,
			.data_size	= sizeof(struct rt_vfs_read_call),
			.maxactive	= vfs_read_maxactive ?:
				max_t(int, 256, 32 * num_possible_cpus()),
		};
		err = register_kretprobe(rp);
		if (err) {
			pr_err("cannot attach to vfs_read: %d\n", err);
			goto unlock;
		}
	}
	rt_vfs_read_users++;
unlock:
	mutex_unlock(&rt_vfs_read_mutex);
	return err;
}

void rt_vfs_read_put(void)
{
	struct kretprobe *rp = &rt_vfs_read_probe;

	mutex_lock(&rt_vfs_read_mutex);
	if (!WARN_ON_ONCE(rt_vfs_read_users == 0) &&
	    --rt_vfs_read_users == 0) {
		unregister_kretprobe(rp);
		rt_vfs_read_missed_earlier += rp->nmissed + rp->kp.nmissed;
	}
	mutex_unlock(&rt_vfs_read_mutex);
}

void rt_vfs_read_counts(u64 *hits, u64 *missed)
{
	struct kretprobe *rp = &rt_vfs_read_probe;
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(rt_vfs_read_hits, cpu);
	*hits = sum;

	mutex_lock(&rt_vfs_read_mutex);
	*missed = rt_vfs_read_missed_earlier;
	if (rt_vfs_read_users)
		*missed += READ_ONCE(rp->nmissed) + READ_ONCE(rp->kp.nmissed);
	mutex_unlock(&rt_vfs_read_mutex);
}
