// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON output byte for byte: the exact keys and order for vfs_read, lock,
 * lost (ringtrace's and perf's), perf samples (callchain markers left
 * out, frames capped) and counter snapshots (null for <not supported>,
 * running_pct only when multiplexed, cpu -1 for a process row); negative
 * numbers; 64-bit extremes; string escaping of quotes,
 * backslashes, control characters, DEL, valid UTF-8 (kept) and invalid
 * UTF-8 (each bad byte becomes \ufffd).
 */
#include "test.h"

#include "print_event.h"

#include "ringtrace/escape.h"
#include "ringtrace/output.h"
#include "ringtrace/perf_counters.h"
#include "ringtrace/perfetto.h"
#include "fake_ring.h"

static const char *escape(const char *s)
{
	static char out[512];

	*rt_json_escape(out, s, 64) = '\0';
	return out;
}

static void test_vfs_read_exact(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_event ev;

	(void)state;
	make_vfs_read(&r, 1234567890123, 2, 4242, 4243, "sha256sum");
	r.pos = -1;
	r.ret = -11;
	rt_decode(&r, sizeof(r), 2, &ev);
	assert_string_equal(print_event(rt_print_json, &ev),
		"{\"type\":\"vfs_read\",\"ts_ns\":1234567890123,\"cpu\":2,"
		"\"pid\":4242,\"tid\":4243,\"comm\":\"sha256sum\",\"dev\":\"8:1\","
		"\"ino\":123,\"pos\":-1,\"count\":4096,\"ret\":-11,"
		"\"lat_ns\":12345}\n");
}

static void test_extremes(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_event ev;

	(void)state;
	make_vfs_read(&r, UINT64_MAX, 0, 0, UINT32_MAX, "");
	r.ino = UINT64_MAX;
	r.pos = INT64_MIN;
	r.ret = INT64_MAX;
	r.count = 0;
	r.lat_ns = 0;
	r.dev_major = UINT32_MAX;
	r.dev_minor = 0;
	rt_decode(&r, sizeof(r), 0, &ev);
	assert_string_equal(print_event(rt_print_json, &ev),
		"{\"type\":\"vfs_read\",\"ts_ns\":18446744073709551615,\"cpu\":0,"
		"\"pid\":0,\"tid\":4294967295,\"comm\":\"\",\"dev\":\"4294967295:0\","
		"\"ino\":18446744073709551615,\"pos\":-9223372036854775808,"
		"\"count\":0,\"ret\":9223372036854775807,\"lat_ns\":0}\n");
}

static void test_lock_exact(void **state)
{
	struct ringtrace_lock_record r;
	struct rt_event ev;

	(void)state;
	make_lock(&r, 10, 1, "storm/0", "lockstorm.a", RINGTRACE_LOCK_CONTENDED);
	rt_decode(&r, sizeof(r), 1, &ev);
	assert_string_equal(print_event(rt_print_json, &ev),
		"{\"type\":\"lock\",\"ts_ns\":10,\"cpu\":1,\"pid\":77,\"tid\":78,"
		"\"comm\":\"storm/0\",\"lock\":\"lockstorm.a\",\"lock_id\":\"0xdeadbeef\","
		"\"wait_ns\":1500,\"hold_ns\":250,\"contended\":true,"
		"\"kernel\":false,\"hashed\":false}\n");
	/* A kernel lock: its id is a 64-bit hash that a double would round. */
	r.flags = RINGTRACE_LOCK_KERNEL | RINGTRACE_LOCK_ID_HASHED;
	r.lock_id = 0x1d2aa1950e93723bull;
	rt_decode(&r, sizeof(r), 1, &ev);
	assert_non_null(strstr(print_event(rt_print_json, &ev),
		",\"lock_id\":\"0x1d2aa1950e93723b\",\"wait_ns\""));
	assert_non_null(strstr(print_event(rt_print_json, &ev),
		",\"contended\":false,\"kernel\":true,\"hashed\":true}\n"));
}

static void test_lost_exact(void **state)
{
	struct ringtrace_lost_record r;
	struct rt_event ev;

	(void)state;
	make_lost(&r, 99, 17);
	rt_decode(&r, sizeof(r), 3, &ev);
	assert_string_equal(print_event(rt_print_json, &ev),
		"{\"type\":\"lost\",\"ts_ns\":99,\"cpu\":3,\"count\":17}\n");
}

static void test_unknown_prints_nothing(void **state)
{
	struct rt_event ev = { .kind = RT_EVENT_UNKNOWN };

	(void)state;
	assert_string_equal(print_event(rt_print_json, &ev), "");
}

static void test_escape_specials(void **state)
{
	(void)state;
	assert_string_equal(escape("a\"b\\c"), "a\\\"b\\\\c");
	assert_string_equal(escape("\b\f\n\r\t"), "\\b\\f\\n\\r\\t");
	assert_string_equal(escape("\x01\x1f\x7f"), "\\u0001\\u001f\\u007f");
	assert_string_equal(escape("plain text/0:1"), "plain text/0:1");
}

static void test_escape_utf8(void **state)
{
	(void)state;
	/* Valid sequences of 2, 3 and 4 bytes are kept as they are. */
	assert_string_equal(escape("caf\xc3\xa9"), "caf\xc3\xa9");
	assert_string_equal(escape("\xe2\x82\xac"), "\xe2\x82\xac");
	assert_string_equal(escape("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
	/* Each invalid byte becomes one replacement character. */
	assert_string_equal(escape("a\xe9z"), "a\\ufffdz");
	assert_string_equal(escape("\x80\xbf"), "\\ufffd\\ufffd");
	assert_string_equal(escape("\xc0\xaf"), "\\ufffd\\ufffd");	/* overlong */
	assert_string_equal(escape("\xe0\x80\xaf"), "\\ufffd\\ufffd\\ufffd");
	assert_string_equal(escape("\xed\xa0\x80"), "\\ufffd\\ufffd\\ufffd");	/* surrogate */
	assert_string_equal(escape("\xf4\x90\x80\x80"),
			    "\\ufffd\\ufffd\\ufffd\\ufffd");	/* > U+10FFFF */
	assert_string_equal(escape("\xff"), "\\ufffd");
	assert_string_equal(escape("\xe2\x82"), "\\ufffd\\ufffd");	/* truncated */
}

/* A comm filled to 16 bytes with bytes that all need escaping. */
static void test_escaped_comm_in_record(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_event ev;
	const char *out;

	(void)state;
	make_vfs_read(&r, 1, 0, 1, 1, "\"\"\"\"\"\"\"\"\n\n\n\n\xff\xff\xff\xff");
	rt_decode(&r, sizeof(r), 0, &ev);
	out = print_event(rt_print_json, &ev);
	assert_non_null(strstr(out,
		"\"comm\":\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\\"\\n\\n\\n\\n"
		"\\ufffd\\ufffd\\ufffd\\ufffd\",\"dev\""));
}

static struct rt_event sample_event(const uint64_t *chain, uint32_t nr)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_SAMPLE;
	ev.ts_ns = 5000000001;
	ev.cpu = 1;
	ev.pid = 10;
	ev.tid = 11;
	strcpy(ev.comm, "sha\"256");
	ev.u.sample.event = "cpu-clock";
	ev.u.sample.ip = 0xffffffff81234567ull;
	ev.u.sample.frames = (const unsigned char *)chain;
	ev.u.sample.nr_frames = nr;
	return ev;
}

static void test_sample_exact(void **state)
{
	static const uint64_t chain[] = { (uint64_t)-128, 0xffffffff81000010ull,
					  (uint64_t)-512, 0x401000 };
	struct rt_event ev = sample_event(NULL, 0);

	(void)state;
	assert_string_equal(print_event(rt_print_json, &ev),
		"{\"type\":\"sample\",\"ts_ns\":5000000001,\"cpu\":1,"
		"\"pid\":10,\"tid\":11,\"comm\":\"sha\\\"256\","
		"\"event\":\"cpu-clock\",\"ip\":\"0xffffffff81234567\"}\n");
	ev = sample_event(chain, 4);
	assert_non_null(strstr(print_event(rt_print_json, &ev), "\"ip\":\"0xffffffff81234567\","
			       "\"callchain\":[\"0xffffffff81000010\","
			       "\"0x401000\"]}\n"));
}

/* A hostile callchain length cannot overflow the reserved record space. */
static void test_sample_frames_capped(void **state)
{
	static uint64_t chain[1000];
	struct rt_event ev;
	const char *out;
	unsigned int n = 0;

	(void)state;
	for (int i = 0; i < 1000; i++)
		chain[i] = UINT64_MAX - 5000;
	ev = sample_event(chain, 1000);
	out = print_event(rt_print_json, &ev);
	assert_true(strlen(out) < RT_OUTBUF_MAX_RECORD);
	for (const char *p = out; (p = strstr(p, "0xffffffffffffec77")); p++)
		n++;
	assert_int_equal(n, RT_SAMPLE_MAX_PRINTED_FRAMES);
}

static void test_perf_lost_exact(void **state)
{
	struct rt_event ev;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_LOST;
	ev.ts_ns = 77;
	ev.cpu = 3;
	ev.u.lost.count = 12;
	ev.u.lost.source = "perf";
	assert_string_equal(print_event(rt_print_json, &ev),
		"{\"type\":\"lost\",\"ts_ns\":77,\"cpu\":3,\"count\":12,"
		"\"source\":\"perf\"}\n");
}

/* A CPU 1 counter snapshot of @nr counters at 2 s, over 100 ms. */
static struct rt_event cpu1_counters(const char *const *names,
				     const struct rt_counter_value *v,
				     uint32_t nr)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_COUNTERS;
	ev.ts_ns = 2000000000;
	ev.cpu = 1;
	ev.u.counters.interval_ns = 100000000;
	ev.u.counters.target_pid = -1;
	ev.u.counters.nr = nr;
	ev.u.counters.names = names;
	ev.u.counters.values = v;
	return ev;
}

static void test_counters_exact(void **state)
{
	static const char *const names[] = { "task-clock", "cycles",
					     "instructions", "page-faults" };
	struct rt_counter_value v[4] = {
		{ .value = 9876543, .enabled_ns = 10, .running_ns = 10 },
		{ .status = RT_COUNTER_NOT_SUPPORTED },
		{ .value = 400, .raw = 100, .enabled_ns = 4000,
		  .running_ns = 1001 },
		{ .value = 0 },
	};
	struct rt_event ev = cpu1_counters(names, v, 4);

	(void)state;
	assert_string_equal(print_event(rt_print_json, &ev),
		"{\"type\":\"counters\",\"ts_ns\":2000000000,\"cpu\":1,"
		"\"interval_ns\":100000000,\"values\":{\"task-clock\":9876543,"
		"\"cycles\":null,\"instructions\":400,\"page-faults\":0},"
		"\"running_pct\":{\"instructions\":25.02}}\n");

	/* A process row, nothing multiplexed; not counted is null too. */
	ev.cpu = RT_EVENT_CPU_ANY;
	ev.u.counters.target_pid = 4242;
	ev.u.counters.nr = 2;
	v[1].status = RT_COUNTER_NOT_COUNTED;
	assert_string_equal(print_event(rt_print_json, &ev),
		"{\"type\":\"counters\",\"ts_ns\":2000000000,\"cpu\":-1,"
		"\"pid\":4242,\"interval_ns\":100000000,"
		"\"values\":{\"task-clock\":9876543,\"cycles\":null}}\n");
}

/*
 * --perfetto plots no track for a counter without a value (it
 * read as a zero track): a metadata event names it and says why, once.
 */
static void test_perfetto_counter_without_track(void **state)
{
	static const char *const names[] = { "task-clock", "cycles" };
	struct rt_counter_value v[2] = {
		{ .value = 9876543, .enabled_ns = 10, .running_ns = 10 },
		{ .status = RT_COUNTER_NOT_SUPPORTED },
	};
	struct rt_event ev = cpu1_counters(names, v, 2);
	struct rt_perfetto p;
	struct rt_outbuf ob;
	char text[4096];

	(void)state;
	rt_outbuf_init(&ob, -1, 0);
	assert_int_equal(rt_perfetto_init(&p, &ob), 0);
	rt_perfetto_add(&p, &ev);
	ev.ts_ns += 100000000;
	rt_perfetto_add(&p, &ev);
	rt_perfetto_finish(&p);
	assert_true(ob.len < sizeof(text));
	memcpy(text, ob.buf, ob.len);
	text[ob.len] = '\0';
	rt_outbuf_fini(&ob);
	assert_non_null(strstr(text, "\"name\":\"cpu1 task-clock\""));
	assert_null(strstr(text, "\"name\":\"cpu1 cycles\""));
	assert_non_null(strstr(text,
		"{\"ph\":\"M\",\"name\":\"counter_without_track\",\"pid\":0,"
		"\"tid\":0,\"args\":{\"counter\":\"cycles\",\"reason\":"
		"\"not supported: the kernel opened it on no target\"}}"));
	/* Said once; two points of task-clock; the process name; 4 events. */
	assert_null(strstr(strstr(text, "counter_without_track") + 1,
			   "counter_without_track"));
	assert_int_equal(p.events, 4);
}

int main(void)
{
	RUN(cmocka_unit_test(test_sample_exact),
	    cmocka_unit_test(test_sample_frames_capped),
	    cmocka_unit_test(test_perf_lost_exact),
	    cmocka_unit_test(test_counters_exact),
	    cmocka_unit_test(test_vfs_read_exact),
	    cmocka_unit_test(test_extremes),
	    cmocka_unit_test(test_lock_exact),
	    cmocka_unit_test(test_lost_exact),
	    cmocka_unit_test(test_unknown_prints_nothing),
	    cmocka_unit_test(test_escape_specials),
	    cmocka_unit_test(test_escape_utf8),
	    cmocka_unit_test(test_escaped_comm_in_record),
	    cmocka_unit_test(test_perfetto_counter_without_track));
}
