// SPDX-License-Identifier: GPL-2.0-only
/*
 * The raw file reader: a file made of header + chunks decodes back to the
 * records in timestamp order across CPUs; chunks of unknown kinds are
 * skipped; a file cut mid-record keeps its whole records and says how much
 * was dropped; wrong magic, byte order, version and misaligned chunk sizes
 * are refused with messages. A damaged record inside a chunk is reported
 * with its file offset and what was skipped, and its ring's later chunks
 * are read (resynchronised at the next chunk header). Version 2 (perf rings, counter snapshots):
 * a version 1 file's chunks of those kinds are skipped as before; perf
 * records decode with the file's perf format and thread names; a corrupt
 * descriptor, or records before their descriptor, are refused with the
 * file and the offset; a damaged perf record names its file offset.
 * Version 3: per-thread rings' chunks, named by thread id,
 * read back as one source per thread (tid set, no CPU) merged with the
 * rest, their PENDING counted; older versions skip those kinds; a thread
 * chunk's id 0 is a damaged header; a damaged record names its thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "test.h"
#include "signal_generate_args.h"

#include <linux/perf_event.h>

#include "ringtrace/mounts.h"
#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/stream.h"
#include "ringtrace/usyms.h"
#include "fake_ring.h"

static char path[64];

static void begin_version(struct rt_outbuf *ob, uint32_t version)
{
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	int fd;

	strcpy(path, "/tmp/ringtrace-raw-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	h.header_size = sizeof(h);
	h.format_version = version;
	h.endian = RT_RAW_ENDIAN;
	h.page_size = 4096;
	strcpy(h.module_version, "1.2.3");
	rt_outbuf_init(ob, fd, 0);
	rt_raw_write_header(ob, &h);
}

static void begin(struct rt_outbuf *ob)
{
	begin_version(ob, RT_RAW_FORMAT_VERSION);
}

/* A chunk header saying @size, whatever follows it. */
static void chunk_header(struct rt_outbuf *ob, uint32_t kind, uint32_t cpu,
			 uint64_t size)
{
	struct rt_raw_chunk c = { .kind = kind, .cpu = cpu, .size = size };

	rt_outbuf_append(ob, &c, sizeof(c));
}

static void chunk(struct rt_outbuf *ob, uint32_t kind, uint32_t cpu,
		  const void *p, uint64_t len)
{
	chunk_header(ob, kind, cpu, len);
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

/* All of @f merges without error into @n records: timestamps @want if not NULL. */
static void merged_are(struct rt_raw_file *f, const uint64_t *want,
		       unsigned int n)
{
	struct rt_merge_result res;

	merge_all(f, &res);
	assert_int_equal(res.error, 0);
	assert_int_equal(nr_got, n);
	if (want)
		assert_memory_equal(got, want, n * sizeof(*want));
}

/*
 * Streaming @f as text goes past a damaged record to the end; what
 * rt_raw_report_damage() says then is in @msg.
 */
static void stream_damaged(struct rt_raw_file *f, char *msg, size_t len)
{
	struct rt_stream st = { .format = RT_FORMAT_TEXT };
	struct rt_outbuf out;
	int devnull = open("/dev/null", O_WRONLY);
	FILE *fp;

	assert_true(devnull >= 0);
	rt_outbuf_init(&out, devnull, 0);
	st.out = &out;
	assert_int_equal(rt_stream_file(&st, f), RT_STREAM_OK);
	rt_outbuf_fini(&out);
	close(devnull);
	memset(msg, 0, len);
	fp = fmemopen(msg, len - 1, "w");
	assert_non_null(fp);
	assert_true(rt_raw_report_damage(f, fp, "prog"));
	fclose(fp);
}

static void test_chunks_merge_across_cpus(void **state)
{
	struct ringtrace_vfs_read_record r[2];
	struct rt_outbuf ob;
	struct rt_raw_file f;
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
	merged_are(&f, want, 6);
	rt_raw_close(&f);
	unlink(path);
}

static void test_truncated_file_keeps_whole_records(void **state)
{
	struct ringtrace_vfs_read_record r[3];
	struct rt_outbuf ob;
	struct rt_raw_file f;

	(void)state;
	begin(&ob);
	vfs(&r[0], 1); vfs(&r[1], 2); vfs(&r[2], 3);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, r, sizeof(r));
	finish(&ob, 40);		/* the writer died mid-record */
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.truncated_bytes, sizeof(r[0]) - 40);
	assert_true(f.truncated);
	assert_int_equal(f.truncated_missing, 40);
	merged_are(&f, NULL, 2);
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

/*
 * One damaged chunk header (a size that is not a multiple of 8,
 * a CPU out of range) used to make the whole file unreadable. The reader
 * skips to the next valid chunk, reads every other chunk, and says where
 * the damage is and how much it skipped.
 */
static void test_damaged_chunk_header_skipped(void **state)
{
	struct ringtrace_vfs_read_record r[2];
	struct rt_outbuf ob;
	struct rt_raw_file f;
	static const uint64_t want[] = { 1, 2, 5, 6 };
	char msg[1024] = "", want_at[64], want_skip[64];
	FILE *fp;

	(void)state;
	begin(&ob);
	vfs(&r[0], 1); vfs(&r[1], 2);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, r, sizeof(r));
	vfs(&r[0], 3); vfs(&r[1], 4);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 1, r, sizeof(r));	/* damaged */
	vfs(&r[0], 5); vfs(&r[1], 6);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, r, sizeof(r));
	finish(&ob, 0);

	/* One flipped bit in the second chunk's size: 2 * 96 ^ 1. */
	fp = fopen(path, "r+");
	assert_non_null(fp);
	{
		struct rt_raw_chunk c;
		long at = (long)(sizeof(struct rt_raw_header) +
				 sizeof(c) + sizeof(r));

		fseek(fp, at, SEEK_SET);
		assert_int_equal(fread(&c, sizeof(c), 1, fp), 1);
		c.size ^= 1;
		fseek(fp, at, SEEK_SET);
		fwrite(&c, sizeof(c), 1, fp);
	}
	fclose(fp);

	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 1);
	assert_int_equal(f.damage[0].offset, sizeof(struct rt_raw_header) +
			 sizeof(struct rt_raw_chunk) + sizeof(r));
	assert_int_equal(f.damage[0].skipped,
			 sizeof(struct rt_raw_chunk) + sizeof(r));
	assert_false(f.truncated);
	merged_are(&f, want, 4);

	fp = fmemopen(msg, sizeof(msg) - 1, "w");
	assert_true(rt_raw_report_damage(&f, fp, "prog"));
	fclose(fp);
	snprintf(want_at, sizeof(want_at), "offset %zu", sizeof(struct rt_raw_header) +
		 sizeof(struct rt_raw_chunk) + sizeof(r));
	snprintf(want_skip, sizeof(want_skip), "skipped %zu bytes",
		 sizeof(struct rt_raw_chunk) + sizeof(r));
	if (!strstr(msg, "not a multiple of 8") || !strstr(msg, path) ||
	    !strstr(msg, want_at) || !strstr(msg, want_skip))
		fail_msg("report: %s", msg);
	rt_raw_close(&f);
	unlink(path);
}

/* A damaged last chunk: everything before it is read; skipped to the end. */
static void test_damaged_last_chunk_reads_the_rest(void **state)
{
	struct rt_outbuf ob;
	struct rt_raw_file f;
	struct rt_merge_result res;
	struct ringtrace_vfs_read_record r;
	char bytes[12] = { 0 };

	(void)state;
	begin(&ob);
	vfs(&r, 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, bytes, sizeof(bytes));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 1);
	assert_true(f.damage[0].to_end);
	assert_non_null(strstr(f.damage[0].what, "not a multiple of 8"));
	merge_all(&f, &res);
	assert_int_equal(nr_got, 1);
	rt_raw_close(&f);
	unlink(path);
}

/* A size past the file's end whose records end at a valid chunk: damage. */
static void test_oversized_chunk_resynchronises(void **state)
{
	struct ringtrace_vfs_read_record r[2];
	struct rt_outbuf ob;
	struct rt_raw_file f;

	(void)state;
	begin(&ob);
	vfs(&r[0], 1);
	/* size: a flipped high bit */
	chunk_header(&ob, RT_RAW_CHUNK_RECORDS, 0, 1 << 20);
	rt_outbuf_append(&ob, &r[0], sizeof(r[0]));
	vfs(&r[0], 2); vfs(&r[1], 3);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 1, r, sizeof(r));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 1);
	assert_non_null(strstr(f.damage[0].what, "more than the"));
	assert_false(f.truncated);
	merged_are(&f, NULL, 3);
	rt_raw_close(&f);
	unlink(path);
}

/*
 * A file cut exactly at a record boundary used to read as
 * complete. The chunk declares more than the file holds: truncated, with
 * the chunk's offset and the bytes missing; its whole records are read.
 */
static void test_cut_at_record_boundary_is_truncated(void **state)
{
	struct ringtrace_vfs_read_record r[3];
	struct rt_outbuf ob;
	struct rt_raw_file f;
	struct rt_merge_result res;
	char msg[512] = "", want_at[64], want_missing[64];
	FILE *fp;

	(void)state;
	begin(&ob);
	vfs(&r[0], 1); vfs(&r[1], 2); vfs(&r[2], 3);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, r, sizeof(r));
	finish(&ob, sizeof(r[0]));	/* the last record, exactly */
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_true(f.truncated);
	assert_int_equal(f.truncated_at, sizeof(struct rt_raw_header));
	assert_int_equal(f.truncated_missing, sizeof(r[0]));
	assert_int_equal(f.truncated_bytes, 0);
	merge_all(&f, &res);
	assert_int_equal(nr_got, 2);
	fp = fmemopen(msg, sizeof(msg) - 1, "w");
	assert_true(rt_raw_report_damage(&f, fp, "prog"));
	fclose(fp);
	snprintf(want_at, sizeof(want_at), "offset %zu",
		 sizeof(struct rt_raw_header));
	snprintf(want_missing, sizeof(want_missing), "%zu more bytes",
		 sizeof(r[0]));
	if (!strstr(msg, "truncated") || !strstr(msg, path) ||
	    !strstr(msg, want_at) || !strstr(msg, want_missing))
		fail_msg("report: %s", msg);
	rt_raw_close(&f);
	unlink(path);

	/* Cut inside the chunk header itself. */
	begin(&ob);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, r, sizeof(r));
	finish(&ob, sizeof(r) + 4);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_true(f.truncated);
	assert_int_equal(f.truncated_missing, 4);
	rt_raw_close(&f);
	unlink(path);
}

/* A short file is called short, a directory a directory. */
static void test_short_file_and_directory_named(void **state)
{
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	struct rt_raw_file f;
	FILE *fp;

	(void)state;
	strcpy(path, "/tmp/ringtrace-raw-XXXXXX");
	close(mkstemp(path));
	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	fp = fopen(path, "w");
	fwrite(&h, 50, 1, fp);
	fclose(fp);
	assert_int_equal(rt_raw_open(&f, path), -EINVAL);
	if (!strstr(f.errmsg, "truncated: 50 bytes") ||
	    strstr(f.errmsg, "bad header size"))
		fail_msg("50-byte file: %s", f.errmsg);
	rt_raw_close(&f);
	unlink(path);

	assert_int_equal(rt_raw_open(&f, "/tmp"), -EISDIR);
	if (!strstr(f.errmsg, "/tmp is a directory"))
		fail_msg("directory: %s", f.errmsg);
	rt_raw_close(&f);
}

/*
 * A damaged record inside a chunk (its size 8 too many: the next header
 * is read from inside a record) is caught by the ring's checks there; the
 * chunk's records before it are read, the rest of that chunk is skipped,
 * and the same CPU's later chunks are read, as the other CPUs' are.
 */
static void test_damaged_record_reads_later_chunks(void **state)
{
	static const uint64_t want[] = { 1, 2, 4, 5, 6, 7 };
	struct ringtrace_vfs_read_record a[3], b[2], c;
	struct rt_outbuf ob;
	struct rt_raw_file f;
	size_t at, next;

	(void)state;
	begin(&ob);
	vfs(&a[0], 1);
	vfs(&a[1], 2);
	vfs(&a[2], 3);
	a[1].header.size += 8;	/* its end is record 3's timestamp */
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, a, sizeof(a));
	make_vfs_read(&c, 4, 1, 4, 4, "f");
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 1, &c, sizeof(c));
	vfs(&b[0], 5);
	vfs(&b[1], 6);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, b, sizeof(b));
	make_vfs_read(&c, 7, 1, 7, 7, "f");
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 1, &c, sizeof(c));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);	/* the chunk headers are fine */
	merged_are(&f, want, 6);
	assert_int_equal(f.nr_damage, 1);
	assert_true(f.damage[0].record);
	assert_string_equal(f.damage[0].where, "record of CPU 0");
	/* The bad header: 8 bytes into record 3, past record 2's 128. */
	at = sizeof(struct rt_raw_header) + sizeof(struct rt_raw_chunk) +
	     sizeof(a[0]) + sizeof(a[1]) + 8;
	assert_int_equal(f.damage[0].offset, at);
	assert_int_equal(f.damage[0].skipped, sizeof(a[2]) - 8);
	next = sizeof(struct rt_raw_header) + 2 * sizeof(struct rt_raw_chunk) +
	       sizeof(a) + sizeof(c);
	assert_int_equal(f.damage[0].resume, next);
	rt_raw_close(&f);
	unlink(path);
}

/*
 * A record of size 0 (the cursor cannot step over it): the report says
 * which file, where the damage is, what it is, how much was skipped and
 * where reading went on, in file offsets a user can open the file at.
 */
static void test_damaged_record_report_names_file_offsets(void **state)
{
	static const uint64_t want[] = { 1, 3 };
	struct ringtrace_vfs_read_record r[2], later;
	struct rt_outbuf ob;
	struct rt_raw_file f;
	char where[256], msg[1024];

	(void)state;
	begin(&ob);
	make_vfs_read(&r[0], 1, 3, 1, 1, "f");
	make_vfs_read(&r[1], 2, 3, 2, 2, "f");
	r[1].header.size = 0;		/* the second record of CPU 3 */
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 3, r, sizeof(r));
	make_vfs_read(&later, 3, 3, 3, 3, "f");
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 3, &later, sizeof(later));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	merged_are(&f, want, 2);
	rt_raw_close(&f);

	assert_int_equal(rt_raw_open(&f, path), 0);
	stream_damaged(&f, msg, sizeof(msg));
	assert_int_equal(f.srcs[0].counts.records, 2);
	snprintf(where, sizeof(where), "prog: corrupt raw file %s: record of "
		 "CPU 3 at offset %zu: record size is 0; ", path,
		 sizeof(struct rt_raw_header) + sizeof(struct rt_raw_chunk) +
		 sizeof(r[0]));
	if (!strstr(msg, where))
		fail_msg("'%s' lacks '%s'", msg, where);
	snprintf(where, sizeof(where), "skipped the %zu bytes to the end of "
		 "its chunk, read on from its ring's next chunk at offset %zu\n",
		 sizeof(r[1]), sizeof(struct rt_raw_header) +
		 sizeof(struct rt_raw_chunk) + sizeof(r));
	if (!strstr(msg, where))
		fail_msg("'%s' lacks '%s'", msg, where);
	rt_raw_close(&f);
	unlink(path);
}

/* A perf sample: TID | TIME | CPU | IP, as perf_ring.c asks for. */
struct perf_sample {
	struct perf_event_header	h;
	uint64_t			ip;
	uint32_t			pid, tid;
	uint64_t			time;
	uint32_t			cpu, res;
};

#define SAMPLE_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_IP)

static void perf_sample(struct perf_sample *p, uint64_t ts, uint32_t tid)
{
	memset(p, 0, sizeof(*p));
	p->h.type = PERF_RECORD_SAMPLE;
	p->h.size = sizeof(*p);
	p->ip = 0x401000;
	p->pid = p->tid = tid;
	p->time = ts;
	p->cpu = 1;
}

static void perf_format(struct rt_outbuf *ob, uint64_t sample_type)
{
	struct rt_raw_perf_format pf = { .sample_type = sample_type };

	strcpy(pf.event, "cpu-clock");
	rt_raw_write_perf_format(ob, &pf);
}

/* Decoded events of the file, in order, as "kind:ts" words. */
static char events[512];

static int describe(void *arg, struct rt_source *src,
		    const struct rt_record *rec, uint64_t ts)
{
	struct rt_event ev;
	size_t n = strlen(events);
	int ret = rt_source_decode(src, rec, &ev);

	(void)arg;
	if (ret == RT_DECODE_SKIP)
		return 0;
	assert_int_equal(ret, RT_DECODE_OK);
	snprintf(events + n, sizeof(events) - n, "%s%u:%llu",
		 n ? " " : "", ev.kind, (unsigned long long)ts);
	if (ev.kind == RT_EVENT_SAMPLE) {
		n = strlen(events);
		snprintf(events + n, sizeof(events) - n, ":%s:%s", ev.comm,
			 ev.u.sample.event);
	}
	return 0;
}

static void decode_all(struct rt_raw_file *f)
{
	struct rt_merge_result res;
	struct rt_merge m;

	events[0] = '\0';
	rt_merge_init(&m, f->srcs, f->nr_srcs, 0);
	rt_merge_round(&m, 0, true, describe, NULL, &res);
	rt_merge_fini(&m);
	assert_int_equal(res.error, 0);
}

static void test_perf_chunks_decode(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct perf_sample p[2];
	struct rt_comm_cache *comms = calloc(1, sizeof(*comms));
	struct rt_outbuf ob;
	struct rt_raw_file f;
	char want[128];

	(void)state;
	assert_non_null(comms);
	rt_comm_cache_init(comms);
	rt_comm_set(comms, 77, "worker");
	begin_version(&ob, RT_RAW_FORMAT_SOURCES);
	perf_format(&ob, SAMPLE_TYPE);
	rt_raw_write_comms(&ob, comms);
	vfs(&r, 2);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	perf_sample(&p[0], 1, 77);
	perf_sample(&p[1], 3, 77);
	chunk(&ob, RT_RAW_CHUNK_PERF_RECORDS, 1, p, sizeof(p));
	finish(&ob, 0);
	free(comms);

	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_srcs, 2);
	assert_int_equal(f.nr_perf_srcs, 1);
	decode_all(&f);
	snprintf(want, sizeof(want), "%u:1:worker:cpu-clock %u:2 "
		 "%u:3:worker:cpu-clock", RT_EVENT_SAMPLE, RT_EVENT_VFS_READ,
		 RT_EVENT_SAMPLE);
	assert_string_equal(events, want);
	rt_raw_close(&f);
	unlink(path);
}

struct maps_seen {
	uint32_t	pid;
	char		exe[4096];
	uint32_t	entries, own;
	uint8_t		build_id[20];
	uint32_t	build_id_len;
};

static void see_map(void *arg, const struct rt_raw_map *m, const char *p)
{
	struct maps_seen *s = arg;

	s->entries++;
	assert_true(m->end > m->start);
	if (m->pid != s->pid || strcmp(p, s->exe))
		return;
	s->own++;
	assert_string_equal(m->comm, "test_rawfile");
	assert_int_equal(m->build_id_len, s->build_id_len);
	assert_memory_equal(m->build_id, s->build_id, s->build_id_len);
}

/*
 * The MAPS chunk: this process's own executable mapping comes back with
 * its build-id, and a version 1 file holding it still reads as one.
 */
static void test_maps_chunk_round_trip(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct maps_seen s = { .pid = (uint32_t)getpid() };
	struct rt_outbuf ob;
	struct rt_raw_file f;
	ssize_t n;

	(void)state;
	n = readlink("/proc/self/exe", s.exe, sizeof(s.exe) - 1);
	assert_true(n > 0);
	s.build_id_len = rt_usyms_file_build_id(s.exe, s.build_id);
	begin(&ob);
	assert_true(rt_raw_write_maps(&ob) >= 1);
	vfs(&r, 2);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.hdr.format_version, RT_RAW_FORMAT_VERSION);
	assert_int_equal(f.nr_srcs, 1);
	assert_int_equal(f.nr_maps, 1);
	assert_int_equal(rt_raw_foreach_map(&f, see_map, &s), 0);
	assert_true(s.entries > 2);
	assert_true(s.own >= 1);		/* text, maybe more segments */
	rt_raw_close(&f);
	unlink(path);
}

/*
 * The MOUNTS chunk: written from a table, parsed back when the file is
 * opened (NUL padding ignored), and given to the replay's path names.
 */
static void test_mounts_chunk_round_trip(void **state)
{
	static const char info[] = "23 22 0:5 / /dev rw - devtmpfs udev rw\n"
				   "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n";
	struct ringtrace_vfs_read_record r;
	struct rt_stream st = { .format = RT_FORMAT_TEXT };
	struct rt_mounts m;
	struct rt_paths paths;
	struct rt_outbuf ob, out;
	struct rt_raw_file f;
	char name[32];
	int devnull = open("/dev/null", O_WRONLY);

	(void)state;
	assert_true(devnull >= 0);
	assert_int_equal(rt_mounts_parse(&m, info, sizeof(info) - 1), 0);
	begin(&ob);
	rt_raw_write_mounts(&ob, &m);
	vfs(&r, 2);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	finish(&ob, 0);
	rt_mounts_fini(&m);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_srcs, 1);
	assert_int_equal(f.mounts.nr, 2);
	assert_int_equal(f.mounts.len, sizeof(info) - 1);
	assert_int_equal(rt_paths_init(&paths), 0);
	rt_outbuf_init(&out, devnull, 0);
	st.out = &out;
	st.paths = &paths;
	assert_int_equal(rt_stream_file(&st, &f), RT_STREAM_OK);
	assert_ptr_equal(paths.mounts, &f.mounts);
	assert_int_equal(rt_mounts_name(paths.mounts, 0, 5, "/null", 5, name,
					sizeof(name)), 9);
	assert_string_equal(name, "/dev/null");
	rt_outbuf_fini(&out);
	close(devnull);
	rt_paths_fini(&paths);
	rt_raw_close(&f);
	unlink(path);
}

/* An entry whose size runs past its chunk is skipped, and counted. */
static void test_maps_chunk_malformed(void **state)
{
	struct { struct rt_raw_map m; char path[8]; } e = {
		.m = { .size = 4096, .pid = 1, .start = 1, .end = 2 },
		.path = "/x",
	};
	struct maps_seen s = { .pid = 1 };
	struct rt_outbuf ob;
	struct rt_raw_file f;

	(void)state;
	begin(&ob);
	chunk(&ob, RT_RAW_CHUNK_MAPS, 0, &e, sizeof(e));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(rt_raw_foreach_map(&f, see_map, &s), 1);
	assert_int_equal(s.entries, 0);
	rt_raw_close(&f);
	unlink(path);
}

/* What a version 1 reader did with the kinds of version 2: skip them. */
static void test_version_1_skips_new_kinds(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct perf_sample p;
	struct rt_outbuf ob;
	struct rt_raw_file f;

	(void)state;
	begin(&ob);
	perf_sample(&p, 1, 77);
	chunk(&ob, RT_RAW_CHUNK_PERF_RECORDS, 1, &p, sizeof(p));
	vfs(&r, 2);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_srcs, 1);
	assert_int_equal(f.nr_perf_srcs, 0);
	rt_raw_close(&f);
	unlink(path);
}

static void expect_bad_v2(void (*write)(struct rt_outbuf *ob),
			  const char *words)
{
	struct rt_outbuf ob;
	struct rt_raw_file f;
	char where[256];

	begin_version(&ob, RT_RAW_FORMAT_SOURCES);
	write(&ob);
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), -EINVAL);
	snprintf(where, sizeof(where), "corrupt raw file %s: ", path);
	if (strncmp(f.errmsg, where, strlen(where)) || !strstr(f.errmsg, words))
		fail_msg("'%s' lacks '%s' or '%s'", f.errmsg, where, words);
	rt_raw_close(&f);
	unlink(path);
}

static void undecodable_format(struct rt_outbuf *ob)
{
	perf_format(ob, SAMPLE_TYPE | PERF_SAMPLE_READ);
}

static void records_first(struct rt_outbuf *ob)
{
	struct perf_sample p;

	perf_sample(&p, 1, 77);
	chunk(ob, RT_RAW_CHUNK_PERF_RECORDS, 1, &p, sizeof(p));
	perf_format(ob, SAMPLE_TYPE);
}

static void short_format(struct rt_outbuf *ob)
{
	uint64_t st = SAMPLE_TYPE;

	chunk(ob, RT_RAW_CHUNK_PERF_FORMAT, 0, &st, sizeof(st));
}

static void too_many_counters(struct rt_outbuf *ob)
{
	struct rt_raw_counter_names cn = { .nr = RT_RAW_MAX_COUNTERS + 1 };

	rt_raw_write_counter_names(ob, &cn);
}

static void test_corrupt_descriptors_refused(void **state)
{
	char at[96];

	(void)state;
	/* Every descriptor here is the first chunk, right after the header. */
	snprintf(at, sizeof(at), "at offset %zu", sizeof(struct rt_raw_header));
	expect_bad_v2(undecodable_format, "perf format chunk");
	expect_bad_v2(undecodable_format, at);
	expect_bad_v2(short_format, "perf format chunk");
	expect_bad_v2(short_format, "wrong size");
	expect_bad_v2(records_first, "perf records chunk");
	expect_bad_v2(records_first, "before its descriptor");
	expect_bad_v2(records_first, at);
	expect_bad_v2(too_many_counters, "counter names chunk");
	expect_bad_v2(too_many_counters, "25 counters");
}

/*
 * A damaged perf record, in its ring's last chunk: the file and its
 * offset, and that nothing of that ring came after.
 */
static void test_damaged_perf_record_names_file_offset(void **state)
{
	struct perf_sample p[2];
	struct rt_outbuf ob;
	struct rt_raw_file f;
	char where[256], msg[1024];
	size_t off;

	(void)state;
	begin_version(&ob, RT_RAW_FORMAT_SOURCES);
	perf_format(&ob, SAMPLE_TYPE);
	perf_sample(&p[0], 1, 77);
	perf_sample(&p[1], 2, 77);
	p[1].h.size = 0;		/* the ring cannot step over it */
	chunk(&ob, RT_RAW_CHUNK_PERF_RECORDS, 1, p, sizeof(p));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	stream_damaged(&f, msg, sizeof(msg));
	off = sizeof(struct rt_raw_header) + sizeof(struct rt_raw_chunk) +
	      sizeof(struct rt_raw_perf_format) + sizeof(struct rt_raw_chunk) +
	      sizeof(p[0]);
	snprintf(where, sizeof(where), "corrupt raw file %s: perf record of "
		 "CPU 1 at offset %zu: record size is 0; ", path, off);
	if (!strstr(msg, where) || !strstr(msg, "its ring's last"))
		fail_msg("'%s' lacks '%s'", msg, where);
	rt_raw_close(&f);
	unlink(path);
}

/* What the live writer does for a per-thread ring (stream.c). */
static void thread_chunk(struct rt_outbuf *ob, uint32_t tid, const void *p,
			 uint64_t len)
{
	struct rt_source src;
	uint32_t kind, id;

	rt_source_init(&src, RT_EVENT_CPU_ANY);
	src.tid = tid;
	rt_raw_source_chunk(&src, &kind, &id);
	assert_int_equal(kind, RT_RAW_CHUNK_THREAD_RECORDS);
	assert_int_equal(id, tid);
	chunk(ob, kind, id, p, len);
}

static void test_thread_chunks_round_trip(void **state)
{
	struct ringtrace_vfs_read_record r[2];
	struct rt_source src;
	struct rt_outbuf ob;
	struct rt_raw_file f;
	static const uint64_t want[] = { 1, 2, 3, 4, 5, 6 };

	(void)state;
	begin_version(&ob, RT_RAW_FORMAT_THREADS);
	vfs(&r[0], 1); vfs(&r[1], 4);
	thread_chunk(&ob, 4242, r, sizeof(r));
	vfs(&r[0], 2); vfs(&r[1], 3);
	thread_chunk(&ob, 77, r, sizeof(r));
	vfs(&r[0], 6);
	thread_chunk(&ob, 4242, r, sizeof(r[0]));
	vfs(&r[0], 5);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 1, r, sizeof(r[0]));
	rt_source_init(&src, RT_EVENT_CPU_ANY);
	src.tid = 77;
	rt_raw_write_source_pending(&ob, &src, 7);
	finish(&ob, 0);

	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_int_equal(f.nr_srcs, 3);
	/* CPUs' rings, then threads' in the order they came */
	assert_int_equal(f.srcs[0].cpu, 1);
	assert_int_equal(f.srcs[0].tid, 0);
	assert_int_equal(f.srcs[1].tid, 4242);
	assert_true(f.srcs[1].cpu == RT_EVENT_CPU_ANY);
	assert_int_equal(f.srcs[2].tid, 77);
	assert_int_equal(f.pending_lost, 7);
	merged_are(&f, want, 6);
	rt_raw_close(&f);
	unlink(path);
}

/*
 * The calls -e func:NAME's probes missed travel in FUNC_MISSED chunks (any
 * version: older readers skip them) and add up; the records around them
 * read as ever, and a -i F --raw -o G copy keeps the count.
 */
static void test_func_missed_chunks(void **state)
{
	static const uint64_t want[] = { 1, 2 };
	struct ringtrace_vfs_read_record r;
	struct rt_outbuf ob;
	struct rt_raw_file f;

	(void)state;
	begin(&ob);
	vfs(&r, 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	rt_raw_write_func_missed(&ob, 30);
	vfs(&r, 2);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	rt_raw_write_func_missed(&ob, 6);
	rt_raw_write_offcpu_missed(&ob, 4);
	finish(&ob, 0);

	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_false(f.truncated);
	assert_int_equal(f.func_missed, 36);
	/* and the off-CPU intervals the module could not follow, likewise */
	assert_int_equal(f.offcpu_missed, 4);
	assert_int_equal(f.pending_lost, 0);
	merged_are(&f, want, 2);
	rt_raw_close(&f);
	unlink(path);
}

/* The held calls a replay of @f says: the stream's, as the file's. */
static void replay_fast_read(struct rt_raw_file *f, bool held, uint64_t calls)
{
	struct rt_stream st = { .format = RT_FORMAT_TEXT };
	struct rt_outbuf out;
	int devnull = open("/dev/null", O_WRONLY);

	assert_true(devnull >= 0);
	rt_outbuf_init(&out, devnull, 0);
	st.out = &out;
	assert_int_equal(rt_stream_file(&st, f), RT_STREAM_OK);
	rt_outbuf_fini(&out);
	close(devnull);
	assert_int_equal(st.func_held, held);
	assert_int_equal(st.func_fast_read, calls);
}

/*
 * The calls a session held inside reads faster than --min-latency and
 * dropped travel in FUNC_FAST_READ chunks (any version: older readers
 * skip them), written whenever the session held calls, 0 included: a
 * file has them (held, their sum) or not (not held, as before), and its
 * replay says what the live run said. The records around them read as
 * ever; the chunk is no loss (not in func_missed, pending_lost).
 */
static void test_func_fast_read_chunks(void **state)
{
	static const uint64_t want[] = { 1, 2 };
	struct ringtrace_vfs_read_record r;
	struct rt_outbuf ob;
	struct rt_raw_file f;

	(void)state;
	begin(&ob);
	vfs(&r, 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	rt_raw_write_func_fast_read(&ob, 40);
	vfs(&r, 2);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	rt_raw_write_func_fast_read(&ob, 2);
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_false(f.truncated);
	assert_true(f.func_held);
	assert_int_equal(f.func_fast_read, 42);
	assert_int_equal(f.func_missed, 0);
	assert_int_equal(f.pending_lost, 0);
	merged_are(&f, want, 2);
	replay_fast_read(&f, true, 42);
	rt_raw_close(&f);
	unlink(path);

	/* none of faster reads, but held: said as 0 */
	begin(&ob);
	vfs(&r, 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	rt_raw_write_func_fast_read(&ob, 0);
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_true(f.func_held);
	assert_int_equal(f.func_fast_read, 0);
	replay_fast_read(&f, true, 0);
	rt_raw_close(&f);
	unlink(path);

	/* a recording of a session that held none: as before */
	begin(&ob);
	vfs(&r, 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	rt_raw_write_func_missed(&ob, 3);
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_false(f.func_held);
	assert_int_equal(f.func_fast_read, 0);
	replay_fast_read(&f, false, 0);
	rt_raw_close(&f);
	unlink(path);
}

/*
 * A FUNC_FAST_READ chunk cut by the file's end is truncation, said as
 * such, and not used (the file's calls not said held); one after a
 * damaged chunk header is where the reader reads again, and is used.
 */
static void test_func_fast_read_chunk_cut_or_after_damage(void **state)
{
	static const uint64_t want[] = { 1 };
	struct ringtrace_vfs_read_record r[2];
	struct rt_outbuf ob;
	struct rt_raw_file f;
	char msg[1024];

	(void)state;
	begin(&ob);
	vfs(&r[0], 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, r, sizeof(r[0]));
	rt_raw_write_func_fast_read(&ob, 5);
	finish(&ob, 8);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_true(f.truncated);
	assert_int_equal(f.truncated_kind, RT_RAW_CHUNK_FUNC_FAST_READ);
	assert_false(f.func_held);
	assert_int_equal(f.func_fast_read, 0);
	merged_are(&f, want, 1);
	stream_damaged(&f, msg, sizeof(msg));
	if (!strstr(msg, "faster than --min-latency, not records"))
		fail_msg("report: %s", msg);
	rt_raw_close(&f);
	unlink(path);

	/* a records chunk whose size lost a bit, then the count */
	begin(&ob);
	vfs(&r[0], 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, r, sizeof(r[0]));
	vfs(&r[0], 2); vfs(&r[1], 3);
	chunk_header(&ob, RT_RAW_CHUNK_RECORDS, 0, sizeof(r) ^ 4);
	rt_outbuf_append(&ob, r, sizeof(r));
	rt_raw_write_func_fast_read(&ob, 5);
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 1);
	assert_int_equal(f.damage[0].resume,
			 f.len - sizeof(struct rt_raw_chunk) - sizeof(uint64_t));
	assert_false(f.truncated);
	assert_true(f.func_held);
	assert_int_equal(f.func_fast_read, 5);
	merged_are(&f, want, 1);
	rt_raw_close(&f);
	unlink(path);
}

/*
 * The names a session traced (-e func:NAME, -e tp:...) travel in a
 * FUNC_NAMES chunk (any version: older readers skip it), by func_idx, each
 * NUL-padded whatever followed its NUL; the first is kept, the records
 * around it read as ever. None is written for no names, or past
 * RINGTRACE_MAX_FUNCS.
 */
static void test_func_names_chunk(void **state)
{
	static const uint64_t want[] = { 1, 2 };
	static char names[RINGTRACE_MAX_FUNCS + 1][RINGTRACE_FUNC_NAME_LEN];
	static const char other[1][RINGTRACE_FUNC_NAME_LEN] = { "vfs_write" };
	struct ringtrace_vfs_read_record r;
	struct rt_outbuf ob;
	struct rt_raw_file f;
	uint64_t before;

	(void)state;
	for (uint32_t i = 0; i <= RINGTRACE_MAX_FUNCS; i++)
		snprintf(names[i], sizeof(names[i]), "func%u", i);
	strcpy(names[1], "tp:sched:sched_switch");
	/* junk after a NUL, a 63-byte name: written NUL-padded */
	memset(names[2], 'x', sizeof(names[2]));
	memcpy(names[2], "a\0b", 3);
	memset(names[3], 'y', sizeof(names[3]) - 1);
	begin(&ob);
	vfs(&r, 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	before = ob.bytes + ob.len;
	rt_raw_write_func_names(&ob, (const char (*)[RINGTRACE_FUNC_NAME_LEN])
				names, 0);
	rt_raw_write_func_names(&ob, (const char (*)[RINGTRACE_FUNC_NAME_LEN])
				names, RINGTRACE_MAX_FUNCS + 1);
	assert_int_equal(ob.bytes + ob.len, before);
	rt_raw_write_func_names(&ob, (const char (*)[RINGTRACE_FUNC_NAME_LEN])
				names, RINGTRACE_MAX_FUNCS);
	assert_int_equal(ob.bytes + ob.len - before,
			 sizeof(struct rt_raw_chunk) +
			 RINGTRACE_MAX_FUNCS * RINGTRACE_FUNC_NAME_LEN);
	/* a second chunk: not the one used */
	rt_raw_write_func_names(&ob, other, 1);
	vfs(&r, 2);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	finish(&ob, 0);

	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_false(f.truncated);
	assert_int_equal(f.nr_func_names, RINGTRACE_MAX_FUNCS);
	assert_string_equal(f.func_names[0], "func0");
	assert_string_equal(f.func_names[1], "tp:sched:sched_switch");
	assert_string_equal(f.func_names[2], "a");
	assert_int_equal(f.func_names[2][2], '\0');
	assert_int_equal(strlen(f.func_names[3]), RINGTRACE_FUNC_NAME_LEN - 1);
	snprintf(names[0], sizeof(names[0]), "func%u", RINGTRACE_MAX_FUNCS - 1);
	assert_string_equal(f.func_names[RINGTRACE_MAX_FUNCS - 1], names[0]);
	merged_are(&f, want, 2);
	rt_raw_close(&f);
	assert_null(f.func_names);
	assert_int_equal(f.nr_func_names, 0);
	unlink(path);

	/* A file without one: none. */
	begin(&ob);
	vfs(&r, 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_null(f.func_names);
	assert_int_equal(f.nr_func_names, 0);
	rt_raw_close(&f);
	unlink(path);
}

/*
 * A FUNC_NAMES chunk that is not a list of names (a size not of whole
 * names, none, more than a session has, a name unterminated or empty) is
 * damage: noted where it is, skipped whole, the records on both sides
 * read; a valid chunk after it is the one used. One cut by the file's end
 * is not used either.
 */
/*
 * A per-function table chunk (@kind, written by @write) cut by the file's
 * end, after one record stamped 1 (@rec, @size bytes): truncation, not
 * damage, and the table not used.
 */
static void table_cut_not_used(const void *rec, size_t size, uint32_t kind,
			       void (*write)(struct rt_outbuf *ob))
{
	static const uint64_t want[] = { 1 };
	struct rt_raw_file f;
	struct rt_outbuf ob;

	begin(&ob);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, rec, size);
	write(&ob);
	finish(&ob, 8);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_true(f.truncated);
	assert_int_equal(f.truncated_kind, kind);
	assert_null(f.func_names);
	assert_null(f.func_args);
	merged_are(&f, want, 1);
	rt_raw_close(&f);
	unlink(path);
}

static void write_one_name(struct rt_outbuf *ob)
{
	static const char one[1][RINGTRACE_FUNC_NAME_LEN] = { "vfs_write" };

	rt_raw_write_func_names(ob, one, 1);
}

static void test_func_names_chunk_damaged(void **state)
{
	static const uint64_t want[] = { 1, 2 };
	static const struct {
		uint64_t	size;
		int		fill;		/* -1: valid names */
		uint32_t	at;		/* name to break */
		const char	*what;
	} bad[] = {
		{ 72, -1, 0, "size 72, not a multiple of 64" },
		{ 0, -1, 0, "0 names, not 1 to 1024" },
		{ 1025 * RINGTRACE_FUNC_NAME_LEN, -1, 0,
		  "1025 names, not 1 to 1024" },
		{ 3 * RINGTRACE_FUNC_NAME_LEN, 'z', 1,
		  "name 1 is not NUL-terminated" },
		{ 2 * RINGTRACE_FUNC_NAME_LEN, 0, 1, "name 1 is empty" },
	};
	static const char good[1][RINGTRACE_FUNC_NAME_LEN] = { "vfs_write" };
	static char buf[(RINGTRACE_MAX_FUNCS + 1) * RINGTRACE_FUNC_NAME_LEN];
	struct ringtrace_vfs_read_record r;
	struct rt_outbuf ob;
	struct rt_raw_file f;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t at = sizeof(struct rt_raw_header) +
			      sizeof(struct rt_raw_chunk) + sizeof(r);
		uint64_t skipped = sizeof(struct rt_raw_chunk) + bad[i].size;

		memset(buf, 0, sizeof(buf));
		for (uint64_t k = 0; k < sizeof(buf);
		     k += RINGTRACE_FUNC_NAME_LEN)
			strcpy(buf + k, "ksys_read");
		if (bad[i].fill >= 0)
			memset(buf + bad[i].at * RINGTRACE_FUNC_NAME_LEN,
			       bad[i].fill, RINGTRACE_FUNC_NAME_LEN);
		begin(&ob);
		vfs(&r, 1);
		chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
		chunk(&ob, RT_RAW_CHUNK_FUNC_NAMES, 0, buf, bad[i].size);
		vfs(&r, 2);
		chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
		rt_raw_write_func_names(&ob, good, 1);
		finish(&ob, 0);

		assert_int_equal(rt_raw_open(&f, path), 0);
		assert_int_equal(f.nr_damage, 1);
		assert_string_equal(f.damage[0].where, "function names chunk");
		assert_string_equal(f.damage[0].what, bad[i].what);
		assert_false(f.damage[0].record);
		assert_int_equal(f.damage[0].offset, at);
		assert_int_equal(f.damage[0].skipped, skipped);
		assert_int_equal(f.damage[0].resume, at + skipped);
		assert_false(f.truncated);
		/* the valid one after it */
		assert_int_equal(f.nr_func_names, 1);
		assert_string_equal(f.func_names[0], "vfs_write");
		merged_are(&f, want, 2);
		rt_raw_close(&f);
		unlink(path);
	}

	/* The last chunk, damaged: skipped to the end; none kept. */
	begin(&ob);
	vfs(&r, 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
	memset(buf, 'q', RINGTRACE_FUNC_NAME_LEN);
	chunk(&ob, RT_RAW_CHUNK_FUNC_NAMES, 0, buf, RINGTRACE_FUNC_NAME_LEN);
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 1);
	assert_true(f.damage[0].to_end);
	assert_null(f.func_names);
	merged_are(&f, want, 1);
	rt_raw_close(&f);
	unlink(path);

	/* Cut: truncation, and not used. */
	vfs(&r, 1);
	table_cut_not_used(&r, sizeof(r), RT_RAW_CHUNK_FUNC_NAMES,
			   write_one_name);
}

/* signal:signal_generate's arguments, as a live session has them. */
static const struct rt_func_arg_descs tp_args[2] = {
	{ 0 },		/* func_idx 0: a function, not described */
	SIGNAL_GENERATE_ARGS,
};

static void write_tp_args(struct rt_outbuf *ob)
{
	rt_raw_write_func_args(ob, tp_args, 2);
}

static const char tp_names[2][RINGTRACE_FUNC_NAME_LEN] = {
	"vfs_write", "tp:signal:signal_generate",
};

struct tp_record {
	struct ringtrace_func_record	r;
	uint64_t			args[5];
};

/* A hit of tracepoint func_idx 1 at @ts with signal_generate's arguments. */
static void tp_hit(struct tp_record *t, uint64_t ts)
{
	static const uint64_t args[5] = {
		0xa, 0xffffc90000533d78ull, 0xffff88800512c200ull, 1,
		0xffffffff,
	};

	memset(t, 0, sizeof(*t));
	t->r.header.type = RINGTRACE_RECORD_FUNC;
	t->r.header.size = sizeof(*t);
	t->r.task.ts_ns = ts;
	t->r.task.pid = 214;
	t->r.task.tid = 214;
	memcpy(t->r.task.comm, "bash", 4);
	t->r.func_ip = 0xffffffff82a3c5c0ull;
	t->r.func_idx = 1;
	t->r.nr_args = 5;
	memcpy(t->args, args, sizeof(args));
}

/* Text printed into @out goes to a temporary file, read back by text_end(). */
static FILE *text_begin(struct rt_outbuf *out)
{
	FILE *fp = tmpfile();

	assert_non_null(fp);
	rt_outbuf_init(out, fileno(fp), 0);
	return fp;
}

/* What was printed into @out, NUL-terminated in @buf; names forgotten. */
static void text_end(struct rt_outbuf *out, FILE *fp, char *buf, size_t len)
{
	size_t n;

	assert_int_equal(rt_outbuf_flush(out), 0);
	rt_output_set_func_args(NULL, 0);
	rt_output_set_func_names(NULL, 0);
	rt_outbuf_fini(out);
	rewind(fp);
	n = fread(buf, 1, len - 1, fp);
	buf[n] = '\0';
	fclose(fp);
}

/* @f streamed as text, as ringtrace-cat -i prints it, into @buf. */
static void replay_text(struct rt_raw_file *f, char *buf, size_t len)
{
	struct rt_stream st = { .format = RT_FORMAT_TEXT };
	struct rt_outbuf out;
	FILE *fp = text_begin(&out);

	st.out = &out;
	rt_output_set_func_names((const char (*)[RINGTRACE_FUNC_NAME_LEN])
				 f->func_names, f->nr_func_names);
	rt_output_set_func_args(f->func_args, f->nr_func_args);
	assert_int_equal(rt_stream_file(&st, f), RT_STREAM_OK);
	text_end(&out, fp, buf, len);
}

/* The same records printed live: the session's names and descriptions. */
static void live_text(const struct tp_record *t, unsigned int nr,
		      const struct rt_func_arg_descs *descs, char *buf,
		      size_t len)
{
	struct rt_outbuf out;
	FILE *fp = text_begin(&out);

	rt_output_set_func_names(tp_names, 2);
	rt_output_set_func_args(descs, descs ? 2 : 0);
	for (unsigned int i = 0; i < nr; i++) {
		struct rt_event ev;

		assert_int_equal(rt_decode(&t[i], sizeof(t[i]), 0, &ev),
				 RT_DECODE_OK);
		rt_print_text(&out, &ev);
	}
	text_end(&out, fp, buf, len);
}

/*
 * What the traced functions' arguments are travels in a FUNC_ARGS chunk
 * (any version: older readers skip it) beside FUNC_NAMES, by func_idx:
 * read back as written, the first one kept, and a replay prints the
 * arguments by name exactly as the live run did. None is written when
 * nothing is known; a file without one (an older writer's) prints hex.
 */
static void test_func_args_chunk(void **state)
{
	static const uint64_t want[] = { 1, 2 };
	static struct rt_func_arg_descs descs[RINGTRACE_MAX_FUNCS + 1];
	struct tp_record t[2];
	struct rt_outbuf ob;
	struct rt_raw_file f;
	char live[1024], again[1024];
	uint64_t before;

	(void)state;
	tp_hit(&t[0], 1);
	tp_hit(&t[1], 2);
	begin(&ob);
	rt_raw_write_func_names(&ob, tp_names, 2);
	before = ob.bytes + ob.len;
	/* nothing known, none, too many: nothing written */
	rt_raw_write_func_args(&ob, descs, 2);
	rt_raw_write_func_args(&ob, descs, 0);
	rt_raw_write_func_args(&ob, NULL, 2);
	descs[RINGTRACE_MAX_FUNCS].nr_args = 1;
	rt_raw_write_func_args(&ob, descs, RINGTRACE_MAX_FUNCS + 1);
	assert_int_equal(ob.bytes + ob.len, before);
	rt_raw_write_func_args(&ob, tp_args, 2);
	assert_int_equal(ob.bytes + ob.len - before,
			 sizeof(struct rt_raw_chunk) + 2 * 328);
	/* a second chunk: not the one used */
	descs[0].nr_args = 1;
	strcpy(descs[0].arg[0].name, "other");
	descs[0].arg[0].size = 8;
	rt_raw_write_func_args(&ob, descs, 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, t, sizeof(t));
	finish(&ob, 0);

	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_int_equal(f.nr_func_args, 2);
	assert_memory_equal(f.func_args, tp_args, sizeof(tp_args));
	merged_are(&f, want, 2);
	rt_raw_close(&f);
	assert_int_equal(rt_raw_open(&f, path), 0);
	replay_text(&f, again, sizeof(again));
	rt_raw_close(&f);
	assert_null(f.func_args);
	live_text(t, 2, tp_args, live, sizeof(live));
	assert_non_null(strstr(live, " tp: name=signal:signal_generate "
			       "args=sig=10,info=0xffffc90000533d78,"
			       "task=0xffff88800512c200,group=1,result=-1"));
	assert_string_equal(live, again);
	unlink(path);

	/* An older writer's file, no chunk: hex, as before, as live then. */
	begin(&ob);
	rt_raw_write_func_names(&ob, tp_names, 2);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, t, sizeof(t));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_null(f.func_args);
	assert_int_equal(f.nr_func_args, 0);
	replay_text(&f, again, sizeof(again));
	rt_raw_close(&f);
	live_text(t, 2, NULL, live, sizeof(live));
	assert_non_null(strstr(again, " tp: name=signal:signal_generate "
			       "args=0xa,0xffffc90000533d78,0xffff88800512c200,"
			       "0x1,0xffffffff"));
	assert_string_equal(live, again);
	unlink(path);

	/* As many as a session may trace: written and read back whole. */
	for (uint32_t i = 0; i < RINGTRACE_MAX_FUNCS; i++)
		descs[i] = tp_args[1];
	begin(&ob);
	before = ob.bytes + ob.len;
	rt_raw_write_func_args(&ob, descs, RINGTRACE_MAX_FUNCS);
	assert_int_equal(ob.bytes + ob.len - before,
			 sizeof(struct rt_raw_chunk) +
			 RINGTRACE_MAX_FUNCS * sizeof(descs[0]));
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, t, sizeof(t));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 0);
	assert_int_equal(f.nr_func_args, RINGTRACE_MAX_FUNCS);
	assert_memory_equal(&f.func_args[RINGTRACE_MAX_FUNCS - 1], &tp_args[1],
			    sizeof(tp_args[1]));
	rt_raw_close(&f);
	unlink(path);
}

/*
 * A FUNC_ARGS chunk that is not such a list (a size not of whole entries,
 * none, more than a session has, more arguments than an entry holds, a
 * name unterminated, empty or no identifier, a size not 1/2/4/8, a flag
 * not 0/1, a pointer not of 8 bytes) is damage: noted, skipped whole,
 * the records on both sides read and their arguments printed in hex; a
 * valid chunk after it is the one used. One cut by the end is not used.
 */
static void test_func_args_chunk_damaged(void **state)
{
	static const uint64_t want[] = { 1, 2 };
	enum { NAME_NUL, NAME_EMPTY, NAME_ID, SIZE, PTR8, FLAG, NR, NONE };
	static const struct {
		uint64_t	size;		/* entries' bytes */
		int		breakit;	/* what to break in entry 1 */
		const char	*what;
	} bad[] = {
		{ 2 * 328 + 8, NONE, "size 664, not a multiple of 328" },
		{ 0, NONE, "0 entries, not 1 to 1024" },
		{ 1025 * 328, NONE, "1025 entries, not 1 to 1024" },
		{ 2 * 328, NR, "entry 1 has 9 arguments, more than 8" },
		{ 2 * 328, NAME_NUL,
		  "entry 1, argument 4: a name not NUL-terminated" },
		{ 2 * 328, NAME_EMPTY, "entry 1, argument 4: an empty name" },
		{ 2 * 328, NAME_ID,
		  "entry 1, argument 4: a name not a C identifier" },
		{ 2 * 328, SIZE, "entry 1, argument 4: a size not 1, 2, 4 or 8" },
		{ 2 * 328, PTR8,
		  "entry 1, argument 4: a type neither integer nor pointer" },
		{ 2 * 328, FLAG,
		  "entry 1, argument 4: a type neither integer nor pointer" },
	};
	static struct rt_func_arg_descs buf[RINGTRACE_MAX_FUNCS + 1];
	struct tp_record t;
	struct rt_outbuf ob;
	struct rt_raw_file f;
	char text[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rt_func_arg_desc *a = &buf[1].arg[4];
		uint64_t at = sizeof(struct rt_raw_header) +
			      sizeof(struct rt_raw_chunk) + 2 * 64 +
			      sizeof(struct rt_raw_chunk) + sizeof(t);
		uint64_t skipped = sizeof(struct rt_raw_chunk) + bad[i].size;

		memset(buf, 0, sizeof(buf));
		for (size_t k = 0; k <= RINGTRACE_MAX_FUNCS; k++)
			buf[k] = tp_args[1];
		switch (bad[i].breakit) {
		case NAME_NUL:
			memset(a->name, 'x', sizeof(a->name));
			break;
		case NAME_EMPTY:
			a->name[0] = '\0';
			break;
		case NAME_ID:
			strcpy(a->name, "a b");
			break;
		case SIZE:
			a->size = 3;
			break;
		case PTR8:
			a->is_ptr = 1;
			break;
		case FLAG:
			a->is_signed = 2;
			break;
		case NR:
			buf[1].nr_args = RT_FUNC_ARG_DESCS + 1;
			break;
		}
		begin(&ob);
		rt_raw_write_func_names(&ob, tp_names, 2);
		tp_hit(&t, 1);
		chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &t, sizeof(t));
		chunk(&ob, RT_RAW_CHUNK_FUNC_ARGS, 0, buf, bad[i].size);
		tp_hit(&t, 2);
		chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &t, sizeof(t));
		finish(&ob, 0);

		assert_int_equal(rt_raw_open(&f, path), 0);
		assert_int_equal(f.nr_damage, 1);
		assert_string_equal(f.damage[0].where,
				    "function arguments chunk");
		assert_string_equal(f.damage[0].what, bad[i].what);
		assert_int_equal(f.damage[0].offset, at);
		assert_int_equal(f.damage[0].skipped, skipped);
		assert_int_equal(f.damage[0].resume, at + skipped);
		assert_null(f.func_args);
		merged_are(&f, want, 2);
		rt_raw_close(&f);
		/* Both records, their arguments in hex. */
		assert_int_equal(rt_raw_open(&f, path), 0);
		replay_text(&f, text, sizeof(text));
		rt_raw_close(&f);
		assert_non_null(strstr(text, "args=0xa,0xffffc90000533d78"));
		assert_non_null(strstr(strstr(text, "args=0xa,") + 1,
				       "args=0xa,0xffffc90000533d78"));
		assert_null(strstr(text, "sig="));
		unlink(path);
	}

	/* A valid one after a damaged one is used. */
	memset(buf, 0, sizeof(buf));
	buf[1] = tp_args[1];
	buf[1].arg[0].size = 5;
	begin(&ob);
	chunk(&ob, RT_RAW_CHUNK_FUNC_ARGS, 0, buf, 2 * 328);
	rt_raw_write_func_args(&ob, tp_args, 2);
	tp_hit(&t, 1);
	chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &t, sizeof(t));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 1);
	assert_int_equal(f.nr_func_args, 2);
	assert_string_equal(f.func_args[1].arg[4].name, "result");
	merged_are(&f, want, 1);
	rt_raw_close(&f);
	unlink(path);

	/* Cut: truncation, and not used. */
	tp_hit(&t, 1);
	table_cut_not_used(&t, sizeof(t), RT_RAW_CHUNK_FUNC_ARGS,
			   write_tp_args);
}

/* Versions 1 and 2 never had them: skipped, as those readers did. */
static void test_thread_chunks_need_version_3(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_source src;
	struct rt_outbuf ob;
	struct rt_raw_file f;

	(void)state;
	for (uint32_t v = RT_RAW_FORMAT_VERSION; v < RT_RAW_FORMAT_THREADS;
	     v++) {
		begin_version(&ob, v);
		vfs(&r, 1);
		thread_chunk(&ob, 4242, &r, sizeof(r));
		vfs(&r, 2);
		chunk(&ob, RT_RAW_CHUNK_RECORDS, 0, &r, sizeof(r));
		rt_source_init(&src, RT_EVENT_CPU_ANY);
		src.tid = 4242;
		rt_raw_write_source_pending(&ob, &src, 7);
		finish(&ob, 0);
		assert_int_equal(rt_raw_open(&f, path), 0);
		assert_int_equal(f.nr_srcs, 1);
		assert_int_equal(f.srcs[0].tid, 0);
		assert_int_equal(f.pending_lost, 0);
		rt_raw_close(&f);
		unlink(path);
	}
}

/* Thread id 0 is no thread: a damaged header, skipped to the next chunk. */
static void test_thread_chunk_bad_tid_is_damage(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_outbuf ob;
	struct rt_raw_file f;

	(void)state;
	begin_version(&ob, RT_RAW_FORMAT_THREADS);
	vfs(&r, 1);
	chunk(&ob, RT_RAW_CHUNK_THREAD_RECORDS, 0, &r, sizeof(r));
	vfs(&r, 2);
	thread_chunk(&ob, 9, &r, sizeof(r));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	assert_int_equal(f.nr_damage, 1);
	assert_non_null(strstr(f.damage[0].what, "thread id 0"));
	assert_int_equal(f.nr_srcs, 1);
	assert_int_equal(f.srcs[0].tid, 9);
	rt_raw_close(&f);
	unlink(path);
}

static void test_thread_corrupt_record_names_thread(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_outbuf ob;
	struct rt_raw_file f;
	char msg[512];

	(void)state;
	begin_version(&ob, RT_RAW_FORMAT_THREADS);
	vfs(&r, 1);
	r.header.size = 0;
	thread_chunk(&ob, 4242, &r, sizeof(r));
	finish(&ob, 0);
	assert_int_equal(rt_raw_open(&f, path), 0);
	stream_damaged(&f, msg, sizeof(msg));
	if (!strstr(msg, "record of thread 4242 at offset"))
		fail_msg("'%s' does not name the thread", msg);
	rt_raw_close(&f);
	unlink(path);
}

int main(void)
{
	RUN(cmocka_unit_test(test_chunks_merge_across_cpus),
	    cmocka_unit_test(test_truncated_file_keeps_whole_records),
	    cmocka_unit_test(test_bad_headers_refused),
	    cmocka_unit_test(test_damaged_chunk_header_skipped),
	    cmocka_unit_test(test_damaged_last_chunk_reads_the_rest),
	    cmocka_unit_test(test_oversized_chunk_resynchronises),
	    cmocka_unit_test(test_cut_at_record_boundary_is_truncated),
	    cmocka_unit_test(test_short_file_and_directory_named),
	    cmocka_unit_test(test_damaged_record_reads_later_chunks),
	    cmocka_unit_test(test_damaged_record_report_names_file_offsets),
	    cmocka_unit_test(test_perf_chunks_decode),
	    cmocka_unit_test(test_version_1_skips_new_kinds),
	    cmocka_unit_test(test_maps_chunk_round_trip),
	    cmocka_unit_test(test_mounts_chunk_round_trip),
	    cmocka_unit_test(test_maps_chunk_malformed),
	    cmocka_unit_test(test_corrupt_descriptors_refused),
	    cmocka_unit_test(test_damaged_perf_record_names_file_offset),
	    cmocka_unit_test(test_thread_chunks_round_trip),
	    cmocka_unit_test(test_func_missed_chunks),
	    cmocka_unit_test(test_func_fast_read_chunks),
	    cmocka_unit_test(test_func_fast_read_chunk_cut_or_after_damage),
	    cmocka_unit_test(test_func_names_chunk),
	    cmocka_unit_test(test_func_names_chunk_damaged),
	    cmocka_unit_test(test_func_args_chunk),
	    cmocka_unit_test(test_func_args_chunk_damaged),
	    cmocka_unit_test(test_thread_chunks_need_version_3),
	    cmocka_unit_test(test_thread_chunk_bad_tid_is_damage),
	    cmocka_unit_test(test_thread_corrupt_record_names_thread));
}
