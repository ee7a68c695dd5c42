// SPDX-License-Identifier: GPL-2.0-only
/*
 * Options of a live run, a trace or a snapshot (opt.h): what the
 * module traces and how its rings are set up, and the checks both modes
 * make before tracing starts.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ringtrace.h>

#include "opt.h"
#include "ringtrace/attach.h"
#include "ringtrace/cgroup.h"
#include "ringtrace/parse.h"

CAT_SET_FLAG(set_all_cpus, system_wide)
CAT_SET_FLAG(set_per_thread, per_thread)
CAT_SET_FLAG(set_include_self, session.include_self)
CAT_SET_FLAG(set_load, load)

/*
 * the lowest cost per record. Without path records the stream
 * and the views give files as dev:ino; without cgroup records the task's
 * cgroup as its id (#ID), still recorded.
 */
static void set_no_paths(struct options *o, const char *arg)
{
	(void)arg;
	o->session.paths = false;
}

static void set_no_cgroup_names(struct options *o, const char *arg)
{
	(void)arg;
	o->session.cgroup_names = false;
}

static void set_cgroup(struct options *o, const char *arg)
{
	if (o->nr_cgroup_paths == RINGTRACE_MAX_CGROUPS)
		cat_usage_error("--cgroup: at most %u cgroups",
				RINGTRACE_MAX_CGROUPS);
	o->cgroup_paths[o->nr_cgroup_paths++] = arg;
}

static void set_stack(struct options *o, const char *arg)
{
	(void)arg;
	/* Every event traced; the deepest stacks the ABI allows. */
	o->session.stack_events = ~0ull;
	o->session.stack_kernel_depth = RINGTRACE_STACK_MAX_DEPTH;
	o->session.stack_user_depth = RINGTRACE_STACK_MAX_DEPTH;
}

static void set_attach(struct options *o, const char *arg)
{
	if (rt_attach_parse(arg, &o->session.vfs_read_attach))
		cat_usage_error("--attach: '%s' is not auto, fprobe, kretprobe "
				"or direct", arg);
}

static void set_duration(struct options *o, const char *arg)
{
	o->duration_ns = cat_duration_arg("-d", arg, rt_parse_seconds);
	if (!o->duration_ns)
		cat_usage_error("-d: the duration must be more than 0");
	if (o->duration_ns > MAX_DURATION_NS)
		cat_usage_error("-d %s: must be at most %llus (365 days); "
				"without -d, tracing runs until stopped", arg,
				MAX_DURATION_NS / NS_PER_S);
}

static void set_buffer_size(struct options *o, const char *arg)
{
	o->session.buffer_bytes = cat_size_arg("--buffer-size", arg,
					       1ull << 40);
	cat_check_buffer_size("--buffer-size", arg, o->session.buffer_bytes);
}

static void set_stats(struct options *o, const char *arg)
{
	o->stats_ns = cat_ns_in_range("--stats", arg,
				      cat_duration_arg("--stats", arg,
						       rt_parse_seconds),
				      MIN_FLUSH_NS, MAX_DURATION_NS);
}

/* A trace and a snapshot: the kernel side of the run. */
const struct cat_opt cat_live_opts[] = {
	{ "all-cpus",		'a', no_argument,	set_all_cpus },
	{ "cgroup",		0,   required_argument,	set_cgroup },
	{ "per-thread",		0,   no_argument,	set_per_thread },
	{ "include-self",	0,   no_argument,	set_include_self },
	{ "load",		0,   no_argument,	set_load },
	{ "stack",		0,   no_argument,	set_stack },
	{ "no-paths",		0,   no_argument,	set_no_paths },
	{ "no-cgroup-names",	0,   no_argument,	set_no_cgroup_names },
	{ "attach",		0,   required_argument,	set_attach },
	{ "duration",		'd', required_argument,	set_duration },
	{ "buffer-size",	0,   required_argument,	set_buffer_size },
	{ "stats",		0,   required_argument,	set_stats },
	CAT_OPT_END,
};

/*
 * --per-thread: the module selects the threads, one ring each.
 * From -t LIST, or from -p PID's threads when tracing starts (trace.c).
 */
static void check_per_thread(struct options *o)
{
	if (!o->per_thread)
		return;
	if (o->command)
		cat_usage_error("--per-thread needs threads that exist: -t LIST "
				"or -p PID, not a COMMAND");
	if (o->system_wide)
		cat_usage_error("--per-thread selects threads: not with -a");
	/*
	 * --raw, --sample and --counters record beside per-thread
	 * rings: the perf events count and sample the threads alone.
	 */
	if (o->filter.nr_tids && o->pid_given)
		cat_usage_error("--per-thread: -t LIST or -p PID, not both");
	if (o->filter.nr_tids) {
		for (uint32_t i = 0; i < o->filter.nr_tids; i++) {
			if (o->filter.tids[i] > INT32_MAX || !o->filter.tids[i])
				cat_usage_error("-t: %u is not a thread id",
						o->filter.tids[i]);
			o->thread_ids[i] = (int32_t)o->filter.tids[i];
		}
		o->session.nr_tids = o->filter.nr_tids;
		o->session.tids = o->thread_ids;
		/* The module selects them: nothing left to filter here. */
		o->filter.nr_tids = 0;
	} else if (o->pid_given && o->filter.nr_pids == 1) {
		o->per_thread_pid = o->session.pid;
		o->session.pid = -1;
	} else {
		cat_usage_error("--per-thread needs -t LIST or one -p PID");
	}
}

/*
 * Live, -e's perf kinds name what --sample and --counters record, and the
 * module gets the rest: each perf option needs its kind in the list, as
 * replay prints a kind only when -e names it. A list of perf kinds alone
 * leaves the module its default, filtered out of the output.
 */
static void live_events(struct options *o)
{
	uint64_t perf = o->session.events & RT_FILTER_PERF_EVENTS;

	if (!o->events_given)
		return;
	if ((perf & RT_FILTER_EVENT_SAMPLE) && !o->perf.sample)
		cat_usage_error("-e sample: samples are recorded with --sample");
	if ((perf & RT_FILTER_EVENT_COUNTERS) && !o->perf.counters)
		cat_usage_error("-e counters: counters are recorded with "
				"--counters");
	if (o->perf.sample && !(perf & RT_FILTER_EVENT_SAMPLE))
		cat_usage_error("--sample records samples, but -e does not name "
				"'sample': add it to -e or drop --sample");
	if (o->perf.counters && !(perf & RT_FILTER_EVENT_COUNTERS))
		cat_usage_error("--counters records counters, but -e does not "
				"name 'counters': add it to -e or drop "
				"--counters");
	o->session.events &= ~RT_FILTER_PERF_EVENTS;
	if (!o->session.events)
		o->filter.events = perf;
}

/* each --cgroup PATH to the id the module selects it by. */
static void resolve_cgroups(struct options *o)
{
	struct rt_session_opts *so = &o->session;
	char err[512];
	uint32_t i, j;
	uint64_t id;

	for (i = 0; i < o->nr_cgroup_paths; i++) {
		if (rt_cgroup_id(RT_CGROUP_ROOT, o->cgroup_paths[i], &id, err,
				 sizeof(err)))
			cat_usage_error("--cgroup: %s", err);
		for (j = 0; j < so->nr_cgroups && o->cgroup_ids[j] != id; j++)
			;
		if (j == so->nr_cgroups)	/* the same one twice: once */
			o->cgroup_ids[so->nr_cgroups++] = id;
	}
	so->cgroup_ids = so->nr_cgroups ? o->cgroup_ids : NULL;
}

/* What a trace and a snapshot both check, after their own checks. */
void cat_check_live(struct options *o)
{
	check_per_thread(o);
	live_events(o);
	resolve_cgroups(o);
	if (o->filter.relative && o->duration_ns)
		cat_usage_error("--time and -d both bound the run: pick one");
	/*
	 * The module selects vfs_reads by latency; func calls are ours
	 * (--graph's are callees, kept for the reads that pass).
	 */
	if (o->session.nr_funcs && !o->graph)
		o->filter.min_func_latency_ns = o->session.min_latency_ns;
	/*
	 * One pid: the module follows it and its descendants. Several: the
	 * module traces everything and the list is applied here.
	 */
	if (o->filter.nr_pids > 1)
		o->session.pid = -1;
	else
		o->filter.nr_pids = 0;
	if (o->pid_given && o->command)
		cat_usage_error("-p and a COMMAND both select what to trace: "
				"pick one");
	if (o->system_wide && (o->pid_given || o->command))
		cat_usage_error("-a traces everything: it cannot be combined "
				"with %s", o->pid_given ? "-p" : "a COMMAND");
	cat_check_stdout(o);
}
