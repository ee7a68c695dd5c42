// SPDX-License-Identifier: GPL-2.0-only
/*
 * Options of what ringtrace-cat makes of the stream in userspace, live
 * or on replay (opt.h): views instead of the stream (views.c)
 * and the filters applied here, not in the module.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "flame.h"
#include "opt.h"

CAT_SET_FLAG(set_hist, hist)
CAT_SET_FLAG(set_summary, summary)
CAT_SET_FLAG(set_folded, folded)
CAT_SET_STR(set_flamegraph, flamegraph)
CAT_SET_STR(set_perfetto, perfetto)
CAT_SET_STR(set_ctf, ctf)
CAT_SET_STR(set_comm, filter.comm)

static void set_hist_by(struct options *o, const char *arg)
{
	if (rt_hist_by_parse(arg, &o->hist_by))
		cat_usage_error("--hist-by: '%s' is not comm, pid, cgroup or "
				"file", arg);
	o->hist = true;
}

/* Perf report's table (views.c, report.h). */
CAT_SET_FLAG(set_report, report)

static void set_report_by(struct options *o, const char *arg)
{
	if (rt_report_by_parse(arg, &o->report_by))
		cat_usage_error("--report-by: '%s' is not sym, comm or dso", arg);
	o->report = true;
}

static void set_flame_weight(struct options *o, const char *arg)
{
	if (cat_flame_weight_parse(arg, &o->flame_weight))
		cat_usage_error("--flame-weight: '%s' is not samples, latency, "
				"bytes or offcpu", arg);
	o->flame_weight_given = true;
}

static void set_time(struct options *o, const char *arg)
{
	char err[256];

	if (rt_filter_parse_time(arg, &o->filter, err, sizeof(err)))
		cat_usage_error("--time %s: %s", arg, err);
}

/* parsed once here, evaluated per record (filter_expr.h). */
static void set_filter(struct options *o, const char *arg)
{
	char err[256];

	if (rt_filter_add_expr(&o->filter, arg, err, sizeof(err)))
		cat_usage_error("--filter '%s': %s", arg, err);
}

static void set_kallsyms(struct options *o, const char *arg)
{
	/* Unreadable: refused now, not after the whole replay. */
	if (access(arg, R_OK))
		cat_usage_error("--kallsyms %s: %s", arg, strerror(errno));
	o->kallsyms = arg;
}

/* A trace and a replay: views, and filters applied in userspace. */
const struct cat_opt cat_view_opts[] = {
	{ "hist",		0, no_argument,		set_hist },
	{ "hist-by",		0, required_argument,	set_hist_by },
	{ "summary",		0, no_argument,		set_summary },
	{ "report",		0, no_argument,		set_report },
	{ "report-by",		0, required_argument,	set_report_by },
	{ "folded",		0, no_argument,		set_folded },
	{ "flamegraph",		0, required_argument,	set_flamegraph },
	{ "flame-weight",	0, required_argument,	set_flame_weight },
	{ "perfetto",		0, required_argument,	set_perfetto },
	{ "ctf",		0, required_argument,	set_ctf },
	{ "kallsyms",		0, required_argument,	set_kallsyms },
	{ "comm",		0, required_argument,	set_comm },
	{ "time",		0, required_argument,	set_time },
	{ "filter",		0, required_argument,	set_filter },
	CAT_OPT_END,
};

/* The views' combinations, live and on replay. */
void cat_check_views(struct options *o)
{
	bool views = o->hist || o->summary || o->flamegraph || o->perfetto ||
		     o->ctf;

	if (o->json && o->raw)
		cat_usage_error("--json and --raw are alternatives: pick one");
	if (o->folded && (o->json || o->raw))
		cat_usage_error("--folded is an output format: not with %s",
				o->json ? "--json" : "--raw");
	if ((views || o->report) && o->raw)
		cat_usage_error("--raw records; views (--hist, --summary, "
				"--report, --flamegraph, --perfetto, --ctf) read "
				"it back with -i");
	/*
	 * --hist, --summary and --report have JSON printers; the views that
	 * write files of their own print nothing to the output.
	 */
	if (o->json && views && !o->hist && !o->summary && !o->report)
		cat_usage_error("--json prints the stream, or --hist, --summary "
				"and --report; --flamegraph, --perfetto and "
				"--ctf write files of their own");
	/*
	 * The weight of --folded, --flamegraph and --report (flame.h):
	 * live, from what the trace records; on replay from what the file
	 * holds, once it is open (replay.c).
	 */
	if (cat_flame_view(o) && !o->input) {
		char why[256];

		if (cat_flame_pick(cat_flame_view(o), o->flame_weight_given,
				   &o->flame_weight, cat_flame_live_kinds(o),
				   CAT_FLAME_ALL, NULL, why, sizeof(why)))
			cat_usage_error("%s", why);
	}
}
