// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The consumer loop (see stream.h).
 *
 * One iteration: read the clock, then every ring's head (so any record
 * older than now - window that was published in time is seen), emit what
 * the window allows, release the rings, write the output, and sleep until
 * the kernel wakes us or the oldest held record's window expires.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ringtrace/barrier.h"
#include "ringtrace/record.h"
#include "ringtrace/stream.h"
#include "ringtrace/sys.h"

/* A draining round that still finds data this many times is a runaway. */
#define MAX_DRAIN_ROUNDS	1000

struct emit_ctx {
	rt_print_fn		print;
	struct rt_outbuf	*out;
	void			(*sink)(void *arg, const struct rt_event *ev);
	void			*sink_arg;
	struct rt_paths		*paths;
	int			(*on_record)(void *arg,
					     const struct rt_source *src,
					     const struct rt_record *rec,
					     int ret, const struct rt_event *ev);
	void			*on_record_arg;
};

/*
 * Walk the ring's new records for the raw path: nothing copied, every
 * record counted as a replay of the file counts it (rt_source_count() of
 * its decoding: a LOST record's count, path and cgroup records, samples,
 * malformed ones, user stacks cut at a frame-pointer loop), so that the
 * live summary and the replay's agree. A record whose header alone
 * decides its decoding (a vfs_read, lock or offcpu record without a stack
 * trailer) is decoded once for the run of records with its header, which
 * are counted without being read further: the walk of the common case
 * stays one header compare per record. Perf rings and counter snapshots
 * are decoded one by one (their own decoder). RT_RING_EMPTY when all is
 * consumed, or the ring's error.
 */
static int walk_raw(struct rt_source *src)
{
	struct ringtrace_event_header hdr;
	struct rt_record rec;
	struct rt_event ev;
	uint64_t n;
	int ret, dec;

	for (;;) {
		ret = rt_ring_peek(&src->ring, &rec);
		if (ret != RT_RING_OK)
			return ret;
		dec = rt_source_decode(src, &rec, &ev);
		rt_source_count(src, dec, &ev);
		memcpy(&hdr, rec.data, sizeof(hdr));
		rt_ring_advance(&src->ring);
		if (src->raw_kind || dec != RT_DECODE_OK ||
		    (hdr.misc & RINGTRACE_MISC_STACK) ||
		    (ev.kind != RT_EVENT_VFS_READ && ev.kind != RT_EVENT_LOCK &&
		     ev.kind != RT_EVENT_OFFCPU))
			continue;
		ret = rt_ring_skip_same(&src->ring, &hdr, &n);
		src->counts.records += n;
		if (ret != RT_RING_OK)
			return ret;
	}
}

static int emit_event(void *arg, struct rt_source *src,
		      const struct rt_record *rec, uint64_t ts)
{
	struct emit_ctx *ctx = arg;
	struct rt_event ev;
	int ret = rt_source_decode(src, rec, &ev);

	(void)ts;
	src->counts.bytes += rec->size;
	rt_source_count(src, ret, &ev);
	if (ctx->on_record) {
		/* issue 21: a rewrite's --filter sees files by name too. */
		if (ret == RT_DECODE_OK && ctx->paths &&
		    !rt_paths_take(ctx->paths, &ev))
			rt_paths_name(ctx->paths, &ev);
		return ctx->on_record(ctx->on_record_arg, src, rec, ret, &ev) ||
		       ctx->out->error != 0;
	}
	if (ret == RT_DECODE_SKIP)
		return 0;	/* perf's COMM, THROTTLE...: not a record to show */
	if (ret == RT_DECODE_OK) {
		/* Names the records that follow; nothing to print. */
		if (rt_paths_take(ctx->paths, &ev))
			return 0;
		rt_paths_name(ctx->paths, &ev);
		if (ctx->sink)
			ctx->sink(ctx->sink_arg, &ev);
		else
			ctx->print(ctx->out, &ev);
	}
	return ctx->out->error != 0;
}

static int ring_failed(struct rt_stream *st, const struct rt_source *src,
		       const char *what)
{
	char why[160];

	rt_ring_describe_error(&src->ring, why, sizeof(why));
	if (src->tid)	/* issue 9: a per-thread ring */
		snprintf(st->errmsg, sizeof(st->errmsg), "ring of thread %u: %s",
			 src->tid, why);
	else
		snprintf(st->errmsg, sizeof(st->errmsg), "%s CPU %u: %s",
			 src->label ? src->label : what, src->cpu, why);
	return RT_STREAM_ERR_DATA;
}

/*
 * Release the rings whose bytes the batch just wrote (a ring with nothing
 * new is left alone by rt_ring_release()).
 */
static void release_rings(struct rt_merge *m, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to; i++)
		rt_ring_release(&m->srcs[i]->ring);	/* (D) once per chunk */
}

/*
 * Raw output: each ring's new records, validated one by one (headers
 * only), go to the file as one chunk, straight from the mapping: up to
 * RT_RAW_BATCH_RINGS rings per writev(2), each ring released once its
 * bytes are written. No merging: the reader orders them. Every source of
 * the merge is written, the hooks' too (perf rings, counter snapshots),
 * each as its kind of chunk.
 */
static int raw_round(struct rt_stream *st, struct rt_merge *m,
		     uint64_t *moved)
{
	struct rt_raw_batch b;
	int status = RT_STREAM_OK;
	uint32_t first = 0;

	*moved = 0;
	rt_raw_batch_init(&b, st->out);
	for (uint32_t i = 0; i < m->nr; i++) {
		struct rt_source *src = m->srcs[i];
		uint32_t kind, id;
		uint64_t from;
		int ret;

		if (src->failed)
			continue;
		ret = rt_ring_refresh(&src->ring, NULL);
		from = src->ring.pos;
		if (ret == RT_RING_OK)
			ret = walk_raw(src);
		rt_raw_source_chunk(src, &kind, &id);
		rt_raw_batch_add_chunk(&b, kind, id, &src->ring, from,
				       src->ring.pos);
		src->counts.bytes += src->ring.pos - from;
		*moved += src->ring.pos - from;
		if (ret < 0 && !src->failed) {
			src->failed = true;
			if (status == RT_STREAM_OK)
				status = ring_failed(st, src, "ring of");
		}
		if (rt_raw_batch_full(&b)) {
			rt_raw_batch_write(&b);
			release_rings(m, first, i + 1);
			first = i + 1;
		}
	}
	rt_raw_batch_write(&b);
	release_rings(m, first, m->nr);
	if (st->out->error)
		return RT_STREAM_ERR_OUTPUT;
	return status;
}

static int merge_round(struct rt_stream *st, struct rt_merge *m,
		       struct emit_ctx *ctx, uint64_t now, bool drain,
		       struct rt_merge_result *res, const char *what)
{
	rt_merge_round(m, now, drain, emit_event, ctx, res);
	if (st->out->error)
		return RT_STREAM_ERR_OUTPUT;
	if (res->error)
		return ring_failed(st, res->error_src, what);
	return RT_STREAM_OK;
}

/* a + b, or UINT64_MAX ("never") where the sum would wrap. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Milliseconds (rounded up, at least 1) until @when, from @now. */

static int ms_until(uint64_t when, uint64_t now)
{
	uint64_t ms;

	if (when <= now)
		return 1;
	ms = (when - now + 999999) / 1000000;
	return ms > 60000 ? 60000 : (int)ms;
}

static int wait_for_data(struct rt_stream *st, struct rt_session *s,
			 int timeout_ms)
{
	sigset_t old;
	int ret = 0;

	if (st->stop_signals)
		sigprocmask(SIG_BLOCK, st->stop_signals, &old);
	if (!*st->stop)
		ret = rt_session_wait(s, timeout_ms,
				      st->stop_signals ? &old : NULL);
	if (st->stop_signals)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (ret < 0 && ret != -EINTR) {
		snprintf(st->errmsg, sizeof(st->errmsg),
			 "waiting for records: %s", strerror(-ret));
		return RT_STREAM_ERR_SYSTEM;
	}
	return RT_STREAM_OK;
}

/* Disable, then empty the rings (the kernel's final LOST records too). */
static int finish(struct rt_stream *st, struct rt_session *s,
		  struct rt_merge *m, struct emit_ctx *ctx, int status)
{
	struct rt_merge_result res;
	uint64_t moved;
	int ret;

	if (s->enabled && rt_session_disable(s)) {
		snprintf(st->errmsg, sizeof(st->errmsg), "%s", s->errmsg);
		if (status == RT_STREAM_OK)
			status = RT_STREAM_ERR_SYSTEM;
	}
	if (st->hooks && st->hooks->stop)
		st->hooks->stop(st->hooks->arg, rt_sys.now_ns());
	for (int round = 0; status != RT_STREAM_ERR_OUTPUT &&
			    round < MAX_DRAIN_ROUNDS; round++) {
		if (st->format == RT_FORMAT_RAW) {
			ret = raw_round(st, m, &moved);
		} else {
			ret = merge_round(st, m, ctx, rt_sys.now_ns(), true,
					  &res, "ring of");
			moved = res.emitted;
		}
		if (ret != RT_STREAM_OK && (status == RT_STREAM_OK ||
					    ret == RT_STREAM_ERR_OUTPUT))
			status = ret;
		if (!moved || ret == RT_STREAM_ERR_OUTPUT)
			break;
	}
	st->lost_pending = rt_session_lost_pending(s);
	if (st->format == RT_FORMAT_RAW && status != RT_STREAM_ERR_OUTPUT) {
		for (uint32_t i = 0; i < s->nr_rings; i++) {
			uint64_t pending = rt_load_u64_once(
				&s->rings[i].page->lost_pending);

			if (pending)
				rt_raw_write_source_pending(st->out,
							    &s->srcs[i],
							    pending);
		}
	}
	if (rt_outbuf_flush(st->out) && status == RT_STREAM_OK)
		status = RT_STREAM_ERR_OUTPUT;
	st->end_ns = rt_sys.now_ns();
	return status;
}

int rt_stream_live(struct rt_stream *st, struct rt_session *s)
{
	struct emit_ctx ctx = { rt_printer(st->format), st->out, st->sink,
				st->sink_arg, st->paths };
	struct rt_merge m;
	struct rt_merge_result res;
	uint64_t now, deadline = 0, moved, next_tick, next_interval = 0;
	uint64_t next_stats = 0;
	int status = RT_STREAM_OK, timeout;

	if (rt_merge_init(&m, s->srcs, s->nr_rings, st->window_ns) ||
	    (st->hooks && st->hooks->add_sources &&
	     st->hooks->add_sources(st->hooks->arg, &m))) {
		rt_merge_fini(&m);
		snprintf(st->errmsg, sizeof(st->errmsg), "out of memory");
		return RT_STREAM_ERR_SYSTEM;
	}
	st->start_ns = rt_sys.now_ns();
	if (st->duration_ns)
		deadline = add_sat(st->start_ns, st->duration_ns);
	if (st->interval_ns && st->on_interval)
		next_interval = add_sat(st->start_ns, st->interval_ns);
	if (st->stats_ns && st->on_stats)
		next_stats = add_sat(st->start_ns, st->stats_ns);

	for (;;) {
		now = rt_sys.now_ns();
		if (*st->stop || (deadline && now >= deadline) ||
		    (st->done && st->done(st->done_arg)))
			break;
		next_tick = 0;
		if (st->hooks && st->hooks->tick)
			next_tick = st->hooks->tick(st->hooks->arg, now);
		memset(&res, 0, sizeof(res));
		if (st->format == RT_FORMAT_RAW)
			status = raw_round(st, &m, &moved);
		else
			status = merge_round(st, &m, &ctx, now, false, &res,
					     "ring of");
		if (status == RT_STREAM_OK && next_interval && now >= next_interval) {
			/*
			 * Records are held for the window: what is emitted
			 * covers up to now - window, close enough for a view.
			 */
			st->on_interval(st->interval_arg, now);
			while (next_interval <= now)
				next_interval += st->interval_ns;
		}
		if (status == RT_STREAM_OK && next_stats && now >= next_stats) {
			st->on_stats(st->stats_arg, now);
			while (next_stats <= now)
				next_stats += st->stats_ns;
		}
		if (status == RT_STREAM_OK && rt_outbuf_flush(st->out))
			status = RT_STREAM_ERR_OUTPUT;
		if (status != RT_STREAM_OK)
			break;

		timeout = -1;
		if (res.held)
			timeout = ms_until(add_sat(res.oldest_held_ns,
						   st->window_ns), now);
		if (deadline && (timeout < 0 || timeout > ms_until(deadline, now)))
			timeout = ms_until(deadline, now);
		if (next_tick && (timeout < 0 || timeout > ms_until(next_tick, now)))
			timeout = ms_until(next_tick, now);
		if (next_interval &&
		    (timeout < 0 || timeout > ms_until(next_interval, now)))
			timeout = ms_until(next_interval, now);
		if (next_stats &&
		    (timeout < 0 || timeout > ms_until(next_stats, now)))
			timeout = ms_until(next_stats, now);
		status = wait_for_data(st, s, timeout);
		if (status != RT_STREAM_OK)
			break;
	}
	status = finish(st, s, &m, &ctx, status);
	rt_merge_fini(&m);
	return status;
}

int rt_stream_file(struct rt_stream *st, struct rt_raw_file *f)
{
	struct emit_ctx ctx = { rt_printer(st->format), st->out, st->sink,
				st->sink_arg, st->paths, st->on_record,
				st->on_record_arg };
	struct rt_merge m;
	struct rt_merge_result res;
	int status;

	if (!ctx.print && !ctx.on_record) {
		snprintf(st->errmsg, sizeof(st->errmsg),
			 "a raw file can only be decoded to text or JSON");
		return RT_STREAM_ERR_SYSTEM;
	}
	if (rt_merge_init(&m, f->srcs, f->nr_srcs, 0)) {
		snprintf(st->errmsg, sizeof(st->errmsg), "out of memory");
		return RT_STREAM_ERR_SYSTEM;
	}
	st->start_ns = rt_sys.now_ns();
	status = merge_round(st, &m, &ctx, 0, true, &res, "raw file");
	if (rt_outbuf_flush(st->out) && status == RT_STREAM_OK)
		status = RT_STREAM_ERR_OUTPUT;
	st->lost_pending = f->pending_lost;
	st->end_ns = rt_sys.now_ns();
	rt_merge_fini(&m);
	return status;
}
