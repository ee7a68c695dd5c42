// SPDX-License-Identifier: GPL-2.0-only
/*
 * A trace, ringtrace-cat's default mode (opt.h): the stream or views
 * of a live run, with perf_event_open beside the module's rings. Its own
 * options: perf's, and when and where the reader wakes up.
 */
#include <stdint.h>
#include <string.h>

#include "opt.h"
#include "ringtrace/parse.h"

static void set_watermark(struct options *o, const char *arg)
{
	o->session.watermark_bytes = (uint32_t)cat_size_arg("--watermark", arg,
							    UINT32_MAX);
}

static void set_flush(struct options *o, const char *arg)
{
	uint64_t ns = cat_duration_arg("--flush-interval", arg,
				       rt_parse_duration);

	cat_ns_in_range("--flush-interval", arg, ns, MIN_FLUSH_NS,
			MAX_FLUSH_NS);
	o->session.flush_ms = (uint32_t)(ns / NS_PER_MS);
}

static void set_counters(struct options *o, const char *arg)
{
	struct rt_counters probe;
	char names[1024];	/* the message lists every name */

	/* Check the names now: a typo is a usage error. */
	if (rt_counters_parse(&probe, arg, names, sizeof(names)))
		cat_usage_error("--counters: %s", names);
	o->perf.counters = arg;
}

static void set_interval(struct options *o, const char *arg)
{
	o->perf.interval_ns = cat_ns_in_range("--interval", arg,
					      cat_ms_arg("--interval", arg),
					      RT_PERF_MIN_INTERVAL_NS,
					      MAX_DURATION_NS);
}

static void set_sample(struct options *o, const char *arg)
{
	char err[256];

	if (rt_perf_sample_parse(arg, &o->perf.sample_spec, err, sizeof(err)))
		cat_usage_error("--sample: %s", err);
	o->perf.sample = true;
}

static void set_sample_buffer(struct options *o, const char *arg)
{
	o->sample_buffer = cat_size_arg("--sample-buffer", arg, 1ull << 32);
	cat_check_buffer_size("--sample-buffer", arg, o->sample_buffer);
}

CAT_SET_FLAG(set_callchain, callchain)

static void set_reader(struct options *o, const char *arg)
{
	if (strcmp(arg, "follow") && strcmp(arg, "plain"))
		cat_usage_error("--reader: '%s' is not follow or plain", arg);
	o->reader_plain = !strcmp(arg, "plain");
}

/* A snapshot prints what the rings hold, in order, when asked: no merge. */
static void set_window(struct options *o, const char *arg)
{
	o->window_ns = cat_ns_in_range("--reorder-window", arg,
				       cat_ms_arg("--reorder-window", arg),
				       0, MAX_WINDOW_NS);
	o->window_given = true;
}

const struct cat_opt cat_trace_opts[] = {
	{ "watermark",		0,   required_argument,	set_watermark },
	{ "flush-interval",	0,   required_argument,	set_flush },
	{ "reorder-window",	0,   required_argument,	set_window },
	{ "reader",		0,   required_argument,	set_reader },
	{ "counters",		0,   required_argument,	set_counters },
	{ "interval",		0,   required_argument,	set_interval },
	{ "sample",		0,   required_argument,	set_sample },
	{ "callchain",		'g', no_argument,	set_callchain },
	{ "sample-buffer",	0,   required_argument,	set_sample_buffer },
	CAT_OPT_END,
};

/* -g and --sample-buffer apply to --sample, whatever the order given. */
static void check_perf_options(struct options *o)
{
	struct rt_perf_session_opts *p = &o->perf;

	if (!p->sample && (o->callchain || o->sample_buffer))
		cat_usage_error("%s needs --sample", o->sample_buffer ?
				"--sample-buffer" : "-g");
	p->sample_spec.callchain = o->callchain;
	if (o->sample_buffer)
		p->sample_spec.buffer_bytes = o->sample_buffer;
	if (p->interval_ns && !p->counters && !o->hist && !o->summary)
		cat_usage_error("--interval needs --counters, --hist or "
				"--summary");
	p->window_ns = o->window_ns;
}

static void check_trace(struct options *o)
{
	check_perf_options(o);
	cat_check_graph(o);
	cat_check_views(o);
	/*
	 * Raw output copies the rings undecoded: only the module filters.
	 * (--per-thread's -t is the module's selection; cat_check_live()
	 * says what per-thread lacks.)
	 */
	if (o->raw && ((o->filter.nr_tids && !o->per_thread) ||
		       o->filter.comm || o->filter.relative ||
		       o->filter.nr_pids > 1 || o->filter.nr_exprs))
		cat_usage_error("--raw records what the module selects: -t, "
				"--comm, --time, --filter and several -p pids "
				"filter a replay (-i)");
	if (o->raw && o->session.min_latency_ns && o->session.nr_funcs &&
	    !o->graph)
		cat_usage_error("--raw records every func call: --min-latency "
				"selects them on replay (-i)");
	cat_check_outputs(o);
	cat_check_unused(o);
	cat_check_live(o);
}

const struct cat_mode cat_mode_trace = {
	.name	= "a trace",
	.tables	= { cat_common_opts, cat_live_opts, cat_view_opts,
		    cat_trace_opts, cat_graph_opts, NULL },
	.check	= check_trace,
};
