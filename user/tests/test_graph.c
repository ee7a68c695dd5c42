// SPDX-License-Identifier: GPL-2.0-only
/*
 * --graph vfs_read (graph.h): a read's callees are the spans of its
 * thread inside [ts - lat, ts], printed in entry order one deeper per
 * span they lie in, "name() {" ... "} DUR (self SELF)" around children,
 * "name() DUR" for leaves; JSON carries the same spans; spans of other
 * threads, before the read or after it wait or count as outside; a
 * span that returns after the read waits for the next one; --graph-depth
 * hides and counts; a full per-thread ring counts its losses and the
 * read says so; a full thread table counts what it turned away. The
 * per-function table (calls, self, total) adds up to the folded weights.
 * Off-CPU intervals go under the innermost span they began in, clipped
 * to its own time, with where they blocked; on and off CPU add up.
 */
#include "test.h"

#include <linux/ringtrace.h>

#include "ringtrace/graph.h"

static const char names[][RINGTRACE_FUNC_NAME_LEN] = {
	"filemap_read", "filemap_get_pages", "copy_page_to_iter",
	"touch_atime", "rw_verify_area",
};

enum { F_READ, F_PAGES, F_COPY, F_ATIME, F_VERIFY };

static struct rt_event func(uint32_t tid, uint32_t idx, uint64_t entry,
			    uint64_t dur)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_FUNC;
	ev.pid = ev.tid = tid;
	strcpy(ev.comm, "dd");
	ev.ts_ns = entry + dur;
	ev.u.func.idx = idx;
	ev.u.func.ip = 0xffffffff81000000ull + idx;
	ev.u.func.lat_ns = dur;
	return ev;
}

static struct rt_event vfs_read(uint32_t tid, uint64_t entry, uint64_t dur)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_VFS_READ;
	ev.pid = ev.tid = tid;
	strcpy(ev.comm, "dd");
	ev.ts_ns = entry + dur;
	ev.u.vfs_read.count = 4096;
	ev.u.vfs_read.ret = 4096;
	ev.u.vfs_read.lat_ns = dur;
	return ev;
}

static struct rt_outbuf ob;

static void setup(struct rt_graph *g, enum rt_format format,
		  uint32_t max_depth, uint32_t per_thread, uint32_t threads)
{
	memset(g, 0, sizeof(*g));
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	g->out = &ob;
	g->format = format;
	g->max_depth = max_depth;
	g->per_thread = per_thread;
	g->threads = threads;
	assert_int_equal(rt_graph_init(g), 0);
	rt_output_set_func_names(names, sizeof(names) / sizeof(names[0]));
}

/* What was printed after the first line (the read's own). */
static const char *graph_lines(void)
{
	static char text[1 << 14];
	const char *nl;

	assert_true(ob.len < sizeof(text));
	memcpy(text, ob.buf, ob.len);
	text[ob.len] = '\0';
	nl = strchr(text, '\n');
	assert_non_null(nl);
	return nl + 1;
}

static void done(struct rt_graph *g)
{
	rt_graph_fini(g);
	rt_outbuf_fini(&ob);
}

static void add(struct rt_graph *g, struct rt_event ev)
{
	rt_graph_add(g, &ev);
}

/*
 * One read, [1000, 3000]: verify at 1050, filemap_read at 1100-2600
 * holding get_pages 1200-1500 and copy 1600-2000, atime 2700-2800.
 * In return order, as the stream merges them; before it a span outside
 * (500-600), another thread's span inside its time, and a span that
 * returns after the read (the next read's).
 */
static void feed_one_read(struct rt_graph *g)
{
	add(g, func(7, F_VERIFY, 500, 100));
	add(g, func(7, F_VERIFY, 1050, 40));
	add(g, func(7, F_PAGES, 1200, 300));
	add(g, func(8, F_COPY, 1300, 100));
	add(g, func(7, F_COPY, 1600, 400));
	add(g, func(7, F_READ, 1100, 1500));
	add(g, func(7, F_ATIME, 2700, 100));
	add(g, func(7, F_VERIFY, 2990, 20));	/* returns at 3010 */
	add(g, vfs_read(7, 1000, 2000));
}

static void test_nesting_text(void **state)
{
	struct rt_graph g;

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 0, 0, 0);
	feed_one_read(&g);
	assert_string_equal(graph_lines(),
			    "  |  rw_verify_area() 0.040us\n"
			    "  |  filemap_read() {\n"
			    "  |    filemap_get_pages() 0.300us\n"
			    "  |    copy_page_to_iter() 0.400us\n"
			    "  |  } 1.500us (self 0.800us)\n"
			    "  |  touch_atime() 0.100us\n");
	assert_int_equal(g.reads, 1);
	assert_int_equal(g.shown, 5);
	assert_int_equal(g.outside, 1);
	assert_false(g.hidden || g.missing || g.no_room);

	/* the late span belongs to the next read of thread 7 */
	ob.len = 0;
	add(&g, vfs_read(7, 2950, 100));
	assert_string_equal(graph_lines(), "  |  rw_verify_area() 0.020us\n");
	/* thread 8's span was in no read of its own */
	rt_graph_end(&g);
	assert_int_equal(g.outside, 2);
	done(&g);
}

static void test_summary_text(void **state)
{
	struct rt_graph g;
	char text[512];

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 1, 0, 0);
	feed_one_read(&g);
	rt_graph_end(&g);
	ob.len = 0;
	rt_graph_print_summary(&g, &ob);
	memcpy(text, ob.buf, ob.len);
	text[ob.len] = '\0';
	assert_string_equal(text, "graph: 1 reads, 3 spans shown, 2 deeper "
			    "than --graph-depth hidden, 3 outside a read "
			    "(dropped)\n");
	done(&g);
}

/*
 * A session that held its calls until their read returned (--min-latency
 * with a module that offers it): the summary says the calls of faster
 * reads the module left out, 0 included, beside the counts and not as
 * missing; in JSON as "fast_read_calls". Not said when none were held.
 */
static void test_summary_fast_read_calls(void **state)
{
	struct rt_graph g;

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 0, 0, 0);
	feed_one_read(&g);
	rt_graph_end(&g);
	g.held = true;
	g.fast_read = 120;
	ob.len = 0;
	rt_graph_print_summary(&g, &ob);
	ob.buf[ob.len] = '\0';
	assert_string_equal(ob.buf, "graph: 1 reads, 5 spans shown, 3 outside "
			    "a read (dropped), 120 calls of faster reads left "
			    "out (--min-latency)\n");
	ob.len = 0;
	rt_graph_print_summary_json(&g, &ob, ",\"x\":1");
	ob.buf[ob.len] = '\0';
	assert_string_equal(ob.buf, "{\"type\":\"graph_summary\",\"reads\":1,"
			    "\"shown\":5,\"hidden\":0,\"outside\":3,"
			    "\"fast_read_calls\":120,"
			    "\"spans_missing\":0,\"incomplete_reads\":0,\"no_room\":0,"
			    "\"offcpu_shown\":0,\"offcpu_hidden\":0,"
			    "\"offcpu_outside\":0,\"offcpu_missing\":0,"
			    "\"offcpu_ns\":0,\"per_thread\":65536,\"threads\":1024,\"x\":1}\n");
	/* not a loss */
	g.outside = 0;
	assert_false(rt_graph_lacks(&g));
	/* one, and none: said all the same */
	g.fast_read = 1;
	ob.len = 0;
	rt_graph_print_summary(&g, &ob);
	ob.buf[ob.len] = '\0';
	assert_string_equal(ob.buf, "graph: 1 reads, 5 spans shown, 1 call of "
			    "faster reads left out (--min-latency)\n");
	g.fast_read = 0;
	ob.len = 0;
	rt_graph_print_summary_json(&g, &ob, "");
	ob.buf[ob.len] = '\0';
	assert_non_null(strstr(ob.buf, "\"outside\":0,\"fast_read_calls\":0,"));
	/* not held: neither says it */
	g.held = false;
	ob.len = 0;
	rt_graph_print_summary(&g, &ob);
	rt_graph_print_summary_json(&g, &ob, "");
	ob.buf[ob.len] = '\0';
	assert_null(strstr(ob.buf, "faster"));
	assert_null(strstr(ob.buf, "fast_read"));
	done(&g);
}

/* A deeper span inside a span three levels down: depths 1, 2, 3. */
static void test_three_levels(void **state)
{
	struct rt_graph g;

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 0, 0, 0);
	add(&g, func(3, F_COPY, 130, 10));
	add(&g, func(3, F_PAGES, 120, 40));
	add(&g, func(3, F_READ, 110, 80));
	add(&g, vfs_read(3, 100, 100));
	assert_string_equal(graph_lines(),
			    "  |  filemap_read() {\n"
			    "  |    filemap_get_pages() {\n"
			    "  |      copy_page_to_iter() 0.010us\n"
			    "  |    } 0.040us (self 0.030us)\n"
			    "  |  } 0.080us (self 0.040us)\n");
	done(&g);
}

static void test_depth_hides(void **state)
{
	struct rt_graph g;

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 1, 0, 0);
	feed_one_read(&g);
	/* filemap_read's children hidden: a leaf with its whole time */
	assert_string_equal(graph_lines(),
			    "  |  rw_verify_area() 0.040us\n"
			    "  |  filemap_read() 1.500us\n"
			    "  |  touch_atime() 0.100us\n");
	assert_int_equal(g.hidden, 2);
	assert_int_equal(g.shown, 3);
	done(&g);
}

static void test_json(void **state)
{
	struct rt_graph g;
	const char *line, *graph;

	(void)state;
	setup(&g, RT_FORMAT_JSON, 0, 0, 0);
	feed_one_read(&g);
	line = ob.buf;
	assert_int_equal(ob.buf[ob.len - 1], '\n');
	assert_int_equal((const char *)memchr(line, '\n', ob.len) - line,
			 (long)ob.len - 1);
	ob.buf[ob.len - 1] = '\0';
	assert_true(!strncmp(line, "{\"type\":\"vfs_read\"", 18));
	graph = strstr(line, ",\"graph\":[");
	assert_non_null(graph);
	assert_string_equal(graph,
		",\"graph\":["
		"{\"kind\":\"func\",\"func\":\"rw_verify_area\",\"depth\":1,"
		"\"entry_ns\":1050,\"dur_ns\":40,\"self_ns\":40,\"offcpu_ns\":0},"
		"{\"kind\":\"func\",\"func\":\"filemap_read\",\"depth\":1,"
		"\"entry_ns\":1100,\"dur_ns\":1500,\"self_ns\":800,"
		"\"offcpu_ns\":0},"
		"{\"kind\":\"func\",\"func\":\"filemap_get_pages\",\"depth\":2,"
		"\"entry_ns\":1200,\"dur_ns\":300,\"self_ns\":300,"
		"\"offcpu_ns\":0},"
		"{\"kind\":\"func\",\"func\":\"copy_page_to_iter\",\"depth\":2,"
		"\"entry_ns\":1600,\"dur_ns\":400,\"self_ns\":400,"
		"\"offcpu_ns\":0},"
		"{\"kind\":\"func\",\"func\":\"touch_atime\",\"depth\":1,"
		"\"entry_ns\":2700,\"dur_ns\":100,\"self_ns\":100,"
		"\"offcpu_ns\":0}"
		"],\"graph_missing\":0}");
	ob.len = 0;
	rt_graph_end(&g);
	rt_graph_print_summary_json(&g, &ob, ",\"x\":1");
	ob.buf[ob.len] = '\0';
	assert_string_equal(ob.buf, "{\"type\":\"graph_summary\",\"reads\":1,"
			    "\"shown\":5,\"hidden\":0,\"outside\":3,"
			    "\"spans_missing\":0,\"incomplete_reads\":0,\"no_room\":0,"
			    "\"offcpu_shown\":0,\"offcpu_hidden\":0,"
			    "\"offcpu_outside\":0,\"offcpu_missing\":0,"
			    "\"offcpu_ns\":0,\"per_thread\":65536,\"threads\":1024,\"x\":1}\n");
	done(&g);
}

/*
 * Four spans wait per thread: of six inside the read, the two oldest
 * are pushed out, counted missing, and the read says so. Spans pushed
 * out that entered before the next read count as outside it.
 */
static void test_full_ring(void **state)
{
	struct rt_graph g;

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 0, 4, 0);
	for (uint64_t i = 0; i < 6; i++)
		add(&g, func(5, F_COPY, 110 + 10 * i, 5));
	add(&g, vfs_read(5, 100, 100));
	assert_string_equal(graph_lines(),
			    "  |  [2 spans missing: more than --graph's "
			    "per-thread room (4 spans a thread, 256 MiB in "
			    "all)]\n"
			    "  |  copy_page_to_iter() 0.005us\n"
			    "  |  copy_page_to_iter() 0.005us\n"
			    "  |  copy_page_to_iter() 0.005us\n"
			    "  |  copy_page_to_iter() 0.005us\n");
	assert_int_equal(g.missing, 2);
	assert_int_equal(g.incomplete, 1);
	assert_int_equal(g.shown, 4);
	assert_true(rt_graph_lacks(&g));

	/* six calls outside any read, then a read after them */
	for (uint64_t i = 0; i < 6; i++)
		add(&g, func(5, F_COPY, 300 + 10 * i, 5));
	ob.len = 0;
	add(&g, vfs_read(5, 400, 50));
	assert_string_equal(graph_lines(), "");
	assert_int_equal(g.outside, 6);
	assert_int_equal(g.missing, 2);
	done(&g);
}

/* Room for a long read's text: the default holds a few lines. */
static void big_output(void)
{
	rt_outbuf_fini(&ob);
	assert_int_equal(rt_outbuf_init(&ob, -1, 1 << 20), 0);
}

/*
 * @n spans of thread @tid inside [@start, @start + 10 * @n + 10], one
 * every 10ns, each 5ns, the functions in turn; then the read.
 */
static void feed_long_read(struct rt_graph *g, uint32_t tid, uint64_t start,
			   uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		add(g, func(tid, i % 5, start + 10 + 10 * (uint64_t)i, 5));
	add(g, vfs_read(tid, start, 10 * (uint64_t)n + 10));
}

/* The lines after the read's own: @n spans, the functions in turn. */
static void assert_long_read(uint32_t first, uint32_t n)
{
	const char *p = memchr(ob.buf, '\n', ob.len);
	const char *end = ob.buf + ob.len;
	char want[128];

	assert_non_null(p);
	p++;
	for (uint32_t i = first; i < first + n; i++) {
		int len = snprintf(want, sizeof(want), "  |  %s() 0.005us\n",
				   names[i % 5]);

		assert_true(end - p >= len);
		assert_memory_equal(p, want, (size_t)len);
		p += len;
	}
	assert_ptr_equal(p, end);
}

/*
 * A read of 5000 spans gets them all: its thread's ring doubles from
 * RT_GRAPH_RING_FIRST to 8192, the read's arrays with it. The next
 * read of as many allocates nothing more.
 */
static void test_ring_grows(void **state)
{
	struct rt_graph g;

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 0, 0, 0);
	assert_int_equal(g.per_thread, RT_GRAPH_PER_THREAD);
	assert_int_equal(g.rings, 0);
	assert_int_equal(g.room, RT_GRAPH_RING_FIRST);
	big_output();
	feed_long_read(&g, 9, 1000, 5000);
	assert_long_read(0, 5000);
	assert_int_equal(g.shown, 5000);
	assert_false(g.missing || g.incomplete || g.outside || g.no_room);
	assert_false(rt_graph_lacks(&g));
	assert_int_equal(g.rings, 8192);
	assert_int_equal(g.room, 8192);

	ob.len = 0;
	feed_long_read(&g, 9, 100000, 5000);
	assert_long_read(0, 5000);
	assert_int_equal(g.shown, 10000);
	assert_false(g.missing || g.incomplete || g.outside);
	assert_int_equal(g.rings, 8192);
	assert_int_equal(g.room, 8192);
	done(&g);
}

/*
 * Past per_thread spans a thread, the ring pushes out its oldest as
 * before: of 250 spans in a read, with room for 100, the first 150 are
 * missing, counted exactly, and the read and the summary say so.
 */
static void test_ring_cap(void **state)
{
	struct rt_graph g;
	char text[256];

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 0, 100, 0);
	big_output();
	feed_long_read(&g, 9, 1000, 250);
	assert_int_equal(g.rings, 100);
	assert_int_equal(g.room, 100);
	assert_int_equal(g.missing, 150);
	assert_int_equal(g.incomplete, 1);
	assert_int_equal(g.shown, 100);
	/* the missing line, then the last 100 spans: 150 onwards */
	{
		static const char miss[] = "  |  [150 spans missing: more than "
			"--graph's per-thread room (100 spans a thread, "
			"256 MiB in all)]\n";
		const char *nl = memchr(ob.buf, '\n', ob.len);

		assert_non_null(nl);
		assert_memory_equal(nl + 1, miss, sizeof(miss) - 1);
		memmove((char *)nl + 1, nl + sizeof(miss),
			ob.len - (size_t)(nl + sizeof(miss) - ob.buf));
		ob.len -= sizeof(miss) - 1;
	}
	assert_long_read(150, 100);

	/* the ring stays at its room; a read of 100 loses nothing */
	ob.len = 0;
	feed_long_read(&g, 9, 100000, 100);
	assert_long_read(0, 100);
	assert_int_equal(g.missing, 150);
	assert_int_equal(g.rings, 100);

	rt_graph_end(&g);
	ob.len = 0;
	rt_graph_print_summary(&g, &ob);
	assert_true(ob.len < sizeof(text));
	memcpy(text, ob.buf, ob.len);
	text[ob.len] = '\0';
	assert_string_equal(text, "graph: 2 reads, 200 spans shown, 150 "
			    "missing from 1 reads (over the per-thread room: "
			    "100 spans a thread, 256 MiB in all)\n");
	done(&g);
}

/*
 * The budget bounds all the rings together: with room for three first
 * rings, a fourth thread gets none (its span pushed out, counted
 * missing in its read) and a thread whose ring is full cannot grow it
 * (pushes out its oldest). Memory short does the same.
 */
static void test_ring_budget(void **state)
{
	struct rt_graph g;
	char text[256];

	(void)state;
	memset(&g, 0, sizeof(g));
	g.budget = 3 * RT_GRAPH_RING_FIRST * sizeof(struct rt_graph_span);
	assert_int_equal(rt_outbuf_init(&ob, -1, 1 << 20), 0);
	g.out = &ob;
	g.format = RT_FORMAT_TEXT;
	assert_int_equal(rt_graph_init(&g), 0);
	rt_output_set_func_names(names, sizeof(names) / sizeof(names[0]));
	for (uint32_t tid = 1; tid <= 4; tid++)
		add(&g, func(tid, F_COPY, 110, 5));
	assert_int_equal(g.rings, 3 * RT_GRAPH_RING_FIRST);
	add(&g, vfs_read(4, 100, 100));
	snprintf(text, sizeof(text), "  |  [1 spans missing: more than "
		 "--graph's per-thread room (65536 spans a thread, %zu bytes "
		 "in all)]\n", 3 * RT_GRAPH_RING_FIRST *
		 sizeof(struct rt_graph_span));
	assert_string_equal(graph_lines(), text);
	assert_int_equal(g.missing, 1);
	assert_int_equal(g.shown, 0);

	/* thread 1 has one span waiting: 99 more, 36 pushed out */
	ob.len = 0;
	for (uint32_t i = 1; i < 100; i++)
		add(&g, func(1, F_COPY, 110 + i, 1));
	add(&g, vfs_read(1, 100, 200));
	assert_int_equal(g.missing, 1 + 36);
	assert_int_equal(g.shown, RT_GRAPH_RING_FIRST);
	assert_int_equal(g.rings, 3 * RT_GRAPH_RING_FIRST);
	assert_int_equal(g.room, RT_GRAPH_RING_FIRST);
	done(&g);
}

/*
 * Threads with a few spans each keep their first rings: memory for
 * them is RT_GRAPH_RING_FIRST spans a thread, not per_thread; a slot's
 * ring serves the next thread in it.
 */
static void test_ring_small(void **state)
{
	struct rt_graph g;
	uint64_t slots;

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 0, 0, 0);
	big_output();
	for (uint32_t tid = 1; tid <= 500; tid++)
		for (uint32_t i = 0; i < 10; i++)
			add(&g, func(tid, F_COPY, 110 + 10 * i, 5));
	slots = 500 - g.no_room / 10;
	assert_true(slots > 400);
	assert_int_equal(g.rings, slots * RT_GRAPH_RING_FIRST);
	assert_int_equal(g.room, RT_GRAPH_RING_FIRST);
	for (uint32_t tid = 1; tid <= 500; tid++)
		add(&g, vfs_read(tid, 100, 200));
	assert_int_equal(g.shown, slots * 10);
	assert_false(g.missing);
	/*
	 * The same threads again, each in the first free slot of its
	 * probe: one that held a thread before, with its ring. None new.
	 */
	for (uint32_t tid = 1; tid <= 500; tid++)
		add(&g, func(tid, F_COPY, 310, 5));
	assert_int_equal(g.rings, slots * RT_GRAPH_RING_FIRST);
	assert_int_equal(g.room, RT_GRAPH_RING_FIRST);
	done(&g);
}

/* One thread slot: a second thread's spans are turned away, counted. */
static void test_thread_table_full(void **state)
{
	struct rt_graph g;

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 0, 0, 1);
	add(&g, func(1, F_COPY, 110, 5));
	add(&g, func(2, F_COPY, 110, 5));
	assert_int_equal(g.no_room, 1);
	add(&g, vfs_read(1, 100, 100));
	/* thread 1's read freed the slot: thread 2 gets it now */
	add(&g, func(2, F_COPY, 210, 5));
	ob.len = 0;
	add(&g, vfs_read(2, 200, 100));
	assert_string_equal(graph_lines(), "  |  copy_page_to_iter() 0.005us\n");
	assert_int_equal(g.no_room, 1);
	done(&g);
}

/* No name for the index: the address, as the stream prints it. */
/* The weighted views' stacks, each "comm;frames weight", in order. */
static void fold_line(void *arg, const char *line, size_t len)
{
	char *out = arg;

	strncat(out, line, len);
}

static const char *fold_lines(struct rt_folded *f)
{
	static const char kallsyms[] =
		"ffffffff80000000 T vfs_read\n"
		"ffffffff81000000 t filemap_read\n"
		"ffffffff81000001 t filemap_get_pages\n"
		"ffffffff81000002 t copy_page_to_iter\n"
		"ffffffff81000003 t touch_atime\n"
		"ffffffff81000004 t rw_verify_area\n"
		"ffffffff81000005 t _etext\n";
	static char out[4096];
	struct rt_ksyms k;

	assert_int_equal(rt_ksyms_parse(&k, kallsyms), 0);
	out[0] = '\0';
	rt_folded_foreach(f, &k, fold_line, out);
	rt_ksyms_free(&k);
	return out;
}

/*
 * With a table to fill, each read's tree goes into it by wall time and
 * nothing is printed: every span's self time on its chain under
 * vfs_read, the read's own time (latency less its depth-1 spans) on
 * vfs_read; the read's stacks add up to its latency. --graph-depth 1
 * keeps the sum: the hidden spans count in filemap_read.
 */
static void test_fold(void **state)
{
	struct rt_folded f;
	struct rt_graph g;

	(void)state;
	for (uint32_t depth = 0; depth <= 1; depth++) {
		assert_int_equal(rt_folded_init(&f), 0);
		setup(&g, RT_FORMAT_TEXT, depth, 0, 0);
		g.fold = &f;
		g.read_ip = 0xffffffff80000000ull;
		add(&g, func(3, F_COPY, 130, 10));
		add(&g, func(3, F_PAGES, 120, 40));
		add(&g, func(3, F_READ, 110, 80));
		add(&g, func(3, F_VERIFY, 101, 4));
		add(&g, vfs_read(3, 100, 100));
		assert_int_equal(ob.len, 0);
		assert_int_equal(f.weight, 100);
		assert_int_equal(f.samples, 1);
		assert_string_equal(fold_lines(&f), depth ?
			"dd;vfs_read_[k] 16\n"
			"dd;vfs_read_[k];filemap_read_[k] 80\n"
			"dd;vfs_read_[k];rw_verify_area_[k] 4\n" :
			"dd;vfs_read_[k] 16\n"
			"dd;vfs_read_[k];filemap_read_[k] 40\n"
			"dd;vfs_read_[k];filemap_read_[k];filemap_get_pages_[k] 30\n"
			"dd;vfs_read_[k];filemap_read_[k];filemap_get_pages_[k];"
			"copy_page_to_iter_[k] 10\n"
			"dd;vfs_read_[k];rw_verify_area_[k] 4\n");
		done(&g);
		rt_folded_fini(&f);
	}
}

/* The per-function table's row of function @idx (func()'s ip), or NULL. */
static const struct rt_graph_func *row_of(const struct rt_graph *g,
					  uint32_t idx)
{
	for (uint32_t i = 0; i < g->nr_funcs; i++)
		if (!g->funcs[i].is_read &&
		    g->funcs[i].ip == 0xffffffff81000000ull + idx)
			return &g->funcs[i];
	return NULL;
}

static void row_is(const struct rt_graph_func *f, uint64_t calls,
		   uint64_t self, uint64_t total)
{
	assert_non_null(f);
	assert_int_equal(f->calls, calls);
	assert_int_equal(f->self_ns, self);
	assert_int_equal(f->total_ns, total);
}

/*
 * The per-function table (--diff --graph --summary): calls, self time as
 * the folded table weighs it (deeper than --graph-depth: in the deepest
 * shown caller's), total time counted once for a function under itself;
 * vfs_read's row holds the reads, their latency and what no callee took,
 * so that the self times add up to the folded total.
 */
static void test_func_table(void **state)
{
	struct rt_folded f;
	struct rt_graph g;

	(void)state;
	for (uint32_t depth = 0; depth <= 1; depth++) {
		uint64_t self = 0;

		assert_int_equal(rt_folded_init(&f), 0);
		setup(&g, RT_FORMAT_TEXT, depth, 0, 0);
		g.fold = &f;
		add(&g, func(3, F_COPY, 130, 10));
		add(&g, func(3, F_PAGES, 120, 40));
		add(&g, func(3, F_READ, 110, 80));
		add(&g, func(3, F_VERIFY, 101, 4));
		add(&g, vfs_read(3, 100, 100));
		/* filemap_read inside filemap_read: one total, two calls */
		add(&g, func(3, F_READ, 320, 30));
		add(&g, func(3, F_READ, 310, 80));
		add(&g, vfs_read(3, 300, 100));
		assert_int_equal(g.funcs[0].is_read, true);
		assert_int_equal(g.funcs[0].calls, 2);
		assert_int_equal(g.funcs[0].total_ns, 200);
		assert_int_equal(g.funcs[0].self_ns, 16 + 20);
		row_is(row_of(&g, F_VERIFY), 1, 4, 4);
		if (depth) {
			/* the nested call hidden: its time in its caller's */
			row_is(row_of(&g, F_READ), 2, 80 + 80, 80 + 80);
			assert_null(row_of(&g, F_PAGES));
			assert_null(row_of(&g, F_COPY));
		} else {
			row_is(row_of(&g, F_READ), 3, 40 + 50 + 30, 80 + 80);
			row_is(row_of(&g, F_PAGES), 1, 30, 40);
			row_is(row_of(&g, F_COPY), 1, 10, 10);
		}
		for (uint32_t i = 0; i < g.nr_funcs; i++)
			self += g.funcs[i].self_ns;
		assert_int_equal(self, f.weight);
		assert_int_equal(g.funcs_full, 0);
		done(&g);
		rt_folded_fini(&f);
	}
}

/*
 * The table holds vfs_read's row and as many functions as two sessions
 * trace (RT_GRAPH_FUNCS rows), each found again by its address however
 * many there are; spans of a function past them are counted, not kept.
 */
static void test_func_table_full(void **state)
{
	const uint32_t extra = 10, n = RT_GRAPH_FUNCS + extra;
	struct rt_graph g;

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 0, 0, 0);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t t = 1000 + 1000ull * i;

		add(&g, func(3, i, t + 10, 20));
		add(&g, vfs_read(3, t, 100));
	}
	/* the first function again: its row, not a new one */
	add(&g, func(3, 0, 1000ull * (n + 2) + 10, 20));
	add(&g, vfs_read(3, 1000ull * (n + 2), 100));
	assert_int_equal(g.nr_funcs, RT_GRAPH_FUNCS);
	assert_true(g.funcs[0].is_read);
	assert_int_equal(g.funcs[0].calls, n + 1);
	row_is(row_of(&g, 0), 2, 40, 40);
	row_is(row_of(&g, RT_GRAPH_FUNCS - 2), 1, 20, 20);
	assert_null(row_of(&g, RT_GRAPH_FUNCS - 1));
	assert_int_equal(g.funcs_full, extra + 1);
	done(&g);
}

/* ---- off-CPU intervals ---- */

/*
 * Kernel symbols for the intervals' frames: the functions at the
 * addresses func() gives them, the scheduler's, and what blocks.
 */
static const char offcpu_kallsyms[] =
	"ffffffff80000000 T vfs_read\n"
	"ffffffff81000000 t filemap_read\n"
	"ffffffff81000001 t filemap_get_pages\n"
	"ffffffff81000002 t copy_page_to_iter\n"
	"ffffffff81000003 t touch_atime\n"
	"ffffffff81000004 t rw_verify_area\n"
	"ffffffff82000000 T __schedule\n"
	"ffffffff82000100 T schedule\n"
	"ffffffff82000200 T io_schedule\n"
	"ffffffff82000300 T folio_wait_bit_common\n"
	"ffffffff82000400 T msleep\n"
	"ffffffff82000500 T _etext\n";

enum {
	K_READ = 0, K_FILEMAP, K_PAGES, K_SCHED, K_SCHEDULE, K_IO, K_WAIT,
	K_MSLEEP,
};

static const uint64_t kaddr[] = {
	[K_READ]	= 0xffffffff80000000ull,
	[K_FILEMAP]	= 0xffffffff81000000ull,
	[K_PAGES]	= 0xffffffff81000001ull,
	[K_SCHED]	= 0xffffffff82000010ull,
	[K_SCHEDULE]	= 0xffffffff82000110ull,
	[K_IO]		= 0xffffffff82000210ull,
	[K_WAIT]	= 0xffffffff82000310ull,
	[K_MSLEEP]	= 0xffffffff82000410ull,
};

/* Stack trailers stay valid while the event is handled: one per call. */
static uint64_t stack_frames[8][16];
static unsigned int nr_stacks;

/*
 * Thread @tid was off CPU over [left, left + dur] (@state), having left
 * with the kernel frames @k (innermost first, -1 ends them).
 */
static struct rt_event offcpu(uint32_t tid, uint64_t left, uint64_t dur,
			      uint32_t state, const int *k)
{
	uint64_t *frames = stack_frames[nr_stacks++ % 8];
	struct rt_event ev;
	uint16_t n = 0;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_OFFCPU;
	ev.pid = ev.tid = tid;
	strcpy(ev.comm, "dd");
	ev.ts_ns = left + dur;
	ev.u.offcpu.offcpu_ns = dur;
	ev.u.offcpu.state = state;
	while (k && k[n] >= 0) {
		frames[n] = kaddr[k[n]];
		n++;
	}
	ev.stack.nr_kernel = n;
	ev.stack.kernel = (const unsigned char *)frames;
	return ev;
}

static struct rt_ksyms offcpu_ksyms;

static void setup_offcpu(struct rt_graph *g, enum rt_format format,
			 uint32_t max_depth)
{
	setup(g, format, max_depth, 0, 0);
	assert_int_equal(rt_ksyms_parse(&offcpu_ksyms, offcpu_kallsyms), 0);
	g->ksyms = &offcpu_ksyms;
	g->read_ip = kaddr[K_READ];
}

static void done_offcpu(struct rt_graph *g)
{
	done(g);
	rt_ksyms_free(&offcpu_ksyms);
}

/*
 * One read, [1000, 10000]: filemap_read 1100-9000 holding
 * filemap_get_pages 1200-6000. Off CPU: 600-1000, ending as the read
 * starts (outside it); 800-1050, begun before the read (clipped to it,
 * the read's own time, no stack); 2000-5000 in filemap_get_pages, in
 * io_schedule (the scheduler's frames left out; filemap_get_pages has
 * no frame, it jumped to what blocked: cut at filemap_read); 5800-6200, begun in filemap_get_pages and past
 * its return (clipped to it); 7000-7500 in filemap_read, preempted;
 * 9500-9800 in the read's own time, in msleep.
 */
static void feed_offcpu_read(struct rt_graph *g)
{
	static const int io[] = { K_SCHED, K_SCHEDULE, K_IO, K_WAIT,
				  K_FILEMAP, K_READ, -1 };
	static const int sleep[] = { K_SCHED, K_SCHEDULE, K_MSLEEP, K_READ,
				     -1 };
	static const int pages[] = { K_SCHED, K_PAGES, K_FILEMAP, -1 };

	add(g, offcpu(4, 600, 400, RINGTRACE_OFFCPU_SLEEP, sleep));
	add(g, offcpu(4, 800, 250, RINGTRACE_OFFCPU_SLEEP, NULL));
	add(g, offcpu(4, 2000, 3000, RINGTRACE_OFFCPU_DISK, io));
	add(g, func(4, F_PAGES, 1200, 4800));
	add(g, offcpu(4, 5800, 400, RINGTRACE_OFFCPU_PREEMPTED, pages));
	add(g, offcpu(4, 7000, 500, RINGTRACE_OFFCPU_PREEMPTED, NULL));
	add(g, func(4, F_READ, 1100, 7900));
	add(g, offcpu(4, 9500, 300, RINGTRACE_OFFCPU_SLEEP, sleep));
	add(g, vfs_read(4, 1000, 9000));
}

static void test_offcpu_text(void **state)
{
	struct rt_graph g;
	char text[512];

	(void)state;
	setup_offcpu(&g, RT_FORMAT_TEXT, 0);
	feed_offcpu_read(&g);
	assert_string_equal(graph_lines(),
		"  |  [off-cpu S] 0.050us\n"
		"  |  filemap_read() {\n"
		"  |    filemap_get_pages() {\n"
		"  |      [off-cpu D] 3.000us io_schedule < folio_wait_bit_common\n"
		"  |      [off-cpu R] 0.200us\n"
		"  |    } 4.800us (self 1.600us on-cpu, 3.200us off-cpu)\n"
		"  |    [off-cpu R] 0.500us\n"
		"  |  } 7.900us (self 2.600us on-cpu, 0.500us off-cpu)\n"
		"  |  [off-cpu S] 0.300us msleep\n");
	assert_int_equal(g.shown, 2);
	assert_int_equal(g.offcpu_shown, 5);
	assert_int_equal(g.offcpu_outside, 1);
	assert_int_equal(g.offcpu_ns, 50 + 3000 + 200 + 500 + 300);
	rt_graph_end(&g);
	ob.len = 0;
	rt_graph_print_summary(&g, &ob);
	memcpy(text, ob.buf, ob.len);
	text[ob.len] = '\0';
	assert_string_equal(text, "graph: 1 reads, 2 spans shown; off-cpu: 5 "
			    "intervals shown (4.050us), 1 outside a read "
			    "(dropped)\n");
	done_offcpu(&g);
}

static void test_offcpu_json(void **state)
{
	struct rt_graph g;
	const char *graph;

	(void)state;
	setup_offcpu(&g, RT_FORMAT_JSON, 0);
	feed_offcpu_read(&g);
	ob.buf[ob.len - 1] = '\0';
	graph = strstr(ob.buf, ",\"graph\":[");
	assert_non_null(graph);
	assert_string_equal(graph,
		",\"graph\":["
		"{\"kind\":\"offcpu\",\"state\":\"S\",\"depth\":1,"
		"\"entry_ns\":1000,\"dur_ns\":50,\"frames\":[]},"
		"{\"kind\":\"func\",\"func\":\"filemap_read\",\"depth\":1,"
		"\"entry_ns\":1100,\"dur_ns\":7900,\"self_ns\":2600,"
		"\"offcpu_ns\":500},"
		"{\"kind\":\"func\",\"func\":\"filemap_get_pages\",\"depth\":2,"
		"\"entry_ns\":1200,\"dur_ns\":4800,\"self_ns\":1600,"
		"\"offcpu_ns\":3200},"
		"{\"kind\":\"offcpu\",\"state\":\"D\",\"depth\":3,"
		"\"entry_ns\":2000,\"dur_ns\":3000,"
		"\"frames\":[\"io_schedule\",\"folio_wait_bit_common\"]},"
		"{\"kind\":\"offcpu\",\"state\":\"R\",\"depth\":3,"
		"\"entry_ns\":5800,\"dur_ns\":200,\"frames\":[]},"
		"{\"kind\":\"offcpu\",\"state\":\"R\",\"depth\":2,"
		"\"entry_ns\":7000,\"dur_ns\":500,\"frames\":[]},"
		"{\"kind\":\"offcpu\",\"state\":\"S\",\"depth\":1,"
		"\"entry_ns\":9500,\"dur_ns\":300,\"frames\":[\"msleep\"]}"
		"],\"graph_missing\":0}");
	done_offcpu(&g);
}

/*
 * Folded: each interval's time on [vfs_read, callers, [off-cpu], where
 * it blocked, outermost first], its span's self time less it; the
 * read's stacks add up to its latency. --graph-depth 1 hides the
 * intervals under filemap_get_pages in filemap_read, keeping the sum.
 */
static void test_offcpu_fold(void **state)
{
	struct rt_folded f;
	struct rt_graph g;
	char out[4096];
	uint64_t self;

	(void)state;
	for (uint32_t depth = 0; depth <= 1; depth++) {
		assert_int_equal(rt_folded_init(&f), 0);
		setup_offcpu(&g, RT_FORMAT_TEXT, depth);
		g.fold = &f;
		feed_offcpu_read(&g);
		assert_int_equal(f.weight, 9000);
		out[0] = '\0';
		rt_folded_foreach(&f, &offcpu_ksyms, fold_line, out);
		assert_string_equal(out, depth ?
			"dd;vfs_read_[k] 750\n"
			"dd;vfs_read_[k];[off-cpu] 50\n"
			"dd;vfs_read_[k];[off-cpu];msleep_[k] 300\n"
			"dd;vfs_read_[k];filemap_read_[k] 7900\n" :
			"dd;vfs_read_[k] 750\n"
			"dd;vfs_read_[k];[off-cpu] 50\n"
			"dd;vfs_read_[k];[off-cpu];msleep_[k] 300\n"
			"dd;vfs_read_[k];filemap_read_[k] 2600\n"
			"dd;vfs_read_[k];filemap_read_[k];[off-cpu] 500\n"
			"dd;vfs_read_[k];filemap_read_[k];filemap_get_pages_[k] 1600\n"
			"dd;vfs_read_[k];filemap_read_[k];filemap_get_pages_[k];"
			"[off-cpu] 200\n"
			"dd;vfs_read_[k];filemap_read_[k];filemap_get_pages_[k];"
			"[off-cpu];folio_wait_bit_common_[k];io_schedule_[k] 3000\n");
		assert_int_equal(g.offcpu_hidden, depth ? 3 : 0);
		/* The per-function table: off CPU in the span's self time. */
		self = 0;
		for (uint32_t i = 0; i < g.nr_funcs; i++)
			self += g.funcs[i].self_ns;
		assert_int_equal(self, 9000);
		done_offcpu(&g);
		rt_folded_fini(&f);
	}
}

/*
 * At the read's edges: an interval that ends as the read returns is
 * its own; one that ends after it waits for the thread's next read,
 * where it began before that read: clipped to its start. A thread's
 * intervals outside any read are counted at the end. --no-offcpu
 * ignores them all.
 */
static void test_offcpu_edges(void **state)
{
	struct rt_graph g;

	(void)state;
	setup_offcpu(&g, RT_FORMAT_TEXT, 0);
	add(&g, offcpu(6, 150, 50, RINGTRACE_OFFCPU_SLEEP, NULL));
	add(&g, offcpu(6, 190, 30, RINGTRACE_OFFCPU_SLEEP, NULL));
	add(&g, vfs_read(6, 100, 100));
	assert_string_equal(graph_lines(), "  |  [off-cpu S] 0.050us\n");
	ob.len = 0;
	add(&g, vfs_read(6, 210, 40));
	assert_string_equal(graph_lines(), "  |  [off-cpu S] 0.010us\n");
	add(&g, offcpu(6, 400, 10, RINGTRACE_OFFCPU_SLEEP, NULL));
	rt_graph_end(&g);
	assert_int_equal(g.offcpu_shown, 2);
	assert_int_equal(g.offcpu_outside, 1);
	done_offcpu(&g);

	setup_offcpu(&g, RT_FORMAT_TEXT, 0);
	g.no_offcpu = true;
	add(&g, offcpu(6, 150, 50, RINGTRACE_OFFCPU_SLEEP, NULL));
	add(&g, vfs_read(6, 100, 100));
	assert_string_equal(graph_lines(), "");
	rt_graph_end(&g);
	assert_false(g.offcpu_shown || g.offcpu_outside);
	done_offcpu(&g);
}

/* Two intervals that overlap (the clocks) are clipped, not counted twice. */
static void test_offcpu_overlap(void **state)
{
	struct rt_graph g;

	(void)state;
	setup_offcpu(&g, RT_FORMAT_TEXT, 0);
	add(&g, offcpu(2, 120, 40, RINGTRACE_OFFCPU_SLEEP, NULL));
	add(&g, offcpu(2, 150, 30, RINGTRACE_OFFCPU_PREEMPTED, NULL));
	add(&g, func(2, F_READ, 110, 80));
	add(&g, vfs_read(2, 100, 100));
	assert_string_equal(graph_lines(),
			    "  |  filemap_read() {\n"
			    "  |    [off-cpu S] 0.040us\n"
			    "  |    [off-cpu R] 0.020us\n"
			    "  |  } 0.080us (self 0.020us on-cpu, 0.060us off-cpu)\n");
	done_offcpu(&g);
}

static void test_unnamed(void **state)
{
	struct rt_graph g;

	(void)state;
	setup(&g, RT_FORMAT_TEXT, 0, 0, 0);
	rt_output_set_func_names(NULL, 0);
	add(&g, func(1, 9, 110, 5));
	add(&g, vfs_read(1, 100, 100));
	assert_string_equal(graph_lines(),
			    "  |  0xffffffff81000009() 0.005us\n");
	done(&g);
}

int main(void)
{
	RUN(cmocka_unit_test(test_nesting_text),
	    cmocka_unit_test(test_summary_text),
	    cmocka_unit_test(test_summary_fast_read_calls),
	    cmocka_unit_test(test_three_levels),
	    cmocka_unit_test(test_depth_hides),
	    cmocka_unit_test(test_json),
	    cmocka_unit_test(test_full_ring),
	    cmocka_unit_test(test_ring_grows),
	    cmocka_unit_test(test_ring_cap),
	    cmocka_unit_test(test_ring_budget),
	    cmocka_unit_test(test_ring_small),
	    cmocka_unit_test(test_thread_table_full),
	    cmocka_unit_test(test_fold),
	    cmocka_unit_test(test_func_table),
	    cmocka_unit_test(test_func_table_full),
	    cmocka_unit_test(test_unnamed),
	    cmocka_unit_test(test_offcpu_text),
	    cmocka_unit_test(test_offcpu_json),
	    cmocka_unit_test(test_offcpu_fold),
	    cmocka_unit_test(test_offcpu_edges),
	    cmocka_unit_test(test_offcpu_overlap));
}
