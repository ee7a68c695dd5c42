// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-exporter's table and its Prometheus text (metrics.h): file
 * classes from names; keys by cgroup, comm and class; bytes and errors as
 * --summary counts them; buckets at 2^b - 1 ns with exact sums; lock hold
 * skipped for kernel contention records; the series limit (later keys in
 * "[other]", nothing lost, earlier keys keep their series); a cgroup named
 * after its first use; label values escaped and made valid UTF-8; the
 * health figures (lost records, func calls the probes missed, the reader's
 * CPU time); func calls per (cgroup, comm, function), named as every view
 * names them (the session's list, else hex), apart from the lock and
 * off-CPU series of the same command.
 */
#include <errno.h>

#include "test.h"

#include <linux/ringtrace.h>

#include "ringtrace/metrics.h"
#include "ringtrace/output.h"

static struct rt_event read_ev(const char *comm, uint64_t cg,
			       const char *cg_path, const char *path,
			       uint64_t lat, int64_t ret)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_VFS_READ;
	snprintf(ev.comm, sizeof(ev.comm), "%s", comm);
	ev.ext.present = cg != 0;
	ev.ext.cgroup_id = cg;
	ev.ext.cgroup = cg_path;
	ev.u.vfs_read.path = path;
	ev.u.vfs_read.lat_ns = lat;
	ev.u.vfs_read.ret = ret;
	return ev;
}

/* The exposition of @m, NUL-terminated, to free. */
static char *print(const struct rt_metrics *m,
		   const struct rt_metrics_health *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(rt_metrics_print_prom(f, m, h), 0);
	fclose(f);
	return buf;
}

static void test_classes(void **state)
{
	(void)state;
	assert_int_equal(rt_metrics_file_class(NULL), RT_MC_UNNAMED);
	assert_int_equal(rt_metrics_file_class("/etc/passwd"), RT_MC_FILE);
	assert_int_equal(rt_metrics_file_class("/dev/zero"), RT_MC_DEVICE);
	assert_int_equal(rt_metrics_file_class("/proc/1/stat"), RT_MC_PROCFS);
	assert_int_equal(rt_metrics_file_class("/sys/kernel/x"), RT_MC_PROCFS);
	assert_int_equal(rt_metrics_file_class("pipe:[11069]"), RT_MC_PIPE);
	assert_int_equal(rt_metrics_file_class("socket:[42]"), RT_MC_SOCKET);
	assert_int_equal(rt_metrics_file_class("anon_inode:[eventfd]"),
			 RT_MC_ANON);
	assert_string_equal(rt_metrics_class_name(RT_MC_PIPE), "pipe");
}

static void test_counts_and_buckets(void **state)
{
	struct rt_metrics m;
	struct rt_metrics_health h = { .lost_pending = 2, .func_missed = 36,
					.reader_cpu_ns = 1500000000 };
	struct rt_event ev;
	char *text;

	(void)state;
	assert_int_equal(rt_metrics_init(&m, 8), 0);
	ev = read_ev("cat", 0, NULL, "/etc/a", 1023, 100);	/* first bucket */
	rt_metrics_add(&m, &ev);
	ev = read_ev("cat", 0, NULL, "/etc/b", 1024, 50);	/* second */
	rt_metrics_add(&m, &ev);
	ev = read_ev("cat", 0, NULL, "/etc/b", 1ull << 40, -5);	/* +Inf */
	rt_metrics_add(&m, &ev);
	ev = read_ev("cat", 0, NULL, "pipe:[3]", 7, 1);
	rt_metrics_add(&m, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_LOCK;
	strcpy(ev.comm, "locker");
	ev.u.lock.wait_ns = 4;
	ev.u.lock.hold_ns = 9;
	rt_metrics_add(&m, &ev);
	ev.u.lock.flags = RINGTRACE_LOCK_KERNEL;	/* no hold time */
	rt_metrics_add(&m, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_LOST;
	ev.u.lost.count = 3;
	rt_metrics_add(&m, &ev);
	assert_int_equal(m.nr_series, 3);	/* cat file, cat pipe, locker */

	text = print(&m, &h);
	assert_non_null(strstr(text,
		"ringtrace_vfs_read_duration_seconds_bucket{cgroup=\"-\","
		"comm=\"cat\",class=\"file\",le=\"0.000001023\"} 1\n"
		"ringtrace_vfs_read_duration_seconds_bucket{cgroup=\"-\","
		"comm=\"cat\",class=\"file\",le=\"0.000004095\"} 2\n"));
	assert_non_null(strstr(text,
		"ringtrace_vfs_read_duration_seconds_bucket{cgroup=\"-\","
		"comm=\"cat\",class=\"file\",le=\"68.719476735\"} 2\n"
		"ringtrace_vfs_read_duration_seconds_bucket{cgroup=\"-\","
		"comm=\"cat\",class=\"file\",le=\"+Inf\"} 3\n"
		"ringtrace_vfs_read_duration_seconds_sum{cgroup=\"-\","
		"comm=\"cat\",class=\"file\"} 1099.511629823\n"
		"ringtrace_vfs_read_duration_seconds_count{cgroup=\"-\","
		"comm=\"cat\",class=\"file\"} 3\n"));
	assert_non_null(strstr(text, "ringtrace_vfs_read_bytes_total{cgroup="
			       "\"-\",comm=\"cat\",class=\"file\"} 150\n"));
	assert_non_null(strstr(text, "ringtrace_vfs_read_errors_total{cgroup="
			       "\"-\",comm=\"cat\",class=\"file\"} 1\n"));
	assert_non_null(strstr(text, "ringtrace_vfs_read_bytes_total{cgroup="
			       "\"-\",comm=\"cat\",class=\"pipe\"} 1\n"));
	assert_non_null(strstr(text, "ringtrace_lock_wait_seconds_count{"
			       "cgroup=\"-\",comm=\"locker\"} 2\n"));
	assert_non_null(strstr(text, "ringtrace_lock_hold_seconds_count{"
			       "cgroup=\"-\",comm=\"locker\"} 1\n"));
	assert_null(strstr(text, "ringtrace_offcpu_seconds_count"));
	assert_non_null(strstr(text,
		"ringtrace_exporter_records_total{event=\"vfs_read\"} 4\n"
		"ringtrace_exporter_records_total{event=\"lock\"} 2\n"));
	assert_non_null(strstr(text,
		"\nringtrace_exporter_lost_records_total 5\n"));
	/* The probes' missed calls: a counter of their own, with its help. */
	assert_non_null(strstr(text,
		"# TYPE ringtrace_exporter_func_missed_total counter\n"
		"ringtrace_exporter_func_missed_total 36\n"));
	assert_non_null(strstr(text,
		"# HELP ringtrace_exporter_func_missed_total Calls of traced "
		"functions the probes missed (no record).\n"));
	assert_non_null(strstr(text,
		"\nringtrace_exporter_reader_cpu_seconds_total 1.500000000\n"));
	free(text);
	rt_metrics_fini(&m);
}

static void test_series_limit(void **state)
{
	static const char *const comms[] = { "a", "b", "c", "d", "a", "c" };
	struct rt_metrics m;
	struct rt_metrics_health h = { 0 };
	struct rt_event ev;
	char *text;

	(void)state;
	assert_int_equal(rt_metrics_init(&m, 0), -EINVAL);
	assert_int_equal(rt_metrics_init(&m, 2), 0);
	for (unsigned int i = 0; i < 6; i++) {
		ev = read_ev(comms[i], 0, NULL, "/x", 10, 1);
		rt_metrics_add(&m, &ev);
	}
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_OFFCPU;
	strcpy(ev.comm, "e");
	ev.u.offcpu.offcpu_ns = 5;
	rt_metrics_add(&m, &ev);
	assert_int_equal(m.nr_series, 2);
	assert_int_equal(m.other_records, 4);	/* c, d, c, and e's */
	text = print(&m, &h);
	/* a and b keep theirs, a counted twice; c and d together. */
	assert_non_null(strstr(text, "_count{cgroup=\"-\",comm=\"a\","
			       "class=\"file\"} 2\n"));
	assert_non_null(strstr(text, "_count{cgroup=\"-\",comm=\"b\","
			       "class=\"file\"} 1\n"));
	assert_non_null(strstr(text, "_count{cgroup=\"[other]\",comm="
			       "\"[other]\",class=\"other\"} 3\n"));
	assert_non_null(strstr(text, "ringtrace_offcpu_seconds_count{cgroup="
			       "\"[other]\",comm=\"[other]\"} 1\n"));
	assert_null(strstr(text, "comm=\"c\""));
	assert_non_null(strstr(text, "\nringtrace_exporter_series 2\n"));
	free(text);
	rt_metrics_fini(&m);
}

static void test_labels(void **state)
{
	struct rt_metrics m;
	struct rt_metrics_health h = { 0 };
	struct rt_event ev;
	char *text;

	(void)state;
	assert_int_equal(rt_metrics_init(&m, 4), 0);
	/* Unnamed at first, named by a later record: the name is kept. */
	ev = read_ev("x", 77, NULL, "/f", 1, 1);
	rt_metrics_add(&m, &ev);
	ev = read_ev("x", 77, "/a\"b\\c\nd", "/f", 1, 1);
	rt_metrics_add(&m, &ev);
	ev = read_ev("bad\xff", 0, NULL, "/f", 1, 1);
	rt_metrics_add(&m, &ev);
	ev = read_ev("y", 78, NULL, "/f", 1, 1);	/* never named */
	rt_metrics_add(&m, &ev);
	text = print(&m, &h);
	assert_non_null(strstr(text, "_count{cgroup=\"/a\\\"b\\\\c\\nd\","
			       "comm=\"x\",class=\"file\"} 2\n"));
	assert_non_null(strstr(text, "comm=\"bad\xef\xbf\xbd\""));
	assert_non_null(strstr(text, "_count{cgroup=\"#78\",comm=\"y\","));
	free(text);
	rt_metrics_fini(&m);
}

static struct rt_event func_ev(const char *comm, uint32_t idx, uint64_t ip,
			       uint64_t lat)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_FUNC;
	snprintf(ev.comm, sizeof(ev.comm), "%s", comm);
	ev.u.func.idx = idx;
	ev.u.func.ip = ip;
	ev.u.func.lat_ns = lat;
	return ev;
}

static void test_funcs(void **state)
{
	static const char names[2][RINGTRACE_FUNC_NAME_LEN] = {
		"vfs_write", "do_sys_openat2"
	};
	struct rt_metrics m;
	struct rt_metrics_health h = { 0 };
	struct rt_event ev;
	char *text;

	(void)state;
	rt_output_set_func_names(names, 2);
	assert_int_equal(rt_metrics_init(&m, 8), 0);
	for (unsigned int i = 0; i < 3; i++) {
		ev = func_ev("dd", 0, 0xffffffff81000000ull, 1000 + i);
		rt_metrics_add(&m, &ev);
	}
	ev = func_ev("dd", 1, 0xffffffff82000000ull, 5000);
	rt_metrics_add(&m, &ev);
	/* Not in the list (a replay without symbols): its address. */
	ev = func_ev("dd", 7, 0xffffffff83000000ull, 7);
	rt_metrics_add(&m, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_OFFCPU;
	strcpy(ev.comm, "dd");
	ev.u.offcpu.offcpu_ns = 9;
	rt_metrics_add(&m, &ev);
	assert_int_equal(m.nr_series, 4);
	assert_int_equal(m.records[RT_EVENT_FUNC], 5);
	text = print(&m, &h);
	assert_non_null(strstr(text, "# TYPE ringtrace_func_duration_seconds "
			       "histogram\n"));
	assert_non_null(strstr(text, "ringtrace_func_duration_seconds_count{"
			       "cgroup=\"-\",comm=\"dd\",function=\"vfs_write\"} "
			       "3\n"));
	assert_non_null(strstr(text, "ringtrace_func_duration_seconds_sum{"
			       "cgroup=\"-\",comm=\"dd\",function=\"vfs_write\"} "
			       "0.000003003\n"));
	assert_non_null(strstr(text, "ringtrace_func_duration_seconds_count{"
			       "cgroup=\"-\",comm=\"dd\",function=\"do_sys_openat2"
			       "\"} 1\n"));
	assert_non_null(strstr(text, "function=\"0xffffffff83000000\"} 1\n"));
	/* The command's off-CPU series is its own, without a function. */
	assert_non_null(strstr(text, "ringtrace_offcpu_seconds_count{cgroup="
			       "\"-\",comm=\"dd\"} 1\n"));
	assert_non_null(strstr(text, "ringtrace_exporter_records_total{event="
			       "\"func\"} 5\n"));
	free(text);
	rt_metrics_fini(&m);
	rt_output_set_func_names(NULL, 0);
}

int main(void)
{
	RUN(cmocka_unit_test(test_classes),
	    cmocka_unit_test(test_counts_and_buckets),
	    cmocka_unit_test(test_series_limit),
	    cmocka_unit_test(test_labels),
	    cmocka_unit_test(test_funcs));
}
