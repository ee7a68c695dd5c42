// SPDX-License-Identifier: GPL-2.0-only
/* ringtrace-exporter's options (exporter_opt.h). */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ringtrace.h>

#include "exporter_opt.h"
#include "ringtrace/metrics.h"
#include "ringtrace/parse.h"

#define PROG "ringtrace-exporter"

static const char usage[] =
"Usage: ringtrace-exporter [OPTIONS]\n"
"       ringtrace-exporter -i FILE [OPTIONS]\n"
"\n"
"Serve ringtrace's latency histograms and counters to Prometheus: vfs_read\n"
"by cgroup, command and file class; lock wait and hold, time off CPU by\n"
"cgroup and command; calls of traced kernel functions by cgroup, command\n"
"and function; and the exporter's own health.\n"
"\n"
"  -i, --input FILE          replay a raw file (ringtrace-cat --raw) instead\n"
"                            of tracing, then serve its metrics until stopped\n"
"  -l, --listen ADDR         serve /metrics on ADDR: HOST:PORT, [V6]:PORT,\n"
"                            :PORT (every address), PORT 0 picks a free one;\n"
"                            'none': no HTTP (default " EXPORTER_DEFAULT_LISTEN ")\n"
"      --textfile PATH       also write the metrics to PATH, atomically, for\n"
"                            node_exporter's textfile collector ('-':\n"
"                            standard output)\n"
"      --textfile-interval DUR\n"
"                            how often (default 15s; on replay: once)\n"
"      --max-series N        at most N (cgroup, comm, class) keys get series\n"
"                            of their own, later ones count as \"[other]\"\n"
"                            (default 64)\n"
"  -e, --events LIST         vfs_read, lock, lock_contention, offcpu,\n"
"                            func:NAME (calls of kernel function NAME),\n"
"                            tp:SUBSYS:EVENT (hits of a kernel tracepoint;\n"
"                            64 of the two) (default vfs_read,offcpu)\n"
"      --min-offcpu DUR      offcpu intervals at least this long (default 1ms)\n"
"      --buffer-size SIZE    per-CPU ring (default 4M)\n"
"  -q, --quiet               no messages but errors\n"
"  -h, --help                this text\n"
"  -V, --version             the version\n";

static void __attribute__((format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" PROG " --help'.\n");
}

/* -e's list into @o's events and functions; -1 with why in @err. */
static int parse_events(const char *list, struct rt_session_opts *o,
			char *err, size_t errlen)
{
	const char *p = list;

	o->events = 0;
	o->nr_funcs = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		uint64_t bit;

		switch (rt_session_opts_add_func(o, p, len, err, errlen)) {
		case -1:
			return -1;
		case 1:
			bit = rt_parse_event_name(p, len);
			if (!bit) {
				snprintf(err, errlen, "unknown event '%.*s' "
					 "(vfs_read, lock, lock_contention, "
					 "offcpu, func:NAME, tp:SUBSYS:EVENT)",
					 (int)len, p);
				return -1;
			}
			o->events |= bit;
		}
		p += len + (p[len] == ',');
	}
	if (!o->events) {
		snprintf(err, errlen, "no event in '%s'", list);
		return -1;
	}
	return 0;
}

enum { OPT_TEXTFILE = 256, OPT_TEXTFILE_INTERVAL, OPT_MAX_SERIES,
       OPT_MIN_OFFCPU, OPT_BUFFER_SIZE };

int exporter_parse(int argc, char **argv, struct exporter_opts *o)
{
	static const struct option longopts[] = {
		{ "input",		required_argument, NULL, 'i' },
		{ "listen",		required_argument, NULL, 'l' },
		{ "textfile",		required_argument, NULL, OPT_TEXTFILE },
		{ "textfile-interval",	required_argument, NULL,
		  OPT_TEXTFILE_INTERVAL },
		{ "max-series",		required_argument, NULL, OPT_MAX_SERIES },
		{ "events",		required_argument, NULL, 'e' },
		{ "min-offcpu",		required_argument, NULL, OPT_MIN_OFFCPU },
		{ "buffer-size",	required_argument, NULL, OPT_BUFFER_SIZE },
		{ "quiet",		no_argument,	   NULL, 'q' },
		{ "help",		no_argument,	   NULL, 'h' },
		{ "version",		no_argument,	   NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char err[128], *end;
	unsigned long n;
	int c;

	memset(o, 0, sizeof(*o));
	o->listen = EXPORTER_DEFAULT_LISTEN;
	o->textfile_ns = EXPORTER_DEFAULT_TEXTFILE_NS;
	o->max_series = RT_METRICS_DEFAULT_SERIES;
	o->session.pid = -1;
	o->session.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_OFFCPU;
	o->session.paths = true;	/* file classes need names */
	o->session.cgroups = true;
	o->session.cgroup_names = true;
	o->session.min_offcpu_ns = RT_DEFAULT_MIN_OFFCPU_NS;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:l:e:qhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'i':
			o->input = optarg;
			break;
		case 'l':
			o->listen = strcmp(optarg, "none") ? optarg : NULL;
			break;
		case OPT_TEXTFILE:
			o->textfile = optarg;
			break;
		case OPT_TEXTFILE_INTERVAL:
			if (rt_parse_duration(optarg, &o->textfile_ns, err,
					      sizeof(err)) || !o->textfile_ns) {
				usage_error("--textfile-interval: bad duration "
					    "'%s'", optarg);
				return -1;
			}
			break;
		case OPT_MAX_SERIES:
			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (errno || *end || end == optarg || !n ||
			    n > RT_METRICS_MAX_SERIES) {
				usage_error("--max-series: not a number from 1 "
					    "to 65536: '%s'", optarg);
				return -1;
			}
			o->max_series = (uint32_t)n;
			break;
		case 'e':
			if (parse_events(optarg, &o->session, err,
					 sizeof(err))) {
				usage_error("--events: %s", err);
				return -1;
			}
			break;
		case OPT_MIN_OFFCPU:
			if (rt_parse_duration(optarg, &o->session.min_offcpu_ns,
					      err, sizeof(err))) {
				usage_error("--min-offcpu: bad duration '%s'",
					    optarg);
				return -1;
			}
			break;
		case OPT_BUFFER_SIZE:
			if (rt_parse_size(optarg, &o->session.buffer_bytes,
					  err, sizeof(err))) {
				usage_error("--buffer-size: bad size '%s'",
					    optarg);
				return -1;
			}
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 1;
		case 'V':
			puts(PROG " " RINGTRACE_VERSION);
			return 1;
		default:
			fprintf(stderr, "Try '" PROG " --help'.\n");
			return -1;
		}
	}
	if (optind < argc) {
		usage_error("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (!o->listen && !o->textfile) {
		usage_error("%s", "--listen none needs --textfile: the metrics "
			    "must go somewhere");
		return -1;
	}
	return 0;
}
