// SPDX-License-Identifier: GPL-2.0-only
/*
 * A replay, ringtrace-cat -i FILE (opt.h): a raw file decoded, shown
 * through the views, or copied filtered (--raw). The selections of a
 * trace (-p, -C, -t, -e, --min-latency) become its filters.
 */
#include <string.h>

#include "opt.h"

CAT_SET_STR(set_input, input)
CAT_SET_FLAG(set_header, header)

/*
 * --interval on replay: blocks of the records' own clock (views.c).
 * Nothing is woken up for them, so they may be as short as a microsecond,
 * where a trace's are at least 10ms (perf's counters read with them).
 */
static void set_interval(struct options *o, const char *arg)
{
	o->perf.interval_ns = cat_ns_in_range("--interval", arg,
					      cat_ms_arg("--interval", arg),
					      1000, MAX_DURATION_NS);
}

const struct cat_opt cat_replay_opts[] = {
	{ "input",		'i', required_argument,	set_input },
	{ "header",		0,   no_argument,	set_header },
	/* --hist, --summary every MS of the records' clock (views.c) */
	{ "interval",		0,   required_argument,	set_interval },
	CAT_OPT_END,
};

/* Tracing selections become the filters of a replay (-i). */
static void replay_filters(struct options *o)
{
	if (o->session.cpus_given) {
		o->filter.cpus = o->session.cpus;
		o->filter.cpus_given = true;
	}
	if (o->events_given)
		o->filter.events = o->session.events;
	o->filter.min_latency_ns = o->session.min_latency_ns;
	/* func calls too, but --graph's callees (see cat_check_live()) */
	if (!o->graph)
		o->filter.min_func_latency_ns = o->session.min_latency_ns;
	/* a replay keeps what the recording kept unless told. */
	if (o->min_offcpu_given)
		o->filter.min_offcpu_ns = o->session.min_offcpu_ns;
}

static void check_replay(struct options *o)
{
	if (o->command)
		cat_usage_error("a COMMAND does not apply to %s: it decodes "
				"what the file holds", cat_mode_replay.name);
	cat_check_graph(o);
	cat_check_views(o);
	cat_check_outputs(o);
	/* --raw writes the filtered or time-sliced copy. */
	if (o->raw && o->header)
		cat_usage_error("--header prints the header: --raw does not "
				"apply");
	cat_check_stdout(o);
	if (o->perf.interval_ns && !o->hist && !o->summary)
		cat_usage_error("--interval needs --hist or --summary on %s",
				cat_mode_replay.name);
	replay_filters(o);
	cat_check_unused(o);
}

const struct cat_mode cat_mode_replay = {
	.name	= "a replay (-i FILE)",
	.tables	= { cat_common_opts, cat_view_opts, cat_replay_opts,
		    cat_graph_opts, NULL },
	.check	= check_replay,
};
