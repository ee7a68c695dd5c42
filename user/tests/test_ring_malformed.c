// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring cursor against a corrupt or hostile producer: every bad record
 * size and every bad head stops the cursor with its own error code and a
 * message, before anything past the header is read; the error is sticky
 * (no loop, no crash), and bad control-page layouts are refused at attach.
 * rt_ring_skip_same() (the raw path's walk) stops before a bad size, which the
 * next peek reports.
 */
#include "test.h"

#include "ringtrace/ring.h"
#include "fake_ring.h"

struct fixture {
	struct fake_ring	fr;
	struct rt_ring		r;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	fake_ring_init(&f->fr, 4096, 0);
	assert_int_equal(rt_ring_init_mmap(&f->r, f->fr.base, f->fr.map_len,
					   FAKE_PAGE, NULL, 0), RT_RING_OK);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	rt_ring_fini(&f->r);
	fake_ring_free(&f->fr);
	free(f);
	return 0;
}

/* Publish @head with a header of @size at position 0; expect @err on peek. */
static void expect_peek_error(struct fixture *f, uint16_t size, uint64_t head,
			      int err, const char *words)
{
	struct ringtrace_event_header h = { .type = 2, .size = size };
	struct rt_record rec;
	char msg[256];

	fake_ring_poke(&f->fr, 0, &h, sizeof(h));
	fake_ring_set_head(&f->fr, head);
	assert_int_equal(rt_ring_refresh(&f->r, NULL), RT_RING_OK);
	assert_int_equal(rt_ring_peek(&f->r, &rec), err);
	/* Sticky: the same answer again, and refresh does not clear it. */
	assert_int_equal(rt_ring_peek(&f->r, &rec), err);
	assert_int_equal(rt_ring_refresh(&f->r, NULL), err);
	assert_int_equal(f->r.pos, 0);
	rt_ring_describe_error(&f->r, msg, sizeof(msg));
	assert_non_null(strstr(msg, words));
}

static void test_size_zero(void **state)
{
	expect_peek_error(*state, 0, 64, RT_RING_ERR_SIZE_ZERO, "size 0");
}

static void test_size_smaller_than_header(void **state)
{
	expect_peek_error(*state, 4, 64, RT_RING_ERR_SIZE_SHORT,
			  "smaller than its header");
}

static void test_size_not_multiple_of_8(void **state)
{
	expect_peek_error(*state, 20, 64, RT_RING_ERR_SIZE_UNALIGNED,
			  "not a multiple of 8");
}

static void test_size_beyond_head(void **state)
{
	expect_peek_error(*state, 96, 64, RT_RING_ERR_SIZE_TRUNCATED,
			  "runs past data_head");
}

static void test_size_larger_than_ring(void **state)
{
	struct fixture *f = *state;

	/* A head as far as it can legally be: the size check must still win. */
	expect_peek_error(f, 8192, 4096, RT_RING_ERR_SIZE_TOO_BIG,
			  "larger than the ring");
}

static void test_record_larger_than_caller_bounce(void **state)
{
	struct fixture *f = *state;
	unsigned char small[64];
	struct ringtrace_event_header h = { .type = 2, .size = 128 };
	struct rt_record rec;

	rt_ring_fini(&f->r);
	f->fr.page->data_head = f->fr.page->data_tail = 4096 - 64;
	f->fr.head = 4096 - 64;
	rt_ring_init_mmap(&f->r, f->fr.base, f->fr.map_len, FAKE_PAGE, small,
			  sizeof(small));
	fake_ring_poke(&f->fr, 4096 - 64, &h, sizeof(h));
	fake_ring_set_head(&f->fr, 4096 - 64 + 128);
	assert_int_equal(rt_ring_refresh(&f->r, NULL), RT_RING_OK);
	assert_int_equal(rt_ring_peek(&f->r, &rec), RT_RING_ERR_SIZE_TOO_BIG);
}

static void test_head_backwards(void **state)
{
	struct fixture *f = *state;
	char msg[128];

	fake_ring_vfs_read(&f->fr, 1);
	assert_int_equal(rt_ring_refresh(&f->r, NULL), RT_RING_OK);
	fake_ring_set_head(&f->fr, 0);
	assert_int_equal(rt_ring_refresh(&f->r, NULL),
			 RT_RING_ERR_HEAD_BACKWARDS);
	rt_ring_describe_error(&f->r, msg, sizeof(msg));
	/* vfs_read records are 120 bytes. */
	assert_string_equal(msg, "data_head moved backwards: from 120 to 0");
}

static void test_head_far_ahead_of_tail(void **state)
{
	struct fixture *f = *state;

	fake_ring_set_head(&f->fr, 4096 + 8);
	assert_int_equal(rt_ring_refresh(&f->r, NULL), RT_RING_ERR_HEAD_OVERRUN);
}

static void test_head_huge(void **state)
{
	struct fixture *f = *state;

	fake_ring_set_head(&f->fr, ~0ull & ~7ull);
	/* ~0 is "before" 0 as a free-running counter: backwards. */
	assert_true(rt_ring_refresh(&f->r, NULL) < 0);
}

static void test_head_unaligned(void **state)
{
	struct fixture *f = *state;
	struct rt_record rec;

	fake_ring_set_head(&f->fr, 12);
	assert_int_equal(rt_ring_refresh(&f->r, NULL),
			 RT_RING_ERR_HEAD_UNALIGNED);
	assert_int_equal(rt_ring_peek(&f->r, &rec), RT_RING_ERR_HEAD_UNALIGNED);
}

/* Good records before a bad one are still delivered, then the stop. */
static void test_good_records_before_the_fault(void **state)
{
	struct fixture *f = *state;
	struct ringtrace_event_header bad = { .type = 2, .size = 0 };
	struct rt_record rec;
	int n = 0;

	fake_ring_vfs_read(&f->fr, 1);
	fake_ring_vfs_read(&f->fr, 2);
	fake_ring_poke(&f->fr, f->fr.head, &bad, sizeof(bad));
	fake_ring_set_head(&f->fr, f->fr.head + 8);
	rt_ring_refresh(&f->r, NULL);
	while (rt_ring_peek(&f->r, &rec) == RT_RING_OK) {
		n++;
		rt_ring_advance(&f->r);
	}
	assert_int_equal(n, 2);
	assert_int_equal(f->r.error, RT_RING_ERR_SIZE_ZERO);
	assert_int_equal(f->r.error_pos,
			 2 * sizeof(struct ringtrace_vfs_read_record));
}

/*
 * rt_ring_skip_same walks past the records like a peeked one and stops
 * before a bad header without judging it: the next peek reports it, at
 * its position, after the good records.
 */
static void test_skip_stops_like_peek(void **state)
{
	static const struct {
		uint16_t size;
		int err;
		const char *words;
	} bad[] = {
		{ 0, RT_RING_ERR_SIZE_ZERO, "size 0" },
		{ 4, RT_RING_ERR_SIZE_SHORT, "smaller than its header" },
		{ 20, RT_RING_ERR_SIZE_UNALIGNED, "not a multiple of 8" },
		{ 96, RT_RING_ERR_SIZE_TRUNCATED, "runs past data_head" },
		{ 8192, RT_RING_ERR_SIZE_TOO_BIG, "larger than the ring" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ringtrace_event_header h = { .type = 2, .size = bad[i].size };
		struct ringtrace_event_header like;
		struct rt_record rec;
		struct fixture *f;
		char msg[256];
		uint64_t n = 99;

		setup((void **)&f);
		fake_ring_vfs_read(&f->fr, 1);
		fake_ring_vfs_read(&f->fr, 2);
		fake_ring_poke(&f->fr, f->fr.head, &h, sizeof(h));
		fake_ring_set_head(&f->fr, f->fr.head + 64);
		assert_int_equal(rt_ring_refresh(&f->r, NULL), RT_RING_OK);
		assert_int_equal(rt_ring_peek(&f->r, &rec), RT_RING_OK);
		memcpy(&like, rec.data, sizeof(like));
		rt_ring_advance(&f->r);
		assert_int_equal(rt_ring_skip_same(&f->r, &like, &n), RT_RING_OK);
		assert_int_equal(n, 1);
		assert_int_equal(f->r.pos,
				 2 * sizeof(struct ringtrace_vfs_read_record));
		assert_int_equal(rt_ring_peek(&f->r, &rec), bad[i].err);
		assert_int_equal(f->r.error_pos,
				 2 * sizeof(struct ringtrace_vfs_read_record));
		rt_ring_describe_error(&f->r, msg, sizeof(msg));
		assert_non_null(strstr(msg, bad[i].words));
		/* Sticky for both walks. */
		assert_int_equal(rt_ring_skip_same(&f->r, &like, &n), bad[i].err);
		teardown((void **)&f);
	}
}

static void test_layout_checks(void **state)
{
	struct fake_ring fr;
	struct rt_ring r;

	(void)state;
	fake_ring_init(&fr, 4096, 0);

	fr.page->data_size = 3000;			/* not a power of two */
	assert_int_equal(rt_ring_init_mmap(&r, fr.base, fr.map_len, FAKE_PAGE,
					   NULL, 0), RT_RING_ERR_LAYOUT);
	fr.page->data_size = 8192;			/* past the mapping */
	assert_int_equal(rt_ring_init_mmap(&r, fr.base, fr.map_len, FAKE_PAGE,
					   NULL, 0), RT_RING_ERR_LAYOUT);
	fr.page->data_size = 4096;
	fr.page->data_offset = 100;			/* inside the control page */
	assert_int_equal(rt_ring_init_mmap(&r, fr.base, fr.map_len, FAKE_PAGE,
					   NULL, 0), RT_RING_ERR_LAYOUT);
	fr.page->data_offset = 4100;			/* unaligned */
	assert_int_equal(rt_ring_init_mmap(&r, fr.base, fr.map_len, FAKE_PAGE,
					   NULL, 0), RT_RING_ERR_LAYOUT);
	fr.page->data_offset = ~0ull & ~7ull;		/* offset + size overflows */
	assert_int_equal(rt_ring_init_mmap(&r, fr.base, fr.map_len, FAKE_PAGE,
					   NULL, 0), RT_RING_ERR_LAYOUT);
	assert_int_equal(rt_ring_init_mmap(&r, fr.base, 100, FAKE_PAGE, NULL, 0),
			 RT_RING_ERR_LAYOUT);		/* mapping too small */
	fr.page->data_offset = FAKE_PAGE;
	assert_int_equal(rt_ring_init_mmap(&r, fr.base, fr.map_len, FAKE_PAGE,
					   NULL, 0), RT_RING_OK);
	rt_ring_fini(&r);
	fake_ring_free(&fr);
}

int main(void)
{
	RUN(cmocka_unit_test_setup_teardown(test_size_zero, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_size_smaller_than_header,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_size_not_multiple_of_8, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_size_beyond_head, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_size_larger_than_ring, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_record_larger_than_caller_bounce,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_head_backwards, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_head_far_ahead_of_tail, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_head_huge, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_head_unaligned, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_good_records_before_the_fault,
					    setup, teardown),
	    cmocka_unit_test(test_skip_stops_like_peek),
	    cmocka_unit_test(test_layout_checks));
}
