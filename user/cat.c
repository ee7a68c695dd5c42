// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat: stream ringtrace records as they arrive, or decode a raw
 * file. Option parsing and wiring only; the work is in libringtrace.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "ringtrace/command.h"
#include "ringtrace/folded.h"
#include "ringtrace/output.h"
#include "ringtrace/parse.h"
#include "ringtrace/perf_session.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/session.h"
#include "ringtrace/stream.h"
#include "ringtrace/summary.h"
#include "ringtrace/sys.h"

#define PROG	"ringtrace-cat"

enum exit_code {
	EXIT_OK		= 0,
	EXIT_FAIL	= 1,	/* could not trace: module, permission, I/O */
	EXIT_USAGE	= 2,	/* bad command line */
	EXIT_DATA	= 3,	/* corrupt ring or raw file */
};

struct options {
	struct rt_session_opts	session;
	bool			system_wide;
	bool			pid_given;
	bool			events_given;
	bool			json;
	bool			raw;
	bool			quiet;
	bool			verbose;
	const char		*output;
	const char		*input;
	uint64_t		duration_ns;
	uint64_t		window_ns;
	char			**command;	/* after "--", NULL-terminated */
	struct rt_perf_session_opts perf;	/* --counters, --sample */
	bool			callchain;	/* -g */
	bool			folded;		/* --folded */
	uint64_t		sample_buffer;	/* --sample-buffer; 0: default */
};

static const char usage_text[] =
"Usage: " PROG " [OPTIONS] [-- COMMAND [ARGS...]]\n"
"       " PROG " -i FILE [--json] [-o FILE]\n"
"\n"
"Stream ringtrace records (one vfs_read per line by default) until Ctrl-C.\n"
"With nothing selected it traces the whole system.\n"
"\n"
"What to trace:\n"
"  -a, --all-cpus            system-wide (the default when nothing is selected)\n"
"  -p, --pid PID             process PID and its descendants\n"
"  -C, --cpu LIST            only these CPUs, e.g. 0,2-3\n"
"  -e, --events LIST         vfs_read (default), lock, lock_contention\n"
"      --min-latency DUR     vfs_read calls at least this long (1ms, 250us, 100ns)\n"
"      --include-self        also trace " PROG "'s own reads\n"
"  -- COMMAND [ARGS]         run COMMAND, held until tracing is enabled so its\n"
"                            very first reads are seen; trace it and its children,\n"
"                            stop when it exits, exit with its exit status\n"
"\n"
"How long:\n"
"  -d, --duration SECONDS    stop after this long (fractions and units ok: 2.5, 500ms)\n"
"\n"
"Buffering:\n"
"      --buffer-size SIZE    per-CPU ring, a power of two of pages (default 4M; 64K, 1M)\n"
"      --watermark SIZE      wake up once a ring holds this much (default: half)\n"
"      --flush-interval DUR  wake up at least this often when data waits (default 100ms)\n"
"      --reorder-window MS   hold records this long to merge CPUs in time order\n"
"                            (default 20; a unit is accepted: 5ms)\n"
"\n"
"perf_event_open alongside (merged into the same stream by time):\n"
"      --counters LIST       count these (perf's names, or 'default'): per CPU\n"
"                            with -a/-C, per process with -p or a COMMAND;\n"
"                            a perf-stat-like summary at the end\n"
"      --interval MS         also a counters record every MS (units ok: 1s)\n"
"      --sample EVENT[:HZ]   sample cpu-clock or task-clock HZ times a second\n"
"                            (default 1000) into perf rings read like ours\n"
"  -g, --callchain           samples carry their call chain\n"
"      --sample-buffer SIZE  perf ring per CPU, power-of-two pages (default 256K)\n"
"      --folded              print the samples as folded stacks at the end\n"
"                            (for flamegraph.pl), instead of the stream\n"
"\n"
"Output:\n"
"  -o, --output FILE         write to FILE instead of standard output\n"
"      --json                one JSON object per line\n"
"      --raw                 binary raw file for later -i (needs -o or a pipe)\n"
"  -i, --input FILE          decode a raw file instead of tracing\n"
"  -q, --quiet               no summary on standard error\n"
"  -v, --verbose             per-CPU counts and kernel totals in the summary\n"
"  -h, --help                this help\n"
"      --version             version and ABI\n"
"\n"
"Exit status: 0 done (Ctrl-C and SIGTERM included), 1 could not trace,\n"
"2 bad usage, 3 corrupt data; with COMMAND, the command's exit status.\n"
"See ringtrace-cat(1) for the output formats.\n";

enum {
	OPT_MIN_LATENCY = 256,
	OPT_BUFFER_SIZE,
	OPT_WATERMARK,
	OPT_FLUSH,
	OPT_WINDOW,
	OPT_JSON,
	OPT_RAW,
	OPT_SELF,
	OPT_VERSION,
	OPT_COUNTERS,
	OPT_INTERVAL,
	OPT_SAMPLE,
	OPT_SAMPLE_BUFFER,
	OPT_FOLDED,
};

static const struct option long_options[] = {
	{ "all-cpus",		no_argument,		NULL, 'a' },
	{ "pid",		required_argument,	NULL, 'p' },
	{ "cpu",		required_argument,	NULL, 'C' },
	{ "events",		required_argument,	NULL, 'e' },
	{ "min-latency",	required_argument,	NULL, OPT_MIN_LATENCY },
	{ "include-self",	no_argument,		NULL, OPT_SELF },
	{ "duration",		required_argument,	NULL, 'd' },
	{ "buffer-size",	required_argument,	NULL, OPT_BUFFER_SIZE },
	{ "watermark",		required_argument,	NULL, OPT_WATERMARK },
	{ "flush-interval",	required_argument,	NULL, OPT_FLUSH },
	{ "reorder-window",	required_argument,	NULL, OPT_WINDOW },
	{ "output",		required_argument,	NULL, 'o' },
	{ "json",		no_argument,		NULL, OPT_JSON },
	{ "raw",		no_argument,		NULL, OPT_RAW },
	{ "input",		required_argument,	NULL, 'i' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "verbose",		no_argument,		NULL, 'v' },
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ "counters",		required_argument,	NULL, OPT_COUNTERS },
	{ "interval",		required_argument,	NULL, OPT_INTERVAL },
	{ "sample",		required_argument,	NULL, OPT_SAMPLE },
	{ "callchain",		no_argument,		NULL, 'g' },
	{ "sample-buffer",	required_argument,	NULL, OPT_SAMPLE_BUFFER },
	{ "folded",		no_argument,		NULL, OPT_FOLDED },
	{ NULL, 0, NULL, 0 },
};

static void __attribute__((format(printf, 1, 2), noreturn))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" PROG " --help' for more information.\n");
	exit(EXIT_USAGE);
}

static int parse_events(const char *list, uint64_t *events)
{
	static const struct {
		const char	*name;
		uint64_t	bit;
	} names[] = {
		{ "vfs_read",		RINGTRACE_EVENT_VFS_READ },
		{ "lock",		RINGTRACE_EVENT_LOCK },
		{ "lock_contention",	RINGTRACE_EVENT_LOCK_CONTENTION },
		{ "lock-contention",	RINGTRACE_EVENT_LOCK_CONTENTION },
	};
	const char *p = list;

	*events = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		size_t i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len &&
			    !strncmp(p, names[i].name, len))
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			usage_error("unknown event '%.*s' (known: vfs_read, lock, "
				    "lock_contention)", (int)len, p);
		*events |= names[i].bit;
		p += len + (p[len] == ',');
	}
	if (!*events)
		usage_error("-e needs at least one event");
	return 0;
}

static uint64_t duration_arg(const char *opt, const char *arg,
			     int (*parse)(const char *, uint64_t *, char *, size_t))
{
	char err[256];
	uint64_t ns;

	if (parse(arg, &ns, err, sizeof(err)))
		usage_error("%s: %s", opt, err);
	return ns;
}

static uint64_t size_arg(const char *opt, const char *arg, uint64_t max)
{
	char err[256];
	uint64_t bytes;

	if (rt_parse_size(arg, &bytes, err, sizeof(err)))
		usage_error("%s: %s", opt, err);
	if (bytes > max)
		usage_error("%s: %s is too large", opt, arg);
	return bytes;
}

/* --reorder-window, --interval: milliseconds, or any duration with a unit. */
static uint64_t ms_arg(const char *opt, const char *arg)
{
	char with_unit[64];
	size_t len = strlen(arg);

	if (len && len < sizeof(with_unit) - 2 &&
	    (arg[len - 1] >= '0' && arg[len - 1] <= '9')) {
		snprintf(with_unit, sizeof(with_unit), "%sms", arg);
		return duration_arg(opt, with_unit, rt_parse_duration);
	}
	return duration_arg(opt, arg, rt_parse_duration);
}

static int32_t pid_arg(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v <= 0 || v > INT32_MAX)
		usage_error("-p: '%s' is not a process id", arg);
	return (int32_t)v;
}

static void check_buffer_size(const char *opt, uint64_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pages;

	if (page <= 0)
		return;		/* the session checks it against the module */
	pages = bytes / (uint64_t)page;
	if (bytes % (uint64_t)page || !pages || (pages & (pages - 1)))
		usage_error("%s %llu: must be a power-of-two number "
			    "of %ld-byte pages, e.g. 64K, 1M, 4M", opt,
			    (unsigned long long)bytes, page);
}

/* -g and --sample-buffer apply to --sample, whatever the order given. */
static void check_perf_options(struct options *o)
{
	struct rt_perf_session_opts *p = &o->perf;

	if (!p->sample && (o->callchain || o->sample_buffer || o->folded))
		usage_error("%s needs --sample", o->folded ? "--folded" :
			    o->sample_buffer ? "--sample-buffer" : "-g");
	if (o->folded && (o->json || o->raw))
		usage_error("--folded is an output format: not with %s",
			    o->json ? "--json" : "--raw");
	p->sample_spec.callchain = o->callchain;
	if (o->sample_buffer)
		p->sample_spec.buffer_bytes = o->sample_buffer;
	if (p->interval_ns && !p->counters)
		usage_error("--interval needs --counters");
	if ((p->sample || p->counters) && (o->raw || o->input))
		usage_error("--counters and --sample print through the merge: "
			    "they cannot be used with %s",
			    o->raw ? "--raw" : "-i");
	p->window_ns = o->window_ns;
}

static void parse_options(int argc, char **argv, struct options *o)
{
	char err[256];
	int c;

	memset(o, 0, sizeof(*o));
	o->session.pid = -1;
	o->window_ns = RT_DEFAULT_REORDER_WINDOW_NS;

	while ((c = getopt_long(argc, argv, "+ap:C:e:d:o:i:qvhg", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			o->system_wide = true;
			break;
		case 'p':
			o->session.pid = pid_arg(optarg);
			o->pid_given = true;
			break;
		case 'C':
			if (rt_cpuset_parse(&o->session.cpus, optarg, err,
					    sizeof(err)))
				usage_error("-C: %s", err);
			o->session.cpus_given = true;
			break;
		case 'e':
			parse_events(optarg, &o->session.events);
			o->events_given = true;
			break;
		case OPT_MIN_LATENCY:
			o->session.min_latency_ns =
				duration_arg("--min-latency", optarg,
					     rt_parse_duration);
			break;
		case OPT_SELF:
			o->session.include_self = true;
			break;
		case 'd':
			o->duration_ns = duration_arg("-d", optarg,
						      rt_parse_seconds);
			if (!o->duration_ns)
				usage_error("-d: the duration must be more than 0");
			break;
		case OPT_BUFFER_SIZE:
			o->session.buffer_bytes = size_arg("--buffer-size",
							   optarg, 1ull << 40);
			check_buffer_size("--buffer-size",
					  o->session.buffer_bytes);
			break;
		case OPT_WATERMARK:
			o->session.watermark_bytes =
				(uint32_t)size_arg("--watermark", optarg,
						   UINT32_MAX);
			break;
		case OPT_FLUSH: {
			uint64_t ns = duration_arg("--flush-interval", optarg,
						   rt_parse_duration);

			if (ns < 1000000 || ns / 1000000 > UINT32_MAX)
				usage_error("--flush-interval: must be at least 1ms");
			o->session.flush_ms = (uint32_t)(ns / 1000000);
			break;
		}
		case OPT_WINDOW:
			o->window_ns = ms_arg("--reorder-window", optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_RAW:
			o->raw = true;
			break;
		case 'i':
			o->input = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case OPT_COUNTERS: {
			struct rt_counters probe;
			char names[1024];	/* the message lists every name */

			/* Check the names now: a typo is a usage error. */
			if (rt_counters_parse(&probe, optarg, names,
					      sizeof(names)))
				usage_error("--counters: %s", names);
			o->perf.counters = optarg;
			break;
		}
		case OPT_INTERVAL:
			o->perf.interval_ns = ms_arg("--interval", optarg);
			if (o->perf.interval_ns < RT_PERF_MIN_INTERVAL_NS)
				usage_error("--interval: at least 10ms");
			break;
		case OPT_SAMPLE:
			if (rt_perf_sample_parse(optarg, &o->perf.sample_spec,
						 err, sizeof(err)))
				usage_error("--sample: %s", err);
			o->perf.sample = true;
			break;
		case 'g':
			o->callchain = true;
			break;
		case OPT_FOLDED:
			o->folded = true;
			break;
		case OPT_SAMPLE_BUFFER:
			o->sample_buffer = size_arg("--sample-buffer", optarg,
						    1ull << 32);
			check_buffer_size("--sample-buffer", o->sample_buffer);
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(EXIT_OK);
		case OPT_VERSION:
			printf(PROG " %s (ringtrace ABI %d)\n", RINGTRACE_VERSION,
			       RINGTRACE_ABI_VERSION);
			exit(EXIT_OK);
		default:
			fprintf(stderr, "Try '" PROG " --help' for more "
				"information.\n");
			exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		o->command = &argv[optind];
	check_perf_options(o);

	if (o->json && o->raw)
		usage_error("--json and --raw are alternatives: pick one");
	if (o->input) {
		if (o->pid_given || o->session.cpus_given || o->system_wide ||
		    o->events_given || o->session.min_latency_ns ||
		    o->duration_ns || o->session.buffer_bytes ||
		    o->session.watermark_bytes || o->session.flush_ms ||
		    o->command)
			usage_error("-i decodes a file: tracing options and a "
				    "command do not apply");
		if (o->raw)
			usage_error("-i FILE is raw already: choose text or --json");
		return;
	}
	if (o->pid_given && o->command)
		usage_error("-p and a COMMAND both select what to trace: pick one");
	if (o->system_wide && (o->pid_given || o->command))
		usage_error("-a traces everything: it cannot be combined with %s",
			    o->pid_given ? "-p" : "a COMMAND");
	if (o->raw && !o->output && isatty(STDOUT_FILENO))
		usage_error("--raw writes binary data: give -o FILE or redirect "
			    "standard output");
}

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

static void on_child_exit(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static const int handled_signals[] = { SIGINT, SIGTERM, SIGCHLD, SIGPIPE };

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

	if (o->output) {
		fd = rt_sys.open(o->output, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			fprintf(stderr, PROG ": cannot create %s: %s\n", o->output,
				strerror(errno));
			return -1;
		}
	}
	if (rt_outbuf_init(ob, fd, RT_OUTBUF_DEFAULT_SIZE)) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	return 0;
}

static void close_output(const struct options *o, struct rt_outbuf *ob)
{
	if (o->output && ob->fd >= 0)
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
		fprintf(stderr, PROG ": writing output: %s\n",
			strerror(ob->error));
		return EXIT_FAIL;
	case RT_STREAM_ERR_DATA:
		fprintf(stderr, PROG ": %s\n", st->errmsg);
		return EXIT_DATA;
	}
	fprintf(stderr, PROG ": %s\n", st->errmsg);
	return EXIT_FAIL;
}

static int decode_file(const struct options *o)
{
	struct rt_stream st = {
		.format = o->json ? RT_FORMAT_JSON : RT_FORMAT_TEXT,
		.stop = &stop_requested,
	};
	struct rt_summary sum = { .prog = PROG, .verbose = o->verbose };
	struct rt_raw_file f;
	struct rt_outbuf ob;
	int ret, code;

	ret = rt_raw_open(&f, o->input);
	if (ret) {
		fprintf(stderr, PROG ": %s\n", f.errmsg);
		rt_raw_close(&f);
		return ret == -EINVAL ? EXIT_DATA : EXIT_FAIL;
	}
	if (open_output(o, &ob)) {
		rt_raw_close(&f);
		return EXIT_FAIL;
	}
	st.out = &ob;
	code = stream_exit_code(&st, rt_stream_file(&st, &f), &ob);
	if (f.truncated_bytes)
		fprintf(stderr, PROG ": warning: %s ends in the middle of a "
			"record; the last %llu bytes were ignored\n", o->input,
			(unsigned long long)f.truncated_bytes);
	if (!o->quiet) {
		sum.srcs = f.srcs;
		sum.nr_srcs = f.nr_srcs;
		sum.lost_pending = st.lost_pending;
		sum.elapsed_ns = RT_SUMMARY_NO_TIME;
		rt_summary_print(stderr, &sum);
	}
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

static void write_raw_header(struct rt_outbuf *ob, const struct rt_session *s,
			     uint64_t events)
{
	struct rt_raw_header h;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, RT_RAW_MAGIC, sizeof(h.magic));
	h.header_size = sizeof(h);
	h.format_version = RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	h.abi_version = s->info.abi_version;
	h.page_size = s->info.page_size;
	h.nr_cpu_ids = s->info.nr_cpu_ids;
	h.events = events;
	h.start_mono_ns = rt_sys.now_ns();
	h.start_real_ns = realtime_ns();
	memcpy(h.module_version, s->info.module_version,
	       sizeof(h.module_version));
	rt_raw_write_header(ob, &h);
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
	if (o->session.pid > 0) {
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
	ret = rt_perf_session_open(ps, &o->perf, &t,
				   page > 0 ? (size_t)page : 4096);
	if (!ret && ps->has_sampler)
		rt_comm_cache_scan(ps->sampler.comms, o->session.pid);
	if (!ret)
		ret = rt_perf_session_watch(ps, s->epfd);
	if (ret && !ps->errmsg[0])
		snprintf(ps->errmsg, sizeof(ps->errmsg), "cannot watch the perf "
			 "rings: %s", strerror(-ret));
	return ret;
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
	} else if (o->pid_given) {
		snprintf(buf, len, "process id '%d'", o->session.pid);
	} else if (o->session.cpus_given) {
		rt_cpuset_format(&o->session.cpus, cpus, sizeof(cpus));
		snprintf(buf, len, "'CPU(s) %s'", cpus);
	} else {
		snprintf(buf, len, "'system wide'");
	}
}

static void fold(void *arg, const struct rt_event *ev)
{
	rt_folded_add(arg, ev);
}

/* --folded: the stacks, kernel frames named from /proc/kallsyms. */
static void write_folded(struct rt_folded *f, struct rt_outbuf *ob, bool quiet)
{
	struct rt_ksyms ksyms;
	bool named = !rt_ksyms_load(&ksyms, "/proc/kallsyms");

	rt_folded_write(f, named ? &ksyms : NULL, ob);
	rt_outbuf_flush(ob);
	if (!quiet)
		fprintf(stderr, PROG ": %u stacks from %llu samples%s%s\n",
			f->nr_stacks, (unsigned long long)f->samples,
			f->dropped ? ", some dropped: the stack table is full" : "",
			named && ksyms.nr ? "" : "; no kernel symbols (kallsyms)");
	if (named)
		rt_ksyms_free(&ksyms);
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
	};
	struct rt_summary sum = { .prog = PROG, .verbose = o->verbose };
	struct ringtrace_stats kstats;
	struct rt_command cmd = { .pid = -1, .gate_fd = -1, .exec_err_fd = -1 };
	struct rt_session s;
	struct rt_outbuf ob;
	struct rt_perf_session perf;
	struct rt_cpuset perf_cpus;
	bool use_perf = o->perf.counters || o->perf.sample;
	pid_t *perf_tids = NULL;
	struct rt_folded folded = { 0 };
	char err[256], title[512];
	int code = EXIT_FAIL, status;

	memset(&perf, 0, sizeof(perf));
	if (open_output(o, &ob))
		return EXIT_FAIL;
	st.out = &ob;
	if (o->command) {
		if (rt_command_spawn(&cmd, o->command, original_mask,
				     handled_signals,
				     sizeof(handled_signals) /
					     sizeof(handled_signals[0]),
				     err, sizeof(err))) {
			fprintf(stderr, PROG ": cannot start %s: %s\n",
				o->command[0], err);
			close_output(o, &ob);
			return EXIT_FAIL;
		}
		o->session.pid = cmd.pid;
	}
	if (o->session.pid > 0)
		o->session.inherit = true;

	if (rt_session_open(&s, NULL) || rt_session_setup(&s, &o->session)) {
		fprintf(stderr, PROG ": %s\n", s.errmsg);
		rt_command_abort(&cmd);
		goto out;
	}
	if (o->folded) {
		if (rt_folded_init(&folded)) {
			fprintf(stderr, PROG ": out of memory\n");
			rt_command_abort(&cmd);
			goto out;
		}
		st.sink = fold;
		st.sink_arg = &folded;
	}
	if (use_perf && open_perf(o, &s, &perf, &perf_cpus, &perf_tids,
				  o->command != NULL)) {
		fprintf(stderr, PROG ": %s\n", perf.errmsg);
		rt_command_abort(&cmd);
		goto out;
	}
	if (o->raw)
		write_raw_header(&ob, &s, o->session.events ? o->session.events :
					  RINGTRACE_EVENT_VFS_READ);
	if (rt_session_enable(&s)) {
		fprintf(stderr, PROG ": %s\n", s.errmsg);
		rt_command_abort(&cmd);
		goto out;
	}
	if (use_perf) {
		rt_perf_session_enable(&perf, rt_sys.now_ns());
		st.hooks = &perf.hooks;
	}
	if (o->command && rt_command_release(&cmd, err, sizeof(err))) {
		fprintf(stderr, PROG ": cannot run %s: %s\n", o->command[0], err);
		stop_requested = 1;
	}

	status = rt_stream_live(&st, &s);
	if (o->folded && status == RT_STREAM_OK)
		write_folded(&folded, &ob, o->quiet);
	code = stream_exit_code(&st, status, &ob);
	if (!o->quiet) {
		sum.srcs = s.srcs;
		sum.nr_srcs = s.nr_rings;
		sum.lost_pending = st.lost_pending;
		sum.elapsed_ns = st.end_ns - st.start_ns;
		if (!rt_session_stats(&s, &kstats))
			sum.kernel = &kstats;
		rt_summary_print(stderr, &sum);
		if (use_perf) {
			perf_title(o, title, sizeof(title));
			rt_perf_session_summary(stderr, &perf, PROG, title);
		}
	}
	if (o->command) {
		/* SIGTERM was meant for the whole run; Ctrl-C reached it already. */
		if (stop_signal == SIGTERM && !rt_command_reap(&cmd, true))
			kill(cmd.pid, SIGTERM);
		rt_command_reap(&cmd, false);
		if (code == EXIT_OK)
			code = rt_command_exit_code(&cmd);
	}
out:
	rt_folded_fini(&folded);
	rt_perf_session_close(&perf);
	free(perf_tids);
	rt_session_close(&s);
	close_output(o, &ob);
	return code;
}

int main(int argc, char **argv)
{
	sigset_t stop_set, original_mask;
	struct options o;

	parse_options(argc, argv, &o);
	sigprocmask(SIG_SETMASK, NULL, &original_mask);
	install_signals(&stop_set);
	if (o.input)
		return decode_file(&o);
	return trace(&o, &stop_set, &original_mask);
}
