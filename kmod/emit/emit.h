/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing one event record into one session's ring: the one way every
 * producer does it, in the shape of perf's perf_output_begin() and
 * perf_output_end():
 *
 *	struct rt_stack st;
 *	struct rt_emit e = {
 *		.s = s, .task = current, .ts = now, .cpu = cpu,
 *		.slot = rt_session_slot(s, cpu),
 *		.type = RINGTRACE_RECORD_..., .fixed = sizeof(*rec),
 *		.stack_event = RINGTRACE_EVENT_..., .st = &st,
 *	};
 *
 *	rec = rt_emit_begin(&e);
 *	if (rec)
 *		... the producer's own fields, after header and task ...
 *	rt_emit_end(&e, rec);
 *
 * Once the producer decided that @s wants the event:
 *   1. rt_emit_name_file(), for a record that refers to a file: a path
 *      record on the same ring, unless the ring's names memo says the
 *      file is named;
 * then rt_emit_begin():
 *   2. names the task's cgroup (a cgroup record) when the session puts a
 *      task_ext on its records,
 *   3. takes the stack trailer's frames (.stack_event: now, if the
 *      session asks for stacks of that event; .stack_kept: the frames
 *      the producer took earlier, in *.st),
 *   4. reserves the record in ring .slot (none there, or full: counted,
 *      NULL),
 *   5. writes the header and who and when (struct ringtrace_task_ctx,
 *      which follows the header in every event record).
 * rt_emit_end() writes the task_ext and the trailer after the fixed part,
 * commits, and lets go of the stack buffer; it is called whatever begin
 * returned.
 *
 * What differs between producers is data in struct rt_emit, not code:
 * whom the record is about (vfs_read and lock records: current; offcpu
 * records: the task switched in), which ring (.slot: rt_session_slot()
 * for current; the task's thread ring otherwise), whether the record is
 * written holding a lock (.in_lock: a lock record, an offcpu record under
 * the runqueue's lock), whether the ring's names memo applies (.memo:
 * vfs_read only, see session/active.h).
 *
 * Inline, always: this is every record's path, and what does not apply
 * to a producer (a NULL .memo, a 0 .stack_event) folds away.
 * No call through a pointer: the producers call it, it calls the ring.
 */
#ifndef _RINGTRACE_EMIT_H
#define _RINGTRACE_EMIT_H

#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/ringtrace.h>

#include "lib/path.h"
#include "lib/stack.h"
#include "session/active.h"

struct rt_emit {
	/* What the producer says about the record. */
	struct rt_session	*s;
	struct task_struct	*task;		/* whom it is about */
	u64			ts;
	int			cpu;		/* where it is written from */
	int			slot;		/* its ring; -1: none */
	u16			type;		/* RINGTRACE_RECORD_* */
	u16			misc;		/* the producer's RINGTRACE_MISC_* */
	unsigned int		fixed;		/* bytes before task_ext */
	u64			stack_event;	/* RINGTRACE_EVENT_*, 0: no capture */
	unsigned long		anchor;		/* rt_stack_get()'s */
	struct rt_stack		*st;		/* the trailer's frames */
	bool			stack_kept;	/* *st already holds them */
	bool			in_lock;	/* rt_cgroup_before_record()'s */
	struct rt_names_memo	*memo;		/* vfs_read's, or NULL */

	/* What rt_emit_begin() found. */
	struct rt_ring		*ring;
	struct cgroup		*cgrp;
	unsigned int		ext;		/* task_ext bytes */
	bool			stack;		/* a trailer follows */
};

/* What every event record starts with. */
struct rt_emit_head {
	struct ringtrace_event_header	header;
	struct ringtrace_task_ctx	task;
};

/* An event record @type must start as struct rt_emit_head does. */
#define RT_EMIT_CHECK(type)						\
	BUILD_BUG_ON(offsetof(type, header) !=				\
		     offsetof(struct rt_emit_head, header) ||		\
		     offsetof(type, task) !=				\
		     offsetof(struct rt_emit_head, task))

/*
 * Before a record of @c's file goes into ring @slot of @s: write the path
 * record there if @s has not named the file yet (or cannot remember it).
 * Preemption disabled, task context. Returns the time of the path record
 * that already named the file for a record stamped @ts (RT_PATH_SKIP),
 * RT_NAMED_NONE otherwise. (path_record.c)
 */
u64 rt_path_before_record(struct rt_session *s, int slot, u64 ts,
			  struct rt_path_call *c);

/*
 * Before a record with a task_ext naming @cgrp goes into ring @slot of @s
 * (-1: none): the cgroup record, if @s has not named @cgrp yet. @in_lock:
 * the record is written holding a lock, so naming may take none. Returns
 * the time of the cgroup record that already named @cgrp for a record
 * stamped @ts, RT_NAMED_NONE otherwise. (cgroup_record.c)
 */
u64 rt_cgroup_before_record(struct rt_session *s, int slot, u64 ts,
			    struct cgroup *cgrp, bool in_lock);

/*
 * One func record of @s for current, preemption disabled: a call of
 * function @idx (probed at @ip) that returned @ret at @ts after @lat_ns,
 * or a hit (@lat_ns 0); the session's func_args of @args (NULL: none);
 * the stack from @anchor if @s asks for one. @at_cpu: the CPU it says
 * the call returned on. (func_record.c)
 */
void rt_func_write(struct rt_session *s, const u64 *args, u64 ts,
		   u64 lat_ns, u32 idx, unsigned long ip, long ret,
		   unsigned long anchor, int at_cpu);

/*
 * The records that name what later records refer to (path and cgroup
 * records): @fixed bytes, then @len bytes of @name, a NUL and padding to
 * RINGTRACE_RECORD_ALIGN. Their size, and the name written into @rec.
 */
static inline unsigned int rt_emit_name_size(unsigned int fixed, u32 len)
{
	return ALIGN(fixed + len + 1, RINGTRACE_RECORD_ALIGN);
}

static inline void rt_emit_name_copy(void *rec, unsigned int fixed,
				     unsigned int size, const char *name,
				     u32 len)
{
	char *dst = rec + fixed;

	memcpy(dst, name, len);
	/* The NUL and the padding: every byte of a record is written. */
	memset(dst + len, 0, size - fixed - len);
}

/*
 * 1. For a record about a file (vfs_read's), before rt_emit_begin(): the
 * file, named on the record's ring first.
 */
static __always_inline void rt_emit_name_file(struct rt_emit *e,
					      struct file *file, u32 dev,
					      u64 ino)
{
	struct rt_session *s = e->s;
	u64 named;

	if (s->paths && !rt_names_memo_file(e->memo, dev, ino, e->ts)) {
		/* Built here: most sessions ask for no paths. */
		struct rt_path_call c = {
			.file	= file,
			.ino	= ino,
			.dev	= dev,
		};

		named = rt_path_before_record(s, e->slot, e->ts, &c);
		rt_names_memo_set_file(e->memo, dev, ino, named);
	}
}

/* 2. The task's cgroup, for a session with task_ext on its records. */
static __always_inline void rt_emit_name_cgroup(struct rt_emit *e)
{
	struct rt_session *s = e->s;
	u64 id, named;

	e->ext = rt_task_ext_size(s);
	if (!e->ext)
		return;
	e->cgrp = rt_task_dfl_cgroup(e->task);
	id = rt_cgroup_id(e->cgrp);
	/* Without a memo, the session's table decides (cgroup_record.c). */
	if (!e->memo ||
	    (s->cgroups.names && !rt_names_memo_cgroup(e->memo, id, e->ts))) {
		named = rt_cgroup_before_record(s, e->slot, e->ts, e->cgrp,
						e->in_lock);
		rt_names_memo_set_cgroup(e->memo, id, named);
	}
	e->misc |= RINGTRACE_MISC_TASK_EXT;
}

/* 3. The stack trailer's frames: the bytes they add to the record. */
static __always_inline unsigned int rt_emit_stack(struct rt_emit *e)
{
	struct rt_session *s = e->s;

	e->stack = e->stack_kept;
	if (!e->stack && unlikely(s->stack_events & e->stack_event)) {
		e->stack = rt_stack_get(e->st, s->stack_kernel_depth,
					s->stack_user_depth, e->anchor);
		if (!e->stack)
			this_cpu_inc(s->xcounts->stack_missed);
	}
	if (!e->stack)
		return 0;
	e->misc |= RINGTRACE_MISC_STACK;
	return rt_stack_size(e->st);
}

/*
 * Steps 2 to 5. NULL: nothing to fill (no ring, ring full, an interrupt
 * in a per-thread session: each counted where it happened).
 */
static __always_inline void *rt_emit_begin(struct rt_emit *e)
{
	struct rt_emit_head *h;
	unsigned int size;

	rt_emit_name_cgroup(e);
	size = e->fixed + e->ext;
	size += rt_emit_stack(e);
	h = rt_session_reserve_at(e->s, e->slot, size, e->ts, &e->ring);
	if (!h)
		return NULL;
	h->header.type = e->type;
	h->header.misc = e->misc;
	h->header.size = size;
	rt_fill_task_ctx(e->s, &h->task, e->task, e->ts, e->cpu);
	return h;
}

/* The task_ext and the trailer after the fixed part, then commit. */
static __always_inline void rt_emit_end(struct rt_emit *e, void *rec)
{
	if (rec) {
		if (e->ext)
			rt_fill_task_ext(rec + e->fixed, e->cgrp, e->task);
		if (e->stack)
			rt_stack_write(rec + e->fixed + e->ext, e->st);
		rt_ring_commit(e->ring);
	}
	if (e->stack && !e->stack_kept)
		rt_stack_put(e->st);
}

#endif /* _RINGTRACE_EMIT_H */
