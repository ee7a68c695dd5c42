// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-lockstat: the tracked spinlocks' statistics, like
 * /proc/lock_stat. Option parsing and wiring only; the work is in
 * lib/lockstat.c.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ringtrace/command.h"
#include "ringtrace/lockstat.h"
#include "ringtrace/parse.h"
#include "ringtrace/session.h"

static const char usage[] =
"Usage: ringtrace-lockstat [OPTIONS] [-- COMMAND [ARGS...]]\n"
"Print the statistics of every tracked spinlock, busiest first.\n"
"\n"
"  -s, --sort KEY       contended (default), wait, wait-max, hold, hold-max,\n"
"                       acquisitions, name\n"
"  -n, --top N          only the first N locks\n"
"  -d, --duration SECS  what happened during SECS seconds\n"
"  -- COMMAND           what happened while COMMAND ran (exit with its status)\n"
"  -j, --json           one JSON object per lock\n"
"  -r, --reset          zero the statistics after reading them\n"
"  -h, --help           this text\n"
"  -V, --version        the version\n"
"\n"
"With -d or a COMMAND, counts and totals are the difference between two\n"
"snapshots; the maxima are since the last reset.\n";

struct options {
	enum rt_lockstat_key key;
	unsigned int top;
	uint64_t duration_ns;
	bool json;
	bool reset;
	char **command;
};

static void __attribute__((noreturn)) usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "ringtrace-lockstat: %s%s%s\n"
		"Try 'ringtrace-lockstat --help' for more information.\n",
		msg, arg ? ": " : "", arg ? arg : "");
	exit(2);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "sort",	required_argument, NULL, 's' },
		{ "top",	required_argument, NULL, 'n' },
		{ "duration",	required_argument, NULL, 'd' },
		{ "json",	no_argument,	   NULL, 'j' },
		{ "reset",	no_argument,	   NULL, 'r' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ "version",	no_argument,	   NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char err[128], *end;
	unsigned long n;
	int c;

	while ((c = getopt_long(argc, argv, "+s:n:d:jrhV", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (rt_lockstat_parse_key(optarg, &o->key))
				usage_error("unknown sort key", optarg);
			break;
		case 'n':
			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (errno || *end || !n || n > 1000000)
				usage_error("--top needs a positive number", optarg);
			o->top = (unsigned int)n;
			break;
		case 'd':
			if (rt_parse_seconds(optarg, &o->duration_ns, err, sizeof(err)))
				usage_error(err, NULL);
			break;
		case 'j':
			o->json = true;
			break;
		case 'r':
			o->reset = true;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		case 'V':
			printf("ringtrace-lockstat %s\n", RINGTRACE_VERSION);
			exit(0);
		default:
			usage_error("bad option", NULL);
		}
	}
	if (optind < argc)
		o->command = &argv[optind];
	if (o->command && o->duration_ns)
		usage_error("-d and a COMMAND cannot be combined", NULL);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Run the command to completion; its shell-style exit code, or -1 when it
 * could not be started. @ran: whether it ran (exec succeeded).
 */
static int run_command(char **argv, bool *ran)
{
	static const int reset_signals[] = { SIGINT, SIGTERM, SIGPIPE };
	struct rt_command cmd;
	sigset_t mask;
	char err[256];

	sigemptyset(&mask);
	if (rt_command_spawn(&cmd, argv, &mask, reset_signals,
			     sizeof(reset_signals) / sizeof(reset_signals[0]),
			     err, sizeof(err))) {
		fprintf(stderr, "ringtrace-lockstat: cannot start %s: %s\n",
			argv[0], err);
		return -1;
	}
	/* As ringtrace-cat: name the command; its 127 is the exit status. */
	*ran = !rt_command_release(&cmd, err, sizeof(err));
	if (!*ran)
		fprintf(stderr, "ringtrace-lockstat: cannot run %s: %s\n",
			argv[0], err);
	rt_command_reap(&cmd, false);
	return rt_command_exit_code(&cmd);
}

int main(int argc, char **argv)
{
	struct options o = { .key = RT_LOCKSTAT_BY_CONTENDED };
	struct rt_lockstat before = { 0 }, now;
	struct rt_session s;
	char err[512];
	int ret = 0;
	bool delta;

	parse_options(argc, argv, &o);
	delta = o.command || o.duration_ns;

	if (rt_session_open(&s, NULL)) {
		fprintf(stderr, "ringtrace-lockstat: %s\n", s.errmsg);
		return 1;
	}
	if (delta && rt_lockstat_fetch(s.fd, &before, false, err, sizeof(err)))
		goto fail;
	if (o.command) {
		bool ran = false;

		ret = run_command(o.command, &ran);
		if (!ran) {
			rt_lockstat_free(&before);
			rt_session_close(&s);
			return ret < 0 ? 1 : ret;
		}
	} else if (o.duration_ns) {
		sleep_ns(o.duration_ns);
	}
	if (rt_lockstat_fetch(s.fd, &now, o.reset, err, sizeof(err)))
		goto fail;

	if (delta)
		rt_lockstat_delta(&now, &before);
	rt_lockstat_sort(&now, o.key);
	if (o.json)
		rt_lockstat_print_json(stdout, &now, o.top);
	else
		rt_lockstat_print_table(stdout, &now, o.top);
	rt_lockstat_free(&now);
	rt_lockstat_free(&before);
	rt_session_close(&s);
	return ret;

fail:
	fprintf(stderr, "ringtrace-lockstat: %s\n", err);
	rt_lockstat_free(&before);
	rt_session_close(&s);
	return 1;
}
