// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two function graphs' per-function tables side by side (graph_diff.h,
 * ringtrace-cat --diff --graph vfs_read --summary): rows match by name,
 * whatever their addresses (two boots); a function only one side called
 * has zeros on the other; an unnamed one is its address in hex; vfs_read's
 * row comes first, then the largest change of self time; the text and the
 * JSON give the same numbers and signed changes.
 */
#include "test.h"

#include "ringtrace/graph_diff.h"

static struct rt_graph_func fn(uint64_t ip, bool is_read, uint64_t calls,
			       uint64_t self, uint64_t total)
{
	struct rt_graph_func f = { .ip = ip, .is_read = is_read,
				   .calls = calls, .self_ns = self,
				   .total_ns = total };

	return f;
}

static void fill(struct rt_graph_diff *d)
{
	struct rt_graph_func f;

	assert_int_equal(rt_graph_diff_init(d, 9), 0);
	/* BEFORE: one boot's addresses */
	f = fn(0, true, 10, 5000, 28740);
	rt_graph_diff_add(d, RT_DIFF_BEFORE, NULL, &f);
	f = fn(0xffffffff81310004ull, false, 10, 12040, 20240);
	rt_graph_diff_add(d, RT_DIFF_BEFORE, "filemap_read", &f);
	f = fn(0xffffffff81301004ull, false, 10, 2000, 2000);
	rt_graph_diff_add(d, RT_DIFF_BEFORE, "rw_verify_area", &f);
	f = fn(0xffffffff81330004ull, false, 4, 600, 600);
	rt_graph_diff_add(d, RT_DIFF_BEFORE, "touch_atime", &f);
	/* AFTER: another boot's, and a function unnamed */
	f = fn(0, true, 20, 9000, 60000);
	rt_graph_diff_add(d, RT_DIFF_AFTER, NULL, &f);
	f = fn(0xffffffffa2310004ull, false, 20, 47000, 49000);
	rt_graph_diff_add(d, RT_DIFF_AFTER, "filemap_read", &f);
	f = fn(0xffffffffa2301004ull, false, 20, 2000, 2000);
	rt_graph_diff_add(d, RT_DIFF_AFTER, "rw_verify_area", &f);
	f = fn(0xffffffffa2399000ull, false, 3, 2000, 2000);
	rt_graph_diff_add(d, RT_DIFF_AFTER, NULL, &f);
	rt_graph_diff_finish(d);
}

static void test_rows(void **state)
{
	struct rt_graph_diff d;
	static const char *const order[] = {
		"vfs_read", "filemap_read", "0xffffffffa2399000",
		"touch_atime", "rw_verify_area",
	};

	(void)state;
	fill(&d);
	assert_int_equal(d.nr, 5);
	for (uint32_t i = 0; i < d.nr; i++)
		assert_string_equal(d.rows[i].name, order[i]);
	assert_true(d.rows[0].is_read);
	assert_int_equal(d.rows[0].calls[0], 10);
	assert_int_equal(d.rows[0].calls[1], 20);
	assert_int_equal(d.rows[1].self_ns[0], 12040);
	assert_int_equal(d.rows[1].self_ns[1], 47000);
	assert_int_equal(d.rows[2].calls[0], 0);	/* AFTER's only */
	assert_int_equal(d.rows[3].total_ns[1], 0);	/* BEFORE's only */
	rt_graph_diff_fini(&d);
}

/*
 * As many rows as two sessions' tables hold, each found again by its
 * name (one row per name, both sides in it); past the room asked for,
 * left out.
 */
static void test_many_rows(void **state)
{
	const uint32_t n = RT_GRAPH_FUNCS - 1;
	struct rt_graph_diff d;
	struct rt_graph_func f;
	char name[32];

	(void)state;
	assert_int_equal(rt_graph_diff_init(&d, n + 1), 0);
	for (int side = 0; side < 2; side++) {
		for (uint32_t i = 0; i < n; i++) {
			f = fn(0xffffffff81000000ull + i, false, 1 + side,
			       i, i);
			snprintf(name, sizeof(name), "fn_%u", i);
			rt_graph_diff_add(&d, (enum rt_diff_side)side, name,
					  &f);
		}
	}
	f = fn(0, true, 1, 5, 5);
	rt_graph_diff_add(&d, RT_DIFF_BEFORE, NULL, &f);
	/* one more name than room: left out */
	f = fn(0xffffffff82000000ull, false, 1, 1, 1);
	rt_graph_diff_add(&d, RT_DIFF_AFTER, "one_too_many", &f);
	assert_int_equal(d.nr, n + 1);
	for (uint32_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "fn_%u", i);
		assert_string_equal(d.rows[i].name, name);
		assert_int_equal(d.rows[i].calls[0], 1);
		assert_int_equal(d.rows[i].calls[1], 2);
	}
	rt_graph_diff_finish(&d);
	assert_true(d.rows[0].is_read);
	assert_string_equal(d.rows[1].name, "fn_0");	/* no change, by name */
	rt_graph_diff_fini(&d);
}

static char *text_of(const struct rt_graph_diff *d, bool json)
{
	struct rt_outbuf ob;
	char *text;

	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	if (json)
		rt_graph_diff_print_json(d, &ob, "a \"4k\".raw", "b.raw");
	else
		rt_graph_diff_print(d, &ob, "a.raw", "b.raw");
	text = strndup(ob.buf, ob.len);
	rt_outbuf_fini(&ob);
	return text;
}

static void test_text_and_json(void **state)
{
	struct rt_graph_diff d;
	char *text, *json;

	(void)state;
	fill(&d);
	text = text_of(&d, false);
	assert_non_null(strstr(text, "CALLS<    CALLS>      SELF<      SELF>"));
	assert_non_null(strstr(text,
		"\n       10        20     5.00us     9.00us    +4.00us    "
		"28.74us    60.00us   +31.26us  +108.8%  vfs_read\n"));
	assert_non_null(strstr(text,
		"\n        4         0      600ns        0ns     -600ns      "
		"600ns        0ns     -600ns     gone  touch_atime\n"));
	assert_non_null(strstr(text,
		"\n       10        20     2.00us     2.00us          =     "
		"2.00us     2.00us          =        =  rw_verify_area\n"));
	assert_non_null(strstr(text, "(<: BEFORE, a.raw; >: AFTER, b.raw;"));
	json = text_of(&d, true);
	assert_non_null(strstr(json, "{\"type\":\"graph_diff\",\"before\":"
			       "\"a \\\"4k\\\".raw\",\"after\":\"b.raw\","
			       "\"functions\":[{\"func\":\"vfs_read\","
			       "\"read\":true,\"calls\":[10,20],\"self_ns\":"
			       "[5000,9000],\"total_ns\":[28740,60000],"
			       "\"self_change_ns\":4000,\"total_change_ns\":"
			       "31260},"));
	assert_non_null(strstr(json, "{\"func\":\"touch_atime\",\"read\":"
			       "false,\"calls\":[4,0],\"self_ns\":[600,0],"
			       "\"total_ns\":[600,0],\"self_change_ns\":-600,"
			       "\"total_change_ns\":-600}"));
	assert_int_equal(json[strlen(json) - 1], '\n');
	assert_true(strchr(json, '\n') == json + strlen(json) - 1);
	free(text);
	free(json);
	rt_graph_diff_fini(&d);
}

int main(void)
{
	RUN(cmocka_unit_test(test_rows),
	    cmocka_unit_test(test_many_rows),
	    cmocka_unit_test(test_text_and_json));
}
