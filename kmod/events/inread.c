// SPDX-License-Identifier: GPL-2.0
/*
 * Function calls inside reads only (RINGTRACE_CFG_FUNC_IN_READ). A
 * session with the flag records a call of its functions only while the
 * calling task is inside a traced vfs_read: the vfs_read probes keep,
 * per task, how many such reads it is in (nested reads count once
 * each), and rt_func_enter() asks.
 *
 * Where the depth lives: as in offcpu.c (a module cannot add a field to
 * task_struct), a table of inread_tasks entries (module parameter, a
 * power of two), open addressing keyed by the task_struct pointer,
 * RT_INREAD_PROBES slots looked at, a slot claimed with cmpxchg. It
 * exists only while a session with the flag is enabled: allocated by the
 * first one's ENABLE (before its function probes are registered), freed
 * after the last one's DISABLE (after they are gone) once no probe can
 * see it. Without such a session a vfs_read call tests one pointer.
 *
 * An entry is claimed by a task's outermost traced read and freed by the
 * exit that brings its depth back to 0. Only the task itself writes its
 * entry's depth (vfs_read entry and exit run in its context); only the
 * claim races with other tasks, and cmpxchg settles it. A task never
 * exits inside vfs_read, so no entry outlives its task.
 *
 * A read is counted only under the table it entered with: the call's
 * slot keeps the table's generation, and an exit under another table (a
 * read that began before this table, or before vfs_read was attached:
 * its exit, if it comes, finds no generation of ours) changes nothing.
 * The table lives inside vfs_read's attachment (a session with the flag
 * traces vfs_read too, and producers are put in reverse order: func
 * before vfs_read), so every read it counted reaches its exit while it
 * lives: no entry is pinned by a read whose exit never comes.
 *
 * The table full: the read cannot be followed. It is counted
 * (inread_untracked, module-wide, in the table) until its exit, and
 * while any is in progress a call by a task with no entry cannot be
 * decided: it is kept (recorded) and counted in the session's
 * func_inread_unknown, never dropped unsaid. A reader that wants only
 * calls inside reads places it itself, as it does without the flag.
 *
 * Each entry also has room for the calls its task makes inside its
 * reads that a session holds until the read returns (func_held.c,
 * RINGTRACE_CFG_FUNC_HOLD): inread_held calls an entry, allocated with
 * the first such session's get (the table may be older: published with a
 * release, seen with an acquire, zeroed so that an entry claimed before
 * holds nothing), freed with the table. An entry claimed by a task's
 * outermost read starts with none.
 *
 * Probe context: preemption disabled (RCU-sched), no lock, no
 * allocation (PREEMPT_RT too); the table is allocated and freed in
 * process context under rt_inread_mutex.
 */
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/ringtrace.h>

#include "func_held.h"
#include "inread.h"
#include "lib/compat.h"
#include "session/active.h"

#define RT_INREAD_PROBES	16
#define RT_INREAD_HELD_MAX	1024

static unsigned int rt_inread_tasks = 4096;
module_param_named(inread_tasks, rt_inread_tasks, uint, 0444);
MODULE_PARM_DESC(inread_tasks,
		 "Tasks followed inside traced reads at once, for sessions recording calls inside reads only (a power of two)");

static unsigned int rt_inread_held_room = 16;
module_param_named(inread_held, rt_inread_held_room, uint, 0444);
MODULE_PARM_DESC(inread_held,
		 "Calls a task's entry holds until its read returns, for sessions recording only the calls of slow reads (0: none held)");

struct rt_inread_table {
	struct task_struct	**keys;		/* NULL: free */
	u32			*depth;		/* written by the key's task */
	/* The entries' held calls, or NULL: rt_inread_held_alloc(). */
	void			*held;
	size_t			held_stride;	/* bytes an entry */
	unsigned int		held_room;	/* calls an entry */
	unsigned int		mask;		/* entries - 1 */
	/* Even, never 0; a call's inread_gen | 1: not followed (full). */
	u32			gen;
	atomic_t		untracked;	/* reads in progress not followed */
};

/* Published by the first get, cleared by the last put (see above). */
struct rt_inread_table __rcu *rt_inread_tbl;
static DEFINE_MUTEX(rt_inread_mutex);
static struct rt_inread_table *rt_inread_own;	/* under rt_inread_mutex */
static unsigned int rt_inread_users;
static u32 rt_inread_gen;

void rt_inread_init(void)
{
	if (!is_power_of_2(rt_inread_tasks) ||
	    rt_inread_tasks < RT_INREAD_PROBES) {
		pr_info("inread_tasks must be a power of two >= %d: using 4096\n",
			RT_INREAD_PROBES);
		rt_inread_tasks = 4096;
	}
	if (rt_inread_held_room > RT_INREAD_HELD_MAX) {
		pr_info("inread_held must be at most %d: using %d\n",
			RT_INREAD_HELD_MAX, RT_INREAD_HELD_MAX);
		rt_inread_held_room = RT_INREAD_HELD_MAX;
	}
}

static struct rt_inread_table *rt_inread_table(void)
{
	RT_ASSERT_RCU_READER(rcu_read_lock_sched_held(),
			     "ringtrace: reads-in-progress table read preemptible");
	return rcu_dereference_sched(rt_inread_tbl);
}

/* @task's entry, or -1. */
static int rt_inread_find(const struct rt_inread_table *t,
			  const struct task_struct *task)
{
	unsigned int h = hash_ptr(task, 32), i, idx;

	for (i = 0; i < RT_INREAD_PROBES; i++) {
		idx = (h + i) & t->mask;
		if (READ_ONCE(t->keys[idx]) == task)
			return idx;
	}
	return -1;
}

/* @task's entry, claimed with depth 0 if it had none; -1: table full. */
static int rt_inread_claim(struct rt_inread_table *t, struct task_struct *task)
{
	unsigned int h = hash_ptr(task, 32), i, idx;
	int found = rt_inread_find(t, task);

	if (found >= 0)
		return found;
	for (i = 0; i < RT_INREAD_PROBES; i++) {
		idx = (h + i) & t->mask;
		if (!READ_ONCE(t->keys[idx]) &&
		    !cmpxchg(&t->keys[idx], NULL, task)) {
			t->depth[idx] = 0;
			return idx;
		}
	}
	return -1;
}

/* Entry @idx's held calls, or NULL: none allocated. */
static struct rt_held_calls *rt_inread_held_at(const struct rt_inread_table *t,
					       int idx)
{
	/* Pairs with rt_inread_held_alloc()'s release: the zeroed array. */
	void *held = smp_load_acquire(&t->held);

	return held ? held + (size_t)idx * t->held_stride : NULL;
}

/* Does a session with the flag want the caller's reads counted? */
static bool rt_inread_wanted(void)
{
	struct rt_session *s;

	rt_for_each_active_session(s)
		if ((s->flags & RINGTRACE_CFG_FUNC_IN_READ) &&
		    rt_session_wants_task(s, current))
			return true;
	return false;
}

void __rt_inread_enter(struct rt_vfs_read_call *call)
{
	struct rt_inread_table *t = rt_inread_table();
	int idx;

	if (!t || !rt_inread_wanted())
		return;
	idx = rt_inread_claim(t, current);
	if (idx < 0) {
		atomic_inc(&t->untracked);
		call->inread_gen = t->gen | 1;
		return;
	}
	/* The task's outermost read: nothing held from a former owner. */
	if (!t->depth[idx]) {
		struct rt_held_calls *h = rt_inread_held_at(t, idx);

		if (h)
			h->n = 0;
	}
	t->depth[idx]++;
	call->inread_gen = t->gen;
}

void __rt_inread_exit(const struct rt_vfs_read_call *call)
{
	struct rt_inread_table *t = rt_inread_table();
	int idx;

	/* Entered under another table: not counted in this one. */
	if (!t || t->gen != (call->inread_gen & ~1U))
		return;
	if (call->inread_gen & 1) {
		atomic_dec(&t->untracked);
		return;
	}
	idx = rt_inread_find(t, current);
	if (WARN_ON_ONCE(idx < 0))
		return;
	if (!WARN_ON_ONCE(!t->depth[idx]) && --t->depth[idx])
		return;
	/* Our write of the depth comes before another task may claim it. */
	smp_store_release(&t->keys[idx], NULL);
}

int rt_inread_current(struct rt_inread_ref *ref)
{
	struct rt_inread_table *t = rt_inread_table();
	int idx;

	ref->idx = -1;
	/* An enabled session with the flag holds the table. */
	if (WARN_ON_ONCE(!t))
		return -1;
	idx = rt_inread_find(t, current);
	if (idx >= 0 && t->depth[idx]) {
		ref->gen = t->gen;
		ref->idx = idx;
		return 1;
	}
	return atomic_read(&t->untracked) ? -1 : 0;
}

struct rt_held_calls *rt_inread_held_ref(const struct rt_inread_ref *ref,
					 unsigned int *room)
{
	struct rt_inread_table *t = rt_inread_table();
	struct rt_held_calls *h;

	/*
	 * The entry the call's entry found, if it is still current's in the
	 * same table: a call inside a read returns before the read does, so
	 * only a table replaced in between (every session with the flag
	 * disabled, one enabled again) moves it.
	 */
	if (!t || ref->idx < 0 || ref->gen != t->gen ||
	    READ_ONCE(t->keys[ref->idx]) != current || !t->depth[ref->idx])
		return NULL;
	h = rt_inread_held_at(t, ref->idx);
	/* After held_at()'s acquire: the room written before the array. */
	if (h)
		*room = t->held_room;
	return h;
}

struct rt_held_calls *rt_inread_held_exit(const struct rt_vfs_read_call *call,
					  bool *outermost)
{
	struct rt_inread_table *t;
	int idx;

	if (!call->inread_gen || (call->inread_gen & 1))
		return NULL;	/* not counted, or not followed */
	t = rt_inread_table();
	if (!t || t->gen != call->inread_gen)
		return NULL;
	/* No session holds calls: no lookup (rt_inread_held_at() orders). */
	if (!READ_ONCE(t->held))
		return NULL;
	idx = rt_inread_find(t, current);
	if (idx < 0 || !t->depth[idx])
		return NULL;
	*outermost = t->depth[idx] == 1;
	return rt_inread_held_at(t, idx);
}

static void rt_inread_table_free(struct rt_inread_table *t)
{
	if (!t)
		return;
	vfree(t->held);
	vfree(t->depth);
	vfree(t->keys);
	kfree(t);
}

static struct rt_inread_table *rt_inread_table_alloc(void)
{
	struct rt_inread_table *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->keys = vzalloc(array_size(rt_inread_tasks, sizeof(*t->keys)));
	t->depth = vzalloc(array_size(rt_inread_tasks, sizeof(*t->depth)));
	if (!t->keys || !t->depth) {
		rt_inread_table_free(t);
		return NULL;
	}
	t->mask = rt_inread_tasks - 1;
	atomic_set(&t->untracked, 0);
	/* Calls that entered under a previous table never match this one. */
	rt_inread_gen += 2;
	if (!rt_inread_gen)
		rt_inread_gen = 2;
	t->gen = rt_inread_gen;
	return t;
}

/* Room for held calls in @t, once (under rt_inread_mutex). */
static int rt_inread_held_alloc(struct rt_inread_table *t)
{
	/* At most RT_INREAD_HELD_MAX calls: no overflow (rt_inread_init()). */
	size_t stride = sizeof(struct rt_held_calls) +
			(size_t)rt_inread_held_room * sizeof(struct rt_held_call);
	void *held;

	if (t->held || !rt_inread_held_room)
		return 0;
	held = vzalloc(array_size(rt_inread_tasks, stride));
	if (!held)
		return -ENOMEM;
	t->held_stride = stride;
	t->held_room = rt_inread_held_room;
	/* Pairs with rt_inread_held_at(): stride, room, zeroes first. */
	smp_store_release(&t->held, held);
	return 0;
}

int rt_inread_get(bool hold)
{
	struct rt_inread_table *t;
	int err = 0;

	mutex_lock(&rt_inread_mutex);
	if (rt_inread_users) {
		err = hold ? rt_inread_held_alloc(rt_inread_own) : 0;
		if (!err)
			rt_inread_users++;
		goto unlock;
	}
	t = rt_inread_table_alloc();
	if (!t) {
		err = -ENOMEM;
		goto unlock;
	}
	if (hold && rt_inread_held_alloc(t)) {
		rt_inread_table_free(t);
		err = -ENOMEM;
		goto unlock;
	}
	rt_inread_own = t;
	/* Its fields are written before a probe can see it. */
	rcu_assign_pointer(rt_inread_tbl, t);
	rt_inread_users = 1;
unlock:
	mutex_unlock(&rt_inread_mutex);
	return err;
}

void rt_inread_put(void)
{
	struct rt_inread_table *t;

	mutex_lock(&rt_inread_mutex);
	if (WARN_ON_ONCE(!rt_inread_users) || --rt_inread_users)
		goto unlock;
	t = rt_inread_own;
	rt_inread_own = NULL;
	RCU_INIT_POINTER(rt_inread_tbl, NULL);
	/*
	 * Its readers are the vfs_read and function probes, with preemption
	 * disabled (RCU-sched): once they are done, nobody holds it.
	 */
	synchronize_rcu();
	rt_inread_table_free(t);
unlock:
	mutex_unlock(&rt_inread_mutex);
}
