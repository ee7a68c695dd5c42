// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text output byte for byte: the documented columns for vfs_read, lock,
 * lost (ringtrace's and perf's), sample and counters lines, alignment when values overflow their width, and escaping
 * that keeps one record on one line.
 */
#include "test.h"

#include "print_event.h"

#include "ringtrace/escape.h"
#include "ringtrace/output.h"
#include "ringtrace/perf_counters.h"
#include "fake_ring.h"

static void test_vfs_read_line(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_event ev;

	(void)state;
	make_vfs_read(&r, 8312123456789ull, 1, 1234, 1235, "bash");
	rt_decode(&r, sizeof(r), 1, &ev);
	assert_string_equal(print_event(rt_print_text, &ev),
		"            bash    1234/1235    [001]  8312.123456789: vfs_read: "
		"dev=8:1 ino=123 pos=0 count=4096 ret=4096 lat=12.345us\n");
}

static void test_columns_grow_not_truncate(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_event ev;

	(void)state;
	make_vfs_read(&r, 123456789012345678ull, 1234, 4194304, 4194305,
		      "0123456789abcdef");
	r.pos = -1;
	r.ret = -4;
	r.lat_ns = 1000000007;
	rt_decode(&r, sizeof(r), 1234, &ev);
	assert_string_equal(print_event(rt_print_text, &ev),
		"0123456789abcdef 4194304/4194305 [1234] 123456789.012345678: "
		"vfs_read: dev=8:1 ino=123 pos=-1 count=4096 ret=-4 "
		"lat=1000000.007us\n");
}

static void test_small_timestamp(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_event ev;

	(void)state;
	make_vfs_read(&r, 5, 0, 1, 1, "init");
	r.lat_ns = 7;
	rt_decode(&r, sizeof(r), 0, &ev);
	assert_string_equal(print_event(rt_print_text, &ev),
		"            init       1/1       [000]     0.000000005: vfs_read: "
		"dev=8:1 ino=123 pos=0 count=4096 ret=4096 lat=0.007us\n");
}

static void test_lock_line(void **state)
{
	struct ringtrace_lock_record r;
	struct rt_event ev;

	(void)state;
	make_lock(&r, 2000000001, 0, "storm/1", "lockstorm.b",
		  RINGTRACE_LOCK_CONTENDED);
	rt_decode(&r, sizeof(r), 0, &ev);
	assert_string_equal(print_event(rt_print_text, &ev),
		"         storm/1      77/78      [000]     2.000000001: lock: "
		"lock=lockstorm.b lock_id=0xdeadbeef wait=1.500us hold=0.250us "
		"contended=1 kernel=0\n");
}

static void test_lost_line(void **state)
{
	struct ringtrace_lost_record r;
	struct rt_event ev;

	(void)state;
	make_lost(&r, 3000000000ull, 12);
	rt_decode(&r, sizeof(r), 2, &ev);
	assert_string_equal(print_event(rt_print_text, &ev),
		"               -       -/-       [002]     3.000000000: lost: "
		"count=12\n");
}

static void test_comm_escaped_and_aligned(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_event ev;
	const char *line;

	(void)state;
	make_vfs_read(&r, 1, 0, 1, 1, "a\nb\\c\xc3\xa9");
	rt_decode(&r, sizeof(r), 0, &ev);
	line = print_event(rt_print_text, &ev);
	/* 10 columns: a \x0a b \\ c é -> padded with 6 spaces to 16. */
	static const char expect[] = "      a\\x0ab\\\\c\xc3\xa9       1/1";

	assert_memory_equal(line, expect, sizeof(expect) - 1);
	assert_int_equal(strchr(line, '\n') - line, (long)strlen(line) - 1);
}

static void test_text_escape_rules(void **state)
{
	char out[64];
	size_t cols;

	(void)state;
	*rt_text_escape(out, "x\x7f\xff", 16, &cols) = '\0';
	assert_string_equal(out, "x\\x7f\\xff");
	assert_int_equal(cols, 9);
}

static void test_sample_line(void **state)
{
	static const uint64_t chain[] = { (uint64_t)-128, 0xffffffff81000010ull,
					  0xffffffff81000020ull, (uint64_t)-512,
					  0x401000 };
	struct rt_event ev;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_SAMPLE;
	ev.ts_ns = 8312123456789ull;
	ev.cpu = 1;
	ev.pid = 1234;
	ev.tid = 1235;
	strcpy(ev.comm, "sha256sum");
	ev.u.sample.event = "cpu-clock";
	ev.u.sample.ip = 0xffffffff81000010ull;
	assert_string_equal(print_event(rt_print_text, &ev),
		"       sha256sum    1234/1235    [001]  8312.123456789: sample: "
		"event=cpu-clock ip=0xffffffff81000010\n");
	ev.u.sample.frames = (const unsigned char *)chain;
	ev.u.sample.nr_frames = 5;
	assert_string_equal(print_event(rt_print_text, &ev),
		"       sha256sum    1234/1235    [001]  8312.123456789: sample: "
		"event=cpu-clock ip=0xffffffff81000010 callchain="
		"0xffffffff81000010,0xffffffff81000020,0x401000\n");
}

static void test_counters_line(void **state)
{
	static const char *const names[] = { "task-clock", "cycles:u",
					     "instructions", "LLC-loads" };
	struct rt_counter_value v[4] = {
		{ .value = 98765432, .enabled_ns = 5, .running_ns = 5 },
		{ .value = 400, .enabled_ns = 4000, .running_ns = 1000 },
		{ .status = RT_COUNTER_NOT_SUPPORTED },
		{ .status = RT_COUNTER_NOT_COUNTED },
	};
	struct rt_event ev;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_COUNTERS;
	ev.ts_ns = 3000000000ull;
	ev.cpu = 2;
	ev.u.counters.interval_ns = 100000000;
	ev.u.counters.target_pid = -1;
	ev.u.counters.nr = 4;
	ev.u.counters.names = names;
	ev.u.counters.values = v;
	assert_string_equal(print_event(rt_print_text, &ev),
		"               -       -/-       [002]     3.000000000: counters: "
		"interval=100000.000us task-clock=98765432 cycles:u=400(25.00%) "
		"instructions=<not supported> LLC-loads=<not counted>\n");
	ev.cpu = RT_EVENT_CPU_ANY;
	ev.u.counters.target_pid = 77;
	ev.u.counters.nr = 1;
	assert_string_equal(print_event(rt_print_text, &ev),
		"               -       -/-       [any]     3.000000000: counters: "
		"pid=77 interval=100000.000us task-clock=98765432\n");
}

static void test_perf_lost_line(void **state)
{
	struct rt_event ev;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_LOST;
	ev.ts_ns = 3000000000ull;
	ev.cpu = 2;
	ev.u.lost.count = 12;
	ev.u.lost.source = "perf";
	assert_string_equal(print_event(rt_print_text, &ev),
		"               -       -/-       [002]     3.000000000: lost: "
		"count=12 source=perf\n");
}

int main(void)
{
	RUN(cmocka_unit_test(test_sample_line),
	    cmocka_unit_test(test_counters_line),
	    cmocka_unit_test(test_perf_lost_line),
	    cmocka_unit_test(test_vfs_read_line),
	    cmocka_unit_test(test_columns_grow_not_truncate),
	    cmocka_unit_test(test_small_timestamp),
	    cmocka_unit_test(test_lock_line),
	    cmocka_unit_test(test_lost_line),
	    cmocka_unit_test(test_comm_escaped_and_aligned),
	    cmocka_unit_test(test_text_escape_rules));
}
