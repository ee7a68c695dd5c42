// SPDX-License-Identifier: GPL-2.0-only
/*
 * Options that would do nothing (opt.h): each option given is
 * honoured or refused, never ignored. --header --json printed text,
 * --flame-weight without a view weighed nothing, --no-symbols --kallsyms
 * kept frames hex whatever the FILE: a user who asked for something and
 * silently did not get it trusts the output more than it deserves.
 */
#include <linux/ringtrace.h>

#include "opt.h"

/* Whether the records of the module's kind @bit can reach the output. */
static bool selected(const struct options *o, uint64_t bit)
{
	if (o->events_given)
		return o->session.events & bit;
	/* Nothing named: a replay shows every kind, a trace vfs_read. */
	return o->input || bit == RINGTRACE_EVENT_VFS_READ;
}

/* --header prints the file's header and stops: nothing else applies. */
static void check_header(const struct options *o)
{
	const char *what = o->json ? "--json" : o->hist ? "--hist" :
			   o->summary ? "--summary" : o->folded ? "--folded" :
			   o->report ? "--report" : o->flamegraph ?
			   "--flamegraph" : o->perfetto ? "--perfetto" :
			   o->ctf ? "--ctf" : o->kallsyms ? "--kallsyms" :
			   rt_filter_active(&o->filter) ?
			   "a filter (-p, -C, -t, -e, --comm, --time, --filter, "
			   "--min-latency, --min-offcpu)" : NULL;

	if (o->header && what)
		cat_usage_error("--header prints the file's header as text and "
				"stops: %s does not apply", what);
}

void cat_check_unused(const struct options *o)
{
	check_header(o);
	if (o->flame_weight_given && !o->flamegraph && !o->folded &&
	    !o->report)
		cat_usage_error("--flame-weight weighs --flamegraph, --folded "
				"and --report: give one of them");
	if (o->kallsyms && !o->symbols)
		cat_usage_error("--kallsyms names kernel frames and --no-symbols "
				"keeps every frame hex: pick one");
	if (o->session.min_latency_ns &&
	    !selected(o, RINGTRACE_EVENT_VFS_READ) &&
	    !selected(o, RINGTRACE_EVENT_FUNC))
		cat_usage_error("--min-latency selects vfs_read and func calls: "
				"-e names neither");
	if (o->min_offcpu_given && !selected(o, RINGTRACE_EVENT_OFFCPU))
		cat_usage_error("--min-offcpu selects offcpu intervals: %s",
				o->events_given ? "-e does not name offcpu" :
				"trace them with -e offcpu");
	/* Raw output copies the rings unmerged: no window to hold them. */
	if (o->raw && o->window_given && !o->input)
		cat_usage_error("--reorder-window: --raw writes each ring as it "
				"is, unmerged (a replay merges them)");
}
