// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf counters through the mocked seam: what is asked of the kernel
 * (groups, read format, inherit and enable_on_exec per task, one event per
 * CPU otherwise), counts read back through the group read format (matched
 * by id, whatever the order), multiplexed counts scaled like perf stat in
 * totals and interval deltas, <not supported> with a reason for each errno
 * while the other counters still count, the paranoid and ungrouped
 * fallbacks, a read that fails, a target that vanished, and the summary.
 */
#include <errno.h>
#include <stdio.h>

#include "test.h"

#include "ringtrace/perf_counters.h"
#include "ringtrace/perf_stat.h"
#include "ringtrace/sys.h"
#include "fake_perf.h"

static const pid_t one_tid[] = { 42 };

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

static void open_task(struct rt_counters *cs, const char *list,
		      bool on_exec)
{
	struct rt_perf_target t = { .tids = one_tid, .nr_tids = 1, .pid = 42,
				    .enable_on_exec = on_exec };
	char err[256];

	assert_int_equal(rt_counters_parse(cs, list, err, sizeof(err)), 0);
	assert_int_equal(rt_counters_open(cs, &t), 0);
}

static struct fake_perf_event *sw(uint64_t config)
{
	struct fake_perf_event *e = fake_perf_find(PERF_TYPE_SOFTWARE, config, 0);

	assert_non_null(e);
	return e;
}

static struct fake_perf_event *hw(uint64_t config)
{
	struct fake_perf_event *e = fake_perf_find(PERF_TYPE_HARDWARE, config, 0);

	assert_non_null(e);
	return e;
}

static void test_parse(void **state)
{
	struct rt_counters cs;
	char err[512];

	(void)state;
	assert_int_equal(rt_counters_parse(&cs, "default", err, sizeof(err)), 0);
	assert_int_equal(cs.nr, 12);
	assert_string_equal(cs.c[0].name, "task-clock");
	assert_string_equal(cs.c[11].name, "LLC-load-misses");
	/* Aliases resolve, duplicates collapse. */
	assert_int_equal(rt_counters_parse(&cs, "cs,context-switches,faults",
					   err, sizeof(err)), 0);
	assert_int_equal(cs.nr, 2);
	assert_string_equal(cs.c[0].name, "context-switches");
	assert_string_equal(cs.c[1].name, "page-faults");
	assert_int_equal(rt_counters_parse(&cs, "task-clock,cylces", err,
					   sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown counter 'cylces'"));
	assert_non_null(strstr(err, "LLC-load-misses"));
	assert_int_equal(rt_counters_parse(&cs, "", err, sizeof(err)), -EINVAL);
}

/* Everything supported, per task, armed for exec. */
static void test_supported_per_task(void **state)
{
	struct rt_counters cs;
	struct fake_perf_event *clk, *pf, *cyc, *ins;

	(void)state;
	open_task(&cs, "task-clock,page-faults,cycles,instructions", true);
	assert_int_equal(fp.nr, 4);
	clk = sw(PERF_COUNT_SW_TASK_CLOCK);
	pf = sw(PERF_COUNT_SW_PAGE_FAULTS);
	cyc = hw(PERF_COUNT_HW_CPU_CYCLES);
	ins = hw(PERF_COUNT_HW_INSTRUCTIONS);

	/* Two groups: software, and cycles+instructions (for IPC). */
	assert_int_equal(clk->group_fd, -1);
	assert_int_equal(pf->group_fd, FAKE_PERF_FD + (int)(clk - fp.ev));
	assert_int_equal(cyc->group_fd, -1);
	assert_int_equal(ins->group_fd, FAKE_PERF_FD + (int)(cyc - fp.ev));
	for (int i = 0; i < fp.nr; i++) {
		const struct fake_perf_event *e = &fp.ev[i];
		bool leader = e->group_fd < 0;

		assert_int_equal(e->pid, 42);
		assert_int_equal(e->cpu, -1);
		assert_int_equal(e->attr.size, sizeof(struct perf_event_attr));
		assert_int_equal(e->attr.read_format,
				 PERF_FORMAT_TOTAL_TIME_ENABLED |
				 PERF_FORMAT_TOTAL_TIME_RUNNING |
				 PERF_FORMAT_ID | PERF_FORMAT_GROUP);
		assert_int_equal(e->attr.inherit, 1);
		assert_int_equal(e->attr.disabled, leader);
		assert_int_equal(e->attr.enable_on_exec, leader);
		assert_int_equal(e->attr.exclude_kernel, 0);
		assert_true(e->flags & PERF_FLAG_FD_CLOEXEC);
	}

	/* Armed for exec: enabling is the kernel's job, not an ioctl. */
	rt_counters_enable(&cs, 1000);
	for (int i = 0; i < fp.nr; i++)
		assert_int_equal(fp.ev[i].enables, 0);

	clk->value = 5000000;
	pf->value = 100;
	cyc->value = 2000000;
	ins->value = 3000000;
	clk->enabled = clk->running = 5000000;
	cyc->enabled = cyc->running = 5000000;
	rt_counters_read(&cs, 2000);
	assert_int_equal(cs.nr_rows, 1);
	assert_int_equal(cs.rows[0].pid, 42);
	assert_int_equal(cs.rows[0].cpu, -1);
	assert_int_equal(cs.sum[0].value, 5000000);
	assert_int_equal(cs.sum[1].value, 100);
	assert_int_equal(cs.sum[2].value, 2000000);
	assert_int_equal(cs.sum[3].value, 3000000);
	for (uint32_t i = 0; i < cs.nr; i++) {
		assert_int_equal(cs.sum[i].status, RT_COUNTER_OK);
		assert_int_equal(cs.rows[0].delta[i].value, cs.sum[i].value);
	}
	assert_int_equal(cs.read_errors, 0);

	/* Disabling touches leaders only: siblings follow them. */
	rt_counters_disable(&cs);
	assert_int_equal(clk->disables + pf->disables + cyc->disables +
			 ins->disables, 2);
	assert_int_equal(clk->disables, 1);
	assert_int_equal(cyc->disables, 1);
	rt_counters_close(&cs);
	for (int i = 0; i < fp.nr; i++)
		assert_true(fp.ev[i].closed);
}

/* Per CPU: pid -1, one slot and row per CPU, not inherited, ioctl-enabled. */
static void test_per_cpu(void **state)
{
	struct rt_counters cs;
	struct rt_cpuset cpus;
	struct rt_perf_target t = { .per_cpu = true, .cpus = &cpus, .pid = -1 };
	char err[128], *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	rt_cpuset_clear(&cpus);
	rt_cpuset_add(&cpus, 0);
	rt_cpuset_add(&cpus, 2);
	assert_int_equal(rt_counters_parse(&cs, "context-switches", err,
					   sizeof(err)), 0);
	assert_int_equal(rt_counters_open(&cs, &t), 0);
	assert_int_equal(fp.nr, 2);
	assert_int_equal(fp.ev[0].pid, -1);
	assert_int_equal(fp.ev[0].cpu, 0);
	assert_int_equal(fp.ev[1].cpu, 2);
	assert_int_equal(fp.ev[0].attr.inherit, 0);
	assert_int_equal(fp.ev[0].attr.enable_on_exec, 0);
	rt_counters_enable(&cs, 0);
	assert_int_equal(fp.ev[0].enables, 1);
	assert_int_equal(fp.ev[1].enables, 1);

	fp.ev[0].value = 7;
	fp.ev[1].value = 5;
	fp.ev[0].enabled = fp.ev[0].running = 10;
	fp.ev[1].enabled = fp.ev[1].running = 10;
	rt_counters_read(&cs, 1);
	assert_int_equal(cs.nr_rows, 2);
	assert_int_equal(cs.rows[0].cpu, 0);
	assert_int_equal(cs.rows[1].cpu, 2);
	assert_int_equal(cs.rows[1].pid, -1);
	assert_int_equal(cs.rows[0].total[0].value, 7);
	assert_int_equal(cs.rows[1].total[0].value, 5);
	assert_int_equal(cs.sum[0].value, 12);

	/* No task-clock, no rate: the line ends at the name. */
	out = open_memstream(&text, &len);
	rt_perf_stat_print(out, &cs, "'CPU(s) 0,2'", 10);
	fclose(out);
	assert_non_null(strstr(text, "                12      context-switches\n"));
	free(text);
	rt_counters_close(&cs);
}

static void expect_reason(int err, const char *w1, const char *w2)
{
	struct rt_counters cs;

	fake_perf_remove();
	fake_perf_install();
	fp.policy = fake_perf_no_pmu;
	fp_hw_errno = err;
	open_task(&cs, "task-clock,cycles,instructions,LLC-loads", false);
	assert_int_equal(cs.c[0].opened, 1);
	for (uint32_t i = 1; i < cs.nr; i++) {
		assert_int_equal(cs.c[i].opened, 0);
		assert_int_equal(cs.c[i].err, err);
		if (!strstr(cs.c[i].reason, w1) || !strstr(cs.c[i].reason, w2))
			fail_msg("errno %d: '%s' lacks '%s' or '%s'", err,
				 cs.c[i].reason, w1, w2);
	}
	fp.ev[0].value = 123;
	fp.ev[0].enabled = fp.ev[0].running = 123;
	rt_counters_read(&cs, 1);
	assert_int_equal(cs.sum[0].status, RT_COUNTER_OK);
	assert_int_equal(cs.sum[0].value, 123);
	for (uint32_t i = 1; i < cs.nr; i++) {
		assert_int_equal(cs.sum[i].status, RT_COUNTER_NOT_SUPPORTED);
		assert_int_equal(cs.rows[0].delta[i].status,
				 RT_COUNTER_NOT_SUPPORTED);
	}
	rt_counters_close(&cs);
}

/* No PMU (the VM): hardware is <not supported>, software still counts. */
static void test_not_supported_reasons(void **state)
{
	(void)state;
	expect_reason(ENOENT, "ENOENT", "virtual machines");
	expect_reason(EOPNOTSUPP, "EOPNOTSUPP", "cannot count");
	expect_reason(ENODEV, "ENODEV", "on this CPU");
	expect_reason(EINVAL, "EINVAL", "refused");
	expect_reason(EBUSY, "EBUSY", "NMI watchdog");
	expect_reason(EMFILE, "EMFILE", "ulimit -n");
	expect_reason(EIO, "errno 5", "Input/output error");
}

/* The summary: <not supported> with the reason, once in full. */
static void test_summary_not_supported(void **state)
{
	struct rt_counters cs;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	fp.policy = fake_perf_no_pmu;
	open_task(&cs, "task-clock,page-faults,cycles,instructions", false);
	fp.ev[0].value = 250000000;		/* 0.25 s of CPU */
	fp.ev[0].enabled = fp.ev[0].running = 250000000;
	fp.ev[1].value = 1000;
	rt_counters_read(&cs, 1);
	out = open_memstream(&text, &len);
	rt_perf_stat_print(out, &cs, "'true'", 500000000);
	fclose(out);
	assert_non_null(strstr(text, "Performance counter stats for 'true':"));
	assert_non_null(strstr(text, "            250.00 msec task-clock"
				     "                #    0.500 CPUs utilized\n"));
	/* 1000 faults in 0.25 s of task-clock. */
	assert_non_null(strstr(text, "             1,000      page-faults"
				     "               #    4.000 K/sec\n"));
	assert_non_null(strstr(text, "   <not supported>      cycles"
				     "                    (ENOENT: no PMU counts"));
	assert_non_null(strstr(text, "   <not supported>      instructions"
				     "              (ENOENT, as above)\n"));
	/* No ratio without its inputs. */
	assert_null(strstr(text, "insn per cycle"));
	assert_non_null(strstr(text, "0.500000000 seconds time elapsed"));
	free(text);
	rt_counters_close(&cs);
}

/* Multiplexed: totals and deltas scaled by enabled/running, like perf stat. */
static void test_multiplexed_scaling(void **state)
{
	struct rt_counters cs;
	struct fake_perf_event *cyc, *ins;
	char *text = NULL;
	size_t len = 0;
	double ipc;
	FILE *out;

	(void)state;
	open_task(&cs, "cycles,instructions", false);
	cyc = hw(PERF_COUNT_HW_CPU_CYCLES);
	ins = hw(PERF_COUNT_HW_INSTRUCTIONS);
	cyc->value = 100;
	ins->value = 300;
	cyc->enabled = 1000;
	cyc->running = 250;
	rt_counters_read(&cs, 1);
	assert_int_equal(cs.sum[0].value, 400);
	assert_int_equal(cs.sum[1].value, 1200);
	assert_int_equal(cs.sum[0].raw, 100);
	assert_int_equal(cs.sum[0].enabled_ns, 1000);
	assert_int_equal(cs.sum[0].running_ns, 250);
	/* Grouped, so the ratio of the estimates is the ratio of the counts. */
	assert_true(rt_perf_stat_ratio(&cs, 1, "cycles", &ipc));
	assert_true(ipc > 2.999 && ipc < 3.001);

	/* Second interval: +200/+400 raw, +1000 enabled, +500 running. */
	cyc->value = 300;
	ins->value = 700;
	cyc->enabled = 2000;
	cyc->running = 750;
	rt_counters_read(&cs, 2);
	assert_int_equal(cs.rows[0].delta[0].value, 400);	/* 200*1000/500 */
	assert_int_equal(cs.rows[0].delta[1].value, 800);
	assert_int_equal(cs.rows[0].delta[0].running_ns, 500);
	assert_int_equal(cs.sum[0].value, 800);			/* 300*2000/750 */

	out = open_memstream(&text, &len);
	rt_perf_stat_print(out, &cs, "'x'", 1000);
	fclose(out);
	assert_non_null(strstr(text, "insn per cycle  (37.50%)"));
	assert_non_null(strstr(text, "#     2.33  insn per cycle"));
	free(text);

	/* Enabled but never on the PMU: <not counted>, not a zero. */
	cyc->running = 750;
	cyc->enabled = 3000;
	cyc->value = 300;
	ins->value = 700;
	rt_counters_read(&cs, 3);
	assert_int_equal(cs.rows[0].delta[0].status, RT_COUNTER_NOT_COUNTED);
	assert_int_equal(cs.rows[0].total[0].status, RT_COUNTER_OK);
	rt_counters_close(&cs);
}

static void test_scale_arithmetic(void **state)
{
	(void)state;
	assert_int_equal(rt_counter_scale(10, 10, 10), 10);
	assert_int_equal(rt_counter_scale(10, 100, 0), 0);
	/* 128-bit intermediate: no overflow before the division. */
	assert_int_equal(rt_counter_scale(1ull << 62, 1ull << 40, 1ull << 39),
			 1ull << 63);
	assert_int_equal(rt_counter_scale(UINT64_MAX / 2, 4, 1), UINT64_MAX);
}

/* The group read is matched by id: order does not matter. */
static void test_group_read_by_id(void **state)
{
	struct rt_counters cs;

	(void)state;
	open_task(&cs, "task-clock,context-switches,cpu-migrations,page-faults",
		  false);
	assert_int_equal(fp.nr, 4);
	for (int i = 0; i < 4; i++)
		fp.ev[i].value = 10 * (uint64_t)(i + 1);
	fp.ev[0].enabled = fp.ev[0].running = 50;
	fp.reverse_group_read = true;
	rt_counters_read(&cs, 1);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(cs.sum[i].value, 10 * (i + 1));

	/* A short read: counted, the previous values stay. */
	fp.ev[3].value = 99;
	fp.short_read = true;
	rt_counters_read(&cs, 2);
	assert_int_equal(cs.read_errors, 1);
	assert_int_equal(cs.sum[3].value, 40);
	assert_int_equal(cs.rows[0].delta[3].value, 0);
	rt_counters_read(&cs, 3);
	assert_int_equal(cs.sum[3].value, 99);
	assert_int_equal(cs.rows[0].delta[3].value, 59);
	rt_counters_close(&cs);
}

/*
 * One counter fails while the others count: instructions is refused by
 * its group but opens alone; cache-misses is not permitted in the kernel
 * and counts user space only; LLC-loads cannot open at all.
 */
static int mixed_policy(const struct perf_event_attr *attr, pid_t pid, int cpu,
			int group_fd)
{
	(void)pid;
	(void)cpu;
	if (attr->type == PERF_TYPE_HARDWARE &&
	    attr->config == PERF_COUNT_HW_INSTRUCTIONS && group_fd >= 0)
		return EINVAL;
	if (attr->type == PERF_TYPE_HARDWARE &&
	    attr->config == PERF_COUNT_HW_CACHE_MISSES && !attr->exclude_kernel)
		return EACCES;
	if (attr->type == PERF_TYPE_HW_CACHE)
		return EOPNOTSUPP;
	return 0;
}

static void test_one_fails_others_count(void **state)
{
	struct rt_counters cs;
	struct fake_perf_event *ins, *miss;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	fp.policy = mixed_policy;
	open_task(&cs, "task-clock,cycles,instructions,cache-references,"
		       "cache-misses,LLC-loads", false);
	assert_int_equal(cs.c[2].opened, 1);
	assert_true(cs.c[2].ungrouped);
	ins = hw(PERF_COUNT_HW_INSTRUCTIONS);
	assert_int_equal(ins->group_fd, -1);
	assert_int_equal(ins->attr.disabled, 1);	/* its own leader */

	assert_true(cs.c[4].user_only);
	assert_string_equal(cs.c[4].name, "cache-misses:u");
	assert_non_null(strstr(cs.c[4].reason, "perf_event_paranoid = 2"));
	miss = hw(PERF_COUNT_HW_CACHE_MISSES);
	assert_int_equal(miss->attr.exclude_kernel, 1);
	assert_int_equal(miss->attr.exclude_hv, 1);

	assert_int_equal(cs.c[5].opened, 0);
	assert_non_null(strstr(cs.c[5].reason, "EOPNOTSUPP"));

	rt_counters_enable(&cs, 0);
	assert_int_equal(ins->enables, 1);
	for (int i = 0; i < fp.nr; i++) {
		fp.ev[i].value = 1000 * (uint64_t)(i + 1);
		fp.ev[i].enabled = fp.ev[i].running = 10;
	}
	rt_counters_read(&cs, 1);
	for (uint32_t i = 0; i < 5; i++)
		assert_int_equal(cs.sum[i].status, RT_COUNTER_OK);
	assert_int_equal(cs.sum[2].value, ins->value);
	assert_int_equal(cs.sum[5].status, RT_COUNTER_NOT_SUPPORTED);

	out = open_memstream(&text, &len);
	rt_perf_stat_print(out, &cs, "'x'", 1000);
	fclose(out);
	assert_non_null(strstr(text, "cache-misses:u"));
	assert_non_null(strstr(text, "of all cache refs  (user only: EACCES"));
	assert_non_null(strstr(text, "(counted outside its group)"));
	assert_non_null(strstr(text, "<not supported>      LLC-loads"));
	free(text);
	rt_counters_close(&cs);
}

static int gone_policy(const struct perf_event_attr *attr, pid_t pid, int cpu,
		       int group_fd)
{
	(void)attr;
	(void)cpu;
	(void)group_fd;
	return pid == 43 ? ESRCH : 0;
}

/* A thread that does not exist is an error; opened fds are closed later. */
static void test_target_gone(void **state)
{
	static const pid_t tids[] = { 42, 43 };
	struct rt_perf_target t = { .tids = tids, .nr_tids = 2, .pid = 42 };
	struct rt_counters cs;
	char err[128];

	(void)state;
	fp.policy = gone_policy;
	assert_int_equal(rt_counters_parse(&cs, "task-clock", err, sizeof(err)), 0);
	assert_int_equal(rt_counters_open(&cs, &t), -ESRCH);
	assert_non_null(strstr(cs.errmsg, "thread 43: no such process"));
	rt_counters_close(&cs);
	assert_true(fp.ev[0].closed);
}

/* Two threads of one process: one row, their counts summed. */
static void test_threads_summed(void **state)
{
	static const pid_t tids[] = { 42, 44 };
	struct rt_perf_target t = { .tids = tids, .nr_tids = 2, .pid = 42 };
	struct rt_counters cs;
	char err[128];

	(void)state;
	assert_int_equal(rt_counters_parse(&cs, "page-faults", err, sizeof(err)), 0);
	assert_int_equal(rt_counters_open(&cs, &t), 0);
	assert_int_equal(fp.ev[1].pid, 44);
	fp.ev[0].value = 3;
	fp.ev[1].value = 4;
	rt_counters_read(&cs, 1);
	assert_int_equal(cs.nr_rows, 1);
	assert_int_equal(cs.sum[0].value, 7);
	rt_counters_close(&cs);
}

/*
 * --per-thread: the selected threads counted each alone, not
 * inherited, a row each, named by the thread (its counter snapshots say
 * pid=TID); the sum still totals them.
 */
static void test_per_thread_rows(void **state)
{
	static const pid_t tids[] = { 42, 44 };
	struct rt_perf_target t = { .tids = tids, .nr_tids = 2, .pid = -1,
				    .threads_only = true };
	struct rt_counters cs;
	char err[128];

	(void)state;
	assert_int_equal(rt_counters_parse(&cs, "page-faults", err, sizeof(err)), 0);
	assert_int_equal(rt_counters_open(&cs, &t), 0);
	assert_int_equal(fp.ev[0].pid, 42);
	assert_int_equal(fp.ev[1].pid, 44);
	assert_false(fp.ev[0].attr.inherit);
	assert_false(fp.ev[1].attr.inherit);
	fp.ev[0].value = 3;
	fp.ev[1].value = 4;
	rt_counters_read(&cs, 1);
	assert_int_equal(cs.nr_rows, 2);
	assert_int_equal(cs.rows[0].pid, 42);
	assert_int_equal(cs.rows[0].cpu, -1);
	assert_int_equal(cs.rows[0].delta[0].value, 3);
	assert_int_equal(cs.rows[1].pid, 44);
	assert_int_equal(cs.rows[1].delta[0].value, 4);
	assert_int_equal(cs.sum[0].value, 7);
	rt_counters_close(&cs);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	RUN(T(test_parse),
	    T(test_supported_per_task),
	    T(test_per_cpu),
	    T(test_not_supported_reasons),
	    T(test_summary_not_supported),
	    T(test_multiplexed_scaling),
	    T(test_scale_arithmetic),
	    T(test_group_read_by_id),
	    T(test_one_fails_others_count),
	    T(test_target_gone),
	    T(test_threads_summed),
	    T(test_per_thread_rows));
}
