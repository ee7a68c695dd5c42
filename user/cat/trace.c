// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat: stream ringtrace records as they arrive, or decode a raw
 * file. Option parsing and wiring only; the work is in libringtrace.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <sys/utsname.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "diff.h"
#include "errors.h"
#include "flame.h"
#include "flight.h"
#include "options.h"
#include "rewrite.h"
#include "views.h"
#include "ringtrace/attach.h"
#include "ringtrace/command.h"
#include "ringtrace/folded.h"
#include "ringtrace/kmod.h"
#include "ringtrace/mounts.h"
#include "ringtrace/output.h"
#include "ringtrace/parse.h"
#include "ringtrace/perf_session.h"
#include "ringtrace/pidwatch.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/session.h"
#include "ringtrace/stream.h"
#include "ringtrace/summary.h"
#include "ringtrace/sys.h"

/* ---- signals: set flags only (the loop does the work) ---- */

static volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	if (stop_requested && stop_signal) {
		/* Second Ctrl-C while draining: give up at once. */
		static const char msg[] = PROG ": interrupted again, exiting\n";

		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
			_exit(128 + sig);
		_exit(128 + sig);
	}
	stop_signal = sig;
	stop_requested = 1;
}

/* --snapshot's SIGUSR2 asks for a snapshot. */
static volatile sig_atomic_t snapshot_requested;

static void on_snapshot_signal(int sig)
{
	(void)sig;
	snapshot_requested = 1;
}

static void on_child_exit(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static const int handled_signals[] = { SIGINT, SIGTERM, SIGCHLD, SIGPIPE };

/*
 * --snapshot: SIGUSR2 is ours from the start (its default action would
 * kill us), and a COMMAND must not inherit that disposition: exec resets
 * caught signals to the default, as for SIGINT.
 */
static void install_snapshot_signal(sigset_t *wait_set)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_snapshot_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR2, &sa, NULL);
	sigaddset(wait_set, SIGUSR2);
}

static void install_signals(sigset_t *stop_set)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child_exit;
	sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;	/* a closed pipe shows up as EPIPE */
	sa.sa_flags = 0;
	sigaction(SIGPIPE, &sa, NULL);

	sigemptyset(stop_set);
	sigaddset(stop_set, SIGINT);
	sigaddset(stop_set, SIGTERM);
	sigaddset(stop_set, SIGCHLD);
}

/* ---- wiring ---- */

static int open_output(const struct options *o, struct rt_outbuf *ob)
{
	int fd = STDOUT_FILENO;

	/* --snapshot --raw: each snapshot makes its own file (flight.c). */
	if (o->output && !(o->snapshot && o->raw)) {
		fd = cat_create_file(o->output, o->input);
		if (fd < 0)
			return -1;
	}
	if (rt_outbuf_init(ob, fd, RT_OUTBUF_DEFAULT_SIZE)) {
		cat_error("out of memory");
		return -1;
	}
	return 0;
}

static void close_output(const struct options *o, struct rt_outbuf *ob)
{
	if (o->output && ob->fd >= 0 && ob->fd != STDOUT_FILENO)
		rt_sys.close(ob->fd);
	rt_outbuf_fini(ob);
}

/* Map a stream status to an exit code, printing what went wrong. */
static int stream_exit_code(const struct rt_stream *st, int status,
			    const struct rt_outbuf *ob)
{
	switch (status) {
	case RT_STREAM_OK:
		return EXIT_OK;
	case RT_STREAM_ERR_OUTPUT:
		if (ob->error == EPIPE)
			return EXIT_OK;		/* reader went away: stop quietly */
		cat_error("writing output: %s", strerror(ob->error));
		return EXIT_FAIL;
	case RT_STREAM_ERR_DATA:
		cat_error("%s", st->errmsg);
		return EXIT_DATA;
	}
	cat_error("%s", st->errmsg);
	return EXIT_FAIL;
}

/* --header: what the raw file says about where it was recorded. */
static void print_header(const struct rt_raw_file *f, struct rt_outbuf *ob)
{
	const struct rt_raw_header *h = &f->hdr;
	time_t secs = (time_t)(h->start_real_ns / 1000000000ull);
	char when[64] = "unknown", events[64];
	struct tm tm;
	/* The architecture: shorter headers lack it (all were x86-64). */
	const char *machine = h->header_size >= offsetof(struct rt_raw_header,
							 machine) +
					       sizeof(h->machine) &&
			      h->machine[0] ? h->machine : "(not recorded)";

	if (h->start_real_ns && gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	rt_outbuf_printf(ob, "format version: %u\nheader size:    %u\n"
			 "host:           %s\nkernel:         %s\n"
			 "machine:        %s\n"
			 "module version: %s\nABI version:    %u\n"
			 "started:        %s (CLOCK_MONOTONIC %llu ns)\n"
			 "events:         %s\npage size:      %u\n"
			 "CPUs:           %u (rings with data: %u)\n",
			 h->format_version, h->header_size,
			 h->host[0] ? h->host : "(not recorded)",
			 h->kernel[0] ? h->kernel : "(not recorded)", machine,
			 h->module_version, h->abi_version, when,
			 (unsigned long long)h->start_mono_ns,
			 *rt_event_names(h->events, " ", events, sizeof(events)) ?
			 events : "(none)",
			 h->page_size, h->nr_cpu_ids,
			 f->nr_srcs - f->nr_perf_srcs - f->nr_counter_srcs);
	/* The command line, with its options: shorter headers lack it. */
	rt_outbuf_printf(ob, "command line:   %s\n",
			 h->header_size >= offsetof(struct rt_raw_header,
						    cmdline) +
					   sizeof(h->cmdline) && h->cmdline[0] ?
			 h->cmdline : "(not recorded)");
	if (f->has_perf_format)
		rt_outbuf_printf(ob, "perf samples:   %s (sample_type %#llx, "
				 "rings with data: %u)\n", f->perf_desc.event,
				 (unsigned long long)f->perf_desc.sample_type,
				 f->nr_perf_srcs);
	{
		char release[64];
		uint32_t nr;

		if (rt_raw_ksyms_info(f, &nr, release, sizeof(release)))
			rt_outbuf_printf(ob, "kernel symbols: %u stored (of %s)\n",
					 nr, release[0] ? release :
					 "an unknown kernel");
		else
			rt_outbuf_printf(ob, "kernel symbols: none stored\n");
	}
	if (f->has_counter_names) {
		rt_outbuf_printf(ob, "counters:      ");
		for (uint32_t i = 0; i < f->counter_names.nr; i++)
			rt_outbuf_printf(ob, " %s", f->counter_name_ptrs[i]);
		rt_outbuf_printf(ob, "%s\n", f->nr_counter_srcs ? "" :
				 " (no snapshots)");
	}
}

static int decode_file(struct options *o)
{
	struct rt_paths paths;
	struct cat_views views;
	bool use_views = cat_views_wanted(o);
	struct rt_stream st = {
		.format = o->json ? RT_FORMAT_JSON : RT_FORMAT_TEXT,
		.stop = &stop_requested,
	};
	struct rt_summary sum = { .prog = PROG, .verbose = o->verbose };
	struct rt_raw_file f;
	struct rt_outbuf ob;
	char why[512];
	int ret, code;

	ret = rt_raw_open(&f, o->input);
	if (ret) {
		cat_error("%s", f.errmsg);
		rt_raw_close(&f);
		return ret == -EINVAL ? EXIT_DATA : EXIT_FAIL;
	}
	/* The flame weight by the rule, from what the file holds. */
	if (cat_flame_view(o) &&
	    cat_flame_pick(cat_flame_view(o), o->flame_weight_given,
			   &o->flame_weight, cat_flame_file_kinds(&f),
			   cat_flame_selected(o), o->input, why, sizeof(why))) {
		cat_error("%s", why);
		rt_raw_close(&f);
		return EXIT_USAGE;
	}
	if (open_output(o, &ob)) {
		rt_raw_close(&f);
		return EXIT_FAIL;
	}
	st.out = &ob;
	if (o->raw) {
		struct rt_source_counts written;

		code = stream_exit_code(&st, cat_rewrite(o, &st, &f, &written),
					&ob);
		if (rt_raw_report_damage(&f, stderr, PROG) && code == EXIT_OK)
			code = EXIT_DATA;
		if (!o->quiet && code == EXIT_OK)
			cat_rewrite_report(stderr, &f, &written,
					   o->output && strcmp(o->output, "-") ?
					   o->output : "standard output");
		close_output(o, &ob);
		rt_raw_close(&f);
		return code;
	}
	if (o->header) {
		print_header(&f, &ob);
		code = rt_outbuf_flush(&ob) ? EXIT_FAIL : EXIT_OK;
		close_output(o, &ob);
		rt_raw_close(&f);
		return code;
	}
	/* Path records fill it; vfs_read lines are named from it. */
	if (rt_paths_init(&paths) ||
	    (use_views && cat_views_init(&views, o, st.format, &ob, &paths))) {
		if (use_views)
			cat_views_fini(&views);
		rt_paths_fini(&paths);
		close_output(o, &ob);
		rt_raw_close(&f);
		return EXIT_FAIL;
	}
	st.paths = &paths;
	if (use_views) {
		st.sink = cat_views_sink;
		st.sink_arg = &views;
		cat_views_use_file(&views, &f);
	}
	code = stream_exit_code(&st, rt_stream_file(&st, &f), &ob);
	/* f.srcs: ringtrace's rings, then perf's, then the counters */
	sum.srcs = f.srcs;
	sum.nr_srcs = f.nr_srcs - f.nr_perf_srcs - f.nr_counter_srcs;
	sum.perf_srcs = f.srcs + sum.nr_srcs;
	sum.nr_perf_srcs = f.nr_perf_srcs;
	sum.counter_srcs = sum.perf_srcs + f.nr_perf_srcs;
	sum.nr_counter_srcs = f.nr_counter_srcs;
	sum.lost_pending = st.lost_pending;
	sum.elapsed_ns = RT_SUMMARY_NO_TIME;
	if (use_views) {
		struct rt_source_counts t = rt_summary_totals(&sum);

		/* What the views lack, -q or not: said in each view. */
		cat_views_stream_ended(&views, &t, st.lost_pending, &f);
		if (code == EXIT_OK && cat_views_finish(&views))
			code = EXIT_FAIL;
		cat_views_fini(&views);
	}
	rt_paths_fini(&paths);
	/* After what was read: damage and truncation make a replay fail. */
	if (rt_raw_report_damage(&f, stderr, PROG) && code == EXIT_OK)
		code = EXIT_DATA;
	if (!o->quiet)
		rt_summary_print(stderr, &sum);
	close_output(o, &ob);
	rt_raw_close(&f);
	return code;
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * When tracing was enabled: a raw file's "started". A snapshot's file is
 * written later than its records were (its header said it
 * started after them), so it takes this time, not the time it is written.
 */
static uint64_t trace_start_mono, trace_start_real;

/* The command line a raw file's header keeps (--header shows it). */
static char recorded_cmdline[sizeof(((struct rt_raw_header *)0)->cmdline)];

/* Append @s to @buf (@len bytes, *@used so far), keeping room for the NUL. */
static void put_str(char *buf, size_t len, size_t *used, const char *s,
		    size_t n)
{
	if (*used + n >= len)
		n = *used + 1 < len ? len - 1 - *used : 0;
	memcpy(buf + *used, s, n);
	*used += n;
	buf[*used] = '\0';
}

/*
 * PROG and its arguments, each as a shell would need it typed: as it is
 * when made of safe characters, else in single quotes. Cut with "...".
 */
static void note_cmdline(int argc, char **argv)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				   "-_=+,.:/@%^";
	char buf[4096];
	size_t used = 0;

	buf[0] = '\0';
	put_str(buf, sizeof(buf), &used, PROG, strlen(PROG));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		put_str(buf, sizeof(buf), &used, " ", 1);
		if (*a && strspn(a, safe) == strlen(a)) {
			put_str(buf, sizeof(buf), &used, a, strlen(a));
			continue;
		}
		put_str(buf, sizeof(buf), &used, "'", 1);
		for (const char *q; (q = strchr(a, '\'')); a = q + 1) {
			put_str(buf, sizeof(buf), &used, a, (size_t)(q - a));
			put_str(buf, sizeof(buf), &used, "'\\''", 4);
		}
		put_str(buf, sizeof(buf), &used, a, strlen(a));
		put_str(buf, sizeof(buf), &used, "'", 1);
	}
	if (used < sizeof(recorded_cmdline)) {
		memcpy(recorded_cmdline, buf, used + 1);
	} else {
		memcpy(recorded_cmdline, buf, sizeof(recorded_cmdline) - 4);
		memcpy(recorded_cmdline + sizeof(recorded_cmdline) - 4, "...", 4);
	}
}

static void write_raw_header(struct rt_outbuf *ob, const struct rt_session *s,
			     uint64_t events, const struct rt_perf_session *ps,
			     bool maps)
{
	struct rt_raw_header h;
	struct utsname u;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, RT_RAW_MAGIC, sizeof(h.magic));
	h.header_size = sizeof(h);
	/*
	 * Files of ringtrace's per-CPU rings alone stay readable by older
	 * tools; per-thread rings need a reader that knows them.
	 */
	h.format_version = s->nr_rings && s->srcs[0].tid ?
			   RT_RAW_FORMAT_THREADS :
			   ps->has_sampler || ps->has_snapshots ?
			   RT_RAW_FORMAT_SOURCES : RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	h.abi_version = s->info.abi_version;
	h.page_size = s->info.page_size;
	h.nr_cpu_ids = s->info.nr_cpu_ids;
	h.events = events;
	h.start_mono_ns = trace_start_mono ? trace_start_mono : rt_sys.now_ns();
	h.start_real_ns = trace_start_real ? trace_start_real : realtime_ns();
	memcpy(h.cmdline, recorded_cmdline, sizeof(h.cmdline));
	memcpy(h.module_version, s->info.module_version,
	       sizeof(h.module_version));
	if (!uname(&u)) {
		/* cut to the field; the header is zeroed, so NUL-terminated */
		memcpy(h.host, u.nodename, strnlen(u.nodename, sizeof(h.host) - 1));
		memcpy(h.kernel, u.release, strnlen(u.release, sizeof(h.kernel) - 1));
		memcpy(h.machine, u.machine,
		       strnlen(u.machine, sizeof(h.machine) - 1));
	}
	rt_raw_write_header(ob, &h);
	rt_perf_session_write_raw(ps, ob);
	/* Mount points, for the paths PREEMPT_RT names inside their mount. */
	rt_raw_write_mounts(ob, rt_mounts_self(true));
	/* User stacks are named on replay from what was mapped at the start. */
	if (maps)
		rt_raw_write_maps(ob);
}

/*
 * a raw file of kernel frames keeps the symbols they fall in
 * (KSYMS chunk), so that a replay elsewhere or after a reboot names them.
 * Done once the file is whole: it is read back (the writer copies ring
 * bytes and looks at no record). Standard output cannot be read back;
 * each --snapshot --raw file is done when written (flight.c).
 */
static bool raw_on_stdout(const struct options *o);

static void save_ksyms(const struct options *o, int code)
{
	if (!o->raw || o->snapshot || raw_on_stdout(o) || code == EXIT_FAIL)
		return;
	cat_save_ksyms(o, o->output);
}

/* --snapshot --raw: the header of each snapshot's file (flight.c). */
static void write_snapshot_header(struct rt_outbuf *ob, const void *s,
				  const void *ps, uint64_t events, bool maps)
{
	/*
	 * With user stacks, the mappings of the processes alive when the
	 * snapshot is written: those of its records' processes that still run.
	 */
	write_raw_header(ob, s, events, ps, maps);
}

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
	fprintf(stderr, "  reader: busy rings drained on their own CPU (%"
		PRIu64 " move%s), nice %d", p->moves, p->moves == 1 ? "" : "s",
		p->nice);
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

/* --raw with no -o (or -o -): the recording is standard output. */
static bool raw_on_stdout(const struct options *o)
{
	return o->raw && !o->snapshot && (!o->output || !strcmp(o->output, "-"));
}

static int trace(struct options *o, const sigset_t *stop_set,
		 const sigset_t *original_mask)
{
	struct rt_stream st = {
		.format = o->raw ? RT_FORMAT_RAW :
				   o->json ? RT_FORMAT_JSON : RT_FORMAT_TEXT,
		.window_ns = o->window_ns,
		.duration_ns = o->duration_ns,
		.stop = &stop_requested,
		.stop_signals = stop_set,
		.follow_rings = !o->reader_plain,
	};
	struct rt_summary sum = { .prog = PROG, .verbose = o->verbose };
	struct ringtrace_stats kstats;
	struct rt_command cmd = { .pid = -1, .gate_fd = -1, .exec_err_fd = -1 };
	struct rt_session s;
	struct rt_outbuf ob;
	struct rt_perf_session perf;
	struct rt_cpuset perf_cpus;
	bool use_perf;
	pid_t *perf_tids = NULL;
	struct cat_views views;
	struct rt_paths paths;
	bool use_views = cat_views_wanted(o);
	char err[256], title[512];
	int code = EXIT_FAIL, status;
	/* --stats, --snapshot, per-ring health in the summary */
	struct cat_stats stats;
	bool stats_on = false;
	struct rt_pidwatch watch = { .nr = 0, .epfd = -1 };
	struct ringtrace_ring_stats *ring_stats = NULL;
	sigset_t wait_set = *stop_set;
	uint64_t snapshots = 0;

	memset(&perf, 0, sizeof(perf));
	memset(&views, 0, sizeof(views));
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
	use_perf = o->perf.counters || o->perf.sample;
	if (rt_paths_init(&paths)) {
		cat_error("out of memory");
		return EXIT_FAIL;
	}
	if (open_output(o, &ob)) {
		rt_paths_fini(&paths);
		return EXIT_FAIL;
	}
	/* Raw output copies path records; every other output names files. */
	if (!o->raw)
		st.paths = &paths;
	st.out = &ob;
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
		if (rt_command_spawn_stdout(&cmd, o->command, original_mask,
					    handled_signals,
					    sizeof(handled_signals) /
						    sizeof(handled_signals[0]),
					    child_stdout, err, sizeof(err))) {
			cat_error("cannot start %s: %s", o->command[0], err);
			close_output(o, &ob);
			return EXIT_FAIL;
		}
		o->session.pid = cmd.pid;
	}
	if (o->session.pid > 0)
		o->session.inherit = true;
	if (o->per_thread_pid && per_thread_list(o)) {
		close_output(o, &ob);
		rt_paths_fini(&paths);
		return EXIT_FAIL;
	}

	filter_ranges(o);
	if (rt_session_open(&s, NULL) || rt_session_setup(&s, &o->session)) {
		cat_error("%s", s.errmsg);
		rt_command_abort(&cmd);
		goto out;
	}
	if (o->verbose)
		note_filter_ranges(o, &s);
	if (!o->snapshot && watch_pids(o, &s, &watch))
		goto out;
	if (watch.nr) {
		st.done = pids_exited;
		st.done_arg = &watch;
	}
	if (use_views) {
		if (cat_views_init(&views, o, st.format, &ob, &paths)) {
			rt_command_abort(&cmd);
			goto out;
		}
		st.sink = cat_views_sink;
		st.sink_arg = &views;
		/* The trace's environment names the module that wrote it. */
		if (views.ctf_on)
			snprintf(views.ctf.env.module_version,
				 sizeof(views.ctf.env.module_version), "%.*s",
				 (int)sizeof(s.info.module_version),
				 s.info.module_version);
		/* --interval without --counters paces the views. */
		if (!o->perf.counters && (o->hist || o->summary)) {
			st.interval_ns = o->perf.interval_ns;
			st.on_interval = cat_views_interval;
			st.interval_arg = &views;
		}
	}
	if (use_perf && open_perf(o, &s, &perf, &perf_cpus, &perf_tids,
				  o->command != NULL)) {
		cat_error("%s", perf.errmsg);
		rt_command_abort(&cmd);
		goto out;
	}
	if (o->raw && !o->snapshot)
		write_raw_header(&ob, &s, o->session.events ? o->session.events :
					  RINGTRACE_EVENT_VFS_READ, &perf,
				 o->symbols && (o->callchain ||
						o->session.stack_user_depth));
	trace_start_mono = rt_sys.now_ns();
	trace_start_real = realtime_ns();
	rt_output_set_func_names(o->session.funcs, o->session.nr_funcs);
	if (rt_session_enable(&s)) {
		cat_error("%s", s.errmsg);
		rt_command_abort(&cmd);
		goto out;
	}
	if (!o->quiet)
		note_attach(&s, o->session.events);
	if (use_perf) {
		rt_perf_session_enable(&perf, rt_sys.now_ns());
		st.hooks = &perf.hooks;
	}
	if (o->stats_ns) {
		if (cat_stats_init(&stats, &s, rt_sys.now_ns())) {
			rt_command_abort(&cmd);
			goto out;
		}
		stats_on = true;
		st.stats_ns = o->stats_ns;
		st.on_stats = cat_stats_print;
		st.stats_arg = &stats;
	}
	if (o->command && rt_command_release(&cmd, err, sizeof(err))) {
		cat_error("cannot run %s: %s", o->command[0], err);
		stop_requested = 1;
	}

	if (o->snapshot) {
		if (use_views && o->session.stack_user_depth)
			see_selected_threads(o, &views);
		st.start_ns = rt_sys.now_ns();
		struct cat_raw_header rh = {
			write_snapshot_header, &s, &perf,
			o->symbols && o->session.stack_user_depth,
			trace_start_mono, trace_start_real,
		};

		code = cat_snapshot_run(o, &s, &ob, &paths, &snapshot_requested,
					&stop_requested, &wait_set,
					stats_on ? &stats : NULL, &rh,
					&snapshots);
		st.end_ns = rt_sys.now_ns();
		if (!o->quiet && !rt_session_stats(&s, &kstats))
			fprintf(stderr, PROG ": %" PRIu64 " snapshot%s; the "
				"kernel wrote %" PRIu64 " records, overwrote %"
				PRIu64 ", lost %" PRIu64 "\n", snapshots,
				snapshots == 1 ? "" : "s",
				(uint64_t)kstats.records,
				(uint64_t)kstats.overwritten,
				(uint64_t)kstats.lost);
		goto reap;
	}
	status = rt_stream_live(&st, &s);
	code = stream_exit_code(&st, status, &ob);
	sum.srcs = s.srcs;
	sum.nr_srcs = s.nr_rings;
	/* Counted as on replay: samples and snapshots in the line. */
	if (use_perf && perf.has_sampler) {
		sum.perf_srcs = perf.sampler.srcs;
		sum.nr_perf_srcs = perf.sampler.nr_rings;
	}
	if (use_perf && perf.has_snapshots) {
		sum.counter_srcs = &perf.snapshots.src;
		sum.nr_counter_srcs = 1;
	}
	sum.lost_pending = st.lost_pending;
	sum.elapsed_ns = st.end_ns - st.start_ns;
	if (use_views && status == RT_STREAM_OK) {
		struct rt_source_counts t = rt_summary_totals(&sum);

		cat_views_stream_ended(&views, &t, st.lost_pending, NULL);
		if (cat_views_finish(&views))
			code = EXIT_FAIL;
	}
	if (!o->quiet) {
		if (!rt_session_stats(&s, &kstats))
			sum.kernel = &kstats;
		cat_summary_rings(&s, &sum, &ring_stats);
		rt_summary_print(stderr, &sum);
		if (o->verbose)
			note_reader(&st.place, o->reader_plain);
		if (use_perf) {
			perf_title(o, title, sizeof(title));
			rt_perf_session_summary(stderr, &perf, PROG, title);
		}
	}
reap:
	if (o->command) {
		/* SIGTERM was meant for the whole run; Ctrl-C reached it already. */
		if (stop_signal == SIGTERM && !rt_command_reap(&cmd, true))
			kill(cmd.pid, SIGTERM);
		rt_command_reap(&cmd, false);
		if (code == EXIT_OK)
			code = rt_command_exit_code(&cmd);
	}
out:
	rt_pidwatch_close(&watch);
	if (stats_on)
		cat_stats_fini(&stats);
	free(ring_stats);
	cat_views_fini(&views);
	rt_paths_fini(&paths);
	rt_perf_session_close(&perf);
	free(perf_tids);
	rt_session_close(&s);
	close_output(o, &ob);
	save_ksyms(o, code);
	return code;
}

/*
 * --load: insert ringtrace.ko through libkmod when /dev/ringtrace is
 * missing, the way ringtrace-ctl load does (the checkout's module next to
 * this binary, else the one installed for the running kernel).
 */
static int load_module(void)
{
	char path_buf[PATH_MAX], exe[PATH_MAX], msg[512];
	const char *path = NULL;
	ssize_t n;

	if (access(RINGTRACE_DEVICE_PATH, F_OK) == 0)
		return 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		path = rt_kmod_checkout_path(exe, path_buf, sizeof(path_buf));
	}
	if (rt_kmod_load(path, "", msg, sizeof(msg))) {
		cat_error("--load: %s", msg);
		return -1;
	}
	fprintf(stderr, PROG ": %s\n", msg);
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t stop_set, original_mask;
	struct options o;

	/* --diff BEFORE AFTER: a mode with options of its own (diff.c). */
	if (cat_diff_requested(argc, argv))
		return cat_diff_main(argc, argv);
	cat_errors_from_argv(argc, argv);
	cat_parse_options(argc, argv, &o);
	note_cmdline(argc, argv);
	sigprocmask(SIG_SETMASK, NULL, &original_mask);
	install_signals(&stop_set);
	if (o.input)
		return decode_file(&o);
	if (o.load && load_module())
		return EXIT_FAIL;
	if (o.snapshot)
		install_snapshot_signal(&stop_set);
	return trace(&o, &stop_set, &original_mask);
}
