// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tracked-lock statistics table: fetching through a mocked
 * RINGTRACE_IOC_LOCK_STATS (growing the buffer when there are more locks
 * than room, no second read after a reset, a module without the ioctl),
 * the difference of two snapshots, sorting, and the exact text and JSON.
 */
#include <errno.h>
#include <sys/ioctl.h>

#include "test.h"

#include "ringtrace/lockstat.h"
#include "ringtrace/sys.h"

static unsigned int fake_nr_locks;
static int fake_errno;
static unsigned int fake_calls;
static uint32_t fake_last_flags;

static int fake_ioctl(int fd, unsigned long req, void *arg)
{
	struct ringtrace_lock_stats_query *q = arg;
	struct ringtrace_lock_stat *e = (void *)(uintptr_t)q->entries;
	unsigned int i;

	(void)fd;
	fake_calls++;
	if (fake_errno) {
		errno = fake_errno;
		return -1;
	}
	assert_int_equal(req, RINGTRACE_IOC_LOCK_STATS);
	assert_int_equal(q->size, sizeof(*q));
	assert_int_equal(q->entry_size, sizeof(*e));
	fake_last_flags = q->flags;
	q->nr_locks = fake_nr_locks;
	q->nr_entries = fake_nr_locks < q->nr_entries ? fake_nr_locks : q->nr_entries;
	for (i = 0; i < q->nr_entries; i++) {
		e[i].lock_id = i + 1;
		e[i].acquisitions = 10 * (i + 1);
		snprintf(e[i].name, sizeof(e[i].name), "lock-%u", i);
	}
	return 0;
}

static int setup(void **state)
{
	(void)state;
	rt_sys.ioctl = fake_ioctl;
	fake_errno = 0;
	fake_calls = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rt_sys_reset();
	return 0;
}

static void test_fetch_grows(void **state)
{
	struct rt_lockstat ls;
	char err[256];

	(void)state;
	fake_nr_locks = 100;	/* more than the first guess */
	assert_int_equal(rt_lockstat_fetch(3, &ls, false, err, sizeof(err)), 0);
	assert_int_equal(ls.nr, 100);
	assert_int_equal(fake_calls, 2);
	assert_string_equal(ls.locks[99].name, "lock-99");
	rt_lockstat_free(&ls);
}

static void test_fetch_reset_reads_once(void **state)
{
	struct rt_lockstat ls;
	char err[256];

	(void)state;
	fake_nr_locks = 100;
	assert_int_equal(rt_lockstat_fetch(3, &ls, true, err, sizeof(err)), 0);
	assert_int_equal(fake_calls, 1);
	assert_int_equal(fake_last_flags, RINGTRACE_LOCK_STATS_RESET);
	assert_int_equal(ls.nr, 64);	/* what fitted: no second reset */
	rt_lockstat_free(&ls);
}

static void test_fetch_old_module(void **state)
{
	struct rt_lockstat ls;
	char err[256];

	(void)state;
	fake_errno = ENOTTY;
	assert_int_equal(rt_lockstat_fetch(3, &ls, false, err, sizeof(err)), -ENOTTY);
	assert_non_null(strstr(err, "predates lock statistics"));
	assert_null(ls.locks);
}

static struct ringtrace_lock_stat stat_of(uint64_t id, const char *name,
					  uint64_t acq, uint64_t cont,
					  uint64_t wait, uint64_t wmax)
{
	struct ringtrace_lock_stat e = {
		.lock_id = id, .acquisitions = acq, .contended = cont,
		.wait_total_ns = wait, .wait_max_ns = wmax,
		.hold_total_ns = 2 * wait, .hold_max_ns = 2 * wmax,
	};

	strncpy(e.name, name, sizeof(e.name));
	return e;
}

static void test_delta(void **state)
{
	struct ringtrace_lock_stat b[] = {
		stat_of(1, "a", 100, 10, 1000, 50),
		stat_of(2, "b", 500, 0, 0, 0),
	};
	struct ringtrace_lock_stat n[] = {
		stat_of(1, "a", 150, 12, 1500, 70),
		stat_of(2, "b", 20, 0, 0, 0),		/* reset in between */
		stat_of(3, "c", 7, 1, 30, 30),		/* new */
	};
	struct rt_lockstat before = { b, 2 }, now = { n, 3 };

	(void)state;
	rt_lockstat_delta(&now, &before);
	assert_int_equal(n[0].acquisitions, 50);
	assert_int_equal(n[0].contended, 2);
	assert_int_equal(n[0].wait_total_ns, 500);
	assert_int_equal(n[0].hold_total_ns, 1000);
	assert_int_equal(n[0].wait_max_ns, 70);		/* kept */
	assert_int_equal(n[1].acquisitions, 20);	/* counted from zero */
	assert_int_equal(n[2].acquisitions, 7);		/* untouched */
}

static void test_sort(void **state)
{
	struct ringtrace_lock_stat e[] = {
		stat_of(1, "zeta", 10, 0, 0, 0),
		stat_of(2, "alpha", 90, 0, 0, 0),
		stat_of(3, "mid", 5, 3, 900, 400),
		stat_of(4, "beta", 90, 0, 0, 0),
	};
	struct rt_lockstat ls = { e, 4 };
	enum rt_lockstat_key key;

	(void)state;
	rt_lockstat_sort(&ls, RT_LOCKSTAT_BY_CONTENDED);
	/* Contended first; ties by acquisitions, then by name. */
	assert_string_equal(e[0].name, "mid");
	assert_string_equal(e[1].name, "alpha");
	assert_string_equal(e[2].name, "beta");
	assert_string_equal(e[3].name, "zeta");

	assert_int_equal(rt_lockstat_parse_key("name", &key), 0);
	rt_lockstat_sort(&ls, key);
	assert_string_equal(e[0].name, "alpha");
	assert_string_equal(e[3].name, "zeta");
	assert_int_equal(rt_lockstat_parse_key("hold-max", &key), 0);
	assert_int_equal(key, RT_LOCKSTAT_BY_HOLD_MAX);
	assert_int_equal(rt_lockstat_parse_key("bogus", &key), -EINVAL);
}

static char *print(void (*fn)(FILE *, const struct rt_lockstat *, unsigned int),
		   const struct rt_lockstat *ls, unsigned int top)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	fn(f, ls, top);
	fclose(f);
	return buf;
}

static void test_table_and_json(void **state)
{
	struct ringtrace_lock_stat e[] = {
		stat_of(7, "q\"\n", 4, 2, 3000, 2500),
		stat_of(8, "other", 1, 0, 0, 0),
	};
	struct rt_lockstat ls = { e, 2 };
	char *out;

	(void)state;
	out = print(rt_lockstat_print_table, &ls, 1);
	assert_non_null(strstr(out, "name "));
	assert_non_null(strstr(out, "wait-avg-us"));
	/* 4 acquisitions, 2 contended, 3 us waited (1.5 us each), 6 us held. */
	assert_non_null(strstr(out, "q\"\\x0a"));
	assert_non_null(strstr(out, "           4          2         3.000       2.500       1.500         6.000       5.000       1.500\n"));
	assert_null(strstr(out, "other"));	/* --top 1 */

	out = print(rt_lockstat_print_json, &ls, 0);
	assert_string_equal(out,
		"{\"type\":\"lockstat\",\"lock\":\"q\\\"\\n\",\"lock_id\":\"0x7\","
		"\"acquisitions\":4,\"contended\":2,\"wait_total_ns\":3000,"
		"\"wait_max_ns\":2500,\"hold_total_ns\":6000,\"hold_max_ns\":5000}\n"
		"{\"type\":\"lockstat\",\"lock\":\"other\",\"lock_id\":\"0x8\","
		"\"acquisitions\":1,\"contended\":0,\"wait_total_ns\":0,"
		"\"wait_max_ns\":0,\"hold_total_ns\":0,\"hold_max_ns\":0}\n");
}

static void test_name_without_nul(void **state)
{
	struct ringtrace_lock_stat e = stat_of(1, "", 1, 0, 0, 0);
	struct rt_lockstat ls = { &e, 1 };

	(void)state;
	memset(e.name, 'x', sizeof(e.name));	/* all 32 bytes, no NUL */
	assert_non_null(strstr(print(rt_lockstat_print_json, &ls, 0),
			       "\"lock\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\","));
}

int main(void)
{
	RUN(cmocka_unit_test_setup_teardown(test_fetch_grows, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fetch_reset_reads_once, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fetch_old_module, setup, teardown),
	    cmocka_unit_test(test_delta),
	    cmocka_unit_test(test_sort),
	    cmocka_unit_test(test_table_and_json),
	    cmocka_unit_test(test_name_without_nul));
}
