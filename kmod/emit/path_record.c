// SPDX-License-Identifier: GPL-2.0
/*
 * Path records: each session names every file its vfs_read records refer
 * to once, with a path record written on the same ring right before the
 * first record naming it (Documentation/protocol.rst, "Path records").
 * Which files it named is the session's table (session/path_cache.c);
 * the name itself comes from lib/path.c.
 */
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "emit.h"
#include "lib/path.h"
#include "session/active.h"
#include "session/path_cache.h"

static void rt_path_fill(struct ringtrace_path_record *rec, unsigned int size,
			 u64 ts, const struct rt_path_call *c,
			 const char *name, u32 len, u32 flags)
{
	rec->header.type = RINGTRACE_RECORD_PATH;
	rec->header.misc = 0;
	rec->header.size = size;
	rec->ts_ns = ts;
	rec->dev_major = MAJOR(c->dev);
	rec->dev_minor = MINOR(c->dev);
	rec->ino = c->ino;
	rec->flags = flags;
	rec->path_len = len;
	rec->__pad = 0;
	/* The name right after the fixed part: RINGTRACE_PATH_RECORD_PATH(). */
	rt_emit_name_copy(rec, sizeof(*rec), size, name, len);
}

u64 rt_path_before_record(struct rt_session *s, int slot, u64 ts,
			  struct rt_path_call *c)
{
	u64 named_ts = RT_NAMED_NONE;
	struct rt_path_slot *named = NULL;
	struct ringtrace_path_record *rec;
	enum rt_path_verdict v;
	const char *name;
	unsigned int size;
	u32 len, flags;
	struct rt_ring *ring;

	BUILD_BUG_ON(sizeof(*rec) != 40);
	v = rt_path_lookup(s->paths, c->dev, c->ino, ts, &named, &named_ts);
	if (v == RT_PATH_SKIP)
		return named_ts;
	if (!c->name)
		rt_path_resolve(c);

	name = c->name;
	len = c->len;
	flags = c->flags;
	if (len > s->path_max) {
		/* The end of a path says most: keep it. */
		name += len - s->path_max;
		len = s->path_max;
		flags |= RINGTRACE_PATH_TRUNCATED;
	}
	if (v == RT_PATH_FULL) {
		flags |= RINGTRACE_PATH_UNCACHED;
		this_cpu_inc(s->xcounts->path_cache_full);
	} else if (v == RT_PATH_RACE) {
		this_cpu_inc(s->xcounts->path_races);
	}

	size = rt_emit_name_size(sizeof(*rec), len);
	rec = rt_session_reserve_at(s, slot, size, ts, &ring);
	if (rec) {
		rt_path_fill(rec, size, ts, c, name, len, flags);
		rt_ring_commit(ring);
		this_cpu_inc(s->xcounts->path_records);
		if (flags & RINGTRACE_PATH_UNRESOLVED)
			this_cpu_inc(s->xcounts->path_unresolved);
	}
	if (named)
		rt_path_publish(named, ts, rec);
	return RT_NAMED_NONE;
}
