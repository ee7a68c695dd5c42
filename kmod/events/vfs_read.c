// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_read events: at entry, decide whether any session wants the calling
 * task and, if so, save the arguments and the entry time in the call's
 * slot; at return, write one record per interested session. Filtering at
 * entry means a call nobody wants costs the hook and nothing more: no
 * return hook, no ring work. The hooks themselves (fprobe, the kretprobe,
 * the direct call) are in attach/ and call the two functions here.
 */
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/percpu.h>
#include <linux/timekeeping.h>

#include "emit/emit.h"
#include "func_held.h"
#include "inread.h"
#include "offcpu.h"
#include "session/active.h"
#include "vfs_read.h"

static DEFINE_PER_CPU(u64, rt_vfs_read_hits_pcpu);

/* vfs_read(struct file *file, char __user *buf, size_t count, loff_t *ppos) */
bool rt_vfs_read_enter(struct rt_vfs_read_call *call, struct file *file,
		       size_t count, loff_t *ppos)
{
	this_cpu_inc(rt_vfs_read_hits_pcpu);
	if (!rt_sessions_want(RINGTRACE_EVENT_VFS_READ, current))
		return false;	/* no return hook for this call */

	/* The caller holds a reference on @file for the whole call. */
	call->file = file;
	call->count = count;
	/* Preemption is disabled: the RCU read side task_dfl_cgroup() needs. */
	call->cgroup_id = rt_cgroup_id(rt_task_dfl_cgroup(current));
	/* NULL for stream files (pipes, sockets...): no position. */
	call->pos = ppos ? *ppos : -1;
	/* Where the caller's off-CPU total stands (offcpu.c). */
	rt_offcpu_read_enter(call);
	/* One more read the caller is in, for RINGTRACE_CFG_FUNC_IN_READ. */
	rt_inread_enter(call);
	/* Last, so the latency leaves out our own work. */
	call->ts = ktime_get_mono_fast_ns();
	return true;
}

/*
 * One record into @s's ring: the file's path and the task's cgroup named
 * first, the session's stack trailer if it asks for one (emit.h).
 */
static __always_inline void rt_vfs_read_write(struct rt_session *s, int cpu,
					      u64 now,
					      const struct rt_vfs_read_call *call,
					      long ret, unsigned long ret_ip,
					      const struct rt_offcpu_span *span)
{
	struct ringtrace_vfs_read_record *rec;
	struct rt_stack st;
	struct rt_emit e = {
		.s		= s,
		.task		= current,
		.ts		= now,
		.cpu		= cpu,
		.slot		= rt_session_slot(s, cpu),
		.type		= RINGTRACE_RECORD_VFS_READ,
		.fixed		= sizeof(*rec),
		.stack_event	= RINGTRACE_EVENT_VFS_READ,
		.anchor		= ret_ip,
		.st		= &st,
	};
	/* The off-CPU part, when followed and the session asked. */
	bool offcpu = span && (s->events & RINGTRACE_EVENT_OFFCPU);
	/* The caller still holds the file: its inode cannot change. */
	const struct inode *inode = file_inode(call->file);
	u32 dev = inode->i_sb->s_dev;
	u64 ino = inode->i_ino;

	/* Every byte of the record is written: no hole, no padding left. */
	BUILD_BUG_ON(sizeof(*rec) != RINGTRACE_VFS_READ_SIZE_OFFCPU);
	BUILD_BUG_ON(sizeof(*rec) % RINGTRACE_RECORD_ALIGN);
	RT_EMIT_CHECK(struct ringtrace_vfs_read_record);

	/* This ring's memo of what it found named (session/active.h). */
	e.memo = rt_names_memo(s, e.slot);
	if (offcpu)
		e.misc = RINGTRACE_MISC_OFFCPU;
	/* The file's name first, for a session asking for paths. */
	if (s->paths)
		rt_emit_name_file(&e, call->file, dev, ino);
	rec = rt_emit_begin(&e);
	if (rec) {
		rec->dev_major = MAJOR(dev);
		rec->dev_minor = MINOR(dev);
		rec->ino = ino;
		rec->pos = call->pos;
		rec->count = call->count;
		rec->ret = ret;
		rec->lat_ns = now - call->ts;
		rec->offcpu_ns = offcpu ? span->total_ns : 0;
		rec->offcpu_max_ns = offcpu ? span->max_ns : 0;
		rec->offcpu_max_ts = offcpu ? span->max_ts : 0;
	}
	rt_emit_end(&e, rec);
}

void rt_vfs_read_exit(const struct rt_vfs_read_call *call, long ret,
		      unsigned long ret_ip)
{
	u64 now = ktime_get_mono_fast_ns();
	int cpu = smp_processor_id();
	struct rt_offcpu_span span;
	bool followed;
	int moved = -1;		/* cgroup left since entry; -1: not looked */
	struct rt_session *s;

	/* Unpins the caller's entry in the off-CPU table, whoever wants it. */
	followed = rt_offcpu_read_exit(call, &span);
	/* The calls it held, before its own record: written or dropped. */
	if (call->inread_gen)
		rt_func_held_end(call, now);
	/* And leaves the read: its callees' calls are outside it now. */
	rt_inread_exit(call);

	/* Preemption is disabled here: the RCU section for the walk. */
	rt_for_each_active_session(s) {
		if (!(s->events & RINGTRACE_EVENT_VFS_READ) ||
		    now - call->ts < s->min_latency_ns ||
		    !cpumask_test_cpu(cpu, s->cpus) ||
		    !rt_session_wants_task(s, current))
			continue;
		/*
		 * Both ends in the session's cgroups: the exit's was checked
		 * above; a call that entered in another cgroup is not the
		 * session's, whichever other session had it followed.
		 */
		if (unlikely(s->cgroups.nr)) {
			if (moved < 0)
				moved = rt_cgroup_id(rt_task_dfl_cgroup(current)) !=
					call->cgroup_id;
			if (moved)
				continue;
		}
		/* The ret and count ranges, before any ring work. */
		if (unlikely(s->vfs_read_values) &&
		    !rt_session_values_match(s, call->count, ret)) {
			this_cpu_inc(s->xcounts->vfs_read_filtered);
			continue;
		}
		rt_vfs_read_write(s, cpu, now, call, ret, ret_ip,
				  followed ? &span : NULL);
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
