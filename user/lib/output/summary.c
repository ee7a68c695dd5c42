// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* End-of-run summary (see summary.h); not a hot path, so plain stdio. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ringtrace/health.h"
#include "ringtrace/summary.h"

static void add_counts(struct rt_source_counts *t, const struct rt_source *srcs,
		       uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct rt_source_counts *c = &srcs[i].counts;

		t->records += c->records;
		t->paths += c->paths;
		t->cgroups += c->cgroups;
		t->samples += c->samples;
		t->counters += c->counters;
		t->lost += c->lost;
		t->lost_records += c->lost_records;
		t->bytes += c->bytes;
		t->unknown += c->unknown;
		t->malformed += c->malformed;
		t->forced += c->forced;
		t->fp_loops += c->fp_loops;
	}
}

struct rt_source_counts rt_summary_totals(const struct rt_summary *s)
{
	struct rt_source_counts t = { 0 };

	add_counts(&t, s->srcs, s->nr_srcs);
	add_counts(&t, s->perf_srcs, s->nr_perf_srcs);
	add_counts(&t, s->counter_srcs, s->nr_counter_srcs);
	return t;
}

/*
 * One row per ring, named by whose it is: ringtrace's "cpu 3" (or a
 * per-thread ring's "thread 1234"), perf's "perf cpu 3", the counter
 * snapshots' "counters" (CPUs 0,1,0,1 said nothing of which).
 */
static void ring_rows(FILE *out, const char *kind, const struct rt_source *srcs,
		      uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		const struct rt_source_counts *c = &srcs[i].counts;
		char ring[32];

		if (srcs[i].tid)
			snprintf(ring, sizeof(ring), "%sthread %" PRIu32, kind,
				 srcs[i].tid);
		else if (!strcmp(kind, "counters"))
			snprintf(ring, sizeof(ring), "counters");
		else
			snprintf(ring, sizeof(ring), "%scpu %" PRIu32, kind,
				 srcs[i].cpu);
		fprintf(out, "  %-16s %10" PRIu64 " %8" PRIu64 " %9" PRIu64
			" %9" PRIu64 " %8" PRIu64 " %12" PRIu64 " %8" PRIu64
			" %9" PRIu64 "\n", ring, c->records, c->paths,
			c->samples, c->counters, c->lost, c->bytes, c->unknown,
			c->malformed);
	}
}

static void per_cpu(FILE *out, const struct rt_summary *s)
{
	fprintf(out, "  %-16s %10s %8s %9s %9s %8s %12s %8s %9s\n", "ring",
		"records", "paths", "samples", "counters", "lost", "bytes",
		"unknown", "malformed");
	ring_rows(out, "", s->srcs, s->nr_srcs);
	ring_rows(out, "perf ", s->perf_srcs, s->nr_perf_srcs);
	ring_rows(out, "counters", s->counter_srcs, s->nr_counter_srcs);
}

static void kernel_totals(FILE *out, const struct ringtrace_stats *k)
{
	fprintf(out, "  kernel: %" PRIu64 " produced = %" PRIu64 " written + %"
		PRIu64 " lost; %" PRIu64 " bytes; %" PRIu64 " on CPUs without "
		"a ring\n", (uint64_t)k->produced, (uint64_t)k->records,
		(uint64_t)k->lost, (uint64_t)k->bytes, (uint64_t)k->no_ring);
	fprintf(out, "  kernel: vfs_read %" PRIu64 " calls seen, %" PRIu64
		" missed by the attach mechanism (module-wide)\n",
		(uint64_t)k->vfs_read_hits, (uint64_t)k->vfs_read_missed);
}

/* Size in the units --buffer-size takes back: 64K, 8M, 1G. */
static void size_str(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	unsigned int u = 0;

	if (bytes < 1024 || bytes % 1024) {
		snprintf(buf, len, "%" PRIu64, bytes);
		return;
	}
	bytes /= 1024;
	while (bytes >= 1024 && !(bytes % 1024) && units[u + 1]) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", bytes, units[u]);
}

/*
 * records were lost; say where, how full the rings got, and the
 * --buffer-size that would have held the peak of the worst ring.
 */
static void buffer_advice(FILE *out, const struct rt_summary *s)
{
	const struct ringtrace_ring_stats *w;
	uint64_t best = 0, lost = 0, size, w_lost, hw;
	uint32_t worst = 0, rings_lost = 0;
	char now[32], want[32];

	for (uint32_t i = 0; i < s->nr_rings; i++) {
		const struct ringtrace_ring_stats *r = &s->rings[i];
		uint64_t want_i = rt_health_suggest_buffer(r, s->page_size);

		if (!r->lost)
			continue;
		rings_lost++;
		lost += r->lost;
		if (want_i > best) {
			best = want_i;
			worst = i;
		}
	}
	if (!rings_lost)
		return;
	w = &s->rings[worst];
	w_lost = w->lost;
	hw = w->high_water;

	size = w->data_size;
	size_str(size, now, sizeof(now));
	size_str(best, want, sizeof(want));
	fprintf(out, "%s: %" PRIu64 " records lost on %u ring%s: the reader "
		"fell behind (%s %u: %" PRIu64 " lost, peak fill %u"
		"%% of %s)\n", s->prog, lost, rings_lost,
		rings_lost == 1 ? "" : "s",
		w->cpu == RINGTRACE_CPU_NONE ? "thread" : "CPU",
		w->cpu == RINGTRACE_CPU_NONE ? w->tid : w->cpu, w_lost,
		rt_health_percent(hw, size), now);
	fprintf(out, "%s: --buffer-size %s would have held the peak "
		"(high-water mark + %" PRIu64 " lost records at %" PRIu64
		" bytes each)\n", s->prog, want, w_lost,
		rt_health_mean_record(w));
}

/*
 * -v: how close the run came to losing records, lost or not: the fullest
 * any ring got (its high-water mark, exact, from the kernel).
 */
static void peak_fill(FILE *out, const struct rt_summary *s)
{
	const struct ringtrace_ring_stats *w = NULL;
	unsigned int pct, best = 0;
	char size[32];

	for (uint32_t i = 0; i < s->nr_rings; i++) {
		const struct ringtrace_ring_stats *r = &s->rings[i];

		pct = rt_health_percent(r->high_water, r->data_size);
		if (!w || pct > best) {
			w = r;
			best = pct;
		}
	}
	if (!w)
		return;
	size_str(w->data_size, size, sizeof(size));
	fprintf(out, "  peak fill: %u%% of %s (%s %u), the most a ring held "
		"unread\n", best, size,
		w->cpu == RINGTRACE_CPU_NONE ? "thread" : "cpu",
		w->cpu == RINGTRACE_CPU_NONE ? w->tid : w->cpu);
}

/* "N what" or "1 what" without its final s; @sep before it. */
static void count(FILE *out, const char *sep, uint64_t n, const char *what)
{
	fprintf(out, "%s%" PRIu64 " %s%s", sep, n, what, n == 1 ? "" : "s");
}

void rt_summary_print(FILE *out, const struct rt_summary *s)
{
	struct rt_source_counts t = rt_summary_totals(s);
	uint64_t ms = s->elapsed_ns / 1000000;

	fprintf(out, "%s: ", s->prog);
	count(out, "", t.records, "record");
	if (t.paths)
		count(out, ", ", t.paths, "path record");
	if (t.cgroups)
		count(out, ", ", t.cgroups, "cgroup record");
	if (t.samples)
		count(out, ", ", t.samples, "sample");
	if (t.counters)
		count(out, ", ", t.counters, "counter snapshot");
	fprintf(out, ", %" PRIu64 " lost, %" PRIu64 " bytes",
		t.lost + s->lost_pending, t.bytes);
	if (s->elapsed_ns != RT_SUMMARY_NO_TIME)
		fprintf(out, " in %" PRIu64 ".%03" PRIu64 " s", ms / 1000,
			ms % 1000);
	if (t.unknown)
		fprintf(out, ", %" PRIu64 " of unknown type skipped", t.unknown);
	if (t.malformed)
		fprintf(out, ", %" PRIu64 " malformed skipped", t.malformed);
	fputc('\n', out);
	if (t.fp_loops)
		fprintf(out, "%s: %" PRIu64 " user stack%s cut at a frame-pointer "
			"loop (a frame that does not move up the stack)\n",
			s->prog, t.fp_loops, t.fp_loops == 1 ? "" : "s");
	/* Calls of -e func:NAME that no record has: said like lost ones. */
	if (s->func_missed)
		fprintf(out, "%s: %" PRIu64 " func call%s missed by the probe "
			"(more calls in flight than it follows): no record\n",
			s->prog, s->func_missed, s->func_missed == 1 ? "" : "s");
	/* Off-CPU intervals the module could not follow: the same. */
	if (s->offcpu_missed)
		fprintf(out, "%s: %" PRIu64 " off-CPU interval%s the module "
			"could not follow (its table of tasks off CPU was "
			"full; module-wide): no record\n", s->prog,
			s->offcpu_missed, s->offcpu_missed == 1 ? "" : "s");
	/* --filter's ranges, applied by the module. */
	if (s->kernel && s->kernel->vfs_read_filtered)
		fprintf(out, "%s: %llu vfs_read calls filtered in the kernel "
			"(--filter), before any ring work\n", s->prog,
			(unsigned long long)s->kernel->vfs_read_filtered);
	if (s->kernel && s->kernel->no_ring)
		fprintf(out, "%s: warning: %llu records had no ring (a CPU came "
			"online after the start, or is outside -C)\n", s->prog,
			(unsigned long long)s->kernel->no_ring);
	if (s->rings)
		buffer_advice(out, s);
	if (!s->verbose)
		return;
	per_cpu(out, s);
	fprintf(out, "  lost: %" PRIu64 " reported by %" PRIu64 " LOST "
		"records, %" PRIu64 " still pending at the end\n", t.lost,
		t.lost_records, s->lost_pending);
	peak_fill(out, s);
	if (t.forced)
		fprintf(out, "  merge: %" PRIu64 " of the %" PRIu64 " records, "
			"path and cgroup records, samples and counter "
			"snapshots were emitted before their reorder window "
			"expired (a ring more than half full)\n", t.forced,
			t.records + t.paths + t.cgroups + t.samples +
			t.counters);
	if (s->kernel)
		kernel_totals(out, s->kernel);
}
