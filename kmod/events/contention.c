// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lock contention: the lock:contention_begin/contention_end
 * tracepoints (since 5.19, what `perf lock contention` uses) turned into
 * the same lock records tracked locks produce, with RINGTRACE_LOCK_KERNEL
 * set and no hold time (the kernel does not report releases).
 *
 * A contention begins and ends in the same task, possibly on another CPU
 * (mutexes and rwsems sleep), and contentions nest (a spinlock inside a
 * mutex's slow path, an interrupt's spinlock inside a task's). So the
 * begin time is kept in a small open-addressed table keyed by (task, lock),
 * claimed with cmpxchg and released by its owner: no lock, usable in any
 * context. A full table drops the contention and counts it.
 *
 * The tracepoints are not exported to modules; they are found by name
 * (lib/tracepoint.c) and attached with tracepoint_probe_register().
 */
#include <linux/ctype.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/siphash.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include "lib/compat.h"
#include "lib/tracepoint.h"
#include "lock_events.h"
#include "session/active.h"
#include "session/producer.h"

/* include/trace/events/lock.h: the kind of lock that was contended. */
#define RT_LCB_F_SPIN	BIT(0)
#define RT_LCB_F_READ	BIT(1)
#define RT_LCB_F_WRITE	BIT(2)
#define RT_LCB_F_RT	BIT(3)
#define RT_LCB_F_MUTEX	BIT(5)
/*
 * Ours, kept with the begin: PREEMPT_RT's rtmutex reports both its
 * spinlock_t (rtlock) and its mutex/rt_mutex waits as LCB_F_RT alone; the
 * rtlock path set TASK_RTLOCK_WAIT just before, which tells them apart.
 */
#define RT_CONT_RTLOCK	BIT(31)
/*
 * Ours too: the wait reached a begin without LCB_F_SPIN, i.e. the mutex
 * slow path queued the task as a waiter.
 */
#define RT_CONT_QUEUED	BIT(30)

/*
 * Where mutex_lock() has no fast path (RT_MUTEX_NO_FASTPATH: lockdep
 * kernels, compat.h), every acquisition enters __mutex_lock_common(), which reports a begin with
 * LCB_F_SPIN and, when its trylock succeeds, an end, although nobody held
 * the lock. A mutex wait that never queued is indistinguishable from such
 * an uncontended acquisition there, so it is not reported (lockdep
 * kernels lose the spin-only contentions; Documentation/tracked-locks.rst).
 * Elsewhere the fast path failed before the first begin: a real wait.
 */
static bool rt_cont_uncontended(unsigned int flags)
{
	return RT_MUTEX_NO_FASTPATH &&
	       (flags & (RT_LCB_F_MUTEX | RT_LCB_F_RT | RT_CONT_QUEUED)) ==
	       RT_LCB_F_MUTEX;
}

/*
 * Contexts that can nest on one CPU, each with its own symbol buffer:
 * task, softirq, hardirq, NMI (interrupt_context_level()).
 */
#define RT_CONT_CONTEXTS	4

#define RT_CONT_BITS	12
#define RT_CONT_SLOTS	BIT(RT_CONT_BITS)
#define RT_CONT_PROBES	8	/* slots looked at before giving up */

struct rt_contention {
	struct task_struct	*task;	/* owner; NULL: free */
	void			*lock;
	u64			begin_ns;
	unsigned int		flags;
};

static struct tracepoint *rt_tp_begin, *rt_tp_end;
static struct rt_contention *rt_cont_table;
static DEFINE_PER_CPU(u64, rt_cont_missed);
static DEFINE_PER_CPU(char[RT_CONT_CONTEXTS][KSYM_SYMBOL_LEN], rt_cont_symbol);
static siphash_key_t rt_cont_key;	/* hides lock addresses */

static DEFINE_MUTEX(rt_cont_mutex);	/* users, table */
static unsigned int rt_cont_users;

static struct rt_contention *rt_cont_slot(const void *lock, unsigned int i)
{
	unsigned long key = (unsigned long)current ^ (unsigned long)lock;

	return &rt_cont_table[(hash_long(key, RT_CONT_BITS) + i) &
			      (RT_CONT_SLOTS - 1)];
}

/* The slot (@task, @lock) owns, or NULL. */
static struct rt_contention *rt_cont_find_slot(const void *lock)
{
	struct rt_contention *c;
	unsigned int i;

	for (i = 0; i < RT_CONT_PROBES; i++) {
		c = rt_cont_slot(lock, i);
		if (READ_ONCE(c->task) == current && READ_ONCE(c->lock) == lock)
			return c;
	}
	return NULL;
}

static void rt_contention_begin(void *data, void *lock, unsigned int flags)
{
	struct rt_contention *c;
	unsigned int i;
	bool want;

	/*
	 * 7.x calls tracepoint probes under SRCU-fast with preemption
	 * enabled, and a rwsem or percpu_rwsem waiter begins preemptible:
	 * the walk's RCU-sched section is ours to make, or a walker
	 * preempted on a session reads it after DISABLE's
	 * rt_sessions_synchronize() let it be freed.
	 */
	preempt_disable_notrace();
	want = rt_sessions_want(RINGTRACE_EVENT_LOCK_CONTENTION, current);
	preempt_enable_notrace();
	if (!want)
		return;
	/*
	 * A mutex reports several begins per wait (before spinning, before
	 * sleeping, after each wake-up): keep the first. Look at every
	 * probe before claiming one: a slot freed since our first begin
	 * must not become a second slot for the same (task, lock), which
	 * contention_end would never free.
	 */
	if (!(flags & RT_LCB_F_SPIN))
		flags |= RT_CONT_QUEUED;
	c = rt_cont_find_slot(lock);
	if (c) {
		/* Only this task writes or reads its slot's flags. */
		c->flags |= flags & RT_CONT_QUEUED;
		return;
	}
	for (i = 0; i < RT_CONT_PROBES; i++) {
		c = rt_cont_slot(lock, i);
		if (!cmpxchg(&c->task, NULL, current)) {
			c->lock = lock;
			if ((flags & RT_LCB_F_RT) &&
			    READ_ONCE(current->__state) == TASK_RTLOCK_WAIT)
				flags |= RT_CONT_RTLOCK;
			c->flags = flags;
			c->begin_ns = ktime_get_mono_fast_ns();
			return;
		}
	}
	this_cpu_inc(rt_cont_missed);
}

/* A hex number at *@p ("0x1f"), which is then just past it. */
static unsigned long rt_cont_hex(const char **p)
{
	unsigned long v = 0;

	if ((*p)[0] == '0' && (*p)[1] == 'x')
		*p += 2;
	for (; isxdigit(**p); (*p)++)
		v = v * 16 + (isdigit(**p) ? **p - '0' : tolower(**p) - 'a' + 10);
	return v;
}

/*
 * A symbol for a static lock; the kind of lock for one in the heap.
 * Preemption disabled. An interrupt (contention tracepoints fire in every
 * context) may resolve another lock's name while we hold this one's: each
 * context that can nest has its own buffer.
 *
 * sprint_symbol() gives "sym+0xoff/0xsize [module]". An offset past the
 * symbol's size means the address is in no symbol kallsyms knows: a
 * module's data on a kernel whose kallsyms lists code only (no
 * CONFIG_KALLSYMS_ALL: Debian's arm64 6.1), where the module lookup
 * answers with the last function before it. Such a lock is named by its
 * kind, as a heap one. So is one whose address kallsyms gives to a
 * "__key" (a lock_class_key, zero-sized without lockdep: an object at
 * the same address, never a lock; 7.2 arm64 puts DEFINE_MUTEX in .bss
 * beside one, and kallsyms answers with the first of the two).
 */
static const char *rt_cont_name(const void *lock, unsigned int flags)
{
	char *buf = (*this_cpu_ptr(&rt_cont_symbol))[interrupt_context_level()];
	char *plus;

	sprint_symbol(buf, (unsigned long)lock);
	plus = strchr(buf, '+');
	if (strncmp(buf, "0x", 2) && plus) {	/* never print a raw address */
		const char *p = plus + 1;
		unsigned long off, size;

		off = rt_cont_hex(&p);
		size = *p == '/' ? (p++, rt_cont_hex(&p)) : 0;
		/* The symbol is enough, lock_id is unique. */
		if (off < size && strncmp(buf, "__key", 5)) {
			*plus = '\0';
			return buf;
		}
	}
	if (flags & RT_LCB_F_MUTEX)
		return flags & RT_LCB_F_RT ? "rt_mutex" : "mutex";
	if (flags & RT_LCB_F_READ)
		return flags & RT_LCB_F_SPIN ? "rwlock:R" : "rwsem:R";
	if (flags & RT_LCB_F_WRITE)
		return flags & RT_LCB_F_SPIN ? "rwlock:W" : "rwsem:W";
	if (flags & RT_CONT_RTLOCK)
		return "rt_spinlock";
	return flags & RT_LCB_F_RT ? "rt_mutex" : "spinlock";
}

static void rt_contention_end(void *data, void *lock, int ret)
{
	struct rt_contention *c;
	unsigned int flags;
	u64 now, begin, id;

	c = rt_cont_find_slot(lock);
	if (!c)
		return;	/* began before we attached, or not wanted */

	now = ktime_get_mono_fast_ns();
	begin = c->begin_ns;
	flags = c->flags;
	WRITE_ONCE(c->lock, NULL);
	/* Frees the slot: our reads of it are done. */
	smp_store_release(&c->task, NULL);

	if (rt_cont_uncontended(flags))
		return;
	id = siphash_1u64((unsigned long)lock, &rt_cont_key) ?: 1;
	/* The emitter preempt-disables; the symbol buffer is per CPU. */
	preempt_disable_notrace();
	rt_lock_emit(now, id, rt_cont_name(lock, flags), now - begin, 0,
		     RINGTRACE_LOCK_CONTENDED | RINGTRACE_LOCK_KERNEL |
		     RINGTRACE_LOCK_ID_HASHED);
	preempt_enable_notrace();
}

static bool rt_contention_available(void)
{
	return rt_tp_begin && rt_tp_end;
}

static int rt_contention_get(const struct rt_session *s)
{
	int err = 0;

	if (!rt_contention_available())
		return -EOPNOTSUPP;
	mutex_lock(&rt_cont_mutex);
	if (rt_cont_users++)
		goto unlock;
	rt_cont_table = vzalloc(RT_CONT_SLOTS * sizeof(*rt_cont_table));
	if (!rt_cont_table) {
		err = -ENOMEM;
		goto err_users;
	}
	err = tracepoint_probe_register(rt_tp_begin, rt_contention_begin, NULL);
	if (err)
		goto err_table;
	err = tracepoint_probe_register(rt_tp_end, rt_contention_end, NULL);
	if (err)
		goto err_begin;
	goto unlock;

err_begin:
	tracepoint_probe_unregister(rt_tp_begin, rt_contention_begin, NULL);
	tracepoint_synchronize_unregister();
err_table:
	vfree(rt_cont_table);
	rt_cont_table = NULL;
err_users:
	rt_cont_users--;
	pr_err("cannot attach to the lock contention tracepoints: %d\n", err);
unlock:
	mutex_unlock(&rt_cont_mutex);
	return err;
}

static void rt_contention_put(const struct rt_session *s)
{
	mutex_lock(&rt_cont_mutex);
	if (!WARN_ON_ONCE(!rt_cont_users) && !--rt_cont_users) {
		tracepoint_probe_unregister(rt_tp_end, rt_contention_end, NULL);
		tracepoint_probe_unregister(rt_tp_begin, rt_contention_begin, NULL);
		/* No probe can still be using the table. */
		tracepoint_synchronize_unregister();
		vfree(rt_cont_table);
		rt_cont_table = NULL;
	}
	mutex_unlock(&rt_cont_mutex);
}

/* Contentions not followed: the table was full. Module-wide. */
static void rt_contention_stats(struct ringtrace_stats *st)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(rt_cont_missed, cpu);
	st->contention_missed = sum;
}

struct rt_producer rt_contention_producer = {
	.name		= "lock_contention",
	.events		= RINGTRACE_EVENT_LOCK_CONTENTION,
	.features	= RINGTRACE_FEAT_LOCK_CONTENTION,
	.available	= rt_contention_available,
	.get		= rt_contention_get,
	.put		= rt_contention_put,
	.stats		= rt_contention_stats,
};

int rt_contention_init(void)
{
	get_random_bytes(&rt_cont_key, sizeof(rt_cont_key));
	rt_tp_begin = rt_tracepoint_find("contention_begin");
	rt_tp_end = rt_tracepoint_find("contention_end");
	if (!rt_contention_available())
		pr_info("lock:contention_begin/end not found: kernel lock contention unavailable\n");
	return 0;
}
