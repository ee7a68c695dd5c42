// SPDX-License-Identifier: GPL-2.0-only
/*
 * --graph vfs_read (opt.h): each read's callees as a function graph
 * (lib/views/graph.c). Live it traces vfs_read and, as func records,
 * the functions of --graph-funcs (names and globs, resolved here against
 * the kernel's list) or the usual callees the kernel has, and the
 * traced tasks' off-CPU intervals with the kernel stack they left with
 * (unless --no-offcpu); on replay it shows the func and offcpu records
 * the file holds.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/ringtrace.h>

#include "opt.h"
#include "ringtrace/funcs.h"

static void set_graph(struct options *o, const char *arg)
{
	if (strcmp(arg, "vfs_read"))
		cat_usage_error("--graph: only vfs_read's callees are graphed, "
				"not '%s'", arg);
	o->graph = true;
}

CAT_SET_STR(set_graph_funcs, graph_funcs)
CAT_SET_FLAG(set_no_offcpu, graph_no_offcpu)

#define MAX_GRAPH_DEPTH	64

static void set_graph_depth(struct options *o, const char *arg)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (!*arg || *end || !n || n > MAX_GRAPH_DEPTH)
		cat_usage_error("--graph-depth takes 1 to %d, not '%s'",
				MAX_GRAPH_DEPTH, arg);
	o->graph_depth = (uint32_t)n;
}

const struct cat_opt cat_graph_opts[] = {
	{ "graph",		0, required_argument,	set_graph },
	{ "graph-funcs",	0, required_argument,	set_graph_funcs },
	{ "graph-depth",	0, required_argument,	set_graph_depth },
	{ "no-offcpu",		0, no_argument,		set_no_offcpu },
	CAT_OPT_END,
};

/*
 * The view --graph would share the output with, or NULL. The weighted
 * views (--folded, --flamegraph, --report) take its trees instead of
 * its text: where the reads' wall time went.
 */
static const char *other_view(const struct options *o)
{
	return o->hist ? "--hist" : o->summary ? "--summary" :
	       o->perfetto ? "--perfetto" : o->ctf ? "--ctf" : NULL;
}

/* --graph-funcs, or the default callees, into the session's names. */
static void resolve(struct options *o)
{
	struct rt_session_opts *so = &o->session;
	/* as many as a session may name, then kept as many as matched */
	char (*names)[RINGTRACE_FUNC_NAME_LEN] = calloc(RINGTRACE_MAX_FUNCS,
							sizeof(*names));
	char err[512];
	uint32_t nr = 0;

	if (!names || rt_funcs_resolve(o->graph_funcs, rt_funcs_read_callees,
				       rt_funcs_lists, names, &nr, err,
				       sizeof(err)))
		cat_usage_error("--graph%s: %s", o->graph_funcs ? "-funcs" : "",
				names ? err : "no memory");
	if (rt_session_opts_set_funcs(so, (const char (*)[RINGTRACE_FUNC_NAME_LEN])
				      names, nr))
		cat_usage_error("--graph: no memory for %u names", nr);
	free(names);
	for (uint32_t i = 0; i < so->nr_funcs; i++)
		if (!strcmp(so->funcs[i], "vfs_read"))
			cat_usage_error("--graph-funcs: vfs_read is the read "
					"itself, not one of its callees");
	so->events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_FUNC;
	/*
	 * The module records callees only inside the traced reads, if it
	 * can; otherwise the graph drops those outside (counted).
	 */
	so->func_in_read = true;
	/*
	 * With --min-latency the module also holds them until their read
	 * returns and writes only those of the reads it keeps, if it can;
	 * otherwise those of faster reads are dropped here (outside).
	 */
	so->func_hold = so->min_latency_ns != 0;
	o->events_given = true;
	if (o->graph_no_offcpu)
		return;
	/*
	 * Where the reads were off CPU: every interval (a shorter one's
	 * time would count as on CPU), unless --min-offcpu says otherwise,
	 * each with the kernel stack it left with: where it blocked.
	 */
	so->events |= RINGTRACE_EVENT_OFFCPU;
	if (!o->min_offcpu_given)
		so->min_offcpu_ns = 0;
	so->stack_events |= RINGTRACE_EVENT_OFFCPU;
	so->stack_kernel_depth = RINGTRACE_STACK_MAX_DEPTH;
}

void cat_check_graph(struct options *o)
{
	const char *view = other_view(o);

	if (!o->graph) {
		if (o->graph_funcs || o->graph_depth || o->graph_no_offcpu)
			cat_usage_error("%s shapes --graph vfs_read: give it",
					o->graph_funcs ? "--graph-funcs" :
					o->graph_depth ? "--graph-depth" :
					"--no-offcpu");
		return;
	}
	if (o->graph_no_offcpu && o->min_offcpu_given)
		cat_usage_error("--min-offcpu selects off-CPU intervals, which "
				"--no-offcpu leaves out: pick one");
	if (o->events_given)
		cat_usage_error("--graph vfs_read picks the events (vfs_read "
				"and its callees' func records): -e does not "
				"apply");
	if (view)
		cat_usage_error("--graph is a view of its own: not with %s",
				view);
	if (o->session.func_args)
		cat_usage_error("--args: --graph shows no arguments");
	if ((o->folded || o->flamegraph || o->report) &&
	    o->flame_weight_given && o->flame_weight != FLAME_LATENCY)
		cat_usage_error("--graph weighs each read's wall time (ns in "
				"vfs_read): --flame-weight latency, or none");
	if (o->input) {
		if (o->graph_funcs)
			cat_usage_error("--graph-funcs picks what a trace "
					"records: a replay graphs the func "
					"records the file holds");
		if (o->raw)
			cat_usage_error("--graph prints the graph: -i FILE "
					"--raw copies records");
		return;
	}
	/* --raw records what the graph needs, for a replay to show. */
	if (o->raw && o->graph_depth)
		cat_usage_error("--graph-depth shapes the printed graph: --raw "
				"records every span (give it on replay)");
	resolve(o);
}
