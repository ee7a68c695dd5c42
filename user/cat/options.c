// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat's command line (see options.h): the mode argv asks
 * for, the parser that accepts that mode's option tables only (opt.h),
 * the options every mode shares, and helpers for the other tables.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "errors.h"
#include "opt.h"
#include "ringtrace/parse.h"

const char cat_usage_text[] =
"Usage: " PROG " [OPTIONS] [-- COMMAND [ARGS...]]\n"
"       " PROG " -i FILE|- [--json] [VIEWS] [FILTERS] [-o FILE]\n"
"\n"
"Stream ringtrace records (one vfs_read per line by default) until Ctrl-C.\n"
"With nothing selected it traces the whole system.\n"
"\n"
"What to trace:\n"
"  -a, --all-cpus            system-wide (the default when nothing is selected)\n"
"  -p, --pid PID[,PID...]    process PID and its descendants; several pids:\n"
"                            those processes only, filtered in " PROG ";\n"
"                            ends once the processes named have exited\n"
"  -C, --cpu LIST            only these CPUs, e.g. 0,2-3\n"
"      --cgroup PATH         only tasks in this cgroup (v2) or below: a\n"
"                            directory under /sys/fs/cgroup, or a path\n"
"                            relative to it; repeat for several\n"
"  -t, --tid LIST            these threads only (filtered here; the module's\n"
"                            own selection with --per-thread)\n"
"      --per-thread          one ring per thread, not per CPU: the threads of\n"
"                            -t LIST, or those -p PID has when tracing starts\n"
"  -e, --events LIST         vfs_read (default), lock, lock_contention,\n"
"                            offcpu, func:NAME, tp:SUBSYS:EVENT, sample,\n"
"                            counters (offcpu: intervals off CPU, and each\n"
"                            vfs_read's time off CPU; func:NAME: calls of\n"
"                            kernel function NAME; tp:SUBSYS:EVENT: hits of\n"
"                            a kernel tracepoint; up to 64 of the two)\n"
"      --args N              func and tp records carry the first N raw\n"
"                            arguments (0 to 6; default 0, with tp: the\n"
"                            tracepoint's own, at most 6)\n"
"      --min-latency DUR     vfs_read calls at least this long (1ms, 250us, 100ns)\n"
"      --min-offcpu DUR      offcpu intervals at least this long (default 1ms;\n"
"                            0: every one)\n"
"      --include-self        also trace " PROG "'s own reads\n"
"      --load                load ringtrace.ko first if it is not loaded (the\n"
"                            checkout's next to this tool, else the installed one)\n"
"      --stack               records carry the call's kernel and user stacks\n"
"      --no-paths            no path records: files shown as dev:ino (cheaper)\n"
"      --no-cgroup-names     no cgroup records: cgroups shown as #ID (cheaper)\n"
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
"      --reader MODE         follow (default): at nice -10; a ring it falls behind\n"
"                            on is drained on its own CPU, to keep up at full\n"
"                            rate; plain: where the scheduler puts it, at the\n"
"                            nice it has\n"
"      --stats INTERVAL      every INTERVAL, one line per ring on standard error:\n"
"                            fill %, records/s, lost/s (e.g. 1s)\n"
"\n"
"Flight recorder:\n"
"      --snapshot            keep only the newest records (the rings overwrite\n"
"                            their oldest); print them on each SIGUSR2 (with\n"
"                            --raw -o PREFIX: one raw file PREFIX.N each)\n"
"      --snapshot-size SIZE  print at most SIZE bytes of records per snapshot\n"
"      --snapshot-time DUR   print only the last DUR before the signal (e.g. 5s)\n"
"      --trigger EXPR        also a snapshot when a record matches EXPR (the\n"
"                            --filter language): --raw -o PREFIX, one file\n"
"                            PREFIX.YYYYMMDD-HHMMSS.NNNNNNNNN per trigger\n"
"      --trigger-max N       at most N triggered snapshots\n"
"      --trigger-gap DUR     none less than DUR after the last (default 10s)\n"
"      --post DUR            also the records of DUR after the trigger\n"
"\n"
"perf_event_open alongside (merged into the same stream by time):\n"
"      --counters LIST       count these (perf's names, or 'default'): per CPU\n"
"                            with -a/-C, per process with -p or a COMMAND;\n"
"                            a perf-stat-like summary at the end\n"
"      --interval MS         also a counters record every MS (units ok: 1s);\n"
"                            with --hist/--summary, print them every MS (on\n"
"                            replay too: every MS of the records' clock)\n"
"      --sample EVENT[:HZ]   sample cpu-clock or task-clock HZ times a second\n"
"                            (default 1000) into perf rings read like ours\n"
"  -g, --callchain           samples carry their call chain\n"
"      --sample-buffer SIZE  perf ring per CPU, power-of-two pages (default 256K)\n"
"      --folded              print the flame graph's stacks as folded lines at\n"
"                            the end (for flamegraph.pl), instead of the stream\n"
"\n"
"Views (instead of the stream; live or with -i; --hist, --summary and\n"
"--report print JSON with --json):\n"
"      --hist                vfs_read latency histogram (and lock wait/hold)\n"
"      --hist-by KEY         one histogram per comm, pid, file or cgroup\n"
"      --summary             who reads what: process x file, bytes, calls,\n"
"                            total and p50/p99/max latency, slowest first\n"
"      --report              perf report's table of the flame graph's stacks\n"
"                            (--flame-weight): children and self % by symbol\n"
"      --report-by KEY       the same by sym, comm or dso\n"
"      --flamegraph FILE     an interactive SVG flame graph\n"
"      --flame-weight W      what --flamegraph, --folded and --report weigh:\n"
"                            samples, latency, bytes, offcpu (time off CPU) or\n"
"                            func (time in -e func:NAME's functions); default:\n"
"                            the first of samples, latency, offcpu and func\n"
"                            that the input holds and -e selects\n"
"      --perfetto FILE       Chrome trace-event JSON for ui.perfetto.dev\n"
"      --ctf DIR             a CTF 1.8 trace for babeltrace2 and Trace Compass\n"
"      --graph vfs_read      each read with its callees' times beneath it, as\n"
"                            ftrace's function_graph (func records of its thread\n"
"                            inside the read; others dropped and counted), and\n"
"                            where it was off CPU: [off-cpu S] lines under the\n"
"                            callee it blocked in, with the kernel frames; with\n"
"                            --folded, --flamegraph or --report, where the\n"
"                            reads' wall time went, by callee, on and off CPU\n"
"      --graph-funcs LIST    the callees traced: names or globs, at most 1024\n"
"                            (default: vfs_read's usual callees the kernel has)\n"
"      --graph-depth N       hide callees nested deeper than N (counted)\n"
"      --no-offcpu           --graph without off-CPU intervals\n"
"      --no-symbols          keep frames as addresses, in the stream and the\n"
"                            views (no kallsyms, no libdwfl)\n"
"\n"
"Replay (-i) filters:\n"
"  -p LIST                   these processes only (not their children: a\n"
"                            recording does not say who forked whom)\n"
"  -C LIST, -t LIST, -e LIST, --min-latency DUR, --min-offcpu DUR\n"
"                            as when tracing\n"
"      --comm NAME           this command name only\n"
"      --filter EXPR         records where EXPR holds, live too: 'ret < 0',\n"
"                            'count > 4K && path ~ \"/etc/*\"'; repeat to AND\n"
"      --time START,END      timestamps as printed (61.4,62.5), or after the\n"
"                            first event with a unit (1s,2.5s); either may be empty\n"
"      --header              show the raw file's header and stop\n"
"      --kallsyms FILE       kernel symbols of the recording machine (a copy\n"
"                            of its /proc/kallsyms) for the stream's and the\n"
"                            views' kernel frames, instead of those the file\n"
"                            stores (KSYMS chunk); with neither, hex\n"
"\n"
"Output:\n"
"  -o, --output FILE         write to FILE ('-': standard output); an existing\n"
"                            FILE is kept as FILE.old\n"
"      --json                one JSON object per line (records, views' blocks,\n"
"                            errors: {\"error\":...} on standard output too)\n"
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

/* --flame-weight's names; --diff (diff.c) takes the same. */
int cat_flame_weight_parse(const char *s, enum flame_weight *w)
{
	if (!strcmp(s, "samples"))
		*w = FLAME_SAMPLES;
	else if (!strcmp(s, "latency"))
		*w = FLAME_LATENCY;
	else if (!strcmp(s, "bytes"))
		*w = FLAME_BYTES;
	else if (!strcmp(s, "offcpu"))
		*w = FLAME_OFFCPU;
	else if (!strcmp(s, "func"))
		*w = FLAME_FUNC;
	else
		return -1;
	return 0;
}

void cat_usage_error(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cat_error_str(msg);
	fprintf(stderr, "Try '" PROG " --help' for more information.\n");
	exit(EXIT_USAGE);
}

uint64_t cat_duration_arg(const char *opt, const char *arg,
			  int (*parse)(const char *, uint64_t *, char *, size_t))
{
	char err[256];
	uint64_t ns;

	if (parse(arg, &ns, err, sizeof(err)))
		cat_usage_error("%s: %s", opt, err);
	return ns;
}

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
uint64_t cat_ns_in_range(const char *opt, const char *arg, uint64_t ns,
			 uint64_t min, uint64_t max)
{
	char bound[32];

	if (ns < min)
		cat_usage_error("%s %s: must be at least %s", opt, arg,
				fmt_ns(bound, sizeof(bound), min));
	if (ns > max)
		cat_usage_error("%s %s: must be at most %s", opt, arg,
				fmt_ns(bound, sizeof(bound), max));
	return ns;
}

uint64_t cat_size_arg(const char *opt, const char *arg, uint64_t max)
{
	char err[256];
	uint64_t bytes;

	if (rt_parse_size(arg, &bytes, err, sizeof(err)))
		cat_usage_error("%s: %s", opt, err);
	if (bytes > max)
		cat_usage_error("%s: %s is too large", opt, arg);
	return bytes;
}

/* --reorder-window, --interval: milliseconds, or any duration with a unit. */
uint64_t cat_ms_arg(const char *opt, const char *arg)
{
	char with_unit[64];
	size_t len = strlen(arg);

	if (len && len < sizeof(with_unit) - 2 &&
	    (arg[len - 1] >= '0' && arg[len - 1] <= '9')) {
		snprintf(with_unit, sizeof(with_unit), "%sms", arg);
		return cat_duration_arg(opt, with_unit, rt_parse_duration);
	}
	return cat_duration_arg(opt, arg, rt_parse_duration);
}

/* Refused with the two valid sizes around it (tools.rst promises them). */
void cat_check_buffer_size(const char *opt, const char *arg, uint64_t bytes)
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
		cat_usage_error("%s %s: must be a power-of-two number of "
				"%ld-byte pages: the smallest is %s", opt, arg,
				page, rt_format_size(lo_s, sizeof(lo_s),
						     (uint64_t)page));
	for (lo = (uint64_t)page; lo <= bytes / 2; lo *= 2)
		;
	cat_usage_error("%s %s: must be a power-of-two number of %ld-byte "
			"pages: the nearest are %s and %s", opt, arg, page,
			rt_format_size(lo_s, sizeof(lo_s), lo),
			rt_format_size(hi_s, sizeof(hi_s), lo * 2));
}

/* -e's names: the module's kinds, and perf's (filter bits). */
static void set_events(struct options *o, const char *list)
{
	/* perf's, beside the module's (rt_parse_event_name()). */
	static const struct {
		const char	*name;
		uint64_t	bit;
	} perf_names[] = {
		{ "sample",		RT_FILTER_EVENT_SAMPLE },
		{ "samples",		RT_FILTER_EVENT_SAMPLE },
		{ "counters",		RT_FILTER_EVENT_COUNTERS },
	};
	const char *p = list;
	uint64_t *events = &o->session.events;
	char err[128];

	*events = 0;
	o->session.nr_funcs = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		uint64_t bit;
		size_t i;

		/* func:NAME, tp:SUBSYS:EVENT (RINGTRACE_MAX_FUNCS of them). */
		switch (rt_session_opts_add_func(&o->session, p, len, err,
						 sizeof(err))) {
		case 0:
			p += len + (p[len] == ',');
			continue;
		case -1:
			cat_usage_error("%s", err);
		}
		bit = rt_parse_event_name(p, len);
		for (i = 0; !bit && i < sizeof(perf_names) / sizeof(perf_names[0]);
		     i++)
			if (strlen(perf_names[i].name) == len &&
			    !strncmp(p, perf_names[i].name, len))
				bit = perf_names[i].bit;
		if (!bit)
			cat_usage_error("unknown event '%.*s' (known: vfs_read, "
					"lock, lock_contention, offcpu, func:NAME, "
					"tp:SUBSYS:EVENT, sample, counters)",
					(int)len, p);
		*events |= bit;
		p += len + (p[len] == ',');
	}
	if (!*events)
		cat_usage_error("-e needs at least one event");
	o->events_given = true;
}

/* --args N: raw arguments per func record. */
static void set_func_args(struct options *o, const char *arg)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (!*arg || *end || n > RINGTRACE_FUNC_MAX_ARGS)
		cat_usage_error("--args takes 0 to %d, not '%s'",
				RINGTRACE_FUNC_MAX_ARGS, arg);
	o->session.func_args = (uint32_t)n;
	o->session.func_args_given = true;
}

static void set_pid(struct options *o, const char *arg)
{
	if (rt_filter_parse_ids(arg, o->filter.pids, &o->filter.nr_pids))
		cat_usage_error("-p: '%s' is not a list of process ids", arg);
	o->session.pid = (int32_t)o->filter.pids[0];
	o->pid_given = true;
}

static void set_tid(struct options *o, const char *arg)
{
	if (rt_filter_parse_ids(arg, o->filter.tids, &o->filter.nr_tids))
		cat_usage_error("-t: '%s' is not a list of thread ids", arg);
}

static void set_cpu(struct options *o, const char *arg)
{
	char err[256];

	if (rt_cpuset_parse(&o->session.cpus, arg, err, sizeof(err)))
		cat_usage_error("-C: %s", err);
	o->session.cpus_given = true;
}

static void set_min_latency(struct options *o, const char *arg)
{
	o->session.min_latency_ns = cat_duration_arg("--min-latency", arg,
						     rt_parse_duration);
}

static void set_min_offcpu(struct options *o, const char *arg)
{
	o->session.min_offcpu_ns = cat_duration_arg("--min-offcpu", arg,
						     rt_parse_duration);
	o->min_offcpu_given = true;
}

static void set_no_symbols(struct options *o, const char *arg)
{
	(void)arg;
	o->symbols = false;
}

static void help(struct options *o, const char *arg)
{
	(void)o;
	(void)arg;
	fputs(cat_usage_text, stdout);
	exit(EXIT_OK);
}

static void version(struct options *o, const char *arg)
{
	(void)o;
	(void)arg;
	printf(PROG " %s (ringtrace ABI %d)\n", RINGTRACE_VERSION,
	       RINGTRACE_ABI_VERSION);
	exit(EXIT_OK);
}

CAT_SET_STR(set_output, output)
CAT_SET_FLAG(set_json, json)
CAT_SET_FLAG(set_raw, raw)
CAT_SET_FLAG(set_quiet, quiet)
CAT_SET_FLAG(set_verbose, verbose)

/* Every mode: what is selected, and how it is written. */
const struct cat_opt cat_common_opts[] = {
	{ "pid",		'p', required_argument,	set_pid },
	{ "cpu",		'C', required_argument,	set_cpu },
	{ "tid",		't', required_argument,	set_tid },
	{ "events",		'e', required_argument,	set_events },
	{ "args",		0,   required_argument,	set_func_args },
	{ "min-latency",	0,   required_argument,	set_min_latency },
	{ "min-offcpu",		0,   required_argument,	set_min_offcpu },
	{ "no-symbols",		0,   no_argument,	set_no_symbols },
	{ "output",		'o', required_argument,	set_output },
	{ "json",		0,   no_argument,	set_json },
	{ "raw",		0,   no_argument,	set_raw },
	{ "quiet",		'q', no_argument,	set_quiet },
	{ "verbose",		'v', no_argument,	set_verbose },
	{ "help",		'h', no_argument,	help },
	{ "version",		0,   no_argument,	version },
	CAT_OPT_END,
};

const struct cat_mode *const cat_modes[] = {
	&cat_mode_trace, &cat_mode_replay, &cat_mode_snapshot, NULL,
};

/* @mode's option --@name, or -@letter; NULL if its tables lack it. */
static const struct cat_opt *find(const struct cat_mode *mode,
				  const char *name, int letter)
{
	for (size_t t = 0; mode->tables[t]; t++)
		for (const struct cat_opt *e = mode->tables[t]; e->name; e++)
			if ((name && !strcmp(e->name, name)) ||
			    (letter && e->letter == letter))
				return e;
	return NULL;
}

bool cat_mode_has(const struct cat_mode *mode, const char *name)
{
	return find(mode, name, 0) != NULL;
}

/* Whether @name is one of ringtrace-cat's long options (diff.c). */
bool cat_option_known(const char *name)
{
	for (size_t m = 0; cat_modes[m]; m++)
		if (cat_mode_has(cat_modes[m], name))
			return true;
	return false;
}

#define MAX_OPTS	96

/* getopt's view of @modes' tables: long options and the short string. */
struct getopt_tables {
	struct option		longs[MAX_OPTS + 1];
	const struct cat_opt	*ents[MAX_OPTS];
	char			shorts[2 * MAX_OPTS + 3];
	size_t			n;
};

#define VAL_BASE	1000	/* a long option's val: VAL_BASE + its index */

static void add_mode(struct getopt_tables *g, const struct cat_mode *mode)
{
	size_t s = strlen(g->shorts);

	for (size_t t = 0; mode->tables[t]; t++) {
		for (const struct cat_opt *e = mode->tables[t]; e->name; e++) {
			size_t i;

			for (i = 0; i < g->n && strcmp(g->ents[i]->name, e->name);
			     i++)
				;
			if (i < g->n)	/* in two modes' tables */
				continue;
			if (g->n == MAX_OPTS)
				abort();	/* raise MAX_OPTS */
			g->ents[g->n] = e;
			g->longs[g->n] = (struct option){ e->name, e->has_arg,
							  NULL,
							  VAL_BASE + (int)g->n };
			g->n++;
			if (e->letter) {
				g->shorts[s++] = (char)e->letter;
				if (e->has_arg == required_argument)
					g->shorts[s++] = ':';
			}
		}
	}
	g->shorts[s] = '\0';
}

/*
 * "+": options stop at the COMMAND; ":": a missing argument is told
 * apart from an option the mode does not take.
 */
static void init_tables(struct getopt_tables *g)
{
	memset(g, 0, sizeof(*g));
	strcpy(g->shorts, "+:");
}

const struct cat_mode *cat_mode_of(int argc, char **argv)
{
	const struct cat_mode *mode = &cat_mode_trace;
	struct getopt_tables g;
	int c;

	init_tables(&g);
	for (size_t m = 0; cat_modes[m]; m++)
		add_mode(&g, cat_modes[m]);
	opterr = 0;
	optind = 0;	/* glibc: start afresh */
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		const char *name = c >= VAL_BASE ? g.ents[c - VAL_BASE]->name :
			c == 'i' ? "input" : NULL;

		if (!name)
			continue;
		if (!strcmp(name, "input"))
			return &cat_mode_replay;	/* wins: a file is read */
		if (!strcmp(name, "snapshot"))
			mode = &cat_mode_snapshot;
	}
	return mode;
}

/* The modes that take --@name (or -@letter), "a trace or a replay". */
static void modes_taking(const char *name, int letter, char *buf, size_t len)
{
	size_t used = 0, n = 0;

	buf[0] = '\0';
	for (size_t m = 0; cat_modes[m]; m++) {
		if (!find(cat_modes[m], name, letter))
			continue;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
					 "%s%s", n++ ? " or " : "",
					 cat_modes[m]->name);
		if (used >= len)
			break;
	}
}

/* An option getopt refused in @mode: not @mode's, nobody's, or no argument. */
static void __attribute__((noreturn))
refuse(const struct cat_mode *mode, const char *arg, int c)
{
	char name[64], others[256];
	int letter = optopt;
	size_t n;

	if (letter) {
		if (c == ':')
			cat_usage_error("-%c needs an argument", letter);
		modes_taking(NULL, letter, others, sizeof(others));
		if (!*others)
			cat_usage_error("unknown option -%c", letter);
		cat_usage_error("-%c does not apply to %s: only to %s", letter,
				mode->name, others);
	}
	if (!arg || strncmp(arg, "--", 2))
		cat_usage_error("unknown option %s", arg ? arg : "");
	n = strcspn(arg + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)n, arg + 2);
	if (c == ':')
		cat_usage_error("--%s needs an argument", name);
	modes_taking(name, 0, others, sizeof(others));
	if (!*others)
		cat_usage_error("unknown or ambiguous option --%s", name);
	cat_usage_error("--%s does not apply to %s: only to %s", name,
			mode->name, others);
}

void cat_parse_options(int argc, char **argv, struct options *o)
{
	const struct cat_mode *mode = cat_mode_of(argc, argv);
	struct getopt_tables g;
	int c;

	memset(o, 0, sizeof(*o));
	o->session.pid = -1;
	o->window_ns = RT_DEFAULT_REORDER_WINDOW_NS;
	o->symbols = true;
	o->session.paths = true;	/* names for dev:ino, when the module can */
	o->session.cgroups = true;	/* and for cgroups */
	o->session.cgroup_names = true;	/* --no-cgroup-names */
	o->session.min_offcpu_ns = RT_DEFAULT_MIN_OFFCPU_NS;

	init_tables(&g);
	add_mode(&g, mode);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		const struct cat_opt *e;

		if (c == '?' || c == ':')
			refuse(mode, argv[optind - 1], c);
		e = c >= VAL_BASE ? g.ents[c - VAL_BASE] : find(mode, NULL, c);
		e->set(o, optarg);
	}
	if (optind < argc)
		o->command = &argv[optind];
	mode->check(o);
}
