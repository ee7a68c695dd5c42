// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The Prometheus text exposition format (version 0.0.4) of the exporter's
 * table (metrics.h): families in a fixed order, each one's HELP and TYPE
 * then its samples, histograms as cumulative _bucket{le=...}, _sum and
 * _count.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "ringtrace/escape.h"
#include "ringtrace/metrics.h"

/* A label value: backslash, quote and newline escaped; valid UTF-8. */
static void put_label(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	while (left) {
		size_t n = rt_utf8_seq_len(p, left);

		if (!n) {
			fputs("\xef\xbf\xbd", f);	/* U+FFFD */
			n = 1;
		} else if (*p == '\\') {
			fputs("\\\\", f);
		} else if (*p == '"') {
			fputs("\\\"", f);
		} else if (*p == '\n') {
			fputs("\\n", f);
		} else {
			fwrite(p, 1, n, f);
		}
		p += n;
		left -= n;
	}
}

/* Nanoseconds as seconds, exactly: 1234567890 -> "1.234567890". */
static void put_seconds(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u,
		ns % 1000000000u);
}

/* The third label: a read's file class, a call's function, or none. */
enum third_label { NO_THIRD, CLASS, FUNCTION };

static void put_labels(FILE *f, const struct rt_metrics_series *s,
		       enum third_label third)
{
	fputs("{cgroup=\"", f);
	put_label(f, s->cgroup);
	fputs("\",comm=\"", f);
	put_label(f, s->comm);
	if (third == CLASS) {
		fputs("\",class=\"", f);
		fputs(rt_metrics_class_name(s->cls), f);
	} else if (third == FUNCTION) {
		fputs("\",function=\"", f);
		put_label(f, s->func);
	}
	fputc('"', f);
}

static void family(FILE *f, const char *name, const char *type,
		   const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void hist(FILE *f, const char *name, const struct rt_metrics_series *s,
		 const struct rt_metrics_hist *h, enum third_label third)
{
	uint64_t cum = 0;

	for (unsigned int b = 0; b <= RT_METRICS_BOUNDS; b++) {
		cum += h->bucket[b];
		fprintf(f, "%s_bucket", name);
		put_labels(f, s, third);
		fputs(",le=\"", f);
		if (b < RT_METRICS_BOUNDS)
			put_seconds(f, rt_metrics_bound_ns(b));
		else
			fputs("+Inf", f);
		fprintf(f, "\"} %" PRIu64 "\n", cum);
	}
	fprintf(f, "%s_sum", name);
	put_labels(f, s, third);
	fputs("} ", f);
	put_seconds(f, h->sum_ns);
	fprintf(f, "\n%s_count", name);
	put_labels(f, s, third);
	fprintf(f, "} %" PRIu64 "\n", h->count);
}

static bool is_read_series(const struct rt_metrics_series *s)
{
	return s->used && s->cls != RT_MC_NONE;
}

static const struct {
	const char	*name;
	const char	*help;
} hists[RT_MH_NR] = {
	[RT_MH_VFS_READ] = { "ringtrace_vfs_read_duration_seconds",
		"vfs_read latency by cgroup, command and file class." },
	[RT_MH_LOCK_WAIT] = { "ringtrace_lock_wait_seconds",
		"Time waiting for a lock by cgroup and command." },
	[RT_MH_LOCK_HOLD] = { "ringtrace_lock_hold_seconds",
		"Time holding a tracked lock by cgroup and command." },
	[RT_MH_OFFCPU] = { "ringtrace_offcpu_seconds",
		"Intervals off CPU by cgroup and command." },
	[RT_MH_FUNC] = { "ringtrace_func_duration_seconds",
		"Latency of calls of traced kernel functions (-e func:NAME) "
		"by cgroup, command and function." },
};

static void counter(FILE *f, const struct rt_metrics *m, uint32_t n,
		    const char *name, const char *help, size_t off)
{
	family(f, name, "counter", help);
	for (uint32_t i = 0; i < n; i++) {
		const struct rt_metrics_series *s = &m->series[i];
		uint64_t v;

		if (!is_read_series(s) || !s->h[RT_MH_VFS_READ].count)
			continue;
		memcpy(&v, (const char *)s + off, sizeof(v));
		fputs(name, f);
		put_labels(f, s, CLASS);
		fprintf(f, "} %" PRIu64 "\n", v);
	}
}

int rt_metrics_print_prom(FILE *f, const struct rt_metrics *m,
			  const struct rt_metrics_health *h)
{
	uint32_t n = m->max_series + 2;	/* unused slots are skipped */
	static const struct {
		enum rt_event_kind	kind;
		const char		*name;
	} kinds[] = {
		{ RT_EVENT_VFS_READ, "vfs_read" },
		{ RT_EVENT_LOCK, "lock" },
		{ RT_EVENT_OFFCPU, "offcpu" },
		{ RT_EVENT_FUNC, "func" },
		{ RT_EVENT_SAMPLE, "sample" },
		{ RT_EVENT_COUNTERS, "counters" },
	};

	for (unsigned int k = 0; k < RT_MH_NR; k++) {
		family(f, hists[k].name, "histogram", hists[k].help);
		for (uint32_t i = 0; i < n; i++) {
			const struct rt_metrics_series *s = &m->series[i];
			bool read = k == RT_MH_VFS_READ;

			if (!s->used || is_read_series(s) != read ||
			    !s->h[k].count)
				continue;
			hist(f, hists[k].name, s, &s->h[k],
			     read ? CLASS : k == RT_MH_FUNC ? FUNCTION :
			     NO_THIRD);
		}
	}
	counter(f, m, n, "ringtrace_vfs_read_bytes_total",
		"Bytes vfs_read returned.",
		offsetof(struct rt_metrics_series, bytes));
	counter(f, m, n, "ringtrace_vfs_read_errors_total",
		"vfs_read calls that failed.",
		offsetof(struct rt_metrics_series, errors));

	family(f, "ringtrace_exporter_records_total", "counter",
	       "Records read, by event.");
	for (unsigned int k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		fprintf(f, "ringtrace_exporter_records_total{event=\"%s\"} %"
			PRIu64 "\n", kinds[k].name, m->records[kinds[k].kind]);
	family(f, "ringtrace_exporter_lost_records_total", "counter",
	       "Records the kernel dropped (rings full).");
	fprintf(f, "ringtrace_exporter_lost_records_total %" PRIu64 "\n",
		m->lost + h->lost_pending);
	family(f, "ringtrace_exporter_func_missed_total", "counter",
	       "Calls of traced functions the probes missed (no record).");
	fprintf(f, "ringtrace_exporter_func_missed_total %" PRIu64 "\n",
		h->func_missed);
	family(f, "ringtrace_exporter_other_records_total", "counter",
	       "Records counted in the [other] series (series limit reached).");
	fprintf(f, "ringtrace_exporter_other_records_total %" PRIu64 "\n",
		m->other_records);
	family(f, "ringtrace_exporter_series", "gauge",
	       "Keys (cgroup, comm, class) with a series of their own.");
	fprintf(f, "ringtrace_exporter_series %" PRIu32 "\n", m->nr_series);
	family(f, "ringtrace_exporter_series_limit", "gauge",
	       "At most this many keys have a series of their own.");
	fprintf(f, "ringtrace_exporter_series_limit %" PRIu32 "\n",
		m->max_series);
	family(f, "ringtrace_exporter_reader_cpu_seconds_total", "counter",
	       "CPU time of the thread that reads the rings.");
	fputs("ringtrace_exporter_reader_cpu_seconds_total ", f);
	put_seconds(f, h->reader_cpu_ns);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
