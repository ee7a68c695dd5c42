/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The producers, as the session sees them: each registers a struct
 * rt_producer at load (perf's PMUs register a struct pmu the same way),
 * and ENABLE and DISABLE get and put the ones a session asks for through
 * it, GET_INFO and GET_STATS ask it what they offer and count. Nothing on
 * a record's path goes through it: a producer writes its records itself
 * (emit/emit.h).
 */
#ifndef _RINGTRACE_PRODUCER_H
#define _RINGTRACE_PRODUCER_H

#include <linux/list.h>
#include <linux/types.h>
#include <linux/ringtrace.h>

struct rt_session;

struct rt_producer {
	const char	*name;
	u64		events;		/* the RINGTRACE_EVENT_* it writes */
	u64		features;	/* RINGTRACE_FEAT_* it brings, offered */
	/* Whether this kernel offers it; NULL: always. */
	bool		(*available)(void);
	/*
	 * An enabled session asks for some of ->events (@s is disabled and
	 * its configuration stable: the producer may read it), or no longer
	 * does. Process context. The first get attaches what the producer
	 * needs, the last put detaches it and returns once no handler of
	 * it runs any more.
	 */
	int		(*get)(const struct rt_session *s);
	void		(*put)(const struct rt_session *s);
	/*
	 * NULL, or: @s's rings are started and it is about to be listed
	 * (a producer with probes of the session's own, which write to it
	 * without the list, starts them here). Process context, s->lock.
	 */
	void		(*start)(const struct rt_session *s);
	/* Its module-wide counts into GET_STATS' answer; NULL: none. */
	void		(*stats)(struct ringtrace_stats *st);
	/* NULL, or its counts of session @s, under s->lock. */
	void		(*session_stats)(struct rt_session *s,
					 struct ringtrace_stats *st);
	/*
	 * NULL, or: @s, disabled, is being freed: let go of what the
	 * producer keeps in it (its configuration of the producer).
	 */
	void		(*release)(struct rt_session *s);

	struct list_head node;		/* on the registry (producer.c) */
};

/*
 * At load, before /dev/ringtrace exists, and at unload, once it is gone:
 * the registry is not locked. A session gets producers in the order they
 * registered and puts them in the reverse order.
 */
void rt_producer_register(struct rt_producer *p);
void rt_producer_unregister(struct rt_producer *p);

/* The events and features the registered producers offer. */
u64 rt_producers_events(void);
u64 rt_producers_features(void);
/* Every producer of @s's events, or none (EOPNOTSUPP: one not offered). */
int rt_producers_get(const struct rt_session *s);
void rt_producers_start(const struct rt_session *s);
void rt_producers_put(const struct rt_session *s);
/* Module-wide counts, then @s's own (under s->lock). */
void rt_producers_stats(struct ringtrace_stats *st);
void rt_producers_session_stats(struct rt_session *s,
				struct ringtrace_stats *st);
void rt_producers_release(struct rt_session *s);

#endif /* _RINGTRACE_PRODUCER_H */
