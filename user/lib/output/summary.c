// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* End-of-run summary (see summary.h); not a hot path, so plain stdio. */
#include <inttypes.h>
#include <stdio.h>

#include "ringtrace/summary.h"

struct rt_source_counts rt_summary_totals(const struct rt_summary *s)
{
	struct rt_source_counts t = { 0 };

	for (uint32_t i = 0; i < s->nr_srcs; i++) {
		const struct rt_source_counts *c = &s->srcs[i].counts;

		t.records += c->records;
		t.lost += c->lost;
		t.bytes += c->bytes;
		t.unknown += c->unknown;
		t.malformed += c->malformed;
		t.forced += c->forced;
	}
	return t;
}

static void per_cpu(FILE *out, const struct rt_summary *s)
{
	fprintf(out, "  %5s %12s %10s %14s %8s %9s\n", "cpu", "records",
		"lost", "bytes", "unknown", "malformed");
	for (uint32_t i = 0; i < s->nr_srcs; i++) {
		const struct rt_source_counts *c = &s->srcs[i].counts;
		char ring[16];

		/* A per-thread ring (issue 9) is named by its thread: t1234. */
		if (s->srcs[i].tid)
			snprintf(ring, sizeof(ring), "t%" PRIu32, s->srcs[i].tid);
		else
			snprintf(ring, sizeof(ring), "%" PRIu32, s->srcs[i].cpu);
		fprintf(out, "  %5s %12" PRIu64 " %10" PRIu64 " %14" PRIu64
			" %8" PRIu64 " %9" PRIu64 "\n", ring,
			c->records, c->lost, c->bytes, c->unknown, c->malformed);
	}
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

void rt_summary_print(FILE *out, const struct rt_summary *s)
{
	struct rt_source_counts t = rt_summary_totals(s);
	uint64_t ms = s->elapsed_ns / 1000000;

	fprintf(out, "%s: %" PRIu64 " records, %" PRIu64 " lost, %" PRIu64
		" bytes", s->prog, t.records, t.lost + s->lost_pending, t.bytes);
	if (s->elapsed_ns != RT_SUMMARY_NO_TIME)
		fprintf(out, " in %" PRIu64 ".%03" PRIu64 " s", ms / 1000,
			ms % 1000);
	if (t.unknown)
		fprintf(out, ", %" PRIu64 " of unknown type skipped", t.unknown);
	if (t.malformed)
		fprintf(out, ", %" PRIu64 " malformed skipped", t.malformed);
	fputc('\n', out);
	if (s->kernel && s->kernel->no_ring)
		fprintf(out, "%s: warning: %llu records had no ring (a CPU came "
			"online after the start, or is outside -C)\n", s->prog,
			(unsigned long long)s->kernel->no_ring);
	if (!s->verbose)
		return;
	per_cpu(out, s);
	fprintf(out, "  lost: %" PRIu64 " reported by LOST records, %" PRIu64
		" still pending at the end\n", t.lost, s->lost_pending);
	if (t.forced)
		fprintf(out, "  merge: %" PRIu64 " records emitted before their "
			"reorder window expired (ring more than half full)\n",
			t.forced);
	if (s->kernel)
		kernel_totals(out, s->kernel);
}
