// SPDX-License-Identifier: GPL-2.0-only
/* ringtrace-cat's option parsing and checking (see cat_options.h). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "cat_options.h"
#include "ringtrace/attach.h"
#include "ringtrace/cgroup.h"
#include "ringtrace/parse.h"

static const char usage_text[] =
"Usage: " PROG " [OPTIONS] [-- COMMAND [ARGS...]]\n"
"       " PROG " -i FILE|- [--json] [VIEWS] [FILTERS] [-o FILE]\n"
"\n"
"Stream ringtrace records (one vfs_read per line by default) until Ctrl-C.\n"
"With nothing selected it traces the whole system.\n"
"\n"
"What to trace:\n"
"  -a, --all-cpus            system-wide (the default when nothing is selected)\n"
"  -p, --pid PID[,PID...]    process PID and its descendants; several pids:\n"
"                            those processes only, filtered in " PROG "\n"
"  -C, --cpu LIST            only these CPUs, e.g. 0,2-3\n"
"      --cgroup PATH         only tasks in this cgroup (v2) or below: a\n"
"                            directory under /sys/fs/cgroup, or a path\n"
"                            relative to it; repeat for several\n"
"  -t, --tid LIST            these threads only (filtered here; the module's\n"
"                            own selection with --per-thread)\n"
"      --per-thread          one ring per thread, not per CPU: the threads of\n"
"                            -t LIST, or those -p PID has when tracing starts\n"
"  -e, --events LIST         vfs_read (default), lock, lock_contention,\n"
"                            offcpu, sample, counters (offcpu: intervals off\n"
"                            CPU, and each vfs_read's time off CPU)\n"
"      --min-latency DUR     vfs_read calls at least this long (1ms, 250us, 100ns)\n"
"      --min-offcpu DUR      offcpu intervals at least this long (default 1ms;\n"
"                            0: every one)\n"
"      --include-self        also trace " PROG "'s own reads\n"
"      --load                load ringtrace.ko first if it is not loaded (the\n"
"                            checkout's next to this tool, else the installed one)\n"
"      --stack               records carry the call's kernel and user stacks\n"
"      --attach MECH         attach vfs_read with fprobe, kretprobe or direct\n"
"                            (default auto: the cheapest that shares vfs_read\n"
"                            with other tools; direct locks BPF fentry/fexit\n"
"                            programs out of vfs_read while it traces)\n"
"  -- COMMAND [ARGS]         run COMMAND, held until tracing is enabled so its\n"
"                            very first reads are seen; trace it and its children,\n"
"                            stop when it exits, exit with its exit status\n"
"\n"
"How long:\n"
"  -d, --duration SECONDS    stop after this long (fractions and units ok: 2.5, 500ms)\n"
"\n"
"Buffering:\n"
"      --buffer-size SIZE    per-CPU ring, a power of two of pages (default 4M; 64K, 1M)\n"
"      --watermark SIZE      wake up once a ring holds this much (default:\n"
"                            256K, or half the ring if smaller)\n"
"      --flush-interval DUR  wake up at least this often when data waits (default 100ms)\n"
"      --reorder-window MS   hold records this long to merge CPUs in time order\n"
"                            (default 20; a unit is accepted: 5ms)\n"
"      --stats INTERVAL      every INTERVAL, one line per ring on standard error:\n"
"                            fill %, records/s, lost/s (e.g. 1s)\n"
"\n"
"Flight recorder:\n"
"      --snapshot            keep only the newest records (the rings overwrite\n"
"                            their oldest); print them on each SIGUSR2 (with\n"
"                            --raw -o PREFIX: one raw file PREFIX.N each)\n"
"      --snapshot-size SIZE  print at most SIZE bytes of records per snapshot\n"
"      --snapshot-time DUR   print only the last DUR before the signal (e.g. 5s)\n"
"\n"
"perf_event_open alongside (merged into the same stream by time):\n"
"      --counters LIST       count these (perf's names, or 'default'): per CPU\n"
"                            with -a/-C, per process with -p or a COMMAND;\n"
"                            a perf-stat-like summary at the end\n"
"      --interval MS         also a counters record every MS (units ok: 1s);\n"
"                            with --hist/--summary, print them every MS\n"
"      --sample EVENT[:HZ]   sample cpu-clock or task-clock HZ times a second\n"
"                            (default 1000) into perf rings read like ours\n"
"  -g, --callchain           samples carry their call chain\n"
"      --sample-buffer SIZE  perf ring per CPU, power-of-two pages (default 256K)\n"
"      --folded              print the samples as folded stacks at the end\n"
"                            (for flamegraph.pl), instead of the stream\n"
"\n"
"Views (instead of the stream; live or with -i):\n"
"      --hist                vfs_read latency histogram (and lock wait/hold)\n"
"      --hist-by KEY         one histogram per comm, pid, file or cgroup\n"
"      --summary             who reads what: process x file, bytes, calls,\n"
"                            total and p50/p99/max latency, slowest first\n"
"      --report              a perf-report-like table of the flame graph's\n"
"                            stacks: children and self %% by symbol\n"
"      --report-by KEY       the same by sym, comm or dso (with --json: JSON)\n"
"      --flamegraph FILE     an interactive SVG flame graph\n"
"      --flame-weight W      samples (default with --sample), latency, bytes\n"
"                            or offcpu (time off CPU by stack, -e offcpu)\n"
"      --perfetto FILE       Chrome trace-event JSON for ui.perfetto.dev\n"
"      --ctf DIR             a CTF 1.8 trace for babeltrace2 and Trace Compass\n"
"      --no-symbols          keep frames as addresses, in the stream and the\n"
"                            views (no kallsyms, no libdwfl)\n"
"\n"
"Replay (-i) filters:\n"
"  -p LIST, -C LIST, -t LIST, -e LIST, --min-latency DUR   as when tracing\n"
"      --comm NAME           this command name only\n"
"      --time START,END      timestamps as printed (61.4,62.5), or after the\n"
"                            first event with a unit (1s,2.5s); either may be empty\n"
"      --header              show the raw file's header and stop\n"
"      --kallsyms FILE       kernel symbols of the recording machine (a copy\n"
"                            of its /proc/kallsyms) for the stream's and the\n"
"                            views' kernel frames; without it, hex\n"
"\n"
"Output:\n"
"  -o, --output FILE         write to FILE ('-': standard output); an existing\n"
"                            FILE is kept as FILE.old\n"
"      --json                one JSON object per line\n"
"      --raw                 binary raw file for later -i (needs -o or a pipe)\n"
"  -i, --input FILE          decode a raw file instead of tracing ('-': stdin)\n"
"  -q, --quiet               no summary on standard error\n"
"  -v, --verbose             per-CPU counts and kernel totals in the summary\n"
"  -h, --help                this help\n"
"      --version             version and ABI\n"
"\n"
"Differential (two recordings or two folded files; see --diff --help):\n"
"  " PROG " --diff BEFORE AFTER [--flamegraph FILE] [--folded] [--hist]\n"
"                            [--summary] [--flame-weight W] [--no-normalize]\n"
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
	OPT_LOAD,
	OPT_HIST,
	OPT_HIST_BY,
	OPT_REPORT,
	OPT_REPORT_BY,
	OPT_SUMMARY,
	OPT_FLAMEGRAPH,
	OPT_FLAME_WEIGHT,
	OPT_PERFETTO,
	OPT_CTF,
	OPT_NO_SYMBOLS,
	OPT_COMM,
	OPT_TIME,
	OPT_HEADER,
	OPT_STACK,
	OPT_KALLSYMS,
	OPT_PER_THREAD,
	OPT_SNAPSHOT,
	OPT_SNAPSHOT_SIZE,
	OPT_SNAPSHOT_TIME,
	OPT_STATS,
	OPT_ATTACH,
	OPT_CGROUP,
	OPT_MIN_OFFCPU,
};

static const struct option long_options[] = {
	{ "all-cpus",		no_argument,		NULL, 'a' },
	{ "pid",		required_argument,	NULL, 'p' },
	{ "cpu",		required_argument,	NULL, 'C' },
	{ "per-thread",		no_argument,		NULL, OPT_PER_THREAD },
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
	{ "load",		no_argument,		NULL, OPT_LOAD },
	{ "hist",		no_argument,		NULL, OPT_HIST },
	{ "hist-by",		required_argument,	NULL, OPT_HIST_BY },
	{ "report",		no_argument,		NULL, OPT_REPORT },
	{ "report-by",		required_argument,	NULL, OPT_REPORT_BY },
	{ "summary",		no_argument,		NULL, OPT_SUMMARY },
	{ "flamegraph",		required_argument,	NULL, OPT_FLAMEGRAPH },
	{ "flame-weight",	required_argument,	NULL, OPT_FLAME_WEIGHT },
	{ "perfetto",		required_argument,	NULL, OPT_PERFETTO },
	{ "ctf",		required_argument,	NULL, OPT_CTF },
	{ "no-symbols",		no_argument,		NULL, OPT_NO_SYMBOLS },
	{ "tid",		required_argument,	NULL, 't' },
	{ "comm",		required_argument,	NULL, OPT_COMM },
	{ "time",		required_argument,	NULL, OPT_TIME },
	{ "header",		no_argument,		NULL, OPT_HEADER },
	{ "stack",		no_argument,		NULL, OPT_STACK },
	{ "kallsyms",		required_argument,	NULL, OPT_KALLSYMS },
	{ "snapshot",		no_argument,		NULL, OPT_SNAPSHOT },
	{ "snapshot-size",	required_argument,	NULL, OPT_SNAPSHOT_SIZE },
	{ "snapshot-time",	required_argument,	NULL, OPT_SNAPSHOT_TIME },
	{ "stats",		required_argument,	NULL, OPT_STATS },
	{ "attach",		required_argument,	NULL, OPT_ATTACH },
	{ "cgroup",		required_argument,	NULL, OPT_CGROUP },
	{ "min-offcpu",		required_argument,	NULL, OPT_MIN_OFFCPU },
	{ NULL, 0, NULL, 0 },
};

/* --flame-weight's names; --diff (cat_diff.c) takes the same. */
int cat_flame_weight_parse(const char *s, enum flame_weight *w)
{
	if (!strcmp(s, "samples"))
		*w = FLAME_SAMPLES;
	else if (!strcmp(s, "latency"))
		*w = FLAME_LATENCY;
	else if (!strcmp(s, "bytes"))
		*w = FLAME_BYTES;
	else if (!strcmp(s, "offcpu"))
		*w = FLAME_OFFCPU;	/* issue 22 */
	else
		return -1;
	return 0;
}

/* Whether @name is one of ringtrace-cat's long options (cat_diff.c). */
bool cat_option_known(const char *name)
{
	for (const struct option *opt = long_options; opt->name; opt++)
		if (!strcmp(opt->name, name))
			return true;
	return false;
}

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
		{ "offcpu",		RINGTRACE_EVENT_OFFCPU },
		{ "sample",		RT_FILTER_EVENT_SAMPLE },
		{ "samples",		RT_FILTER_EVENT_SAMPLE },
		{ "counters",		RT_FILTER_EVENT_COUNTERS },
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
				    "lock_contention, offcpu, sample, counters)",
				    (int)len, p);
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

/*
 * Upper bounds, so that nothing downstream adds a value near 2^64 ns to a
 * clock reading and wraps (a huge -d stopped at once, a huge window woke
 * the reader every millisecond). --flush-interval's is the module's
 * (RT_MAX_FLUSH_MS in kmod/chardev.c refuses more).
 */
#define NS_PER_MS		1000000ull
#define NS_PER_S		1000000000ull
#define MAX_DURATION_NS		(365 * 86400 * NS_PER_S)	/* -d, --interval */
#define MAX_WINDOW_NS		(60 * NS_PER_S)	/* records wait in the rings */
#define MIN_FLUSH_NS		NS_PER_MS
#define MAX_FLUSH_NS		(60000 * NS_PER_MS)

/* "250ms", "60s": the largest unit that writes @ns exactly. */
static const char *fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns && !(ns % NS_PER_S))
		snprintf(buf, len, "%llus", (unsigned long long)(ns / NS_PER_S));
	else if (ns && !(ns % NS_PER_MS))
		snprintf(buf, len, "%llums", (unsigned long long)(ns / NS_PER_MS));
	else if (ns && !(ns % 1000))
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000));
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	return buf;
}

/* Refuse @ns outside [@min, @max], saying which bound it crossed. */
static uint64_t ns_in_range(const char *opt, const char *arg, uint64_t ns,
			    uint64_t min, uint64_t max)
{
	char bound[32];

	if (ns < min)
		usage_error("%s %s: must be at least %s", opt, arg,
			    fmt_ns(bound, sizeof(bound), min));
	if (ns > max)
		usage_error("%s %s: must be at most %s", opt, arg,
			    fmt_ns(bound, sizeof(bound), max));
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

/* Refused with the two valid sizes around it (tools.rst promises them). */
static void check_buffer_size(const char *opt, const char *arg,
			      uint64_t bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	char lo_s[32], hi_s[32];
	uint64_t pages, lo;

	if (page <= 0)
		return;		/* the session checks it against the module */
	pages = bytes / (uint64_t)page;
	if (!(bytes % (uint64_t)page) && pages && !(pages & (pages - 1)))
		return;
	if (!pages)
		usage_error("%s %s: must be a power-of-two number of %ld-byte "
			    "pages: the smallest is %s", opt, arg, page,
			    rt_format_size(lo_s, sizeof(lo_s), (uint64_t)page));
	for (lo = (uint64_t)page; lo <= bytes / 2; lo *= 2)
		;
	usage_error("%s %s: must be a power-of-two number of %ld-byte pages: "
		    "the nearest are %s and %s", opt, arg, page,
		    rt_format_size(lo_s, sizeof(lo_s), lo),
		    rt_format_size(hi_s, sizeof(hi_s), lo * 2));
}

/* -g and --sample-buffer apply to --sample, whatever the order given. */
static void check_perf_options(struct options *o)
{
	struct rt_perf_session_opts *p = &o->perf;

	/* A replay's samples are in the file: --folded reads them. */
	if (!p->sample && (o->callchain || o->sample_buffer ||
			   (o->folded && !o->input)))
		usage_error("%s needs --sample", (o->folded && !o->input) ?
			    "--folded" :
			    o->sample_buffer ? "--sample-buffer" : "-g");
	if (o->folded && (o->json || o->raw))
		usage_error("--folded is an output format: not with %s",
			    o->json ? "--json" : "--raw");
	p->sample_spec.callchain = o->callchain;
	if (o->sample_buffer)
		p->sample_spec.buffer_bytes = o->sample_buffer;
	if (p->interval_ns && !p->counters && !o->hist && !o->summary)
		usage_error("--interval needs --counters, --hist or --summary");
	if (p->interval_ns && o->input)
		usage_error("--interval paces a live run: not with -i");
	/* A raw file records them; a replay shows what the file holds. */
	if ((p->sample || p->counters) && o->input)
		usage_error("--counters and --sample record a live run: -i "
			    "replays what the raw file holds");
	p->window_ns = o->window_ns;
}

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
	/* issue 22: a replay keeps what the recording kept unless told. */
	if (o->min_offcpu_given)
		o->filter.min_offcpu_ns = o->session.min_offcpu_ns;
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
		usage_error("-e sample: samples are recorded with --sample");
	if ((perf & RT_FILTER_EVENT_COUNTERS) && !o->perf.counters)
		usage_error("-e counters: counters are recorded with --counters");
	if (o->perf.sample && !(perf & RT_FILTER_EVENT_SAMPLE))
		usage_error("--sample records samples, but -e does not name "
			    "'sample': add it to -e or drop --sample");
	if (o->perf.counters && !(perf & RT_FILTER_EVENT_COUNTERS))
		usage_error("--counters records counters, but -e does not name "
			    "'counters': add it to -e or drop --counters");
	o->session.events &= ~RT_FILTER_PERF_EVENTS;
	if (!o->session.events)
		o->filter.events = perf;
}

/* issue 24: each --cgroup PATH to the id the module selects it by. */
static void resolve_cgroups(struct options *o)
{
	struct rt_session_opts *so = &o->session;
	char err[512];
	uint32_t i, j;
	uint64_t id;

	for (i = 0; i < o->nr_cgroup_paths; i++) {
		if (rt_cgroup_id(RT_CGROUP_ROOT, o->cgroup_paths[i], &id, err,
				 sizeof(err)))
			usage_error("--cgroup: %s", err);
		for (j = 0; j < so->nr_cgroups && o->cgroup_ids[j] != id; j++)
			;
		if (j == so->nr_cgroups)	/* the same one twice: once */
			o->cgroup_ids[so->nr_cgroups++] = id;
	}
	so->cgroup_ids = so->nr_cgroups ? o->cgroup_ids : NULL;
}

/* issue 9: --snapshot prints text or JSON snapshots of a live run. */
static void check_snapshot_options(const struct options *o)
{
	if ((o->snapshot_size || o->snapshot_time_ns) && !o->snapshot)
		usage_error("%s bounds a snapshot: it needs --snapshot",
			    o->snapshot_size ? "--snapshot-size" :
					       "--snapshot-time");
	if (o->input && (o->snapshot || o->stats_ns))
		usage_error("%s watches a live run: not with -i",
			    o->snapshot ? "--snapshot" : "--stats");
	if (!o->snapshot)
		return;
	if (o->raw && (!o->output || !strcmp(o->output, "-")))
		usage_error("--snapshot --raw writes each snapshot to a file of "
			    "its own: give -o PREFIX (PREFIX.1, PREFIX.2...)");
	if (o->hist || o->summary || o->flamegraph || o->perfetto ||
	    o->folded || o->ctf || o->report)
		usage_error("--snapshot prints records: views do not apply");
	if (o->perf.counters || o->perf.sample)
		usage_error("--snapshot: --counters and --sample do not apply");
	if (o->session.watermark_bytes || o->session.flush_ms)
		usage_error("--snapshot never wakes up for data: --watermark "
			    "and --flush-interval do not apply");
}

static void check_view_options(struct options *o)
{
	bool views = o->hist || o->summary || o->flamegraph || o->perfetto ||
		     o->ctf;

	if ((views || o->report) && o->raw)
		usage_error("--raw records; views (--hist, --summary, --report, "
			    "--flamegraph, --perfetto, --ctf) read it back with -i");
	if (views && o->json)
		usage_error("--json prints the stream; views replace it");
	/* The report has a JSON printer: alone, it may print JSON. */
	if (o->report && o->json && o->folded)
		usage_error("--json prints the stream; views replace it");
	/* As the flame graph: samples when there are, else vfs_read latency. */
	if (o->report && !o->flame_weight_given)
		o->flame_weight = o->perf.sample ? FLAME_SAMPLES : FLAME_LATENCY;
	if (o->report && o->flame_weight == FLAME_SAMPLES &&
	    !o->perf.sample && !o->input)
		usage_error("--report by samples needs --sample or -i FILE");
	if (o->flamegraph && !o->flame_weight_given)
		o->flame_weight = o->perf.sample ? FLAME_SAMPLES : FLAME_LATENCY;
	/* On replay (-i) the default follows the file (cat.c). */
	if (o->flamegraph && o->flame_weight == FLAME_SAMPLES &&
	    !o->perf.sample && !o->input)
		usage_error("--flame-weight samples needs --sample or -i FILE");
	/*
	 * Raw output copies the rings undecoded: only the module filters.
	 * (--per-thread's -t is the module's selection; check_per_thread()
	 * says what per-thread lacks.)
	 */
	if (o->raw && !o->input &&
	    ((o->filter.nr_tids && !o->per_thread) || o->filter.comm ||
	     o->filter.relative || o->filter.nr_pids > 1))
		usage_error("--raw records what the module selects: -t, --comm, "
			    "--time and several -p pids filter a replay (-i)");
}

/* Standard output and error are one file or pipe (2>&1). */
static bool stdout_is_stderr(void)
{
	struct stat so, se;

	if (fstat(STDOUT_FILENO, &so) || fstat(STDERR_FILENO, &se))
		return false;
	return (S_ISREG(so.st_mode) || S_ISFIFO(so.st_mode)) &&
	       so.st_dev == se.st_dev && so.st_ino == se.st_ino;
}

/* Whether two names are one file: by device and inode, else by name. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ea = !stat(a, &sa), eb = !stat(b, &sb);

	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return !ea && !eb && !strcmp(a, b);
}

/*
 * Issue 21: every file ringtrace-cat reads or writes is a different file,
 * checked before any work. Two outputs to one file left one of them (and
 * the previous FILE.old) lost; an output on the input destroyed the
 * recording after the whole replay.
 */
static void check_distinct_files(const struct options *o)
{
	struct {
		const char	*opt;
		const char	*path;
	} f[] = {
		{ "-i", o->input },
		/* --snapshot --raw -o PREFIX writes PREFIX.N files */
		{ "-o", o->snapshot && o->raw ? NULL : o->output },
		{ "--flamegraph", o->flamegraph },
		{ "--perfetto", o->perfetto },
	};
	size_t n = sizeof(f) / sizeof(f[0]);

	for (size_t i = 0; i < n; i++) {
		if (!f[i].path || !strcmp(f[i].path, "-"))
			continue;
		for (size_t j = i + 1; j < n; j++) {
			if (!f[j].path || !strcmp(f[j].path, "-") ||
			    !same_file(f[i].path, f[j].path))
				continue;
			if (i == 0)
				usage_error("%s %s is the input: refusing to "
					    "overwrite it", f[j].opt, f[j].path);
			usage_error("%s and %s name the same file, %s: each "
				    "output needs its own", f[i].opt, f[j].opt,
				    f[j].path);
		}
	}
}

/*
 * --per-thread (issue 9): the module selects the threads, one ring each.
 * From -t LIST, or from -p PID's threads when tracing starts (cat.c).
 */
static void check_per_thread(struct options *o)
{
	if (!o->per_thread)
		return;
	if (o->command)
		usage_error("--per-thread needs threads that exist: -t LIST or "
			    "-p PID, not a COMMAND");
	if (o->system_wide)
		usage_error("--per-thread selects threads: not with -a");
	if (o->raw)
		usage_error("--per-thread: --raw records per-CPU rings only "
			    "(not yet per-thread ones)");
	if (o->perf.counters || o->perf.sample)
		usage_error("--per-thread: --counters and --sample are not "
			    "available with per-thread rings yet");
	if (o->filter.nr_tids && o->pid_given)
		usage_error("--per-thread: -t LIST or -p PID, not both");
	if (o->filter.nr_tids) {
		for (uint32_t i = 0; i < o->filter.nr_tids; i++) {
			if (o->filter.tids[i] > INT32_MAX || !o->filter.tids[i])
				usage_error("-t: %u is not a thread id",
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
		usage_error("--per-thread needs -t LIST or one -p PID");
	}
}

void cat_parse_options(int argc, char **argv, struct options *o)
{
	char err[256];
	int c;

	memset(o, 0, sizeof(*o));
	o->session.pid = -1;
	o->window_ns = RT_DEFAULT_REORDER_WINDOW_NS;
	o->symbols = true;
	o->session.paths = true;	/* names for dev:ino, when the module can */
	o->session.cgroups = true;	/* and for cgroups (issue 24) */
	o->session.min_offcpu_ns = RT_DEFAULT_MIN_OFFCPU_NS;	/* issue 22 */

	while ((c = getopt_long(argc, argv, "+ap:C:e:d:o:i:qvhgt:", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			o->system_wide = true;
			break;
		case 'p':
			if (rt_filter_parse_ids(optarg, o->filter.pids,
						&o->filter.nr_pids))
				usage_error("-p: '%s' is not a list of process "
					    "ids", optarg);
			o->session.pid = (int32_t)o->filter.pids[0];
			o->pid_given = true;
			break;
		case 't':
			if (rt_filter_parse_ids(optarg, o->filter.tids,
						&o->filter.nr_tids))
				usage_error("-t: '%s' is not a list of thread "
					    "ids", optarg);
			break;
		case OPT_PER_THREAD:
			o->per_thread = true;
			break;
		case OPT_COMM:
			o->filter.comm = optarg;
			break;
		case OPT_TIME:
			if (rt_filter_parse_time(optarg, &o->filter, err,
						 sizeof(err)))
				usage_error("--time %s: %s", optarg, err);
			break;
		case OPT_HEADER:
			o->header = true;
			break;
		case OPT_KALLSYMS:
			/* Unreadable: refused now, not after the whole replay. */
			if (access(optarg, R_OK))
				usage_error("--kallsyms %s: %s", optarg,
					    strerror(errno));
			o->kallsyms = optarg;
			break;
		case OPT_STACK:
			/* Every event traced; the deepest stacks the ABI allows. */
			o->session.stack_events = ~0ull;
			o->session.stack_kernel_depth = RINGTRACE_STACK_MAX_DEPTH;
			o->session.stack_user_depth = RINGTRACE_STACK_MAX_DEPTH;
			break;
		case OPT_HIST:
			o->hist = true;
			break;
		case OPT_HIST_BY:
			if (rt_hist_by_parse(optarg, &o->hist_by))
				usage_error("--hist-by: '%s' is not comm, pid, cgroup or "
					    "file", optarg);
			o->hist = true;
			break;
		case OPT_REPORT_BY:
			if (rt_report_by_parse(optarg, &o->report_by))
				usage_error("--report-by: '%s' is not sym, comm "
					    "or dso", optarg);
			o->report = true;
			break;
		case OPT_REPORT:
			o->report = true;
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		case OPT_FLAMEGRAPH:
			o->flamegraph = optarg;
			break;
		case OPT_FLAME_WEIGHT:
			if (cat_flame_weight_parse(optarg, &o->flame_weight))
				usage_error("--flame-weight: '%s' is not samples, "
					    "latency, bytes or offcpu", optarg);
			o->flame_weight_given = true;
			break;
		case OPT_PERFETTO:
			o->perfetto = optarg;
			break;
		case OPT_CTF:
			o->ctf = optarg;
			break;
		case OPT_NO_SYMBOLS:
			o->symbols = false;
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
		case OPT_MIN_OFFCPU:
			o->session.min_offcpu_ns =
				duration_arg("--min-offcpu", optarg,
					     rt_parse_duration);
			o->min_offcpu_given = true;
			break;
		case OPT_SELF:
			o->session.include_self = true;
			break;
		case 'd':
			o->duration_ns = duration_arg("-d", optarg,
						      rt_parse_seconds);
			if (!o->duration_ns)
				usage_error("-d: the duration must be more than 0");
			if (o->duration_ns > MAX_DURATION_NS)
				usage_error("-d %s: must be at most %llus (365 days); "
					    "without -d, tracing runs until stopped",
					    optarg, MAX_DURATION_NS / NS_PER_S);
			break;
		case OPT_BUFFER_SIZE:
			o->session.buffer_bytes = size_arg("--buffer-size",
							   optarg, 1ull << 40);
			check_buffer_size("--buffer-size", optarg,
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

			ns_in_range("--flush-interval", optarg, ns, MIN_FLUSH_NS,
				    MAX_FLUSH_NS);
			o->session.flush_ms = (uint32_t)(ns / NS_PER_MS);
			break;
		}
		case OPT_WINDOW:
			o->window_ns = ns_in_range("--reorder-window", optarg,
						   ms_arg("--reorder-window",
							  optarg),
						   0, MAX_WINDOW_NS);
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
			o->perf.interval_ns = ns_in_range("--interval", optarg,
							  ms_arg("--interval",
								 optarg),
							  RT_PERF_MIN_INTERVAL_NS,
							  MAX_DURATION_NS);
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
		case OPT_LOAD:
			o->load = true;
			break;
		case OPT_SAMPLE_BUFFER:
			o->sample_buffer = size_arg("--sample-buffer", optarg,
						    1ull << 32);
			check_buffer_size("--sample-buffer", optarg,
					  o->sample_buffer);
			break;
		case OPT_SNAPSHOT:
			o->snapshot = true;
			o->session.overwrite = true;
			break;
		case OPT_SNAPSHOT_SIZE:
			o->snapshot_size = size_arg("--snapshot-size", optarg,
						    1ull << 40);
			if (!o->snapshot_size)
				usage_error("--snapshot-size: must be more than 0");
			break;
		case OPT_SNAPSHOT_TIME:
			o->snapshot_time_ns = duration_arg("--snapshot-time",
							   optarg,
							   rt_parse_seconds);
			if (!o->snapshot_time_ns)
				usage_error("--snapshot-time: must be more than 0");
			break;
		case OPT_STATS:
			o->stats_ns = ns_in_range("--stats", optarg,
						  duration_arg("--stats", optarg,
							       rt_parse_seconds),
						  MIN_FLUSH_NS, MAX_DURATION_NS);
			break;
		case OPT_ATTACH:
			if (rt_attach_parse(optarg, &o->session.vfs_read_attach))
				usage_error("--attach: '%s' is not auto, fprobe, "
					    "kretprobe or direct", optarg);
			break;
		case OPT_CGROUP:
			if (o->nr_cgroup_paths == RINGTRACE_MAX_CGROUPS)
				usage_error("--cgroup: at most %u cgroups",
					    RINGTRACE_MAX_CGROUPS);
			o->cgroup_paths[o->nr_cgroup_paths++] = optarg;
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
	check_view_options(o);
	check_snapshot_options(o);
	check_distinct_files(o);
	if (o->input) {
		if (o->system_wide || o->per_thread || o->session.stack_events ||
		    o->duration_ns || o->session.buffer_bytes ||
		    o->session.watermark_bytes || o->session.flush_ms ||
		    o->session.vfs_read_attach || o->command ||
		    o->nr_cgroup_paths)
			usage_error("-i decodes a file: tracing options and a "
				    "command do not apply");
		/* issue 21: --raw writes the filtered or time-sliced copy. */
		if (o->raw && o->header)
			usage_error("--header prints the header: --raw does not "
				    "apply");
		if (o->raw && (!o->output || !strcmp(o->output, "-")) &&
		    isatty(STDOUT_FILENO))
			usage_error("--raw writes binary data: give -o FILE or "
				    "redirect standard output");
		replay_filters(o);
		return;
	}
	if (o->header)
		usage_error("--header shows a raw file's header: it needs -i FILE");
	check_per_thread(o);
	live_events(o);
	resolve_cgroups(o);
	if (o->filter.relative && o->duration_ns)
		usage_error("--time and -d both bound the run: pick one");
	/*
	 * One pid: the module follows it and its descendants. Several: the
	 * module traces everything and the list is applied here.
	 */
	if (o->filter.nr_pids > 1)
		o->session.pid = -1;
	else
		o->filter.nr_pids = 0;
	if (o->pid_given && o->command)
		usage_error("-p and a COMMAND both select what to trace: pick one");
	if (o->system_wide && (o->pid_given || o->command))
		usage_error("-a traces everything: it cannot be combined with %s",
			    o->pid_given ? "-p" : "a COMMAND");
	if (o->raw && (!o->output || !strcmp(o->output, "-")) &&
	    isatty(STDOUT_FILENO))
		usage_error("--raw writes binary data: give -o FILE or redirect "
			    "standard output");
	if (o->raw && (!o->output || !strcmp(o->output, "-")) &&
	    stdout_is_stderr())
		usage_error("--raw to standard output: standard error is the "
			    "same file, and messages%s would be mixed into the "
			    "recording: give -o FILE or redirect one of them",
			    o->command ? " and the command's output" : "");
}
