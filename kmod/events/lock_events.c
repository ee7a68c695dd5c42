// SPDX-License-Identifier: GPL-2.0
/*
 * Writing lock records into the sessions that want them.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "lib/stack.h"
#include "lock_events.h"
#include "session/session.h"
#include "tracked_lock.h"

/*
 * Non-zero while an enabled session wants tracked-lock records; read by
 * every tracked unlock (tracked_lock.h), so that with no reader an unlock
 * copies nothing and calls nothing.
 */
int tracked_lock_events_users;
EXPORT_SYMBOL_GPL(tracked_lock_events_users);

static DEFINE_MUTEX(rt_lock_events_mutex);

void rt_lock_events_get(void)
{
	mutex_lock(&rt_lock_events_mutex);
	WRITE_ONCE(tracked_lock_events_users, tracked_lock_events_users + 1);
	mutex_unlock(&rt_lock_events_mutex);
}

void rt_lock_events_put(void)
{
	mutex_lock(&rt_lock_events_mutex);
	if (!WARN_ON_ONCE(tracked_lock_events_users <= 0))
		WRITE_ONCE(tracked_lock_events_users,
			   tracked_lock_events_users - 1);
	mutex_unlock(&rt_lock_events_mutex);
}

/* Both thresholds 0: every acquisition; else either one reached. */
static bool rt_lock_over_threshold(const struct rt_session *s, u64 wait,
				   u64 hold)
{
	if (!s->lock_min_wait_ns && !s->lock_min_hold_ns)
		return true;
	return (s->lock_min_wait_ns && wait >= s->lock_min_wait_ns) ||
	       (s->lock_min_hold_ns && hold >= s->lock_min_hold_ns);
}

static void rt_lock_fill(const struct rt_session *s,
			 struct ringtrace_lock_record *rec, unsigned int size,
			 u16 misc, u64 ts, int cpu, u64 lock_id,
			 const char *name, u64 wait, u64 hold, u32 flags)
{
	/* Every byte written: no hole, padding zeroed. */
	BUILD_BUG_ON(sizeof(*rec) != 112);
	BUILD_BUG_ON(TRACKED_LOCK_NAME_LEN != RINGTRACE_LOCK_NAME_LEN);

	rec->header.type = RINGTRACE_RECORD_LOCK;
	rec->header.misc = misc;
	rec->header.size = size;
	rt_fill_task_ctx(s, &rec->task, ts, cpu);
	rec->lock_id = lock_id;
	rec->wait_ns = wait;
	rec->hold_ns = hold;
	rec->flags = flags;
	rec->__pad = 0;
	strscpy_pad(rec->name, name, sizeof(rec->name));
}

void rt_lock_emit(u64 ts, u64 lock_id, const char *name, u64 wait_ns,
		  u64 hold_ns, u32 flags)
{
	const u64 event = flags & RINGTRACE_LOCK_KERNEL ?
			  RINGTRACE_EVENT_LOCK_CONTENTION : RINGTRACE_EVENT_LOCK;
	struct ringtrace_lock_record *rec;
	struct rt_session *s;
	struct rt_ring *ring;
	struct cgroup *cgrp = NULL;
	struct rt_stack st;
	unsigned int size, ext;
	bool stack;
	u16 misc;
	int cpu;

	/* Also the RCU read-side section for the session walk. */
	preempt_disable_notrace();
	cpu = smp_processor_id();
	rt_for_each_active_session(s) {
		if (!(s->events & event) || !cpumask_test_cpu(cpu, s->cpus) ||
		    !rt_lock_over_threshold(s, wait_ns, hold_ns) ||
		    !rt_session_wants_task(s, current))
			continue;
		ext = rt_task_ext_size(s);
		size = sizeof(*rec) + ext;
		stack = false;
		misc = 0;
		/* issue 24: the task's cgroup, named first (cgroup_names.c). */
		if (ext) {
			cgrp = rt_current_cgroup();
			rt_cgroup_before_record(s, rt_session_slot(s, cpu), ts,
						cgrp, true);
			misc |= RINGTRACE_MISC_TASK_EXT;
		}
		/* ABI 2: a stack trailer (stack.c); our own frames cut. */
		if (unlikely(s->stack_events & event)) {
			stack = rt_stack_get(&st, s->stack_kernel_depth,
					     s->stack_user_depth, 0);
			if (stack) {
				size += rt_stack_size(&st);
				misc |= RINGTRACE_MISC_STACK;
			} else {
				this_cpu_inc(s->xcounts->stack_missed);
			}
		}
		rec = rt_session_reserve(s, cpu, size, ts, &ring);
		if (rec) {
			rt_lock_fill(s, rec, size, misc, ts, cpu, lock_id,
				     name, wait_ns, hold_ns, flags);
			if (ext)
				rt_fill_task_ext((void *)(rec + 1), cgrp,
						 current);
			if (stack)
				rt_stack_write((char *)(rec + 1) + ext, &st);
			rt_ring_commit(ring);
		}
		if (stack)
			rt_stack_put(&st);
	}
	preempt_enable_notrace();
}

/* Called by tracked unlocks (tracked_lock.h) when a session listens. */
void __tracked_lock_emit(const struct tracked_lock_sample *s)
{
	rt_lock_emit(s->released_ns, s->id, s->name, s->wait_ns, s->hold_ns,
		     (s->contended ? RINGTRACE_LOCK_CONTENDED : 0) |
		     RINGTRACE_LOCK_ID_HASHED);
}
EXPORT_SYMBOL_GPL(__tracked_lock_emit);
