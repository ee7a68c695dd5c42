// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU lists: "0,2-3" style parsing (with sysfs' trailing newline), every
 * malformed list refused with a message, iteration and formatting, and
 * online CPU discovery read through the syscall seam.
 */
#include <errno.h>
#include <fcntl.h>

#include "test.h"

#include "ringtrace/cpuset.h"
#include "ringtrace/sys.h"

static void test_parse_lists(void **state)
{
	struct rt_cpuset set;
	char err[256], text[64];

	(void)state;
	assert_int_equal(rt_cpuset_parse(&set, "0,2-3", err, sizeof(err)), 0);
	assert_int_equal(rt_cpuset_count(&set), 3);
	assert_true(rt_cpuset_has(&set, 0));
	assert_false(rt_cpuset_has(&set, 1));
	assert_true(rt_cpuset_has(&set, 3));
	assert_int_equal(set.bits[0], 0xd);
	rt_cpuset_format(&set, text, sizeof(text));
	assert_string_equal(text, "0,2-3");

	assert_int_equal(rt_cpuset_parse(&set, "0-127\n", err, sizeof(err)), 0);
	assert_int_equal(rt_cpuset_count(&set), 128);
	assert_int_equal(rt_cpuset_parse(&set, "8191", err, sizeof(err)), 0);
	assert_int_equal(rt_cpuset_next(&set, -1), 8191);
	assert_int_equal(rt_cpuset_next(&set, 8191), -1);
	assert_int_equal(rt_cpuset_parse(&set, "5,5,4-5", err, sizeof(err)), 0);
	assert_int_equal(rt_cpuset_count(&set), 2);
}

static void test_iteration_skips_words(void **state)
{
	struct rt_cpuset set;
	char err[64];
	int seen[4], n = 0;

	(void)state;
	rt_cpuset_parse(&set, "1,64,200,4000", err, sizeof(err));
	for (int c = rt_cpuset_next(&set, -1); c >= 0; c = rt_cpuset_next(&set, c))
		seen[n++] = c;
	assert_int_equal(n, 4);
	assert_int_equal(seen[0], 1);
	assert_int_equal(seen[1], 64);
	assert_int_equal(seen[2], 200);
	assert_int_equal(seen[3], 4000);
}

static void expect_bad(const char *list, const char *words)
{
	struct rt_cpuset set;
	char err[256] = "";

	assert_int_equal(rt_cpuset_parse(&set, list, err, sizeof(err)), -EINVAL);
	if (!strstr(err, words))
		fail_msg("'%s': message '%s' lacks '%s'", list, err, words);
}

static void test_bad_lists(void **state)
{
	(void)state;
	expect_bad("", "empty");
	expect_bad("a", "cannot parse 'a'");
	expect_bad("1,", "cannot parse ''");
	expect_bad(",1", "cannot parse ''");
	expect_bad("3-1", "goes backwards");
	expect_bad("1-", "cannot parse '1-'");
	expect_bad("-1", "cannot parse '-1'");
	expect_bad("1 2", "cannot parse '1 2'");
	expect_bad("8192", "below 8192");
	expect_bad("0-99999999999", "below 8192");
	expect_bad("0\nx", "unexpected text");
}

static const char *online_text;
/* NULL: no present file (ENOENT). */
static const char *present_text;

static int fake_open(const char *path, int flags, mode_t mode)
{
	(void)flags;
	(void)mode;
	if (!strcmp(path, RT_CPU_PRESENT_PATH) && present_text) {
		online_text = present_text;
		return 42;
	}
	if (strcmp(path, RT_CPU_ONLINE_PATH)) {
		errno = ENOENT;
		return -1;
	}
	if (!online_text) {
		errno = EACCES;
		return -1;
	}
	return 42;
}

static ssize_t fake_read(int fd, void *buf, size_t len)
{
	size_t n = strlen(online_text);

	assert_int_equal(fd, 42);
	if (n > len)
		n = len;
	memcpy(buf, online_text, n);
	online_text += n;
	return (ssize_t)n;
}

static int fake_close(int fd)
{
	assert_int_equal(fd, 42);
	return 0;
}

static void test_online_through_seam(void **state)
{
	struct rt_cpuset set;
	char err[256];

	(void)state;
	rt_sys.open = fake_open;
	rt_sys.read = fake_read;
	rt_sys.close = fake_close;
	online_text = "0-1,4\n";
	assert_int_equal(rt_cpuset_online(&set, err, sizeof(err)), 0);
	assert_int_equal(rt_cpuset_count(&set), 3);
	assert_true(rt_cpuset_has(&set, 4));

	online_text = NULL;
	assert_int_equal(rt_cpuset_online(&set, err, sizeof(err)), -EACCES);
	assert_non_null(strstr(err, RT_CPU_ONLINE_PATH));
	rt_sys_reset();
}

/* An offline CPU that can come back is present: its ring is mapped too. */
static void test_present_includes_offline(void **state)
{
	struct rt_cpuset set;
	char err[256];

	(void)state;
	rt_sys.open = fake_open;
	rt_sys.read = fake_read;
	rt_sys.close = fake_close;
	present_text = "0-3\n";
	assert_int_equal(rt_cpuset_present(&set, err, sizeof(err)), 0);
	assert_int_equal(rt_cpuset_count(&set), 4);
	assert_true(rt_cpuset_has(&set, 1));

	/* No present file (old kernels, odd sysfs): the online CPUs. */
	present_text = NULL;
	online_text = "0,2\n";
	assert_int_equal(rt_cpuset_present(&set, err, sizeof(err)), 0);
	assert_int_equal(rt_cpuset_count(&set), 2);
	assert_false(rt_cpuset_has(&set, 1));
	rt_sys_reset();
}

int main(void)
{
	RUN(cmocka_unit_test(test_parse_lists),
	    cmocka_unit_test(test_iteration_skips_words),
	    cmocka_unit_test(test_bad_lists),
	    cmocka_unit_test(test_online_through_seam),
	    cmocka_unit_test(test_present_includes_offline));
}
