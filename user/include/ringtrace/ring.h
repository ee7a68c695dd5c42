/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A consumer cursor over a perf-layout ring: a free-running data_head
 * written by the producer, a free-running data_tail written by us, and a
 * power-of-two data area holding records that start with
 * {u32 type; u16 misc; u16 size}. /dev/ringtrace rings and
 * perf_event_open() rings have exactly this shape, so one cursor reads both.
 *
 * Usage, once per batch:
 *
 *	rt_ring_refresh(r, &avail);          (C) load-acquire data_head
 *	while (rt_ring_peek(r, &rec) == RT_RING_OK) {
 *		use(rec.data, rec.size);     valid until the next peek/advance
 *		rt_ring_advance(r);          local position only
 *	}
 *	rt_ring_release(r);                  (D) store-release data_tail
 *
 * Every size the producer controls is validated before it is used; the
 * first violation stops the cursor for good (a sticky error, reported with
 * rt_ring_describe_error()), so a corrupt or hostile ring can neither crash
 * the reader nor make it loop. Nothing here allocates or makes a system
 * call per record.
 */
#ifndef RINGTRACE_RING_H
#define RINGTRACE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

/* Enough for any record: header.size is a __u16. */
#define RT_RING_BOUNCE_SIZE	65536u

enum rt_ring_status {
	RT_RING_OK			= 0,
	RT_RING_EMPTY			= 1,	/* nothing unread: not an error */

	RT_RING_ERR_SIZE_ZERO		= -1,	/* record size 0 */
	RT_RING_ERR_SIZE_SHORT		= -2,	/* smaller than the 8-byte header */
	RT_RING_ERR_SIZE_UNALIGNED	= -3,	/* not a multiple of 8 */
	RT_RING_ERR_SIZE_TRUNCATED	= -4,	/* runs past data_head */
	RT_RING_ERR_SIZE_TOO_BIG	= -5,	/* larger than the ring or bounce buffer */
	RT_RING_ERR_HEAD_BACKWARDS	= -6,	/* data_head went down */
	RT_RING_ERR_HEAD_OVERRUN	= -7,	/* data_head - data_tail > data_size */
	RT_RING_ERR_HEAD_UNALIGNED	= -8,	/* data_head not a multiple of 8 */
	RT_RING_ERR_LAYOUT		= -9,	/* bad data_offset/data_size */
	RT_RING_ERR_NOMEM		= -10,	/* no bounce buffer */
};

/* One record as the cursor hands it out. */
struct rt_record {
	const void	*data;		/* the header; contiguous (bounced if it wrapped) */
	uint32_t	size;		/* validated header.size: use this, not data's */
	uint32_t	type;		/* header.type, read once */
};

struct rt_ring {
	const __u64		*head;		/* producer's data_head */
	__u64			*tail;		/* our data_tail */
	const unsigned char	*data;		/* data area */
	uint64_t		size;		/* data area bytes, a power of two */
	uint64_t		mask;		/* size - 1 */

	uint64_t		pos;		/* next unread byte, free-running */
	uint64_t		head_seen;	/* data_head at the last refresh */
	uint64_t		released;	/* last value stored to *tail */
	uint32_t		last_size;	/* record returned by the last peek; 0: none */

	unsigned char		*bounce;	/* wrapped records are copied here */
	uint32_t		bounce_size;
	bool			bounce_owned;

	int			error;		/* sticky RT_RING_ERR_*, 0 while healthy */
	uint64_t		error_pos;	/* free-running position of the fault */
	uint64_t		error_value;	/* the offending size or head */
};

/*
 * Attach a cursor to a ring described by pointers. @data_size must be a
 * power of two and at least 8. @bounce may be NULL: a 64 KiB buffer is then
 * allocated once, here. The cursor starts at the current *tail.
 */
int rt_ring_init(struct rt_ring *r, const __u64 *head, __u64 *tail,
		 const void *data, uint64_t data_size,
		 void *bounce, size_t bounce_size);

/*
 * Attach to a mapping whose first page is a control page with data_head,
 * data_tail, data_offset and data_size at offsets 1024..1055: struct
 * ringtrace_mmap_page or struct perf_event_mmap_page. data_offset and
 * data_size are validated against @map_len (power of two, 8-aligned, inside
 * the mapping, after the control page). A zero data_offset means perf's
 * pre-4.1 layout: data starts at @page_size and fills the mapping.
 */
int rt_ring_init_mmap(struct rt_ring *r, void *base, size_t map_len,
		      size_t page_size, void *bounce, size_t bounce_size);

void rt_ring_fini(struct rt_ring *r);

/*
 * (C) Load data_head and validate it. On RT_RING_OK, *avail (may be NULL)
 * is the number of unread bytes.
 */
int rt_ring_refresh(struct rt_ring *r, uint64_t *avail);

/* Next record below the head seen at the last refresh, or RT_RING_EMPTY. */
int rt_ring_peek(struct rt_ring *r, struct rt_record *rec);

/* Consume the record returned by the last successful peek (local only). */
void rt_ring_advance(struct rt_ring *r);

/*
 * Consume, without handing them out, the records below the head seen at
 * the last refresh whose 8-byte header is the same as @like's (the header
 * of a record rt_ring_peek() returned): as long, of the same type, with
 * the same misc flags, so that each decodes as that one did when no part
 * of it but its header decides how (no stack trailer, no name). A
 * consumer that only needs the bytes and the counts (raw output) decodes
 * the first record of such a run and counts the rest. A wrapped record is
 * not bounced. *@skipped gets the number consumed. RT_RING_OK: stopped
 * before a record with another header (peek at it); RT_RING_EMPTY:
 * consumed everything; or the ring's error.
 */
int rt_ring_skip_same(struct rt_ring *r, const void *like, uint64_t *skipped);

/* (D) Publish the local position as data_tail, if it moved. */
void rt_ring_release(struct rt_ring *r);

/* Bytes below the head seen at the last refresh that we have not consumed. */
static inline uint64_t rt_ring_unread(const struct rt_ring *r)
{
	return r->head_seen - r->pos;
}

/* Bytes the producer still considers used (not yet released to it). */
static inline uint64_t rt_ring_unreleased(const struct rt_ring *r)
{
	return r->head_seen - r->released;
}

const char *rt_ring_strerror(int status);

/* "record size 12 at position 4096 is not a multiple of 8" etc. */
void rt_ring_describe_error(const struct rt_ring *r, char *buf, size_t len);

#endif /* RINGTRACE_RING_H */
