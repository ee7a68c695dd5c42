// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Raw output: the file header, then ring bytes verbatim in chunks (format
 * in rawfile.h). One chunk per ring per drain. The live path (the batch)
 * hands the mapped ring bytes to writev(2): the records are never copied
 * in user space, and a wake-up costs one system call for up to
 * RT_RAW_BATCH_RINGS rings. rt_raw_write_ring() copies into the output
 * buffer instead, for callers that release the ring before writing.
 */
#include <string.h>

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

void rt_raw_write_func_missed(struct rt_outbuf *ob, uint64_t missed)
{
	struct rt_raw_chunk c = {
		.kind = RT_RAW_CHUNK_FUNC_MISSED, .size = sizeof(missed),
	};

	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, &missed, sizeof(missed));
}

/*
 * Each name NUL-terminated and NUL-padded to its 64 bytes, whatever
 * followed its NUL in @names: the reader checks every one (rawfile.c).
 */
void rt_raw_write_func_names(struct rt_outbuf *ob,
			     const char (*names)[RINGTRACE_FUNC_NAME_LEN],
			     uint32_t nr)
{
	struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_FUNC_NAMES };

	if (!nr || nr > RINGTRACE_MAX_FUNCS)
		return;
	c.size = (uint64_t)nr * RINGTRACE_FUNC_NAME_LEN;
	rt_outbuf_append(ob, &c, sizeof(c));
	for (uint32_t i = 0; i < nr; i++) {
		char name[RINGTRACE_FUNC_NAME_LEN] = { 0 };

		memcpy(name, names[i],
		       strnlen(names[i], RINGTRACE_FUNC_NAME_LEN - 1));
		rt_outbuf_append(ob, name, sizeof(name));
	}
}

/*
 * Each entry as it is, but what past its nr_args and past each name's
 * NUL zeroed, so that the file holds nothing of the writer's memory.
 */
void rt_raw_write_func_args(struct rt_outbuf *ob,
			    const struct rt_func_arg_descs *descs,
			    uint32_t nr)
{
	struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_FUNC_ARGS };
	bool any = false;

	if (!descs || !nr || nr > RINGTRACE_MAX_FUNCS)
		return;
	for (uint32_t i = 0; i < nr; i++)
		any |= descs[i].nr_args != 0;
	if (!any)
		return;
	c.size = (uint64_t)nr * sizeof(*descs);
	rt_outbuf_append(ob, &c, sizeof(c));
	for (uint32_t i = 0; i < nr; i++) {
		struct rt_func_arg_descs d = { 0 };

		d.nr_args = descs[i].nr_args <= RT_FUNC_ARG_DESCS ?
			    descs[i].nr_args : 0;
		for (uint32_t j = 0; j < d.nr_args; j++) {
			const struct rt_func_arg_desc *a = &descs[i].arg[j];

			memcpy(d.arg[j].name, a->name,
			       strnlen(a->name, RT_FUNC_ARG_NAME_LEN - 1));
			d.arg[j].size = a->size;
			d.arg[j].is_ptr = a->is_ptr;
			d.arg[j].is_signed = a->is_signed;
		}
		rt_outbuf_append(ob, &d, sizeof(d));
	}
}

void rt_raw_write_offcpu_missed(struct rt_outbuf *ob, uint64_t missed)
{
	struct rt_raw_chunk c = {
		.kind = RT_RAW_CHUNK_OFFCPU_MISSED, .size = sizeof(missed),
	};

	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, &missed, sizeof(missed));
}

void rt_raw_write_func_fast_read(struct rt_outbuf *ob, uint64_t calls)
{
	struct rt_raw_chunk c = {
		.kind = RT_RAW_CHUNK_FUNC_FAST_READ, .size = sizeof(calls),
	};

	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, &calls, sizeof(calls));
}

void rt_raw_write_source_pending(struct rt_outbuf *ob,
				 const struct rt_source *src, uint64_t lost)
{
	struct rt_raw_chunk c = {
		.kind = src->tid ? RT_RAW_CHUNK_THREAD_PENDING :
				   RT_RAW_CHUNK_PENDING,
		.cpu = src->tid ? src->tid : src->cpu, .size = sizeof(lost),
	};

	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, &lost, sizeof(lost));
}

static void write_desc(struct rt_outbuf *ob, uint32_t kind, const void *p,
		       uint64_t size)
{
	struct rt_raw_chunk c = { .kind = kind, .size = size };

	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, p, size);
}

void rt_raw_write_perf_format(struct rt_outbuf *ob,
			      const struct rt_raw_perf_format *pf)
{
	write_desc(ob, RT_RAW_CHUNK_PERF_FORMAT, pf, sizeof(*pf));
}

void rt_raw_write_counter_names(struct rt_outbuf *ob,
				const struct rt_raw_counter_names *cn)
{
	write_desc(ob, RT_RAW_CHUNK_COUNTER_NAMES, cn, sizeof(*cn));
}

void rt_raw_write_comms(struct rt_outbuf *ob, const struct rt_comm_cache *c)
{
	struct rt_raw_chunk h = { .kind = RT_RAW_CHUNK_COMMS };
	uint32_t n = 0;

	for (uint32_t i = 0; i < RT_COMM_CACHE_SLOTS; i++)
		n += c->e[i].key != 0;
	if (!n)
		return;
	h.size = (uint64_t)n * sizeof(struct rt_raw_comm);
	rt_outbuf_append(ob, &h, sizeof(h));
	for (uint32_t i = 0; i < RT_COMM_CACHE_SLOTS; i++) {
		struct rt_raw_comm rc = { .tid = c->e[i].key - 1 };

		if (!c->e[i].key)
			continue;
		memcpy(rc.comm, c->e[i].comm, sizeof(rc.comm));
		rt_outbuf_append(ob, &rc, sizeof(rc));
	}
}

void rt_raw_batch_init(struct rt_raw_batch *b, struct rt_outbuf *ob)
{
	b->ob = ob;
	b->nr_chunks = 0;
	b->nr_iov = 0;
}

static void batch_piece(struct rt_raw_batch *b, const void *p, size_t n)
{
	struct iovec *v = &b->iov[1 + b->nr_iov++];

	v->iov_base = (void *)p;
	v->iov_len = n;
}

void rt_raw_batch_add_ring(struct rt_raw_batch *b, uint32_t cpu,
			   const struct rt_ring *r, uint64_t from, uint64_t to)
{
	rt_raw_batch_add_chunk(b, RT_RAW_CHUNK_RECORDS, cpu, r, from, to);
}

void rt_raw_batch_add_chunk(struct rt_raw_batch *b, uint32_t kind,
			    uint32_t cpu, const struct rt_ring *r,
			    uint64_t from, uint64_t to)
{
	struct rt_raw_chunk *c = &b->chunks[b->nr_chunks++];
	uint64_t off = from & r->mask, first = r->size - off;

	if (from == to) {
		b->nr_chunks--;
		return;
	}
	*c = (struct rt_raw_chunk) {
		.kind = kind, .cpu = cpu, .size = to - from,
	};
	batch_piece(b, c, sizeof(*c));
	if (c->size <= first) {
		batch_piece(b, r->data + off, c->size);
	} else {
		batch_piece(b, r->data + off, first);
		batch_piece(b, r->data, c->size - first);
	}
}

int rt_raw_batch_write(struct rt_raw_batch *b)
{
	int ret = 0;

	if (b->nr_iov || b->ob->len)
		ret = rt_outbuf_writev(b->ob, b->iov, b->nr_iov);
	b->nr_chunks = 0;
	b->nr_iov = 0;
	return ret;
}
