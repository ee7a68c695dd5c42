// SPDX-License-Identifier: GPL-2.0
/*
 * Writing lock records into the sessions that want them.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "emit/emit.h"
#include "lock_events.h"
#include "session/active.h"
#include "session/producer.h"
#include "tracked_lock.h"

/*
 * Non-zero while an enabled session wants tracked-lock records; read by
 * every tracked unlock (tracked_lock.h), so that with no reader an unlock
 * copies nothing and calls nothing.
 */
int tracked_lock_events_users;
EXPORT_SYMBOL_GPL(tracked_lock_events_users);

static DEFINE_MUTEX(rt_lock_events_mutex);

static int rt_lock_events_get(const struct rt_session *s)
{
	mutex_lock(&rt_lock_events_mutex);
	WRITE_ONCE(tracked_lock_events_users, tracked_lock_events_users + 1);
	mutex_unlock(&rt_lock_events_mutex);
	return 0;	/* tracked locks call us: only listeners are counted */
}

static void rt_lock_events_put(const struct rt_session *s)
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

/* One record into @s's ring, the task's cgroup named first (emit.h). */
static __always_inline void rt_lock_write(struct rt_session *s, int cpu,
					  u64 event, u64 ts, u64 lock_id,
					  const char *name, u64 wait, u64 hold,
					  u32 flags)
{
	struct ringtrace_lock_record *rec;
	struct rt_stack st;
	struct rt_emit e = {
		.s		= s,
		.task		= current,
		.ts		= ts,
		.cpu		= cpu,
		.slot		= rt_session_slot(s, cpu),
		.type		= RINGTRACE_RECORD_LOCK,
		.fixed		= sizeof(*rec),
		/* Our own frames cut (no anchor). */
		.stack_event	= event,
		.st		= &st,
		/* Maybe holding the very lock a name would take. */
		.in_lock	= true,
	};

	/* Every byte written: no hole, padding zeroed. */
	BUILD_BUG_ON(sizeof(*rec) != 112);
	BUILD_BUG_ON(TRACKED_LOCK_NAME_LEN != RINGTRACE_LOCK_NAME_LEN);
	RT_EMIT_CHECK(struct ringtrace_lock_record);

	rec = rt_emit_begin(&e);
	if (rec) {
		rec->lock_id = lock_id;
		rec->wait_ns = wait;
		rec->hold_ns = hold;
		rec->flags = flags;
		rec->__pad = 0;
		strscpy_pad(rec->name, name, sizeof(rec->name));
	}
	rt_emit_end(&e, rec);
}

void rt_lock_emit(u64 ts, u64 lock_id, const char *name, u64 wait_ns,
		  u64 hold_ns, u32 flags)
{
	const u64 event = flags & RINGTRACE_LOCK_KERNEL ?
			  RINGTRACE_EVENT_LOCK_CONTENTION : RINGTRACE_EVENT_LOCK;
	struct rt_session *s;
	int cpu;

	/* Also the RCU read-side section for the session walk. */
	preempt_disable_notrace();
	cpu = smp_processor_id();
	rt_for_each_active_session(s) {
		if (!(s->events & event) || !cpumask_test_cpu(cpu, s->cpus) ||
		    !rt_lock_over_threshold(s, wait_ns, hold_ns) ||
		    !rt_session_wants_task(s, current))
			continue;
		rt_lock_write(s, cpu, event, ts, lock_id, name, wait_ns,
			      hold_ns, flags);
	}
	preempt_enable_notrace();
}

struct rt_producer rt_lock_producer = {
	.name		= "lock",
	.events		= RINGTRACE_EVENT_LOCK,
	.get		= rt_lock_events_get,
	.put		= rt_lock_events_put,
};

/* Called by tracked unlocks (tracked_lock.h) when a session listens. */
void __tracked_lock_emit(const struct tracked_lock_sample *s)
{
	rt_lock_emit(s->released_ns, s->id, s->name, s->wait_ns, s->hold_ns,
		     (s->contended ? RINGTRACE_LOCK_CONTENDED : 0) |
		     RINGTRACE_LOCK_ID_HASHED);
}
EXPORT_SYMBOL_GPL(__tracked_lock_emit);
