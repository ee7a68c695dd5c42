/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The producer half of the ring protocol (Documentation/protocol.rst).
 *
 * One ring per CPU per session. Only code running on the ring's CPU writes
 * to it, with preemption disabled; interrupts on that CPU may nest a second
 * writer inside a first. (Per-thread sessions, session_thread.c: one ring
 * per thread, written by that thread only, from task context, on the CPU
 * it runs on between two migrations.) Reservation is a local cmpxchg on the head and a
 * nesting count lets only the outermost writer publish data_head, so a
 * nested writer never exposes the outer writer's half-written record.
 */
#ifndef _RINGTRACE_RING_H
#define _RINGTRACE_RING_H

#include <linux/types.h>
#include <linux/irq_work.h>
#include <linux/wait.h>
#include <asm/local.h>
#include <asm/local64.h>
#include <linux/ringtrace.h>

#include "mlock.h"

struct page;

/*
 * A session's readers, woken by its rings (watermark), its flush timer and
 * DISABLE. poll() reports and clears @pending, perf's semantics: a reader
 * that drained everything sleeps until the next wake-up instead of being
 * woken for every new record.
 */
struct rt_readers {
	wait_queue_head_t	wq;
	atomic_t		pending;
};

static inline void rt_readers_wake(struct rt_readers *r)
{
	/* Seen by the atomic_xchg() in poll after it joined the queue. */
	atomic_set(&r->pending, 1);
	wake_up_all(&r->wq);
}

struct rt_ring {
	/* Producer state: written by the ring's CPU only (and its IRQs). */
	local_t		head;		/* bytes reserved, free-running */
	unsigned int	nest;		/* writers in progress on this CPU */
	local_t		lost_pending;	/* dropped, not yet in a LOST record */
	local64_t	records;	/* records written (LOST excluded) */
	local64_t	lost;		/* records dropped, ring full */
	local64_t	bytes;		/* bytes written, LOST included */
	unsigned long	wakeup_head;	/* head at the last watermark wake-up */
	unsigned long	watermark;	/* wake the reader every this many bytes */
	unsigned long	published;	/* last data_head published */
	unsigned long	size;		/* data area bytes, a power of two */
	void		*data;		/* data pages, mapped twice in a row */
	struct ringtrace_mmap_page *page;	/* control page (user-writable!) */

	/* flight recorder and buffer health (ring_overwrite.c) */
	bool		overwrite;	/* RINGTRACE_CFG_OVERWRITE; set once */
	u8		tail_publishing;	/* inside rt_ring_publish_tail() */
	local_t		otail;		/* overwrite: oldest intact record */
	unsigned long	otail_pub;	/* overwrite: otail the page shows */
	unsigned long	otail_fenced;	/* overwrite: otail_pub with E after it */
	local64_t	overwritten;	/* overwrite: records overwritten */
	local64_t	wakeups;	/* watermark wake-ups sent */
	unsigned long	high_water;	/* most bytes held unread */
	unsigned long	counts_head;	/* overwrite: head at last page refresh */
	/* ---- end flight recorder and buffer health ---- */

	/* Cold: set up once. */
	struct irq_work	wakeup_work;
	struct rt_readers *readers;	/* the session's */
	struct page	*ctl_page;
	struct page	**data_pages;
	unsigned int	nr_pages;	/* data pages, a power of two */
	int		cpu;		/* -1: a thread's ring */
	struct rt_mlock	mlock;		/* locked memory charged for it */
};

struct rt_ring *rt_ring_alloc(int cpu, unsigned int nr_pages,
			      struct rt_readers *readers);
void rt_ring_free(struct rt_ring *ring);

void *rt_ring_reserve(struct rt_ring *ring, unsigned int size, u64 ts);
void rt_ring_commit(struct rt_ring *ring);

void rt_ring_start(struct rt_ring *ring, unsigned long watermark,
		   bool overwrite);
void rt_ring_stop(struct rt_ring *ring, u64 ts);
bool rt_ring_has_unread(const struct rt_ring *ring);
bool rt_ring_past_watermark(const struct rt_ring *ring);
struct page *rt_ring_map_page(struct rt_ring *ring, unsigned long pgoff);

struct rt_ring_counts {
	u64 records;
	u64 lost;
	u64 bytes;
};

void rt_ring_counts(const struct rt_ring *ring, struct rt_ring_counts *c);

/* ---- flight recorder and buffer health (ring_overwrite.c) ---- */
void rt_ring_put_counts(struct rt_ring *ring);
void rt_ring_set_overwrite(struct rt_ring *ring, bool overwrite);
bool rt_ring_make_room(struct rt_ring *ring, unsigned long head);
void rt_ring_ring_stats(const struct rt_ring *ring,
			struct ringtrace_ring_stats *rs);

/* Fill statistic: @used bytes are held unread right after a reservation. */
static __always_inline void rt_ring_note_fill(struct rt_ring *ring,
					      unsigned long used)
{
	/*
	 * A plain maximum: an interrupt that nests between the load and the
	 * store may lose its own (smaller or equal-ish) sample, which only
	 * makes a statistic a record short; nothing depends on it.
	 */
	if (unlikely(used > READ_ONCE(ring->high_water)))
		WRITE_ONCE(ring->high_water, used);
}

/* ---- end flight recorder and buffer health ---- */

#endif /* _RINGTRACE_RING_H */
