// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The perf-stat-like counter summary (see perf_stat.h); stdio, once per run. */
#include <inttypes.h>
#include <string.h>

#include "ringtrace/perf_stat.h"

#define NS_PER_SEC	1e9

static const struct rt_counter_value *find(const struct rt_counters *cs,
					   const char *name, uint32_t *idx)
{
	int i = rt_counters_find(cs, name);

	if (i < 0 || cs->sum[i].status != RT_COUNTER_OK)
		return NULL;
	if (idx)
		*idx = (uint32_t)i;
	return &cs->sum[i];
}

bool rt_perf_stat_ratio(const struct rt_counters *cs, uint32_t i,
			const char *base, double *ratio)
{
	const struct rt_counter_value *b = find(cs, base, NULL);

	if (cs->sum[i].status != RT_COUNTER_OK || !b || !b->value)
		return false;
	*ratio = (double)cs->sum[i].value / (double)b->value;
	return true;
}

/* 1234567 -> "1,234,567" */
static void grouped(char *buf, size_t len, uint64_t v)
{
	char digits[32];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v), o = 0;

	for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

static bool is_clock(const struct rt_counter *c)
{
	return !strcmp(c->desc->name, "task-clock") ||
	       !strcmp(c->desc->name, "cpu-clock");
}

/* "#    1.375 K/sec" per second of task-clock (cpu-clock per CPU). */
static void per_second(char *out, size_t len, const struct rt_counters *cs,
		       uint64_t v)
{
	const struct rt_counter_value *clk = find(cs, "task-clock", NULL);
	static const char *const unit[] = { "", "K", "M", "G" };
	double rate;
	int u = 0;

	if (!clk)
		clk = find(cs, "cpu-clock", NULL);
	if (!clk || !clk->value)
		return;
	rate = (double)v / ((double)clk->value / NS_PER_SEC);
	while (rate >= 1000 && u < 3) {
		rate /= 1000;
		u++;
	}
	snprintf(out, len, " #  %7.3f %s/sec", rate, unit[u]);
}

/* The "# ..." column of counter @i into @out, if its inputs exist. */
static void derived(char *out, size_t len, const struct rt_counters *cs,
		    uint32_t i, uint64_t elapsed_ns)
{
	const struct rt_counter *c = &cs->c[i];
	const struct rt_counter_value *clk;
	double r;

	if (is_clock(c)) {
		if (elapsed_ns)
			snprintf(out, len, " #  %7.3f CPUs utilized",
				 (double)cs->sum[i].value / (double)elapsed_ns);
		return;
	}
	if (c->desc->ratio_base &&
	    rt_perf_stat_ratio(cs, i, c->desc->ratio_base, &r)) {
		if (c->desc->ratio_percent)
			snprintf(out, len, " #  %6.2f%% %s", r * 100,
				 c->desc->ratio_label);
		else
			snprintf(out, len, " #  %7.2f  %s", r,
				 c->desc->ratio_label);
		return;
	}
	if (!strcmp(c->desc->name, "cycles")) {
		clk = find(cs, "task-clock", NULL);
		if (clk && clk->value)
			snprintf(out, len, " #  %7.3f GHz",
				 (double)cs->sum[i].value / (double)clk->value);
		return;
	}
	if (!c->desc->hardware)
		per_second(out, len, cs, cs->sum[i].value);
}

void rt_perf_stat_print(FILE *out, const struct rt_counters *cs,
			const char *title, uint64_t elapsed_ns)
{
	const char *said = NULL;	/* the reason printed in full already */

	fprintf(out, "\n Performance counter stats for %s:\n\n", title);
	for (uint32_t i = 0; i < cs->nr; i++) {
		const struct rt_counter *c = &cs->c[i];
		const struct rt_counter_value *v = &cs->sum[i];
		char num[40], extra[320];
		size_t used;

		if (v->status == RT_COUNTER_NOT_SUPPORTED) {
			fprintf(out, "%18s      %-25s", "<not supported>", c->name);
			if (said && !strcmp(said, c->reason))
				fprintf(out, " (%s, as above)\n",
					rt_errno_name(c->err) ? rt_errno_name(c->err) :
								"same reason");
			else
				fprintf(out, " (%s)\n", c->reason);
			said = c->reason;
			continue;
		}
		if (v->status == RT_COUNTER_NOT_COUNTED) {
			fprintf(out, "%18s      %-25s (never on the PMU: "
				"too many counters for it?)\n", "<not counted>",
				c->name);
			continue;
		}
		extra[0] = '\0';
		derived(extra, sizeof(extra), cs, i, elapsed_ns);
		used = strlen(extra);
		if (v->running_ns < v->enabled_ns)
			used += (size_t)snprintf(extra + used, sizeof(extra) - used,
						 "  (%.2f%%)", 100.0 *
						 (double)v->running_ns /
						 (double)v->enabled_ns);
		if (c->user_only && used < sizeof(extra))
			snprintf(extra + used, sizeof(extra) - used,
				 "  (user only: %s)", c->reason);
		else if (c->ungrouped && used < sizeof(extra))
			snprintf(extra + used, sizeof(extra) - used,
				 "  (counted outside its group)");
		if (is_clock(c)) {
			snprintf(num, sizeof(num), "%.2f", (double)v->value / 1e6);
			fprintf(out, "%18s msec ", num);
		} else {
			grouped(num, sizeof(num), v->value);
			fprintf(out, "%18s      ", num);
		}
		/* Pad the name only when a column follows it. */
		fprintf(out, extra[0] ? "%-25s%s\n" : "%s%s\n", c->name, extra);
	}
	fprintf(out, "\n %18.9f seconds time elapsed\n\n",
		(double)elapsed_ns / NS_PER_SEC);
}
