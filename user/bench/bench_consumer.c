// SPDX-License-Identifier: GPL-2.0-only
/*
 * Consumer cost per record, from synthetic rings, for each output path:
 * raw (validate, then writev(2) straight from the ring: what
 * ringtrace-cat --raw does), rawcopy (validate + copy into the output
 * buffer, the path before that), text and JSON (merge + decode + print),
 * all written to /dev/null; and ringtrace-exporter's reader (merge +
 * decode + name the file + account in the metrics table), with the
 * memory its tables take after a million distinct files. Not a test:
 * `make -C user bench` prints records/s, ns/record and kilobytes.
 *
 * The producer fills 4 rings with interleaved timestamps (what 4 busy CPUs
 * produce), then the consumer drains them; only the drain is timed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ringtrace/barrier.h"
#include "ringtrace/merge.h"
#include "ringtrace/metrics.h"
#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/record.h"

#define NR_RINGS	4
#define RING_BYTES	(1u << 20)
#define PAGE		4096u
#define ROUNDS		20

struct ring {
	unsigned char			*base;
	struct ringtrace_mmap_page	*page;
	uint64_t			head;
};

static struct ring rings[NR_RINGS];
static struct rt_source srcs[NR_RINGS];	/* the consumer's side of each */

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The drain is timed in this thread's CPU time: the reader's cost, which
 * other load on the machine does not inflate the way it does wall time.
 */
static uint64_t cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* Fill every ring up to its tail, like the kernel would; returns records. */
static uint64_t produce(uint64_t *ts)
{
	static const char *comms[] = { "sha256sum", "tar", "bash", "kworker/u8:2" };
	struct ringtrace_vfs_read_record r;
	uint64_t n = 0;

	memset(&r, 0, sizeof(r));
	r.header.type = RINGTRACE_RECORD_VFS_READ;
	r.header.size = sizeof(r);
	for (;;) {
		bool wrote = false;

		for (int i = 0; i < NR_RINGS; i++) {
			struct ring *rg = &rings[i];
			uint64_t tail = rt_producer_load_tail(&rg->page->data_tail);

			if (rg->head + sizeof(r) - tail > RING_BYTES)
				continue;
			r.task.ts_ns = ++*ts;
			r.task.cpu = (uint32_t)i;
			r.task.pid = r.task.tid = 1000 + (uint32_t)(*ts % 97);
			strncpy(r.task.comm, comms[*ts % 4], sizeof(r.task.comm) - 1);
			r.dev_major = 8;
			r.dev_minor = 1;
			r.ino = 100000 + *ts % 5000;
			r.pos = (int64_t)(*ts * 4096 % 1000000);
			r.count = 4096;
			r.ret = 4096;
			r.lat_ns = 1000 + *ts % 100000;
			for (size_t k = 0; k < sizeof(r); k++)
				rg->base[PAGE + ((rg->head + k) & (RING_BYTES - 1))] =
					((unsigned char *)&r)[k];
			rg->head += sizeof(r);
			rt_producer_publish_head(&rg->page->data_head, rg->head);
			wrote = true;
			n++;
		}
		if (!wrote)
			return n;
	}
}

struct emit_ctx {
	rt_print_fn		print;
	struct rt_outbuf	*ob;
};

static int emit(void *arg, struct rt_source *src, const struct rt_record *rec,
		uint64_t ts)
{
	struct emit_ctx *c = arg;
	struct rt_event ev;

	(void)ts;
	if (rt_decode(rec->data, rec->size, src->cpu, &ev) == RT_DECODE_OK)
		c->print(c->ob, &ev);
	return 0;
}

/*
 * The raw path as ringtrace-cat --raw runs it: validate and count, then
 * the ring bytes go out from the mapping (@copy: through the buffer).
 */
static void drain_raw(struct rt_outbuf *ob, bool copy)
{
	struct rt_raw_batch b;

	rt_raw_batch_init(&b, ob);
	for (int i = 0; i < NR_RINGS; i++) {
		struct rt_ring *r = &srcs[i].ring;
		struct rt_record rec;
		uint64_t from, records = 0, n;

		rt_ring_refresh(r, NULL);
		from = r->pos;
		if (copy) {
			/* The path before rt_ring_skip_same(): a peek per record. */
			while (rt_ring_peek(r, &rec) == RT_RING_OK) {
				records += rec.type != RINGTRACE_RECORD_LOST;
				rt_ring_advance(r);
			}
		} else {
			/*
			 * Only vfs_read records of one header here: the first
			 * decoded, the run of the same header counted.
			 */
			while (rt_ring_peek(r, &rec) == RT_RING_OK) {
				struct rt_event ev;
				const void *hdr = rec.data;

				records += rt_decode(rec.data, rec.size,
						     srcs[i].cpu, &ev) ==
					   RT_DECODE_OK;
				rt_ring_advance(r);
				if (rt_ring_skip_same(r, hdr, &n) != RT_RING_OK) {
					records += n;
					break;
				}
				records += n;
			}
		}
		if (copy)
			rt_raw_write_ring(ob, srcs[i].cpu, r, from, r->pos);
		else
			rt_raw_batch_add_ring(&b, srcs[i].cpu, r, from, r->pos);
		srcs[i].counts.records += records;
	}
	rt_raw_batch_write(&b);
	for (int i = 0; i < NR_RINGS; i++)
		rt_ring_release(&srcs[i].ring);
}

/* Empty rings, their consumers at the start, merged by @m. */
static void rings_reset(struct rt_merge *m)
{
	for (int i = 0; i < NR_RINGS; i++) {
		memset(rings[i].base, 0, PAGE);
		rings[i].page->data_offset = PAGE;
		rings[i].page->data_size = RING_BYTES;
		rings[i].head = 0;
		rt_source_init(&srcs[i], (uint32_t)i);
		rt_ring_init_mmap(&srcs[i].ring, rings[i].base, PAGE + RING_BYTES,
				  PAGE, NULL, 0);
	}
	rt_merge_init(m, srcs, NR_RINGS, 0);
}

static void bench(const char *name, enum rt_format format, bool copy, int fd)
{
	struct rt_outbuf ob;
	struct rt_merge m;
	struct rt_merge_result res;
	struct emit_ctx ctx;
	uint64_t ts = 0, records = 0, ns = 0;

	rt_outbuf_init(&ob, fd, RT_OUTBUF_DEFAULT_SIZE);
	ctx.print = rt_printer(format);
	ctx.ob = &ob;
	rings_reset(&m);
	for (int round = 0; round < ROUNDS; round++) {
		uint64_t t0, n = produce(&ts);

		t0 = cpu_ns();
		if (format == RT_FORMAT_RAW)
			drain_raw(&ob, copy);
		else
			rt_merge_round(&m, 0, true, emit, &ctx, &res);
		rt_outbuf_flush(&ob);
		ns += cpu_ns() - t0;
		records += n;
	}
	printf("%-7s %10.1f Mrecords/s %8.1f ns/record %8.1f MB/s out\n", name,
	       (double)records * 1e3 / (double)ns, (double)ns / (double)records,
	       (double)ob.bytes * 1e3 / (double)ns);
	for (int i = 0; i < NR_RINGS; i++)
		rt_ring_fini(&srcs[i].ring);
	rt_merge_fini(&m);
	rt_outbuf_fini(&ob);
}

struct metrics_ctx {
	struct rt_paths		paths;
	struct rt_metrics	m;
};

/* The exporter's sink: what it does with each record (exporter.c). */
static int account(void *arg, struct rt_source *src,
		   const struct rt_record *rec, uint64_t ts)
{
	struct metrics_ctx *c = arg;
	struct rt_event ev;

	(void)ts;
	if (rt_decode(rec->data, rec->size, src->cpu, &ev) != RT_DECODE_OK)
		return 0;
	if (!rt_paths_take(&c->paths, &ev)) {
		rt_paths_name(&c->paths, &ev);
		rt_metrics_add(&c->m, &ev);
	}
	return 0;
}

/* ringtrace-exporter's reader on the same rings: CPU per record. */
static void bench_metrics(void)
{
	static struct metrics_ctx c;
	struct rt_merge m;
	struct rt_merge_result res;
	uint64_t ts = 0, records = 0, ns = 0;

	if (rt_paths_init(&c.paths) ||
	    rt_metrics_init(&c.m, RT_METRICS_DEFAULT_SERIES)) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	/* Every file named, as the path records before them would. */
	for (uint64_t ino = 100000; ino < 105000; ino++)
		rt_paths_set(&c.paths, 8, 1, ino, "/var/lib/data/file", 18);
	rings_reset(&m);
	for (int round = 0; round < ROUNDS; round++) {
		uint64_t t0, n = produce(&ts);

		t0 = cpu_ns();
		rt_merge_round(&m, 0, true, account, &c, &res);
		ns += cpu_ns() - t0;
		records += n;
	}
	printf("%-7s %10.1f Mrecords/s %8.1f ns/record (exporter's reader: "
	       "%u series)\n", "metrics", (double)records * 1e3 / (double)ns,
	       (double)ns / (double)records, c.m.nr_series);
	for (int i = 0; i < NR_RINGS; i++)
		rt_ring_fini(&srcs[i].ring);
	rt_merge_fini(&m);
	rt_metrics_fini(&c.m);
	rt_paths_fini(&c.paths);
}

/* The process's resident memory now, in KiB (/proc/self/statm). */
static long rss_kb(void)
{
	long size, pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &size, &pages) != 2)
			pages = 0;
		fclose(f);
	}
	return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

/*
 * A million distinct files, each named by its path record and read once,
 * through the exporter's tables: their memory is allocated once (the
 * file names' table and the series are bounded), so the process's peak
 * resident size is the same after the millionth file as after the first.
 */
static void bench_metrics_files(void)
{
	static struct metrics_ctx c;
	const uint64_t files = 1000000;
	char path[64];
	struct rt_event ev;
	long before, first, after;
	uint64_t t0, ns, named = 0;

	before = rss_kb();
	if (rt_paths_init(&c.paths) ||
	    rt_metrics_init(&c.m, RT_METRICS_DEFAULT_SERIES)) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	first = 0;
	t0 = cpu_ns();
	for (uint64_t i = 0; i < files; i++) {
		int len = snprintf(path, sizeof(path), "/srv/files/%02llu/f%07llu",
				   (unsigned long long)(i % 100),
				   (unsigned long long)i);
		struct rt_path_event pe = {
			.dev_major = 8, .dev_minor = 1, .ino = i + 1,
			.len = (uint16_t)len, .path = path,
		};

		rt_paths_add(&c.paths, &pe);
		memset(&ev, 0, sizeof(ev));
		ev.kind = RT_EVENT_VFS_READ;
		snprintf(ev.comm, sizeof(ev.comm), "worker%llu",
			 (unsigned long long)(i % 8));
		ev.u.vfs_read.dev_major = 8;
		ev.u.vfs_read.dev_minor = 1;
		ev.u.vfs_read.ino = i + 1;
		ev.u.vfs_read.ret = 4096;
		ev.u.vfs_read.lat_ns = 1000 + i % 100000;
		rt_paths_name(&c.paths, &ev);
		named += ev.u.vfs_read.path != NULL;
		rt_metrics_add(&c.m, &ev);
		if (i == 0)
			first = rss_kb();
	}
	ns = cpu_ns() - t0;
	after = rss_kb();
	printf("%-7s %llu distinct files: %.1f ns/file, resident %ld KiB "
	       "before the tables, %ld after the first file, %ld after the "
	       "last; %llu reads named, %u series, %u names kept\n", "files",
	       (unsigned long long)files, (double)ns / (double)files, before,
	       first, after, (unsigned long long)named, c.m.nr_series,
	       c.paths.nr);
	rt_metrics_fini(&c.m);
	rt_paths_fini(&c.paths);
}

/* What printing one vfs_read line with snprintf would cost, for scale. */
static void bench_snprintf(void)
{
	char line[512];
	uint64_t t0 = cpu_ns(), n = 2000000, sum = 0;

	for (uint64_t i = 0; i < n; i++)
		sum += (uint64_t)snprintf(line, sizeof(line),
			"%16s %7u/%-7u [%03u] %5llu.%09llu: vfs_read: dev=%u:%u "
			"ino=%llu pos=%lld count=%llu ret=%lld lat=%llu.%03lluus\n",
			"sha256sum", 1000u + (unsigned)(i % 97), 1000u, 1u,
			(unsigned long long)(i / 1000000000),
			(unsigned long long)(i % 1000000000), 8u, 1u,
			(unsigned long long)(100000 + i % 5000),
			(long long)(i * 4096 % 1000000), 4096ull, 4096ll,
			(unsigned long long)(i % 100000 / 1000),
			(unsigned long long)(i % 1000));
	printf("%-6s %10.1f Mlines/s   %8.1f ns/line (formatting only, %llu bytes)\n",
	       "printf", (double)n * 1e3 / (double)(cpu_ns() - t0),
	       (double)(cpu_ns() - t0) / (double)n, (unsigned long long)sum);
}

int main(void)
{
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0) {
		perror("/dev/null");
		return 1;
	}
	for (int i = 0; i < NR_RINGS; i++) {
		rings[i].base = aligned_alloc(PAGE, PAGE + RING_BYTES);
		rings[i].page = (struct ringtrace_mmap_page *)rings[i].base;
	}
	printf("consumer cost, %d rings of %u KiB, %zu-byte vfs_read records, "
	       "output to /dev/null, reader CPU time\n", NR_RINGS, RING_BYTES >> 10,
	       sizeof(struct ringtrace_vfs_read_record));
	bench("raw", RT_FORMAT_RAW, false, fd);
	bench("rawcopy", RT_FORMAT_RAW, true, fd);
	bench("json", RT_FORMAT_JSON, false, fd);
	bench("text", RT_FORMAT_TEXT, false, fd);
	bench_metrics();
	bench_metrics_files();
	bench_snprintf();
	return 0;
}
