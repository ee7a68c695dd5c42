// SPDX-License-Identifier: GPL-2.0
/*
 * A file's path, in probe context, for its path record
 * (emit/path_record.c).
 *
 * Names come from d_path() on the struct file the probed call holds. It
 * never sleeps on a !PREEMPT_RT kernel: it walks under RCU with the
 * rename_lock and mount_lock seqlocks, and falls back to taking them as
 * spinlocks only when a rename or mount change raced the lockless pass.
 * On PREEMPT_RT those spinlocks (and the fs_struct seqcount's reader
 * side) are sleeping locks, which a probe must not take: there the name is
 * built by a lockless walk up to the root of the file's mount
 * (RINGTRACE_PATH_MOUNT_RELATIVE), given up if a rename raced it.
 * Whether d_path() may sleep is compat.h's (RT_D_PATH_SLEEPS).
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/mount.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/string.h>
#include <linux/ringtrace.h>

#include "compat.h"
#include "path.h"
#include "percpu_buf.h"

/* d_path()'s buffer: paths longer than this are UNRESOLVED. */
#define RT_PATH_BUF		PATH_MAX
/* Deeper directory trees than this are cut (TRUNCATED) by the RT walk. */
#define RT_PATH_MAX_DEPTH	256

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

/*
 * The name a pseudo file's d_dname method would give, without calling
 * it: pipes and sockets, the pseudo files a read most often meets, by
 * the prefix their methods print ("pipe:[INO]", "socket:[INO]"), so that
 * a filter or trigger on "pipe:*" means the same on every kernel; any
 * other by its filesystem's name.
 */
static const char *rt_path_pseudo_prefix(const struct dentry *dentry)
{
	const char *fs = dentry->d_sb->s_type->name;

	if (!strcmp(fs, "pipefs"))
		return "pipe";
	if (!strcmp(fs, "sockfs"))
		return "socket";
	return fs;
}

void rt_path_resolve(struct rt_path_call *c)
{
	static const char deleted[] = " (deleted)";
	const struct path *path = &c->file->f_path;
	struct dentry *dentry = path->dentry;
	char *buf = this_cpu_ptr((char __percpu *)rt_path_buf.ptr), *p;
	const int dlen = sizeof(deleted) - 1;
	bool pseudo = dentry->d_op && dentry->d_op->d_dname;

	c->flags = 0;
	if (pseudo && RT_D_PATH_SLEEPS) {
		/* d_dname methods may take spinlocks (dma-buf): our own name. */
		c->len = scnprintf(buf, RT_PATH_BUF, "%s:[%llu]",
				   rt_path_pseudo_prefix(dentry), c->ino);
		c->name = buf;
		c->flags = RINGTRACE_PATH_PSEUDO;
		return;
	}
	if (RT_D_PATH_SLEEPS)
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
