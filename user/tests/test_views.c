// SPDX-License-Identifier: GPL-2.0-only
/*
 * The views' building blocks: histogram buckets tile the whole u64 range
 * and are at most 1/8 of their lower bound wide; every percentile is at
 * or above the true value and at most 12.5 % above it, for uniform,
 * skewed and single-value data; the latency table sends keys past its
 * bound to [other] with totals intact; the flame graph tree sums folded
 * lines and ignores malformed ones; filters parse lists strictly; the
 * path table keeps the first name and counts what it drops; libdwfl names
 * this very program's functions and libc's from /proc/self/maps, and an
 * address nothing maps stays unnamed.
 */
#include <errno.h>

#include "test.h"

#include "ringtrace/filter.h"
#include "ringtrace/flamegraph.h"
#include "ringtrace/hist.h"
#include "ringtrace/latency_view.h"
#include "ringtrace/missing.h"
#include "ringtrace/mounts.h"
#include "ringtrace/paths.h"
#include "ringtrace/procmaps.h"
#include "ringtrace/usyms.h"

#include <unistd.h>

static void test_buckets_tile_the_range(void **state)
{
	uint64_t lo, hi, next = 0;

	(void)state;
	for (unsigned int b = 0; b < RT_HIST_BUCKETS; b++) {
		rt_hist_bucket_range(b, &lo, &hi);
		assert_true(lo == next);
		assert_true(hi >= lo);
		/* width at most lo/8 (exact buckets below 8) */
		assert_true(lo < 8 ? hi == lo : (hi - lo + 1) * 8 <= lo);
		assert_int_equal(rt_hist_bucket(lo), b);
		assert_int_equal(rt_hist_bucket(hi), b);
		next = hi + 1;
	}
	assert_true(next == 0);		/* the last bucket ends at UINT64_MAX */
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Percentiles of @v[n] against the exact order statistics. */
static void check_percentiles(uint64_t *v, size_t n)
{
	static struct rt_hist h;
	static const unsigned int pm[] = { 1, 100, 250, 500, 900, 990, 999, 1000 };

	memset(&h, 0, sizeof(h));
	for (size_t i = 0; i < n; i++)
		rt_hist_add(&h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < sizeof(pm) / sizeof(pm[0]); i++) {
		size_t rank = (n * pm[i] + 999) / 1000;
		uint64_t truth = v[(rank ? rank : 1) - 1];
		uint64_t got = rt_hist_percentile(&h, pm[i]);

		assert_true(got >= truth);
		assert_true((double)got <= (double)truth * 1.125 + 1);
	}
	assert_true(rt_hist_percentile(&h, 1000) == v[n - 1]);
}

static void test_percentiles_are_bounded(void **state)
{
	static uint64_t v[100000];
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (size_t i = 0; i < 100000; i++)
		v[i] = 1000 + i * 37;
	check_percentiles(v, 100000);
	for (size_t i = 0; i < 100000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift */
		v[i] = (x % 1000) * (x % 1000) * (1 + (x >> 60));  /* skewed */
	}
	check_percentiles(v, 100000);
	v[0] = 123456789;
	check_percentiles(v, 1);
}

static struct rt_event read_ev(uint32_t pid, uint64_t ino, uint64_t lat,
			       int64_t ret)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_VFS_READ;
	ev.pid = ev.tid = pid;
	snprintf(ev.comm, sizeof(ev.comm), "p%u", pid);
	ev.u.vfs_read.dev_major = 8;
	ev.u.vfs_read.ino = ino;
	ev.u.vfs_read.lat_ns = lat;
	ev.u.vfs_read.ret = ret;
	return ev;
}

static void test_table_overflows_into_other(void **state)
{
	struct rt_latency_view v = { .hist = true, .by = RT_HIST_BY_PID,
				     .summary = true };
	uint64_t calls = 0, bytes = 0;

	(void)state;
	assert_int_equal(rt_latency_view_init(&v), 0);
	for (uint32_t pid = 1; pid <= RT_VIEW_MAX_KEYS + 10; pid++) {
		struct rt_event ev = read_ev(pid, pid, 1000 * pid, 100);

		rt_latency_view_add(&v, &ev);
		rt_latency_view_add(&v, &ev);
	}
	assert_int_equal(v.keyed.nr, RT_VIEW_MAX_KEYS);
	assert_true(v.keyed.overflow == 20);
	assert_true(v.keyed.entries[RT_VIEW_MAX_KEYS].read.n == 20);
	for (uint32_t i = 0; i <= RT_VIEW_MAX_KEYS; i++) {
		calls += v.keyed.entries[i].read.n;
		bytes += v.keyed.entries[i].bytes;
	}
	assert_true(calls == 2 * (RT_VIEW_MAX_KEYS + 10));
	assert_true(bytes == 100 * calls);
	assert_true(v.total.read.n == calls);
	assert_int_equal(v.rows.nr, RT_VIEW_MAX_KEYS + 10);
	rt_latency_view_fini(&v);
}

/*
 * The percentile footnote followed "(no vfs_read or lock
 * events)"; it belongs under percentiles only.
 */
static void test_no_footnote_without_events(void **state)
{
	struct rt_latency_view v = { .hist = true };
	struct rt_event ev = read_ev(1, 1, 1000, 100);
	struct rt_outbuf ob;

	(void)state;
	assert_int_equal(rt_latency_view_init(&v), 0);
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	rt_latency_view_print(&v, &ob);
	rt_outbuf_append(&ob, "", 1);
	assert_non_null(strstr(ob.buf, "(no vfs_read, lock or offcpu events)"));
	assert_null(strstr(ob.buf, "percentiles"));
	/* What -e selected, when it says (cat/views.c sets it). */
	ob.len = 0;
	v.kinds = "offcpu";
	rt_latency_view_print(&v, &ob);
	rt_outbuf_append(&ob, "", 1);
	assert_non_null(strstr(ob.buf, "(no offcpu events)"));
	ob.len = 0;
	rt_latency_view_add(&v, &ev);
	rt_latency_view_print(&v, &ob);
	rt_outbuf_append(&ob, "", 1);
	assert_null(strstr(ob.buf, "(no offcpu events)"));
	assert_non_null(strstr(ob.buf, "(percentiles are the upper bound"));
	rt_outbuf_fini(&ob);
	rt_latency_view_fini(&v);
}

/*
 * Calls -e func:NAME's probes missed: a view says them as missing, in
 * text, in its one line and in its JSON object (paired printers).
 */
static void test_missing_func_calls(void **state)
{
	struct rt_missing m = { .events = 64 };
	char line[256], json[RT_MISSING_JSON_MAX];
	struct rt_outbuf ob;

	(void)state;
	assert_false(rt_missing_any(&m));
	*rt_missing_json(json, &m) = '\0';
	assert_non_null(strstr(json, ",\"func_missed\":0,"));
	m.func_missed = 36;
	assert_true(rt_missing_any(&m));
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	rt_missing_print(&m, &ob, "");
	rt_outbuf_append(&ob, "", 1);
	assert_string_equal(ob.buf, "\nmissing from this view:\n  36 func "
			    "calls missed by the probe (no record)\n");
	rt_outbuf_fini(&ob);
	rt_missing_line(&m, line, sizeof(line));
	assert_string_equal(line, "36 func calls missed by the probe (no "
			    "record)");
	*rt_missing_json(json, &m) = '\0';
	assert_non_null(strstr(json, "{\"events\":64,\"lost\":0,"));
	assert_non_null(strstr(json, ",\"func_missed\":36,"));
	/* off-CPU intervals the module could not follow: said the same way */
	m.func_missed = 0;
	m.offcpu_missed = 2;
	rt_missing_line(&m, line, sizeof(line));
	assert_string_equal(line, "2 off-CPU intervals the module could not "
			    "follow (no record)");
	*rt_missing_json(json, &m) = '\0';
	assert_non_null(strstr(json, ",\"offcpu_missed\":2,"));
}

/*
 * --summary of locks only (a recording of lock records, or -e lock): the
 * vfs_read table was a header over no rows. A line says there is none,
 * no footnote follows (no percentile was printed), and --hist's lock
 * histograms are still there.
 */
static void test_summary_of_locks_only(void **state)
{
	struct rt_latency_view v = { .summary = true };
	struct rt_event ev;
	struct rt_outbuf ob;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_LOCK;
	ev.pid = ev.tid = 7;
	ev.u.lock.wait_ns = 4000;
	ev.u.lock.hold_ns = 12000;
	snprintf(ev.u.lock.name, sizeof(ev.u.lock.name), "tracked");
	assert_int_equal(rt_latency_view_init(&v), 0);
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	rt_latency_view_add(&v, &ev);
	rt_latency_view_print(&v, &ob);
	rt_outbuf_append(&ob, "", 1);
	assert_null(strstr(ob.buf, "COMM"));
	assert_non_null(strstr(ob.buf, "(no vfs_read records: no per-file table)"));
	assert_null(strstr(ob.buf, "percentiles"));
	/* With --hist: the lock histograms and their footnote stay. */
	ob.len = 0;
	v.hist = true;
	rt_latency_view_print(&v, &ob);
	rt_outbuf_append(&ob, "", 1);
	assert_non_null(strstr(ob.buf, " lock wait\n"));
	assert_non_null(strstr(ob.buf, " lock hold\n"));
	assert_null(strstr(ob.buf, "COMM"));
	assert_non_null(strstr(ob.buf, "(percentiles are the upper bound"));
	/* One vfs_read: the table is back, with its header. */
	ob.len = 0;
	v.hist = false;
	ev = read_ev(1, 1, 1000, 100);
	rt_latency_view_add(&v, &ev);
	rt_latency_view_print(&v, &ob);
	rt_outbuf_append(&ob, "", 1);
	assert_non_null(strstr(ob.buf, "COMM"));
	assert_null(strstr(ob.buf, "(no vfs_read records"));
	rt_outbuf_fini(&ob);
	rt_latency_view_fini(&v);
}

static void test_flame_sums_folded_lines(void **state)
{
	struct rt_flame f;
	static const char *const lines[] = {
		"tar;main;read_[k] 3\n", "tar;main 2\n", "cat;main 5",
		"tar;main;read_[k] 1\n", "broken line\n", "no count \n",
	};

	(void)state;
	assert_int_equal(rt_flame_init(&f), 0);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		rt_flame_add_folded(&f, lines[i], strlen(lines[i]));
	assert_true(f.nodes[0].value == 11);
	assert_int_equal(f.nr, 6);	/* all tar main read cat main */
	assert_int_equal(f.max_depth, 3);
	rt_flame_fini(&f);
}

/*
 * --graph's folded chains: the [off-cpu] frame and every frame above it
 * (where the task blocked) take flamegraph.pl --color=io's blues, the
 * callee it blocked in keeps its warm colour.
 */
static void test_flame_offcpu_blue(void **state)
{
	static const char line[] =
		"dd;vfs_read_[k];filemap_read_[k];[off-cpu];io_schedule_[k] 7";
	struct rt_outbuf ob;
	struct rt_flame f;
	char *svg, *at;

	(void)state;
	assert_int_equal(rt_flame_init(&f), 0);
	rt_flame_add_folded(&f, line, strlen(line));
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	rt_flame_write_svg(&f, &ob, "t", "ns");
	svg = strndup(ob.buf, ob.len);
	assert_non_null(svg);
	for (int i = 0; i < 3; i++) {
		const char *name = i == 0 ? "<title>filemap_read_[k] " :
				   i == 1 ? "<title>[off-cpu] " :
				   "<title>io_schedule_[k] ";
		unsigned int r, g, b;

		at = strstr(svg, name);
		assert_non_null(at);
		at = strstr(at, "fill=\"rgb(");
		assert_non_null(at);
		assert_int_equal(sscanf(at, "fill=\"rgb(%u,%u,%u)", &r, &g, &b), 3);
		/* io's blues: r == g, b above both; warm: r above b */
		assert_true(i ? (r == g && b > r) : r > b);
	}
	free(svg);
	rt_outbuf_fini(&ob);
	rt_flame_fini(&f);
}

/*
 * A stack of 127 frames (a frame-pointer loop) made the graph
 * thousands of pixels tall: past RT_FLAME_MAX_DEPTH levels the rest is
 * one frame, the weights still sum, and such stacks are counted.
 */
static void test_flame_depth_capped(void **state)
{
	static char line[127 * 4 + 16];
	const char *frames[127];
	struct rt_flame f;
	size_t len = 0;

	(void)state;
	for (int i = 0; i < 127; i++) {
		frames[i] = "fn";
		len += (size_t)sprintf(line + len, "%sfn", i ? ";" : "");
	}
	sprintf(line + len, " 3");
	assert_int_equal(rt_flame_init(&f), 0);
	rt_flame_add(&f, frames, 127, 2);
	rt_flame_add_folded(&f, line, strlen(line));
	rt_flame_add(&f, frames, 10, 1);
	assert_true(f.nodes[0].value == 6);
	assert_int_equal(f.max_depth, RT_FLAME_MAX_DEPTH + 1);
	assert_int_equal(f.nr, RT_FLAME_MAX_DEPTH + 2);	/* + all, + deeper */
	assert_string_equal(f.names + f.nodes[f.nr - 1].name, RT_FLAME_DEEPER);
	assert_true(f.nodes[f.nr - 1].value == 5);
	assert_true(f.capped == 2);
	rt_flame_fini(&f);
}

static void test_filter_lists(void **state)
{
	uint32_t ids[RT_FILTER_MAX_IDS], nr;
	struct rt_filter f;
	struct rt_event ev = read_ev(7, 1, 10, 1);

	(void)state;
	assert_int_equal(rt_filter_parse_ids("1,2,3", ids, &nr), 0);
	assert_int_equal(nr, 3);
	assert_int_equal(ids[2], 3);
	assert_int_equal(rt_filter_parse_ids("1,,2", ids, &nr), -1);
	assert_int_equal(rt_filter_parse_ids("1,", ids, &nr), -1);
	assert_int_equal(rt_filter_parse_ids("0", ids, &nr), -1);
	assert_int_equal(rt_filter_parse_ids("", ids, &nr), -1);
	memset(&f, 0, sizeof(f));
	assert_false(rt_filter_active(&f));
	assert_int_equal(rt_filter_parse_ids("5,7", f.pids, &f.nr_pids), 0);
	assert_true(rt_filter_pass(&f, &ev));
	ev.pid = 6;
	assert_false(rt_filter_pass(&f, &ev));
	ev.kind = RT_EVENT_LOST;	/* no task: always shown */
	assert_true(rt_filter_pass(&f, &ev));
}

/*
 * --time takes timestamps as printed (perf's --time) and
 * durations after the first event with units; END before START is named.
 */
static void test_filter_time(void **state)
{
	struct rt_filter f;
	struct rt_event ev = read_ev(7, 1, 10, 1);
	char err[160];

	(void)state;
	memset(&f, 0, sizeof(f));
	assert_int_equal(rt_filter_parse_time("61.4,62.5", &f, err,
					      sizeof(err)), 0);
	assert_false(f.from_after_first || f.to_after_first);
	assert_true(f.from_ns == 61400000000ull && f.to_ns == 62500000000ull);
	ev.ts_ns = 61000000000ull;		/* first event: before */
	assert_false(rt_filter_pass(&f, &ev));
	ev.ts_ns = 62000000000ull;
	assert_true(rt_filter_pass(&f, &ev));
	ev.ts_ns = 62500000001ull;
	assert_false(rt_filter_pass(&f, &ev));
	assert_int_equal(f.time_matched, 1);

	memset(&f, 0, sizeof(f));
	assert_int_equal(rt_filter_parse_time("1s,2500ms", &f, err,
					      sizeof(err)), 0);
	assert_true(f.from_after_first && f.to_after_first);
	ev.ts_ns = 5000000000ull;		/* the first event */
	assert_false(rt_filter_pass(&f, &ev));
	ev.ts_ns = 7000000000ull;
	assert_true(rt_filter_pass(&f, &ev));
	ev.ts_ns = 7600000000ull;
	assert_false(rt_filter_pass(&f, &ev));

	memset(&f, 0, sizeof(f));
	assert_int_equal(rt_filter_parse_time(",2s", &f, err, sizeof(err)), 0);
	assert_int_equal(rt_filter_parse_time("1,0.5", &f, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "END (0.5) is before START (1)"));
	assert_int_equal(rt_filter_parse_time("1x,", &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'x' is not a unit"));
	assert_int_equal(rt_filter_parse_time("1", &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not START,END"));
}

static void test_paths_first_name_wins(void **state)
{
	struct rt_paths p;

	(void)state;
	assert_int_equal(rt_paths_init(&p), 0);
	rt_paths_set(&p, 8, 1, 42, "/etc/passwd", 11);
	rt_paths_set(&p, 8, 1, 42, "/other", 6);
	assert_string_equal(rt_paths_get(&p, 8, 1, 42), "/etc/passwd");
	assert_null(rt_paths_get(&p, 8, 2, 42));
	for (uint64_t i = 0; i < RT_PATHS_MAX + 5; i++)
		rt_paths_set(&p, 9, 0, i, "x", 1);
	assert_int_equal(p.nr, RT_PATHS_MAX);
	assert_true(p.dropped == 6);	/* 5 beyond, plus /etc/passwd's slot */
	/* Not kept, but the latest RT_PATHS_SPILL still name their reads. */
	rt_paths_set(&p, 9, 0, 1u << 20, "/spilled", 8);
	assert_string_equal(rt_paths_get(&p, 9, 0, 1u << 20), "/spilled");
	for (uint64_t i = 1; i < RT_PATHS_SPILL; i++)
		rt_paths_set(&p, 9, 1, i, "y", 1);
	assert_string_equal(rt_paths_get(&p, 9, 0, 1u << 20), "/spilled");
	rt_paths_set(&p, 9, 1, RT_PATHS_SPILL, "y", 1);
	assert_null(rt_paths_get(&p, 9, 0, 1u << 20));	/* pushed out */
	assert_int_equal(p.nr, RT_PATHS_MAX);
	rt_paths_fini(&p);
}

/* A path record's flags say how its name reads: shown that way. */
static void test_paths_flags_shown(void **state)
{
	struct rt_path_event ev = {
		.dev_major = 0, .dev_minor = 22, .ino = 1,
		.path = "/tmp.x/file", .len = 11,
	};
	struct rt_paths p;

	(void)state;
	assert_int_equal(rt_paths_init(&p), 0);
	ev.flags = RINGTRACE_PATH_MOUNT_RELATIVE;
	rt_paths_add(&p, &ev);
	assert_string_equal(rt_paths_get(&p, 0, 22, 1), "[0:22]/tmp.x/file");
	ev.ino = 2;
	ev.flags = RINGTRACE_PATH_TRUNCATED | RINGTRACE_PATH_DELETED;
	rt_paths_add(&p, &ev);
	assert_string_equal(rt_paths_get(&p, 0, 22, 2),
			    ".../tmp.x/file (deleted)");
	ev.ino = 3;
	ev.flags = RINGTRACE_PATH_PSEUDO;
	ev.path = "pipe:[77]";
	ev.len = 9;
	rt_paths_add(&p, &ev);
	assert_string_equal(rt_paths_get(&p, 0, 22, 3), "pipe:[77]");
	ev.ino = 4;
	ev.flags = RINGTRACE_PATH_UNRESOLVED;
	ev.len = 0;
	rt_paths_add(&p, &ev);
	assert_null(rt_paths_get(&p, 0, 22, 4));
	rt_paths_fini(&p);
}

/*
 * A name relative to its mount (PREEMPT_RT) gets the mount point of the
 * table in front: the first mount of its device whose root holds it (a
 * bind mount of a subdirectory too), escaped points unescaped; a device
 * the table does not mount, or a truncated name, keeps "[M:m]".
 */
static void test_paths_mount_points(void **state)
{
	static const char info[] =
		"22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		"23 22 0:5 / /dev rw - devtmpfs udev rw\n"
		"24 22 8:1 /srv/data /mnt/my\\040data rw - ext4 /dev/sda1 rw\n"
		"25 22 0:40 /sub /bind rw - tmpfs t rw\n"
		"garbage line\n";
	struct rt_path_event ev = {
		.dev_major = 0, .dev_minor = 5, .ino = 1,
		.flags = RINGTRACE_PATH_MOUNT_RELATIVE,
		.path = "/zero", .len = 5,
	};
	struct rt_mounts m;
	struct rt_paths p;
	char out[64];

	(void)state;
	assert_int_equal(rt_mounts_parse(&m, info, sizeof(info)), 0);
	assert_int_equal(m.nr, 4);
	assert_string_equal(m.v[2].point, "/mnt/my data");
	assert_int_equal(rt_mounts_name(&m, 8, 1, "/etc/passwd", 11, out,
					sizeof(out)), 11);
	assert_string_equal(out, "/etc/passwd");
	assert_int_equal(rt_mounts_name(&m, 0, 40, "/sub/f", 6, out,
					sizeof(out)), 7);
	assert_string_equal(out, "/bind/f");
	assert_int_equal(rt_mounts_name(&m, 0, 40, "/subx", 5, out,
					sizeof(out)), -1);
	assert_int_equal(rt_mounts_name(&m, 0, 5, "/", 1, out, sizeof(out)), 4);
	assert_string_equal(out, "/dev");
	assert_int_equal(rt_mounts_name(&m, 0, 5, "/zero", 5, out, 6), -1);

	assert_int_equal(rt_paths_init(&p), 0);
	p.mounts = &m;
	rt_paths_add(&p, &ev);
	assert_string_equal(rt_paths_get(&p, 0, 5, 1), "/dev/zero");
	ev.ino = 2;
	ev.dev_minor = 99;
	rt_paths_add(&p, &ev);
	assert_string_equal(rt_paths_get(&p, 0, 99, 2), "[0:99]/zero");
	ev.ino = 3;
	ev.dev_minor = 5;
	ev.flags |= RINGTRACE_PATH_TRUNCATED;
	rt_paths_add(&p, &ev);
	assert_string_equal(rt_paths_get(&p, 0, 5, 3), "...[0:5]/zero");
	rt_paths_fini(&p);
	rt_mounts_fini(&m);
}

static void test_usyms_names_own_code(void **state)
{
	struct rt_usyms u;
	char buf[256];
	const char *name;
	uint32_t pid = (uint32_t)getpid();

	(void)state;
	assert_int_equal(rt_usyms_init(&u, true), 0);
	rt_usyms_see(&u, pid, "test_views");
	name = rt_usyms_name(&u, pid, "test_views",
			     (uint64_t)(uintptr_t)test_paths_first_name_wins + 4,
			     buf, sizeof(buf));
	assert_non_null(name);
	assert_string_equal(name, "test_paths_first_name_wins");
	name = rt_usyms_name(&u, pid, "test_views",
			     (uint64_t)(uintptr_t)qsort, buf, sizeof(buf));
	assert_non_null(name);
	assert_non_null(strstr(name, "qsort"));
	/* Another image of the same pid (after exec) is not named from this one. */
	assert_null(rt_usyms_name(&u, pid, "other", (uint64_t)(uintptr_t)qsort,
				  buf, sizeof(buf)));
	assert_null(rt_usyms_name(&u, pid, "test_views", 16, buf, sizeof(buf)));
	rt_usyms_fini(&u);
}

struct copy_ctx {
	struct rt_usyms	*u;
	uint32_t	pid;
	const char	*comm;
	const uint8_t	*build_id;
};

static void copy_map(void *arg, const struct rt_procmap *m)
{
	struct copy_ctx *c = arg;

	rt_usyms_add_map(c->u, c->pid, c->comm, m->start, m->end, m->pgoff,
			 m->path, c->build_id, c->build_id ? 20 : 0);
}

/* Two processes mapping the same binaries: one libdwfl load per binary. */
static void test_usyms_one_load_per_binary(void **state)
{
	uint64_t ip = (uint64_t)(uintptr_t)test_paths_first_name_wins + 4;
	struct rt_usyms u;
	struct copy_ctx c = { &u, 1001, "first", NULL };
	char buf[256];
	uint32_t bins;

	(void)state;
	/* Replay: mappings given, nothing read from /proc by the symboliser. */
	assert_int_equal(rt_usyms_init(&u, false), 0);
	assert_int_equal(rt_procmaps_read((uint32_t)getpid(), copy_map, &c), 0);
	bins = u.nr_bins;
	assert_true(bins >= 2);			/* this test, libc at least */
	c.pid = 1002;
	c.comm = "second";
	assert_int_equal(rt_procmaps_read((uint32_t)getpid(), copy_map, &c), 0);
	assert_int_equal(u.nr, 2);
	assert_int_equal(u.nr_bins, bins);	/* shared, not per process */
	assert_int_equal(u.module_loads, 0);	/* loaded when first named */
	assert_string_equal(rt_usyms_name(&u, 1001, "first", ip, buf,
					  sizeof(buf)),
			    "test_paths_first_name_wins");
	assert_int_equal(u.module_loads, 1);
	assert_string_equal(rt_usyms_name(&u, 1002, "second", ip, buf,
					  sizeof(buf)),
			    "test_paths_first_name_wins");
	assert_non_null(strstr(rt_usyms_name(&u, 1002, "second",
					     (uint64_t)(uintptr_t)qsort, buf,
					     sizeof(buf)), "qsort"));
	assert_non_null(strstr(rt_usyms_name(&u, 1001, "first",
					     (uint64_t)(uintptr_t)qsort, buf,
					     sizeof(buf)), "qsort"));
	/* Two binaries (this test, libc) for four lookups in two processes. */
	assert_int_equal(u.module_loads, 2);
	/* A thread with a name of its own: hex unless exec()s were recorded. */
	assert_null(rt_usyms_name(&u, 1002, "worker", ip, buf, sizeof(buf)));
	u.exec_tracked = true;
	assert_string_equal(rt_usyms_name(&u, 1002, "worker", ip, buf,
					  sizeof(buf)),
			    "test_paths_first_name_wins");
	assert_null(rt_usyms_name(&u, 1003, "first", ip, buf, sizeof(buf)));
	assert_int_equal(u.missing + u.mismatched, 0);
	rt_usyms_fini(&u);
}

/* A recorded build-id the file on this machine does not have: hex. */
static void test_usyms_build_id_mismatch(void **state)
{
	static const uint8_t other[20] = { 0xde, 0xad, 0xbe, 0xef };
	uint64_t ip = (uint64_t)(uintptr_t)test_paths_first_name_wins + 4;
	struct rt_usyms u;
	struct copy_ctx c = { &u, 7, "old", other };
	uint8_t id[RT_USYMS_BUILD_ID_MAX];
	char buf[256];

	(void)state;
	assert_int_equal(rt_usyms_init(&u, false), 0);
	assert_int_equal(rt_procmaps_read((uint32_t)getpid(), copy_map, &c), 0);
	assert_null(rt_usyms_name(&u, 7, "old", ip, buf, sizeof(buf)));
	assert_int_equal(u.mismatched, 1);
	/* The right one names it. */
	c.pid = 8;
	c.build_id = id;
	assert_int_equal(rt_usyms_file_build_id("/proc/self/exe", id), 20);
	assert_int_equal(rt_procmaps_read((uint32_t)getpid(), copy_map, &c), 0);
	assert_string_equal(rt_usyms_name(&u, 8, "old", ip, buf, sizeof(buf)),
			    "test_paths_first_name_wins");
	assert_int_equal(u.mismatched, 1);
	rt_usyms_fini(&u);
}

/* A binary that is not on this machine: counted, hex. */
static void test_usyms_missing_binary(void **state)
{
	struct rt_usyms u;
	char buf[256];

	(void)state;
	assert_int_equal(rt_usyms_init(&u, false), 0);
	rt_usyms_add_map(&u, 5, "gone", 0x400000, 0x401000, 0,
			 "/nonexistent/ringtrace-test", NULL, 0);
	assert_null(rt_usyms_name(&u, 5, "gone", 0x400100, buf, sizeof(buf)));
	assert_int_equal(u.missing, 1);
	assert_null(rt_usyms_name(&u, 5, "gone", 0x400200, buf, sizeof(buf)));
	assert_int_equal(u.module_loads, 1);	/* tried once */
	rt_usyms_fini(&u);
}

int main(void)
{
	RUN(cmocka_unit_test(test_buckets_tile_the_range),
	    cmocka_unit_test(test_percentiles_are_bounded),
	    cmocka_unit_test(test_table_overflows_into_other),
	    cmocka_unit_test(test_no_footnote_without_events),
	    cmocka_unit_test(test_summary_of_locks_only),
	    cmocka_unit_test(test_filter_time),
	    cmocka_unit_test(test_flame_sums_folded_lines),
	    cmocka_unit_test(test_flame_depth_capped),
	    cmocka_unit_test(test_flame_offcpu_blue),
	    cmocka_unit_test(test_filter_lists),
	    cmocka_unit_test(test_usyms_one_load_per_binary),
	    cmocka_unit_test(test_usyms_build_id_mismatch),
	    cmocka_unit_test(test_usyms_missing_binary),
	    cmocka_unit_test(test_paths_first_name_wins),
	    cmocka_unit_test(test_paths_flags_shown),
	    cmocka_unit_test(test_paths_mount_points),
	    cmocka_unit_test(test_usyms_names_own_code),
	    cmocka_unit_test(test_missing_func_calls));
}
