// SPDX-License-Identifier: GPL-2.0-only
/*
 * Differential profiles (ringtrace-cat --diff): a golden pair of folded
 * profiles gives an exact three-column diff, normalised (BEFORE scaled to
 * AFTER's total, rounded so that it sums to that total exactly) and raw; lines of one stack
 * merge and malformed ones are counted; scaling does not overflow with
 * nanosecond weights. The SVG drawn from it keeps AFTER's shape (widths
 * proportional to AFTER's weights, a stack only BEFORE had not drawn but
 * counted in its callers' data-b) and colours each frame by the sign and
 * size of its change: red grew, blue shrank, grey unchanged, full colour
 * from the largest change a frame makes by itself (callers of it
 * saturate), and the smallest still visibly red or blue. The side-by-side histogram prints both
 * distributions and the change of each percentile.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/flame_diff.h"
#include "ringtrace/flamegraph.h"
#include "ringtrace/hist.h"

static const char before_text[] =
	"app;main;read 10\n"
	"app;main;compute 30\n"
	"app;main;write 10\n";
static const char after_text[] =
	"app;main;read 40\n"
	"app;main;compute 30\n"
	"app;idle 30\n";

/* What @fill() wrote through an outbuf, as a string the caller frees. */
static char *capture(void (*fill)(struct rt_outbuf *ob, void *arg), void *arg)
{
	int fd = memfd_create("flame-diff-test", 0);
	struct rt_outbuf ob;
	char *buf;
	off_t len;

	assert_true(fd >= 0);
	assert_int_equal(rt_outbuf_init(&ob, fd, RT_OUTBUF_DEFAULT_SIZE), 0);
	fill(&ob, arg);
	assert_int_equal(rt_outbuf_flush(&ob), 0);
	rt_outbuf_fini(&ob);
	len = lseek(fd, 0, SEEK_END);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, (size_t)len, 0), len);
	close(fd);
	return buf;
}

static void load(struct rt_flame_diff *d, const char *b, const char *a,
		 bool normalise)
{
	rt_flame_diff_init(d);
	assert_int_equal(rt_flame_diff_add_text(d, RT_DIFF_BEFORE, b, strlen(b)), 0);
	assert_int_equal(rt_flame_diff_add_text(d, RT_DIFF_AFTER, a, strlen(a)), 0);
	rt_flame_diff_finish(d, normalise);
}

static void write_folded(struct rt_outbuf *ob, void *arg)
{
	rt_flame_diff_write(arg, ob);
}

static void test_golden_folded_normalised(void **state)
{
	struct rt_flame_diff d;
	char *out;

	(void)state;
	load(&d, before_text, after_text, true);
	assert_true(d.normalised);
	assert_true(d.total[RT_DIFF_BEFORE] == 50 && d.total[RT_DIFF_AFTER] == 100);
	out = capture(write_folded, &d);
	/* BEFORE x 100/50; sorted by stack; 0 where a side lacks it. */
	assert_string_equal(out,
			    "app;idle 0 30\n"
			    "app;main;compute 60 30\n"
			    "app;main;read 20 40\n"
			    "app;main;write 20 0\n");
	free(out);
	rt_flame_diff_fini(&d);
}

static void test_golden_folded_raw(void **state)
{
	struct rt_flame_diff d;
	char *out;

	(void)state;
	load(&d, before_text, after_text, false);
	assert_false(d.normalised);
	out = capture(write_folded, &d);
	assert_string_equal(out,
			    "app;idle 0 30\n"
			    "app;main;compute 30 30\n"
			    "app;main;read 10 40\n"
			    "app;main;write 10 0\n");
	free(out);
	rt_flame_diff_fini(&d);
}

static void test_merge_round_and_bad_lines(void **state)
{
	static const char b[] = "a 1\nb 1\nc 1\nno-count\nx y\n\n";
	static const char a[] = "a 4\na 6\r\nb  \n";
	struct rt_flame_diff d;
	char *out;

	(void)state;
	load(&d, b, a, true);
	assert_true(d.bad_lines == 3);		/* "no-count", "x y", "b  " */
	/*
	 * 1 x 10/3 = 3.33 each: rounded running sums 3, 7, 10 give 3, 4, 3,
	 * which add up to AFTER's 10 (3 each would make "all" shrink by 1).
	 */
	out = capture(write_folded, &d);
	assert_string_equal(out, "a 3 10\nb 4 0\nc 3 0\n");
	free(out);
	rt_flame_diff_fini(&d);
}

static void test_scaling_does_not_overflow(void **state)
{
	char b[64], a[128];
	struct rt_flame_diff d;

	(void)state;
	/* 4e18 ns x 4e18 / 4e18: the product needs 124 bits. */
	snprintf(b, sizeof(b), "x 1000000000000000000\ny 3000000000000000000\n");
	snprintf(a, sizeof(a), "x 2000000000000000000\ny 2000000000000000000\n");
	load(&d, b, a, true);
	assert_false(d.normalised);		/* equal totals: nothing to scale */
	rt_flame_diff_fini(&d);
	snprintf(a, sizeof(a), "x 1000000000000000000\n");
	load(&d, b, a, true);
	assert_true(d.normalised);
	assert_true(d.stacks[0].weight[RT_DIFF_BEFORE] == 250000000000000000ull);
	assert_true(d.stacks[1].weight[RT_DIFF_BEFORE] == 750000000000000000ull);
	rt_flame_diff_fini(&d);
}

/* ---- the SVG ---- */

struct frame {
	char		name[32];
	unsigned long	v, b, d;
	double		width;
	unsigned int	r, g, bl;
};

static void write_svg(struct rt_outbuf *ob, void *arg)
{
	rt_flame_write_svg(arg, ob, "diff", "samples");
}

/* Every drawn frame of @svg, in document order. */
static int parse_frames(const char *svg, struct frame *f, int max)
{
	const char *p = svg;
	int n = 0;

	while ((p = strstr(p, "<g data-x=")) && n < max) {
		const char *t = strstr(p, "<title>") + 7;
		const char *rect = strstr(p, "<rect ");

		assert_int_equal(sscanf(p, "<g data-x=\"%*u\" data-v=\"%lu\" "
					"data-d=\"%lu\" data-b=\"%lu\"",
					&f[n].v, &f[n].d, &f[n].b), 3);
		snprintf(f[n].name, sizeof(f[n].name), "%.*s",
			 (int)strcspn(t, " <"), t);
		assert_int_equal(sscanf(strstr(rect, "width=\""),
					"width=\"%lf\"", &f[n].width), 1);
		assert_int_equal(sscanf(strstr(rect, "fill=\""),
					"fill=\"rgb(%u,%u,%u)\"", &f[n].r,
					&f[n].g, &f[n].bl), 3);
		n++;
		p = rect;
	}
	return n;
}

static const struct frame *find(const struct frame *f, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	fail_msg("no frame %s", name);
	return NULL;
}

/* +1 red (grew), -1 blue (shrank), 0 grey. */
static int sign(const struct frame *f)
{
	if (f->r == 255 && f->g == f->bl && f->g <= 210)
		return 1;
	if (f->bl == 255 && f->r == f->g && f->r <= 210)
		return -1;
	assert_true(f->r == 225 && f->g == 225 && f->bl == 225);
	return 0;
}

static char *diff_svg(bool normalise, struct frame *f, int *n)
{
	struct rt_flame_diff d;
	struct rt_flame fl;
	char *svg;

	load(&d, before_text, after_text, normalise);
	assert_int_equal(rt_flame_init(&fl), 0);
	rt_flame_diff_graph(&d, &fl);
	assert_true(fl.diff);
	svg = capture(write_svg, &fl);
	rt_flame_fini(&fl);
	rt_flame_diff_fini(&d);
	assert_non_null(strstr(svg, "data-diff=\"1\""));
	*n = parse_frames(svg, f, 16);
	return svg;
}

static void test_svg_normalised(void **state)
{
	struct frame f[16];
	int n;
	char *svg = diff_svg(true, f, &n);

	(void)state;
	/* all app idle main compute read; write had weight only BEFORE. */
	assert_int_equal(n, 6);
	assert_null(strstr(svg, "<title>write"));
	assert_true(find(f, n, "all")->b == 100 && find(f, n, "all")->v == 100);
	assert_int_equal(sign(find(f, n, "all")), 0);
	assert_int_equal(sign(find(f, n, "app")), 0);
	assert_int_equal(sign(find(f, n, "idle")), 1);		/* 0 -> 30 */
	assert_int_equal(sign(find(f, n, "main")), -1);		/* 100 -> 70 */
	assert_int_equal(sign(find(f, n, "compute")), -1);	/* 60 -> 30 */
	assert_int_equal(sign(find(f, n, "read")), 1);		/* 20 -> 40 */
	/* main's BEFORE still counts write (20): 20 + 60 + 20. */
	assert_true(find(f, n, "main")->b == 100);
	/* The largest change (30) in full colour; read's 20 two thirds. */
	assert_true(find(f, n, "idle")->g == 0 && find(f, n, "main")->r == 0);
	assert_true(find(f, n, "read")->g == 70);	/* 210 x 10/30 */
	/* AFTER's shape: 1180 px for 100. */
	assert_true(find(f, n, "all")->width == 1180.0);
	assert_true(find(f, n, "idle")->width == 354.0);
	assert_true(find(f, n, "main")->width == 826.0);
	assert_true(find(f, n, "read")->width == 472.0);
	/* The hover text: both weights, shares and the change. */
	assert_non_null(strstr(svg, "<title>read (before 20, after 40 samples; "
			       "20.00% -&gt; 40.00% of all; change +20, "
			       "+100.00%)</title>"));
	assert_non_null(strstr(svg, "<title>idle (before 0, after 30 samples; "
			       "0.00% -&gt; 30.00% of all; change +30, new)"));
	free(svg);
}

static void test_svg_raw_counts(void **state)
{
	struct frame f[16];
	int n;
	char *svg = diff_svg(false, f, &n);

	(void)state;
	assert_int_equal(n, 6);
	assert_true(find(f, n, "all")->b == 50 && find(f, n, "all")->v == 100);
	/* Twice the weight: everything that was not less grew. */
	assert_int_equal(sign(find(f, n, "app")), 1);		/* 50 -> 100 */
	assert_int_equal(sign(find(f, n, "idle")), 1);
	assert_int_equal(sign(find(f, n, "main")), 1);		/* 50 -> 70 */
	assert_int_equal(sign(find(f, n, "compute")), 0);	/* 30 -> 30 */
	assert_int_equal(sign(find(f, n, "read")), 1);		/* 10 -> 40 */
	/*
	 * The largest change a frame makes by itself: read's and idle's +30
	 * (app's +50 is theirs and main's). Beyond it, full colour.
	 */
	assert_true(find(f, n, "app")->g == 0);
	assert_true(find(f, n, "read")->g == 0 && find(f, n, "idle")->g == 0);
	assert_true(find(f, n, "main")->g == 70);		/* +20 of 30 */
	free(svg);
}

static void test_svg_small_change_keeps_its_sign(void **state)
{
	static const char b[] = "x;big 1000000\nx;small 1000\n";
	static const char a[] = "x;big 2000000\nx;small 1001\n";
	struct rt_flame_diff d;
	struct rt_flame fl;
	struct frame f[8];
	char *svg;
	int n;

	(void)state;
	/* +1 of a largest change of 1000001: red all the same. */
	load(&d, b, a, false);
	assert_int_equal(rt_flame_init(&fl), 0);
	rt_flame_diff_graph(&d, &fl);
	svg = capture(write_svg, &fl);
	n = parse_frames(svg, f, 8);
	assert_int_equal(sign(find(f, n, "small")), 1);
	assert_true(find(f, n, "small")->g == 210);
	free(svg);
	rt_flame_fini(&fl);
	rt_flame_diff_fini(&d);
}

static void test_plain_graph_unchanged(void **state)
{
	struct rt_flame fl;
	char *svg;

	(void)state;
	/* Without diff lines, no data-b and the usual warm colours. */
	assert_int_equal(rt_flame_init(&fl), 0);
	rt_flame_add_folded(&fl, "app;main 5\n", 11);
	svg = capture(write_svg, &fl);
	assert_null(strstr(svg, "data-b="));
	assert_null(strstr(svg, "data-diff=\"1\""));
	assert_non_null(strstr(svg, "<title>main (5 samples, 100.00%)</title>"));
	free(svg);
	rt_flame_fini(&fl);
}

/* ---- the side-by-side histogram ---- */

struct two_hists {
	struct rt_hist	b, a;
};

static void write_hists(struct rt_outbuf *ob, void *arg)
{
	struct two_hists *h = arg;

	rt_hist_print_diff(ob, &h->b, &h->a, "nsecs");
}

static void test_hist_side_by_side(void **state)
{
	struct two_hists *h = calloc(1, sizeof(*h));
	char *out;

	(void)state;
	assert_non_null(h);
	for (int i = 0; i < 10; i++)
		rt_hist_add(&h->b, 1000);	/* 10 x 1us */
	for (int i = 0; i < 10; i++)
		rt_hist_add(&h->a, i < 8 ? 1000 : 4000000);	/* 2 slow */
	out = capture(write_hists, h);
	/* One row per power of two of either side, both counts on it. */
	assert_non_null(strstr(out, "         512 -> 1023         : 10        "
			       "|********************| 8         |****************"
			       "****|\n"));
	assert_non_null(strstr(out, "     2097152 -> 4194303      : 0         "
			       "|                    | 2         |*****"));
	assert_non_null(strstr(out, "  count            10           10          =\n"));
	/* p50: the bucket's upper bound (1023), as --hist says. */
	assert_non_null(strstr(out, "  p50          1.00us       1.02us      +2.3%\n"));
	assert_non_null(strstr(out, "  p90          1.00us       4.00ms +399900.0%\n"));
	assert_non_null(strstr(out, "  max          1.00us       4.00ms +399900.0%\n"));
	free(out);
	free(h);
}

int main(void)
{
	RUN(cmocka_unit_test(test_golden_folded_normalised),
	    cmocka_unit_test(test_golden_folded_raw),
	    cmocka_unit_test(test_merge_round_and_bad_lines),
	    cmocka_unit_test(test_scaling_does_not_overflow),
	    cmocka_unit_test(test_svg_normalised),
	    cmocka_unit_test(test_svg_raw_counts),
	    cmocka_unit_test(test_svg_small_change_keeps_its_sign),
	    cmocka_unit_test(test_plain_graph_unchanged),
	    cmocka_unit_test(test_hist_side_by_side));
}
