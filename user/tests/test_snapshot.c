// SPDX-License-Identifier: GPL-2.0-only
/*
 * the flight recorder's reader and buffer health, on rings in
 * memory. A producer here writes the way the kernel does in overwrite mode
 * (move overwrite_tail over whole records, publish it, write, publish
 * data_head). rt_snapshot_copy_ring() must return exactly the newest
 * records, skip those a previous snapshot showed, give up on a ring whose
 * tail runs past its head and refuse an impossible one; rt_snapshot_select()
 * orders rings by time and applies --snapshot-size and --snapshot-time;
 * the --buffer-size advice and the --stats line are computed as documented;
 * a --raw snapshot carries the func calls the probes missed since the
 * previous one (FUNC_MISSED), which its replay says missing.
 */
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/barrier.h"
#include "ringtrace/health.h"
#include "ringtrace/merge.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/snapshot.h"
#include "ringtrace/missing.h"
#include "ringtrace/stream.h"
#include "ringtrace/summary.h"
#include "fake_kernel.h"
#include "fake_ring.h"

#define REC	sizeof(struct ringtrace_vfs_read_record)

/* Overwrite-mode producer: @seq goes into pos, @ts into the timestamp. */
static void ow_write(struct fake_ring *fr, uint64_t ts, int64_t seq)
{
	struct ringtrace_vfs_read_record r;
	uint64_t tail = fr->page->overwrite_tail;

	make_vfs_read(&r, ts, fr->page->cpu, 100, 101, "app");
	r.pos = seq;
	while (fr->head + REC - tail > fr->size) {
		struct ringtrace_event_header h;

		for (size_t i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] =
				fr->data[(tail + i) & (fr->size - 1)];
		tail += h.size;
	}
	rt_producer_publish_head(&fr->page->overwrite_tail, tail);
	fake_ring_poke(fr, fr->head, &r, REC);
	fr->head += REC;
	rt_producer_publish_head(&fr->page->data_head, fr->head);
}

static int64_t seq_at(const unsigned char *p)
{
	struct ringtrace_vfs_read_record r;

	memcpy(&r, p, sizeof(r));
	return r.pos;
}

static void test_copy_newest(void **state)
{
	struct fake_ring fr;
	struct rt_snapshot_copy c;
	unsigned char buf[4096];
	uint64_t fit = 4096 / REC, n = 0;

	(void)state;
	fake_ring_init(&fr, 4096, 0);
	fr.page->flags = RINGTRACE_PAGE_OVERWRITE;
	for (int64_t i = 0; i < 1000; i++)
		ow_write(&fr, 1000 + (uint64_t)i, i);
	assert_int_equal(rt_snapshot_copy_ring(fr.page, fr.data, fr.size, buf,
					       0, &c), RT_SNAPSHOT_OK);
	assert_int_equal(c.to, 1000 * REC);
	assert_int_equal(c.from, c.to - fit * REC);
	for (uint64_t p = c.from; p < c.to; p += REC, n++)
		assert_int_equal(seq_at(buf + (p - c.base)),
				 (int64_t)(1000 - fit + n));
	assert_int_equal(n, fit);

	/* A second snapshot after 3 more records: only those 3. */
	for (int64_t i = 1000; i < 1003; i++)
		ow_write(&fr, 1000 + (uint64_t)i, i);
	assert_int_equal(rt_snapshot_copy_ring(fr.page, fr.data, fr.size, buf,
					       c.to, &c), RT_SNAPSHOT_OK);
	assert_int_equal(c.to - c.from, 3 * REC);
	assert_int_equal(seq_at(buf + (c.from - c.base)), 1000);
	fake_ring_free(&fr);
}

static void test_copy_bad_tails(void **state)
{
	struct fake_ring fr;
	struct rt_snapshot_copy c;
	unsigned char buf[4096];

	(void)state;
	fake_ring_init(&fr, 4096, 0);
	for (int64_t i = 0; i < 100; i++)
		ow_write(&fr, (uint64_t)i, i);
	/* Overwritten past what we saw of head, every try: give up. */
	fr.page->overwrite_tail = fr.head + REC;
	assert_int_equal(rt_snapshot_copy_ring(fr.page, fr.data, fr.size, buf,
					       0, &c), RT_SNAPSHOT_BUSY);
	/* More than a ring between tail and head: not our kernel. */
	fr.page->overwrite_tail = fr.head - 2 * fr.size;
	assert_int_equal(rt_snapshot_copy_ring(fr.page, fr.data, fr.size, buf,
					       0, &c), RT_SNAPSHOT_ERR_DATA);
	fake_ring_free(&fr);
}

/* Two rings written alternately in time, bounds applied newest first. */
static void test_select_merges_and_bounds(void **state)
{
	struct rt_snapshot sn;
	struct rt_snapshot_rec recs[6];
	const unsigned char dummy[1] = { 0 };

	(void)state;
	memset(&sn, 0, sizeof(sn));
	for (int i = 0; i < 6; i++) {
		/* ring 0 has ts 10, 30, 50; ring 1 has 20, 40, 60 (given out of order) */
		recs[i].cpu = (uint32_t)(i / 3);
		recs[i].ts = 10 + 20 * (uint64_t)(i % 3) + 10 * (uint64_t)(i / 3);
		recs[i].pos = (uint64_t)i;
		recs[i].size = 100;
		recs[i].data = dummy;
		recs[i].type = RINGTRACE_RECORD_VFS_READ;
	}
	sn.recs = recs;
	sn.nr_recs = sn.cap = 6;
	rt_snapshot_select(&sn, 100);
	assert_int_equal(sn.first, 0);
	for (int i = 0; i < 6; i++)
		assert_int_equal(recs[i].ts, 10 + 10 * (uint64_t)i);

	sn.max_bytes = 250;		/* two records of 100 fit */
	rt_snapshot_select(&sn, 100);
	assert_int_equal(sn.first, 4);
	assert_int_equal(recs[sn.first].ts, 50);

	sn.max_bytes = 0;
	sn.max_age_ns = 45;		/* now 100: ts >= 55 */
	rt_snapshot_select(&sn, 100);
	assert_int_equal(sn.first, 5);
	assert_int_equal(sn.nr_shown, 1);
	assert_int_equal(sn.nr_not_shown, 5);
}

/* The last snapshot of @sn as JSON, in a static buffer. */
static const char *print_json(const struct rt_snapshot *sn,
			      struct rt_paths *paths)
{
	static char text[4096];
	struct rt_outbuf ob;

	rt_outbuf_init(&ob, -1, 0);
	rt_snapshot_print(sn, RT_FORMAT_JSON, &ob, paths);
	assert_true(ob.len < sizeof(text));
	memcpy(text, ob.buf, ob.len);
	text[ob.len] = '\0';
	rt_outbuf_fini(&ob);
	return text;
}

/* Lines of @text that are not the two delimiters. */
static int record_lines(const char *text)
{
	int n = 0;

	for (const char *p = text; *p; p = strchr(p, '\n') + 1)
		if (strncmp(p, "{\"snapshot", 10))
			n++;
	return n;
}

/*
 * A path record names the file of the reads after it but is not printed:
 * the header's "records" must count the lines that follow, "not_shown"
 * the reads the size bound left out, and a shown read is still named by
 * an older path record. (It counted path records as shown or not shown.)
 */
static void test_header_counts_printed_records(void **state)
{
	unsigned char path_rec[64] = { 0 };
	struct ringtrace_path_record pr = { 0 };
	struct ringtrace_vfs_read_record r[4];
	struct rt_snapshot_rec recs[5];
	struct rt_snapshot sn;
	struct rt_paths paths;
	const char *text;

	(void)state;
	pr.header.type = RINGTRACE_RECORD_PATH;
	pr.header.size = sizeof(path_rec);
	pr.ts_ns = 10;
	pr.dev_major = 8;
	pr.dev_minor = 1;
	pr.ino = 123;
	pr.path_len = 9;
	memcpy(path_rec, &pr, sizeof(pr));
	memcpy(path_rec + sizeof(pr), "/dev/zero", 9);
	recs[0] = (struct rt_snapshot_rec){ .ts = 10, .pos = 0,
		.data = path_rec, .size = sizeof(path_rec),
		.type = RINGTRACE_RECORD_PATH };
	for (int i = 0; i < 4; i++) {
		make_vfs_read(&r[i], 10 + 10 * (uint64_t)i, 0, 100, 101, "app");
		r[i].pos = i;
		recs[i + 1] = (struct rt_snapshot_rec){
			.ts = r[i].task.ts_ns,
			.pos = sizeof(path_rec) + (uint64_t)i * REC,
			.data = (const unsigned char *)&r[i], .size = REC,
			.type = RINGTRACE_RECORD_VFS_READ };
	}
	memset(&sn, 0, sizeof(sn));
	sn.recs = recs;
	sn.nr_recs = sn.cap = 5;
	sn.number = 1;
	sn.max_bytes = 2 * REC + 8;	/* the two newest reads */
	rt_snapshot_select(&sn, 100);
	assert_int_equal(sn.first, 3);
	assert_int_equal(sn.nr_shown, 2);
	assert_int_equal(sn.nr_not_shown, 2);

	assert_int_equal(rt_paths_init(&paths), 0);
	text = print_json(&sn, &paths);
	assert_non_null(strstr(text, "\"records\":2,\"not_shown\":2,"));
	assert_int_equal(record_lines(text), 2);
	assert_non_null(strstr(text, "\"pos\":3,"));
	assert_non_null(strstr(text, "\"path\":\"/dev/zero\""));
	assert_null(strstr(text, "\"pos\":1,"));

	/* No bound: every read, and still not the path record. */
	sn.max_bytes = 0;
	rt_snapshot_select(&sn, 100);
	text = print_json(&sn, &paths);
	assert_non_null(strstr(text, "\"records\":4,\"not_shown\":0,"));
	assert_int_equal(record_lines(text), 4);
	rt_paths_fini(&paths);
}

static uint64_t got_ts[8];
static uint32_t got_tid[8];
static unsigned int nr_got;

static int collect(void *arg, struct rt_source *src,
		   const struct rt_record *rec, uint64_t ts)
{
	(void)arg;
	(void)rec;
	if (nr_got < 8) {
		got_ts[nr_got] = ts;
		got_tid[nr_got] = src->tid;
	}
	nr_got++;
	return 0;
}

/*
 * --snapshot --raw on per-thread rings: each ring's kept records go to a
 * THREAD_RECORDS chunk named by its thread (raw format version 3), which
 * -i reads back as one source per thread; the records before the bounds
 * are left out but for name records. Records of two rings share the
 * per-thread rings' CPU (CPU_ANY) and are told apart by ring.
 */
static void test_write_raw_thread_rings(void **state)
{
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	struct ringtrace_vfs_read_record r[4];
	struct rt_snapshot_ring rings[2] = {
		{ .cpu = RT_EVENT_CPU_ANY,
		  .raw_kind = RT_RAW_CHUNK_THREAD_RECORDS, .raw_id = 4242 },
		{ .cpu = RT_EVENT_CPU_ANY,
		  .raw_kind = RT_RAW_CHUNK_THREAD_RECORDS, .raw_id = 77 },
	};
	struct rt_snapshot_rec recs[4];
	struct rt_snapshot sn;
	struct rt_outbuf ob;
	struct rt_raw_file f;
	struct rt_merge m;
	struct rt_merge_result res;
	char path[] = "/tmp/ringtrace-snap-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	/* ring 0 (thread 4242): ts 10, 30, 40; ring 1 (thread 77): ts 20 */
	for (int i = 0; i < 4; i++) {
		uint32_t ring = i == 1;

		make_vfs_read(&r[i], 10 + 10 * (uint64_t)i, 0,
			      ring ? 77 : 4242, ring ? 77 : 4242, "app");
		r[i].pos = i;
		recs[i] = (struct rt_snapshot_rec){
			.ts = r[i].task.ts_ns, .pos = (uint64_t)i * REC,
			.data = (const unsigned char *)&r[i], .size = REC,
			.cpu = RT_EVENT_CPU_ANY, .ring = ring,
			.type = RINGTRACE_RECORD_VFS_READ };
	}
	memset(&sn, 0, sizeof(sn));
	sn.rings = rings;
	sn.nr = 2;
	sn.recs = recs;
	sn.nr_recs = sn.cap = 4;
	sn.max_age_ns = 85;		/* now 100: ts >= 15, the first left out */
	rt_snapshot_select(&sn, 100);
	assert_int_equal(sn.first, 1);

	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_THREADS;
	h.endian = RT_RAW_ENDIAN;
	h.page_size = 4096;
	rt_outbuf_init(&ob, fd, 0);
	rt_raw_write_header(&ob, &h);
	assert_int_equal(rt_snapshot_write_raw(&sn, &ob), 3);
	assert_int_equal(rt_outbuf_flush(&ob), 0);
	close(fd);
	rt_outbuf_fini(&ob);

	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_int_equal(f.nr_srcs, 2);
	assert_int_equal(f.srcs[0].tid, 4242);
	assert_int_equal(f.srcs[1].tid, 77);
	/* merged: 77's ts 20, then 4242's 30 and 40 (10 was not shown) */
	rt_merge_init(&m, f.srcs, f.nr_srcs, 0);
	rt_merge_round(&m, 0, true, collect, NULL, &res);
	rt_merge_fini(&m);
	assert_int_equal(res.error, 0);
	assert_int_equal(nr_got, 3);
	assert_int_equal(got_ts[0], 20);
	assert_int_equal(got_tid[0], 77);
	assert_int_equal(got_ts[1], 30);
	assert_int_equal(got_tid[1], 4242);
	assert_int_equal(got_ts[2], 40);
	assert_int_equal(got_tid[2], 4242);
	rt_raw_close(&f);
	unlink(path);
}

static void test_suggest_buffer(void **state)
{
	struct ringtrace_ring_stats r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.data_size = 65536;
	r.high_water = 65536;
	r.records = 1000;
	r.bytes = 96000;
	assert_int_equal(rt_health_suggest_buffer(&r, 4096), 0);
	/* 65536 + 1000 * 96 = 161536 -> 256K */
	r.lost = 1000;
	assert_int_equal(rt_health_mean_record(&r), 96);
	assert_int_equal(rt_health_suggest_buffer(&r, 4096), 262144);
	/* Exactly a power of two stays. */
	r.lost = 683;		/* 65536 + 65568 = 131104 -> 256K */
	assert_int_equal(rt_health_suggest_buffer(&r, 4096), 262144);
	r.lost = 682;		/* 65536 + 65472 = 131008 -> 128K */
	assert_int_equal(rt_health_suggest_buffer(&r, 4096), 131072);
}

static void test_summary_advice(void **state)
{
	struct ringtrace_ring_stats r[2];
	struct rt_summary sum = { .prog = "t", .elapsed_ns = RT_SUMMARY_NO_TIME };
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	memset(r, 0, sizeof(r));
	r[0].cpu = 0;
	r[0].data_size = 65536;
	r[1].cpu = 1;
	r[1].data_size = 65536;
	r[1].high_water = 65536;
	r[1].records = 1000;
	r[1].bytes = 96000;
	r[1].lost = 1000;
	sum.rings = r;
	sum.nr_rings = 2;
	sum.page_size = 4096;
	out = open_memstream(&text, &len);
	assert_non_null(out);
	rt_summary_print(out, &sum);
	fclose(out);
	assert_non_null(strstr(text, "t: 1000 records lost on 1 ring: the "
			       "reader fell behind (CPU 1: 1000 lost, peak "
			       "fill 100% of 64K)\n"));
	assert_non_null(strstr(text, "t: --buffer-size 256K would have held "
			       "the peak (high-water mark + 1000 lost records "
			       "at 96 bytes each)\n"));
	free(text);

	/* Nothing lost: no advice. */
	r[1].lost = 0;
	text = NULL;
	out = open_memstream(&text, &len);
	rt_summary_print(out, &sum);
	fclose(out);
	assert_null(strstr(text, "--buffer-size"));
	free(text);
}

/* The count line: "1 record", not "1 records" (as "1 cgroup"). */
static void test_summary_counts(void **state)
{
	struct rt_source src[2];
	struct rt_summary sum = { .prog = "t", .elapsed_ns = RT_SUMMARY_NO_TIME,
				  .srcs = src, .nr_srcs = 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	memset(src, 0, sizeof(src));
	src[0].counts.records = 1;
	src[0].counts.paths = 1;
	src[0].counts.cgroups = 1;
	src[0].counts.samples = 1;
	src[0].counts.counters = 1;
	src[0].counts.bytes = 96;
	out = open_memstream(&text, &len);
	assert_non_null(out);
	rt_summary_print(out, &sum);
	fclose(out);
	assert_string_equal(text, "t: 1 record, 1 path record, 1 cgroup "
			    "record, 1 sample, 1 counter snapshot, 0 lost, "
			    "96 bytes\n");
	free(text);

	src[1] = src[0];
	sum.nr_srcs = 2;
	text = NULL;
	out = open_memstream(&text, &len);
	rt_summary_print(out, &sum);
	fclose(out);
	assert_string_equal(text, "t: 2 records, 2 path records, 2 cgroup "
			    "records, 2 samples, 2 counter snapshots, 0 lost, "
			    "192 bytes\n");
	free(text);
}

/* -e func:NAME's missed calls: a line of their own, only when there are. */
static void test_summary_func_missed(void **state)
{
	struct rt_summary sum = { .prog = "t", .elapsed_ns = RT_SUMMARY_NO_TIME };
	const uint64_t n[] = { 0, 1, 36 };
	const char *want[] = {
		"t: 0 records, 0 lost, 0 bytes\n",
		"t: 0 records, 0 lost, 0 bytes\n"
		"t: 1 func call missed by the probe (more calls in flight "
		"than it follows): no record\n",
		"t: 0 records, 0 lost, 0 bytes\n"
		"t: 36 func calls missed by the probe (more calls in flight "
		"than it follows): no record\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);

		assert_non_null(out);
		sum.func_missed = n[i];
		rt_summary_print(out, &sum);
		fclose(out);
		assert_string_equal(text, want[i]);
		free(text);
	}
}

/* A snapshot of @s as a --raw file at @path: header, then its chunks. */
static void write_snapshot_file(const struct rt_snapshot *sn, const char *path)
{
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	struct rt_outbuf ob;
	int fd;

	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	h.page_size = 4096;
	h.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_FUNC;
	/* Through the fake kernel's capture (FAKE_OUT_FD), then to @path. */
	free(fk.out);
	fk.out = NULL;
	fk.out_len = 0;
	assert_int_equal(rt_outbuf_init(&ob, FAKE_OUT_FD, 0), 0);
	rt_raw_write_header(&ob, &h);
	rt_snapshot_write_raw(sn, &ob);
	assert_int_equal(rt_outbuf_flush(&ob), 0);
	rt_outbuf_fini(&ob);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, fk.out, fk.out_len), (ssize_t)fk.out_len);
	close(fd);
}

static void count_event(void *arg, const struct rt_event *ev)
{
	(void)ev;
	(*(unsigned int *)arg)++;
}

/*
 * The replay of a snapshot file as ringtrace-cat -i replays a live
 * recording: its records, and the calls the probes missed (the stream's
 * func_missed, which the summary and the views' missing line say).
 */
static uint64_t replay_func_missed(const char *path, unsigned int *events)
{
	volatile sig_atomic_t never = 0;
	struct rt_outbuf ob;
	struct rt_stream st = { .format = RT_FORMAT_TEXT, .stop = &never,
				.out = &ob, .sink = count_event,
				.sink_arg = events };
	struct rt_raw_file f;

	*events = 0;
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_int_equal(f.func_missed, rt_stream_file(&st, &f) ? ~0ull :
			 st.func_missed);
	rt_raw_close(&f);
	rt_outbuf_fini(&ob);
	return st.func_missed;
}

/*
 * --snapshot --raw with -e func:NAME: each snapshot's file ends with the
 * FUNC_MISSED chunk a live --raw recording ends with, holding the calls
 * the probes missed since the previous snapshot (the session's count less
 * what the previous snapshot saw; none: no chunk), so that a replay of a
 * snapshot says them missing as a replay of a live recording does. The
 * printed header says them too.
 */
static void test_raw_snapshot_func_missed(void **state)
{
	static const uint64_t counts[] = { 5, 12, 12 };	/* the session's */
	static const uint64_t want[] = { 5, 7, 0 };	/* each snapshot's */
	static char names[1][RINGTRACE_FUNC_NAME_LEN] = { "filemap_read" };
	static struct rt_session_opts o = {
		.pid = -1, .overwrite = true, .nr_funcs = 1,
		.buffer_bytes = 64 * 1024,
		.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_FUNC,
		.funcs = names,
	};
	char paths[3][40];
	struct rt_snapshot sn = { 0 };
	struct rt_session s;
	struct rt_outbuf ob;
	unsigned int events;
	struct rt_missing m = { 0 };
	char line[256];

	(void)state;
	fake_kernel_install();
	fk.info.features |= RINGTRACE_FEAT_FUNC | RINGTRACE_FEAT_OVERWRITE;
	fk.info.events |= RINGTRACE_EVENT_FUNC;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(rt_session_enable(&s), 0);
	assert_int_equal(rt_snapshot_init(&sn, &s), 0);
	for (int i = 0; i < 3; i++) {
		snprintf(paths[i], sizeof(paths[i]),
			 "/tmp/ringtrace-snapfm-%d-%d.raw", (int)getpid(), i);
		ow_write(&fk.rings[0], 100 * (uint64_t)(i + 1), i);
		fk.stats.func_missed = counts[i];
		assert_int_equal(rt_snapshot_take(&sn, &s, 1000 * (uint64_t)(i + 1)),
				 RT_SNAPSHOT_OK);
		assert_int_equal(sn.func_missed, want[i]);
		write_snapshot_file(&sn, paths[i]);
	}
	/* The text header: said when there are some. */
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	sn.func_missed = 7;
	rt_snapshot_print(&sn, RT_FORMAT_TEXT, &ob, NULL);
	rt_outbuf_append(&ob, "", 1);
	assert_non_null(strstr(ob.buf, " overwritten since the previous "
			       "snapshot, 7 func calls missed by the probe\n"));
	ob.len = 0;
	rt_snapshot_print(&sn, RT_FORMAT_JSON, &ob, NULL);
	rt_outbuf_append(&ob, "", 1);
	assert_non_null(strstr(ob.buf, ",\"func_missed\":7}\n"));
	rt_outbuf_fini(&ob);
	rt_snapshot_fini(&sn);
	rt_session_close(&s);
	fake_kernel_remove();

	for (int i = 0; i < 3; i++) {
		assert_int_equal(replay_func_missed(paths[i], &events), want[i]);
		assert_int_equal(events, 1);	/* the one new record */
		unlink(paths[i]);
	}
	/* What the replay's views say (cat_views_stream_ended()). */
	m.events = 1;
	m.func_missed = want[1];
	rt_missing_line(&m, line, sizeof(line));
	assert_non_null(strstr(line, "7 func calls missed by the probe"));
}

static void test_stats_line(void **state)
{
	struct rt_health h;
	char line[160];

	(void)state;
	assert_int_equal(rt_health_init(&h, 1, 0), 0);
	h.prev[0].records = 100;
	h.prev[0].lost = 0;
	h.cur[0].cpu = 3;
	h.cur[0].records = 2100;
	h.cur[0].lost = 50;
	h.cur[0].data_size = 4096;
	h.cur[0].high_water = 2048;
	h.fill[0] = 1024;
	h.prev_ns = 1000000000;
	h.cur_ns = 3000000000;	/* 2 s */
	rt_health_format(&h, 0, line, sizeof(line));
	assert_string_equal(line, "cpu 3: fill  25% (peak  50%)     1000 rec/s"
			    "       25 lost/s");
	rt_health_fini(&h);
}

/*
 * --stats said "peak 100%" where the summary said "peak fill
 * 99%" for the same ring: one rounding for both.
 */
static void test_peak_agrees(void **state)
{
	struct ringtrace_ring_stats r;
	struct rt_summary sum = { .prog = "t", .elapsed_ns = RT_SUMMARY_NO_TIME };
	struct rt_health h;
	char line[160], *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.cpu = 1;
	r.data_size = 65536;
	r.high_water = 65536 - 200;	/* 99.7% */
	r.records = 1000;
	r.bytes = 96000;
	r.lost = 10;
	sum.rings = &r;
	sum.nr_rings = 1;
	sum.page_size = 4096;
	out = open_memstream(&text, &len);
	rt_summary_print(out, &sum);
	fclose(out);
	assert_int_equal(rt_health_init(&h, 1, 0), 0);
	h.cur[0] = r;
	rt_health_format(&h, 0, line, sizeof(line));
	if (!strstr(text, "peak fill 99% of 64K") || !strstr(line, "(peak  99%)"))
		fail_msg("summary '%s' vs --stats '%s'", text, line);
	rt_health_fini(&h);
	free(text);
}

int main(void)
{
	RUN(cmocka_unit_test(test_copy_newest),
	    cmocka_unit_test(test_copy_bad_tails),
	    cmocka_unit_test(test_select_merges_and_bounds),
	    cmocka_unit_test(test_header_counts_printed_records),
	    cmocka_unit_test(test_write_raw_thread_rings),
	    cmocka_unit_test(test_suggest_buffer),
	    cmocka_unit_test(test_summary_advice),
	    cmocka_unit_test(test_summary_counts),
	    cmocka_unit_test(test_summary_func_missed),
	    cmocka_unit_test(test_raw_snapshot_func_missed),
	    cmocka_unit_test(test_stats_line),
	    cmocka_unit_test(test_peak_agrees));
}
