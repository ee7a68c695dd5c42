// SPDX-License-Identifier: GPL-2.0-only
/*
 * func records (-e func:NAME) in the views, from synthetic records:
 * --hist gives each function its own latency histogram, labelled with
 * its name (overall, per --hist-by key, one key per function for
 * --hist-by file), --summary one row per function with its calls; text
 * and JSON give the same counts and sums; a replay without the
 * session's names labels them by the namer (the recording's symbols) or
 * in hex; a ninth function is counted as left out, not shown. --filter
 * knows func, ret and lat of func calls (and pid, comm...), and
 * --min-latency selects func calls by lat_ns as vfs_reads. --perfetto
 * draws each call as a slice named after its function on its thread's
 * track, from ts - lat for lat, and where the arguments' names and types
 * are known adds them to the slice's (or a tracepoint's instant's) args
 * by name, a name that is one of the record's own keys renamed, the whole
 * still JSON (python's json reads it). The weighted views (--folded,
 * --flamegraph, --report) weigh each call by its latency on its stack,
 * the function its leaf.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/filter.h"
#include "ringtrace/filter_expr.h"
#include "ringtrace/folded.h"
#include "ringtrace/latency_view.h"
#include "ringtrace/output.h"
#include "ringtrace/perfetto.h"

#include "signal_generate_args.h"

#define IP_WRITE	0xffffffff81400000ull
#define IP_READ		0xffffffff81500000ull

/* The calls of the view's function @i counted overall. */
#define FH(i)	rt_view_func_hist(&v, &v.total_locks, (i))

static const char names[2][RINGTRACE_FUNC_NAME_LEN] = {
	"vfs_write", "ksys_read",
};

static struct rt_event func_ev(uint32_t pid, uint32_t idx, uint64_t ip,
			       uint64_t lat, int64_t ret)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_FUNC;
	ev.ts_ns = 1000000 + lat;
	ev.pid = ev.tid = pid;
	snprintf(ev.comm, sizeof(ev.comm), "p%u", pid);
	ev.u.func.idx = idx;
	ev.u.func.ip = ip;
	ev.u.func.lat_ns = lat;
	ev.u.func.ret = ret;
	return ev;
}

/* 3 vfs_write calls (6 us) from pid 1, 2 ksys_read calls (10 us), pid 2. */
static void add_calls(struct rt_latency_view *v)
{
	static const uint64_t w[] = { 1000, 2000, 3000 };

	for (size_t i = 0; i < 3; i++) {
		struct rt_event ev = func_ev(1, 0, IP_WRITE, w[i], 4096);

		rt_latency_view_add(v, &ev);
	}
	for (size_t i = 0; i < 2; i++) {
		struct rt_event ev = func_ev(2, 1, IP_READ, 5000, -4);

		rt_latency_view_add(v, &ev);
	}
}

static char *print_text(struct rt_latency_view *v, struct rt_outbuf *ob)
{
	ob->len = 0;
	rt_latency_view_print(v, ob);
	rt_outbuf_append(ob, "", 1);
	return ob->buf;
}

static char *print_json(struct rt_latency_view *v, struct rt_outbuf *ob)
{
	ob->len = 0;
	rt_latency_view_print_json(v, ob, NULL);
	rt_outbuf_append(ob, "", 1);
	return ob->buf;
}

/* The count of the summary row of @name in text: "NAME   CALLS ...". */
static long text_calls(const char *buf, const char *name)
{
	char pat[80];
	const char *p;
	long n = -1;

	snprintf(pat, sizeof(pat), "\n%s ", name);
	p = strstr(buf, pat);
	if (p && sscanf(p + strlen(pat), "%ld", &n) != 1)
		n = -1;
	return n;
}

static void test_hist_and_summary(void **state)
{
	struct rt_latency_view v = { .hist = true, .summary = true };
	struct rt_outbuf ob;
	const char *t, *w, *r;

	(void)state;
	rt_output_set_func_names(names, 2);
	assert_int_equal(rt_latency_view_init(&v), 0);
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	add_calls(&v);
	assert_int_equal(v.nr_funcs, 2);
	assert_true(FH(0)->n == 3);
	assert_true(FH(0)->sum == 6000);
	assert_true(FH(1)->n == 2);
	assert_true(FH(1)->sum == 10000);
	/* func calls are no vfs_reads */
	assert_true(v.total.read.n == 0);

	t = print_text(&v, &ob);
	w = strstr(t, " func vfs_write latency\n");
	r = strstr(t, " func ksys_read latency\n");
	assert_non_null(w);
	assert_non_null(r);
	assert_null(strstr(t, "(no vfs_read, lock or offcpu events)"));
	/* The summary: a table of functions, most time first. */
	assert_non_null(strstr(t, "\nFUNCTION "));
	assert_null(strstr(t, "(no vfs_read records"));
	assert_int_equal(text_calls(t, "vfs_write"), 3);
	assert_int_equal(text_calls(t, "ksys_read"), 2);
	assert_true(strstr(t, "\nksys_read ") < strstr(t, "\nvfs_write "));
	assert_non_null(strstr(t, "(percentiles are the upper bound"));

	t = print_json(&v, &ob);
	assert_non_null(strstr(t, "\"hist\":{\"all\":{\"funcs\":{"
				  "\"vfs_write\":{\"count\":3,\"sum_ns\":6000,"
				  "\"min_ns\":1000,"));
	assert_non_null(strstr(t, ",\"ksys_read\":{\"count\":2,"
				  "\"sum_ns\":10000,"));
	assert_non_null(strstr(t, ",\"funcs\":[{\"func\":\"ksys_read\","
				  "\"calls\":2,\"total_ns\":10000,"));
	assert_non_null(strstr(t, "{\"func\":\"vfs_write\",\"calls\":3,"
				  "\"total_ns\":6000,"));
	assert_non_null(strstr(t, "\"max_ns\":3000}]}"));

	/* --interval: each block anew, the functions keep their places. */
	rt_latency_view_reset(&v);
	assert_int_equal(v.nr_funcs, 2);
	t = print_text(&v, &ob);
	assert_null(strstr(t, "func vfs_write"));
	assert_null(strstr(t, "\nFUNCTION "));
	t = print_json(&v, &ob);
	assert_null(strstr(t, "funcs"));
	rt_outbuf_fini(&ob);
	rt_latency_view_fini(&v);
	rt_output_set_func_names(NULL, 0);
}

static void test_hist_by(void **state)
{
	struct rt_latency_view v = { .hist = true, .by = RT_HIST_BY_FILE };
	struct rt_outbuf ob;
	const char *t, *key;

	(void)state;
	rt_output_set_func_names(names, 2);
	assert_int_equal(rt_latency_view_init(&v), 0);
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	add_calls(&v);
	/* One key per function, no file. */
	assert_int_equal(v.keyed.nr, 2);
	t = print_text(&v, &ob);
	key = strstr(t, "\n@[func vfs_write]\n func vfs_write latency\n");
	assert_non_null(key);
	assert_non_null(strstr(t, "\n@[func ksys_read]\n func ksys_read latency\n"));
	/* most time first */
	assert_true(strstr(t, "@[func ksys_read]") < key);
	t = print_json(&v, &ob);
	assert_non_null(strstr(t, "\"by\":\"file\",\"keys\":[{\"func\":"
				  "\"ksys_read\",\"funcs\":{\"ksys_read\":"
				  "{\"count\":2,"));
	assert_non_null(strstr(t, "{\"func\":\"vfs_write\",\"funcs\":"
				  "{\"vfs_write\":{\"count\":3,"));
	rt_latency_view_fini(&v);

	/* By pid: each process's own functions. */
	v = (struct rt_latency_view){ .hist = true, .by = RT_HIST_BY_PID };
	assert_int_equal(rt_latency_view_init(&v), 0);
	add_calls(&v);
	assert_int_equal(v.keyed.nr, 2);
	t = print_text(&v, &ob);
	assert_non_null(strstr(t, "\n@[pid 1, p1]\n func vfs_write latency\n"));
	assert_non_null(strstr(t, "\n@[pid 2, p2]\n func ksys_read latency\n"));
	for (uint32_t i = 0; i < v.keyed.nr; i++) {
		const struct rt_view_entry *e = &v.keyed.entries[i];
		const struct rt_view_locks *l = &v.keyed.locks[i];

		const struct rt_hist *h0 = rt_view_func_hist(&v, l, 0);
		const struct rt_hist *h1 = rt_view_func_hist(&v, l, 1);

		/* a histogram only where the entry saw a call */
		if (e->key.pid == 1)
			assert_true(h0 && h0->n == 3 && !h1);
		else
			assert_true(h1 && h1->n == 2 && !h0);
	}
	rt_outbuf_fini(&ob);
	rt_latency_view_fini(&v);
	rt_output_set_func_names(NULL, 0);
}

static const char *fake_ksyms(void *arg, uint64_t ip)
{
	(void)arg;
	return ip == IP_WRITE ? "vfs_write" : NULL;
}

/*
 * A replay has no session names: the namer (the recording's symbols)
 * names what it knows by the same name, the rest is hex.
 */
static void test_replay_names(void **state)
{
	struct rt_latency_view v = { .hist = true, .summary = true };
	struct rt_outbuf ob;
	const char *t;

	(void)state;
	rt_output_set_func_namer(fake_ksyms, NULL);
	assert_int_equal(rt_latency_view_init(&v), 0);
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	add_calls(&v);
	t = print_text(&v, &ob);
	assert_non_null(strstr(t, " func vfs_write latency\n"));
	assert_non_null(strstr(t, " func 0xffffffff81500000 latency\n"));
	assert_int_equal(text_calls(t, "vfs_write"), 3);
	assert_int_equal(text_calls(t, "0xffffffff81500000"), 2);
	rt_output_set_func_namer(NULL, NULL);
	rt_outbuf_fini(&ob);
	rt_latency_view_fini(&v);
}

/*
 * No session traces more than RINGTRACE_MAX_FUNCS functions: the calls of
 * one more are counted, not shown; each function's own, whatever the
 * order its calls come in.
 */
static void test_ninth_function(void **state)
{
	struct rt_latency_view v = { .hist = true, .by = RT_HIST_BY_PID };
	const struct rt_hist *h;

	(void)state;
	assert_int_equal(rt_latency_view_init(&v), 0);
	for (uint32_t i = 0; i < RINGTRACE_MAX_FUNCS + 1; i++) {
		struct rt_event ev = func_ev(1, i, IP_WRITE + 16 * i, 100, 0);

		rt_latency_view_add(&v, &ev);
		rt_latency_view_add(&v, &ev);
	}
	/* again, last first, from another process: 2 keys, their own */
	for (uint32_t i = RINGTRACE_MAX_FUNCS; i-- > 0;) {
		struct rt_event ev = func_ev(2, i, IP_WRITE + 16 * i, 10 + i, 0);

		rt_latency_view_add(&v, &ev);
	}
	assert_int_equal(v.nr_funcs, RINGTRACE_MAX_FUNCS);
	assert_true(v.func_overflow == 2);
	assert_int_equal(v.keyed.nr, 2);
	for (uint32_t i = 0; i < RINGTRACE_MAX_FUNCS; i++) {
		assert_true(FH(i)->n == 3);
		assert_true(FH(i)->sum == 200 + 10 + i);
		h = rt_view_func_hist(&v, &v.keyed.locks[0], i);
		assert_true(h && h->n == 2 && h->sum == 200);
		h = rt_view_func_hist(&v, &v.keyed.locks[1], i);
		assert_true(h && h->n == 1 && h->sum == 10 + i);
	}
	assert_true(v.keyed.locks[1].func_n == RINGTRACE_MAX_FUNCS);
	/* --interval: counted anew, every function keeps its place */
	rt_latency_view_reset(&v);
	assert_null(FH(0));
	assert_null(rt_view_func_hist(&v, &v.keyed.locks[0], 0));
	assert_int_equal(v.nr_funcs, RINGTRACE_MAX_FUNCS);
	{
		struct rt_event ev = func_ev(1, 7, IP_WRITE + 16 * 7, 5, 0);

		rt_latency_view_add(&v, &ev);
	}
	assert_true(FH(7)->n == 1);
	assert_null(FH(6));
	assert_int_equal(v.nr_funcs, RINGTRACE_MAX_FUNCS);
	rt_latency_view_fini(&v);
}

/* How many of the five calls of add_calls() @text lets through. */
static int passed(const char *text)
{
	struct rt_expr e;
	char err[160];
	int n = 0;

	if (rt_expr_parse(&e, text, err, sizeof(err)))
		fail_msg("'%s': %s", text, err);
	for (uint32_t i = 0; i < 5; i++) {
		struct rt_event ev = i < 3 ?
				     func_ev(1, 0, IP_WRITE, 1000 * (i + 1), 4096) :
				     func_ev(2, 1, IP_READ, 5000, -4);

		n += rt_expr_eval(&e, &ev);
	}
	return n;
}

static void test_filter(void **state)
{
	struct rt_filter f;
	struct rt_event ev;
	int n = 0;

	(void)state;
	rt_output_set_func_names(names, 2);
	assert_int_equal(passed("func == \"vfs_write\""), 3);
	assert_int_equal(passed("func ~ \"ksys_*\""), 2);
	assert_int_equal(passed("func != \"vfs_write\""), 2);
	assert_int_equal(passed("ret == 4096"), 3);
	assert_int_equal(passed("ret < 0"), 2);
	assert_int_equal(passed("ret == -EINTR"), 2);
	assert_int_equal(passed("lat >= 2us"), 4);
	assert_int_equal(passed("lat > 2us && func == \"vfs_write\""), 1);
	assert_int_equal(passed("comm == \"p2\" || pid == 1"), 5);
	/* Fields of vfs_reads only: no func call has them. */
	assert_int_equal(passed("count > 0"), 0);
	assert_int_equal(passed("path ~ \"*\""), 0);
	/* And no vfs_read has a function. */
	ev = func_ev(1, 0, IP_WRITE, 1, 0);
	ev.kind = RT_EVENT_VFS_READ;
	assert_int_equal(passed("func ~ \"*\""), 5);
	{
		struct rt_expr e;
		char err[160];

		assert_int_equal(rt_expr_parse(&e, "func ~ \"*\"", err,
					       sizeof(err)), 0);
		assert_false(rt_expr_eval(&e, &ev));
	}
	/* Replay names: the namer's, else hex. */
	rt_output_set_func_names(NULL, 0);
	rt_output_set_func_namer(fake_ksyms, NULL);
	assert_int_equal(passed("func == \"vfs_write\""), 3);
	assert_int_equal(passed("func == \"0xffffffff81500000\""), 2);
	rt_output_set_func_namer(NULL, NULL);

	/* --min-latency: func calls by lat_ns, as vfs_reads. */
	memset(&f, 0, sizeof(f));
	f.min_func_latency_ns = 2500;
	for (uint32_t i = 0; i < 5; i++) {
		ev = i < 3 ? func_ev(1, 0, IP_WRITE, 1000 * (i + 1), 4096) :
			     func_ev(2, 1, IP_READ, 5000, -4);
		n += rt_filter_pass(&f, &ev);
	}
	assert_int_equal(n, 3);
	/* -e on replay: func calls only when it names func. */
	memset(&f, 0, sizeof(f));
	f.events = RINGTRACE_EVENT_VFS_READ;
	assert_false(rt_filter_pass(&f, &ev));
	f.events |= RINGTRACE_EVENT_FUNC;
	assert_true(rt_filter_pass(&f, &ev));
}

static void test_perfetto(void **state)
{
	struct rt_perfetto p;
	struct rt_outbuf ob;
	struct rt_event ev;
	const char *t;

	(void)state;
	rt_output_set_func_names(names, 2);
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	assert_int_equal(rt_perfetto_init(&p, &ob), 0);
	/* returned at 3.5 ms after 1234.567 us: entered at 2265.433 us */
	ev = func_ev(7, 0, IP_WRITE, 1234567, 4096);
	ev.ts_ns = 3500000;
	rt_perfetto_add(&p, &ev);
	ev = func_ev(7, 1, IP_READ, 5000, -4);
	ev.tid = 8;
	ev.cpu = 3;
	rt_perfetto_add(&p, &ev);
	rt_perfetto_finish(&p);
	rt_outbuf_append(&ob, "", 1);
	t = ob.buf;
	assert_non_null(strstr(t, "{\"ph\":\"X\",\"name\":\"vfs_write\","
				  "\"cat\":\"func\",\"pid\":7,\"tid\":7,"
				  "\"ts\":2265.433,\"dur\":1234.567,"
				  "\"args\":{\"ret\":4096,\"cpu\":0}}"));
	assert_non_null(strstr(t, "{\"ph\":\"X\",\"name\":\"ksys_read\","
				  "\"cat\":\"func\",\"pid\":7,\"tid\":8,"
				  "\"ts\":1000.000,\"dur\":5.000,"
				  "\"args\":{\"ret\":-4,\"cpu\":3}}"));
	/* its thread's track is named */
	assert_non_null(strstr(t, "\"name\":\"thread_name\",\"pid\":7,"
				  "\"tid\":8,\"args\":{\"name\":\"p7\"}}"));
	/* two slices, two threads, the process: 1 + 2 + 1 + 2 events */
	assert_true(p.events == 6);
	rt_outbuf_fini(&ob);
	rt_output_set_func_names(NULL, 0);
}

/* A tracepoint's hit (-e tp:): an instant event with its arguments. */
static void test_perfetto_tracepoint(void **state)
{
	static const char tp_names[1][RINGTRACE_FUNC_NAME_LEN] = {
		"tp:signal:signal_generate"
	};
	struct rt_perfetto p;
	struct rt_outbuf ob;
	struct rt_event ev;

	(void)state;
	rt_output_set_func_names(tp_names, 1);
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	assert_int_equal(rt_perfetto_init(&p, &ob), 0);
	ev = func_ev(7, 0, 0xffffffff82000000ull, 0, 0);
	ev.ts_ns = 3500000;
	ev.u.func.nr_args = 2;
	ev.u.func.args[0] = 0xa;
	ev.u.func.args[1] = 0xffff888000001000ull;
	rt_perfetto_add(&p, &ev);
	rt_perfetto_finish(&p);
	rt_outbuf_append(&ob, "", 1);
	assert_non_null(strstr(ob.buf, "{\"ph\":\"i\",\"s\":\"t\","
				  "\"name\":\"tp:signal:signal_generate\","
				  "\"cat\":\"tracepoint\",\"pid\":7,\"tid\":7,"
				  "\"ts\":3500.000,\"args\":{\"cpu\":0,"
				  "\"args\":[\"0xa\",\"0xffff888000001000\"]}}"));
	assert_null(strstr(ob.buf, "\"ph\":\"X\""));
	rt_outbuf_fini(&ob);
	rt_output_set_func_names(NULL, 0);
}

/* Whether python's json reads @text (no python3: skipped, true). */
static bool json_parses(const char *text)
{
	char path[64];
	char cmd[256];
	FILE *f;
	int rc;

	if (system("command -v python3 > /dev/null 2>&1"))
		return true;
	snprintf(path, sizeof(path), "/tmp/rt-test-perfetto-%d.json",
		 (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 -c 'import json, sys; "
		 "json.load(open(sys.argv[1]))' %s", path);
	rc = system(cmd);
	unlink(path);
	return rc == 0;
}

/*
 * The arguments by name and type beside the raw ones: a tracepoint's
 * (signal_generate's: a negative int, pointers in hex) and a function's
 * whose names are the slice's own keys ("ret", "cpu") or an earlier
 * argument's key, renamed "arg<i>_..." until free; a record past the
 * descriptions' count keeps only its own.
 */
static void test_perfetto_named_args(void **state)
{
	static const char tp_names[3][RINGTRACE_FUNC_NAME_LEN] = {
		"tp:signal:signal_generate", "do_thing", "other",
	};
	static const struct rt_func_arg_descs descs[3] = {
		SIGNAL_GENERATE_ARGS,
		{ .nr_args = 3, .arg = {
			{ .name = "ret", .size = 4, .is_signed = 1 },
			{ .name = "cpu", .size = 2 },
			{ .name = "arg0_ret", .size = 1, .is_signed = 1 },
		} },
		{ .nr_args = 0 },
	};
	struct rt_perfetto p;
	struct rt_outbuf ob;
	struct rt_event ev;

	(void)state;
	rt_output_set_func_names(tp_names, 3);
	rt_output_set_func_args(descs, 3);
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	assert_int_equal(rt_perfetto_init(&p, &ob), 0);
	ev = func_ev(7, 0, 0xffffffff82000000ull, 0, 0);
	ev.ts_ns = 3500000;
	ev.u.func.nr_args = 6;
	ev.u.func.args[0] = 0xfffffffffffffff9ull;	/* int -7 */
	ev.u.func.args[1] = 0xffff888000001000ull;
	ev.u.func.args[2] = 0xffff888000002000ull;
	ev.u.func.args[3] = 0;
	ev.u.func.args[4] = 2;
	ev.u.func.args[5] = 0xdead;
	rt_perfetto_add(&p, &ev);
	ev = func_ev(7, 1, IP_WRITE, 1000, 5);
	ev.ts_ns = 3600000;
	ev.u.func.nr_args = 3;
	ev.u.func.args[0] = 0xffffffffull;		/* -1 */
	ev.u.func.args[1] = 0x10003;			/* u16 3 */
	ev.u.func.args[2] = 0x80;			/* s8 -128 */
	rt_perfetto_add(&p, &ev);
	ev = func_ev(7, 2, IP_READ, 1000, 0);
	ev.ts_ns = 3700000;
	ev.u.func.nr_args = 1;
	ev.u.func.args[0] = 1;
	rt_perfetto_add(&p, &ev);
	rt_perfetto_finish(&p);
	rt_outbuf_append(&ob, "", 1);
	assert_non_null(strstr(ob.buf, "\"args\":{\"cpu\":0,"
				  "\"args\":[\"0xfffffffffffffff9\","
				  "\"0xffff888000001000\",\"0xffff888000002000\","
				  "\"0x0\",\"0x2\",\"0xdead\"],\"sig\":-7,"
				  "\"info\":\"0xffff888000001000\","
				  "\"task\":\"0xffff888000002000\","
				  "\"group\":0,\"result\":2}}"));
	assert_non_null(strstr(ob.buf, "\"name\":\"do_thing\",\"cat\":\"func\","
				  "\"pid\":7,\"tid\":7,\"ts\":3599.000,"
				  "\"dur\":1.000,\"args\":{\"ret\":5,\"cpu\":0,"
				  "\"arg0_ret\":-1,\"arg1_cpu\":3,"
				  "\"arg2_arg0_ret\":-128}}"));
	assert_non_null(strstr(ob.buf, "\"name\":\"other\",\"cat\":\"func\","
				  "\"pid\":7,\"tid\":7,\"ts\":3699.000,"
				  "\"dur\":1.000,\"args\":{\"ret\":0,\"cpu\":0}}"));
	assert_true(json_parses(ob.buf));
	rt_outbuf_fini(&ob);
	rt_output_set_func_names(NULL, 0);
	rt_output_set_func_args(NULL, 0);
}

static void test_folded(void **state)
{
	static const char kallsyms[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81400000 T vfs_write\n"
		"ffffffff81500000 T ksys_read\n"
		"ffffffff81600000 T ksys_write\n"
		"ffffffff81700000 T do_syscall_64\n"
		"ffffffff81800000 T _etext\n";
	/* innermost first: ksys_write+0x10, do_syscall_64+0x20 */
	uint64_t trailer[2] = { 0xffffffff81600010ull, 0xffffffff81700020ull };
	struct rt_folded f;
	struct rt_ksyms k;
	struct rt_outbuf ob;
	struct rt_event ev;
	uint32_t lines;

	(void)state;
	assert_int_equal(rt_folded_init(&f), 0);
	assert_int_equal(rt_ksyms_parse(&k, kallsyms), 0);
	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	/* with a stack: 1000 + 2000 ns */
	for (uint32_t i = 1; i <= 2; i++) {
		ev = func_ev(1, 0, IP_WRITE, 1000 * i, 4096);
		ev.stack.nr_kernel = 2;
		ev.stack.kernel = (const unsigned char *)trailer;
		rt_folded_add_func(&f, &ev);
	}
	/* without: on the thread and the function alone */
	ev = func_ev(2, 1, IP_READ, 5000, -4);
	rt_folded_add_func(&f, &ev);
	/* a call of no measurable length weighs nothing */
	ev = func_ev(2, 1, IP_READ, 0, 0);
	rt_folded_add_func(&f, &ev);
	assert_true(f.samples == 4);
	assert_true(f.weight == 8000);
	lines = rt_folded_write(&f, &k, &ob);
	rt_outbuf_append(&ob, "", 1);
	assert_int_equal(lines, 2);
	assert_string_equal(ob.buf,
			    "p1;do_syscall_64_[k];ksys_write_[k];vfs_write_[k] 3000\n"
			    "p2;ksys_read_[k] 5000\n");
	rt_outbuf_fini(&ob);
	rt_ksyms_free(&k);
	rt_folded_fini(&f);
}

int main(void)
{
	RUN(cmocka_unit_test(test_hist_and_summary),
	    cmocka_unit_test(test_hist_by),
	    cmocka_unit_test(test_replay_names),
	    cmocka_unit_test(test_ninth_function),
	    cmocka_unit_test(test_filter),
	    cmocka_unit_test(test_perfetto),
	    cmocka_unit_test(test_perfetto_tracepoint),
	    cmocka_unit_test(test_perfetto_named_args),
	    cmocka_unit_test(test_folded));
}
