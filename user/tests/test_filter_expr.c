// SPDX-License-Identifier: GPL-2.0-only
/*
 * --filter expressions: precedence (! over && over ||,
 * parentheses), comparisons on each numeric field with its units, string
 * fields with == and globs, errors that name the column, record kinds
 * that lack a named field never passing, LOST records always passing, and
 * the ranges the module is given (only top-level conjuncts on ret and
 * count).
 */
#include "test.h"

#include <errno.h>

#include "ringtrace/filter.h"
#include "ringtrace/filter_expr.h"

static struct rt_event vfs(int64_t ret, uint64_t count, uint64_t lat_ns,
			   const char *path, const char *comm)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_VFS_READ;
	ev.pid = 100;
	ev.tid = 101;
	ev.cpu = 1;
	snprintf(ev.comm, sizeof(ev.comm), "%s", comm);
	ev.u.vfs_read.ret = ret;
	ev.u.vfs_read.count = count;
	ev.u.vfs_read.lat_ns = lat_ns;
	ev.u.vfs_read.pos = 0;
	ev.u.vfs_read.path = path;
	return ev;
}

/* Whether @text parses and @ev passes it. */
static bool pass(const char *text, const struct rt_event *ev)
{
	static struct rt_expr e;
	char err[160];

	if (rt_expr_parse(&e, text, err, sizeof(err))) {
		fail_msg("'%s': %s", text, err);
		return false;
	}
	return rt_expr_eval(&e, ev);
}

/* The message @text is refused with. */
static const char *error_of(const char *text)
{
	static struct rt_expr e;
	static char err[160];

	err[0] = '\0';
	if (!rt_expr_parse(&e, text, err, sizeof(err)))
		fail_msg("'%s' was accepted", text);
	return err;
}

static void test_comparisons(void **state)
{
	struct rt_event ok = vfs(832, 832, 65000, "/usr/lib/libc.so.6", "sh");
	struct rt_event bad = vfs(-EISDIR, 4096, 2000, "/etc", "cat");

	(void)state;
	assert_true(pass("ret < 0", &bad));
	assert_false(pass("ret < 0", &ok));
	assert_true(pass("ret >= 832", &ok));
	assert_false(pass("ret > 832", &ok));
	assert_true(pass("ret == -21", &bad));
	assert_true(pass("ret == -EISDIR", &bad));
	assert_false(pass("ret == -ENOENT", &bad));
	assert_true(pass("ret != 0", &ok));
	assert_true(pass("count > 4095", &bad));
	assert_true(pass("count >= 4K", &bad));
	assert_false(pass("count > 4K", &bad));
	assert_true(pass("count <= 1K", &ok));
	assert_true(pass("pos == 0", &ok));
	assert_true(pass("pid == 100 && tid == 101 && cpu == 1", &ok));
	assert_false(pass("cpu != 1", &ok));
	/* Durations: a unit, or nanoseconds. */
	assert_true(pass("lat > 64us", &ok));
	assert_false(pass("lat > 65us", &ok));
	assert_true(pass("lat >= 65000", &ok));
	assert_true(pass("lat < 0.1ms", &ok));
	assert_true(pass("lat<1ms&&ret>0", &ok));	/* no blanks needed */
}

static void test_strings_and_globs(void **state)
{
	struct rt_event ev = vfs(3, 8192, 1000, "/etc/hostname", "cat");
	struct rt_event unnamed = vfs(3, 8192, 1000, NULL, "cat");

	(void)state;
	assert_true(pass("path == \"/etc/hostname\"", &ev));
	assert_true(pass("path ~ \"/etc/*\"", &ev));
	assert_true(pass("path ~ \"*name\"", &ev));
	assert_false(pass("path ~ \"/usr/*\"", &ev));
	assert_true(pass("path !~ \"/usr/*\"", &ev));
	assert_true(pass("path ~ \"/etc/host?ame\"", &ev));
	assert_true(pass("path ~ \"/etc/[gh]*\"", &ev));
	assert_true(pass("comm == \"cat\"", &ev));
	assert_true(pass("comm ~ \"c*\"", &ev));
	assert_true(pass("comm != \"tar\"", &ev));
	/* A file with no name is "". */
	assert_true(pass("path == \"\"", &unnamed));
	assert_false(pass("path ~ \"/*\"", &unnamed));
	/* Escapes inside strings. */
	snprintf(ev.comm, sizeof(ev.comm), "a\"b\\c");
	assert_true(pass("comm == \"a\\\"b\\\\c\"", &ev));
}

static void test_precedence(void **state)
{
	struct rt_event ev = vfs(-5, 10, 1000, "/x", "sh");

	(void)state;
	/* && binds tighter than ||: true || (false && false). */
	assert_true(pass("ret < 0 || ret > 100 && count > 100", &ev));
	/* Parentheses change it: (true || false) && false. */
	assert_false(pass("(ret < 0 || ret > 100) && count > 100", &ev));
	/* ! binds tightest: (!true) || true. */
	assert_true(pass("!ret < 0 || count == 10", &ev));
	assert_false(pass("!(ret < 0 || count == 10)", &ev));
	assert_true(pass("!!(ret < 0)", &ev));
	assert_true(pass("((((ret == -5))))", &ev));
	/* Left to right, both sides evaluated as needed. */
	assert_true(pass("ret > 0 || count > 5 || comm == \"x\"", &ev));
	assert_false(pass("ret < 0 && count > 5 && comm == \"x\"", &ev));
}

static void test_errors_name_the_column(void **state)
{
	(void)state;
	assert_string_equal(error_of("ret < "), "expected a number at column 7");
	assert_string_equal(error_of("ret <"), "expected a number at column 6");
	assert_string_equal(error_of("rett < 0"),
			    "unknown field (ret, count, pos, lat, ino, path, "
			    "wait, hold, lock, offcpu, func, pid, tid, cpu, comm) "
			    "at column 1");
	assert_string_equal(error_of("ret = 0"),
			    "expected a comparison (== not =) at column 5");
	assert_string_equal(error_of("ret < 0 &&"),
			    "expected a field name at column 11");
	assert_string_equal(error_of("ret < 0 & count > 1"),
			    "expected && or || at column 9");
	assert_string_equal(error_of("(ret < 0"), "expected ) at column 9");
	assert_string_equal(error_of("ret < 0)"),
			    "expected && or || or the end at column 8");
	assert_string_equal(error_of("path ~ /etc"),
			    "expected a \"quoted string\" at column 8");
	assert_string_equal(error_of("path ~ \"/etc"),
			    "string not terminated at column 8");
	assert_string_equal(error_of("path < \"a\""),
			    "a string field takes == != ~ !~ at column 6");
	assert_string_equal(error_of("ret ~ 1"),
			    "a numeric field takes == != < <= > >= at column 5");
	assert_string_equal(error_of("count > -1"),
			    "this field is never negative at column 9");
	assert_string_equal(error_of("pid == 1K"),
			    "expected a whole number at column 8");
	assert_string_equal(error_of("ret == -EBOGUS"),
			    "expected a number or an errno name (-EISDIR) at "
			    "column 8");
	assert_string_equal(error_of("ret < 99999999999999999999"),
			    error_of("ret < 99999999999999999999"));
	assert_non_null(strstr(error_of("lat > 3parsecs"), "at column 7"));
	assert_string_equal(error_of(""), "expected a field name at column 1");
	assert_string_equal(error_of("   "), "expected a field name at column 4");
}

static void test_too_long(void **state)
{
	char text[RT_EXPR_MAX_LEN + 64];
	size_t n = 0;

	(void)state;
	/* 33 comparisons and 32 && : 65 nodes, one too many. */
	for (int i = 0; i < 33; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%sret>%d",
				      i ? "&&" : "", i);
	assert_non_null(strstr(error_of(text), "expression too long"));
	memset(text, '(', 100);
	strcpy(text + 100, "ret < 0");
	assert_string_equal(error_of(text), "nested too deeply at column 65");
	memset(text, '!', 100);
	strcpy(text + 100, "ret < 0");
	assert_string_equal(error_of(text), "nested too deeply at column 65");
	memset(text, ' ', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	assert_non_null(strstr(error_of(text), "longer than"));
}

static void test_kinds_without_the_field(void **state)
{
	struct rt_event lock, sample, lost, offcpu;

	(void)state;
	memset(&lock, 0, sizeof(lock));
	lock.kind = RT_EVENT_LOCK;
	lock.pid = 100;
	lock.u.lock.wait_ns = 5000;
	snprintf(lock.u.lock.name, sizeof(lock.u.lock.name), "mylock");
	sample = lock;
	sample.kind = RT_EVENT_SAMPLE;
	offcpu = lock;
	offcpu.kind = RT_EVENT_OFFCPU;
	offcpu.u.offcpu.offcpu_ns = 2000000;
	/* A kind without ret never passes a filter naming ret... */
	assert_false(pass("ret < 0", &lock));
	assert_false(pass("ret < 0 || pid == 100", &lock));
	assert_false(pass("!(ret < 0)", &lock));
	/* ...but every tasked kind has pid, tid, cpu and comm. */
	assert_true(pass("pid == 100", &lock));
	assert_true(pass("pid == 100", &sample));
	assert_true(pass("pid == 100", &offcpu));
	assert_true(pass("wait >= 5us && lock ~ \"my*\"", &lock));
	assert_false(pass("wait >= 5us", &sample));
	assert_true(pass("offcpu > 1ms", &offcpu));

	/* Through rt_filter: LOST records always pass, and are not counted. */
	struct rt_filter f;
	char err[160];

	memset(&f, 0, sizeof(f));
	memset(&lost, 0, sizeof(lost));
	lost.kind = RT_EVENT_LOST;
	assert_int_equal(rt_filter_add_expr(&f, "ret < 0", err, sizeof(err)), 0);
	assert_true(rt_filter_active(&f));
	assert_true(rt_filter_pass(&f, &lost));
	assert_false(rt_filter_pass(&f, &lock));
	assert_int_equal(f.expr_dropped, 1);
	rt_filter_free(&f);
}

static void test_filters_and(void **state)
{
	struct rt_event a = vfs(-2, 10, 1, "/a", "x");
	struct rt_event b = vfs(-2, 9000, 1, "/b", "x");
	struct rt_event c = vfs(5, 9000, 1, "/c", "x");
	struct rt_filter f;
	char err[160];

	(void)state;
	memset(&f, 0, sizeof(f));
	assert_int_equal(rt_filter_add_expr(&f, "ret < 0", err, sizeof(err)), 0);
	assert_int_equal(rt_filter_add_expr(&f, "count > 4096", err,
					    sizeof(err)), 0);
	assert_false(rt_filter_pass(&f, &a));
	assert_true(rt_filter_pass(&f, &b));
	assert_false(rt_filter_pass(&f, &c));
	assert_int_equal(f.expr_dropped, 2);
	assert_int_equal(rt_filter_add_expr(&f, "ret <", err, sizeof(err)), -1);
	assert_string_equal(err, "expected a number at column 6");
	assert_int_equal(f.nr_exprs, 2);
	rt_filter_free(&f);
}

static void test_kernel_ranges(void **state)
{
	struct rt_expr_ranges r;
	static struct rt_expr e;
	char err[160];

	(void)state;
	rt_expr_ranges_init(&r);
	assert_int_equal(rt_expr_parse(&e, "ret < 0 && count > 4096 && "
				       "path ~ \"/etc/*\"", err, sizeof(err)), 0);
	rt_expr_ranges_add(&r, &e);
	assert_true(r.ret_set && r.count_set);
	assert_true(r.ret_min == INT64_MIN && r.ret_max == -1);
	assert_true(r.count_min == 4097 && r.count_max == UINT64_MAX);
	/* A second --filter narrows further. */
	assert_int_equal(rt_expr_parse(&e, "ret >= -EISDIR && count <= 8K",
				       err, sizeof(err)), 0);
	rt_expr_ranges_add(&r, &e);
	assert_true(r.ret_min == -EISDIR && r.ret_max == -1);
	assert_true(r.count_min == 4097 && r.count_max == 8192);
	assert_false(rt_expr_ranges_empty(&r));

	/* || and ! are left to user space; != is not a range. */
	rt_expr_ranges_init(&r);
	assert_int_equal(rt_expr_parse(&e, "ret < 0 || count > 1", err,
				       sizeof(err)), 0);
	rt_expr_ranges_add(&r, &e);
	assert_false(r.ret_set || r.count_set);
	assert_int_equal(rt_expr_parse(&e, "!(ret < 0) && ret != 3", err,
				       sizeof(err)), 0);
	rt_expr_ranges_add(&r, &e);
	assert_false(r.ret_set || r.count_set);
	assert_int_equal(rt_expr_parse(&e, "ret == 7 && ret > 7", err,
				       sizeof(err)), 0);
	rt_expr_ranges_add(&r, &e);
	assert_true(rt_expr_ranges_empty(&r));
	rt_expr_ranges_init(&r);
	assert_int_equal(rt_expr_parse(&e, "count < 0", err, sizeof(err)), 0);
	rt_expr_ranges_add(&r, &e);
	assert_true(rt_expr_ranges_empty(&r));
}

int main(void)
{
	RUN(cmocka_unit_test(test_comparisons),
	    cmocka_unit_test(test_strings_and_globs),
	    cmocka_unit_test(test_precedence),
	    cmocka_unit_test(test_errors_name_the_column),
	    cmocka_unit_test(test_too_long),
	    cmocka_unit_test(test_kinds_without_the_field),
	    cmocka_unit_test(test_filters_and),
	    cmocka_unit_test(test_kernel_ranges));
}
