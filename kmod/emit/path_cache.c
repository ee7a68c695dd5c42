// SPDX-License-Identifier: GPL-2.0
/*
 * Path records: each session names every file its vfs_read records refer
 * to once, with a path record written on the same ring right before the
 * first record naming it (Documentation/protocol.rst, "Path records").
 *
 * The session remembers which files it named in a fixed-size open-addressed
 * table that the probes of every CPU use at once with preemption disabled:
 * a slot is claimed by cmpxchg on its key and published with a release
 * store of its state, so there is no lock to take in probe context. A file
 * looks at RT_PATH_PROBES slots from its hash; when all are taken by other
 * files the cache is full for it and it is named before every record
 * (RINGTRACE_PATH_UNCACHED, counted in path_cache_full).
 *
 * Names come from d_path() on the struct file the probed call holds. It
 * never sleeps on a !PREEMPT_RT kernel: it walks under RCU with the
 * rename_lock and mount_lock seqlocks, and falls back to taking them as
 * spinlocks only when a rename or mount change raced the lockless pass.
 * On PREEMPT_RT those spinlocks (and the fs_struct seqcount's reader
 * side) are sleeping locks, which a probe must not take: there the name is
 * built by a lockless walk up to the root of the file's mount
 * (RINGTRACE_PATH_MOUNT_RELATIVE), given up if a rename raced it.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mount.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lib/percpu_buf.h"
#include "path_cache.h"
#include "session/session.h"

/* Slots a file may use, from its hash on: bounds the work per lookup. */
#define RT_PATH_PROBES		16
/* d_path()'s buffer: paths longer than this are UNRESOLVED. */
#define RT_PATH_BUF		PATH_MAX
/* Deeper directory trees than this are cut (TRUNCATED) by the RT walk. */
#define RT_PATH_MAX_DEPTH	256

enum rt_path_state {
	RT_PATH_BUSY,		/* claimed, being named (or not yet visible) */
	RT_PATH_NAMED,		/* its path record was written at ts */
	RT_PATH_UNNAMED,	/* claimed, but the record was lost: name again */
};

struct rt_path_slot {
	u64	key;		/* hash | 1; 0: free. Claimed by cmpxchg */
	u64	ino;
	u64	ts;		/* ts_ns of the path record */
	u32	dev;		/* MKDEV(major, minor) */
	u32	state;		/* enum rt_path_state, release/acquire */
};

struct rt_path_cache {
	u32			mask;		/* slots - 1 */
	struct rt_path_slot	slots[];
};

struct rt_path_cache *rt_path_cache_alloc(u32 entries)
{
	struct rt_path_cache *pc;

	entries = roundup_pow_of_two(max_t(u32, entries, RT_PATH_PROBES));
	pc = kvzalloc(struct_size(pc, slots, entries), GFP_KERNEL_ACCOUNT);
	if (!pc)
		return NULL;
	pc->mask = entries - 1;
	return pc;
}

void rt_path_cache_free(struct rt_path_cache *pc)
{
	kvfree(pc);
}

void rt_path_cache_reset(struct rt_path_cache *pc)
{
	if (pc)
		memset(pc->slots, 0, (pc->mask + 1) * sizeof(pc->slots[0]));
}

/* One buffer per CPU, shared by the sessions: probes do not nest. */
static struct rt_percpu_buf rt_path_buf =
	RT_PERCPU_BUF_INIT(rt_path_buf, RT_PATH_BUF, 8);

int rt_path_buffers_get(void)
{
	return rt_percpu_buf_get(&rt_path_buf);
}

void rt_path_buffers_put(void)
{
	rt_percpu_buf_put(&rt_path_buf);
}

/*
 * Has the session named (dev, ino) in a record that a reader merging the
 * rings by time sees before one stamped @ts? If not, claim it (*slotp) or
 * say why the caller must name it anyway.
 */
enum rt_path_verdict rt_path_lookup(struct rt_path_cache *pc, u32 dev,
				    u64 ino, u64 ts, struct rt_path_slot **slotp,
				    u64 *named_ts)
{
	u64 hash = (ino ^ ((u64)dev << 32) ^ dev) * GOLDEN_RATIO_64;
	u64 key = hash | 1, cur;
	struct rt_path_slot *slot;
	unsigned int i;
	u32 state;

	for (i = 0; i < RT_PATH_PROBES; i++) {
		slot = &pc->slots[((hash >> 32) + i) & pc->mask];
		cur = READ_ONCE(slot->key);
		if (!cur) {
			cur = cmpxchg(&slot->key, 0, key);
			if (!cur) {
				/* state is RT_PATH_BUSY (0) until we publish */
				slot->ino = ino;
				slot->dev = dev;
				*slotp = slot;
				return RT_PATH_OWN;
			}
		}
		if (cur != key)
			continue;
		/*
		 * Pairs with the smp_store_release() in rt_path_publish():
		 * ino, dev and ts are the owner's once the state says so.
		 */
		state = smp_load_acquire(&slot->state);
		if (state == RT_PATH_BUSY)
			return RT_PATH_RACE;	/* cannot tell: name it */
		if (slot->ino != ino || slot->dev != dev)
			continue;		/* another file, same hash */
		if (state == RT_PATH_UNNAMED) {
			if (cmpxchg(&slot->state, RT_PATH_UNNAMED,
				    RT_PATH_BUSY) != RT_PATH_UNNAMED)
				return RT_PATH_RACE;
			*slotp = slot;
			return RT_PATH_OWN;
		}
		/*
		 * Named on some ring at slot->ts: a record stamped no later
		 * could come first in a merged stream (another CPU, or a
		 * tie), so it brings its own path record.
		 */
		if (slot->ts >= ts)
			return RT_PATH_RACE;
		/* NAMED is final: slot->ts stays for the enabled period. */
		*named_ts = slot->ts;
		return RT_PATH_SKIP;
	}
	return RT_PATH_FULL;
}

void rt_path_publish(struct rt_path_slot *slot, u64 ts, bool written)
{
	slot->ts = ts;
	/* Pairs with smp_load_acquire() in rt_path_lookup(). */
	smp_store_release(&slot->state,
			  written ? RT_PATH_NAMED : RT_PATH_UNNAMED);
}

/* Copy @len bytes of a dentry name ending before @end; stop at a NUL. */
static char *rt_path_prepend_name(char *buf, char *end, const char *name,
				  u32 len)
{
	u32 i, n = 0;

	/* A name read under RCU may be torn by a rename: bound by NUL too. */
	for (i = 0; i < len && name[i]; i++)
		n++;
	if (end - buf < n + 1)
		return NULL;
	end -= n;
	memcpy(end, name, n);
	*--end = '/';
	return end;
}

/*
 * The path of @path inside its mount, with no lock: dentry names and
 * parents under RCU, the whole walk checked against rename_lock's raw
 * sequence count (its plain seqcount_t, whose reader never locks, unlike
 * the seqcount_spinlock_t read side on PREEMPT_RT). NULL: a rename raced.
 */
static char *rt_path_walk_mount(const struct path *path, char *buf, u32 size,
				u32 *flags)
{
	const seqcount_t *seqc = &rename_lock.seqcount.seqcount;
	struct dentry *d = path->dentry, *root = path->mnt->mnt_root;
	char *end = buf + size - 1, *p;
	const char *name;
	unsigned int seq, depth;

	*end = '\0';
	p = end;
	rcu_read_lock();
	seq = raw_read_seqcount(seqc);
	if (seq & 1)
		goto raced;
	for (depth = 0; d != root && !IS_ROOT(d); depth++) {
		if (depth == RT_PATH_MAX_DEPTH) {
			*flags |= RINGTRACE_PATH_TRUNCATED;
			break;
		}
		/* Pairs with the kernel's release store of a new name. */
		name = smp_load_acquire(&d->d_name.name);
		p = rt_path_prepend_name(buf, p, name, READ_ONCE(d->d_name.len));
		if (!p)
			goto raced;
		d = READ_ONCE(d->d_parent);
	}
	if (p == end)
		*--p = '/';
	/* Pairs with the write side's barriers around a rename. */
	if (read_seqcount_retry(seqc, seq))
		goto raced;
	rcu_read_unlock();
	*flags |= RINGTRACE_PATH_MOUNT_RELATIVE;
	return p;
raced:
	rcu_read_unlock();
	return NULL;
}

/* Resolve @c's name into this CPU's buffer; sets name, len and flags. */
static void rt_path_resolve(struct rt_path_call *c)
{
	static const char deleted[] = " (deleted)";
	const struct path *path = &c->file->f_path;
	struct dentry *dentry = path->dentry;
	char *buf = this_cpu_ptr((char __percpu *)rt_path_buf.ptr), *p;
	const int dlen = sizeof(deleted) - 1;
	bool pseudo = dentry->d_op && dentry->d_op->d_dname;

	c->flags = 0;
	if (pseudo && IS_ENABLED(CONFIG_PREEMPT_RT)) {
		/* d_dname methods may take spinlocks (dma-buf): our own name. */
		c->len = scnprintf(buf, RT_PATH_BUF, "%s:[%llu]",
				   dentry->d_sb->s_type->name, c->ino);
		c->name = buf;
		c->flags = RINGTRACE_PATH_PSEUDO;
		return;
	}
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		p = rt_path_walk_mount(path, buf, RT_PATH_BUF, &c->flags);
	else if (!current->fs)	/* exiting: d_path() would dereference it */
		p = NULL;
	else
		p = d_path(path, buf, RT_PATH_BUF);
	if (IS_ERR_OR_NULL(p)) {
		c->name = "";
		c->len = 0;
		c->flags = RINGTRACE_PATH_UNRESOLVED;
		return;
	}
	c->name = p;
	c->len = strlen(p);
	if (pseudo) {
		c->flags |= RINGTRACE_PATH_PSEUDO;
	} else if (d_unlinked(dentry)) {
		c->flags |= RINGTRACE_PATH_DELETED;
		/* d_path() says so in the name; the flag says it instead. */
		if (c->len >= dlen && !strcmp(p + c->len - dlen, deleted))
			c->len -= dlen;
	}
}

static void rt_path_fill(struct ringtrace_path_record *rec, unsigned int size,
			 u64 ts, const struct rt_path_call *c,
			 const char *name, u32 len, u32 flags)
{
	char *path = (char *)(rec + 1);	/* RINGTRACE_PATH_RECORD_PATH() */

	rec->header.type = RINGTRACE_RECORD_PATH;
	rec->header.misc = 0;
	rec->header.size = size;
	rec->ts_ns = ts;
	rec->dev_major = c->dev_major;
	rec->dev_minor = c->dev_minor;
	rec->ino = c->ino;
	rec->flags = flags;
	rec->path_len = len;
	rec->__pad = 0;
	memcpy(path, name, len);
	/* The NUL and the padding: every byte of a record is written. */
	memset(path + len, 0, size - sizeof(*rec) - len);
}

u64 rt_path_before_record(struct rt_session *s, int cpu, u64 ts,
			  struct rt_path_call *c)
{
	u64 named_ts = RT_NAMED_NONE;
	struct rt_path_slot *slot = NULL;
	struct ringtrace_path_record *rec;
	enum rt_path_verdict v;
	const char *name;
	unsigned int size;
	u32 len, flags;
	struct rt_ring *ring;

	BUILD_BUG_ON(sizeof(*rec) != 40);
	v = rt_path_lookup(s->paths, MKDEV(c->dev_major, c->dev_minor),
			   c->ino, ts, &slot, &named_ts);
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

	size = ALIGN(sizeof(*rec) + len + 1, RINGTRACE_RECORD_ALIGN);
	rec = rt_session_reserve(s, cpu, size, ts, &ring);
	if (rec) {
		rt_path_fill(rec, size, ts, c, name, len, flags);
		rt_ring_commit(ring);
		this_cpu_inc(s->xcounts->path_records);
		if (flags & RINGTRACE_PATH_UNRESOLVED)
			this_cpu_inc(s->xcounts->path_unresolved);
	}
	if (slot)
		rt_path_publish(slot, ts, rec);
	return RT_NAMED_NONE;
}
