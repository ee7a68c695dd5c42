// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Raw output: the file header, then ring bytes copied verbatim in chunks
 * (format in rawfile.h). One chunk per ring per drain: at high rates a
 * chunk is many records and costs two memcpy calls.
 */
#include "ringtrace/rawfile.h"

void rt_raw_write_header(struct rt_outbuf *ob, const struct rt_raw_header *h)
{
	rt_outbuf_append(ob, h, sizeof(*h));
}

void rt_raw_write_ring(struct rt_outbuf *ob, uint32_t cpu,
		       const struct rt_ring *r, uint64_t from, uint64_t to)
{
	struct rt_raw_chunk c = {
		.kind = RT_RAW_CHUNK_RECORDS, .cpu = cpu, .size = to - from,
	};
	uint64_t off = from & r->mask, first = r->size - off;

	if (from == to)
		return;
	rt_outbuf_append(ob, &c, sizeof(c));
	if (c.size <= first) {
		rt_outbuf_append(ob, r->data + off, c.size);
	} else {
		rt_outbuf_append(ob, r->data + off, first);
		rt_outbuf_append(ob, r->data, c.size - first);
	}
}

void rt_raw_write_pending(struct rt_outbuf *ob, uint32_t cpu, uint64_t lost)
{
	struct rt_raw_chunk c = {
		.kind = RT_RAW_CHUNK_PENDING, .cpu = cpu, .size = sizeof(lost),
	};

	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, &lost, sizeof(lost));
}
