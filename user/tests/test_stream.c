// SPDX-License-Identifier: GPL-2.0-only
/*
 * The consumer loop against the fake kernel: records produced while it
 * waits come out merged in time order, a record inside the reorder window
 * waits for its turn or for the final drain, stopping disables the session
 * and drains it, hostile heads end the run with a data error naming the
 * CPU, a closed output (EPIPE) stops it, -d ends it, output is written in
 * large chunks (no write per record), durations and windows near 2^64 ns
 * neither stop the run at once nor make it spin, raw output records what the
 * rings held, pending losses included, an interval callback runs once
 * per interval of the (fake) clock, after the records before it, and a
 * done callback (-p's processes exited) ends the run with what they wrote.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/stream.h"
#include "ringtrace/sys.h"
#include "fake_kernel.h"

#define MS	1000000ull

static volatile sig_atomic_t stop;

struct fixture {
	struct rt_session	s;
	struct rt_outbuf	ob;
	struct rt_stream	st;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct rt_session_opts o = { .pid = -1 };

	fake_kernel_install();
	stop = 0;
	assert_int_equal(rt_session_open(&f->s, NULL), 0);
	o.buffer_bytes = 64 * 1024;
	assert_int_equal(rt_session_setup(&f->s, &o), 0);
	assert_int_equal(rt_session_enable(&f->s), 0);
	assert_int_equal(rt_outbuf_init(&f->ob, FAKE_OUT_FD,
					 RT_OUTBUF_DEFAULT_SIZE), 0);
	f->st.format = RT_FORMAT_TEXT;
	f->st.out = &f->ob;
	f->st.window_ns = 20 * MS;
	f->st.stop = &stop;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	rt_session_close(&f->s);
	rt_outbuf_fini(&f->ob);
	fake_kernel_remove();
	free(f);
	return 0;
}

static void write_at(int cpu, uint64_t ts, uint32_t pid)
{
	struct ringtrace_vfs_read_record r;

	make_vfs_read(&r, ts, (uint32_t)cpu, pid, pid, "t");
	assert_true(fake_ring_write(&fk.rings[cpu], &r, sizeof(r)));
}

/* First wait: three records, one of them too young; second: stop. */
static void produce_then_stop(struct fake_kernel *k)
{
	if (k->waits == 1) {
		write_at(2, k->now - 1 * MS, 3);	/* inside the window */
		write_at(1, k->now - 50 * MS, 2);
		write_at(0, k->now - 60 * MS, 1);
	} else {
		stop = 1;
	}
}

static void test_merged_stream_and_clean_stop(void **state)
{
	struct fixture *f = *state;
	const char *p1, *p2, *p3;

	fk.on_wait = produce_then_stop;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_non_null(fk.out);
	p1 = strstr(fk.out, "      1/1");
	p2 = strstr(fk.out, "      2/2");
	p3 = strstr(fk.out, "      3/3");
	assert_non_null(p1);
	assert_non_null(p2);
	assert_non_null(p3);
	assert_true(p1 < p2 && p2 < p3);
	assert_int_equal(fk.disable_calls, 1);
	assert_int_equal(f->s.srcs[0].counts.records, 1);
	assert_int_equal(f->s.srcs[2].counts.bytes,
			 sizeof(struct ringtrace_vfs_read_record));
	for (int cpu = 0; cpu < 4; cpu++)
		assert_int_equal(fk.rings[cpu].page->data_tail,
				 fk.rings[cpu].head);
}

/* The young record is emitted by the loop once its window has passed. */
static void produce_young_only(struct fake_kernel *k)
{
	if (k->waits == 1)
		write_at(0, k->now - 1 * MS, 9);
	if (k->waits == 3)
		stop = 1;
}

static void test_held_record_released_by_time(void **state)
{
	struct fixture *f = *state;

	fk.on_wait = produce_young_only;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	/* Written before the stop: the loop waited ~19ms, then emitted it. */
	assert_int_equal(fk.rings[0].page->data_tail, fk.rings[0].head);
	assert_non_null(strstr(fk.out, "      9/9"));
	assert_true(fk.waits >= 3);
}

static void hostile_head(struct fake_kernel *k)
{
	if (k->waits == 1)
		write_at(1, k->now - 100 * MS, 1);
	if (k->waits == 2)
		fake_ring_set_head(&k->rings[1], 8);	/* backwards */
	if (k->waits > 10)
		stop = 1;	/* never reached when the error stops the loop */
}

static void test_hostile_head_stops_with_data_error(void **state)
{
	struct fixture *f = *state;

	fk.on_wait = hostile_head;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_ERR_DATA);
	assert_non_null(strstr(f->st.errmsg, "CPU 1"));
	assert_non_null(strstr(f->st.errmsg, "data_head moved backwards"));
	assert_int_equal(fk.waits, 2);
	assert_int_equal(fk.disable_calls, 1);
}

static void produce_many(struct fake_kernel *k)
{
	for (int i = 0; i < 300; i++)
		write_at(i % 4, k->now - 100 * MS + (uint64_t)i, 5);
	if (k->waits == 2)
		stop = 1;
}

static void test_closed_output_stops(void **state)
{
	struct fixture *f = *state;

	fk.on_wait = produce_many;
	fk.write_errno = EPIPE;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_ERR_OUTPUT);
	assert_int_equal(f->ob.error, EPIPE);
	assert_int_equal(fk.writes, 1);		/* no retry storm */
	assert_int_equal(fk.disable_calls, 1);
}

static void test_output_in_large_writes(void **state)
{
	struct fixture *f = *state;

	fk.on_wait = produce_many;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	/* 600 records: at most one write per loop round, not per record. */
	if (fk.writes > 3)
		fail_msg("%d writes for 600 records", fk.writes);
	assert_int_equal(f->s.srcs[0].counts.records +
			 f->s.srcs[1].counts.records +
			 f->s.srcs[2].counts.records +
			 f->s.srcs[3].counts.records, 600);
}

static void test_duration_ends_run(void **state)
{
	struct fixture *f = *state;

	f->st.duration_ns = 250 * MS;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_true(fk.waits >= 1 && fk.waits <= 3);
	assert_true(f->st.end_ns - f->st.start_ns >= 250 * MS);
	assert_int_equal(fk.disable_calls, 1);
}

/* Each wait's sleep (the fake clock advances by the timeout). */
static uint64_t last_now, slept[8];

static void young_record_then_stop(struct fake_kernel *k)
{
	if (k->waits < 8)
		slept[k->waits] = k->now - last_now;
	last_now = k->now;
	if (k->waits == 1)
		write_at(0, k->now - 1 * MS, 9);
	if (k->waits == 3)
		stop = 1;
}

/*
 * Library users are not bound by ringtrace-cat's option checks: a duration
 * near 2^64 ns once wrapped when added to the start time (the run stopped
 * before its first wait) and a window near 2^64 ns wrapped when added to a
 * record's time (a wake-up every millisecond). Both saturate now.
 */
static void test_huge_duration_does_not_stop_at_once(void **state)
{
	struct fixture *f = *state;

	f->st.duration_ns = UINT64_MAX - 1;
	fk.on_wait = young_record_then_stop;
	last_now = fk.now;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(fk.waits, 3);
	assert_non_null(strstr(fk.out, "      9/9"));
}

static void test_huge_window_does_not_spin(void **state)
{
	struct fixture *f = *state;

	f->st.window_ns = UINT64_MAX - 1;
	fk.on_wait = young_record_then_stop;
	last_now = fk.now;
	memset(slept, 0, sizeof(slept));
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(fk.waits, 3);
	/* Held for the window: the longest sleep (60 s), not 1 ms. */
	if (slept[2] < 1000 * MS)
		fail_msg("slept %llu ns with a record held",
			 (unsigned long long)slept[2]);
	assert_non_null(strstr(fk.out, "      9/9"));	/* the final drain */
}

static uint64_t interval_at[16];
static unsigned int nr_intervals;

static void on_interval(void *arg, uint64_t now)
{
	struct fixture *f = arg;

	if (nr_intervals < 16)
		interval_at[nr_intervals] = now - f->st.start_ns;
	nr_intervals++;
}

static void test_interval_callback(void **state)
{
	struct fixture *f = *state;

	nr_intervals = 0;
	f->st.duration_ns = 450 * MS;
	f->st.interval_ns = 100 * MS;
	f->st.on_interval = on_interval;
	f->st.interval_arg = f;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	/* At 100, 200, 300 and 400 ms of the fake clock: one per interval. */
	assert_int_equal(nr_intervals, 4);
	for (unsigned int i = 0; i < 4; i++) {
		assert_true(interval_at[i] >= (i + 1) * 100 * MS);
		assert_true(interval_at[i] < (i + 2) * 100 * MS);
	}
}

/* Records, then the traced process exits (the second wait's wake-up). */
static bool exited;

static void produce_then_exit(struct fake_kernel *k)
{
	if (k->waits == 1)
		write_at(0, k->now - 1 * MS, 5);	/* inside the window */
	if (k->waits == 2)
		exited = true;
}

static bool is_done(void *arg)
{
	(*(unsigned int *)arg)++;
	return exited;
}

/* -p PID: the run ends when it has exited, its last records drained. */
static void test_done_ends_run(void **state)
{
	struct fixture *f = *state;
	unsigned int asked = 0;

	exited = false;
	fk.on_wait = produce_then_exit;
	f->st.done = is_done;
	f->st.done_arg = &asked;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(fk.waits, 2);
	assert_int_equal(asked, 3);	/* before each wait, then done */
	assert_non_null(strstr(fk.out, "      5/5"));
	assert_int_equal(fk.disable_calls, 1);
}

static void produce_with_loss(struct fake_kernel *k)
{
	struct ringtrace_lost_record lost;

	if (k->waits == 1) {
		write_at(0, 300, 7);
		write_at(1, 100, 8);
		make_lost(&lost, 200, 4);
		assert_true(fake_ring_write(&k->rings[1], &lost, sizeof(lost)));
		k->rings[1].page->lost_pending = 2;
	} else {
		stop = 1;
	}
}

static void test_raw_round_trip(void **state)
{
	struct fixture *f = *state;
	struct rt_stream st2 = { .format = RT_FORMAT_JSON, .stop = &stop };
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	struct rt_raw_file rf;
	struct rt_outbuf ob2;
	struct rt_sys fake;
	char path[] = "/tmp/ringtrace-test-XXXXXX";
	size_t raw_len;
	int fd;

	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	f->st.format = RT_FORMAT_RAW;
	fk.on_wait = produce_with_loss;
	rt_raw_write_header(&f->ob, &h);
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_int_equal(f->st.lost_pending, 2);
	assert_int_equal(f->s.srcs[1].counts.lost, 4);

	/* The captured file, decoded the way ringtrace-cat -i does. */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	raw_len = fk.out_len;
	assert_int_equal(write(fd, fk.out, raw_len), (ssize_t)raw_len);
	fake = rt_sys;
	rt_sys_reset();			/* the file is real */
	assert_int_equal(rt_raw_open(&rf, path), 0);
	assert_int_equal(rf.nr_srcs, 2);
	assert_int_equal(rf.pending_lost, 2);
	rt_sys.write = fake.write;	/* capture the JSON after the raw bytes */
	rt_outbuf_init(&ob2, FAKE_OUT_FD, 0);
	st2.out = &ob2;
	assert_int_equal(rt_stream_file(&st2, &rf), RT_STREAM_OK);
	rt_sys = fake;
	assert_string_equal(fk.out + raw_len,
		"{\"type\":\"vfs_read\",\"ts_ns\":100,\"cpu\":1,\"pid\":8,\"tid\":8,"
		"\"comm\":\"t\",\"dev\":\"8:1\",\"ino\":123,\"pos\":0,\"count\":4096,"
		"\"ret\":4096,\"lat_ns\":12345}\n"
		"{\"type\":\"lost\",\"ts_ns\":200,\"cpu\":1,\"count\":4}\n"
		"{\"type\":\"vfs_read\",\"ts_ns\":300,\"cpu\":0,\"pid\":7,\"tid\":7,"
		"\"comm\":\"t\",\"dev\":\"8:1\",\"ino\":123,\"pos\":0,\"count\":4096,"
		"\"ret\":4096,\"lat_ns\":12345}\n");
	rt_outbuf_fini(&ob2);
	rt_sys_reset();
	rt_raw_close(&rf);
	rt_sys = fake;
	close(fd);
	unlink(path);
}

static void produce_one_then_stop(struct fake_kernel *k)
{
	if (k->waits == 1)
		write_at(0, 100, 7);
	else
		stop = 1;
}

/*
 * @f's session again, tracing a function with --graph --min-latency's
 * options, on a module that offers holding calls (@hold) or not.
 */
static void hold_session(struct fixture *f, bool hold)
{
	static char names[1][RINGTRACE_FUNC_NAME_LEN] = { "rw_verify_area" };
	struct rt_session_opts o = {
		.pid = -1, .buffer_bytes = 64 * 1024, .func_in_read = true,
		.func_hold = true, .min_latency_ns = 1000000, .nr_funcs = 1,
		.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_FUNC,
		.funcs = names,
	};

	rt_session_close(&f->s);
	fk.info.events |= RINGTRACE_EVENT_FUNC;
	fk.info.features |= RINGTRACE_FEAT_FUNC | RINGTRACE_FEAT_FUNC_IN_READ;
	if (hold)
		fk.info.features |= RINGTRACE_FEAT_FUNC_HOLD;
	assert_int_equal(rt_session_open(&f->s, NULL), 0);
	assert_int_equal(rt_session_setup(&f->s, &o), 0);
	assert_int_equal(rt_session_enable(&f->s), 0);
	/* what the module says at the end: held calls of faster reads */
	fk.stats.func_fast_read = 17;
	fk.on_wait = produce_one_then_stop;
}

/*
 * A session that held its calls: the stream reads how many of faster
 * reads the module dropped after DISABLE, and a recording ends with them
 * (FUNC_FAST_READ), so that its replay says the same number.
 */
static void test_raw_keeps_fast_read_calls(void **state)
{
	struct fixture *f = *state;
	struct rt_stream st2 = { .format = RT_FORMAT_TEXT, .stop = &stop };
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	struct rt_raw_file rf;
	struct rt_outbuf ob2;
	struct rt_sys fake;
	char path[] = "/tmp/ringtrace-test-XXXXXX";
	int fd, null;

	hold_session(f, true);
	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	f->st.format = RT_FORMAT_RAW;
	rt_raw_write_header(&f->ob, &h);
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_true(f->st.func_held);
	assert_int_equal(f->st.func_fast_read, 17);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, fk.out, fk.out_len), (ssize_t)fk.out_len);
	fake = rt_sys;
	rt_sys_reset();			/* the file is real */
	assert_int_equal(rt_raw_open(&rf, path), 0);
	assert_int_equal(rf.nr_damage, 0);
	assert_true(rf.func_held);
	assert_int_equal(rf.func_fast_read, 17);
	null = open("/dev/null", O_WRONLY);
	assert_true(null >= 0);
	assert_int_equal(rt_outbuf_init(&ob2, null, 0), 0);
	st2.out = &ob2;
	assert_int_equal(rt_stream_file(&st2, &rf), RT_STREAM_OK);
	assert_true(st2.func_held);
	assert_int_equal(st2.func_fast_read, f->st.func_fast_read);
	rt_outbuf_fini(&ob2);
	close(null);
	rt_raw_close(&rf);
	rt_sys = fake;
	close(fd);
	unlink(path);
}

/* An older module held nothing: no count read, none recorded. */
static void test_no_fast_read_calls_without_hold(void **state)
{
	struct fixture *f = *state;
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	struct rt_raw_chunk c;

	hold_session(f, false);
	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	f->st.format = RT_FORMAT_RAW;
	rt_raw_write_header(&f->ob, &h);
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_false(f->st.func_held);
	assert_int_equal(f->st.func_fast_read, 0);
	/* the chunks after the header: none of the kind */
	for (size_t at = sizeof(h); at + sizeof(c) <= fk.out_len;
	     at += sizeof(c) + c.size) {
		memcpy(&c, fk.out + at, sizeof(c));
		assert_int_not_equal(c.kind, RT_RAW_CHUNK_FUNC_FAST_READ);
	}
}

int main(void)
{
	RUN(cmocka_unit_test_setup_teardown(test_merged_stream_and_clean_stop,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_held_record_released_by_time,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_hostile_head_stops_with_data_error,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_closed_output_stops, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_output_in_large_writes, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_huge_duration_does_not_stop_at_once,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_huge_window_does_not_spin,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_duration_ends_run, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_interval_callback, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_raw_round_trip, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_raw_keeps_fast_read_calls,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_fast_read_calls_without_hold,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_done_ends_run, setup,
					    teardown));
}
