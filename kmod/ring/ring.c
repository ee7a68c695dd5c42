// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU ring buffers: allocation, reservation, publication and loss
 * accounting. The barrier letters (A, B for the kernel; C, D for the reader)
 * are perf's and are explained in Documentation/protocol.rst.
 */
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

#include "barrier_site.h"
#include "ring.h"

static void rt_ring_wakeup(struct irq_work *work)
{
	struct rt_ring *ring = container_of(work, struct rt_ring, wakeup_work);

	rt_readers_wake(ring->readers);
}

static void rt_ring_free_pages(struct rt_ring *ring, unsigned int nr)
{
	while (nr--)
		__free_page(ring->data_pages[nr]);
}

/*
 * The data pages are mapped twice, back to back, into the kernel's address
 * space. A record that crosses the end of the ring is then still one
 * contiguous kernel range and the probes write it in place with no wrap
 * logic. Userspace maps each page once (perf's layout), so readers copy
 * the rare wrapping record into a bounce buffer.
 */
static int rt_ring_map_data(struct rt_ring *ring)
{
	unsigned int nr = ring->nr_pages;
	struct page **twice;
	unsigned int i;

	twice = kvmalloc_array(2 * (size_t)nr, sizeof(*twice),
			       GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!twice)
		return -ENOMEM;
	for (i = 0; i < 2 * nr; i++)
		twice[i] = ring->data_pages[i & (nr - 1)];
	ring->data = vmap(twice, 2 * nr, VM_MAP, PAGE_KERNEL);
	kvfree(twice);
	return ring->data ? 0 : -ENOMEM;
}

/*
 * Up to max_ring_pages per ring, requested by users: running out of memory
 * must fail the mmap() with ENOMEM, never wake the OOM killer (global or
 * memcg), which would kill bystanders first. Hence __GFP_RETRY_MAYFAIL on
 * every allocation the ring's size scales.
 */
#define RT_RING_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

struct rt_ring *rt_ring_alloc(int cpu, unsigned int nr_pages,
			      struct rt_readers *readers)
{
	const gfp_t gfp = RT_RING_GFP | __GFP_ZERO;
	/* cpu -1: a per-thread ring (session_thread.c), any node. */
	int node = cpu >= 0 ? cpu_to_node(cpu) : NUMA_NO_NODE;
	struct ringtrace_mmap_page *pg;
	struct rt_ring *ring;
	unsigned int i;
	int err = -ENOMEM;

	if (WARN_ON_ONCE(!nr_pages || !is_power_of_2(nr_pages)))
		return ERR_PTR(-EINVAL);

	ring = kzalloc_node(sizeof(*ring), GFP_KERNEL_ACCOUNT, node);
	if (!ring)
		return ERR_PTR(-ENOMEM);
	ring->cpu = cpu;
	ring->readers = readers;
	ring->nr_pages = nr_pages;
	ring->size = (unsigned long)nr_pages << PAGE_SHIFT;
	init_irq_work(&ring->wakeup_work, rt_ring_wakeup);

	ring->data_pages = kvcalloc(nr_pages, sizeof(*ring->data_pages),
				    RT_RING_GFP);
	if (!ring->data_pages)
		goto err_ring;

	ring->ctl_page = alloc_pages_node(node, gfp, 0);
	if (!ring->ctl_page)
		goto err_page_array;

	for (i = 0; i < nr_pages; i++) {
		ring->data_pages[i] = alloc_pages_node(node, gfp, 0);
		if (!ring->data_pages[i])
			goto err_data_pages;
	}

	err = rt_ring_map_data(ring);
	if (err)
		goto err_data_pages;

	pg = page_address(ring->ctl_page);
	pg->version = RINGTRACE_ABI_VERSION;
	pg->compat_version = RINGTRACE_ABI_COMPAT_VERSION;
	pg->cpu = cpu;
	pg->data_offset = PAGE_SIZE;
	pg->data_size = ring->size;
	ring->page = pg;
	return ring;

err_data_pages:
	rt_ring_free_pages(ring, i);
	__free_page(ring->ctl_page);
err_page_array:
	kvfree(ring->data_pages);
err_ring:
	kfree(ring);
	return ERR_PTR(err);
}

/* Callers guarantee no writer can reach the ring any more. */
void rt_ring_free(struct rt_ring *ring)
{
	if (!ring)
		return;
	rt_mlock_uncharge(&ring->mlock);
	irq_work_sync(&ring->wakeup_work);
	vunmap(ring->data);
	rt_ring_free_pages(ring, ring->nr_pages);
	__free_page(ring->ctl_page);
	kvfree(ring->data_pages);
	kfree(ring);
}

struct page *rt_ring_map_page(struct rt_ring *ring, unsigned long pgoff)
{
	if (pgoff == 0)
		return ring->ctl_page;
	if (pgoff > ring->nr_pages)
		return NULL;
	return ring->data_pages[pgoff - 1];
}

/* Statistics for the reader; the kernel never reads them back. */
void rt_ring_put_counts(struct rt_ring *ring)
{
	struct ringtrace_mmap_page *pg = ring->page;

	WRITE_ONCE(pg->records, local64_read(&ring->records));
	WRITE_ONCE(pg->lost, local64_read(&ring->lost));
	WRITE_ONCE(pg->bytes, local64_read(&ring->bytes));
	WRITE_ONCE(pg->lost_pending, local_read(&ring->lost_pending));
	/* buffer health */
	WRITE_ONCE(pg->high_water, READ_ONCE(ring->high_water));
	WRITE_ONCE(pg->wakeups, local64_read(&ring->wakeups));
	WRITE_ONCE(pg->overwritten, local64_read(&ring->overwritten));
}

/*
 * Make everything reserved so far visible to the reader. Only the outermost
 * writer on this CPU publishes: a nested (interrupt) writer's record lies
 * after the interrupted writer's, which is not complete yet.
 */
void rt_ring_commit(struct rt_ring *ring)
{
	struct ringtrace_mmap_page *pg = ring->page;
	unsigned int nest = READ_ONCE(ring->nest);
	unsigned long head;

	if (nest > 1) {
		WRITE_ONCE(ring->nest, nest - 1);
		return;
	}
again:
	/*
	 * Load the head only after our nest increment is visible to
	 * interrupts, so we cannot publish a head older than one an
	 * interrupt already published.
	 */
	barrier();
	head = local_read(&ring->head);

	/*
	 * B, pairs with C (the reader's load-acquire of data_head): every
	 * record byte stored before this point is visible before the head
	 * that covers it.
	 */
	smp_wmb();
	RT_BARRIER_SITE("B", pg);
	WRITE_ONCE(pg->data_head, head);
	/* Read locklessly by poll and the flush timer (READ_ONCE there). */
	WRITE_ONCE(ring->published, head);

	/*
	 * The reader is woken, or records are being dropped: refresh the
	 * page's statistics. Not on every record: the stores cost more
	 * than the rest of the publication.
	 */
	if (unlikely(head - ring->wakeup_head >= ring->watermark)) {
		ring->wakeup_head = head;
		local64_inc(&ring->wakeups);
		rt_ring_put_counts(ring);
		/*
		 * Not from a CPU being taken offline (inactive already): on
		 * PREEMPT_RT this work runs in the CPU's irq_work thread,
		 * which hotplug parks, and it would then stay pending (and
		 * rt_ring_free()'s irq_work_sync() wait) until the CPU came
		 * back. The session's flush timer wakes the reader instead.
		 */
		if (likely(cpu_active(raw_smp_processor_id())))
			irq_work_queue(&ring->wakeup_work);
	} else if (unlikely(local_read(&ring->lost_pending))) {
		rt_ring_put_counts(ring);
	} else if (unlikely(ring->overwrite &&
			    head - ring->counts_head >= ring->size / 2)) {
		/* Overwrite mode wakes nobody: refresh every half ring. */
		ring->counts_head = head;
		rt_ring_put_counts(ring);
	}

	/*
	 * Publish before dropping the nest count: once it is zero an
	 * interrupt becomes an outermost writer and publishes its own,
	 * newer head, which ours must not overwrite.
	 */
	barrier();
	WRITE_ONCE(ring->nest, 0);

	/*
	 * An interrupt that reserved between our head load and the nest
	 * drop left its record for us to publish.
	 */
	barrier();
	if (unlikely(head != local_read(&ring->head))) {
		WRITE_ONCE(ring->nest, 1);
		goto again;
	}
}

/*
 * data_tail is written by userspace and cannot be trusted: any value only
 * changes how much room we think there is, a value that makes no sense
 * means no room, and nothing but this decision ever depends on it.
 */
static __always_inline bool rt_ring_has_room(const struct rt_ring *ring,
					     unsigned long head,
					     unsigned long bytes,
					     unsigned long *fill)
{
	const struct ringtrace_mmap_page *pg = ring->page;
	unsigned long used;

	/* A: the branch on this load orders the stores after it. */
	RT_BARRIER_SITE("A", pg);
	used = head - READ_ONCE(pg->data_tail);
	/* Only a statistic comes of it besides the decision (high_water). */
	*fill = used + bytes;
	return used <= ring->size && ring->size - used >= bytes;
}

static void rt_ring_put_lost(void *rec, u64 ts, u64 lost)
{
	struct ringtrace_lost_record *l = rec;

	l->header.type = RINGTRACE_RECORD_LOST;
	l->header.misc = 0;
	l->header.size = sizeof(*l);
	l->ts_ns = ts;
	l->lost = lost;
}

/**
 * rt_ring_reserve - claim @size bytes for one record on this CPU's ring
 * @ring: the ring of the CPU we run on (preemption disabled)
 * @size: record size, a multiple of RINGTRACE_RECORD_ALIGN
 * @ts: timestamp for the LOST record this may have to write first
 *
 * Return: where to write the record, then call rt_ring_commit(); or NULL
 * when the ring is full: the record is counted as lost and nothing else
 * is to be done.
 */
void *rt_ring_reserve(struct rt_ring *ring, unsigned int size, u64 ts)
{
	const unsigned int lost_size = sizeof(struct ringtrace_lost_record);
	unsigned long offset, head, total, lost, fill;
	void *rec;

	WRITE_ONCE(ring->nest, READ_ONCE(ring->nest) + 1);
	barrier();

	/*
	 * Take the pending losses before reserving, not after: an interrupt
	 * nesting between a check and a later take could report them first
	 * and leave us a LOST record with a count of 0. While we hold them,
	 * a nested writer sees only losses newer than ours; if we find no
	 * room they go back.
	 */
	lost = local_xchg(&ring->lost_pending, 0);
	total = size + (lost ? lost_size : 0);

	do {
		offset = local_read(&ring->head);
		head = offset + total;
		if (ring->overwrite) {
			/*
			 * Flight recorder: data_tail plays no part. The
			 * oldest whole records make way, and the tail that
			 * says so is published, with barrier E, before any
			 * store below (ring_overwrite.c).
			 */
			if (unlikely(!rt_ring_make_room(ring, head)))
				goto fail;
			fill = head - local_read(&ring->otail);
			continue;
		}
		if (unlikely(!rt_ring_has_room(ring, offset, total, &fill)))
			goto fail;
		/*
		 * A, pairs with D (the reader's store-release of data_tail):
		 * the branch above depends on the data_tail load, so none of
		 * the record stores below can be performed before it, and
		 * the reader is done with the bytes we are about to reuse.
		 */
	} while (local_cmpxchg(&ring->head, offset, head) != offset);

	/* local_cmpxchg() implies barrier(): the stores stay below. */
	rec = ring->data + (offset & (ring->size - 1));
	if (unlikely(lost)) {
		rt_ring_put_lost(rec, ts, lost);
		rec += lost_size;
	}
	local64_inc(&ring->records);
	local64_add(total, &ring->bytes);
	rt_ring_note_fill(ring, fill);
	return rec;

fail:
	local_add(lost + 1, &ring->lost_pending);
	local64_inc(&ring->lost);
	/* An interrupted writer may be waiting for us to publish its record. */
	rt_ring_commit(ring);
	return NULL;
}

/* Called before the ring's session becomes visible to the probes. */
void rt_ring_start(struct rt_ring *ring, unsigned long watermark,
		   bool overwrite)
{
	ring->watermark = clamp(watermark, 1UL, ring->size);
	ring->wakeup_head = READ_ONCE(ring->published);
	rt_ring_set_overwrite(ring, overwrite);
	/* Overwrite mode wakes no reader: no watermark. */
	if (overwrite)
		ring->watermark = ULONG_MAX;
	WRITE_ONCE(ring->page->flags, RINGTRACE_PAGE_ENABLED |
		   (overwrite ? RINGTRACE_PAGE_OVERWRITE : 0));
}

/*
 * Called once no probe can reach the ring any more (after an RCU grace
 * period), so this thread is its only writer, whatever CPU it runs on.
 * Reports the losses no LOST record has reported yet, if there is room,
 * and wakes the reader so it drains what is left.
 */
void rt_ring_stop(struct rt_ring *ring, u64 ts)
{
	const unsigned int lost_size = sizeof(struct ringtrace_lost_record);
	unsigned long offset = local_read(&ring->head), fill;
	bool room = false;

	WRITE_ONCE(ring->page->flags, ring->overwrite ?
		   RINGTRACE_PAGE_OVERWRITE : 0);
	WRITE_ONCE(ring->nest, 1);
	if (local_read(&ring->lost_pending)) {
		if (ring->overwrite)
			/* E, as in rt_ring_reserve(). */
			room = rt_ring_make_room(ring, offset + lost_size);
		else
			room = rt_ring_has_room(ring, offset, lost_size, &fill);
	}
	if (room) {
		/* A, as in rt_ring_reserve(): the stores follow the branch. */
		rt_ring_put_lost(ring->data + (offset & (ring->size - 1)), ts,
				 local_xchg(&ring->lost_pending, 0));
		local64_add(lost_size, &ring->bytes);
		local_set(&ring->head, offset + lost_size);
	}
	rt_ring_commit(ring);
	rt_ring_put_counts(ring);
}

/*
 * data_tail is untrusted: these only decide whether to wake a reader.
 *
 * an overwrite-mode reader never writes data_tail (it copies
 * from overwrite_tail to data_head, protocol.rst), so a head past the tail
 * says nothing there: such a ring is never "unread" by this measure, and
 * its reader is readable only through a wake-up poll() has not reported
 * yet (DISABLE's; rt_session_poll_mask()).
 */
bool rt_ring_has_unread(const struct rt_ring *ring)
{
	if (ring->overwrite)
		return false;
	return READ_ONCE(ring->published) != READ_ONCE(ring->page->data_tail);
}

bool rt_ring_past_watermark(const struct rt_ring *ring)
{
	unsigned long unread;

	/* overwrite mode never wakes the reader for a watermark. */
	if (ring->overwrite)
		return false;
	unread = READ_ONCE(ring->published) - READ_ONCE(ring->page->data_tail);

	return unread >= ring->watermark && unread <= ring->size;
}

void rt_ring_counts(const struct rt_ring *ring, struct rt_ring_counts *c)
{
	c->records = local64_read(&ring->records);
	c->lost = local64_read(&ring->lost);
	c->bytes = local64_read(&ring->bytes);
}
