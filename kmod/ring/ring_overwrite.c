// SPDX-License-Identifier: GPL-2.0
/*
 * the flight recorder (RINGTRACE_CFG_OVERWRITE) and the per-ring
 * health counters.
 *
 * In overwrite mode a ring never waits for its reader: the writer moves
 * the ring's tail (otail) over the oldest whole records until its own
 * record fits, publishes that tail on the control page (overwrite_tail),
 * and only then stores its record over them. A reader copies what it wants
 * and re-reads overwrite_tail afterwards: whatever lies below the new tail
 * may have been overwritten while it copied and is discarded, whatever
 * lies above it is intact. Barrier letters E (here) and F (the reader)
 * continue perf's A-D; Documentation/protocol.rst has the argument.
 *
 * otail only ever moves over complete records: below ring->published,
 * which the outermost writer sets once every record below it is whole, so
 * the sizes read from record headers are the kernel's own (userspace
 * cannot write the data pages). A nested writer that would have to
 * overwrite a record still being written by the writer it interrupted
 * drops its record instead (counted as lost), as does an NMI that
 * interrupts the two stores that publish the tail (rt_ring_publish_tail()).
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/ringtrace.h>

#include "barrier_site.h"
#include "ring.h"

/*
 * Store the current otail on the control page. ring->otail_pub records
 * what the page shows, for writers that only need to know whether enough
 * is already published.
 *
 * The load of otail and the store to the page are two instructions: a
 * nested writer that moved otail between them and wrote its record would
 * see the page go back to the older value afterwards, and a reader could
 * then accept bytes that nested writer had overwritten. Interrupts are
 * off across the window, so only an NMI can nest there; for that case
 * the window is marked, and a nested writer that finds it marked and
 * would have to move the tail gives up its record (rt_ring_make_room()
 * returns false, the record is counted in lost).
 */
static unsigned long rt_ring_publish_tail(struct rt_ring *ring)
{
	unsigned long t, flags;

	local_irq_save(flags);
	WRITE_ONCE(ring->tail_publishing, 1);
	/* The mark is set before otail is read (same CPU: barrier()). */
	barrier();
	t = local_read(&ring->otail);
	/*
	 * The page never shows a tail below one it showed before; this
	 * store is ordered before our record stores by E in the caller.
	 */
	WRITE_ONCE(ring->page->overwrite_tail, t);
	/* The page is written before otail_pub says it is (same CPU). */
	barrier();
	WRITE_ONCE(ring->otail_pub, t);
	barrier();
	WRITE_ONCE(ring->tail_publishing, 0);
	local_irq_restore(flags);
	return t;
}

/**
 * rt_ring_make_room - overwrite mode: let [.., @head) fit in the ring
 * @ring: the ring of this CPU, with our nest count taken
 * @head: the head our reservation would end at
 *
 * Called before the reservation's cmpxchg on ring->head, and again if that
 * fails. On success every byte a record ending at @head will overwrite
 * lies below the tail the control page shows, and that store is ordered
 * before the caller's record stores (E).
 *
 * Return: false if the record cannot be written without overwriting a
 * record still in flight on this CPU (or while a publication is
 * interrupted): the caller drops it as lost.
 *
 * Every successful return has E behind it, even when this writer stores
 * no tail: the tail that covers its record may have been stored by the
 * writer it interrupted, between that writer's tail store and its E
 * (ring->otail_pub already says so there). Only ring->otail_fenced, set
 * after an E, lets a writer skip its own.
 */
bool rt_ring_make_room(struct rt_ring *ring, unsigned long head)
{
	const struct ringtrace_event_header *hdr;
	unsigned long published, t;
	unsigned int size;

	/*
	 * Fast path: a tail far enough on is published and an E followed its
	 * store. That E ran on this CPU before our record stores in program
	 * order (an interrupt runs after the code it interrupts; a per-thread
	 * ring's thread migrates only between records, through the
	 * scheduler's full barriers), so it orders them too: nothing to do.
	 */
	RT_BARRIER_SITE("E_skip", ring);
	if (head - READ_ONCE(ring->otail_fenced) <= ring->size)
		return true;
	/*
	 * Published, but maybe not fenced: we interrupted a writer between
	 * its tail store and its E (or ran before any E for it). Fence
	 * ourselves; without this E a weakly ordered CPU could make our
	 * record stores visible before that tail store.
	 */
	t = READ_ONCE(ring->otail_pub);
	if (head - t <= ring->size)
		goto fence;
	/* We interrupted rt_ring_publish_tail(): see there. */
	if (READ_ONCE(ring->tail_publishing))
		return false;
	/*
	 * Everything below published is whole; above it, records of the
	 * writers we interrupted may be half written. We may only step over
	 * the former.
	 */
	published = READ_ONCE(ring->published);
	if (head - published > ring->size)
		return false;

	for (;;) {
		t = local_read(&ring->otail);
		if (head - t <= ring->size)
			break;
		hdr = ring->data + (t & (ring->size - 1));
		size = READ_ONCE(hdr->size);
		/*
		 * A nested writer that ran between our load of otail and
		 * the size load may have moved otail past t and overwritten
		 * the record there: then the size is not t's. Interrupts
		 * run in program order on this CPU: if otail is still t
		 * after the size load, no such writer ran before it.
		 */
		barrier();
		if (local_read(&ring->otail) != t)
			continue;
		/* Our own stores: anything else is a bug, not an attack. */
		if (WARN_ON_ONCE(size < sizeof(*hdr) + sizeof(u64) ||
				 size % RINGTRACE_RECORD_ALIGN ||
				 published - t < size))
			return false;
		/*
		 * A nested writer may move otail between our load and here:
		 * then the cmpxchg fails and we look again. local_cmpxchg()
		 * is atomic against interrupts on this CPU.
		 */
		if (local_cmpxchg(&ring->otail, t, t + size) == t)
			local64_inc(&ring->overwritten);
	}
	t = rt_ring_publish_tail(ring);
fence:
	/*
	 * E, pairs with F (the reader's smp_rmb() between copying records
	 * and re-reading overwrite_tail): the tail store (ours, or the one
	 * of the writer we interrupted) is visible before any record store
	 * that overwrites the bytes below it, so a reader that copied one of
	 * those stores sees a tail that tells it to discard them.
	 */
	smp_wmb();
	/*
	 * After E: t was published (page, then otail_pub) before it. A
	 * nested writer may store a higher value meanwhile and we go back
	 * to t: a lower fenced tail only costs a later writer an E.
	 */
	RT_BARRIER_SITE("E", ring);
	WRITE_ONCE(ring->otail_fenced, t);
	return true;
}

/*
 * Called from rt_ring_start() only, before the ring's session is visible
 * to the probes: no writer runs. A ring switched into overwrite mode
 * starts with nothing to show: its older bytes were the reader's, and
 * only head is known to be a record boundary the kernel can trust.
 */
void rt_ring_set_overwrite(struct rt_ring *ring, bool overwrite)
{
	unsigned long head = local_read(&ring->head);

	if (overwrite && !ring->overwrite) {
		local_set(&ring->otail, head);
		ring->counts_head = head;
		WRITE_ONCE(ring->page->overwrite_tail, head);
		WRITE_ONCE(ring->otail_pub, head);
		WRITE_ONCE(ring->otail_fenced, head);
	}
	ring->overwrite = overwrite;
}

/*
 * GET_STATS' per-ring entry, from the kernel's own counters (never from
 * the user-writable page). Exact once the session is disabled; while it
 * runs, each value is current but they are not one consistent snapshot.
 */
void rt_ring_ring_stats(const struct rt_ring *ring,
			struct ringtrace_ring_stats *rs)
{
	rs->cpu = ring->cpu;
	rs->flags = ring->overwrite ? RINGTRACE_PAGE_OVERWRITE : 0;
	rs->records = local64_read(&ring->records);
	rs->lost = local64_read(&ring->lost);
	rs->bytes = local64_read(&ring->bytes);
	rs->high_water = READ_ONCE(ring->high_water);
	rs->wakeups = local64_read(&ring->wakeups);
	rs->overwritten = local64_read(&ring->overwritten);
	rs->data_size = ring->size;
	rs->data_head = READ_ONCE(ring->published);
}
