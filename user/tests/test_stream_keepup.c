// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the live reader does to keep up at full rate (placement.h), against
 * the fake kernel: a ring the reader came round to late is drained on its
 * own CPU at a raised nice, and both are given back at the end; with
 * several, the reader goes beside the fullest and leaves the next wake-up
 * to the scheduler; a busy ring the reader keeps up with, or a trickle,
 * is read from wherever the reader is; once beside a ring, the reader
 * stays while it is busy; a nice the user chose, or one the
 * reader may not raise, is left alone; with follow_rings off nothing
 * changes; and a backlog larger than a batch is handed back to the
 * producer (data_tail) a slice at a time, not after the whole round, with
 * every record still written once.
 */
#include <errno.h>

#include "test.h"

#include "ringtrace/rawfile.h"
#include "ringtrace/stream.h"
#include "ringtrace/sys.h"
#include "fake_kernel.h"

#define MS	1000000ull
#define REC	sizeof(struct ringtrace_vfs_read_record)

static volatile sig_atomic_t stop;

struct fixture {
	struct rt_session	s;
	struct rt_outbuf	ob;
	struct rt_stream	st;
};

/* A session of @ring_bytes rings (watermark: the default for them). */
static struct fixture *start(uint64_t ring_bytes, enum rt_format format)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct rt_session_opts o = { .pid = -1, .buffer_bytes = ring_bytes };

	assert_non_null(f);
	assert_int_equal(rt_session_open(&f->s, NULL), 0);
	assert_int_equal(rt_session_setup(&f->s, &o), 0);
	assert_int_equal(rt_session_enable(&f->s), 0);
	assert_int_equal(rt_outbuf_init(&f->ob, FAKE_OUT_FD,
					 RT_OUTBUF_DEFAULT_SIZE), 0);
	f->st.format = format;
	f->st.out = &f->ob;
	f->st.window_ns = 20 * MS;
	f->st.stop = &stop;
	f->st.follow_rings = true;
	return f;
}

static int setup(void **state)
{
	fake_kernel_install();
	stop = 0;
	*state = NULL;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f) {
		rt_session_close(&f->s);
		rt_outbuf_fini(&f->ob);
		free(f);
	}
	fake_kernel_remove();
	return 0;
}

static void produce(int cpu, unsigned int n, uint64_t ts)
{
	struct ringtrace_vfs_read_record r;

	for (unsigned int i = 0; i < n; i++) {
		make_vfs_read(&r, ts + i, (uint32_t)cpu, 7, 7, "t");
		assert_true(fake_ring_write(&fk.rings[cpu], &r, sizeof(r)));
	}
}

/* What the reader looked like on its second wait, after the first round. */
static uint64_t seen_affinity;
static int seen_nice;

/*
 * 64 KiB rings: watermark 32 KiB, a batch of 64 KiB, busy from 16 KiB
 * unread, late from 48 KiB (three quarters of the ring).
 */
#define LATE	50000
#define BUSY	20000

static void late_cpu2(struct fake_kernel *k)
{
	if (k->waits == 1)
		produce(2, LATE / REC, k->now - 100 * MS);
	if (k->waits == 2) {
		seen_affinity = k->affinity;
		seen_nice = k->nice;
		stop = 1;
	}
}

static void test_busy_ring_drained_on_its_cpu(void **state)
{
	struct fixture *f = start(64 << 10, RT_FORMAT_RAW);

	*state = f;
	fk.on_wait = late_cpu2;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(seen_affinity, 1u << 2);
	assert_int_equal(seen_nice, RT_READER_NICE);
	assert_int_equal(f->st.place.moves, 1);
	assert_int_equal(f->st.place.nice, RT_READER_NICE);
	/* Given back: the mask it started with, nice 0. */
	assert_int_equal(fk.affinity, 0xf);
	assert_int_equal(fk.nice, 0);
	assert_int_equal(f->s.srcs[2].counts.records, LATE / REC);
}

/*
 * CPU 2's ring gets script[0] bytes before the reader's first wait,
 * script[1] before its second; at the third, where it runs is noted and
 * the run stops.
 */
static unsigned int script[2];

static void scripted_cpu2(struct fake_kernel *k)
{
	if (k->waits == 1 || k->waits == 2)
		produce(2, script[k->waits - 1] / REC, k->now - 100 * MS);
	if (k->waits == 3) {
		seen_affinity = k->affinity;
		stop = 1;
	}
}

/*
 * A busy ring the reader keeps up with (a watermark's worth and a little
 * more, each time it comes round) is drained from where the reader runs:
 * the producer's tasks do not pay for the reader's CPU time.
 */
static void test_kept_up_with_read_from_anywhere(void **state)
{
	struct fixture *f = start(64 << 10, RT_FORMAT_RAW);

	*state = f;
	script[0] = script[1] = BUSY;
	fk.on_wait = scripted_cpu2;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(fk.affinity_calls, 0);
	assert_int_equal(seen_affinity, 0xf);
	assert_int_equal(f->st.place.moves, 0);
	/* Still at the raised nice: a wake-up is served promptly. */
	assert_int_equal(f->st.place.nice, RT_READER_NICE);
	assert_int_equal(f->s.srcs[2].counts.records, 2 * (BUSY / REC));
}

/*
 * Late once, then merely busy: beside the ring the reader stays (its
 * wake-ups find it there) until no ring was busy for a while.
 */
static void test_beside_stays_while_busy(void **state)
{
	struct fixture *f = start(64 << 10, RT_FORMAT_RAW);

	*state = f;
	script[0] = LATE;
	script[1] = BUSY;
	fk.on_wait = scripted_cpu2;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(seen_affinity, 1u << 2);
	assert_int_equal(f->st.place.moves, 1);
	assert_int_equal(fk.affinity, 0xf);
	assert_int_equal(f->s.srcs[2].counts.records,
			 LATE / REC + BUSY / REC);
}

/* The merge goes where the largest backlog is. */
static void test_merge_runs_beside_largest_backlog(void **state)
{
	struct fixture *f = start(64 << 10, RT_FORMAT_TEXT);

	*state = f;
	fk.on_wait = late_cpu2;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(seen_affinity, 1u << 2);
	assert_int_equal(fk.affinity, 0xf);
}

/* 50 KB on CPU 1, 60 KB on CPU 3: both late. */
static void late_cpu1_cpu3(struct fake_kernel *k)
{
	if (k->waits == 1) {
		produce(1, LATE / REC, k->now - 100 * MS);
		produce(3, 60000 / REC, k->now - 100 * MS);
	}
	if (k->waits == 2) {
		seen_affinity = k->affinity;
		stop = 1;
	}
}

static void test_several_busy_fullest_first(void **state)
{
	struct fixture *f = start(64 << 10, RT_FORMAT_RAW);
	struct rt_raw_chunk first;

	*state = f;
	fk.on_wait = late_cpu1_cpu3;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	/* Beside CPU 3's, then the whole mask again before sleeping. */
	assert_int_equal(fk.affinity_log[0], 1u << 3);
	assert_int_equal(fk.affinity_log[1], 0xf);
	assert_int_equal(seen_affinity, 0xf);
	assert_int_equal(f->s.srcs[1].counts.records, LATE / REC);
	assert_int_equal(f->s.srcs[3].counts.records, 60000 / REC);
	/* CPU 3's ring went out first. */
	assert_true(fk.out_len > sizeof(struct rt_raw_chunk));
	memcpy(&first, fk.out, sizeof(first));
	assert_int_equal(first.cpu, 3);
}

static void trickle_cpu1(struct fake_kernel *k)
{
	if (k->waits == 1)
		produce(1, 3, k->now - 100 * MS);
	if (k->waits == 2)
		stop = 1;
}

static void test_trickle_read_from_anywhere(void **state)
{
	struct fixture *f = start(64 << 10, RT_FORMAT_RAW);

	*state = f;
	fk.on_wait = trickle_cpu1;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(fk.affinity_calls, 0);
	assert_int_equal(f->s.srcs[1].counts.records, 3);
}

static void test_chosen_nice_kept(void **state)
{
	struct fixture *f = start(64 << 10, RT_FORMAT_RAW);

	*state = f;
	fk.nice = 5;		/* nice -n 5 ringtrace-cat ... */
	fk.on_wait = late_cpu2;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(seen_nice, 5);
	assert_int_equal(f->st.place.nice, 5);
	assert_int_equal(seen_affinity, 1u << 2);	/* still follows */
}

static void test_nice_denied(void **state)
{
	struct fixture *f = start(64 << 10, RT_FORMAT_RAW);

	*state = f;
	fk.nice_errno = EACCES;	/* no CAP_SYS_NICE */
	fk.on_wait = late_cpu2;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(f->st.place.nice_errno, EACCES);
	assert_int_equal(seen_nice, 0);
	assert_int_equal(seen_affinity, 1u << 2);
}

/* taskset -c 0,1: CPU 2 is not ours to move to. */
static void test_mask_respected(void **state)
{
	struct fixture *f = start(64 << 10, RT_FORMAT_RAW);

	*state = f;
	fk.affinity = 0x3;
	fk.on_wait = late_cpu2;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(fk.affinity_calls, 0);
	assert_int_equal(fk.affinity, 0x3);
}

static void test_follow_off_changes_nothing(void **state)
{
	struct fixture *f = start(64 << 10, RT_FORMAT_RAW);

	*state = f;
	f->st.follow_rings = false;
	fk.on_wait = late_cpu2;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(fk.affinity_calls, 0);
	assert_int_equal(seen_nice, 0);
	assert_int_equal(f->s.srcs[2].counts.records, LATE / REC);
}

/*
 * 256 KiB rings: watermark and batch 128 KiB. 240 KiB waiting on CPU 0
 * go out in two writes, and the first half is given back before the
 * second is written (before, data_tail moved only after the last write
 * of the round).
 */
static void backlog_cpu0(struct fake_kernel *k)
{
	if (k->waits == 1)
		produce(0, (240u << 10) / REC, k->now - 100 * MS);
	if (k->waits == 2)
		stop = 1;
}

static void test_backlog_given_back_in_slices(void **state)
{
	struct fixture *f = start(256 << 10, RT_FORMAT_RAW);
	uint64_t head, mid = 0;

	*state = f;
	fk.watch_cpu = 0;
	fk.on_wait = backlog_cpu0;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	head = fk.rings[0].head;
	assert_int_equal(fk.rings[0].page->data_tail, head);
	for (int w = 0; w < fk.writes && w < 64; w++)
		if (fk.tail_at_write[w] && fk.tail_at_write[w] < head)
			mid = fk.tail_at_write[w];
	if (!mid)
		fail_msg("data_tail never moved between the round's writes");
	assert_true(mid >= 128u << 10);
	assert_int_equal(f->s.srcs[0].counts.records, (240u << 10) / REC);
	assert_int_equal(f->s.srcs[0].counts.bytes, (240u << 10) / REC * REC);
}

int main(void)
{
	RUN(cmocka_unit_test_setup_teardown(test_busy_ring_drained_on_its_cpu,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_kept_up_with_read_from_anywhere,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_beside_stays_while_busy,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_merge_runs_beside_largest_backlog,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_several_busy_fullest_first,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_trickle_read_from_anywhere,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_chosen_nice_kept, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_nice_denied, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_mask_respected, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_follow_off_changes_nothing,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_backlog_given_back_in_slices,
					    setup, teardown));
}
