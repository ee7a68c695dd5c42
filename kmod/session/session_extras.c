// SPDX-License-Identifier: GPL-2.0
/*
 * A session's ABI 2 options: path records (emit/path_record.c) and stack
 * trailers (lib/stack.c). Their configuration, the buffers they need while a
 * session is configured for them, and their counters.
 */
#include <linux/percpu.h>
#include <linux/ringtrace.h>
#include <linux/slab.h>

#include "lib/path.h"
#include "lib/stack.h"
#include "path_cache.h"
#include "session.h"

/* Events whose records can carry a stack trailer. */
#define RT_STACK_EVENTS	(RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_LOCK | \
			 RINGTRACE_EVENT_LOCK_CONTENTION | RINGTRACE_EVENT_OFFCPU | \
			 RINGTRACE_EVENT_FUNC)

u64 rt_extras_features(void)
{
	return RINGTRACE_FEAT_PATHS | rt_stack_features();
}

int rt_session_extras_init(struct rt_session *s)
{
	s->xcounts = alloc_percpu_gfp(struct rt_extra_counts,
				      GFP_KERNEL_ACCOUNT);
	if (!s->xcounts)
		return -ENOMEM;
	/* The names memo: here, never in a probe (PREEMPT_RT: no allocation). */
	s->memo = kvcalloc(rt_session_capacity(), sizeof(*s->memo),
			   GFP_KERNEL_ACCOUNT);
	if (!s->memo) {
		free_percpu(s->xcounts);
		s->xcounts = NULL;
		return -ENOMEM;
	}
	rt_names_memo_reset(s);
	return 0;
}

/* Let go of what the current configuration holds. Session disabled. */
static void rt_session_extras_release(struct rt_session *s)
{
	if (s->paths) {
		rt_path_cache_free(s->paths);
		s->paths = NULL;
		rt_path_buffers_put();
	}
	if (s->stack_events) {
		s->stack_events = 0;
		rt_stack_buffers_put();
	}
}

/* The session is disabled: no probe sees it (rt_session_disable()). */
void rt_session_extras_destroy(struct rt_session *s)
{
	rt_session_extras_release(s);
	free_percpu(s->xcounts);
	kvfree(s->memo);
}

int rt_session_extras_check(const struct ringtrace_config *cfg)
{
	if (cfg->path_cache_entries > RINGTRACE_PATH_CACHE_MAX ||
	    cfg->path_max > RINGTRACE_PATH_MAX_MAX)
		return -EINVAL;
	if (cfg->stack_kernel_depth > RINGTRACE_STACK_MAX_DEPTH ||
	    cfg->stack_user_depth > RINGTRACE_STACK_MAX_DEPTH)
		return -EINVAL;
	if (cfg->stack_events & ~RT_STACK_EVENTS)
		return -EINVAL;
	/* A stack needs frames; frames need events to attach them to. */
	if (!cfg->stack_events !=
	    !(cfg->stack_kernel_depth || cfg->stack_user_depth))
		return -EINVAL;
	if (cfg->stack_user_depth &&
	    !(rt_stack_features() & RINGTRACE_FEAT_STACK_USER))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * Called with s->lock held and the session disabled, before any other
 * field changes: on failure the old configuration stays.
 */
int rt_session_extras_configure(struct rt_session *s,
				const struct ringtrace_config *cfg)
{
	struct rt_path_cache *paths = NULL;
	bool stacks = cfg->stack_events;
	int err;

	if (cfg->flags & RINGTRACE_CFG_PATHS) {
		err = rt_path_buffers_get();
		if (err)
			return err;
		paths = rt_path_cache_alloc(cfg->path_cache_entries ?:
					    RINGTRACE_PATH_CACHE_DEFAULT);
		if (!paths) {
			err = -ENOMEM;
			goto err_path_buffers;
		}
	}
	if (stacks) {
		err = rt_stack_buffers_get();
		if (err)
			goto err_paths;
	}

	rt_session_extras_release(s);
	s->paths = paths;
	s->path_max = cfg->path_max ?: RINGTRACE_PATH_MAX_DEFAULT;
	s->stack_events = cfg->stack_events;
	s->stack_kernel_depth = cfg->stack_kernel_depth;
	s->stack_user_depth = cfg->stack_user_depth;
	return 0;

err_paths:
	rt_path_cache_free(paths);
err_path_buffers:
	if (cfg->flags & RINGTRACE_CFG_PATHS)
		rt_path_buffers_put();
	return err;
}

/* Each enabled period names its files anew: a reader may start at it. */
void rt_session_extras_enable(struct rt_session *s)
{
	rt_path_cache_reset(s->paths);
	rt_path_cache_reset(s->cgroups.names);
	rt_names_memo_reset(s);		/* with the tables it remembers */
}

/*
 * Nothing remembered: the tables were just emptied. No probe sees the
 * session (ENABLE lists it after this), so plain stores do.
 */
void rt_names_memo_reset(struct rt_session *s)
{
	unsigned int i, n = rt_session_capacity();

	for (i = 0; i < n; i++) {
		s->memo[i].path_ts = RT_NAMED_NONE;
		s->memo[i].cgroup_ts = RT_NAMED_NONE;
	}
}

void rt_session_extras_stats(struct rt_session *s, struct ringtrace_stats *st)
{
	const struct rt_extra_counts *c;
	int cpu;

	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(s->xcounts, cpu);
		st->path_records += c->path_records;
		st->path_cache_full += c->path_cache_full;
		st->path_unresolved += c->path_unresolved;
		st->path_races += c->path_races;
		st->stack_missed += c->stack_missed;
		st->vfs_read_filtered += c->vfs_read_filtered;
		st->func_outside_read += c->func_outside_read;
		st->func_inread_unknown += c->func_inread_unknown;
		st->func_fast_read += c->func_fast_read;
	}
}
