// SPDX-License-Identifier: GPL-2.0-only
/* -i FILE --raw -o OUT (see rewrite.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rewrite.h"
#include "ringtrace/filter.h"
#include "ringtrace/paths.h"

/* A ring's kept records wait here until a chunk's worth is gathered. */
#define CHUNK_BYTES	(256u * 1024)

struct pending {
	unsigned char	*buf;
	size_t		len, cap;
};

struct rewrite {
	struct rt_outbuf	*out;
	struct rt_filter	*filter;	/* NULL: keep every event */
	const struct rt_source	*srcs;
	struct pending		*pending;	/* [nr] */
	uint32_t		nr;
	struct rt_source_counts	written;	/* as a replay of the copy counts */
	int			error;
};

static void flush_source(struct rewrite *rw, uint32_t i)
{
	const struct rt_source *src = &rw->srcs[i];
	struct pending *p = &rw->pending[i];
	struct rt_raw_chunk c = { .size = p->len };

	rt_raw_source_chunk(src, &c.kind, &c.cpu);
	if (!p->len)
		return;
	rt_outbuf_append(rw->out, &c, sizeof(c));
	rt_outbuf_append(rw->out, p->buf, p->len);
	p->len = 0;
}

/*
 * What names or qualifies other records, whatever the filters say: path
 * and cgroup records (a kept record's file and cgroup may have been named
 * on another CPU's ring, or before --time's start), LOST records, perf's
 * COMM, FORK and MMAP2 (not OK: skipped by the decoder), and records of
 * a type this build does not know.
 */
static bool always_kept(int ret, const struct rt_event *ev)
{
	return ret != RT_DECODE_OK || ev->kind == RT_EVENT_PATH ||
	       ev->kind == RT_EVENT_CGROUP || ev->kind == RT_EVENT_LOST;
}

static int on_record(void *arg, const struct rt_source *src,
		     const struct rt_record *rec, int ret,
		     const struct rt_event *ev)
{
	struct rewrite *rw = arg;
	uint32_t i = (uint32_t)(src - rw->srcs);
	struct pending *p = &rw->pending[i];

	if (ret == RT_DECODE_ERR_SHORT)
		return 0;		/* malformed: counted, not copied */
	if (!always_kept(ret, ev) && rw->filter &&
	    !rt_filter_pass(rw->filter, ev))
		return 0;
	rt_counts_add(&rw->written, ret, ev);
	if (p->len + rec->size > p->cap) {
		size_t cap = p->cap ? p->cap : CHUNK_BYTES;
		unsigned char *n;

		while (cap < p->len + rec->size)
			cap *= 2;
		n = realloc(p->buf, cap);
		if (!n) {
			rw->error = ENOMEM;
			return 1;
		}
		p->buf = n;
		p->cap = cap;
	}
	memcpy(p->buf + p->len, rec->data, rec->size);
	p->len += rec->size;
	if (p->len >= CHUNK_BYTES)
		flush_source(rw, i);
	return 0;
}

/* What the reader needs before the records, as the recording had it. */
static void write_descriptors(struct rt_outbuf *ob, const struct rt_raw_file *f)
{
	struct rt_raw_header h = f->hdr;

	/*
	 * The reader zero-filled what an older file's header lacks; the
	 * whole struct is written, so its size is ours (chunks follow it).
	 */
	h.header_size = sizeof(h);
	rt_raw_write_header(ob, &h);
	if (f->has_perf_format)
		rt_raw_write_perf_format(ob, &f->perf_desc);
	if (f->has_counter_names)
		rt_raw_write_counter_names(ob, &f->counter_names);
	if (f->comms)
		rt_raw_write_comms(ob, f->comms);
	for (uint32_t i = 0; i < f->nr_maps; i++) {
		struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_MAPS,
					  .size = f->maps[i].size };

		rt_outbuf_append(ob, &c, sizeof(c));
		rt_outbuf_append(ob, f->map + f->maps[i].offset, c.size);
	}
	/* Its mount points name the copy's paths as the recording's. */
	rt_raw_write_mounts(ob, &f->mounts);
	/* Its func records are named as the recording's (nothing if none). */
	rt_raw_write_func_names(ob, (const char (*)[RINGTRACE_FUNC_NAME_LEN])
				f->func_names, f->nr_func_names);
	/* ...and their arguments printed as the recording's. */
	rt_raw_write_func_args(ob, f->func_args, f->nr_func_args);
	/* The kernel symbols name the copy's frames as the recording's. */
	if (f->ksyms.offset && f->ksyms.size) {
		struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_KSYMS,
					  .size = f->ksyms.size & ~7ull };

		rt_outbuf_append(ob, &c, sizeof(c));
		rt_outbuf_append(ob, f->map + f->ksyms.offset, c.size);
	}
}

int cat_rewrite(const struct options *o, struct rt_stream *st,
		struct rt_raw_file *f, struct rt_source_counts *written)
{
	struct rewrite rw = {
		.out = st->out, .srcs = f->srcs, .nr = f->nr_srcs,
		.filter = rt_filter_active(&o->filter) ?
			  (struct rt_filter *)&o->filter : NULL,
	};
	struct rt_paths paths;
	bool own_paths = false;
	int status;

	rw.pending = calloc(f->nr_srcs ? f->nr_srcs : 1, sizeof(*rw.pending));
	if (!rw.pending) {
		snprintf(st->errmsg, sizeof(st->errmsg), "out of memory");
		return RT_STREAM_ERR_SYSTEM;
	}
	/* --filter 'path ~ ...' names files as a replay does. */
	if (rw.filter && rw.filter->nr_exprs && !st->paths) {
		if (rt_paths_init(&paths)) {
			free(rw.pending);
			snprintf(st->errmsg, sizeof(st->errmsg), "out of memory");
			return RT_STREAM_ERR_SYSTEM;
		}
		st->paths = &paths;
		own_paths = true;
	}
	write_descriptors(st->out, f);
	st->on_record = on_record;
	st->on_record_arg = &rw;
	status = rt_stream_file(st, f);
	if (rw.error && status == RT_STREAM_OK) {
		snprintf(st->errmsg, sizeof(st->errmsg), "out of memory");
		status = RT_STREAM_ERR_SYSTEM;
	}
	for (uint32_t i = 0; i < rw.nr; i++) {
		if (status == RT_STREAM_OK)
			flush_source(&rw, i);
		free(rw.pending[i].buf);
	}
	free(rw.pending);
	if (own_paths) {
		rt_paths_fini(&paths);
		st->paths = NULL;
	}
	/* Losses no LOST record reported stay said in the copy. */
	if (status == RT_STREAM_OK && f->pending_lost)
		rt_raw_write_pending(st->out, 0, f->pending_lost);
	/* So do the calls the probes missed (no filter applies to them). */
	if (status == RT_STREAM_OK && f->func_missed)
		rt_raw_write_func_missed(st->out, f->func_missed);
	if (status == RT_STREAM_OK && f->offcpu_missed)
		rt_raw_write_offcpu_missed(st->out, f->offcpu_missed);
	/* and that the calls were held, with those of faster reads. */
	if (status == RT_STREAM_OK && f->func_held)
		rt_raw_write_func_fast_read(st->out, f->func_fast_read);
	if (rt_outbuf_flush(st->out) && status == RT_STREAM_OK)
		status = RT_STREAM_ERR_OUTPUT;
	*written = rw.written;
	return status;
}

void cat_rewrite_report(FILE *out, const struct rt_raw_file *f,
			const struct rt_source_counts *w, const char *to)
{
	struct rt_source_counts in = { 0 };

	for (uint32_t i = 0; i < f->nr_srcs; i++) {
		in.records += f->srcs[i].counts.records;
		in.samples += f->srcs[i].counts.samples;
		in.counters += f->srcs[i].counts.counters;
		in.malformed += f->srcs[i].counts.malformed;
	}
	fprintf(out, PROG ": %llu of %llu records", (unsigned long long)w->records,
		(unsigned long long)in.records);
	if (in.samples)
		fprintf(out, ", %llu of %llu samples",
			(unsigned long long)w->samples,
			(unsigned long long)in.samples);
	if (in.counters)
		fprintf(out, ", %llu of %llu counter snapshots",
			(unsigned long long)w->counters,
			(unsigned long long)in.counters);
	fprintf(out, " written to %s (with every path, cgroup and LOST record, "
		"and perf's thread and mapping records)\n", to);
	if (in.malformed)
		fprintf(out, PROG ": %llu malformed records not copied\n",
			(unsigned long long)in.malformed);
}
