// SPDX-License-Identifier: GPL-2.0
/*
 * Off-CPU intervals. sched:sched_switch is found by name
 * (lib/tracepoint.c) and attached with tracepoint_probe_register() only
 * while a session asks for RINGTRACE_EVENT_OFFCPU: with none, a context
 * switch runs no code of ours.
 *
 * At a switch the probe runs in __schedule() with the runqueue's raw lock
 * held and interrupts off, on PREEMPT_RT too: nothing here sleeps,
 * allocates or takes a lock; the user stack is read with
 * copy_from_user_nofault() (stack.c), which never faults a page in.
 *
 * Where "when did this task leave the CPU" lives: modules cannot add a
 * field to task_struct nor use BPF task storage, so it is a table of
 * offcpu_tasks entries (module parameter, a power of two) allocated when
 * the first session asks and freed after the last one: open addressing
 * keyed by the task_struct pointer, RT_OFFCPU_PROBES slots looked at, a
 * slot claimed with cmpxchg. The keys are an array of their own so that
 * a lookup that misses reads two cache lines, not sixteen. An entry is
 * held by a traced task while it is off CPU and while it is inside a
 * traced vfs_read; a task that leaves while the table is full is counted
 * (offcpu_missed) and not followed. The entry is freed when the task runs
 * again outside a read, and when it exits (its last switch, TASK_DEAD),
 * so that a task_struct reused by a new task never finds an old entry.
 *
 * Only the task itself (vfs_read entry and exit, its switch-out) and the
 * scheduler running it again (its switch-in, while it runs nowhere) touch
 * an entry's fields, one at a time: the scheduler orders them (the
 * switch-in CPU waited for on_cpu to clear after the switch-out). Only the
 * claim races with other tasks, and cmpxchg settles it.
 *
 * Stacks are taken when the task leaves (then it is current: its user
 * registers and its mm are the ones loaded) into the entry's frames (a
 * second table, allocated when the first session asking for offcpu
 * stacks is enabled), and copied into the record when it runs again.
 *
 * With RINGTRACE_CFG_CGROUPS the record carries the task's task_ext
 * and its cgroup is named first, under the same rule as lock
 * records: never by a walk that would take a lock (emit/cgroup_record.c).
 */
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <linux/ringtrace.h>

#include "emit/emit.h"
#include "lib/stack.h"
#include "lib/tracepoint.h"
#include "offcpu.h"
#include "session/active.h"
#include "session/producer.h"
#include "vfs_read.h"

#define RT_OFFCPU_PROBES	16
/* An entry's frames: kernel ones first, then user ones. */
#define RT_OFFCPU_FRAMES	(2 * RINGTRACE_STACK_MAX_DEPTH)

static unsigned int rt_offcpu_tasks = 4096;
module_param_named(offcpu_tasks, rt_offcpu_tasks, uint, 0444);
MODULE_PARM_DESC(offcpu_tasks,
		 "Traced tasks followed off CPU at once (a power of two)");

/* One task's entry; only its owner's context writes it (see above). */
struct rt_offcpu_task {
	u64	out_ts;		/* when it left the CPU; 0: on CPU */
	u64	total_ns;	/* off CPU since the entry was claimed */
	u64	max_ns;		/* longest interval since a read entered */
	u64	max_ts;		/* when that interval ended */
	u32	out_cpu;
	u16	state;		/* RINGTRACE_OFFCPU_* */
	u16	reads;		/* traced vfs_read calls in progress */
	u32	reads_epoch;	/* rt_offcpu_read_epoch when they entered */
	u16	nr_kernel;	/* frames taken when it left */
	u16	nr_user;
	u32	stack_flags;	/* RINGTRACE_STACK_* */
	bool	stack;		/* frames taken at the last switch-out */
	bool	stack_missed;	/* wanted, but the CPU's buffer was busy */
};

struct rt_offcpu_table {
	struct task_struct	**keys;		/* NULL: free */
	struct rt_offcpu_task	*tasks;
	/* RT_OFFCPU_FRAMES per entry; NULL until a session wants stacks. */
	unsigned long		*frames;
	unsigned int		mask;		/* entries - 1 */
	u32			gen;		/* never 0 */
};

static struct tracepoint *rt_tp_switch;
/*
 * Published once sched_switch is attached, cleared before it is detached:
 * vfs_read probes (which run without our tracepoint) see a table only
 * while every switch is followed. Read with preemption disabled; freed
 * after tracepoint_synchronize_unregister() and synchronize_rcu().
 */
struct rt_offcpu_table __rcu *rt_offcpu_tbl;
static struct rt_offcpu_table *rt_offcpu_own;	/* under rt_offcpu_mutex */
static DEFINE_MUTEX(rt_offcpu_mutex);
static unsigned int rt_offcpu_users;
static u32 rt_offcpu_gen;
static DEFINE_PER_CPU(u64, rt_offcpu_missed_pcpu);
/* Moved on by rt_offcpu_vfs_read_detached(); see offcpu.h. */
static u32 rt_offcpu_read_epoch;

void rt_offcpu_vfs_read_detached(void)
{
	WRITE_ONCE(rt_offcpu_read_epoch, rt_offcpu_read_epoch + 1);
}

/* The table, for a reader that says it has preemption disabled. */
static __always_inline struct rt_offcpu_table *rt_offcpu_table(void)
{
	RT_ASSERT_RCU_READER(rcu_read_lock_sched_held(),
			     "ringtrace: off-CPU table read preemptible");
	return rcu_dereference_sched(rt_offcpu_tbl);
}

void rt_offcpu_init(void)
{
	rt_tp_switch = rt_tracepoint_find("sched_switch");
	if (!rt_tp_switch)
		pr_info("sched:sched_switch not found: offcpu events unavailable\n");
	if (!is_power_of_2(rt_offcpu_tasks) || rt_offcpu_tasks < RT_OFFCPU_PROBES) {
		pr_info("offcpu_tasks must be a power of two >= %d: using 4096\n",
			RT_OFFCPU_PROBES);
		rt_offcpu_tasks = 4096;
	}
}

static bool rt_offcpu_available(void)
{
	return rt_tp_switch;
}

/* Switches not followed: the table of tasks was full. Module-wide. */
static void rt_offcpu_stats(struct ringtrace_stats *st)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(rt_offcpu_missed_pcpu, cpu);
	st->offcpu_missed = sum;
}

/* @task's entry, or -1. */
static int rt_offcpu_find(const struct rt_offcpu_table *t,
			  const struct task_struct *task)
{
	unsigned int h = hash_ptr(task, 32), i, idx;

	for (i = 0; i < RT_OFFCPU_PROBES; i++) {
		idx = (h + i) & t->mask;
		if (READ_ONCE(t->keys[idx]) == task)
			return idx;
	}
	return -1;
}

/* @task's entry, claimed (and zeroed) if it had none; -1: table full. */
static int rt_offcpu_claim(struct rt_offcpu_table *t, struct task_struct *task)
{
	unsigned int h = hash_ptr(task, 32), i, idx;
	int found = rt_offcpu_find(t, task);

	if (found >= 0)
		return found;
	for (i = 0; i < RT_OFFCPU_PROBES; i++) {
		idx = (h + i) & t->mask;
		if (!READ_ONCE(t->keys[idx]) &&
		    !cmpxchg(&t->keys[idx], NULL, task)) {
			memset(&t->tasks[idx], 0, sizeof(t->tasks[idx]));
			return idx;
		}
	}
	this_cpu_inc(rt_offcpu_missed_pcpu);
	return -1;
}

static void rt_offcpu_release(struct rt_offcpu_table *t, int idx)
{
	/* Our writes to the entry come before another task may claim it. */
	smp_store_release(&t->keys[idx], NULL);
}

/* The state sched_switch's own event prints, in our four kinds. */
static u16 rt_offcpu_state(bool preempt, unsigned int prev_state)
{
	if (preempt || !prev_state)
		return RINGTRACE_OFFCPU_PREEMPTED;
	if (prev_state & TASK_INTERRUPTIBLE)
		return RINGTRACE_OFFCPU_SLEEP;
	if (prev_state & TASK_UNINTERRUPTIBLE)
		return RINGTRACE_OFFCPU_DISK;
	return RINGTRACE_OFFCPU_OTHER;
}

/* The stacks the sessions following @task want: the deepest of each. */
static bool rt_offcpu_wanted(struct task_struct *task, unsigned int *kdepth,
			     unsigned int *udepth)
{
	struct rt_session *s;
	bool want = false;

	*kdepth = 0;
	*udepth = 0;
	rt_for_each_active_session(s) {
		if (!(s->events & RINGTRACE_EVENT_OFFCPU) ||
		    !rt_session_wants_task(s, task))
			continue;
		want = true;
		if (s->stack_events & RINGTRACE_EVENT_OFFCPU) {
			*kdepth = max_t(unsigned int, *kdepth,
					s->stack_kernel_depth);
			*udepth = max_t(unsigned int, *udepth,
					s->stack_user_depth);
		}
	}
	return want;
}

/* @prev (current) leaves the CPU. */
static void rt_offcpu_out(struct rt_offcpu_table *t, struct task_struct *prev,
			  bool preempt, unsigned int prev_state, u64 now,
			  int cpu)
{
	unsigned int kdepth, udepth;
	struct rt_offcpu_task *e;
	unsigned long *frames;
	struct rt_stack st;
	int idx;

	/* Its last switch: free the entry before the task_struct is. */
	if (!preempt && (prev_state & TASK_DEAD)) {
		idx = rt_offcpu_find(t, prev);
		if (idx >= 0)
			rt_offcpu_release(t, idx);
		return;
	}
	if (!rt_offcpu_wanted(prev, &kdepth, &udepth))
		return;
	idx = rt_offcpu_claim(t, prev);
	if (idx < 0)
		return;
	e = &t->tasks[idx];
	e->out_ts = now ?: 1;
	e->out_cpu = cpu;
	e->state = rt_offcpu_state(preempt, prev_state);
	e->stack = false;
	e->stack_missed = false;
	/* Pairs with smp_store_release() in rt_offcpu_get(). */
	frames = smp_load_acquire(&t->frames);
	if (!(kdepth || udepth) || !frames)
		return;
	if (!rt_stack_get(&st, kdepth, udepth, 0)) {
		e->stack_missed = true;
		return;
	}
	frames += (unsigned long)idx * RT_OFFCPU_FRAMES;
	memcpy(frames, st.kernel, st.nr_kernel * sizeof(*frames));
	memcpy(frames + RINGTRACE_STACK_MAX_DEPTH, st.user,
	       st.nr_user * sizeof(*frames));
	e->nr_kernel = st.nr_kernel;
	e->nr_user = st.nr_user;
	e->stack_flags = st.flags;
	e->stack = true;
	rt_stack_put(&st);
}

/*
 * The stack @e kept, cut to what @s asked for (an entry keeps the deepest
 * any session wanted); false: none.
 */
static bool rt_offcpu_stack_for(const struct rt_session *s,
				const struct rt_offcpu_table *t, int idx,
				struct rt_stack *st)
{
	const struct rt_offcpu_task *e = &t->tasks[idx];
	const unsigned long *frames;

	if (!(s->stack_events & RINGTRACE_EVENT_OFFCPU))
		return false;
	if (!e->stack) {
		if (e->stack_missed)
			this_cpu_inc(s->xcounts->stack_missed);
		return false;
	}
	frames = t->frames + (unsigned long)idx * RT_OFFCPU_FRAMES;
	st->kernel = frames;
	st->user = frames + RINGTRACE_STACK_MAX_DEPTH;
	st->flags = e->stack_flags;
	st->nr_kernel = min_t(u16, e->nr_kernel, s->stack_kernel_depth);
	st->nr_user = min_t(u16, e->nr_user, s->stack_user_depth);
	if (st->nr_kernel < e->nr_kernel)
		st->flags |= RINGTRACE_STACK_KERNEL_TRUNCATED;
	if (st->nr_user < e->nr_user)
		st->flags |= RINGTRACE_STACK_USER_TRUNCATED;
	if (!s->stack_user_depth)
		st->flags &= ~(RINGTRACE_STACK_USER_TRUNCATED |
			       RINGTRACE_STACK_USER_FAULT |
			       RINGTRACE_STACK_USER_NONE);
	return true;
}

static void rt_offcpu_write(struct rt_session *s,
			    const struct rt_offcpu_table *t, int idx,
			    struct task_struct *next, u64 now, int cpu,
			    u64 dur)
{
	const struct rt_offcpu_task *e = &t->tasks[idx];
	struct ringtrace_offcpu_record *rec;
	struct rt_stack st;
	struct rt_emit em = {
		.s		= s,
		.task		= next,
		.ts		= now,
		.cpu		= cpu,
		.slot		= cpu,
		.type		= RINGTRACE_RECORD_OFFCPU,
		.fixed		= sizeof(*rec),
		.st		= &st,
		/*
		 * Under the runqueue's raw lock: naming that would take a
		 * lock is left to a vfs_read (emit/cgroup_record.c).
		 */
		.in_lock	= true,
	};

	BUILD_BUG_ON(sizeof(*rec) != RINGTRACE_OFFCPU_SIZE_VER0);
	RT_EMIT_CHECK(struct ringtrace_offcpu_record);
	/* A thread's ring: written by whoever runs it, never concurrently. */
	if (unlikely(s->threads.nr)) {
		em.slot = rt_thread_slot(s, next);
		if (em.slot < 0)
			return;
	}
	/* The frames taken when it left, not now's. */
	em.stack_kept = rt_offcpu_stack_for(s, t, idx, &st);
	rec = rt_emit_begin(&em);
	if (rec) {
		rec->offcpu_ns = dur;
		rec->cpu_out = e->out_cpu;
		rec->state = e->state;
	}
	rt_emit_end(&em, rec);
}

/* @next runs again on @cpu. */
/*
 * Whether @e's task is inside traced vfs_read calls whose exits will come:
 * calls of an earlier attachment (rt_offcpu_read_epoch moved on) never
 * reach it, and must not pin the entry until the task dies.
 */
static bool rt_offcpu_reading(const struct rt_offcpu_task *e)
{
	return e->reads && e->reads_epoch == READ_ONCE(rt_offcpu_read_epoch);
}

static void rt_offcpu_in(struct rt_offcpu_table *t, struct task_struct *next,
			 u64 now, int cpu)
{
	struct rt_offcpu_task *e;
	struct rt_session *s;
	u64 out, dur;
	int idx;

	idx = rt_offcpu_find(t, next);
	if (idx < 0)
		return;
	e = &t->tasks[idx];
	out = e->out_ts;
	if (!out)
		return;	/* claimed by a read, never left since */
	e->out_ts = 0;
	/* The fast clock may step back by a little across CPUs. */
	dur = now > out ? now - out : 0;
	e->total_ns += dur;
	if (dur >= e->max_ns) {
		e->max_ns = dur;
		e->max_ts = now;
	}
	rt_for_each_active_session(s) {
		if (!(s->events & RINGTRACE_EVENT_OFFCPU) ||
		    dur < s->min_offcpu_ns || out < s->offcpu_since ||
		    !cpumask_test_cpu(cpu, s->cpus) ||
		    !rt_session_wants_task(s, next))
			continue;
		rt_offcpu_write(s, t, idx, next, now, cpu, dur);
	}
	if (!rt_offcpu_reading(e))
		rt_offcpu_release(t, idx);
}

static void rt_offcpu_switch(void *data, bool preempt,
			     struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	struct rt_offcpu_table *t = rt_offcpu_table();
	int cpu = smp_processor_id();
	u64 now;

	if (!t)
		return;
	now = ktime_get_mono_fast_ns();
	/* The idle task's "off CPU" would be the CPU's busy time. */
	if (!is_idle_task(prev))
		rt_offcpu_out(t, prev, preempt, prev_state, now, cpu);
	if (!is_idle_task(next))
		rt_offcpu_in(t, next, now, cpu);
}

/* Does a session want both the caller's vfs_read calls and offcpu? */
static bool rt_offcpu_read_wanted(void)
{
	const u64 both = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_OFFCPU;
	struct rt_session *s;

	rt_for_each_active_session(s)
		if ((s->events & both) == both &&
		    rt_session_wants_task(s, current))
			return true;
	return false;
}

void __rt_offcpu_read_enter(struct rt_vfs_read_call *call)
{
	struct rt_offcpu_table *t = rt_offcpu_table();
	struct rt_offcpu_task *e;
	u32 epoch;
	int idx;

	call->offcpu_gen = 0;
	if (!t || !rt_offcpu_read_wanted())
		return;
	idx = rt_offcpu_claim(t, current);
	if (idx < 0)
		return;
	e = &t->tasks[idx];
	epoch = READ_ONCE(rt_offcpu_read_epoch);
	/* Calls of an earlier attachment: their exits will not come. */
	if (e->reads_epoch != epoch) {
		e->reads = 0;
		e->reads_epoch = epoch;
	}
	e->reads++;
	/* A nested read restarts the outer one's longest interval. */
	e->max_ns = 0;
	e->max_ts = 0;
	call->offcpu_total = e->total_ns;
	call->offcpu_gen = t->gen;
}

bool __rt_offcpu_read_exit(const struct rt_vfs_read_call *call,
			   struct rt_offcpu_span *span)
{
	struct rt_offcpu_table *t = rt_offcpu_table();
	struct rt_offcpu_task *e;
	int idx;

	if (!call->offcpu_gen || !t || t->gen != call->offcpu_gen)
		return false;
	idx = rt_offcpu_find(t, current);
	if (WARN_ON_ONCE(idx < 0))
		return false;
	e = &t->tasks[idx];
	span->total_ns = e->total_ns - call->offcpu_total;
	span->max_ns = e->max_ns;
	span->max_ts = e->max_ts;
	if (e->reads)
		e->reads--;
	if (!rt_offcpu_reading(e))
		rt_offcpu_release(t, idx);
	return true;
}

static void rt_offcpu_table_free(struct rt_offcpu_table *t)
{
	if (!t)
		return;
	vfree(t->frames);
	vfree(t->tasks);
	vfree(t->keys);
	kfree(t);
}

static struct rt_offcpu_table *rt_offcpu_table_alloc(void)
{
	struct rt_offcpu_table *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->keys = vzalloc(array_size(rt_offcpu_tasks, sizeof(*t->keys)));
	t->tasks = vzalloc(array_size(rt_offcpu_tasks, sizeof(*t->tasks)));
	if (!t->keys || !t->tasks) {
		rt_offcpu_table_free(t);
		return NULL;
	}
	t->mask = rt_offcpu_tasks - 1;
	/* Calls that entered under a previous table never match this one. */
	t->gen = ++rt_offcpu_gen ?: ++rt_offcpu_gen;
	return t;
}

/* The frames table, for sessions asking for stacks. Under the mutex. */
static int rt_offcpu_frames_get(struct rt_offcpu_table *t)
{
	unsigned long *frames;

	if (t->frames)
		return 0;
	frames = vzalloc(array3_size(rt_offcpu_tasks, RT_OFFCPU_FRAMES,
				     sizeof(*frames)));
	if (!frames)
		return -ENOMEM;
	/* Pairs with smp_load_acquire() in rt_offcpu_out(). */
	smp_store_release(&t->frames, frames);
	return 0;
}

static int rt_offcpu_get(const struct rt_session *s)
{
	bool stacks = s->stack_events & RINGTRACE_EVENT_OFFCPU;
	struct rt_offcpu_table *t;
	int err = 0;

	if (!rt_offcpu_available())
		return -EOPNOTSUPP;
	mutex_lock(&rt_offcpu_mutex);
	if (rt_offcpu_users) {
		if (stacks)
			err = rt_offcpu_frames_get(rt_offcpu_own);
		if (!err)
			rt_offcpu_users++;
		goto unlock;
	}
	t = rt_offcpu_table_alloc();
	if (!t) {
		err = -ENOMEM;
		goto unlock;
	}
	if (stacks) {
		err = rt_offcpu_frames_get(t);
		if (err)
			goto err_table;
	}
	err = tracepoint_probe_register(rt_tp_switch, rt_offcpu_switch, NULL);
	if (err)
		goto err_table;
	rt_offcpu_own = t;
	/* The probe and vfs_read see it once every switch is followed. */
	rcu_assign_pointer(rt_offcpu_tbl, t);
	rt_offcpu_users = 1;
	goto unlock;

err_table:
	rt_offcpu_table_free(t);
	pr_err("cannot attach to sched:sched_switch: %d\n", err);
unlock:
	mutex_unlock(&rt_offcpu_mutex);
	return err;
}

static void rt_offcpu_put(const struct rt_session *s)
{
	struct rt_offcpu_table *t;

	mutex_lock(&rt_offcpu_mutex);
	if (WARN_ON_ONCE(!rt_offcpu_users) || --rt_offcpu_users)
		goto unlock;
	t = rt_offcpu_own;
	rt_offcpu_own = NULL;
	RCU_INIT_POINTER(rt_offcpu_tbl, NULL);
	tracepoint_probe_unregister(rt_tp_switch, rt_offcpu_switch, NULL);
	/*
	 * Two kinds of readers, each waited for by what protects it: the
	 * switch probe (a tracepoint probe: SRCU-fast on 7.x, RCU-sched
	 * before), and the vfs_read probes that saw the table (RCU-sched
	 * readers: preemption disabled), whatever the first wait implies.
	 */
	tracepoint_synchronize_unregister();
	synchronize_rcu();
	rt_offcpu_table_free(t);
unlock:
	mutex_unlock(&rt_offcpu_mutex);
}

struct rt_producer rt_offcpu_producer = {
	.name		= "offcpu",
	.events		= RINGTRACE_EVENT_OFFCPU,
	.available	= rt_offcpu_available,
	.get		= rt_offcpu_get,
	.put		= rt_offcpu_put,
	.stats		= rt_offcpu_stats,
};
