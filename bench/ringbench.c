// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring protocol on the host, no VM: one producer thread that writes
 * records the way kmod/ring/ring.c does, one consumer thread on the other core
 * that reads them the way ringtrace-cat --raw does (the library's own
 * cursor, user/lib/ring/ring.c, and raw output path), and the physical limit
 * measured in the same run through the same buffer.
 *
 *   ringbench [-b BYTES_PER_CASE] [-r REPS] [-s SIZE,...] [-R RING_BYTES]
 *             [-p PRODUCER_CPU] [-c CONSUMER_CPU] [-B]
 *
 * -B: report the best of REPS runs instead of the median (another
 * process's load only ever slows a run down).
 *
 * Modes, for each record size:
 *
 *   watermark  the consumer sleeps in poll() on an eventfd that the
 *              producer signals each time data_head passes another
 *              watermark (half the ring, the kernel's default): what
 *              irq_work + poll() do. After a wake-up it drains everything,
 *              writes the raw chunk, releases data_tail once, flushes.
 *   spin       the same consumer, never sleeping: refresh, drain, release
 *              in a loop.
 *   limit      the same bytes (the same records, filled the same way)
 *              moved through the same buffer by a producer that publishes
 *              data_head once per 64 KiB and a consumer that copies what
 *              was published and publishes data_tail once per copy: no
 *              per-record protocol work on either side.
 *
 * Two more, to tell where the time goes:
 *
 *   producer   the kernel model alone: woken like the watermark consumer,
 *              the consumer hands everything published back at once
 *              (data_tail = data_head) without reading a record, so the
 *              rate is the producer's;
 *   copyfirst  the watermark consumer, but copying the published bytes
 *              to the output first and walking the headers afterwards,
 *              in the copy (validation unchanged, now on cache-hot data).
 *
 * The producer model (kmod/ring/ring.c, rt_ring_reserve() and rt_ring_commit()),
 * per record: nesting count up; lost_pending check; read data_tail (A) and
 * compute room; local cmpxchg of the private head; fill the record; count
 * records and bytes; then commit: re-read the head, (B) write barrier,
 * store data_head, store the four statistics of the control page, the
 * watermark check, nesting count down, re-check the head. The data area
 * is mapped twice back to back, as the kernel's vmap() of it is, so a
 * record that crosses the end is written in one piece.
 *
 * Where it differs from the kernel, and why:
 *  - a full ring makes the producer wait for room instead of dropping the
 *    record: we measure how fast records can go through without loss;
 *    the number of waits is reported ("full");
 *  - the wake-up is a write(2) to an eventfd, not irq_work_queue() (a
 *    self-IPI) followed by wake_up() in the IPI: one system call per
 *    watermark, i.e. one per several thousand records;
 *  - no preemption or interrupt control (nothing else writes the ring);
 *  - the record contents: a header, a sequence number where ts_ns goes,
 *    then a copy of a prepared payload, instead of the vfs_read fields
 *    (the same number of bytes stored).
 *
 * Output: one line per mode and size (median of REPS runs), then the
 * ratio of watermark and spin to the limit.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "ringtrace/barrier.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/ring.h"

#define PAGE		4096u
#define CHUNK		(64u << 10)	/* the limit's publication granularity */
#define MAX_SIZES	16
#define MAX_REPS	64

enum mode {
	MODE_COPYFIRST, MODE_PRODUCER,		/* diagnostics */
	MODE_WATERMARK, MODE_SPIN, MODE_LIMIT,
	NR_MODES
};
static const char *const mode_names[] = {
	"copyfirst", "producer", "watermark", "spin", "limit",
};

/* ---- the shared buffer: control page + data area mapped twice ---- */

static struct ringtrace_mmap_page *page;
static unsigned char *data;		/* first of the two views */
static uint64_t ring_size = 1u << 20;	/* ringtrace-cat's default */

static void map_ring(void)
{
	int fd = memfd_create("ringbench", 0);
	unsigned char *area;

	if (fd < 0 || ftruncate(fd, (off_t)ring_size)) {
		perror("ringbench: memfd");
		exit(1);
	}
	page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	area = mmap(NULL, 2 * ring_size, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED || area == MAP_FAILED ||
	    mmap(area, ring_size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED ||
	    mmap(area + ring_size, ring_size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
		perror("ringbench: mmap");
		exit(1);
	}
	close(fd);
	data = area;
	/* Touch every page once: no page faults in the timed runs. */
	memset(data, 0, ring_size);
}

/* ---- the producer's private state: struct rt_ring's fields ---- */

struct kring {
	unsigned long	head;		/* local_t: reserved so far */
	unsigned long	published;
	unsigned long	wakeup_head;
	unsigned long	watermark;
	unsigned long	lost_pending;	/* local_t */
	uint64_t	records;	/* local64_t */
	uint64_t	lost;		/* local64_t */
	uint64_t	bytes;		/* local64_t */
	unsigned int	nest;
};

static struct kring kr;
static int wake_fd;
static uint64_t wakeups;

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define barrier()		__asm__ __volatile__("" ::: "memory")

/*
 * Busy-wait step. Deliberately not PAUSE: on a virtual machine (this
 * project's reference machine is one) a loop of PAUSEs triggers the
 * hypervisor's pause-loop exiting, which deschedules the spinning vCPU
 * and turns a spin-wait into milliseconds of nothing.
 */
static inline void cpu_relax(void)
{
	barrier();
}

/* local_cmpxchg(): one CPU's data, so no lock prefix (as the kernel's). */
static inline unsigned long local_cmpxchg(unsigned long *p, unsigned long old,
					  unsigned long new)
{
#if defined(__x86_64__)
	unsigned long prev;

	__asm__ __volatile__("cmpxchgq %2, %1"
			     : "=a"(prev), "+m"(*p)
			     : "r"(new), "0"(old)
			     : "memory");
	return prev;
#else
	__atomic_compare_exchange_n(p, &old, new, false, __ATOMIC_RELAXED,
				    __ATOMIC_RELAXED);
	return old;
#endif
}

/* irq_work_queue() + the wake-up it runs. */
static void wake_reader(void)
{
	uint64_t one = 1;

	if (write(wake_fd, &one, sizeof(one)) != sizeof(one))
		perror("ringbench: eventfd");
	wakeups++;
}

/* rt_ring_commit() */
static void kring_commit(void)
{
	unsigned int nest = READ_ONCE(kr.nest);
	unsigned long head;

	if (nest > 1) {
		WRITE_ONCE(kr.nest, nest - 1);
		return;
	}
again:
	barrier();
	head = READ_ONCE(kr.head);
	/* (B) smp_wmb() + WRITE_ONCE(data_head), pairs with (C). */
	rt_producer_publish_head(&page->data_head, head);
	kr.published = head;
	WRITE_ONCE(page->records, READ_ONCE(kr.records));
	WRITE_ONCE(page->lost, READ_ONCE(kr.lost));
	WRITE_ONCE(page->bytes, READ_ONCE(kr.bytes));
	WRITE_ONCE(page->lost_pending, READ_ONCE(kr.lost_pending));
	if (__builtin_expect(head - kr.wakeup_head >= kr.watermark, 0)) {
		kr.wakeup_head = head;
		wake_reader();
	}
	barrier();
	WRITE_ONCE(kr.nest, 0);
	barrier();
	if (__builtin_expect(head != READ_ONCE(kr.head), 0)) {
		WRITE_ONCE(kr.nest, 1);
		goto again;
	}
}

/* rt_ring_has_room(): data_tail is the reader's, untrusted. */
static inline bool kring_has_room(unsigned long head, unsigned long bytes)
{
	/* LOAD data_tail, then (A) the control dependency; pairs with (D). */
	unsigned long used = head - rt_producer_load_tail(&page->data_tail);

	return used <= ring_size && ring_size - used >= bytes;
}

static uint64_t full_waits;

/* rt_ring_reserve(), waiting for room where the kernel would drop. */
static void *kring_reserve(unsigned int size)
{
	const unsigned int lost_size = sizeof(struct ringtrace_lost_record);
	unsigned long offset, head, total;
	bool have_lost;

	WRITE_ONCE(kr.nest, READ_ONCE(kr.nest) + 1);
	barrier();
	have_lost = READ_ONCE(kr.lost_pending) != 0;
	total = size + (have_lost ? lost_size : 0);
	do {
		offset = READ_ONCE(kr.head);
		while (__builtin_expect(!kring_has_room(offset, total), 0)) {
			full_waits++;
			cpu_relax();
		}
		head = offset + total;
	} while (local_cmpxchg(&kr.head, offset, head) != offset);
	kr.records++;
	kr.bytes += total;
	return data + (offset & (ring_size - 1));
}

/* ---- one run ---- */

struct run {
	enum mode	mode;
	unsigned int	size;		/* record bytes */
	uint64_t	nr;		/* records to move */
	/* results */
	double		seconds;
	uint64_t	consumed;
	uint64_t	errors;		/* records out of sequence */
	uint64_t	wakeups;
	uint64_t	full_waits;
	uint64_t	loops;		/* consumer iterations */
};

static int producer_cpu = 0, consumer_cpu = 1;
static unsigned char template_rec[PAGE];	/* a record's payload */
static volatile int go, done;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		fprintf(stderr, "ringbench: cannot pin to CPU %d\n", cpu);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void fill_record(unsigned char *rec, unsigned int size, uint64_t seq)
{
	struct ringtrace_event_header h = {
		.type = RINGTRACE_RECORD_VFS_READ, .size = (uint16_t)size,
	};

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &seq, sizeof(seq));
	memcpy(rec + 16, template_rec, size - 16);
}

static void *producer(void *arg)
{
	struct run *r = arg;

	pin(producer_cpu);
	while (!go)
		cpu_relax();
	if (r->mode == MODE_LIMIT) {
		/* Whole records per chunk, filled the same way, one publish. */
		uint64_t per_chunk = CHUNK / r->size, head = 0, seq = 0;

		while (seq < r->nr) {
			uint64_t n = r->nr - seq < per_chunk ? r->nr - seq : per_chunk;
			uint64_t bytes = n * r->size;

			while (head + bytes - rt_producer_load_tail(&page->data_tail) >
			       ring_size) {
				full_waits++;
				cpu_relax();
			}
			for (uint64_t i = 0; i < n; i++, seq++, head += r->size)
				fill_record(data + (head & (ring_size - 1)), r->size,
					    seq);
			rt_producer_publish_head(&page->data_head, head);
		}
	} else {
		for (uint64_t seq = 0; seq < r->nr; seq++) {
			unsigned char *rec = kring_reserve(r->size);

			fill_record(rec, r->size, seq);
			kring_commit();
		}
	}
	done = 1;
	wake_reader();		/* DISABLE wakes the reader to drain */
	return NULL;
}

/* Validate and count what the cursor hands out; ringtrace-cat --raw does. */
static void drain(struct rt_ring *ring, struct rt_outbuf *ob, struct run *r)
{
	struct rt_record rec;
	uint64_t from;

	rt_ring_refresh(ring, NULL);			/* (C) */
	from = ring->pos;
	while (rt_ring_peek(ring, &rec) == RT_RING_OK) {
		uint64_t seq;

		memcpy(&seq, (const unsigned char *)rec.data + 8, sizeof(seq));
		r->errors += seq != r->consumed;
		r->consumed++;
		rt_ring_advance(ring);
	}
	rt_raw_write_ring(ob, 0, ring, from, ring->pos);
	rt_ring_release(ring);				/* (D) */
}

/*
 * The same work in the other order: one bulk copy of everything published
 * (data_head only ever covers whole records), then the header walk, which
 * now reads lines the copy just brought into this core's cache. A record
 * that fails validation would cut the chunk back to the last good record.
 */
static void drain_copy_first(struct rt_ring *ring, struct rt_outbuf *ob,
			     struct run *r)
{
	struct rt_record rec;
	uint64_t from;

	rt_ring_refresh(ring, NULL);			/* (C) */
	from = ring->pos;
	rt_raw_write_ring(ob, 0, ring, from, ring->head_seen);
	while (rt_ring_peek(ring, &rec) == RT_RING_OK) {
		uint64_t seq;

		memcpy(&seq, (const unsigned char *)rec.data + 8, sizeof(seq));
		r->errors += seq != r->consumed;
		r->consumed++;
		rt_ring_advance(ring);
	}
	rt_ring_release(ring);				/* (D) */
}

static void consume(struct run *r, struct rt_outbuf *ob)
{
	struct rt_ring ring;
	struct pollfd pfd = { .fd = wake_fd, .events = POLLIN };
	uint64_t total = r->nr * r->size, tail = 0, counter;

	if (r->mode == MODE_LIMIT) {
		while (tail < total) {
			uint64_t head = rt_load_head_acquire(&page->data_head);
			uint64_t n = head - tail, off = tail & (ring_size - 1);

			if (!n) {
				cpu_relax();
				continue;
			}
			if (n > ring_size - off)
				n = ring_size - off;	/* no wrap in one copy */
			rt_outbuf_append(ob, data + off, n);
			tail += n;
			rt_store_tail_release(&page->data_tail, tail);
			r->loops++;
		}
		r->consumed = r->nr;
		return;
	}
	if (r->mode == MODE_PRODUCER) {
		while (tail < total) {
			if (poll(&pfd, 1, 100) == 1 &&
			    read(wake_fd, &counter, sizeof(counter)) < 0)
				perror("ringbench: eventfd");
			tail = rt_load_head_acquire(&page->data_head);
			rt_store_tail_release(&page->data_tail, tail);
			r->loops++;
		}
		r->consumed = r->nr;
		return;
	}
	if (rt_ring_init(&ring, &page->data_head, &page->data_tail, data,
			 ring_size, NULL, 0)) {
		fprintf(stderr, "ringbench: rt_ring_init failed\n");
		exit(1);
	}
	while (r->consumed < r->nr) {
		if (r->mode == MODE_WATERMARK || r->mode == MODE_COPYFIRST) {
			/* poll(), as ringtrace-cat's epoll_pwait() on the fd */
			if (poll(&pfd, 1, 100) == 1 &&
			    read(wake_fd, &counter, sizeof(counter)) < 0)
				perror("ringbench: eventfd");
		} else if (rt_load_head_acquire(&page->data_head) == ring.pos) {
			cpu_relax();
			continue;
		}
		if (r->mode == MODE_COPYFIRST)
			drain_copy_first(&ring, ob, r);
		else
			drain(&ring, ob, r);
		if (r->mode != MODE_SPIN)
			rt_outbuf_flush(ob);		/* once per wake-up */
		r->loops++;
		if (ring.error) {
			fprintf(stderr, "ringbench: %s\n",
				rt_ring_strerror(ring.error));
			exit(1);
		}
	}
	rt_ring_fini(&ring);
}

static void run_once(struct run *r, struct rt_outbuf *ob)
{
	pthread_t t;
	uint64_t t0, counter;

	/* A fresh ring: both counters at zero, the kernel's state too. */
	memset(page, 0, PAGE);
	page->data_offset = PAGE;
	page->data_size = ring_size;
	memset(&kr, 0, sizeof(kr));
	kr.watermark = ring_size / 2;
	full_waits = wakeups = 0;
	while (read(wake_fd, &counter, sizeof(counter)) > 0)
		;
	go = done = 0;
	r->consumed = r->errors = r->loops = 0;
	if (pthread_create(&t, NULL, producer, r)) {
		perror("ringbench: pthread_create");
		exit(1);
	}
	t0 = now_ns();
	go = 1;
	consume(r, ob);
	rt_outbuf_flush(ob);
	r->seconds = (double)(now_ns() - t0) / 1e9;
	pthread_join(t, NULL);
	r->wakeups = wakeups;
	r->full_waits = full_waits;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	return (x->seconds > y->seconds) - (x->seconds < y->seconds);
}

/* "256M", "1G", "65536": powers of 1024. */
static uint64_t size_arg(const char *arg)
{
	char *end;
	uint64_t v = strtoull(arg, &end, 0);

	switch (*end) {
	case 'G': case 'g': v <<= 10;	/* fall through */
	case 'M': case 'm': v <<= 10;	/* fall through */
	case 'K': case 'k': v <<= 10; end++; break;
	}
	return *end ? 0 : v;
}

static void usage(void)
{
	fprintf(stderr, "usage: ringbench [-b BYTES_PER_CASE] [-r REPS] "
		"[-s SIZE,...] [-R RING_BYTES] [-p CPU] [-c CPU]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int sizes[MAX_SIZES] = { 32, 64, 96, 128, 256, 512 };
	int nsizes = 6, reps = 5, c;
	bool best = false;
	uint64_t bytes_per_case = 256u << 20;
	struct rt_outbuf ob;
	char *s, *end;
	int devnull;

	while ((c = getopt(argc, argv, "b:r:s:R:p:c:B")) != -1) {
		switch (c) {
		case 'B':
			best = true;
			break;
		case 'b':
			bytes_per_case = size_arg(optarg);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 's':
			nsizes = 0;
			for (s = optarg; *s && nsizes < MAX_SIZES; s = end + (*end == ',')) {
				sizes[nsizes++] = (unsigned int)strtoul(s, &end, 10);
				if (end == s)
					usage();
			}
			break;
		case 'R':
			ring_size = size_arg(optarg);
			break;
		case 'p':
			producer_cpu = atoi(optarg);
			break;
		case 'c':
			consumer_cpu = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (reps < 1 || reps > MAX_REPS || !bytes_per_case || optind != argc ||
	    ring_size < 2 * CHUNK || (ring_size & (ring_size - 1)) ||
	    ring_size % PAGE)
		usage();
	for (int i = 0; i < nsizes; i++)
		if (sizes[i] < 16 || sizes[i] > PAGE || sizes[i] % 8)
			usage();

	map_ring();
	wake_fd = eventfd(0, EFD_NONBLOCK);
	devnull = open("/dev/null", O_WRONLY);
	if (wake_fd < 0 || devnull < 0) {
		perror("ringbench");
		return 1;
	}
	for (unsigned int i = 0; i < sizeof(template_rec); i++)
		template_rec[i] = (unsigned char)(i * 7 + 1);
	rt_outbuf_init(&ob, devnull, RT_OUTBUF_DEFAULT_SIZE);
	pin(consumer_cpu);

	printf("ring protocol, host: producer on CPU %d (kmod/ring/ring.c model), "
	       "consumer on CPU %d (user/lib/ring/ring.c + raw output to /dev/null)\n",
	       producer_cpu, consumer_cpu);
	printf("ring %llu KiB, watermark %llu KiB, %llu MiB per run, %d runs "
	       "per mode, modes interleaved; records/s: the %s run; x limit: "
	       "median of the per-run ratios to the limit\n",
	       (unsigned long long)ring_size >> 10,
	       (unsigned long long)ring_size >> 11,
	       (unsigned long long)bytes_per_case >> 20, reps,
	       best ? "best" : "median");
	printf("%-10s %5s %12s %10s %8s %9s %9s %8s %7s\n", "mode", "size",
	       "records/s", "MB/s", "x limit", "wake-ups", "full", "loops",
	       "errors");
	for (int si = 0; si < nsizes; si++) {
		unsigned int size = sizes[si];

		struct run runs[NR_MODES][MAX_REPS];

		/* Modes interleaved, so that they all see the same host load. */
		for (int k = 0; k < reps; k++) {
			for (int m = NR_MODES - 1; m >= 0; m--) {
				runs[m][k] = (struct run){
					.mode = (enum mode)m, .size = size,
					.nr = bytes_per_case / size,
				};
				run_once(&runs[m][k], &ob);
			}
		}
		for (int m = NR_MODES - 1; m >= 0; m--) {
			double ratio[MAX_REPS], rate;
			struct run *med;

			/*
			 * x limit: the median over repetitions of this mode's
			 * rate over the limit's rate in the same repetition
			 * (taken a few milliseconds apart, so under the same
			 * host load and vCPU placement).
			 */
			for (int k = 0; k < reps; k++)
				ratio[k] = runs[MODE_LIMIT][k].seconds /
					   runs[m][k].seconds;
			qsort(ratio, (size_t)reps, sizeof(ratio[0]), cmp_double);
			qsort(runs[m], (size_t)reps, sizeof(runs[m][0]), cmp_run);
			med = best ? &runs[m][0] : &runs[m][reps / 2];
			rate = (double)med->nr / med->seconds;
			if (m == MODE_PRODUCER)
				printf("  (diagnostics)\n");
			printf("%-10s %5u %12.0f %10.1f %8.2f %9llu %9llu %8llu %7llu\n",
			       mode_names[m], size, rate, rate * size / 1e6,
			       ratio[reps / 2],
			       (unsigned long long)med->wakeups,
			       (unsigned long long)med->full_waits,
			       (unsigned long long)med->loops,
			       (unsigned long long)med->errors);
			fflush(stdout);
		}
	}
	rt_outbuf_fini(&ob);
	return 0;
}
