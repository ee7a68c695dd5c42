// SPDX-License-Identifier: GPL-2.0
/*
 * The tracked-lock statistics table, two ways: RINGTRACE_IOC_LOCK_STATS
 * (for ringtrace-lockstat) and /sys/kernel/debug/ringtrace/lock_stat (for
 * people, in the spirit of /proc/lock_stat).
 *
 * The statistics are read without the locks: each field is read once
 * (the holder writes them with WRITE_ONCE), so a lock busy at that moment
 * may show an acquisition whose hold time is not added yet. A reset reads
 * and zeroes each lock's statistics under that lock, so no increment falls
 * between what was reported and the reset, and it resets only the locks it
 * reported: a caller with room for fewer entries than there are locks
 * leaves the others' counts for the next query.
 */
#include <linux/debugfs.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/ringtrace.h>

#include "events/lock_events.h"
#include "events/tracked_lock.h"
#include "ioctl_struct.h"
#include "lock_stats.h"

#define RT_LOCK_STATS_MAX	65536	/* entries one query may ask for */

static void rt_lock_stat_read(struct tracked_spinlock *l, u64 id,
			      struct ringtrace_lock_stat *e)
{
	const struct tracked_lock_stats *st = &l->stats;

	memset(e, 0, sizeof(*e));
	e->lock_id = id;	/* rt_lock_for_each()'s: never 0 */
	e->acquisitions = READ_ONCE(st->acquisitions);
	e->contended = READ_ONCE(st->contended);
	e->wait_total_ns = READ_ONCE(st->wait_total_ns);
	e->wait_max_ns = READ_ONCE(st->wait_max_ns);
	e->hold_total_ns = READ_ONCE(st->hold_total_ns);
	e->hold_max_ns = READ_ONCE(st->hold_max_ns);
	strscpy_pad(e->name, l->name, sizeof(e->name));
}

/* Report and zero in one critical section: no increment is lost. */
static void rt_lock_stat_read_reset(struct tracked_spinlock *l, u64 id,
				    struct ringtrace_lock_stat *e)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&l->lock, flags);
	rt_lock_stat_read(l, id, e);
	memset(&l->stats, 0, sizeof(l->stats));
	raw_spin_unlock_irqrestore(&l->lock, flags);
}

struct rt_lock_snapshot {
	struct ringtrace_lock_stat *out;
	unsigned int room;
	unsigned int filled;
	bool reset;
};

static void rt_lock_snapshot_one(struct tracked_spinlock *l, u64 id,
				 void *arg)
{
	struct rt_lock_snapshot *snap = arg;

	if (snap->filled >= snap->room)
		return;
	if (snap->reset)
		rt_lock_stat_read_reset(l, id, &snap->out[snap->filled++]);
	else
		rt_lock_stat_read(l, id, &snap->out[snap->filled++]);
}

long rt_ioctl_lock_stats(void __user *uarg)
{
	struct ringtrace_lock_stats_query __user *uq = uarg;
	struct rt_lock_snapshot snap = {};
	struct ringtrace_lock_stats_query q;
	u32 usize, entry_size, i;
	long err;

	err = rt_get_struct_size(uq, RINGTRACE_LOCK_STATS_QUERY_SIZE_VER0,
				 &usize);
	if (err)
		return err;
	err = copy_struct_from_user(&q, sizeof(q), uq, usize);
	if (err)
		return err;
	if ((q.flags & ~RINGTRACE_LOCK_STATS_RESET) || q.__pad ||
	    q.nr_entries > RT_LOCK_STATS_MAX || (q.nr_entries && !q.entries))
		return -EINVAL;
	/* Bounded like the structures' own sizes: at most a page each. */
	if (q.entry_size > PAGE_SIZE)
		return -E2BIG;
	/* Older callers know a prefix of the entry; newer ones get ours. */
	entry_size = min_t(u32, q.entry_size, sizeof(struct ringtrace_lock_stat));
	if (q.nr_entries && entry_size < offsetof(struct ringtrace_lock_stat, name))
		return -EINVAL;

	if (q.nr_entries) {
		snap.out = kvcalloc(q.nr_entries, sizeof(*snap.out), GFP_KERNEL);
		if (!snap.out)
			return -ENOMEM;
	}
	snap.room = q.nr_entries;
	snap.reset = q.flags & RINGTRACE_LOCK_STATS_RESET;
	q.nr_locks = rt_lock_for_each(rt_lock_snapshot_one, &snap);
	q.nr_entries = snap.filled;

	err = 0;
	for (i = 0; i < snap.filled && !err; i++) {
		void __user *dst = u64_to_user_ptr(q.entries) +
				   (size_t)i * q.entry_size;

		/* A newer caller's fields we do not know read as zero. */
		if (copy_to_user(dst, &snap.out[i], entry_size) ||
		    clear_user(dst + entry_size, q.entry_size - entry_size))
			err = -EFAULT;
		/* Up to RT_LOCK_STATS_MAX pages of user memory to write. */
		cond_resched();
	}
	kvfree(snap.out);
	if (!err && (put_user(q.nr_entries, &uq->nr_entries) ||
		     put_user(q.nr_locks, &uq->nr_locks)))
		err = -EFAULT;
	return err;
}

static void rt_lock_stat_show_one(struct tracked_spinlock *l, u64 id,
				  void *arg)
{
	struct seq_file *m = arg;
	struct ringtrace_lock_stat e;

	rt_lock_stat_read(l, id, &e);
	seq_printf(m, "%-32s %8llu %12llu %10llu %14llu %12llu %14llu %12llu\n",
		   e.name, e.lock_id, e.acquisitions, e.contended,
		   e.wait_total_ns, e.wait_max_ns, e.hold_total_ns,
		   e.hold_max_ns);
}

static int rt_lock_stat_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%-32s %8s %12s %10s %14s %12s %14s %12s\n", "name",
		   "id", "acquisitions", "contended", "wait-total-ns",
		   "wait-max-ns", "hold-total-ns", "hold-max-ns");
	rt_lock_for_each(rt_lock_stat_show_one, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rt_lock_stat);

static struct dentry *rt_debugfs_dir;

void rt_lock_stats_debugfs_init(void)
{
	/* Optional: failures only lose the debugfs view. */
	rt_debugfs_dir = debugfs_create_dir("ringtrace", NULL);
	debugfs_create_file("lock_stat", 0400, rt_debugfs_dir, NULL,
			    &rt_lock_stat_fops);
}

void rt_lock_stats_debugfs_exit(void)
{
	debugfs_remove_recursive(rt_debugfs_dir);
}
