// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat's live trace: the module's session (and perf's events
 * beside it) opened, a COMMAND started, the records streamed to the
 * output or the views, or kept for --snapshot (flight.c), then the
 * summary. cat_trace() at the end runs it step by step; the helpers
 * above it are each step's details.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "cat.h"
#include "errors.h"
#include "flight.h"
#include "views.h"
#include "ringtrace/attach.h"
#include "ringtrace/command.h"
#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/perf_session.h"
#include "ringtrace/pidwatch.h"
#include "ringtrace/session.h"
#include "ringtrace/stream.h"
#include "ringtrace/summary.h"
#include "ringtrace/sys.h"

/*
 * --snapshot --stack: the selected process's (or threads') mappings, read
 * now. A snapshot is printed when asked, often after the process it shows
 * exited (a crash): its user frames are still named, as far as the
 * mappings it had when tracing started cover them. A COMMAND has not
 * exec'ed yet; -a and -C select no process.
 */
static void see_selected_threads(const struct options *o,
				 struct cat_views *views)
{
	pid_t *tids = NULL;
	uint32_t nr = 0;

	if (o->session.nr_tids) {
		for (uint32_t i = 0; i < o->session.nr_tids; i++)
			cat_views_see_thread(views, o->session.tids[i]);
		return;
	}
	if (o->command || o->session.pid <= 0)
		return;
	if (!rt_perf_list_threads(o->session.pid, &tids, &nr))
		for (uint32_t i = 0; i < nr; i++)
			cat_views_see_thread(views, tids[i]);
	free(tids);
}

/* perf_event_open() follows the selection: per task, or per CPU. */
static int open_perf(struct options *o, struct rt_session *s,
		     struct rt_perf_session *ps, struct rt_cpuset *cpus,
		     pid_t **tids, bool from_command)
{
	struct rt_perf_target t = { .cpus = cpus, .pid = o->session.pid };
	uint32_t nr = 0;
	long page = sysconf(_SC_PAGESIZE);
	int ret;

	if (o->session.cpus_given)
		*cpus = o->session.cpus;
	else if (rt_cpuset_online(cpus, ps->errmsg, sizeof(ps->errmsg)))
		return -1;
	if (o->session.nr_tids) {
		/*
		 * --per-thread: the threads of the rings, each
		 * alone, as the module traces them.
		 */
		t.tids = o->thread_ids;
		t.nr_tids = o->session.nr_tids;
		t.threads_only = true;
	} else if (o->session.pid > 0) {
		if (from_command) {
			*tids = malloc(sizeof(**tids));
			if (!*tids)
				return -1;
			(*tids)[0] = o->session.pid;
			nr = 1;
			t.enable_on_exec = true;
		} else if (rt_perf_list_threads(o->session.pid, tids, &nr)) {
			snprintf(ps->errmsg, sizeof(ps->errmsg), "no process "
				 "with pid %d", o->session.pid);
			return -1;
		}
		t.tids = *tids;
		t.nr_tids = nr;
	} else {
		t.per_cpu = true;
	}
	/* A raw file keeps the mappings made during the run (MMAP2). */
	o->perf.sample_spec.track_mmaps = o->raw && o->symbols;
	ret = rt_perf_session_open(ps, &o->perf, &t,
				   page > 0 ? (size_t)page : 4096);
	if (!ret && ps->has_sampler)
		rt_comm_cache_scan(ps->sampler.comms, o->per_thread_pid ?
				   o->per_thread_pid : o->session.pid);
	if (!ret)
		ret = rt_perf_session_watch(ps, s->epfd);
	if (ret && !ps->errmsg[0])
		snprintf(ps->errmsg, sizeof(ps->errmsg), "cannot watch the perf "
			 "rings: %s", strerror(-ret));
	return ret;
}

/*
 * --per-thread -p PID: the threads PID has now, one ring each.
 * Threads it starts later are not traced (perf's --per-thread does the
 * same); -t names them explicitly.
 */
static int per_thread_list(struct options *o)
{
	pid_t *tids = NULL;
	uint32_t nr = 0;

	if (rt_perf_list_threads(o->per_thread_pid, &tids, &nr) || !nr) {
		cat_error("no process with pid %d", o->per_thread_pid);
		free(tids);
		return -1;
	}
	if (nr > RT_FILTER_MAX_IDS) {
		cat_error("process %d has %u threads; --per-thread "
			  "takes at most %u: pick them with -t",
			  o->per_thread_pid, nr, RT_FILTER_MAX_IDS);
		free(tids);
		return -1;
	}
	for (uint32_t i = 0; i < nr; i++)
		o->thread_ids[i] = tids[i];
	o->session.nr_tids = nr;
	o->session.tids = o->thread_ids;
	free(tids);
	return 0;
}

/* "'ls -l'", "process id '12'", "'CPU(s) 0-1'", "'system wide'": perf's titles. */
static void perf_title(const struct options *o, char *buf, size_t len)
{
	char cpus[128];
	size_t used;

	if (o->command) {
		used = (size_t)snprintf(buf, len, "'");
		for (char **a = o->command; *a && used < len; a++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 a == o->command ? "" : " ", *a);
		if (used < len)
			snprintf(buf + used, len - used, "'");
	} else if (o->per_thread) {
		/* perf stat -t's title; a row per thread (perf_counters.c) */
		used = (size_t)snprintf(buf, len, "thread id '");
		for (uint32_t i = 0; i < o->session.nr_tids && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%d",
						 i ? "," : "",
						 o->thread_ids[i]);
		if (used < len)
			snprintf(buf + used, len - used, "'");
	} else if (o->pid_given) {
		snprintf(buf, len, "process id '%d'", o->session.pid);
	} else if (o->session.cpus_given) {
		rt_cpuset_format(&o->session.cpus, cpus, sizeof(cpus));
		snprintf(buf, len, "'CPU(s) %s'", cpus);
	} else {
		snprintf(buf, len, "'system wide'");
	}
}

/*
 * A mechanism that locks other tools out of vfs_read says so at start,
 * on standard error: the operator who asked for it should know whom it
 * blocks (kmod/attach/attach.c logs the same).
 */
static void note_attach(struct rt_session *s, uint64_t events)
{
	uint32_t id;
	const char *excludes;

	if (events && !(events & RINGTRACE_EVENT_VFS_READ))
		return;
	id = rt_session_vfs_read_attach(s);
	excludes = rt_attach_excludes(id);
	if (excludes)
		fprintf(stderr, PROG ": vfs_read is attached with %s: %s\n",
			rt_attach_name(id), excludes);
}

/*
 * the part of --filter the module can decide before any ring
 * work (ret and count ranges of vfs_read). The user-space filter still
 * runs on every record: it is the exact one.
 */
static void filter_ranges(struct options *o)
{
	struct rt_expr_ranges *r = &o->filter_ranges;

	rt_expr_ranges_init(r);
	for (uint32_t i = 0; i < o->filter.nr_exprs; i++)
		rt_expr_ranges_add(r, &o->filter.exprs[i]);
	if (r->ret_set || r->count_set)
		o->session.vfs_read_ranges = r;
}

static void note_filter_ranges(const struct options *o,
			       const struct rt_session *s)
{
	const struct rt_expr_ranges *r = &o->filter_ranges;

	if (!o->session.vfs_read_ranges)
		return;
	if (!s->values_in_kernel) {
		fprintf(stderr, PROG ": --filter: %s: every vfs_read is "
			"written to the ring and filtered here\n",
			rt_expr_ranges_empty(r) ? "no vfs_read can pass" :
			"the loaded module cannot filter on ret or count (no "
			"RINGTRACE_FEAT_VFS_READ_VALUES)");
		return;
	}
	fprintf(stderr, PROG ": --filter: the module drops vfs_read calls "
		"before any ring work unless");
	if (r->ret_set)
		fprintf(stderr, " %" PRId64 " <= ret <= %" PRId64, r->ret_min,
			r->ret_max);
	if (r->ret_set && r->count_set)
		fprintf(stderr, " and");
	if (r->count_set)
		fprintf(stderr, " %" PRIu64 " <= count <= %" PRIu64,
			r->count_min, r->count_max);
	fputc('\n', stderr);
}

/* -v: where and how urgently the reader ran (--reader). */
static void note_reader(const struct rt_placement *p, bool plain)
{
	if (plain) {
		fprintf(stderr, "  reader: where the scheduler put it, at its "
			"nice (--reader plain)\n");
		return;
	}
	fprintf(stderr, "  reader: rings it fell behind on drained on their "
		"own CPU (%" PRIu64 " move%s), nice %d", p->moves,
		p->moves == 1 ? "" : "s", p->nice);
	if (p->nice_errno)
		fprintf(stderr, " (not raised: %s)", strerror(p->nice_errno));
	fputc('\n', stderr);
}

/*
 * -p PID,...: the run ends once the processes named have exited, as perf
 * record -p does (it ran on to the end of -d, tracing nothing). A pid
 * that does not exist is refused. Not for --snapshot: a flight recorder
 * outlives the crash it is kept for.
 */
static int watch_pids(const struct options *o, struct rt_session *s,
		      struct rt_pidwatch *w)
{
	const uint32_t *pids = o->filter.pids;
	uint32_t n = o->filter.nr_pids, one, missing = 0;
	int ret;

	if (!o->pid_given || o->command)
		return 0;
	if (n <= 1) {	/* the module follows it: not in the filter */
		one = (uint32_t)(o->per_thread_pid ? o->per_thread_pid :
				 o->session.pid);
		pids = &one;
		n = 1;
	}
	ret = rt_pidwatch_open(w, pids, n, s->epfd, &missing);
	/*
	 * No pidfd_open (ENOSYS), or a thread's id that is not its
	 * process's (EINVAL; ENOENT since Linux 6.9): runs until stopped,
	 * as before.
	 */
	if (ret == -ENOSYS || ret == -EINVAL || ret == -ENOENT)
		return 0;
	if (ret == -ESRCH)
		cat_error("no process with pid %u", missing);
	else if (ret)
		cat_error("cannot watch the processes of -p: %s",
			  strerror(-ret));
	return ret ? -1 : 0;
}

static bool pids_exited(void *arg)
{
	return rt_pidwatch_all_exited(arg);
}

/*
 * One live run, from its outputs to its summary. cat_trace() runs it in
 * steps, each a function below that fills its part; trace_close()
 * releases whatever they opened. It starts zeroed: what a step never
 * reached is released as empty.
 */
struct trace_run {
	struct options		*o;
	struct rt_stream	st;
	struct rt_summary	sum;
	struct ringtrace_stats	kstats;
	struct rt_command	cmd;
	struct rt_session	s;
	struct rt_outbuf	ob;
	struct rt_perf_session	perf;
	struct rt_cpuset	perf_cpus;
	bool			use_perf;
	pid_t			*perf_tids;
	struct cat_views	views;
	struct rt_paths		paths;
	bool			use_views;
	/* --stats, --snapshot, per-ring health in the summary */
	struct cat_stats	stats;
	bool			stats_on;
	struct rt_pidwatch	watch;
	struct ringtrace_ring_stats *ring_stats;
	sigset_t		wait_set;
	uint64_t		snapshots;
};

/*
 * Step 1, the outputs: opened before anything runs, since a COMMAND's
 * standard output depends on whether ours carries the data, and every
 * later step writes into them (the raw header, the views). Also turns
 * on perf's tracking event for a raw file of user stacks, which
 * trace_configure() opens. 0, or -1 said why (nothing left open).
 */
static int trace_open_outputs(struct trace_run *r)
{
	struct options *o = r->o;

	/*
	 * A raw file of user stacks without samples: perf's dummy event
	 * carries the MMAP2 records of programs exec'ed during the run, so
	 * that replay names their frames (the file becomes version 2).
	 * Not for --snapshot: its files hold the rings' copies alone (and
	 * the maps when written), never a perf ring, which nothing drains.
	 */
	if (o->raw && !o->snapshot && o->symbols &&
	    o->session.stack_user_depth && !o->perf.sample) {
		o->perf.sample = true;
		o->perf.sample_spec.desc = &rt_perf_tracking_event;
		o->perf.sample_spec.freq = 1;
		o->perf.sample_spec.tracking_only = true;
	}
	r->use_perf = o->perf.counters || o->perf.sample;
	if (rt_paths_init(&r->paths)) {
		cat_error("out of memory");
		return -1;
	}
	if (cat_open_output(o, &r->ob)) {
		rt_paths_fini(&r->paths);
		return -1;
	}
	/* Raw output copies path records; every other output names files. */
	if (!o->raw)
		r->st.paths = &r->paths;
	r->st.out = &r->ob;
	return 0;
}

/*
 * Step 2, the COMMAND, started held at its gate: the session follows
 * its pid, so it must exist before the session is set up, and it must
 * not run before tracing is enabled (trace_enable() releases it).
 * --per-thread -p PID's threads are listed here too, since the session
 * gives each its own ring. 0, or -1 said why (the outputs closed).
 */
static int trace_start_command(struct trace_run *r,
			       const sigset_t *original_mask)
{
	struct options *o = r->o;
	char err[256];

	if (o->command) {
		/*
		 * A recording, JSON, folded stacks... on standard output hold
		 * nothing else (| jq, | flamegraph.pl). The command writes to
		 * our standard error instead, as with perf record -o -.
		 */
		const char *data = cat_stdout_data(o);
		int child_stdout = data ? STDERR_FILENO : -1;

		if (data && !o->quiet)
			fprintf(stderr, PROG ": %s goes to standard output: "
				"%s's standard output goes to standard error\n",
				data, o->command[0]);
		if (rt_command_spawn_stdout(&r->cmd, o->command, original_mask,
					    cat_handled_signals,
					    sizeof(cat_handled_signals) /
						    sizeof(cat_handled_signals[0]),
					    child_stdout, err, sizeof(err))) {
			cat_error("cannot start %s: %s", o->command[0], err);
			cat_close_output(o, &r->ob);
			return -1;
		}
		o->session.pid = r->cmd.pid;
	}
	if (o->session.pid > 0)
		o->session.inherit = true;
	if (o->per_thread_pid && per_thread_list(o)) {
		cat_close_output(o, &r->ob);
		rt_paths_fini(&r->paths);
		return -1;
	}
	return 0;
}

/*
 * Step 3, the session configured but not enabled: the module's rings
 * and selection (with the part of --filter it can decide), the watch on
 * -p's processes, the views, and perf's events beside it. Nothing is
 * traced yet, so a refusal here (no module, a bad pid, perf denied)
 * records nothing. 0, or -1 said why (trace_close() releases).
 */
static int trace_configure(struct trace_run *r)
{
	struct options *o = r->o;

	filter_ranges(o);
	if (rt_session_open(&r->s, NULL) ||
	    rt_session_setup(&r->s, &o->session)) {
		cat_error("%s", r->s.errmsg);
		rt_command_abort(&r->cmd);
		return -1;
	}
	if (o->verbose)
		note_filter_ranges(o, &r->s);
	if (!o->snapshot && watch_pids(o, &r->s, &r->watch))
		return -1;
	if (r->watch.nr) {
		r->st.done = pids_exited;
		r->st.done_arg = &r->watch;
	}
	if (r->use_views) {
		if (cat_views_init(&r->views, o, r->st.format, &r->ob,
				   &r->paths)) {
			rt_command_abort(&r->cmd);
			return -1;
		}
		r->st.sink = cat_views_sink;
		r->st.sink_arg = &r->views;
		/* The trace's environment names the module that wrote it. */
		if (r->views.ctf_on)
			snprintf(r->views.ctf.env.module_version,
				 sizeof(r->views.ctf.env.module_version),
				 "%.*s", (int)sizeof(r->s.info.module_version),
				 r->s.info.module_version);
		/* --interval without --counters paces the views. */
		if (!o->perf.counters && (o->hist || o->summary)) {
			r->st.interval_ns = o->perf.interval_ns;
			r->st.on_interval = cat_views_interval;
			r->st.interval_arg = &r->views;
		}
	}
	if (r->use_perf && open_perf(o, &r->s, &r->perf, &r->perf_cpus,
				     &r->perf_tids, o->command != NULL)) {
		cat_error("%s", r->perf.errmsg);
		rt_command_abort(&r->cmd);
		return -1;
	}
	return 0;
}

/*
 * Step 4, tracing enabled, in the order the records need: the raw
 * header first (it leads the file, and records follow as soon as the
 * rings run), the start time the files keep, the module's session,
 * perf's events, --stats, and last the COMMAND let through its gate, so
 * that its first system call is traced. A COMMAND that cannot run stops
 * the run but is still reaped: not a failure here. 0, or -1 said why.
 */
static int trace_enable(struct trace_run *r)
{
	struct options *o = r->o;
	char err[256];

	if (o->raw && !o->snapshot)
		cat_write_raw_header(&r->ob, &r->s, o->session.events ?
				     o->session.events :
				     RINGTRACE_EVENT_VFS_READ, &r->perf,
				     o->symbols && (o->callchain ||
						    o->session.stack_user_depth));
	cat_note_trace_start();
	rt_output_set_func_names(o->session.funcs, o->session.nr_funcs);
	rt_output_set_func_args(r->s.func_arg_descs, o->session.nr_funcs);
	if (rt_session_enable(&r->s)) {
		cat_error("%s", r->s.errmsg);
		rt_command_abort(&r->cmd);
		return -1;
	}
	if (!o->quiet)
		note_attach(&r->s, o->session.events);
	if (r->use_perf) {
		rt_perf_session_enable(&r->perf, rt_sys.now_ns());
		r->st.hooks = &r->perf.hooks;
	}
	if (o->stats_ns) {
		if (cat_stats_init(&r->stats, &r->s, rt_sys.now_ns())) {
			rt_command_abort(&r->cmd);
			return -1;
		}
		r->stats_on = true;
		r->st.stats_ns = o->stats_ns;
		r->st.on_stats = cat_stats_print;
		r->st.stats_arg = &r->stats;
	}
	if (o->command && rt_command_release(&r->cmd, err, sizeof(err))) {
		cat_error("cannot run %s: %s", o->command[0], err);
		cat_stop_requested = 1;
	}
	return 0;
}

/*
 * Step 5 for --snapshot, the flight recorder: the rings overwrite, and
 * flight.c prints them on each request until the run stops; then what
 * the kernel wrote, overwrote and lost meanwhile. Returns the exit code.
 */
static int trace_snapshots(struct trace_run *r)
{
	struct options *o = r->o;
	struct cat_raw_header rh;
	int code;

	if (r->use_views && o->session.stack_user_depth)
		see_selected_threads(o, &r->views);
	r->st.start_ns = rt_sys.now_ns();
	rh = cat_snapshot_raw_header(&r->s, &r->perf,
				     o->symbols && o->session.stack_user_depth);
	code = cat_snapshot_run(o, &r->s, &r->ob, &r->paths,
				&cat_snapshot_requested, &cat_stop_requested,
				&r->wait_set, r->stats_on ? &r->stats : NULL,
				&rh, &r->snapshots);
	r->st.end_ns = rt_sys.now_ns();
	if (!o->quiet && !rt_session_stats(&r->s, &r->kstats))
		fprintf(stderr, PROG ": %" PRIu64 " snapshot%s; the "
			"kernel wrote %" PRIu64 " records, overwrote %"
			PRIu64 ", lost %" PRIu64 "\n", r->snapshots,
			r->snapshots == 1 ? "" : "s",
			(uint64_t)r->kstats.records,
			(uint64_t)r->kstats.overwritten,
			(uint64_t)r->kstats.lost);
	return code;
}

/*
 * Step 5 otherwise, the stream: records as they arrive, to the output
 * or the views, until the run stops (a signal, -d, the COMMAND's or
 * -p's exit). *@status: the stream's, which trace_report() needs.
 * Returns the exit code it makes.
 */
static int trace_stream(struct trace_run *r, int *status)
{
	*status = rt_stream_live(&r->st, &r->s);
	return cat_stream_exit_code(&r->st, *status, &r->ob);
}

/*
 * Step 6, after the stream: the summary's sources, counted as on
 * replay; the views finished, told what they lack; unless -q, the
 * summary with the kernel's and each ring's counts, the reader's
 * placement (-v) and perf's own summary. Returns @code, or EXIT_FAIL
 * when a view could not be written.
 */
static int trace_report(struct trace_run *r, int status, int code)
{
	struct options *o = r->o;
	struct rt_summary *sum = &r->sum;
	char title[512];

	sum->srcs = r->s.srcs;
	sum->nr_srcs = r->s.nr_rings;
	/* Counted as on replay: samples and snapshots in the line. */
	if (r->use_perf && r->perf.has_sampler) {
		sum->perf_srcs = r->perf.sampler.srcs;
		sum->nr_perf_srcs = r->perf.sampler.nr_rings;
	}
	if (r->use_perf && r->perf.has_snapshots) {
		sum->counter_srcs = &r->perf.snapshots.src;
		sum->nr_counter_srcs = 1;
	}
	sum->lost_pending = r->st.lost_pending;
	sum->func_missed = r->st.func_missed;
	sum->offcpu_missed = r->st.offcpu_missed;
	sum->elapsed_ns = r->st.end_ns - r->st.start_ns;
	if (r->use_views && status == RT_STREAM_OK) {
		struct rt_source_counts t = rt_summary_totals(sum);

		cat_views_stream_ended(&r->views, &t, &r->st, NULL);
		if (cat_views_finish(&r->views))
			code = EXIT_FAIL;
	}
	if (!o->quiet) {
		if (!rt_session_stats(&r->s, &r->kstats))
			sum->kernel = &r->kstats;
		cat_summary_rings(&r->s, sum, &r->ring_stats);
		rt_summary_print(stderr, sum);
		if (o->verbose)
			note_reader(&r->st.place, o->reader_plain);
		if (r->use_perf) {
			perf_title(o, title, sizeof(title));
			rt_perf_session_summary(stderr, &r->perf, PROG, title);
		}
	}
	return code;
}

/*
 * Step 7, the COMMAND's end, waited for so that its exit status becomes
 * ours when the trace itself succeeded. Returns the exit code.
 */
static int trace_reap(struct trace_run *r, int code)
{
	if (!r->o->command)
		return code;
	/* SIGTERM was meant for the whole run; Ctrl-C reached it already. */
	if (cat_stop_signal == SIGTERM && !rt_command_reap(&r->cmd, true))
		kill(r->cmd.pid, SIGTERM);
	rt_command_reap(&r->cmd, false);
	if (code == EXIT_OK)
		code = rt_command_exit_code(&r->cmd);
	return code;
}

/*
 * The end of every run that reached the session, finished or failed at
 * any step after the COMMAND's: all the steps opened, released; then a
 * --raw file, now whole, gets its kernel symbols (recording.c).
 */
static void trace_close(struct trace_run *r, int code)
{
	rt_pidwatch_close(&r->watch);
	if (r->stats_on)
		cat_stats_fini(&r->stats);
	free(r->ring_stats);
	cat_views_fini(&r->views);
	rt_paths_fini(&r->paths);
	rt_perf_session_close(&r->perf);
	free(r->perf_tids);
	rt_output_set_func_args(NULL, 0);	/* the session's, freed next */
	rt_session_close(&r->s);
	cat_close_output(r->o, &r->ob);
	cat_record_ksyms(r->o, code);
}

int cat_trace(struct options *o, const sigset_t *stop_set,
	      const sigset_t *original_mask)
{
	struct trace_run r = {
		.o = o,
		.st = {
			.format = o->raw ? RT_FORMAT_RAW :
					   o->json ? RT_FORMAT_JSON :
						     RT_FORMAT_TEXT,
			.window_ns = o->window_ns,
			.duration_ns = o->duration_ns,
			.stop = &cat_stop_requested,
			.stop_signals = stop_set,
			.follow_rings = !o->reader_plain,
		},
		.sum = { .prog = PROG, .verbose = o->verbose },
		.cmd = { .pid = -1, .gate_fd = -1, .exec_err_fd = -1 },
		.use_views = cat_views_wanted(o),
		.watch = { .nr = 0, .epfd = -1 },
		.wait_set = *stop_set,
	};
	int code = EXIT_FAIL, status;

	if (trace_open_outputs(&r) || trace_start_command(&r, original_mask))
		return EXIT_FAIL;
	if (trace_configure(&r) || trace_enable(&r))
		goto out;
	if (o->snapshot) {
		code = trace_snapshots(&r);
	} else {
		code = trace_stream(&r, &status);
		code = trace_report(&r, status, code);
	}
	code = trace_reap(&r, code);
out:
	trace_close(&r, code);
	return code;
}
