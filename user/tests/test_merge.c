// SPDX-License-Identifier: GPL-2.0-only
/*
 * The k-way merge: records from several rings come out in timestamp order
 * (ties: lower source first), one ring's own order is never changed, the
 * reordering window holds young records IN the ring (data_tail stays before
 * them), draining emits everything, ring pressure forces early emission,
 * a corrupt ring is reported once while the others go on, a consumer
 * can stop a round with the tail released exactly past what it took, and
 * sources added later from another array (perf rings) merge with their
 * own timestamp and decode functions, ties going to the earlier-added.
 */
#include "test.h"

#include "ringtrace/merge.h"
#include "ringtrace/record.h"
#include "fake_ring.h"

#define NR	3

struct fixture {
	struct fake_ring	fr[NR];
	struct rt_source	src[NR];
	struct rt_merge		m;
	uint64_t		ts[256];
	uint32_t		cpu[256];
	unsigned int		n;
	unsigned int		stop_after;	/* 0: never */
	unsigned int		forced_seen;	/* emitted with emit_forced */
};

static int setup_sized(void **state, uint64_t size)
{
	struct fixture *f = calloc(1, sizeof(*f));

	for (uint32_t i = 0; i < NR; i++) {
		fake_ring_init(&f->fr[i], size, i);
		rt_source_init(&f->src[i], i);
		assert_int_equal(rt_ring_init_mmap(&f->src[i].ring, f->fr[i].base,
						   f->fr[i].map_len, FAKE_PAGE,
						   NULL, 0), RT_RING_OK);
	}
	assert_int_equal(rt_merge_init(&f->m, f->src, NR, 1000), 0);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_sized(state, 8192);
}

static int setup_small(void **state)
{
	return setup_sized(state, 1024);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	for (int i = 0; i < NR; i++) {
		rt_ring_fini(&f->src[i].ring);
		fake_ring_free(&f->fr[i]);
	}
	rt_merge_fini(&f->m);
	free(f);
	return 0;
}

static int collect(void *arg, struct rt_source *src,
		   const struct rt_record *rec, uint64_t ts)
{
	struct fixture *f = arg;

	assert_int_equal(ts, rt_record_ts(rec->data, rec->size));
	f->ts[f->n] = ts;
	f->cpu[f->n++] = src->cpu;
	f->forced_seen += src->emit_forced;
	return f->stop_after && f->n >= f->stop_after;
}

static void put(struct fixture *f, int ring, uint64_t ts)
{
	assert_true(fake_ring_vfs_read(&f->fr[ring], ts));
}

static void round_at(struct fixture *f, uint64_t now, bool drain,
		     struct rt_merge_result *res)
{
	rt_merge_round(&f->m, now, drain, collect, f, res);
}

static void test_merges_in_timestamp_order(void **state)
{
	struct fixture *f = *state;
	struct rt_merge_result res;
	static const uint64_t a[] = { 5, 9, 30, 31 }, b[] = { 1, 9, 40 },
			      c[] = { 2, 3, 4, 50 };
	static const uint64_t want[] = { 1, 2, 3, 4, 5, 9, 9, 30, 31, 40, 50 };
	static const uint32_t want_cpu[] = { 1, 2, 2, 2, 0, 0, 1, 0, 0, 1, 2 };

	for (size_t i = 0; i < 4; i++)
		put(f, 0, a[i]);
	for (size_t i = 0; i < 3; i++)
		put(f, 1, b[i]);
	for (size_t i = 0; i < 4; i++)
		put(f, 2, c[i]);
	round_at(f, 0, true, &res);
	assert_int_equal(res.emitted, 11);
	assert_int_equal(f->n, 11);
	for (unsigned int i = 0; i < f->n; i++) {
		assert_int_equal(f->ts[i], want[i]);
		assert_int_equal(f->cpu[i], want_cpu[i]);	/* tie: cpu 0 first */
	}
	for (int i = 0; i < NR; i++)
		assert_int_equal(f->fr[i].page->data_tail, f->fr[i].head);
}

/* An interrupt can write a later timestamp first: ring order is kept. */
static void test_keeps_ring_order(void **state)
{
	struct fixture *f = *state;
	struct rt_merge_result res;

	put(f, 0, 10);
	put(f, 0, 5);
	put(f, 0, 20);
	put(f, 1, 7);
	round_at(f, 0, true, &res);
	assert_int_equal(f->n, 4);
	assert_int_equal(f->ts[0], 7);
	assert_int_equal(f->ts[1], 10);
	assert_int_equal(f->ts[2], 5);
	assert_int_equal(f->ts[3], 20);
}

static void test_window_holds_records_in_ring(void **state)
{
	struct fixture *f = *state;
	struct rt_merge_result res;
	const uint64_t rec = sizeof(struct ringtrace_vfs_read_record);

	put(f, 0, 100);
	put(f, 0, 2500);
	put(f, 1, 50);
	put(f, 1, 1900);
	/* now 3000, window 1000: only ts <= 2000 may go. */
	round_at(f, 3000, false, &res);
	assert_int_equal(res.emitted, 3);
	assert_int_equal(f->ts[0], 50);
	assert_int_equal(f->ts[1], 100);
	assert_int_equal(f->ts[2], 1900);
	assert_true(res.held);
	assert_int_equal(res.oldest_held_ns, 2500);
	/* The held record still occupies its ring. */
	assert_int_equal(f->fr[0].page->data_tail, rec);
	assert_int_equal(f->fr[1].page->data_tail, 2 * rec);

	round_at(f, 3499, false, &res);
	assert_int_equal(res.emitted, 0);
	assert_true(res.held);
	round_at(f, 3500, false, &res);
	assert_int_equal(res.emitted, 1);
	assert_false(res.held);
	assert_int_equal(f->ts[3], 2500);
	assert_int_equal(f->fr[0].page->data_tail, 2 * rec);
}

/* A young record on one ring holds back nothing older on other rings. */
static void test_window_is_per_record(void **state)
{
	struct fixture *f = *state;
	struct rt_merge_result res;

	put(f, 0, 9000);
	put(f, 1, 10);
	put(f, 2, 20);
	round_at(f, 5000, false, &res);
	assert_int_equal(f->n, 2);
	assert_true(res.held);
	round_at(f, 0, true, &res);		/* final drain: everything */
	assert_int_equal(f->n, 3);
	assert_int_equal(f->ts[2], 9000);
	assert_false(res.held);
}

static void test_pressure_forces_emission(void **state)
{
	struct fixture *f = *state;
	struct rt_merge_result res;
	unsigned int written = 0;

	/* 1024-byte rings: 6 records of 96 bytes fill more than half. */
	for (uint64_t ts = 1000; ts < 1006; ts++, written++)
		put(f, 0, ts);
	put(f, 1, 1003);
	round_at(f, 10, false, &res);		/* all far inside the window */
	assert_true(res.forced > 0);
	assert_int_equal(res.emitted, res.forced);
	/* Emitted oldest first until ring 0 is at most a quarter full. */
	assert_true(rt_ring_unread(&f->src[0].ring) <= 1024 / 4);
	for (unsigned int i = 1; i < f->n; i++)
		assert_true(f->ts[i - 1] <= f->ts[i]);
	/* Each forced record is flagged to the emitter, which counts it. */
	assert_int_equal(f->forced_seen, res.forced);
	assert_false(f->src[0].emit_forced || f->src[1].emit_forced);
	assert_true(res.held);
	assert_true(f->n < written + 1);
}

static void test_corrupt_ring_reported_once(void **state)
{
	struct fixture *f = *state;
	struct rt_merge_result res;
	struct ringtrace_event_header bad = { .type = 2, .size = 12 };

	put(f, 0, 1);
	put(f, 0, 3);
	put(f, 1, 2);
	fake_ring_poke(&f->fr[1], f->fr[1].head, &bad, sizeof(bad));
	fake_ring_set_head(&f->fr[1], f->fr[1].head + 16);
	round_at(f, 0, true, &res);
	assert_int_equal(res.error, RT_RING_ERR_SIZE_UNALIGNED);
	assert_ptr_equal(res.error_src, &f->src[1]);
	assert_int_equal(f->n, 3);		/* the good records all came out */
	put(f, 0, 4);
	round_at(f, 0, true, &res);
	assert_int_equal(res.error, 0);		/* not reported again */
	assert_int_equal(f->n, 4);
}

static void test_consumer_can_stop(void **state)
{
	struct fixture *f = *state;
	struct rt_merge_result res;
	const uint64_t rec = sizeof(struct ringtrace_vfs_read_record);

	put(f, 0, 1);
	put(f, 1, 2);
	put(f, 0, 3);
	f->stop_after = 2;
	round_at(f, 0, true, &res);
	assert_int_equal(res.stopped, 1);
	assert_int_equal(res.emitted, 2);
	assert_int_equal(f->fr[0].page->data_tail, rec);
	assert_int_equal(f->fr[1].page->data_tail, rec);
}

/* A source of another kind: its time is the record's + 100. */
static uint64_t plus_100(const struct rt_source *src,
			 const struct rt_record *rec)
{
	(void)src;
	return rt_record_ts(rec->data, rec->size) + 100;
}

static int decode_as_lost(struct rt_source *src, const struct rt_record *rec,
			  struct rt_event *ev)
{
	(void)rec;
	ev->kind = RT_EVENT_LOST;
	ev->u.lost.count = src->cpu;
	return RT_DECODE_OK;
}

static int collect_any(void *arg, struct rt_source *src,
		       const struct rt_record *rec, uint64_t ts)
{
	struct fixture *f = arg;

	assert_int_equal(ts, src->timestamp(src, rec));
	f->ts[f->n] = ts;
	f->cpu[f->n++] = src->cpu;
	return 0;
}

static void test_added_sources(void **state)
{
	struct fixture *f = *state;
	struct fake_ring extra_ring[2];
	struct rt_source extra[2];
	struct rt_merge_result res;
	struct rt_record rec;
	struct rt_event ev;
	static const uint64_t want[] = { 10, 105, 110, 110, 110, 120, 200 };
	static const uint32_t want_cpu[] = { 0, 10, 1, 11, 11, 2, 10 };

	for (uint32_t i = 0; i < 2; i++) {
		fake_ring_init(&extra_ring[i], 4096, 10 + i);
		rt_source_init(&extra[i], 10 + i);
		extra[i].timestamp = plus_100;
		extra[i].decode = decode_as_lost;
		assert_int_equal(rt_ring_init_mmap(&extra[i].ring,
						   extra_ring[i].base,
						   extra_ring[i].map_len,
						   FAKE_PAGE, NULL, 0), 0);
	}
	assert_int_equal(rt_merge_add(&f->m, extra, 2), 0);
	assert_int_equal(f->m.nr, NR + 2);
	assert_int_equal(extra[1].index, NR + 1);

	put(f, 0, 10);
	put(f, 1, 110);
	put(f, 2, 120);
	assert_true(fake_ring_vfs_read(&extra_ring[0], 5));	/* 105 */
	assert_true(fake_ring_vfs_read(&extra_ring[0], 100));	/* 200 */
	assert_true(fake_ring_vfs_read(&extra_ring[1], 10));	/* 110: tie */
	assert_true(fake_ring_vfs_read(&extra_ring[1], 10));
	rt_merge_round(&f->m, 0, true, collect_any, f, &res);
	assert_int_equal(f->n, 7);
	for (unsigned int i = 0; i < f->n; i++) {
		assert_int_equal(f->ts[i], want[i]);
		assert_int_equal(f->cpu[i], want_cpu[i]);
	}
	/* Each source decodes with its own decoder; the default is ringtrace's. */
	assert_true(fake_ring_vfs_read(&extra_ring[1], 1));
	assert_int_equal(rt_ring_refresh(&extra[1].ring, NULL), 0);
	assert_int_equal(rt_ring_peek(&extra[1].ring, &rec), 0);
	assert_int_equal(rt_source_decode(&extra[1], &rec, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_LOST);
	assert_int_equal(ev.u.lost.count, 11);
	assert_int_equal(rt_source_decode(&f->src[0], &rec, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_VFS_READ);
	for (uint32_t i = 0; i < 2; i++) {
		rt_ring_fini(&extra[i].ring);
		fake_ring_free(&extra_ring[i]);
	}
}

/*
 * "N records emitted before their reorder window expired"
 * exceeded the records it was about (LOST records and perf's bookkeeping
 * were counted as forced, not as records). Forced counts only what is
 * counted, each kind in its own counter.
 */
static void test_forced_within_counted(void **state)
{
	struct rt_source src;
	struct rt_event ev = { .kind = RT_EVENT_VFS_READ };
	const struct rt_source_counts *c = &src.counts;

	(void)state;
	memset(&src, 0, sizeof(src));
	src.emit_forced = true;
	rt_source_count(&src, RT_DECODE_OK, &ev);
	ev.kind = RT_EVENT_PATH;
	rt_source_count(&src, RT_DECODE_OK, &ev);
	ev.kind = RT_EVENT_SAMPLE;
	rt_source_count(&src, RT_DECODE_OK, &ev);
	ev.kind = RT_EVENT_COUNTERS;
	rt_source_count(&src, RT_DECODE_OK, &ev);
	ev.kind = RT_EVENT_LOST;
	ev.u.lost.count = 7;
	rt_source_count(&src, RT_DECODE_OK, &ev);
	rt_source_count(&src, RT_DECODE_SKIP, &ev);	/* perf's COMM */
	rt_source_count(&src, RT_DECODE_UNKNOWN, &ev);
	assert_int_equal(c->records, 2);		/* vfs_read, unknown */
	assert_int_equal(c->unknown, 1);
	assert_int_equal(c->paths, 1);
	assert_int_equal(c->samples, 1);
	assert_int_equal(c->counters, 1);
	assert_int_equal(c->lost, 7);
	assert_int_equal(c->lost_records, 1);
	assert_int_equal(c->forced, 5);
	assert_true(c->forced <= c->records + c->paths + c->samples +
		    c->counters);
}

int main(void)
{
	RUN(cmocka_unit_test(test_forced_within_counted),
	    cmocka_unit_test_setup_teardown(test_merges_in_timestamp_order,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_keeps_ring_order, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_window_holds_records_in_ring,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_window_is_per_record, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_pressure_forces_emission,
					    setup_small, teardown),
	    cmocka_unit_test_setup_teardown(test_corrupt_ring_reported_once,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_consumer_can_stop, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_added_sources, setup,
					    teardown));
}
