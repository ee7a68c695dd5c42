// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring cursor on well-formed rings: iteration in order, records that
 * wrap the end come back whole (through the bounce buffer), data_tail is
 * written only by release (once per batch), a reader resumes at the
 * existing tail, and perf's control page works the same way.
 * rt_ring_skip_same consumes the records with a peeked one's header
 * (wrapped ones too) without handing them out, and stops before any
 * other header.
 */
#include "test.h"

#include <linux/perf_event.h>

#include "ringtrace/ring.h"
#include "fake_ring.h"

static void attach(struct rt_ring *r, struct fake_ring *fr)
{
	assert_int_equal(rt_ring_init_mmap(r, fr->base, fr->map_len, FAKE_PAGE,
					   NULL, 0), RT_RING_OK);
}

static uint64_t ts_of(const struct rt_record *rec)
{
	struct ringtrace_vfs_read_record v;

	memcpy(&v, rec->data, sizeof(v));
	return v.task.ts_ns;
}

static void test_empty_ring(void **state)
{
	struct fake_ring fr;
	struct rt_ring r;
	struct rt_record rec;
	uint64_t avail = 99;

	(void)state;
	fake_ring_init(&fr, 4096, 0);
	attach(&r, &fr);
	assert_int_equal(rt_ring_refresh(&r, &avail), RT_RING_OK);
	assert_int_equal(avail, 0);
	assert_int_equal(rt_ring_peek(&r, &rec), RT_RING_EMPTY);
	rt_ring_fini(&r);
	fake_ring_free(&fr);
}

static void test_iterates_in_order(void **state)
{
	struct fake_ring fr;
	struct rt_ring r;
	struct rt_record rec;
	uint64_t avail, n = 0;

	(void)state;
	fake_ring_init(&fr, 4096, 0);
	attach(&r, &fr);
	for (uint64_t i = 1; i <= 10; i++)
		assert_true(fake_ring_vfs_read(&fr, i * 100));
	assert_int_equal(rt_ring_refresh(&r, &avail), RT_RING_OK);
	assert_int_equal(avail, 10 * sizeof(struct ringtrace_vfs_read_record));
	while (rt_ring_peek(&r, &rec) == RT_RING_OK) {
		n++;
		assert_int_equal(rec.type, RINGTRACE_RECORD_VFS_READ);
		assert_int_equal(rec.size, sizeof(struct ringtrace_vfs_read_record));
		assert_int_equal(ts_of(&rec), n * 100);
		rt_ring_advance(&r);
	}
	assert_int_equal(n, 10);
	rt_ring_fini(&r);
	fake_ring_free(&fr);
}

static void test_peek_is_idempotent_until_advance(void **state)
{
	struct fake_ring fr;
	struct rt_ring r;
	struct rt_record a, b;

	(void)state;
	fake_ring_init(&fr, 4096, 0);
	attach(&r, &fr);
	fake_ring_vfs_read(&fr, 1);
	fake_ring_vfs_read(&fr, 2);
	rt_ring_refresh(&r, NULL);
	assert_int_equal(rt_ring_peek(&r, &a), RT_RING_OK);
	assert_int_equal(rt_ring_peek(&r, &b), RT_RING_OK);
	assert_ptr_equal(a.data, b.data);
	rt_ring_advance(&r);
	assert_int_equal(rt_ring_peek(&r, &b), RT_RING_OK);
	assert_int_equal(ts_of(&b), 2);
	rt_ring_fini(&r);
	fake_ring_free(&fr);
}

static void test_tail_written_only_by_release(void **state)
{
	struct fake_ring fr;
	struct rt_ring r;
	struct rt_record rec;

	(void)state;
	fake_ring_init(&fr, 4096, 0);
	attach(&r, &fr);
	for (int i = 0; i < 5; i++)
		fake_ring_vfs_read(&fr, (uint64_t)i);
	rt_ring_refresh(&r, NULL);
	while (rt_ring_peek(&r, &rec) == RT_RING_OK) {
		rt_ring_advance(&r);
		assert_int_equal(fr.page->data_tail, 0);	/* not per record */
	}
	rt_ring_release(&r);
	assert_int_equal(fr.page->data_tail, fr.head);
	rt_ring_fini(&r);
	fake_ring_free(&fr);
}

/* Fill and drain a small ring many times so records land on every offset. */
static void test_wrapping_records_come_back_whole(void **state)
{
	struct fake_ring fr;
	struct rt_ring r;
	struct rt_record rec;
	uint64_t next_write = 1, next_read = 1, bounced = 0;
	const uint64_t size = 512;	/* not a multiple of the 96-byte record */

	(void)state;
	fake_ring_init(&fr, size, 0);
	attach(&r, &fr);
	while (next_read < 200) {
		while (fake_ring_vfs_read(&fr, next_write))
			next_write++;
		assert_int_equal(rt_ring_refresh(&r, NULL), RT_RING_OK);
		while (rt_ring_peek(&r, &rec) == RT_RING_OK) {
			struct ringtrace_vfs_read_record v;

			if ((const unsigned char *)rec.data < fr.data ||
			    (const unsigned char *)rec.data >= fr.data + size)
				bounced++;
			memcpy(&v, rec.data, sizeof(v));
			assert_int_equal(v.task.ts_ns, next_read);
			assert_string_equal(v.task.comm, "reader");
			assert_int_equal(v.lat_ns, 12345);
			next_read++;
			rt_ring_advance(&r);
		}
		rt_ring_release(&r);
	}
	assert_true(bounced > 0);
	rt_ring_fini(&r);
	fake_ring_free(&fr);
}

static void test_caller_bounce_buffer_used(void **state)
{
	static unsigned char bounce[RT_RING_BOUNCE_SIZE];
	struct fake_ring fr;
	struct rt_ring r;
	struct rt_record rec;

	(void)state;
	fake_ring_init(&fr, 128, 0);
	assert_int_equal(rt_ring_init_mmap(&r, fr.base, fr.map_len, FAKE_PAGE,
					   bounce, sizeof(bounce)), RT_RING_OK);
	/* Move to offset 64 so the 96-byte record wraps. */
	fr.head = fr.page->data_head = fr.page->data_tail = 64;
	rt_ring_fini(&r);
	rt_ring_init_mmap(&r, fr.base, fr.map_len, FAKE_PAGE, bounce,
			  sizeof(bounce));
	assert_true(fake_ring_vfs_read(&fr, 42));
	rt_ring_refresh(&r, NULL);
	assert_int_equal(rt_ring_peek(&r, &rec), RT_RING_OK);
	assert_ptr_equal(rec.data, bounce);
	assert_int_equal(ts_of(&rec), 42);
	rt_ring_fini(&r);
	fake_ring_free(&fr);
}

static void test_resumes_at_existing_tail(void **state)
{
	struct fake_ring fr;
	struct rt_ring r;
	struct rt_record rec;

	(void)state;
	fake_ring_init(&fr, 4096, 0);
	fake_ring_vfs_read(&fr, 1);
	fake_ring_vfs_read(&fr, 2);
	fr.page->data_tail = sizeof(struct ringtrace_vfs_read_record);
	attach(&r, &fr);
	rt_ring_refresh(&r, NULL);
	assert_int_equal(rt_ring_peek(&r, &rec), RT_RING_OK);
	assert_int_equal(ts_of(&rec), 2);
	rt_ring_fini(&r);
	fake_ring_free(&fr);
}

/* The same cursor over perf_event_open's control page. */
static void test_reads_perf_layout(void **state)
{
	size_t len = FAKE_PAGE + 8192;
	unsigned char *map = aligned_alloc(FAKE_PAGE, len);
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)map;
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = 24 };
	unsigned char rec_bytes[24] = { 0 };
	struct rt_ring r;
	struct rt_record rec;

	(void)state;
	memset(map, 0, len);
	pg->data_offset = FAKE_PAGE;
	pg->data_size = 8192;
	memcpy(rec_bytes, &h, sizeof(h));
	rec_bytes[8] = 0xab;
	memcpy(map + FAKE_PAGE, rec_bytes, sizeof(rec_bytes));
	pg->data_head = sizeof(rec_bytes);

	assert_int_equal(rt_ring_init_mmap(&r, map, len, FAKE_PAGE, NULL, 0),
			 RT_RING_OK);
	assert_int_equal(rt_ring_refresh(&r, NULL), RT_RING_OK);
	assert_int_equal(rt_ring_peek(&r, &rec), RT_RING_OK);
	assert_int_equal(rec.type, PERF_RECORD_SAMPLE);
	assert_int_equal(rec.size, 24);
	assert_int_equal(((const unsigned char *)rec.data)[8], 0xab);
	rt_ring_advance(&r);
	rt_ring_release(&r);
	assert_int_equal(pg->data_tail, 24);
	rt_ring_fini(&r);
	free(map);
}

/* perf before 4.1 left data_offset/data_size 0: data follows page 0. */
static void test_legacy_perf_layout(void **state)
{
	size_t len = FAKE_PAGE + 4096;
	unsigned char *map = aligned_alloc(FAKE_PAGE, len);
	struct rt_ring r;

	(void)state;
	memset(map, 0, len);
	assert_int_equal(rt_ring_init_mmap(&r, map, len, FAKE_PAGE, NULL, 0),
			 RT_RING_OK);
	assert_ptr_equal(r.data, map + FAKE_PAGE);
	assert_int_equal(r.size, 4096);
	rt_ring_fini(&r);
	free(map);
}

/*
 * rt_ring_skip_same(): the records after a peeked one with its header are
 * consumed (the wrapped ones too, not bounced); it stops before the first
 * header that differs in type, size or misc flags, which a peek then
 * returns.
 */
static void test_skip_same_header(void **state)
{
	struct ringtrace_event_header odd = { .type = 77, .size = 16 };
	struct ringtrace_vfs_read_record flagged;
	struct ringtrace_lost_record lost;
	struct fake_ring fr;
	struct rt_ring r;
	struct rt_record rec;
	struct ringtrace_event_header like;
	uint64_t n, total = 0;
	unsigned char blank[16] = { 0 };

	(void)state;
	/* 512 bytes: 120-byte records wrap the end. */
	fake_ring_init(&fr, 512, 0);
	attach(&r, &fr);
	for (int round = 0; round < 20; round++) {
		for (int i = 0; i < 4; i++)
			assert_true(fake_ring_vfs_read(&fr, 1));
		assert_int_equal(rt_ring_refresh(&r, NULL), RT_RING_OK);
		assert_int_equal(rt_ring_peek(&r, &rec), RT_RING_OK);
		memcpy(&like, rec.data, sizeof(like));
		rt_ring_advance(&r);
		assert_int_equal(rt_ring_skip_same(&r, &like, &n), RT_RING_EMPTY);
		assert_int_equal(n, 3);
		total += n + 1;
		assert_int_equal(r.pos, fr.head);
		rt_ring_release(&r);
	}
	assert_int_equal(total, 80);

	/*
	 * vfs_read, vfs_read, the same with another misc flag, LOST,
	 * type 77: one skipped, then a stop before each different header.
	 */
	make_lost(&lost, 5, 3);
	make_vfs_read(&flagged, 2, 0, 100, 101, "reader");
	flagged.header.misc ^= RINGTRACE_MISC_OFFCPU;
	memcpy(blank, &odd, sizeof(odd));
	assert_true(fake_ring_vfs_read(&fr, 1));
	assert_true(fake_ring_vfs_read(&fr, 1));
	assert_true(fake_ring_write(&fr, &flagged, sizeof(flagged)));
	assert_true(fake_ring_write(&fr, &lost, sizeof(lost)));
	assert_true(fake_ring_write(&fr, blank, sizeof(blank)));
	assert_int_equal(rt_ring_refresh(&r, NULL), RT_RING_OK);
	assert_int_equal(rt_ring_peek(&r, &rec), RT_RING_OK);
	memcpy(&like, rec.data, sizeof(like));
	rt_ring_advance(&r);
	assert_int_equal(rt_ring_skip_same(&r, &like, &n), RT_RING_OK);
	assert_int_equal(n, 1);
	assert_int_equal(rt_ring_peek(&r, &rec), RT_RING_OK);
	assert_int_equal(rec.type, RINGTRACE_RECORD_VFS_READ);
	memcpy(&like, rec.data, sizeof(like));
	assert_int_equal(like.misc, flagged.header.misc);
	rt_ring_advance(&r);
	assert_int_equal(rt_ring_skip_same(&r, &like, &n), RT_RING_OK);
	assert_int_equal(n, 0);
	assert_int_equal(rt_ring_peek(&r, &rec), RT_RING_OK);
	assert_int_equal(rec.type, RINGTRACE_RECORD_LOST);
	rt_ring_advance(&r);
	assert_int_equal(rt_ring_peek(&r, &rec), RT_RING_OK);
	assert_int_equal(rec.type, 77);
	memcpy(&like, rec.data, sizeof(like));
	rt_ring_advance(&r);
	assert_int_equal(rt_ring_skip_same(&r, &like, &n), RT_RING_EMPTY);
	assert_int_equal(n, 0);
	rt_ring_fini(&r);
	fake_ring_free(&fr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_ring),
		cmocka_unit_test(test_iterates_in_order),
		cmocka_unit_test(test_peek_is_idempotent_until_advance),
		cmocka_unit_test(test_tail_written_only_by_release),
		cmocka_unit_test(test_wrapping_records_come_back_whole),
		cmocka_unit_test(test_caller_bounce_buffer_used),
		cmocka_unit_test(test_resumes_at_existing_tail),
		cmocka_unit_test(test_reads_perf_layout),
		cmocka_unit_test(test_legacy_perf_layout),
		cmocka_unit_test(test_skip_same_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
