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

/*
 * The least backlog a ring must hold for the reader to move to its CPU,
 * and the least slice it hands back at a time: below this, a move or a
 * write(2) costs more than it saves (the session's watermark is used
 * when larger; 256 KiB by default).
 */
#define MIN_BATCH_BYTES		(64u << 10)

/*
 * A reader that drained a busy ring on its CPU stays there until no ring
 * was busy for this long: at full rate a round that finds little comes
 * now and then (right after another), and a reader that left the CPU
 * then would be woken where the scheduler likes, which is what the move
 * was meant to avoid (a loaded host kept such a vCPU from running for
 * 150 ms while the ring filled).
 */
#define PLACEMENT_LINGER_NS	(1000ull * 1000 * 1000)

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
 * are decoded one by one (their own decoder). It stops at the first
 * record at or past @stop: RT_RING_EMPTY when it got there or consumed
 * everything (rt_ring_unread() tells), or the ring's error.
 */
static int walk_raw(struct rt_source *src, uint64_t stop)
{
	struct ringtrace_event_header hdr;
	struct rt_record rec;
	struct rt_event ev;
	uint64_t n;
	int ret, dec;

	while ((int64_t)(stop - src->ring.pos) > 0) {
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
		ret = rt_ring_skip_same_to(&src->ring, &hdr, stop, &n);
		src->counts.records += n;
		if (ret != RT_RING_OK)
			return ret;
	}
	return RT_RING_EMPTY;
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
		/* a rewrite's --filter sees files by name too. */
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
	if (src->tid)	/* a per-thread ring */
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
 * Write the batch, then release the rings: every byte walked so far is
 * written (a ring with nothing new is left alone by rt_ring_release()).
 */
static void raw_flush(struct rt_raw_batch *b, struct rt_merge *m,
		      uint64_t *batched)
{
	rt_raw_batch_write(b);
	release_rings(m, 0, m->nr);
	*batched = 0;
}

/*
 * The session's ring @i is being written fast enough to keep the reader
 * beside it once it is there (placement.h): a quarter of a batch since
 * the last round. The watermark's own wake-ups find from about that much
 * (the reader took the rest at the previous one) to a little more than a
 * watermark; the flush timer's find a trickle.
 */
static bool ring_busy(const struct rt_stream *st, const struct rt_merge *m,
		      uint32_t i)
{
	const struct rt_source *src = m->srcs[i];

	return i < st->nr_session_rings && !src->tid &&
	       rt_ring_unread(&src->ring) >= st->batch_bytes / 4;
}

/*
 * The reader came round to ring @i late: a whole watermark more than its
 * wake-up was for is waiting (three quarters of a small ring), so its
 * wake-ups are not served in time where it runs. Only then does a reader
 * that is not beside a ring move there: one that keeps up from another
 * CPU stays off the producer's, whose tasks would pay for its CPU time
 * (a function graph's records cost a traced read 0.4x of trace-cmd's
 * function_graph more when the reader drained them on the read's CPU).
 */
static bool ring_late(const struct rt_stream *st, const struct rt_merge *m,
		      uint32_t i)
{
	const struct rt_ring *r = &m->srcs[i]->ring;
	uint64_t late = 2 * st->watermark_bytes;

	if (late > r->size / 4 * 3)
		late = r->size / 4 * 3;
	return rt_ring_unread(r) >= late;
}

/*
 * Before a round: move beside the busy ring with the largest backlog,
 * the one a stall of the reader's CPU would fill first, and drain it
 * first (*@first, else m->nr). Returns how many rings are busy.
 */
static uint32_t place_reader(struct rt_stream *st, struct rt_merge *m,
			     uint32_t *first)
{
	bool beside = st->place.pinned >= 0;
	uint64_t most = 0;
	uint32_t nr_busy = 0;

	*first = m->nr;
	if (!st->place.active)
		return 0;
	for (uint32_t i = 0; i < st->nr_session_rings && i < m->nr; i++) {
		struct rt_source *src = m->srcs[i];

		if (src->failed || rt_ring_refresh(&src->ring, NULL) ||
		    !ring_busy(st, m, i) || (!beside && !ring_late(st, m, i)))
			continue;
		nr_busy++;
		if (rt_ring_unread(&src->ring) > most) {
			most = rt_ring_unread(&src->ring);
			*first = i;
		}
	}
	if (nr_busy)
		rt_placement_busy(&st->place, m->srcs[*first]->cpu);
	return nr_busy;
}

/* Ring @src's new records to the batch, written every batch_bytes. */
static int raw_ring(struct rt_stream *st, struct rt_merge *m,
		   struct rt_raw_batch *b, struct rt_source *src,
		   uint64_t *moved, uint64_t *batched)
{
	uint32_t kind, id;
	uint64_t from;
	int ret = rt_ring_refresh(&src->ring, NULL);

	rt_raw_source_chunk(src, &kind, &id);
	while (ret == RT_RING_OK && rt_ring_unread(&src->ring)) {
		uint64_t stop = src->ring.pos + st->batch_bytes;

		from = src->ring.pos;
		ret = walk_raw(src, stop);
		rt_raw_batch_add_chunk(b, kind, id, &src->ring, from,
				       src->ring.pos);
		src->counts.bytes += src->ring.pos - from;
		*moved += src->ring.pos - from;
		*batched += src->ring.pos - from;
		if (rt_raw_batch_full(b) || *batched >= st->batch_bytes)
			raw_flush(b, m, batched);
		if (ret == RT_RING_EMPTY)
			ret = RT_RING_OK;
	}
	return ret;
}

/*
 * Raw output: each ring's new records, validated one by one (headers
 * only), go to the file as chunks, straight from the mapping: up to
 * RT_RAW_BATCH_RINGS chunks per writev(2), the rings released once their
 * bytes are written. A batch is also written once it holds batch_bytes,
 * so a ring with a backlog is handed back to its producer a slice at a
 * time instead of after the whole round. Ring @first (place_reader())
 * goes first. No merging: the reader orders them. Every source of the
 * merge is written, the hooks' too (perf rings, counter snapshots), each
 * as its kind of chunk.
 */
static int raw_round(struct rt_stream *st, struct rt_merge *m,
		     uint32_t first, uint64_t *moved)
{
	struct rt_raw_batch b;
	int status = RT_STREAM_OK;
	uint64_t batched = 0;

	*moved = 0;
	rt_raw_batch_init(&b, st->out);
	for (uint32_t k = 0; k <= m->nr; k++) {
		/* @first, then every other ring in order. */
		uint32_t i = k ? k - 1 : first;
		struct rt_source *src;
		int ret;

		if (i >= m->nr || (k && i == first))
			continue;
		src = m->srcs[i];
		if (src->failed)
			continue;
		ret = raw_ring(st, m, &b, src, moved, &batched);
		if (ret < 0 && !src->failed) {
			src->failed = true;
			if (status == RT_STREAM_OK)
				status = ring_failed(st, src, "ring of");
		}
	}
	raw_flush(&b, m, &batched);
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

/*
 * The calls the probes of the session's functions missed, and those it
 * held inside reads faster than its min_latency_ns (when it held them),
 * read after DISABLE (which keeps them). A recording ends with them, so
 * that a replay says them: the held ones even when none, so that the
 * replay knows the calls were held.
 */
static void func_missed(struct rt_stream *st, struct rt_session *s)
{
	struct ringtrace_stats k;

	if (!s->nr_funcs || rt_session_stats(s, &k))
		return;
	st->func_missed = k.func_missed;
	if (st->format == RT_FORMAT_RAW && k.func_missed)
		rt_raw_write_func_missed(st->out, k.func_missed);
	if (!s->func_hold_kernel)
		return;
	st->func_held = true;
	st->func_fast_read = k.func_fast_read;
	if (st->format == RT_FORMAT_RAW)
		rt_raw_write_func_fast_read(st->out, k.func_fast_read);
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
			ret = raw_round(st, m, m->nr, &moved);
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
	if (status != RT_STREAM_ERR_OUTPUT) {
		func_missed(st, s);
		st->offcpu_missed = rt_session_offcpu_missed(s);
		if (st->format == RT_FORMAT_RAW && st->offcpu_missed)
			rt_raw_write_offcpu_missed(st->out, st->offcpu_missed);
	}
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
	uint64_t last_busy = 0;
	uint32_t nr_busy, first;

	/* Mount-relative paths (PREEMPT_RT) named from the reader's mounts. */
	if (st->paths)
		rt_paths_use_own_mounts(st->paths);
	if (rt_merge_init(&m, s->srcs, s->nr_rings, st->window_ns) ||
	    (st->hooks && st->hooks->add_sources &&
	     st->hooks->add_sources(st->hooks->arg, &m))) {
		rt_merge_fini(&m);
		snprintf(st->errmsg, sizeof(st->errmsg), "out of memory");
		return RT_STREAM_ERR_SYSTEM;
	}
	st->nr_session_rings = s->nr_rings;
	st->batch_bytes = s->watermark > MIN_BATCH_BYTES ? s->watermark :
							   MIN_BATCH_BYTES;
	st->watermark_bytes = s->watermark;
	m.release_bytes = st->batch_bytes;
	rt_placement_start(&st->place, st->follow_rings, s->info.nr_cpu_ids,
			   RT_READER_NICE);
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
		nr_busy = place_reader(st, &m, &first);
		if (st->format == RT_FORMAT_RAW)
			status = raw_round(st, &m, first, &moved);
		else
			status = merge_round(st, &m, &ctx, now, false, &res,
					     "ring of");
		if (nr_busy)
			last_busy = now;
		/*
		 * Beside the one busy ring, stay: its wake-ups then find us
		 * there. With several, the next wake-up is the scheduler's
		 * to place, beside the CPU that sent it if it likes; with
		 * none for a while, nothing to keep up with.
		 */
		if (nr_busy > 1 ||
		    (!nr_busy && now - last_busy >= PLACEMENT_LINGER_NS))
			rt_placement_idle(&st->place);
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
	rt_placement_stop(&st->place);
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

	/* Mount-relative paths named from the recording's mount table. */
	if (st->paths && f->mounts.text)
		st->paths->mounts = &f->mounts;

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
	st->func_missed = f->func_missed;
	st->func_held = f->func_held;
	st->func_fast_read = f->func_fast_read;
	st->offcpu_missed = f->offcpu_missed;
	st->end_ns = rt_sys.now_ns();
	rt_merge_fini(&m);
	return status;
}
