// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command-line values: durations with every unit and fractions (exact in
 * integers), bare numbers refused for --min-latency but meaning seconds
 * for -d, sizes with binary suffixes, and every malformed or overflowing
 * input refused with a message that names it.
 */
#include <errno.h>

#include "test.h"

#include <linux/ringtrace.h>

#include "ringtrace/parse.h"

static uint64_t dur(const char *s)
{
	char err[256];
	uint64_t ns = 12345;

	assert_int_equal(rt_parse_duration(s, &ns, err, sizeof(err)), 0);
	return ns;
}

static uint64_t secs(const char *s)
{
	char err[256];
	uint64_t ns = 12345;

	assert_int_equal(rt_parse_seconds(s, &ns, err, sizeof(err)), 0);
	return ns;
}

static uint64_t size(const char *s)
{
	char err[256];
	uint64_t b = 12345;

	assert_int_equal(rt_parse_size(s, &b, err, sizeof(err)), 0);
	return b;
}

static void test_durations(void **state)
{
	(void)state;
	assert_int_equal(dur("100ns"), 100);
	assert_int_equal(dur("250us"), 250000);
	assert_int_equal(dur("250\xc2\xb5s"), 250000);
	assert_int_equal(dur("1ms"), 1000000);
	assert_int_equal(dur("2s"), 2000000000);
	assert_int_equal(dur("1.5ms"), 1500000);
	assert_int_equal(dur("0.1s"), 100000000);
	assert_int_equal(dur(".5us"), 500);
	assert_int_equal(dur("0"), 0);
	assert_int_equal(dur("1.0000000019s"), 1000000001);	/* < 1ns dropped */
	assert_int_equal(dur("18446744073709551615ns"), UINT64_MAX);
}

static void test_seconds(void **state)
{
	(void)state;
	assert_int_equal(secs("2"), 2000000000);
	assert_int_equal(secs("2.5"), 2500000000);
	assert_int_equal(secs("0.001"), 1000000);
	assert_int_equal(secs("500ms"), 500000000);
}

static void expect_bad(int (*fn)(const char *, uint64_t *, char *, size_t),
		       const char *s, int err, const char *words)
{
	char msg[256] = "";
	uint64_t v = 0;

	assert_int_equal(fn(s, &v, msg, sizeof(msg)), err);
	assert_non_null(strstr(msg, words));
}

static void test_bad_durations(void **state)
{
	(void)state;
	expect_bad(rt_parse_duration, "5", -EINVAL, "needs a unit");
	expect_bad(rt_parse_duration, "", -EINVAL, "invalid duration ''");
	expect_bad(rt_parse_duration, "ms", -EINVAL, "invalid duration");
	expect_bad(rt_parse_duration, "1 ms", -EINVAL, "invalid duration");
	expect_bad(rt_parse_duration, "1m", -EINVAL, "invalid duration '1m'");
	expect_bad(rt_parse_duration, "-1ms", -EINVAL, "invalid duration");
	expect_bad(rt_parse_duration, "1.ms", -EINVAL, "invalid duration");
	expect_bad(rt_parse_duration, "1e3ms", -EINVAL, "invalid duration");
	expect_bad(rt_parse_duration, "18446744073709551616ns", -ERANGE,
		   "too large");
	expect_bad(rt_parse_duration, "18446744074s", -ERANGE, "too large");
	expect_bad(rt_parse_seconds, "2x", -EINVAL, "invalid duration '2x'");
	/* An unknown unit is named, with the units there are. */
	expect_bad(rt_parse_seconds, "400y", -EINVAL, "'y' is not a unit");
	expect_bad(rt_parse_duration, "213504d", -ERANGE, "too large");
}

/* Minutes, hours and days, as "-d 400d" was written. */
static void test_long_units(void **state)
{
	uint64_t ns;
	char err[128];

	(void)state;
	assert_int_equal(rt_parse_seconds("400d", &ns, err, sizeof(err)), 0);
	assert_true(ns == 400ull * 86400 * 1000000000ull);
	assert_int_equal(rt_parse_duration("1.5h", &ns, err, sizeof(err)), 0);
	assert_true(ns == 5400ull * 1000000000ull);
	assert_int_equal(rt_parse_duration("2min", &ns, err, sizeof(err)), 0);
	assert_true(ns == 120ull * 1000000000ull);
}

/* Sizes printed as they are written, not in bytes only. */
static void test_format_size(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(rt_format_size(buf, sizeof(buf), 1ull << 40), "1T");
	assert_string_equal(rt_format_size(buf, sizeof(buf), 4096 * 4), "16K");
	assert_string_equal(rt_format_size(buf, sizeof(buf), 5000), "5000");
	assert_string_equal(rt_format_size(buf, sizeof(buf), 3ull << 20), "3M");
}

static void test_sizes(void **state)
{
	(void)state;
	assert_int_equal(size("4096"), 4096);
	assert_int_equal(size("64K"), 65536);
	assert_int_equal(size("64k"), 65536);
	assert_int_equal(size("4M"), 4 << 20);
	assert_int_equal(size("4MiB"), 4 << 20);
	assert_int_equal(size("4mb"), 4 << 20);
	assert_int_equal(size("1G"), 1ull << 30);
	assert_int_equal(size("2T"), 2ull << 40);
}

static void test_bad_sizes(void **state)
{
	(void)state;
	expect_bad(rt_parse_size, "", -EINVAL, "invalid size");
	expect_bad(rt_parse_size, "1.5M", -EINVAL, "invalid size '1.5M'");
	expect_bad(rt_parse_size, "4X", -EINVAL, "invalid size");
	expect_bad(rt_parse_size, "4Mx", -EINVAL, "invalid size");
	expect_bad(rt_parse_size, "M", -EINVAL, "invalid size");
	expect_bad(rt_parse_size, "-4K", -EINVAL, "invalid size");
	expect_bad(rt_parse_size, "17179869184G", -ERANGE, "too large");
}

/* -e's module event names, shared by every tool; a prefix is no name. */
static void test_event_names(void **state)
{
	(void)state;
	assert_true(rt_parse_event_name("vfs_read", 8) ==
		    RINGTRACE_EVENT_VFS_READ);
	assert_true(rt_parse_event_name("lock,offcpu", 4) ==
		    RINGTRACE_EVENT_LOCK);
	assert_true(rt_parse_event_name("lock-contention", 15) ==
		    RINGTRACE_EVENT_LOCK_CONTENTION);
	assert_true(rt_parse_event_name("offcpu", 6) == RINGTRACE_EVENT_OFFCPU);
	assert_true(rt_parse_event_name("vfs_rea", 7) == 0);
	assert_true(rt_parse_event_name("sample", 6) == 0);
}

int main(void)
{
	RUN(cmocka_unit_test(test_durations),
	    cmocka_unit_test(test_seconds),
	    cmocka_unit_test(test_bad_durations),
	    cmocka_unit_test(test_long_units),
	    cmocka_unit_test(test_format_size),
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_bad_sizes),
	    cmocka_unit_test(test_event_names));
}
