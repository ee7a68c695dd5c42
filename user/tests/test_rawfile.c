// SPDX-License-Identifier: GPL-2.0-only
/*
 * The raw file reader: a file made of header + chunks decodes back to the
 * records in timestamp order across CPUs; chunks of unknown kinds are
 * skipped; a file cut mid-record keeps its whole records and says how much
 * was dropped; wrong magic, byte order, version and misaligned chunk sizes
 * are refused with messages; a corrupt record's message names the file
 * and its offset in the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/rawfile.h"
#include "ringtrace/stream.h"
#include "fake_ring.h"

static char path[64];

static void begin(struct rt_outbuf *ob)
{
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	int fd;

	strcpy(path, "/tmp/ringtrace-raw-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	h.page_size = 4096;
	strcpy(h.module_version, "1.2.3");
	rt_outbuf_init(ob, fd, 0);
	rt_raw_write_header(ob, &h);
}

static void chunk(struct rt_outbuf *ob, uint32_t kind, uint32_t cpu,
		  const void *p, uint64_t len)
{
	struct rt_raw_chunk c = { .kind = kind, .cpu = cpu, .size = len };

	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, p, len);
}

static void finish(struct rt_outbuf *ob, off_t cut)
{
	assert_int_equal(rt_outbuf_flush(ob), 0);
	if (cut)
		assert_int_equal(ftruncate(ob->fd, (off_t)ob->bytes - cut), 0);
	close(ob->fd);
	rt_outbuf_fini(ob);
}

static void vfs(struct ringtrace_vfs_read_record *r, uint64_t ts)
{
	make_vfs_read(r, ts, 0, (uint32_t)ts, (uint32_t)ts, "f");
}

/* Collect timestamps of everything the file's sources hold, merged. */
static uint64_t got[32];
static unsigned int nr_got;

static int collect(void *arg, struct rt_source *src,
		   const struct rt_record *rec, uint64_t ts)
{
	(void)arg;
	(void)src;
	(void)rec;
	got[nr_got++] = ts;
	return 0;
}

static void merge_all(struct rt_raw_file *f, struct rt_merge_result *res)
{
	struct rt_merge m;

	nr_got = 0;
	rt_merge_init(&m, f->srcs, f->nr_srcs, 0);
	rt_merge_round(&m, 0, true, collect, NULL, res);
	rt_merge_fini(&m);
}

static void test_chunks_merge_across_cpus(void **state)
{
	struct ringtrace_vfs_read_record r[2];
	struct rt_outbuf ob;
	struct rt_raw_file f;
	struct rt_merge_result res;
	uint64_t junk = 42;
	static const uint64_t want[] = { 1, 2, 3, 4, 5, 6 };

	(void)state;
	begin(&ob);
	vfs(&r[0], 1); vfs(&r[1], 4);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, r, sizeof(r));
	vfs(&r[0], 2); vfs(&r[1], 3);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 5, r, sizeof(r));
	chunk(&ob, 77, 0, &junk, sizeof(junk));		/* unknown: skipped */
	vfs(&r[0], 5);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, r, sizeof(r[0]));
	vfs(&r[0], 6);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 5, r, sizeof(r[0]));
	rt_raw_write_pending(&ob, 5, 9);
	finish(&ob, 0);

	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_string_equal(f.hdr.module_version, "1.2.3");
	assert_int_equal(f.nr_srcs, 2);
	assert_int_equal(f.srcs[1].cpu, 5);
	assert_int_equal(f.pending_lost, 9);
	assert_int_equal(f.truncated_bytes, 0);
	merge_all(&f, &res);
	assert_int_equal(res.error, 0);
	assert_int_equal(nr_got, 6);
	assert_memory_equal(got, want, sizeof(want));
	rt_raw_close(&f);
	unlink(path);
}

static void test_truncated_file_keeps_whole_records(void **state)
{
	struct ringtrace_vfs_read_record r[3];
	struct rt_outbuf ob;
	struct rt_raw_file f;
	struct rt_merge_result res;

	(void)state;
	begin(&ob);
	vfs(&r[0], 1); vfs(&r[1], 2); vfs(&r[2], 3);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, r, sizeof(r));
	finish(&ob, 40);		/* the writer died mid-record */
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.truncated_bytes, sizeof(r[0]) - 40);
	merge_all(&f, &res);
	assert_int_equal(res.error, 0);
	assert_int_equal(nr_got, 2);
	rt_raw_close(&f);
	unlink(path);
}

static void expect_refused(void (*spoil)(struct rt_raw_header *h),
			   const char *words)
{
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	struct rt_raw_file f;
	FILE *fp;

	strcpy(path, "/tmp/ringtrace-raw-XXXXXX");
	close(mkstemp(path));
	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	spoil(&h);
	fp = fopen(path, "w");
	fwrite(&h, sizeof(h), 1, fp);
	fclose(fp);
	assert_int_equal(rt_raw_open(&f, path), -EINVAL);
	if (!strstr(f.errmsg, words))
		fail_msg("'%s' lacks '%s'", f.errmsg, words);
	rt_raw_close(&f);
	unlink(path);
}

static void bad_magic(struct rt_raw_header *h) { h->magic[0] = 'X'; }
static void bad_endian(struct rt_raw_header *h) { h->endian = 0x04030201; }
static void bad_version(struct rt_raw_header *h) { h->format_version = 99; }
static void bad_size(struct rt_raw_header *h) { h->header_size = 4; }

static void test_bad_headers_refused(void **state)
{
	(void)state;
	expect_refused(bad_magic, "not a ringtrace raw file");
	expect_refused(bad_endian, "other byte order");
	expect_refused(bad_version, "format version 99");
	expect_refused(bad_size, "bad header size 4");
}

static void test_misaligned_chunk_refused(void **state)
{
	struct rt_outbuf ob;
	struct rt_raw_file f;
	char bytes[12] = { 0 };

	(void)state;
	begin(&ob);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, bytes, sizeof(bytes));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), -EINVAL);
	assert_non_null(strstr(f.errmsg, "not a multiple of 8"));
	rt_raw_close(&f);
	unlink(path);
}

/* Corrupt records inside a chunk are caught by the same ring checks. */
static void test_corrupt_record_in_chunk(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_outbuf ob;
	struct rt_raw_file f;
	struct rt_merge_result res;

	(void)state;
	begin(&ob);
	vfs(&r, 1);
	r.header.size = 120;		/* runs past the 96-byte chunk */
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	merge_all(&f, &res);
	assert_int_equal(res.error, RT_RING_ERR_SIZE_TRUNCATED);
	assert_int_equal(nr_got, 0);
	rt_raw_close(&f);
	unlink(path);
}

/*
 * Decoding a corrupt file says which file and where in it, not "ring of
 * CPU 0 ... at position 0": a user opens the file at that offset.
 */
static void test_corrupt_record_error_names_file_offset(void **state)
{
	struct ringtrace_vfs_read_record r[2];
	struct rt_outbuf ob, out;
	struct rt_raw_file f;
	struct rt_stream st = { .format = RT_FORMAT_TEXT };
	char where[128];
	int devnull;

	(void)state;
	begin(&ob);
	vfs(&r[0], 1);
	vfs(&r[1], 2);
	r[1].header.size = 0;		/* the second record of CPU 3 */
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 3, r, sizeof(r));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	devnull = open("/dev/null", O_WRONLY);
	rt_outbuf_init(&out, devnull, 0);
	st.out = &out;
	assert_int_equal(rt_stream_file(&st, &f), RT_STREAM_ERR_DATA);
	snprintf(where, sizeof(where), "corrupt raw file %s: record of CPU 3 "
		 "at file offset %zu ", path, sizeof(struct rt_raw_header) +
		 sizeof(struct rt_raw_chunk) + sizeof(r[0]));
	if (!strstr(st.errmsg, where) || !strstr(st.errmsg, "size is 0"))
		fail_msg("'%s' lacks '%s'", st.errmsg, where);
	rt_outbuf_fini(&out);
	close(devnull);
	rt_raw_close(&f);
	unlink(path);
}

int main(void)
{
	RUN(cmocka_unit_test(test_chunks_merge_across_cpus),
	    cmocka_unit_test(test_truncated_file_keeps_whole_records),
	    cmocka_unit_test(test_bad_headers_refused),
	    cmocka_unit_test(test_misaligned_chunk_refused),
	    cmocka_unit_test(test_corrupt_record_in_chunk),
	    cmocka_unit_test(test_corrupt_record_error_names_file_offset));
}
