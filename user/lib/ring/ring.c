// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Consumer cursor over a perf-layout ring (see ring.h for the contract).
 *
 * Why the checks are where they are: data_head is validated once per
 * refresh (it bounds everything read afterwards), and each record's size is
 * validated once per peek against that bound, before a single byte past the
 * header is touched. The header itself never wraps: positions and sizes
 * are multiples of 8 and the ring is a power of two of at least 8 bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>
#include <linux/ringtrace.h>

#include "ringtrace/barrier.h"
#include "ringtrace/ring.h"

/*
 * One reader serves both rings only because these offsets agree; if a
 * header ever moved a field, this is where the build would stop.
 */
#define SAME_OFFSET(field) \
	_Static_assert(offsetof(struct ringtrace_mmap_page, field) == \
		       offsetof(struct perf_event_mmap_page, field), \
		       #field " differs between ringtrace and perf")
SAME_OFFSET(data_head);
SAME_OFFSET(data_tail);
SAME_OFFSET(data_offset);
SAME_OFFSET(data_size);
_Static_assert(sizeof(struct ringtrace_event_header) ==
	       sizeof(struct perf_event_header), "record header shape");

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int fail(struct rt_ring *r, int err, uint64_t pos, uint64_t value)
{
	if (!r->error) {
		r->error = err;
		r->error_pos = pos;
		r->error_value = value;
	}
	return r->error;
}

int rt_ring_init(struct rt_ring *r, const __u64 *head, __u64 *tail,
		 const void *data, uint64_t data_size,
		 void *bounce, size_t bounce_size)
{
	memset(r, 0, sizeof(*r));
	if (!head || !tail || !data || !is_pow2(data_size) ||
	    data_size < RINGTRACE_RECORD_ALIGN)
		return fail(r, RT_RING_ERR_LAYOUT, 0, data_size);

	r->head = head;
	r->tail = tail;
	r->data = data;
	r->size = data_size;
	r->mask = data_size - 1;

	if (bounce) {
		r->bounce = bounce;
		r->bounce_size = bounce_size > UINT32_MAX ? UINT32_MAX :
							     (uint32_t)bounce_size;
	} else {
		r->bounce = malloc(RT_RING_BOUNCE_SIZE);
		if (!r->bounce)
			return fail(r, RT_RING_ERR_NOMEM, 0, 0);
		r->bounce_size = RT_RING_BOUNCE_SIZE;
		r->bounce_owned = true;
	}

	/* Resume where the previous reader (if any) stopped. */
	r->pos = rt_load_u64_once(tail);
	r->released = r->pos;
	r->head_seen = r->pos;
	if (r->pos % RINGTRACE_RECORD_ALIGN)
		return fail(r, RT_RING_ERR_LAYOUT, r->pos, r->pos);
	return RT_RING_OK;
}

int rt_ring_init_mmap(struct rt_ring *r, void *base, size_t map_len,
		      size_t page_size, void *bounce, size_t bounce_size)
{
	struct ringtrace_mmap_page *page = base;
	uint64_t offset, size;

	if (!base || map_len < sizeof(*page) || page_size < sizeof(*page)) {
		memset(r, 0, sizeof(*r));
		return fail(r, RT_RING_ERR_LAYOUT, 0, map_len);
	}
	offset = rt_load_u64_once(&page->data_offset);
	size = rt_load_u64_once(&page->data_size);
	if (offset == 0 && size == 0) {
		/* perf before 4.1: one control page, the rest is data. */
		offset = page_size;
		size = map_len > page_size ? map_len - page_size : 0;
	}
	if (offset < sizeof(*page) || offset % RINGTRACE_RECORD_ALIGN ||
	    !is_pow2(size) || offset > map_len || size > map_len - offset) {
		memset(r, 0, sizeof(*r));
		return fail(r, RT_RING_ERR_LAYOUT, offset, size);
	}
	return rt_ring_init(r, &page->data_head, &page->data_tail,
			    (unsigned char *)base + offset, size,
			    bounce, bounce_size);
}

void rt_ring_fini(struct rt_ring *r)
{
	if (r->bounce_owned)
		free(r->bounce);
	r->bounce = NULL;
	r->bounce_owned = false;
}

int rt_ring_refresh(struct rt_ring *r, uint64_t *avail)
{
	uint64_t head;

	if (r->error)
		return r->error;

	head = rt_load_head_acquire(r->head);		/* (C), pairs with (B) */

	if ((int64_t)(head - r->head_seen) < 0)
		return fail(r, RT_RING_ERR_HEAD_BACKWARDS, r->head_seen, head);
	if (head % RINGTRACE_RECORD_ALIGN)
		return fail(r, RT_RING_ERR_HEAD_UNALIGNED, r->pos, head);
	if (head - r->released > r->size)
		return fail(r, RT_RING_ERR_HEAD_OVERRUN, r->released, head);

	r->head_seen = head;
	if (avail)
		*avail = head - r->pos;
	return RT_RING_OK;
}

/*
 * The checks of one record's size, read once from the header at r->pos
 * with @avail bytes published from there: RT_RING_OK or the sticky error.
 * rt_ring_peek()'s checks.
 */
static inline int check_size(struct rt_ring *r, uint16_t size, uint64_t avail)
{
	if (size % RINGTRACE_RECORD_ALIGN == 0 && size && size <= avail &&
	    size <= r->size)
		return RT_RING_OK;	/* the common case, one branch */
	if (size == 0)
		return fail(r, RT_RING_ERR_SIZE_ZERO, r->pos, 0);
	if (size < sizeof(struct ringtrace_event_header))
		return fail(r, RT_RING_ERR_SIZE_SHORT, r->pos, size);
	if (size % RINGTRACE_RECORD_ALIGN)
		return fail(r, RT_RING_ERR_SIZE_UNALIGNED, r->pos, size);
	if (size > r->size)
		return fail(r, RT_RING_ERR_SIZE_TOO_BIG, r->pos, size);
	return fail(r, RT_RING_ERR_SIZE_TRUNCATED, r->pos, size);
}

int rt_ring_peek(struct rt_ring *r, struct rt_record *rec)
{
	struct ringtrace_event_header hdr;
	uint64_t avail, off, first;
	int ret;

	if (r->error)
		return r->error;
	avail = r->head_seen - r->pos;
	if (!avail)
		return RT_RING_EMPTY;

	/* Read the header once; every decision below uses this copy. */
	off = r->pos & r->mask;
	memcpy(&hdr, r->data + off, sizeof(hdr));

	ret = check_size(r, hdr.size, avail);
	if (ret)
		return ret;

	first = r->size - off;
	if (hdr.size <= first) {
		rec->data = r->data + off;
	} else {
		if (hdr.size > r->bounce_size)
			return fail(r, RT_RING_ERR_SIZE_TOO_BIG, r->pos, hdr.size);
		memcpy(r->bounce, r->data + off, first);
		memcpy(r->bounce + first, r->data, hdr.size - first);
		rec->data = r->bounce;
	}
	rec->size = hdr.size;
	rec->type = hdr.type;
	r->last_size = hdr.size;
	return RT_RING_OK;
}

void rt_ring_advance(struct rt_ring *r)
{
	r->pos += r->last_size;
	r->last_size = 0;
}

/*
 * The records after a peeked one with the same header. Its checks
 * (check_size()) hold for each of them: the same size, and each ends
 * before head_seen. The next header's address comes from the size, in a
 * register, not from the header just loaded: the loads of consecutive
 * headers overlap instead of each waiting for the last, which is what
 * bounds a walk whose next address is the previous load. A header never
 * wraps (8 bytes at an 8-byte aligned offset): it is read in place.
 */
int rt_ring_skip_same(struct rt_ring *r, const void *like, uint64_t *skipped)
{
	struct ringtrace_event_header want;
	uint64_t pos = r->pos, end = r->head_seen, k = 0, h, w;

	*skipped = 0;
	if (r->error)
		return r->error;
	memcpy(&want, like, sizeof(want));
	memcpy(&w, like, sizeof(w));
	/* Only a header a peek accepted: anything else is peek's to judge. */
	if (!want.size || want.size % RINGTRACE_RECORD_ALIGN ||
	    want.size > r->size)
		return pos == end ? RT_RING_EMPTY : RT_RING_OK;
	while (end - pos >= want.size) {
		memcpy(&h, r->data + (pos & r->mask), sizeof(h));
		if (h != w)
			break;
		pos += want.size;
		k++;
	}
	r->pos = pos;
	r->last_size = 0;
	*skipped = k;
	return pos == end ? RT_RING_EMPTY : RT_RING_OK;
}

void rt_ring_release(struct rt_ring *r)
{
	if (r->pos == r->released)
		return;
	rt_store_tail_release(r->tail, r->pos);		/* (D), pairs with (A) */
	r->released = r->pos;
}

const char *rt_ring_strerror(int status)
{
	switch (status) {
	case RT_RING_OK:			return "ok";
	case RT_RING_EMPTY:			return "ring empty";
	case RT_RING_ERR_SIZE_ZERO:		return "record size is 0";
	case RT_RING_ERR_SIZE_SHORT:		return "record smaller than its header";
	case RT_RING_ERR_SIZE_UNALIGNED:	return "record size not a multiple of 8";
	case RT_RING_ERR_SIZE_TRUNCATED:	return "record runs past data_head";
	case RT_RING_ERR_SIZE_TOO_BIG:		return "record larger than the ring";
	case RT_RING_ERR_HEAD_BACKWARDS:	return "data_head moved backwards";
	case RT_RING_ERR_HEAD_OVERRUN:		return "data_head overran data_tail";
	case RT_RING_ERR_HEAD_UNALIGNED:	return "data_head not a multiple of 8";
	case RT_RING_ERR_LAYOUT:		return "invalid ring layout";
	case RT_RING_ERR_NOMEM:			return "out of memory";
	}
	return "unknown ring error";
}

void rt_ring_describe_error(const struct rt_ring *r, char *buf, size_t len)
{
	unsigned long long pos = r->error_pos, val = r->error_value;
	unsigned long long size = r->size;

	switch (r->error) {
	case RT_RING_ERR_SIZE_ZERO:
	case RT_RING_ERR_SIZE_SHORT:
	case RT_RING_ERR_SIZE_UNALIGNED:
		snprintf(buf, len, "%s: size %llu at position %llu",
			 rt_ring_strerror(r->error), val, pos);
		break;
	case RT_RING_ERR_SIZE_TRUNCATED:
		snprintf(buf, len, "%s: size %llu at position %llu, head %llu",
			 rt_ring_strerror(r->error), val, pos,
			 (unsigned long long)r->head_seen);
		break;
	case RT_RING_ERR_SIZE_TOO_BIG:
		snprintf(buf, len,
			 "%s: size %llu at position %llu, ring %llu bytes",
			 rt_ring_strerror(r->error), val, pos, size);
		break;
	case RT_RING_ERR_HEAD_BACKWARDS:
		snprintf(buf, len, "%s: from %llu to %llu",
			 rt_ring_strerror(r->error), pos, val);
		break;
	case RT_RING_ERR_HEAD_OVERRUN:
		snprintf(buf, len, "%s: head %llu, tail %llu, ring %llu bytes",
			 rt_ring_strerror(r->error), val, pos, size);
		break;
	case RT_RING_ERR_HEAD_UNALIGNED:
		snprintf(buf, len, "%s: head %llu",
			 rt_ring_strerror(r->error), val);
		break;
	case RT_RING_ERR_LAYOUT:
		snprintf(buf, len, "%s: data_offset %llu, data_size %llu",
			 rt_ring_strerror(r->error), pos, val);
		break;
	default:
		snprintf(buf, len, "%s", rt_ring_strerror(r->error));
		break;
	}
}
