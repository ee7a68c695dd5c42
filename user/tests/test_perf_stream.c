// SPDX-License-Identifier: GPL-2.0-only
/*
 * The consumer loop with perf beside the session, against the fake kernel
 * and the fake perf_event_open: vfs_read records, perf samples, perf LOST
 * records and counter snapshots come out in one JSON stream in timestamp
 * order; snapshots are taken every interval, one per CPU, with
 * <not supported> counters as null; stopping disables the perf events,
 * takes a last snapshot so the intervals add up to the totals, and the
 * summary reports samples, losses (kernel count included) and counters.
 * With a sink (--folded), decoded events go to it and nothing is printed.
 * Recorded raw (--raw: version 2 with perf rings and counter snapshots)
 * and replayed (-i), the same run prints the same JSON stream.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/perf_session.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/stream.h"
#include "ringtrace/sys.h"
#include "fake_kernel.h"
#include "fake_perf.h"

#define MS	1000000ull

static volatile sig_atomic_t stop;

struct fixture {
	struct rt_session	s;
	struct rt_outbuf	ob;
	struct rt_stream	st;
	struct rt_perf_session	ps;
	struct rt_cpuset	cpus;
};

static struct fixture *fx;

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct rt_session_opts o = { .pid = -1, .buffer_bytes = 64 * 1024 };
	struct rt_perf_session_opts po = {
		.counters = "task-clock,page-faults,cycles",
		.interval_ns = 100 * MS,
		.sample = true,
		.window_ns = 20 * MS,
	};
	struct rt_perf_target t = { .per_cpu = true, .cpus = &f->cpus,
				    .pid = -1 };
	char err[128];

	fake_kernel_install();
	fake_perf_install();
	fp.policy = fake_perf_no_pmu;
	stop = 0;
	assert_int_equal(rt_session_open(&f->s, NULL), 0);
	assert_int_equal(rt_session_setup(&f->s, &o), 0);
	assert_int_equal(rt_cpuset_parse(&f->cpus, "0-3", err, sizeof(err)), 0);
	assert_int_equal(rt_perf_sample_parse("cpu-clock:1000", &po.sample_spec,
					      err, sizeof(err)), 0);
	po.sample_spec.buffer_bytes = 2 * FAKE_PAGE;
	assert_int_equal(rt_perf_session_open(&f->ps, &po, &t, FAKE_PAGE), 0);
	assert_int_equal(rt_perf_session_watch(&f->ps, f->s.epfd), 0);
	assert_int_equal(rt_session_enable(&f->s), 0);
	assert_int_equal(rt_perf_session_enable(&f->ps, fk.now), 0);
	assert_int_equal(rt_outbuf_init(&f->ob, FAKE_OUT_FD,
					 RT_OUTBUF_DEFAULT_SIZE), 0);
	f->st.format = RT_FORMAT_JSON;
	f->st.out = &f->ob;
	f->st.window_ns = 20 * MS;
	f->st.stop = &stop;
	f->st.hooks = &f->ps.hooks;
	fx = f;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	rt_perf_session_close(&f->ps);
	rt_session_close(&f->s);
	rt_outbuf_fini(&f->ob);
	fake_perf_remove();
	fake_kernel_remove();
	free(f);
	return 0;
}

/* The sampler's ring on @cpu (the mapped event there). */
static struct fake_ring *perf_ring(int cpu)
{
	for (int i = 0; i < fp.nr; i++)
		if (fp.ev[i].mapped && fp.ev[i].cpu == cpu)
			return &fp.ev[i].ring;
	fail_msg("no perf ring on CPU %d", cpu);
	return NULL;
}

static void perf_sample(int cpu, uint64_t ts, uint32_t tid)
{
	unsigned char rec[64];
	size_t n = fake_perf_sample(rec, PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				    PERF_SAMPLE_CPU | PERF_SAMPLE_IP, 0x401000,
				    tid, tid, ts, (uint32_t)cpu, NULL, 0);

	assert_true(fake_ring_write(perf_ring(cpu), rec, n));
}

/* Every software counter advances 1 ms of task-clock and 3 faults a wait. */
static void count_some(void)
{
	for (int i = 0; i < fp.nr; i++) {
		struct fake_perf_event *e = &fp.ev[i];

		if (e->attr.type != PERF_TYPE_SOFTWARE || e->attr.sample_period)
			continue;
		e->value += e->attr.config == PERF_COUNT_SW_TASK_CLOCK ? MS : 3;
		e->enabled += MS;
		e->running += MS;
	}
}

static void produce(struct fake_kernel *k)
{
	unsigned char rec[64];
	size_t n;

	count_some();
	switch (k->waits) {
	case 1:
		fake_ring_vfs_read(&k->rings[0], k->now - 50 * MS);
		perf_sample(1, k->now - 45 * MS, 77);
		perf_sample(2, k->now - 55 * MS, 78);
		break;
	case 3:
		n = fake_perf_lost(rec, 9, k->now - 30 * MS, 3);
		assert_true(fake_ring_write(perf_ring(3), rec, n));
		fake_ring_vfs_read(&k->rings[3], k->now - 31 * MS);
		break;
	case 12:
		stop = 1;
		break;
	}
}

static uint64_t ts_of(const char *line)
{
	const char *p = strstr(line, "\"ts_ns\":");

	assert_non_null(p);
	return strtoull(p + 8, NULL, 10);
}

static void test_one_stream(void **state)
{
	struct fixture *f = *state;
	uint64_t last = 0, clock_sum[4] = { 0 };
	unsigned int lines = 0, counters = 0, samples = 0, reads = 0, lost = 0;
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *out;

	fk.on_wait = produce;
	assert_int_equal(fp.epoll_adds, 4);
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_non_null(fk.out);
	if (getenv("SHOW"))
		fputs(fk.out, stderr);

	for (line = strtok_r(fk.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), lines++) {
		uint64_t ts = ts_of(line);
		const char *v;
		int cpu;

		assert_true(ts >= last);		/* one ordered stream */
		last = ts;
		if (strstr(line, "\"type\":\"counters\"")) {
			counters++;
			assert_non_null(strstr(line, "\"cycles\":null"));
			cpu = atoi(strstr(line, "\"cpu\":") + 6);
			assert_true(cpu >= 0 && cpu < 4);
			v = strstr(line, "\"task-clock\":");
			assert_non_null(v);
			clock_sum[cpu] += strtoull(v + 13, NULL, 10);
		} else if (strstr(line, "\"type\":\"sample\"")) {
			samples++;
			assert_non_null(strstr(line, "\"event\":\"cpu-clock\""));
		} else if (strstr(line, "\"type\":\"vfs_read\"")) {
			reads++;
		} else if (strstr(line, "\"type\":\"lost\"")) {
			lost++;
			assert_non_null(strstr(line, "\"count\":9,\"source\":\"perf\""));
		}
	}
	assert_int_equal(samples, 2);
	assert_int_equal(reads, 2);
	assert_int_equal(lost, 1);
	/* Every 100 ms, one per CPU, plus the last one at the stop. */
	assert_true(counters >= 8 && counters % 4 == 0);
	assert_int_equal(lines, samples + reads + lost + counters);

	/* Stopped: perf events disabled; the intervals add up to the total. */
	for (int i = 0; i < fp.nr; i++)
		if (fp.ev[i].group_fd < 0)
			assert_int_equal(fp.ev[i].disables, 1);
	for (int cpu = 0; cpu < 4; cpu++) {
		assert_true(clock_sum[cpu] > 0);
		assert_int_equal(clock_sum[cpu],
				 f->ps.counters.rows[cpu].total[0].value);
	}
	assert_int_equal(f->ps.stop_ns, last);	/* the last snapshot */

	fp.ev[4 * 2 + 1].lost = 9;		/* the kernel saw 9 + 2 drops */
	fp.ev[4 * 2 + 3].lost = 2;
	f->ps.kernel_lost = rt_perf_sampler_lost(&f->ps.sampler);
	out = open_memstream(&text, &len);
	rt_perf_session_summary(out, &f->ps, "prog", "'system wide'");
	fclose(out);
	assert_non_null(strstr(text, "prog: perf cpu-clock at 1000 Hz: 2 samples, "
				     "11 lost (9 reported by LOST records, 2 "
				     "after the last one)\n"));
	assert_non_null(strstr(text, "for 'system wide':"));
	assert_non_null(strstr(text, "msec task-clock"));
	assert_non_null(strstr(text, "<not supported>      cycles"));
	free(text);
}

/* A counter snapshot waits for the window like any other record. */
static void stop_at_3(struct fake_kernel *k)
{
	count_some();
	if (k->waits == 3)
		stop = 1;
}

static void test_snapshots_follow_the_grid(void **state)
{
	struct fixture *f = *state;
	const char *p;
	unsigned int n = 0;

	fk.on_wait = stop_at_3;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	/* Waits are bounded by the next snapshot: 100 ms steps. */
	for (p = fk.out; (p = strstr(p, "\"interval_ns\":100000000")); p++)
		n++;
	assert_true(n >= 4);
	assert_int_equal(f->ps.snapshots.dropped, 0);
}

static unsigned int sunk[RT_EVENT_KIND_MAX];

static void count_kinds(void *arg, const struct rt_event *ev)
{
	assert_ptr_equal(arg, sunk);
	sunk[ev->kind]++;
}

static void test_sink_instead_of_printer(void **state)
{
	struct fixture *f = *state;

	memset(sunk, 0, sizeof(sunk));
	f->st.sink = count_kinds;
	f->st.sink_arg = sunk;
	fk.on_wait = produce;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_null(fk.out);				/* nothing printed */
	assert_int_equal(sunk[RT_EVENT_SAMPLE], 2);
	assert_int_equal(sunk[RT_EVENT_VFS_READ], 2);
	assert_int_equal(sunk[RT_EVENT_LOST], 1);
	assert_true(sunk[RT_EVENT_COUNTERS] >= 8);
}

/* produce()'s records at fixed times, whatever the loop's pace. */
static void produce_fixed(struct fake_kernel *k)
{
	unsigned char rec[64];
	size_t n;

	count_some();
	switch (k->waits) {
	case 1:
		fake_ring_vfs_read(&k->rings[0], 1050 * MS);
		perf_sample(1, 1055 * MS, 77);
		perf_sample(2, 1045 * MS, 78);
		break;
	case 3:
		n = fake_perf_lost(rec, 9, 1170 * MS, 3);
		assert_true(fake_ring_write(perf_ring(3), rec, n));
		fake_ring_vfs_read(&k->rings[3], 1169 * MS);
		break;
	case 12:
		stop = 1;
		break;
	}
}

/* @text without its counter snapshot lines. */
static char *without_counters(const char *text)
{
	static const char tag[] = "\"type\":\"counters\"";
	char *out = calloc(1, strlen(text) + 1), *o = out;

	assert_non_null(out);
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text + 1) : strlen(text);

		if (!memmem(text, n, tag, sizeof(tag) - 1)) {
			memcpy(o, text, n);
			o += n;
		}
		text += n;
	}
	return out;
}

/*
 * The live run's JSON, then the same run recorded raw and replayed: the
 * same records, thread names included. Snapshots are taken on the loop's
 * grid, whose waits differ without the merge's window, so the replay's
 * counters are checked against the recorded run's own totals.
 */
static void test_raw_replay_equals_live(void **state)
{
	struct fixture *f = *state;
	struct rt_raw_header h = { .magic = RT_RAW_MAGIC };
	struct rt_stream rst = { .format = RT_FORMAT_JSON };
	struct rt_outbuf rob;
	struct rt_raw_file rf;
	struct rt_sys saved;
	char path[] = "/tmp/ringtrace-perfraw-XXXXXX";
	char *live, *replay, *line, *save = NULL;
	uint64_t clock_sum[4] = { 0 };
	unsigned int snapshots = 0;
	int fd;

	fk.on_wait = produce_fixed;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_non_null(fk.out);
	live = without_counters(fk.out);
	assert_non_null(strstr(live, "\"type\":\"sample\""));

	/* The same run again, recorded. */
	teardown(state);
	setup(state);
	f = *state;
	f->st.format = RT_FORMAT_RAW;
	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_SOURCES;
	h.endian = RT_RAW_ENDIAN;
	h.page_size = FAKE_PAGE;
	rt_raw_write_header(&f->ob, &h);
	rt_perf_session_write_raw(&f->ps, &f->ob);
	fk.on_wait = produce_fixed;
	assert_int_equal(rt_stream_live(&f->st, &f->s), RT_STREAM_OK);
	assert_true(fk.out_len > sizeof(h));
	/* The perf summary counts what the raw path wrote, as live. */
	assert_int_equal(f->ps.sampler.srcs[1].counts.samples +
			 f->ps.sampler.srcs[2].counts.samples, 2);
	assert_int_equal(f->ps.sampler.srcs[3].counts.lost, 9);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, fk.out, fk.out_len), (ssize_t)fk.out_len);
	close(fd);
	free(fk.out);
	fk.out = NULL;
	fk.out_len = 0;

	/* The file is a real one: read it with the real system calls. */
	saved = rt_sys;
	rt_sys_reset();
	assert_int_equal(rt_raw_open(&rf, path), 0);
	rt_sys = saved;
	assert_int_equal(rf.hdr.format_version, RT_RAW_FORMAT_SOURCES);
	assert_true(rf.nr_perf_srcs >= 3);
	assert_int_equal(rf.nr_counter_srcs, 1);
	assert_int_equal(rt_outbuf_init(&rob, FAKE_OUT_FD,
					 RT_OUTBUF_DEFAULT_SIZE), 0);
	rst.out = &rob;
	assert_int_equal(rt_stream_file(&rst, &rf), RT_STREAM_OK);
	assert_int_equal(rt_outbuf_flush(&rob), 0);
	/* The replay counts the samples the live run counted. */
	{
		uint64_t samples = 0, records = 0;

		for (uint32_t i = 0; i < rf.nr_srcs; i++) {
			samples += rf.srcs[i].counts.samples;
			records += rf.srcs[i].counts.records;
		}
		assert_int_equal(samples, 2);
		for (uint32_t i = 0; i < f->s.nr_rings; i++)
			records -= f->s.srcs[i].counts.records;
		assert_int_equal(records, 0);
	}
	assert_non_null(fk.out);
	if (getenv("SHOW"))
		fprintf(stderr, "live:\n%s\nreplay:\n%s", live, fk.out);
	replay = without_counters(fk.out);
	assert_string_equal(replay, live);

	for (line = strtok_r(fk.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *v;
		int cpu;

		if (!strstr(line, "\"type\":\"counters\""))
			continue;
		snapshots++;
		assert_non_null(strstr(line, "\"cycles\":null"));
		cpu = atoi(strstr(line, "\"cpu\":") + 6);
		assert_true(cpu >= 0 && cpu < 4);
		v = strstr(line, "\"task-clock\":");
		assert_non_null(v);
		clock_sum[cpu] += strtoull(v + 13, NULL, 10);
	}
	assert_int_equal(snapshots, f->ps.snapshots.snapshots);
	for (int cpu = 0; cpu < 4; cpu++) {
		assert_true(clock_sum[cpu] > 0);
		assert_int_equal(clock_sum[cpu],
				 f->ps.counters.rows[cpu].total[0].value);
	}
	rt_outbuf_fini(&rob);
	rt_sys_reset();
	rt_raw_close(&rf);
	rt_sys = saved;
	unlink(path);
	free(live);
	free(replay);
}

int main(void)
{
	RUN(cmocka_unit_test_setup_teardown(test_one_stream, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_snapshots_follow_the_grid,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sink_instead_of_printer,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_raw_replay_equals_live,
					    setup, teardown));
}
