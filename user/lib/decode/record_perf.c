// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Decoding perf's own ring records into struct rt_event (record.h), so a
 * perf sample prints through the same printers as a vfs_read record.
 *
 * A perf record's layout is not fixed: PERF_RECORD_SAMPLE holds the
 * fields its event's sample_type asks for, in the kernel's order, and
 * with sample_id_all every other record ends with a "sample_id" trailer
 * (tid, time, id, stream_id, cpu, identifier: those sample_type has).
 * rt_perf_format_init() turns the sample_type into offsets once. Every
 * read is a memcpy checked against the record's validated size.
 */
#include <errno.h>
#include <string.h>

#include <linux/perf_event.h>

#include "ringtrace/record.h"

/* Fields we can parse (or step over) up to and including the callchain. */
#define KNOWN_SAMPLE_BITS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			   PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			   PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

#define HDR	((uint32_t)sizeof(struct perf_event_header))
#define U64	((uint32_t)sizeof(uint64_t))

int rt_perf_format_init(struct rt_perf_format *f, uint64_t sample_type,
			bool sample_id_all, const char *event)
{
	uint32_t off = HDR;

	memset(f, 0, sizeof(*f));
	if (sample_type & ~(uint64_t)KNOWN_SAMPLE_BITS)
		return -EINVAL;
	f->sample_type = sample_type;
	f->sample_id_all = sample_id_all;
	f->event = event;

	/* PERF_RECORD_SAMPLE: identifier, ip, tid, then time. */
	off += (sample_type & PERF_SAMPLE_IDENTIFIER) ? U64 : 0;
	off += (sample_type & PERF_SAMPLE_IP) ? U64 : 0;
	off += (sample_type & PERF_SAMPLE_TID) ? U64 : 0;
	f->time_off = (sample_type & PERF_SAMPLE_TIME) ? off : 0;

	/* The sample_id trailer: tid, time, id, stream_id, cpu, identifier. */
	f->id_tid_off = f->id_time_off = f->id_cpu_off = -1;
	if (!sample_id_all)
		return 0;
	if (sample_type & PERF_SAMPLE_TID) {
		f->id_tid_off = (int32_t)f->id_len;
		f->id_len += U64;
	}
	if (sample_type & PERF_SAMPLE_TIME) {
		f->id_time_off = (int32_t)f->id_len;
		f->id_len += U64;
	}
	f->id_len += (sample_type & PERF_SAMPLE_ID) ? U64 : 0;
	f->id_len += (sample_type & PERF_SAMPLE_STREAM_ID) ? U64 : 0;
	if (sample_type & PERF_SAMPLE_CPU) {
		f->id_cpu_off = (int32_t)f->id_len;
		f->id_len += U64;
	}
	f->id_len += (sample_type & PERF_SAMPLE_IDENTIFIER) ? U64 : 0;
	return 0;
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

uint64_t rt_perf_record_ts(const struct rt_perf_format *f, const void *rec,
			   size_t size)
{
	const unsigned char *p = rec;
	struct perf_event_header hdr;

	if (size < HDR)
		return 0;
	memcpy(&hdr, p, sizeof(hdr));
	if (hdr.type == PERF_RECORD_SAMPLE)
		return f->time_off && size >= f->time_off + U64 ?
		       get_u64(p + f->time_off) : 0;
	if (f->id_time_off < 0 || size < HDR + f->id_len)
		return 0;
	return get_u64(p + size - f->id_len + f->id_time_off);
}

/* Fill ts/cpu (and tid when @with_task) from the sample_id trailer. */
static void trailer(const struct rt_perf_format *f, const unsigned char *p,
		    size_t size, bool with_task, struct rt_event *ev)
{
	const unsigned char *id = p + size - f->id_len;

	if (!f->sample_id_all)
		return;
	if (f->id_time_off >= 0)
		ev->ts_ns = get_u64(id + f->id_time_off);
	if (f->id_cpu_off >= 0)
		ev->cpu = get_u32(id + f->id_cpu_off);
	if (with_task && f->id_tid_off >= 0) {
		ev->pid = get_u32(id + f->id_tid_off);
		ev->tid = get_u32(id + f->id_tid_off + 4);
	}
}

/* Entries of a callchain left once a trailing run of one frame is cut. */
static uint32_t cut_fp_loop(const unsigned char *frames, uint32_t nr,
			    bool *cut)
{
	uint64_t last;
	uint32_t i;

	if (nr < RT_FP_LOOP_RUN)
		return nr;
	last = get_u64(frames + (size_t)(nr - 1) * U64);
	if (last >= RT_PERF_CONTEXT_MARKERS)
		return nr;
	for (i = nr - 1; i && get_u64(frames + (size_t)(i - 1) * U64) == last; i--)
		;
	if (nr - i < RT_FP_LOOP_RUN)
		return nr;
	*cut = true;
	return i + 1;
}

static int decode_sample(const struct rt_perf_format *f,
			 const unsigned char *p, size_t size,
			 struct rt_event *ev)
{
	struct rt_sample_event *s = &ev->u.sample;
	uint64_t t = f->sample_type, nr;
	size_t off = HDR;

#define NEED(n)	do { if (size < off + (n)) return RT_DECODE_ERR_SHORT; } while (0)
	ev->kind = RT_EVENT_SAMPLE;
	memset(s, 0, sizeof(*s));
	s->event = f->event;
	if (t & PERF_SAMPLE_IDENTIFIER)
		off += U64;
	if (t & PERF_SAMPLE_IP) {
		NEED(U64);
		s->ip = get_u64(p + off);
		off += U64;
	}
	if (t & PERF_SAMPLE_TID) {
		NEED(U64);
		ev->pid = get_u32(p + off);
		ev->tid = get_u32(p + off + 4);
		off += U64;
	}
	if (t & PERF_SAMPLE_TIME) {
		NEED(U64);
		ev->ts_ns = get_u64(p + off);
		off += U64;
	}
	off += (t & PERF_SAMPLE_ADDR) ? U64 : 0;
	off += (t & PERF_SAMPLE_ID) ? U64 : 0;
	off += (t & PERF_SAMPLE_STREAM_ID) ? U64 : 0;
	if (t & PERF_SAMPLE_CPU) {
		NEED(U64);
		ev->cpu = get_u32(p + off);
		off += U64;
	}
	if (t & PERF_SAMPLE_PERIOD) {
		NEED(U64);
		s->period = get_u64(p + off);
		off += U64;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		NEED(U64);
		nr = get_u64(p + off);
		off += U64;
		/* Checked by division: nr comes from the ring, it may be huge. */
		if (nr > (size - off) / U64)
			return RT_DECODE_ERR_SHORT;
		s->frames = nr ? p + off : NULL;
		s->nr_frames = cut_fp_loop(p + off, (uint32_t)nr, &s->fp_loop);
		off += nr * U64;
	}
	NEED(0);
#undef NEED
	return RT_DECODE_OK;
}

/*
 * pid, tid, addr, len, pgoff, then maj, min, ino, ino_generation or (misc
 * PERF_RECORD_MISC_MMAP_BUILD_ID) the build-id's size and bytes, prot,
 * flags, filename[] (NUL-terminated, padded), the sample_id trailer.
 */
#define MMAP2_FIXED	(HDR + 8 + 3 * U64 + 24 + 8)

static int decode_mmap2(const struct rt_perf_format *f,
			const unsigned char *p, size_t size,
			struct rt_event *ev)
{
	struct rt_mmap_event *m = &ev->u.mmap;
	size_t id = f->sample_id_all ? f->id_len : 0;
	struct perf_event_header hdr;
	const unsigned char *name;

	if (size < MMAP2_FIXED + id + 1)
		return RT_DECODE_ERR_SHORT;
	memcpy(&hdr, p, sizeof(hdr));
	name = p + MMAP2_FIXED;
	if (!memchr(name, '\0', size - MMAP2_FIXED - id))
		return RT_DECODE_ERR_SHORT;
	ev->kind = RT_EVENT_MMAP;
	ev->pid = get_u32(p + HDR);
	ev->tid = get_u32(p + HDR + 4);
	memset(m, 0, sizeof(*m));
	m->start = get_u64(p + HDR + 8);
	m->len = get_u64(p + HDR + 8 + U64);
	m->pgoff = get_u64(p + HDR + 8 + 2 * U64);
	m->path = (const char *)name;
	if ((hdr.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    p[HDR + 8 + 3 * U64] <= 20) {
		m->build_id_len = p[HDR + 8 + 3 * U64];
		m->build_id = p + HDR + 8 + 3 * U64 + 4;
	}
	trailer(f, p, size, false, ev);
	return RT_DECODE_OK;
}

int rt_decode_perf(const struct rt_perf_format *f, const void *rec,
		   size_t size, uint32_t ring_cpu, struct rt_event *ev)
{
	const unsigned char *p = rec;
	struct perf_event_header hdr;
	size_t fixed;

	ev->kind = RT_EVENT_UNKNOWN;
	ev->ts_ns = 0;
	ev->cpu = ring_cpu;
	ev->pid = 0;
	ev->tid = 0;
	ev->comm[0] = '\0';
	memset(&ev->ext, 0, sizeof(ev->ext));	/* perf records have none */
	if (size < HDR)
		return RT_DECODE_ERR_SHORT;
	memcpy(&hdr, p, sizeof(hdr));
	ev->raw_type = hdr.type;

	switch (hdr.type) {
	case PERF_RECORD_SAMPLE:
		return decode_sample(f, p, size, ev);
	case PERF_RECORD_LOST:			/* id, lost */
	case PERF_RECORD_LOST_SAMPLES:		/* lost */
		fixed = HDR + (hdr.type == PERF_RECORD_LOST ? 2 : 1) * U64;
		if (size < fixed + (f->sample_id_all ? f->id_len : 0))
			return RT_DECODE_ERR_SHORT;
		ev->kind = RT_EVENT_LOST;
		ev->u.lost.count = get_u64(p + fixed - U64);
		ev->u.lost.source = "perf";
		trailer(f, p, size, false, ev);
		return RT_DECODE_OK;
	case PERF_RECORD_COMM: {		/* pid, tid, comm[] */
		size_t id = f->sample_id_all ? f->id_len : 0;
		size_t n;

		if (size < HDR + U64 + id + 1)
			return RT_DECODE_ERR_SHORT;
		ev->kind = RT_EVENT_COMM;
		ev->pid = get_u32(p + HDR);
		ev->tid = get_u32(p + HDR + 4);
		n = size - HDR - U64 - id;
		if (n > RINGTRACE_COMM_LEN)
			n = RINGTRACE_COMM_LEN;
		memcpy(ev->comm, p + HDR + U64, n);
		ev->comm[n] = '\0';
		trailer(f, p, size, false, ev);
		return RT_DECODE_OK;
	}
	case PERF_RECORD_FORK:	/* pid, ppid, tid, ptid, time */
		if (size < HDR + 2 * U64 + U64 +
			   (f->sample_id_all ? f->id_len : 0))
			return RT_DECODE_ERR_SHORT;
		ev->kind = RT_EVENT_FORK;
		ev->pid = get_u32(p + HDR);
		ev->u.fork.ppid = get_u32(p + HDR + 4);
		ev->tid = get_u32(p + HDR + 8);
		ev->u.fork.ptid = get_u32(p + HDR + 12);
		trailer(f, p, size, false, ev);
		return RT_DECODE_OK;
	case PERF_RECORD_MMAP2:
		return decode_mmap2(f, p, size, ev);
	}
	ev->ts_ns = rt_perf_record_ts(f, rec, size);
	/* The other records perf defines carry nothing we print. */
	if (hdr.type && hdr.type < PERF_RECORD_MAX)
		return RT_DECODE_SKIP;
	return RT_DECODE_UNKNOWN;
}
