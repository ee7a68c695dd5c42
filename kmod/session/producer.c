// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of producers (producer.h): what a session gets when it is
 * enabled, in registration order, and what it puts back, in reverse.
 */
#include <linux/errno.h>
#include <linux/list.h>

#include "producer.h"
#include "session.h"

static LIST_HEAD(rt_producers);

void rt_producer_register(struct rt_producer *p)
{
	list_add_tail(&p->node, &rt_producers);
}

void rt_producer_unregister(struct rt_producer *p)
{
	list_del(&p->node);
}

/* What the producers this kernel offers bring: events, features. */
static void rt_producers_offered(u64 *events, u64 *features)
{
	const struct rt_producer *p;

	*events = 0;
	*features = 0;
	list_for_each_entry(p, &rt_producers, node) {
		if (p->available && !p->available())
			continue;
		*events |= p->events;
		*features |= p->features;
	}
}

u64 rt_producers_events(void)
{
	u64 events, features;

	rt_producers_offered(&events, &features);
	return events;
}

u64 rt_producers_features(void)
{
	u64 events, features;

	rt_producers_offered(&events, &features);
	return features;
}

int rt_producers_get(const struct rt_session *s)
{
	struct rt_producer *p;
	int err;

	if (s->events & ~rt_producers_events())
		return -EOPNOTSUPP;
	list_for_each_entry(p, &rt_producers, node) {
		if (!(s->events & p->events))
			continue;
		err = p->get(s);
		if (err)
			goto unwind;
	}
	return 0;

unwind:
	list_for_each_entry_continue_reverse(p, &rt_producers, node)
		if (s->events & p->events)
			p->put(s);
	return err;
}

void rt_producers_start(const struct rt_session *s)
{
	struct rt_producer *p;

	list_for_each_entry(p, &rt_producers, node)
		if ((s->events & p->events) && p->start)
			p->start(s);
}

void rt_producers_put(const struct rt_session *s)
{
	struct rt_producer *p;

	list_for_each_entry_reverse(p, &rt_producers, node)
		if (s->events & p->events)
			p->put(s);
}

void rt_producers_stats(struct ringtrace_stats *st)
{
	const struct rt_producer *p;

	list_for_each_entry(p, &rt_producers, node)
		if (p->stats)
			p->stats(st);
}

void rt_producers_session_stats(struct rt_session *s,
				struct ringtrace_stats *st)
{
	const struct rt_producer *p;

	list_for_each_entry(p, &rt_producers, node)
		if (p->session_stats)
			p->session_stats(s, st);
}

void rt_producers_release(struct rt_session *s)
{
	const struct rt_producer *p;

	list_for_each_entry(p, &rt_producers, node)
		if (p->release)
			p->release(s);
}
