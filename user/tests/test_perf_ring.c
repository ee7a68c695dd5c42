// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's own ring through the common cursor: the decoder on synthetic
 * perf records (samples with and without callchain, LOST and COMM with a
 * sample_id trailer, records to skip, unknown and truncated ones), record
 * timestamps, and the sampler through the mocked seam: the attr asked for
 * (use_clockid/CLOCK_MONOTONIC, sample_type, sample_id_all, freq, comm,
 * PERF_FORMAT_LOST), one mapping per CPU (SET_OUTPUT for more threads),
 * records wrapping the ring's end read whole, LOST reported with the
 * kernel's own count, names from COMM records, and the fallbacks.
 */
#include <errno.h>
#include <time.h>

#include "test.h"

#include "ringtrace/merge.h"
#include "ringtrace/perf_ring.h"
#include "ringtrace/record.h"
#include "ringtrace/sys.h"
#include "fake_perf.h"

#define ST	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
		 PERF_SAMPLE_IP)

static int setup(void **state)
{
	(void)state;
	fake_perf_install();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_perf_remove();
	return 0;
}

static void test_format(void **state)
{
	struct rt_perf_format f;

	(void)state;
	assert_int_equal(rt_perf_format_init(&f, ST, true, "cpu-clock"), 0);
	assert_int_equal(f.time_off, 8 + 8 + 8);	/* header, ip, tid */
	assert_int_equal(f.id_len, 24);			/* tid, time, cpu */
	assert_int_equal(f.id_tid_off, 0);
	assert_int_equal(f.id_time_off, 8);
	assert_int_equal(f.id_cpu_off, 16);
	assert_int_equal(rt_perf_format_init(&f, ST | PERF_SAMPLE_IDENTIFIER |
					     PERF_SAMPLE_ID, true, "x"), 0);
	assert_int_equal(f.time_off, 32);
	assert_int_equal(f.id_cpu_off, 24);
	assert_int_equal(f.id_len, 40);
	/* READ is variable-sized and sits before the callchain: refused. */
	assert_int_equal(rt_perf_format_init(&f, ST | PERF_SAMPLE_READ, true,
					     "x"), -EINVAL);
	assert_int_equal(rt_perf_format_init(&f, ST | PERF_SAMPLE_RAW, true,
					     "x"), -EINVAL);
}

static void test_decode_sample(void **state)
{
	static const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_KERNEL,
					  0xffffffff81000010ull,
					  0xffffffff81000020ull,
					  (uint64_t)PERF_CONTEXT_USER, 0x401000 };
	unsigned char rec[256];
	struct rt_perf_format f;
	struct rt_event ev;
	size_t n;

	(void)state;
	rt_perf_format_init(&f, ST, true, "cpu-clock");
	n = fake_perf_sample(rec, ST, 0xffffffff81234567ull, 10, 11,
			     5000000001ull, 3, NULL, 0);
	assert_int_equal(n, 40);
	assert_int_equal(rt_decode_perf(&f, rec, n, 9, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_SAMPLE);
	assert_int_equal(ev.raw_type, PERF_RECORD_SAMPLE);
	assert_int_equal(ev.ts_ns, 5000000001ull);
	assert_int_equal(ev.cpu, 3);		/* the sample's, not the ring's */
	assert_int_equal(ev.pid, 10);
	assert_int_equal(ev.tid, 11);
	assert_int_equal(ev.u.sample.ip, 0xffffffff81234567ull);
	assert_string_equal(ev.u.sample.event, "cpu-clock");
	assert_null(ev.u.sample.frames);
	assert_int_equal(rt_perf_record_ts(&f, rec, n), 5000000001ull);

	rt_perf_format_init(&f, ST | PERF_SAMPLE_CALLCHAIN, true, "task-clock");
	n = fake_perf_sample(rec, ST | PERF_SAMPLE_CALLCHAIN, 0x401000, 1, 2,
			     7, 0, chain, 5);
	assert_int_equal(n, 40 + 8 + 5 * 8);
	assert_int_equal(rt_decode_perf(&f, rec, n, 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.u.sample.nr_frames, 5);
	for (uint32_t i = 0; i < 5; i++)
		assert_int_equal(rt_sample_frame(&ev.u.sample, i), chain[i]);

	/* Truncated: a field, or a callchain longer than the record. */
	assert_int_equal(rt_decode_perf(&f, rec, 24, 0, &ev), RT_DECODE_ERR_SHORT);
	assert_int_equal(rt_decode_perf(&f, rec, n - 8, 0, &ev),
			 RT_DECODE_ERR_SHORT);
	memset(rec + 40, 0xff, 8);			/* nr = 2^64 - 1 */
	assert_int_equal(rt_decode_perf(&f, rec, n, 0, &ev), RT_DECODE_ERR_SHORT);
	assert_int_equal(rt_decode_perf(&f, rec, 4, 0, &ev), RT_DECODE_ERR_SHORT);
}

/*
 * Perf's user walk repeats a frame whose frame pointer points
 * at itself up to its depth; the chain is cut to one copy of it, and the
 * cut is counted (a recursion's repeats that end earlier are kept).
 */
static void test_decode_fp_loop(void **state)
{
	uint64_t chain[40];
	unsigned char rec[512];
	struct rt_perf_format f;
	struct rt_source src;
	struct rt_event ev;
	size_t n;

	(void)state;
	rt_perf_format_init(&f, ST | PERF_SAMPLE_CALLCHAIN, true, "cpu-clock");
	chain[0] = (uint64_t)PERF_CONTEXT_USER;
	chain[1] = 0x401000;
	for (int i = 2; i < 40; i++)
		chain[i] = 0x402000;		/* the looping frame */
	n = fake_perf_sample(rec, ST | PERF_SAMPLE_CALLCHAIN, 0x401000, 1, 1,
			     7, 0, chain, 40);
	assert_int_equal(rt_decode_perf(&f, rec, n, 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.u.sample.nr_frames, 3);
	assert_true(ev.u.sample.fp_loop);
	assert_int_equal(rt_sample_frame(&ev.u.sample, 2), 0x402000);
	rt_source_init(&src, 0);
	rt_source_count(&src, RT_DECODE_OK, &ev);
	assert_int_equal(src.counts.samples, 1);
	assert_int_equal(src.counts.fp_loops, 1);

	/* Fewer repeats than RT_FP_LOOP_RUN, or not at the end: kept. */
	chain[RT_FP_LOOP_RUN] = 0x400800;
	n = fake_perf_sample(rec, ST | PERF_SAMPLE_CALLCHAIN, 0x401000, 1, 1,
			     7, 0, chain, RT_FP_LOOP_RUN + 1);
	assert_int_equal(rt_decode_perf(&f, rec, n, 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.u.sample.nr_frames, RT_FP_LOOP_RUN + 1);
	assert_false(ev.u.sample.fp_loop);
}

static void test_decode_lost_comm_other(void **state)
{
	struct perf_event_header h = { .type = PERF_RECORD_THROTTLE, .size = 48 };
	unsigned char rec[128];
	struct rt_perf_format f;
	struct rt_event ev;
	size_t n;

	(void)state;
	rt_perf_format_init(&f, ST, true, "cpu-clock");
	n = fake_perf_lost(rec, 17, 9000, 1);
	assert_int_equal(n, 8 + 16 + 24);
	assert_int_equal(rt_decode_perf(&f, rec, n, 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_LOST);
	assert_int_equal(ev.u.lost.count, 17);
	assert_string_equal(ev.u.lost.source, "perf");
	assert_int_equal(ev.ts_ns, 9000);	/* from the trailer */
	assert_int_equal(ev.cpu, 1);
	assert_int_equal(ev.pid, 0);		/* a loss has no task */
	assert_int_equal(rt_perf_record_ts(&f, rec, n), 9000);
	assert_int_equal(rt_decode_perf(&f, rec, n - 8, 0, &ev),
			 RT_DECODE_ERR_SHORT);

	n = fake_perf_comm(rec, 5, 6, "sha256sum", 9100, 0);
	assert_int_equal(rt_decode_perf(&f, rec, n, 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_COMM);
	assert_int_equal(ev.tid, 6);
	assert_string_equal(ev.comm, "sha256sum");
	assert_int_equal(ev.ts_ns, 9100);

	/* Known perf records we do not print are skipped, not "unknown". */
	memset(rec, 0, sizeof(rec));
	memcpy(rec, &h, sizeof(h));
	assert_int_equal(rt_decode_perf(&f, rec, 48, 0, &ev), RT_DECODE_SKIP);
	h.type = 200;
	memcpy(rec, &h, sizeof(h));
	assert_int_equal(rt_decode_perf(&f, rec, 48, 0, &ev), RT_DECODE_UNKNOWN);
}

/* MMAP2: the mapping, its file, its build-id when the kernel gave one. */
static void test_decode_mmap2(void **state)
{
	static const uint8_t id[20] = { 0xab, 0xcd, 1, 2, 3 };
	unsigned char rec[256];
	struct rt_perf_format f;
	struct rt_event ev;
	size_t n;

	(void)state;
	rt_perf_format_init(&f, ST, true, "cpu-clock");
	n = fake_perf_mmap2(rec, 40, 41, 0x555500001000ull, 0x3000, 0x1000,
			    "/usr/bin/tar", id, 20, 9200, 1);
	assert_int_equal(rt_decode_perf(&f, rec, n, 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_MMAP);
	assert_int_equal(ev.pid, 40);
	assert_int_equal(ev.tid, 41);
	assert_int_equal(ev.u.mmap.start, 0x555500001000ull);
	assert_int_equal(ev.u.mmap.len, 0x3000);
	assert_int_equal(ev.u.mmap.pgoff, 0x1000);
	assert_string_equal(ev.u.mmap.path, "/usr/bin/tar");
	assert_int_equal(ev.u.mmap.build_id_len, 20);
	assert_memory_equal(ev.u.mmap.build_id, id, 20);
	assert_int_equal(ev.ts_ns, 9200);
	assert_int_equal(ev.cpu, 1);
	/* Without the build-id bit: device and inode, no id. */
	n = fake_perf_mmap2(rec, 40, 41, 0x1000, 0x1000, 0, "/lib/x.so", NULL,
			    0, 9300, 0);
	assert_int_equal(rt_decode_perf(&f, rec, n, 0, &ev), RT_DECODE_OK);
	assert_null(ev.u.mmap.build_id);
	assert_int_equal(ev.u.mmap.build_id_len, 0);
	/* Cut into the fixed part, or a name that does not end inside. */
	assert_int_equal(rt_decode_perf(&f, rec, 64, 0, &ev),
			 RT_DECODE_ERR_SHORT);
	memset(rec + 8 + 8 + 24 + 24 + 8, 'x', n - (8 + 8 + 24 + 24 + 8));
	assert_int_equal(rt_decode_perf(&f, rec, n, 0, &ev),
			 RT_DECODE_ERR_SHORT);
}

static void open_cpus(struct rt_perf_sampler *ps, const char *arg,
		      uint64_t buffer, struct rt_cpuset *cpus, bool callchain)
{
	struct rt_perf_target t = { .per_cpu = true, .cpus = cpus, .pid = -1 };
	struct rt_perf_sample_spec spec;
	char err[256];

	rt_cpuset_clear(cpus);
	rt_cpuset_add(cpus, 0);
	rt_cpuset_add(cpus, 1);
	assert_int_equal(rt_perf_sample_parse(arg, &spec, err, sizeof(err)), 0);
	spec.buffer_bytes = buffer;
	spec.callchain = callchain;
	assert_int_equal(rt_perf_sampler_open(ps, &spec, &t, FAKE_PAGE), 0);
}

static void test_parse_spec(void **state)
{
	struct rt_perf_sample_spec spec;
	char err[256];

	(void)state;
	assert_int_equal(rt_perf_sample_parse("cpu-clock:4000", &spec, err,
					      sizeof(err)), 0);
	assert_int_equal(spec.freq, 4000);
	assert_string_equal(spec.desc->name, "cpu-clock");
	assert_int_equal(rt_perf_sample_parse("task-clock", &spec, err,
					      sizeof(err)), 0);
	assert_int_equal(spec.freq, RT_PERF_DEFAULT_FREQ);
	assert_int_equal(rt_perf_sample_parse("page-faults:10", &spec, err,
					      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "sampling events: task-clock, cpu-clock"));
	assert_int_equal(rt_perf_sample_parse("cpu-clock:0", &spec, err,
					      sizeof(err)), -EINVAL);
	assert_int_equal(rt_perf_sample_parse("cpu-clock:12x", &spec, err,
					      sizeof(err)), -EINVAL);
}

/* What the kernel is asked for, per CPU. */
static void test_sampler_attr(void **state)
{
	struct rt_perf_sampler ps;
	struct rt_cpuset cpus;

	(void)state;
	open_cpus(&ps, "cpu-clock:4000", 2 * FAKE_PAGE, &cpus, false);
	assert_int_equal(fp.nr, 2);
	assert_int_equal(ps.nr_rings, 2);
	for (int i = 0; i < 2; i++) {
		const struct perf_event_attr *a = &fp.ev[i].attr;

		assert_int_equal(fp.ev[i].pid, -1);
		assert_int_equal(fp.ev[i].cpu, i);
		assert_int_equal(a->type, PERF_TYPE_SOFTWARE);
		assert_int_equal(a->config, PERF_COUNT_SW_CPU_CLOCK);
		assert_int_equal(a->freq, 1);
		assert_int_equal(a->sample_freq, 4000);
		assert_int_equal(a->sample_type, ST);
		assert_int_equal(a->sample_id_all, 1);
		assert_int_equal(a->use_clockid, 1);
		assert_int_equal(a->clockid, CLOCK_MONOTONIC);
		assert_int_equal(a->comm, 1);
		assert_int_equal(a->comm_exec, 1);
		assert_int_equal(a->task, 1);		/* FORK records */
		/* MMAP2 tracking is for raw files only (track_mmaps). */
		assert_int_equal(a->mmap, 0);
		assert_int_equal(a->mmap2, 0);
		assert_int_equal(a->build_id, 0);
		assert_int_equal(a->disabled, 1);
		assert_int_equal(a->inherit, 0);
		assert_int_equal(a->read_format, PERF_FORMAT_LOST);
		assert_int_equal(a->watermark, 1);
		assert_int_equal(a->wakeup_watermark, FAKE_PAGE / 2);
		assert_true(fp.ev[i].mapped);
		assert_int_equal(fp.ev[i].ring.map_len, 3 * FAKE_PAGE);
		assert_int_equal(ps.srcs[i].cpu, (uint32_t)i);
		assert_ptr_equal(ps.srcs[i].ring.data, fp.ev[i].ring.data);
	}
	assert_int_equal(rt_perf_sampler_watch(&ps, 8), 0);
	assert_int_equal(fp.epoll_adds, 2);
	rt_perf_sampler_enable(&ps);
	assert_int_equal(fp.ev[0].enables + fp.ev[1].enables, 2);
	rt_perf_sampler_close(&ps);
	assert_false(fp.ev[0].mapped);
	assert_true(fp.ev[1].closed);
}

struct seen {
	struct rt_event	ev[32];		/* the first 32 */
	uint64_t	ts[32];
	struct rt_event	last;
	unsigned int	n;
	unsigned int	skipped;
};

static int collect(void *arg, struct rt_source *src,
		   const struct rt_record *rec, uint64_t ts)
{
	struct seen *s = arg;
	int ret = rt_source_decode(src, rec, &s->last);

	if (ret == RT_DECODE_SKIP) {
		s->skipped++;
		return 0;
	}
	assert_int_equal(ret, RT_DECODE_OK);
	if (s->n < 32) {
		s->ev[s->n] = s->last;
		s->ts[s->n] = ts;
	}
	s->n++;
	return 0;
}

static void write_rec(int ev, const void *rec, size_t n)
{
	assert_true(fake_ring_write(&fp.ev[ev].ring, rec, n));
}

/*
 * Two perf rings and a ringtrace ring, merged by time. The first ring is
 * one page: its records wrap the end and come out whole; it also reports
 * a loss, and names a thread before sampling it.
 */
static void test_rings_merged(void **state)
{
	static const uint64_t chain[] = { 0x401000, 0x402000, 0x403000 };
	struct rt_perf_sampler ps;
	struct rt_cpuset cpus;
	struct fake_ring rt;
	struct rt_source rt_src;
	struct rt_merge m;
	struct rt_merge_result res;
	struct seen *s = calloc(1, sizeof(*s));
	unsigned char rec[256];
	uint64_t ts = 1000;
	size_t n;

	(void)state;
	open_cpus(&ps, "cpu-clock:1000", FAKE_PAGE, &cpus, true);
	rt_comm_set(ps.comms, 7, "before");
	fake_ring_init(&rt, 4096, 0);
	rt_source_init(&rt_src, 0);
	assert_int_equal(rt_ring_init_mmap(&rt_src.ring, rt.base, rt.map_len,
					   FAKE_PAGE, NULL, 0), 0);
	assert_int_equal(rt_merge_init(&m, &rt_src, 1, 0), 0);
	assert_int_equal(rt_merge_add(&m, ps.srcs, ps.nr_rings), 0);

	/* Fill CPU 0's 4 KiB ring close to its end (84 x 48), and consume. */
	for (int i = 0; i < 84; i++) {
		n = fake_perf_sample(rec, ST | PERF_SAMPLE_CALLCHAIN, 0x1000, 7,
				     7, ts++, 0, NULL, 0);
		write_rec(0, rec, n);
	}
	rt_merge_round(&m, 0, true, collect, s, &res);
	assert_int_equal(res.emitted, 84);
	assert_int_equal(fp.ev[0].ring.page->data_tail, 4032);
	assert_int_equal(s->n, 84);
	assert_string_equal(s->last.comm, "before");
	assert_null(s->last.u.sample.frames);	/* an empty chain */
	s->n = 0;

	/* 4032 + 48 (COMM) = 4080: the next sample straddles 4096. */
	n = fake_perf_comm(rec, 7, 7, "after", 2000, 0);
	assert_int_equal(n, 48);
	write_rec(0, rec, n);
	n = fake_perf_sample(rec, ST | PERF_SAMPLE_CALLCHAIN, 0x401000, 7, 7,
			     2002, 0, chain, 3);
	write_rec(0, rec, n);
	assert_true(fp.ev[0].ring.head % 4096 < n);	/* it did wrap */
	n = fake_perf_lost(rec, 5, 2003, 0);
	write_rec(0, rec, n);

	n = fake_perf_sample(rec, ST | PERF_SAMPLE_CALLCHAIN, 0x2000, 8, 9,
			     2001, 1, NULL, 0);
	write_rec(1, rec, n);
	assert_true(fake_ring_vfs_read(&rt, 2002));	/* tie: ringtrace first */

	rt_merge_round(&m, 0, true, collect, s, &res);
	assert_int_equal(res.error, 0);
	assert_int_equal(s->skipped, 1);		/* the COMM record */
	assert_int_equal(s->n, 4);
	assert_int_equal(s->ev[0].kind, RT_EVENT_SAMPLE);	/* 2001, CPU 1 */
	assert_string_equal(s->ev[0].comm, ":9");		/* never named */
	assert_int_equal(s->ev[1].kind, RT_EVENT_VFS_READ);	/* 2002 */
	assert_int_equal(s->ev[2].kind, RT_EVENT_SAMPLE);	/* 2002, wrapped */
	assert_string_equal(s->ev[2].comm, "after");
	assert_int_equal(s->ev[2].u.sample.nr_frames, 3);
	assert_int_equal(rt_sample_frame(&s->ev[2].u.sample, 2), 0x403000);
	assert_int_equal(s->ev[3].kind, RT_EVENT_LOST);
	assert_int_equal(s->ev[3].u.lost.count, 5);
	for (unsigned int i = 1; i < s->n; i++)
		assert_true(s->ts[i] >= s->ts[i - 1]);

	/* The kernel's own count of drops, over every event. */
	fp.ev[0].lost = 5;
	fp.ev[1].lost = 2;
	assert_int_equal(rt_perf_sampler_lost(&ps), 7);

	rt_merge_fini(&m);
	rt_ring_fini(&rt_src.ring);
	fake_ring_free(&rt);
	rt_perf_sampler_close(&ps);
	free(s);
}

/*
 * A child is named from fork, as perf names it: its parent's
 * name until it execs (the samples of a shell's child before exec were
 * ":TID"), then the name its COMM record gives; a child of a parent never
 * named stays ":TID". FORK records are read, not printed.
 */
static void test_fork_names_child(void **state)
{
	struct rt_perf_sampler ps;
	struct rt_cpuset cpus;
	struct rt_merge m;
	struct rt_merge_result res;
	struct seen *s = calloc(1, sizeof(*s));
	unsigned char rec[256];
	size_t n;

	(void)state;
	assert_non_null(s);
	open_cpus(&ps, "cpu-clock:1000", FAKE_PAGE, &cpus, false);
	rt_comm_set(ps.comms, 7, "sh");
	assert_int_equal(rt_merge_init(&m, ps.srcs, ps.nr_rings, 0), 0);

	n = fake_perf_fork(rec, 8, 7, 8, 7, 100, 0);
	assert_int_equal(n, 8 + 24 + 24);
	write_rec(0, rec, n);
	n = fake_perf_sample(rec, ST, 0x1000, 8, 8, 101, 0, NULL, 0);
	write_rec(0, rec, n);
	n = fake_perf_comm(rec, 8, 8, "tar", 102, 0);
	write_rec(0, rec, n);
	n = fake_perf_sample(rec, ST, 0x1000, 8, 8, 103, 0, NULL, 0);
	write_rec(0, rec, n);
	/* A child of a thread never named, on the other CPU. */
	n = fake_perf_fork(rec, 30, 20, 30, 20, 104, 1);
	write_rec(1, rec, n);
	n = fake_perf_sample(rec, ST, 0x1000, 30, 30, 105, 1, NULL, 0);
	write_rec(1, rec, n);

	rt_merge_round(&m, 0, true, collect, s, &res);
	assert_int_equal(res.error, 0);
	assert_int_equal(s->skipped, 3);	/* two FORKs, one COMM */
	assert_int_equal(s->n, 3);
	assert_string_equal(s->ev[0].comm, "sh");
	assert_string_equal(s->ev[1].comm, "tar");
	assert_string_equal(s->ev[2].comm, ":30");

	rt_merge_fini(&m);
	rt_perf_sampler_close(&ps);
	free(s);
}

/* Per task: one event per thread and CPU; one ring per CPU (SET_OUTPUT). */
static void test_per_task_shares_rings(void **state)
{
	static const pid_t tids[] = { 10, 11 };
	struct rt_perf_sample_spec spec;
	struct rt_perf_sampler ps;
	struct rt_cpuset cpus;
	struct rt_perf_target t = { .cpus = &cpus, .tids = tids, .nr_tids = 2,
				    .pid = 10, .enable_on_exec = true };
	char err[128];

	(void)state;
	rt_cpuset_clear(&cpus);
	rt_cpuset_add(&cpus, 0);
	rt_cpuset_add(&cpus, 1);
	assert_int_equal(rt_perf_sample_parse("task-clock:100", &spec, err,
					      sizeof(err)), 0);
	spec.callchain = true;
	assert_int_equal(rt_perf_sampler_open(&ps, &spec, &t, FAKE_PAGE), 0);
	assert_int_equal(fp.nr, 4);
	assert_int_equal(ps.nr_rings, 2);
	/* cpu 0: tid 10 owns the ring, tid 11 writes into it. */
	assert_int_equal(fp.ev[0].pid, 10);
	assert_int_equal(fp.ev[0].cpu, 0);
	assert_true(fp.ev[0].mapped);
	assert_int_equal(fp.ev[1].pid, 11);
	assert_false(fp.ev[1].mapped);
	assert_int_equal(fp.ev[1].output, 0);
	assert_int_equal(fp.ev[3].output, 2);
	assert_int_equal(fp.ev[0].attr.inherit, 1);
	assert_int_equal(fp.ev[0].attr.enable_on_exec, 1);
	assert_int_equal(fp.ev[0].attr.sample_type, ST | PERF_SAMPLE_CALLCHAIN);
	/* Armed for exec: no ioctl enables it. */
	rt_perf_sampler_enable(&ps);
	for (int i = 0; i < 4; i++)
		assert_int_equal(fp.ev[i].enables, 0);
	rt_perf_sampler_disable(&ps);
	for (int i = 0; i < 4; i++)
		assert_int_equal(fp.ev[i].disables, 1);
	rt_perf_sampler_close(&ps);
}

static int no_lost_format(const struct perf_event_attr *attr, pid_t pid,
			  int cpu, int group_fd)
{
	(void)pid;
	(void)cpu;
	(void)group_fd;
	if (attr->read_format & PERF_FORMAT_LOST)
		return EINVAL;		/* before Linux 6.0 */
	return attr->exclude_kernel ? 0 : EACCES;
}

/* Older kernels and paranoid settings: fall back, and say so. */
static void test_fallbacks(void **state)
{
	struct rt_perf_sampler ps;
	struct rt_cpuset cpus;

	(void)state;
	fp.policy = no_lost_format;
	open_cpus(&ps, "cpu-clock", FAKE_PAGE, &cpus, false);
	assert_false(ps.has_lost_format);
	assert_true(ps.user_only);
	assert_int_equal(fp.ev[0].attr.read_format, 0);
	assert_int_equal(fp.ev[0].attr.exclude_kernel, 1);
	assert_int_equal(rt_perf_sampler_lost(&ps), -1);
	rt_perf_sampler_close(&ps);
}

static int always(const struct perf_event_attr *attr, pid_t pid, int cpu,
		  int group_fd)
{
	(void)attr;
	(void)pid;
	(void)cpu;
	(void)group_fd;
	return EINVAL;
}

static void test_errors(void **state)
{
	struct rt_perf_sample_spec spec;
	struct rt_perf_sampler ps;
	struct rt_cpuset cpus;
	struct rt_perf_target t = { .per_cpu = true, .cpus = &cpus, .pid = -1 };
	char err[128];

	(void)state;
	rt_cpuset_clear(&cpus);
	rt_cpuset_add(&cpus, 0);
	assert_int_equal(rt_perf_sample_parse("cpu-clock:50000", &spec, err,
					      sizeof(err)), 0);
	fp.policy = always;
	fp.max_rate = "25000\n";
	assert_int_equal(rt_perf_sampler_open(&ps, &spec, &t, FAKE_PAGE), -EINVAL);
	assert_non_null(strstr(ps.errmsg, "cannot sample cpu-clock at 50000 Hz: "
				      "above kernel.perf_event_max_sample_rate "
				      "(25000)"));
	rt_perf_sampler_close(&ps);

	fp.policy = NULL;
	fp.mmap_errno = EPERM;
	assert_int_equal(rt_perf_sampler_open(&ps, &spec, &t, FAKE_PAGE), -EPERM);
	assert_non_null(strstr(ps.errmsg, "perf_event_mlock_kb"));
	rt_perf_sampler_close(&ps);

	fp.mmap_errno = 0;
	spec.buffer_bytes = 3 * FAKE_PAGE;
	assert_int_equal(rt_perf_sampler_open(&ps, &spec, &t, FAKE_PAGE), -EINVAL);
	assert_non_null(strstr(ps.errmsg, "power-of-two number"));
	rt_perf_sampler_close(&ps);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	RUN(T(test_format),
	    T(test_decode_sample),
	    T(test_decode_lost_comm_other),
	    T(test_decode_fp_loop),
	    T(test_decode_mmap2),
	    T(test_parse_spec),
	    T(test_sampler_attr),
	    T(test_rings_merged),
	    T(test_fork_names_child),
	    T(test_per_task_shares_rings),
	    T(test_fallbacks),
	    T(test_errors));
}
