// SPDX-License-Identifier: GPL-2.0
/*
 * ENABLE and DISABLE: a session starts when it gets the producers it asks
 * for (session/producer.h) and is listed for them, and stops when it is
 * off the list, every probe that could see it has finished, and they are
 * put back.
 *
 * This sits above the producers, as perf's core sits above its PMUs: it
 * drives them through their ops, and the lock its writers take is itself
 * a producer's: a tracked lock, so that ringtrace's own contention shows
 * up in its lock statistics and records.
 */
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/rculist.h>
#include <linux/timer.h>

#include "enable.h"
#include "events/tracked_lock.h"
#include "lib/compat.h"
#include "session/active.h"
#include "session/producer.h"
#include "session/session.h"

/* Writers of rt_active_sessions (the producers read it, active.h). */
static struct tracked_spinlock rt_sessions_lock;
/* Each ENABLE's own number (struct rt_session's enable_seq). */
static atomic64_t rt_enable_seq = ATOMIC64_INIT(0);

void rt_enable_init(void)
{
	tracked_spin_lock_init(&rt_sessions_lock, "ringtrace_sessions");
}

void rt_enable_exit(void)
{
	tracked_spin_lock_destroy(&rt_sessions_lock);
}

int rt_session_enable(struct rt_session *s)
{
	int err = 0;

	mutex_lock(&s->lock);
	if (s->enabled)
		goto unlock;
	if (!s->events || !rt_session_has_rings(s)) {
		err = -EINVAL;
		goto unlock;
	}
	err = rt_producers_get(s);
	if (err)
		goto unlock;
	rt_session_start(s);
	rt_producers_start(s);

	/* Before the list publishes it (list_add_tail_rcu's release). */
	s->enable_seq = atomic64_inc_return(&rt_enable_seq);
	WRITE_ONCE(s->enabled, true);
	tracked_spin_lock(&rt_sessions_lock);
	list_add_tail_rcu(&s->node, &rt_active_sessions);
	tracked_spin_unlock(&rt_sessions_lock);
	/*
	 * In overwrite mode too: the timer also flags exited threads within
	 * a flush period. It wakes no flight recorder's reader, who sleeps
	 * until it wants a snapshot: rt_ring_has_unread() is false for an
	 * overwrite ring.
	 */
	mod_timer(&s->flush_timer, jiffies + msecs_to_jiffies(s->flush_ms));
unlock:
	mutex_unlock(&s->lock);
	return err;
}

int rt_session_disable(struct rt_session *s)
{
	mutex_lock(&s->lock);
	if (!s->enabled)
		goto unlock;

	WRITE_ONCE(s->enabled, false);
	tracked_spin_lock(&rt_sessions_lock);
	list_del_rcu(&s->node);
	tracked_spin_unlock(&rt_sessions_lock);
	/* Every probe that could still see the session has finished. */
	rt_sessions_synchronize();
	rt_producers_put(s);
	rt_timer_delete_sync(&s->flush_timer);
	rt_session_stop(s);
unlock:
	mutex_unlock(&s->lock);
	return 0;
}
