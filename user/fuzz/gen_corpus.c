// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes the fuzzers' seed corpus: a few synthetic records of every kind
 * the decoders know (vfs_read, lock, lost; perf SAMPLE with and without a
 * callchain, LOST, COMM, THROTTLE, with a sample_id trailer) and raw files
 * made of them (two CPUs, a PENDING chunk, an unknown chunk kind, a file
 * cut mid-record). Shaped like what the module and perf write, so that the
 * fuzzers start past the size checks. Run by `make -C user fuzz-corpus`:
 *
 *	gen_corpus DIR		writes DIR/{record,perf_record,rawfile}/NAME
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/perf_event.h>
#include <linux/ringtrace.h>

#include "ringtrace/rawfile.h"

static const char *root;

static void put(const char *kind, const char *name, const void *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, kind);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", root, kind, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* NUL-padded, not necessarily NUL-terminated: like the kernel's fields. */
static void set_str(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);

	memset(dst, 0, n);
	memcpy(dst, src, len < n ? len : n);
}

static void task(struct ringtrace_task_ctx *t, uint64_t ts, uint32_t cpu,
		 const char *comm)
{
	t->ts_ns = ts;
	t->cpu = cpu;
	t->pid = 1234;
	t->tid = 1235;
	set_str(t->comm, sizeof(t->comm), comm);
}

static size_t vfs_read(void *buf, uint64_t ts, uint32_t cpu)
{
	struct ringtrace_vfs_read_record r = { 0 };

	r.header.type = RINGTRACE_RECORD_VFS_READ;
	r.header.size = sizeof(r);
	task(&r.task, ts, cpu, "bash");
	r.dev_major = 8;
	r.dev_minor = 1;
	r.ino = 123;
	r.pos = 4096;
	r.count = 4096;
	r.ret = 1808;
	r.lat_ns = 12345;
	memcpy(buf, &r, sizeof(r));
	return sizeof(r);
}

static size_t lock(void *buf, uint64_t ts, uint32_t cpu, uint32_t flags,
		   const char *name)
{
	struct ringtrace_lock_record r = { 0 };

	r.header.type = RINGTRACE_RECORD_LOCK;
	r.header.size = sizeof(r);
	task(&r.task, ts, cpu, "storm/\xe2\x82\xac");
	r.lock_id = flags & RINGTRACE_LOCK_KERNEL ? 0x1d2aa1950e93723bull : 2;
	r.wait_ns = 1500;
	r.hold_ns = flags & RINGTRACE_LOCK_KERNEL ? 0 : 250;
	r.flags = flags | RINGTRACE_LOCK_ID_HASHED;
	set_str(r.name, sizeof(r.name), name);
	memcpy(buf, &r, sizeof(r));
	return sizeof(r);
}

static size_t lost(void *buf, uint64_t ts, uint64_t n)
{
	struct ringtrace_lost_record r = { 0 };

	r.header.type = RINGTRACE_RECORD_LOST;
	r.header.size = sizeof(r);
	r.ts_ns = ts;
	r.lost = n;
	memcpy(buf, &r, sizeof(r));
	return sizeof(r);
}

/* record/: one byte of CPU, then the record. */
static void records(void)
{
	unsigned char buf[512];
	size_t n;

	buf[0] = 1;
	n = vfs_read(buf + 1, 1000, 1);
	put("record", "vfs_read", buf, n + 1);
	n = lock(buf + 1, 2000, 1, RINGTRACE_LOCK_CONTENDED, "lockstorm-0");
	put("record", "lock", buf, n + 1);
	n = lock(buf + 1, 3000, 1, RINGTRACE_LOCK_CONTENDED |
		 RINGTRACE_LOCK_KERNEL, "rwsem:R");
	put("record", "lock_kernel", buf, n + 1);
	n = lost(buf + 1, 4000, 12);
	put("record", "lost", buf, n + 1);
	n = vfs_read(buf + 1, 5000, 1);
	buf[1] = 99;				/* a type from a newer module */
	put("record", "unknown_type", buf, n + 1);
	put("record", "short", buf, 1 + 24);	/* cut inside the task */
}

/* perf_record/: u64 sample_type, a byte of sample_id_all, the record. */
static size_t perf_record(unsigned char *buf, uint64_t sample_type,
			  uint32_t type, const uint64_t *body, size_t words)
{
	struct perf_event_header h = {
		.type = type,
		.size = (uint16_t)(sizeof(h) + words * 8),
	};

	memcpy(buf, &sample_type, 8);
	buf[8] = 1;
	memcpy(buf + 9, &h, sizeof(h));
	memcpy(buf + 9 + sizeof(h), body, words * 8);
	return 9 + sizeof(h) + words * 8;
}

static void perf_records(void)
{
	const uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_IP;
	/* ip, pid|tid, time, cpu|res */
	const uint64_t sample[] = { 0x55d0c0ffee00ull, 1234ull | 1235ull << 32,
				    7000, 2 };
	/* ..., nr, 3 frames with a context marker */
	const uint64_t chain[] = { 0x55d0c0ffee00ull, 1234ull | 1235ull << 32,
				   7000, 2, 3, (uint64_t)-512,
				   0x55d0c0ffee00ull, 0x55d0c0ff0000ull };
	/* id, lost, then the sample_id trailer: pid|tid, time, cpu */
	const uint64_t lostp[] = { 1, 42, 1234ull | 1235ull << 32, 8000, 2 };
	/* pid|tid, "sha256sum" NUL-padded to 16, trailer */
	uint64_t comm[6] = { 1234ull | 1235ull << 32, 0, 0,
			     1234ull | 1235ull << 32, 6000, 2 };
	const uint64_t throttle[] = { 9000, 1, 1, 1234ull | 1235ull << 32,
				      9000, 2 };
	unsigned char buf[256];
	size_t n;

	n = perf_record(buf, st, PERF_RECORD_SAMPLE, sample, 4);
	put("perf_record", "sample", buf, n);
	n = perf_record(buf, st | PERF_SAMPLE_CALLCHAIN, PERF_RECORD_SAMPLE,
			chain, 8);
	put("perf_record", "sample_callchain", buf, n);
	n = perf_record(buf, st, PERF_RECORD_LOST, lostp, 5);
	put("perf_record", "lost", buf, n);
	memcpy(&comm[1], "sha256sum", 9);
	n = perf_record(buf, st, PERF_RECORD_COMM, comm, 6);
	put("perf_record", "comm", buf, n);
	n = perf_record(buf, st, PERF_RECORD_THROTTLE, throttle, 6);
	put("perf_record", "throttle", buf, n);
}

struct raw {
	unsigned char	buf[4096];
	size_t		len;
};

static void raw_append(struct raw *r, const void *p, size_t n)
{
	memcpy(r->buf + r->len, p, n);
	r->len += n;
}

static void raw_chunk(struct raw *r, uint32_t kind, uint32_t cpu,
		      const void *p, size_t n)
{
	struct rt_raw_chunk c = { .kind = kind, .cpu = cpu, .size = n };

	raw_append(r, &c, sizeof(c));
	raw_append(r, p, n);
}

static void raw_files(void)
{
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	unsigned char recs[1024];
	uint64_t pending = 3, junk = 42;
	struct raw r = { .len = 0 };
	size_t n;

	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	h.abi_version = RINGTRACE_ABI_VERSION;
	h.page_size = 4096;
	h.nr_cpu_ids = 2;
	h.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_LOCK;
	h.start_mono_ns = 1000;
	h.start_real_ns = 1700000000000000000ull;
	strcpy(h.module_version, "0.1.0");
	raw_append(&r, &h, sizeof(h));

	n = vfs_read(recs, 1000, 0);
	n += lock(recs + n, 2500, 0, RINGTRACE_LOCK_CONTENDED, "lockstorm-0");
	raw_chunk(&r, RT_RAW_CHUNK_RECORDS, 0, recs, n);
	n = vfs_read(recs, 2000, 1);
	n += lost(recs + n, 2100, 5);
	n += lock(recs + n, 3000, 1, RINGTRACE_LOCK_CONTENDED |
		  RINGTRACE_LOCK_KERNEL, "mutex");
	raw_chunk(&r, RT_RAW_CHUNK_RECORDS, 1, recs, n);
	raw_chunk(&r, 77, 0, &junk, sizeof(junk));	/* unknown: skipped */
	n = vfs_read(recs, 4000, 0);
	raw_chunk(&r, RT_RAW_CHUNK_RECORDS, 0, recs, n);
	raw_chunk(&r, RT_RAW_CHUNK_PENDING, 1, &pending, sizeof(pending));
	put("rawfile", "two_cpus", r.buf, r.len);
	put("rawfile", "cut_mid_record", r.buf, r.len - 40);
	put("rawfile", "header_only", r.buf, sizeof(h));
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_corpus DIR\n");
		return 2;
	}
	root = argv[1];
	if (mkdir(root, 0755) && errno != EEXIST) {
		perror(root);
		return 1;
	}
	records();
	perf_records();
	raw_files();
	return 0;
}
