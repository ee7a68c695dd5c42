// SPDX-License-Identifier: GPL-2.0-only
/*
 * --report's table (report.c) from folded stacks: self on the
 * innermost frame, children once per stack however often a symbol
 * recurs, a record without a stack on "[no stack]", self summing to the
 * total; by comm and by dso (kernel, module, [unknown]); the text and
 * JSON printers. Percentages round as the flame graph's and perf's do;
 * the stacks counted are --folded's lines; a vfs_read without a stack
 * weighs on its file, as in --folded and the flame graph.
 */
#include "test.h"

#include "ringtrace/paths.h"
#include "ringtrace/report.h"

static const char kallsyms[] =
	"ffffffff81000000 T entry\n"
	"ffffffff81001000 T ksys_read\n"
	"ffffffff81002000 T vfs_read\n"
	"ffffffff81003000 t recurse\n"
	"ffffffffc0001000 t ext4_read\t[ext4]\n"
	"ffffffffc0002000 t ext4_end\t[ext4]\n";

#define ENTRY	0xffffffff81000010ull
#define KSYS	0xffffffff81001010ull
#define VFS	0xffffffff81002010ull
#define REC	0xffffffff81003010ull
#define EXT4	0xffffffffc0001010ull

/* A vfs_read event of @comm with kernel frames @k (innermost first). */
static void add(struct rt_folded *f, const char *comm, const uint64_t *k,
		uint16_t nr, uint64_t weight)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_VFS_READ;
	ev.pid = 10;
	strcpy(ev.comm, comm);
	ev.stack.nr_kernel = nr;
	ev.stack.kernel = (const unsigned char *)k;
	rt_folded_add_stack(f, &ev, weight);
}

static const struct rt_report_row *row(const struct rt_report *r,
				       const char *key)
{
	for (uint32_t i = 0; i < r->nr; i++)
		if (!strcmp(r->rows[i].key, key))
			return &r->rows[i];
	fail_msg("no row %s", key);
	return NULL;
}

struct fixture {
	struct rt_folded	f;
	struct rt_ksyms		k;
	struct rt_frame_names	n;
};

/* An empty table, kallsyms and names without offsets. */
static void start(struct fixture *x)
{
	assert_int_equal(rt_folded_init(&x->f), 0);
	assert_int_equal(rt_ksyms_parse(&x->k, kallsyms), 0);
	assert_int_equal(rt_frame_names_init(&x->n, &x->k, NULL), 0);
	x->n.bare = true;
}

static void build(struct fixture *x)
{
	const uint64_t a[] = { VFS, KSYS, ENTRY };
	const uint64_t b[] = { EXT4, VFS, KSYS, ENTRY };
	const uint64_t c[] = { REC, REC, REC, ENTRY };

	start(x);
	add(&x->f, "cat", a, 3, 50);
	add(&x->f, "tar", b, 4, 30);
	add(&x->f, "tar", c, 4, 15);
	add(&x->f, "sh", NULL, 0, 5);
}

static void done(struct fixture *x)
{
	rt_frame_names_fini(&x->n);
	rt_ksyms_free(&x->k);
	rt_folded_fini(&x->f);
}

static void test_by_sym(void **state)
{
	struct fixture x;
	struct rt_report r;
	uint64_t self = 0;

	(void)state;
	build(&x);
	assert_int_equal(rt_report_build(&r, &x.f, &x.n, RT_REPORT_BY_SYM), 0);
	assert_int_equal(r.total, 100);
	assert_int_equal(r.stacks, 4);
	for (uint32_t i = 0; i < r.nr; i++)
		self += r.rows[i].self;
	assert_int_equal(self, 100);
	assert_int_equal(row(&r, "entry")->children, 95);
	assert_int_equal(row(&r, "entry")->self, 0);
	assert_int_equal(row(&r, "vfs_read")->children, 80);
	assert_int_equal(row(&r, "vfs_read")->self, 50);
	assert_int_equal(row(&r, "ext4_read[ext4]")->self, 30);
	/* Three frames of recurse in one stack: its weight once. */
	assert_int_equal(row(&r, "recurse")->children, 15);
	assert_int_equal(row(&r, "recurse")->self, 15);
	assert_int_equal(row(&r, "[no stack]")->self, 5);
	/* Sorted by children. */
	assert_string_equal(r.rows[0].key, "entry");
	rt_report_fini(&r);
	done(&x);
}

static void test_by_comm_and_dso(void **state)
{
	struct fixture x;
	struct rt_report r;

	(void)state;
	build(&x);
	assert_int_equal(rt_report_build(&r, &x.f, &x.n, RT_REPORT_BY_COMM), 0);
	assert_int_equal(r.nr, 3);
	assert_int_equal(row(&r, "tar")->self, 45);
	assert_int_equal(row(&r, "tar")->children, 45);
	assert_string_equal(r.rows[0].key, "cat");
	rt_report_fini(&r);
	assert_int_equal(rt_report_build(&r, &x.f, &x.n, RT_REPORT_BY_DSO), 0);
	assert_int_equal(row(&r, "[kernel.kallsyms]")->self, 65);
	assert_int_equal(row(&r, "[kernel.kallsyms]")->children, 95);
	assert_int_equal(row(&r, "[ext4]")->self, 30);
	assert_int_equal(row(&r, "[no stack]")->self, 5);
	rt_report_fini(&r);
	done(&x);
}

static const char *render(const struct rt_report *r, bool json)
{
	static char text[65536];
	struct rt_outbuf ob;

	rt_outbuf_init(&ob, -1, 0);
	if (json)
		rt_report_print_json(r, "samples", 2, &ob);
	else
		rt_report_print(r, "samples", 2, &ob);
	memcpy(text, ob.buf, ob.len);
	text[ob.len] = '\0';
	rt_outbuf_fini(&ob);
	return text;
}

static void test_printers(void **state)
{
	struct fixture x;
	struct rt_report r;

	(void)state;
	build(&x);
	assert_int_equal(rt_report_build(&r, &x.f, &x.n, RT_REPORT_BY_COMM), 0);
	assert_string_equal(render(&r, false),
		"# 100 samples in 4 stacks, by comm\n"
		"#  Children      Self    Children(w)        Self(w)  Command\n"
		"     50.00%    50.00%             50             50  cat\n"
		"     45.00%    45.00%             45             45  tar\n"
		"# 1 more rows (-v: all)\n");
	assert_string_equal(render(&r, true),
		"{\"report\":\"comm\",\"unit\":\"samples\",\"total\":100,"
		"\"stacks\":4,\"rows\":[{\"key\":\"cat\",\"self\":50,"
		"\"children\":50,\"self_pct\":50.00,\"children_pct\":50.00},"
		"{\"key\":\"tar\",\"self\":45,\"children\":45,\"self_pct\":45.00,"
		"\"children_pct\":45.00}]}\n");
	rt_report_fini(&r);
	done(&x);
}

/* 2 of 3 is 66.67%, not 66.66%: rounded, as the SVG and perf print it. */
static void test_rounded(void **state)
{
	const uint64_t a[] = { VFS, KSYS, ENTRY };
	const uint64_t b[] = { KSYS, ENTRY };
	struct fixture x;
	struct rt_report r;

	(void)state;
	start(&x);
	add(&x.f, "cat", a, 3, 2);
	add(&x.f, "tar", b, 2, 1);
	assert_int_equal(rt_report_build(&r, &x.f, &x.n, RT_REPORT_BY_COMM), 0);
	assert_string_equal(render(&r, false),
		"# 3 samples in 2 stacks, by comm\n"
		"#  Children      Self    Children(w)        Self(w)  Command\n"
		"     66.67%    66.67%              2              2  cat\n"
		"     33.33%    33.33%              1              1  tar\n");
	rt_report_fini(&r);
	done(&x);
}

/*
 * Two stacks whose frames name alike (two addresses in one symbol) are
 * one line of --folded: one stack of the report too.
 */
static void test_stacks_are_folded_lines(void **state)
{
	const uint64_t a[] = { VFS, KSYS, ENTRY };
	const uint64_t b[] = { VFS + 4, KSYS, ENTRY };
	struct fixture x;
	struct rt_report r;

	(void)state;
	start(&x);
	add(&x.f, "cat", a, 3, 2);
	add(&x.f, "cat", b, 3, 1);
	assert_int_equal(x.f.nr_stacks, 2);
	assert_int_equal(rt_report_build(&r, &x.f, &x.n, RT_REPORT_BY_SYM), 0);
	assert_int_equal(r.stacks, 1);
	assert_int_equal(row(&r, "vfs_read")->self, 3);
	rt_report_fini(&r);
	done(&x);
}

/* No stack: the file is the frame, by sym; in no binary, by dso. */
static void test_file_frames(void **state)
{
	struct rt_paths paths;
	struct fixture x;
	struct rt_report r;
	struct rt_event ev;

	(void)state;
	assert_int_equal(rt_paths_init(&paths), 0);
	rt_paths_set(&paths, 8, 1, 42, "/etc/services", 13);
	start(&x);
	x.f.paths = &paths;
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_VFS_READ;
	strcpy(ev.comm, "cat");
	ev.u.vfs_read.dev_major = 8;
	ev.u.vfs_read.dev_minor = 1;
	ev.u.vfs_read.ino = 42;
	rt_folded_add_read(&x.f, &ev, 30);
	ev.u.vfs_read.ino = 43;		/* no name: dev:ino */
	rt_folded_add_read(&x.f, &ev, 10);
	assert_int_equal(rt_report_build(&r, &x.f, &x.n, RT_REPORT_BY_SYM), 0);
	assert_int_equal(row(&r, "/etc/services")->self, 30);
	assert_int_equal(row(&r, "8:1 ino 43")->self, 10);
	assert_int_equal(r.stacks, 2);
	rt_report_fini(&r);
	assert_int_equal(rt_report_build(&r, &x.f, &x.n, RT_REPORT_BY_DSO), 0);
	assert_int_equal(row(&r, "[no stack]")->self, 40);
	rt_report_fini(&r);
	done(&x);
	rt_paths_fini(&paths);
}

int main(void)
{
	RUN(cmocka_unit_test(test_by_sym),
	    cmocka_unit_test(test_by_comm_and_dso),
	    cmocka_unit_test(test_printers),
	    cmocka_unit_test(test_rounded),
	    cmocka_unit_test(test_stacks_are_folded_lines),
	    cmocka_unit_test(test_file_frames));
}
