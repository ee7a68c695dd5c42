// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat's command line, as a new user types it: -d,
 * --reorder-window, --flush-interval and --interval near 2^64 ns are
 * refused with the bound they cross (they used to wrap: a huge -d stopped
 * at once, a huge window woke the reader every millisecond, a huge flush
 * interval was "less than 1ms"), and values within range are taken as
 * given; a --buffer-size that is not a power-of-two number of pages is
 * refused with the two nearest valid sizes. cat_parse_options() exits on a usage error, so each case runs it
 * in a child and reads its exit status and standard error.
 */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

#include "cat/opt.h"

struct outcome {
	int		status;		/* exit status; 0 also when it returned */
	char		err[1024];	/* what it wrote on standard error */
	struct options	o;		/* what it parsed, when it returned */
};

/* The arguments after the program name, up to a NULL (at most 8). */
static void parsev(struct outcome *r, const char *const *args)
{
	char *argv[10] = { (char *)"ringtrace-cat" };
	int argc = 1;
	int errp[2], outp[2], st;
	ssize_t n, got = 0;
	pid_t pid;

	while (args[argc - 1] && argc < 9) {
		argv[argc] = (char *)args[argc - 1];
		argc++;
	}
	memset(r, 0, sizeof(*r));
	assert_int_equal(pipe(errp), 0);
	assert_int_equal(pipe(outp), 0);	/* the parsed options */
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct options o;
		int devnull = open("/dev/null", O_WRONLY);

		dup2(errp[1], STDERR_FILENO);
		dup2(devnull, STDOUT_FILENO);
		cat_parse_options(argc, argv, &o);
		if (write(outp[1], &o, sizeof(o)) != sizeof(o))
			_exit(99);
		_exit(0);
	}
	close(errp[1]);
	close(outp[1]);
	while ((n = read(errp[0], r->err + got,
			 sizeof(r->err) - 1 - (size_t)got)) > 0)
		got += n;
	r->err[got] = '\0';
	if (read(outp[0], &r->o, sizeof(r->o)) != sizeof(r->o))
		memset(&r->o, 0, sizeof(r->o));
	close(errp[0]);
	close(outp[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	r->status = WEXITSTATUS(st);
}

/* Up to three arguments after the program name (NULL-terminated). */
static void parse3(struct outcome *r, const char *a1, const char *a2,
		   const char *a3)
{
	const char *args[] = { a1, a2, a3, NULL };

	parsev(r, args);
}

static void parse(struct outcome *r, const char *a1, const char *a2)
{
	parse3(r, a1, a2, NULL);
}

static void refused(const char *opt, const char *val, const char *says)
{
	struct outcome r;

	parse(&r, opt, val);
	if (r.status != EXIT_USAGE || !strstr(r.err, says))
		fail_msg("%s %s: exit %d, stderr '%s' (wanted 2 and '%s')",
			 opt, val, r.status, r.err, says);
}

static void test_huge_duration_refused(void **state)
{
	(void)state;
	refused("-d", "18446744073709551615ns", "must be at most 31536000s");
	refused("-d", "18446744073.709551615", "must be at most 31536000s");
	refused("-d", "31536000.000000001", "must be at most 31536000s");
	refused("-d", "18446744073709551616ns", "too large");
	refused("-d", "0", "more than 0");
	/* Days are a unit; the message says the real bound. */
	refused("-d", "400d", "-d 400d: must be at most 31536000s (365 days)");
	refused("-d", "3y", "'y' is not a unit");
}

static void test_huge_window_refused(void **state)
{
	(void)state;
	/* Bare milliseconds: 18446744073709 ms is just under 2^64 ns. */
	refused("--reorder-window", "18446744073709", "must be at most 60s");
	refused("--reorder-window", "18446744073709551615ns",
		"must be at most 60s");
	refused("--reorder-window", "60001ms", "must be at most 60s");
	refused("--interval", "18446744073709", "must be at most 31536000s");
	refused("--interval", "5ms", "must be at least 10ms");
}

static void test_flush_interval_range(void **state)
{
	struct outcome r;

	(void)state;
	refused("--flush-interval", "5000000s", "must be at most 60s");
	refused("--flush-interval", "18446744073709551615ns",
		"must be at most 60s");
	refused("--flush-interval", "999us", "must be at least 1ms");
	parse(&r, "--flush-interval", "5000000s");
	assert_null(strstr(r.err, "at least"));
}

static void test_in_range_values_taken(void **state)
{
	struct outcome r;

	(void)state;
	parse(&r, "-d", "31536000");
	assert_int_equal(r.status, 0);
	assert_true(r.o.duration_ns == 31536000ull * 1000000000ull);
	parse(&r, "-d", "2.5");
	assert_int_equal(r.status, 0);
	assert_true(r.o.duration_ns == 2500000000ull);
	parse(&r, "--reorder-window", "60000");
	assert_int_equal(r.status, 0);
	assert_true(r.o.window_ns == 60000000000ull);
	parse(&r, "--reorder-window", "0");
	assert_int_equal(r.status, 0);
	assert_true(r.o.window_ns == 0);
	parse(&r, "--flush-interval", "60s");
	assert_int_equal(r.status, 0);
	assert_int_equal(r.o.session.flush_ms, 60000);
	parse(&r, "--flush-interval", "1ms");
	assert_int_equal(r.status, 0);
	assert_int_equal(r.o.session.flush_ms, 1);
}

/*
 * --filter is parsed while the options are, an error names its
 * column, it is repeatable, and live --raw (undecoded rings) refuses it.
 */
static void test_filter_option(void **state)
{
	const char *two[] = { "--filter", "ret < 0", "--filter",
			      "count > 4K", NULL };
	struct outcome r;

	(void)state;
	refused("--filter", "ret < ", "--filter 'ret < ': expected a number "
		"at column 7");
	refused("--filter", "path ~ /etc", "expected a \"quoted string\" at "
		"column 8");
	parsev(&r, two);
	assert_int_equal(r.status, 0);
	assert_int_equal(r.o.filter.nr_exprs, 2);
	parse3(&r, "--raw", "--filter", "ret < 0");
	assert_int_equal(r.status, EXIT_USAGE);
	assert_non_null(strstr(r.err, "--filter"));
	parse3(&r, "--snapshot", "--filter", "ret < 0");
	assert_int_equal(r.status, EXIT_USAGE);
	assert_non_null(strstr(r.err, "does not apply to a snapshot"));
}

/* The docs promise the two nearest valid sizes (4 KiB pages here). */
static void test_buffer_size_nearest(void **state)
{
	struct outcome r;

	(void)state;
	if (sysconf(_SC_PAGESIZE) != 4096)
		skip();
	refused("--buffer-size", "3M", "the nearest are 2M and 4M");
	refused("--buffer-size", "5000", "the nearest are 4K and 8K");
	refused("--buffer-size", "12K", "the nearest are 8K and 16K");
	refused("--buffer-size", "100", "the smallest is 4K");
	refused("--sample-buffer", "300K", "the nearest are 256K and 512K");
	parse(&r, "--buffer-size", "1M");
	assert_int_equal(r.status, 0);
	assert_true(r.o.session.buffer_bytes == 1 << 20);
}

/*
 * --per-thread: -t LIST goes to the module (no userspace tid
 * filter left), -p PID is expanded when tracing starts, and the
 * combinations it cannot serve are refused with a reason.
 */
static void test_per_thread(void **state)
{
	struct outcome r;

	(void)state;
	parse3(&r, "--per-thread", "-t", "12,345");
	assert_int_equal(r.status, 0);
	assert_true(r.o.per_thread);
	assert_int_equal(r.o.session.nr_tids, 2);
	assert_int_equal(r.o.thread_ids[0], 12);
	assert_int_equal(r.o.thread_ids[1], 345);
	assert_int_equal(r.o.filter.nr_tids, 0);
	assert_int_equal(r.o.session.pid, -1);

	parse3(&r, "--per-thread", "-p", "77");
	assert_int_equal(r.status, 0);
	assert_int_equal(r.o.per_thread_pid, 77);
	assert_int_equal(r.o.session.pid, -1);
	assert_int_equal(r.o.session.nr_tids, 0);

	/* Without --per-thread, -t stays a filter on the per-CPU rings. */
	parse(&r, "-t", "12");
	assert_int_equal(r.status, 0);
	assert_int_equal(r.o.filter.nr_tids, 1);
	assert_int_equal(r.o.session.nr_tids, 0);

	refused("--per-thread", NULL, "needs -t LIST or one -p PID");
	parse3(&r, "--per-thread", "-a", NULL);
	assert_int_equal(r.status, EXIT_USAGE);
	assert_non_null(strstr(r.err, "not with -a"));
	/* Per-thread rings are recorded, and sampled beside. */
	{
		static const char *const a[] = { "--per-thread", "-t", "1,2",
						  "--raw", "-o", "x", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_true(r.o.raw && r.o.per_thread);
		assert_int_equal(r.o.session.nr_tids, 2);
		assert_int_equal(r.o.filter.nr_tids, 0);
	}
	{
		static const char *const a[] = { "--per-thread", "-t", "1",
						  "--sample", "cpu-clock:99",
						  "-g", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_true(r.o.perf.sample && r.o.perf.sample_spec.callchain);
	}
	{
		/* Counted per thread, as the rings hold them. */
		static const char *const a[] = { "--per-thread", "-t", "1,2",
						  "--counters", "default",
						  "--interval", "100ms",
						  NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_true(r.o.perf.counters && r.o.per_thread);
		assert_int_equal(r.o.session.nr_tids, 2);
	}
	{
		/* Each snapshot a version 3 file of thread chunks. */
		static const char *const a[] = { "--snapshot", "--per-thread",
						  "-t", "1", "--raw", "-o",
						  "x", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_true(r.o.snapshot && r.o.raw && r.o.per_thread);
	}
}

/*
 * Two outputs (or the input and an output) naming one file are
 * refused before any work: by device and inode where the file exists
 * (another name for it included), by name where it does not.
 */
static void test_one_file_twice_refused(void **state)
{
	char dir[] = "/tmp/ringtrace-opts-XXXXXX", in[64], alias[64],
	     svg[64];
	struct outcome r;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(in, sizeof(in), "%s/in.raw", dir);
	snprintf(alias, sizeof(alias), "%s/./in.raw", dir);
	snprintf(svg, sizeof(svg), "%s/k.svg", dir);
	fd = open(in, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	{
		const char *const a[] = { "-i", in, "--flamegraph", svg,
					  "--perfetto", svg, NULL };

		parsev(&r, a);
		assert_int_equal(r.status, EXIT_USAGE);
		if (!strstr(r.err, "--flamegraph and --perfetto name the same "
			    "file"))
			fail_msg("two outputs: %s", r.err);
	}
	{
		const char *const a[] = { "-i", in, "--flamegraph", alias, NULL };

		parsev(&r, a);
		assert_int_equal(r.status, EXIT_USAGE);
		if (!strstr(r.err, "is the input"))
			fail_msg("input as output: %s", r.err);
	}
	{
		const char *const a[] = { "-i", in, "--summary", "-o", alias,
					  NULL };

		parsev(&r, a);
		assert_int_equal(r.status, EXIT_USAGE);
	}
	{
		const char *const a[] = { "-i", in, "--perfetto", svg, "-o",
					  "-", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
	}
	unlink(in);
	rmdir(dir);
}

/*
 * -e names samples and counters too. On replay they are kinds
 * it selects (filter bits); live, each perf option needs its kind named,
 * the module gets only its own kinds, and a list of perf kinds alone
 * filters the module's records out.
 */
static void test_events_name_perf_kinds(void **state)
{
	struct outcome r;

	(void)state;
	parse3(&r, "-i", "x.raw", "-e");	/* -e needs its list */
	assert_int_equal(r.status, EXIT_USAGE);
	{
		const char *const a[] = { "-i", "x.raw", "-e", "lock", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_true(r.o.filter.events == RINGTRACE_EVENT_LOCK);
	}
	{
		const char *const a[] = { "-i", "x.raw", "-e", "sample,counters",
					  NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_true(r.o.filter.events == RT_FILTER_PERF_EVENTS);
	}
	{
		const char *const a[] = { "-e", "lock", "--sample", "cpu-clock",
					  "--", "true", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, EXIT_USAGE);
		if (!strstr(r.err, "does not name 'sample'"))
			fail_msg("--sample, -e lock: %s", r.err);
	}
	{
		const char *const a[] = { "-e", "sample", "--", "true", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, EXIT_USAGE);
	}
	{
		const char *const a[] = { "-e", "lock,sample", "--sample",
					  "cpu-clock", "--", "true", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_true(r.o.session.events == RINGTRACE_EVENT_LOCK);
		assert_true(r.o.filter.events == 0);
	}
	{
		const char *const a[] = { "-e", "sample", "--sample",
					  "cpu-clock", "--", "true", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_true(r.o.session.events == 0);
		assert_true(r.o.filter.events == RT_FILTER_EVENT_SAMPLE);
	}
}

/* -i F --raw -o G writes a filtered copy; --header does not mix. */
static void test_replay_to_raw(void **state)
{
	struct outcome r;

	(void)state;
	{
		const char *const a[] = { "-i", "x.raw", "--raw", "-o", "y.raw",
					  "--comm", "tar", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_true(r.o.raw);
		assert_string_equal(r.o.filter.comm, "tar");
	}
	{
		const char *const a[] = { "-i", "x.raw", "--raw", "-o", "y.raw",
					  "--header", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, EXIT_USAGE);
	}
}

/*
 * Names are asked for by default; --no-paths and
 * --no-cgroup-names turn each off alone (the cgroup ids stay), in a
 * trace and a snapshot, and a replay, which asks the module nothing,
 * refuses them.
 */
static void test_no_names(void **state)
{
	struct outcome r;

	(void)state;
	parse(&r, "-a", NULL);
	assert_int_equal(r.status, 0);
	assert_true(r.o.session.paths);
	assert_true(r.o.session.cgroups);
	assert_true(r.o.session.cgroup_names);

	parse3(&r, "-a", "--raw", "--no-paths");
	assert_int_equal(r.status, 0);
	assert_false(r.o.session.paths);
	assert_true(r.o.session.cgroups);
	assert_true(r.o.session.cgroup_names);

	parse(&r, "--no-cgroup-names", "-a");
	assert_int_equal(r.status, 0);
	assert_true(r.o.session.paths);
	assert_true(r.o.session.cgroups);
	assert_false(r.o.session.cgroup_names);

	parse3(&r, "--snapshot", "--no-paths", "--no-cgroup-names");
	assert_int_equal(r.status, 0);
	assert_false(r.o.session.paths);
	assert_false(r.o.session.cgroup_names);

	parse3(&r, "-i", "x.raw", "--no-paths");
	assert_int_equal(r.status, EXIT_USAGE);
	assert_non_null(strstr(r.err, "--no-paths does not apply to a replay"));
	parse3(&r, "-i", "x.raw", "--no-cgroup-names");
	assert_int_equal(r.status, EXIT_USAGE);
	assert_non_null(strstr(r.err,
			       "--no-cgroup-names does not apply to a replay"));
}

/*
 * Each mode accepts its own tables only, and an option of
 * another mode is refused naming the mode it was given in.
 */
static void test_mode_refuses_others_options(void **state)
{
	static const struct {
		const char	*args[6];
		const char	*says;
	} cases[] = {
		{ { "-i", "x.raw", "--snapshot", NULL },
		  "--snapshot does not apply to a replay (-i FILE)" },
		{ { "-i", "x.raw", "-a", NULL },
		  "-a does not apply to a replay (-i FILE)" },
		{ { "-i", "x.raw", "--sample", "cpu-clock", NULL },
		  "--sample does not apply to a replay (-i FILE)" },
		{ { "-i", "x.raw", "--reorder-window=5", NULL },
		  "--reorder-window does not apply to a replay (-i FILE)" },
		{ { "--snapshot", "--hist", NULL },
		  "--hist does not apply to a snapshot (--snapshot)" },
		{ { "--snapshot", "--comm", "sh", NULL },
		  "--comm does not apply to a snapshot (--snapshot)" },
		{ { "-g", "--snapshot", NULL },
		  "-g does not apply to a snapshot (--snapshot)" },
		{ { "--header", NULL },
		  "--header does not apply to a trace: only to a replay" },
		{ { "--snapshot-size", "1M", NULL },
		  "--snapshot-size does not apply to a trace: only to a "
		  "snapshot" },
		{ { "--no-such-option", NULL }, "unknown or ambiguous option" },
		{ { "-i", "x.raw", "-e", NULL }, "-e needs an argument" },
		{ { "-i", "x.raw", "--", "true", NULL },
		  "a COMMAND does not apply to a replay (-i FILE)" },
	};
	struct outcome r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parsev(&r, cases[i].args);
		if (r.status != EXIT_USAGE || !strstr(r.err, cases[i].says))
			fail_msg("case %zu: exit %d, '%s' (wanted '%s')", i,
				 r.status, r.err, cases[i].says);
	}
	/* The mode follows -i and --snapshot wherever they are. */
	{
		const char *const a[] = { "--hist", "-i", "x.raw", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_string_equal(r.o.input, "x.raw");
	}
	{
		const char *const a[] = { "-q", "--snapshot", "-d", "1", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
		assert_true(r.o.snapshot && r.o.session.overwrite);
	}
}

/* Whether the man page names --@name (hyphens as \-). */
static bool man_has(const char *man, const char *name)
{
	char want[128];
	size_t n = 0;

	n += (size_t)snprintf(want, sizeof(want), "\\-\\-");
	for (const char *p = name; *p && n + 3 < sizeof(want); p++) {
		if (*p == '-')
			want[n++] = '\\';
		want[n++] = *p;
	}
	want[n] = '\0';
	return strstr(man, want) != NULL;
}

/* Each option of @table that @mode lacks is no prefix of one it has. */
static void check_no_abbreviation(const struct cat_mode *mode,
				  const struct cat_opt *table)
{
	for (const struct cat_opt *e = table; e->name; e++) {
		if (cat_mode_has(mode, e->name))
			continue;
		for (size_t u = 0; mode->tables[u]; u++)
			for (const struct cat_opt *h = mode->tables[u]; h->name;
			     h++)
				if (!strncmp(h->name, e->name, strlen(e->name)))
					fail_msg("%s: --%s abbreviates --%s",
						 mode->name, e->name, h->name);
	}
}

/*
 * Every option of every mode's tables is in --help (which the completion
 * test, scripts/tests/completion, holds the completion to) and in the
 * man page; and no mode lacks an option that is a prefix of one it has,
 * which getopt would take as its abbreviation instead of refusing it.
 */
static void test_tables_documented(void **state)
{
	static char man[256 * 1024];
	char help[96];
	FILE *f = fopen(CAT_MAN_PAGE, "r");
	size_t n;

	(void)state;
	assert_non_null(f);
	n = fread(man, 1, sizeof(man) - 1, f);
	fclose(f);
	assert_true(n > 0 && n < sizeof(man) - 1);
	man[n] = '\0';
	for (size_t m = 0; cat_modes[m]; m++) {
		const struct cat_mode *mode = cat_modes[m];

		for (size_t t = 0; mode->tables[t]; t++) {
			for (const struct cat_opt *e = mode->tables[t]; e->name;
			     e++) {
				snprintf(help, sizeof(help), "--%s", e->name);
				if (!strstr(cat_usage_text, help))
					fail_msg("--help lacks %s", help);
				if (!man_has(man, e->name))
					fail_msg("the man page lacks %s", help);
			}
		}
		for (size_t o = 0; cat_modes[o]; o++)
			for (size_t t = 0; cat_modes[o]->tables[t]; t++)
				check_no_abbreviation(mode,
						      cat_modes[o]->tables[t]);
	}
}

/*
 * An option that would do nothing is refused, naming it, rather than
 * ignored: --header --json printed text, --flame-weight alone weighed
 * nothing, --no-symbols --kallsyms kept frames hex, --min-latency with
 * -e lock and --min-offcpu without offcpu selected nothing,
 * --reorder-window with --raw (which does not merge) held nothing, and
 * --min-latency with --raw kept every func call.
 */
static void test_nothing_ignored(void **state)
{
	static const struct {
		const char	*args[10];
		const char	*says;
	} cases[] = {
		{ { "-i", "x.raw", "--header", "--json" },
		  "--header prints the file's header as text and stops: --json "
		  "does not apply" },
		{ { "-i", "x.raw", "--header", "--comm", "tar" },
		  "--header prints the file's header as text and stops: a "
		  "filter" },
		{ { "-i", "x.raw", "--header", "--hist" },
		  "stops: --hist does not apply" },
		{ { "-i", "x.raw", "--flame-weight", "latency" },
		  "--flame-weight weighs --flamegraph, --folded and --report" },
		{ { "-i", "x.raw", "--hist", "--flame-weight", "bytes" },
		  "--flame-weight weighs --flamegraph, --folded and --report" },
		{ { "--flame-weight", "latency", "--hist", "-a" },
		  "--flame-weight weighs --flamegraph, --folded and --report" },
		{ { "-i", "x.raw", "--no-symbols", "--kallsyms", "/dev/null" },
		  "--kallsyms names kernel frames and --no-symbols keeps every "
		  "frame hex" },
		{ { "-i", "x.raw", "-e", "lock", "--min-latency", "1ms" },
		  "--min-latency selects vfs_read and func calls: -e names "
		  "neither" },
		{ { "--raw", "-o", "x.raw", "-e", "func:vfs_write",
		    "--min-latency", "1ms", "-a" },
		  "--raw records every func call: --min-latency selects them "
		  "on replay" },
		{ { "-i", "x.raw", "-e", "vfs_read", "--min-offcpu", "1ms" },
		  "--min-offcpu selects offcpu intervals: -e does not name "
		  "offcpu" },
		{ { "-a", "--min-offcpu", "1ms" },
		  "--min-offcpu selects offcpu intervals: trace them with -e "
		  "offcpu" },
		{ { "--raw", "-o", "x.raw", "--reorder-window", "5", "-a" },
		  "--reorder-window: --raw writes each ring as it is" },
	};
	struct outcome r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parsev(&r, cases[i].args);
		if (r.status != EXIT_USAGE || !strstr(r.err, cases[i].says))
			fail_msg("case %zu (%s %s): exit %d, '%s' (wanted '%s')",
				 i, cases[i].args[0], cases[i].args[2], r.status,
				 r.err, cases[i].says);
	}
	/* What they do with what they need is taken. */
	{
		const char *const a[] = { "-i", "x.raw", "--min-offcpu", "1ms",
					  NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
	}
	{
		const char *const a[] = { "-e", "offcpu", "--min-offcpu", "1ms",
					  "-a", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
	}
	{
		const char *const a[] = { "-i", "x.raw", "--folded",
					  "--flame-weight", "latency", NULL };

		parsev(&r, a);
		assert_int_equal(r.status, 0);
	}
}

/*
 * Live, the flame weight follows what the trace records, by the rule a
 * replay uses (cat/opt_weight.c): -e offcpu weighs time off CPU (it drew
 * 0 ns of vfs_read latency), --folded needs no --sample when it weighs
 * reads, a weight the trace cannot give is refused.
 */
static void test_live_flame_weight(void **state)
{
	static const struct {
		const char		*args[8];
		int			status;
		enum flame_weight	weight;	/* when taken */
		const char		*says;	/* when refused */
	} cases[] = {
		{ { "-e", "offcpu", "--stack", "--flamegraph", "x.svg", "-a" },
		  0, FLAME_OFFCPU, NULL },
		{ { "--stack", "--folded", "--flame-weight", "latency", "-a" },
		  0, FLAME_LATENCY, NULL },
		{ { "--stack", "--folded", "-a" }, 0, FLAME_LATENCY, NULL },
		{ { "--sample", "cpu-clock", "-e", "vfs_read,sample", "--report",
		    "-a" }, 0, FLAME_SAMPLES, NULL },
		{ { "--flamegraph", "x.svg", "--flame-weight", "offcpu", "-a" },
		  EXIT_USAGE, 0, "--flame-weight offcpu weighs offcpu "
		  "intervals: trace them with -e offcpu" },
		{ { "-e", "lock", "--folded", "-a" }, EXIT_USAGE, 0,
		  "--folded weighs samples, vfs_read calls, offcpu "
		  "intervals or func calls: -e traces none of them" },
		{ { "-e", "func:vfs_write", "--stack", "--folded", "-a" }, 0,
		  FLAME_FUNC, NULL },
		{ { "-e", "func:vfs_write", "--flamegraph", "x.svg",
		    "--flame-weight", "latency", "-a" }, EXIT_USAGE, 0,
		  "--flame-weight latency weighs vfs_read calls: trace them "
		  "with -e vfs_read" },
	};
	struct outcome r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parsev(&r, cases[i].args);
		if (r.status != cases[i].status ||
		    (!r.status && r.o.flame_weight != cases[i].weight) ||
		    (r.status && !strstr(r.err, cases[i].says)))
			fail_msg("case %zu: exit %d, weight %d, '%s'", i,
				 r.status, (int)r.o.flame_weight, r.err);
	}
}

/*
 * --graph vfs_read traces the tasks' off-CPU intervals too: every one
 * (--min-offcpu's default does not apply, a given one does), with their
 * kernel stacks; --no-offcpu leaves them out, and shapes --graph only.
 */
static void test_graph_offcpu(void **state)
{
	static const char *const on[] = { "--graph", "vfs_read",
					   "--graph-funcs", "filemap_read", "-a",
					   NULL };
	static const char *const min[] = { "--graph", "vfs_read",
					    "--graph-funcs", "filemap_read",
					    "--min-offcpu", "2ms", "-a", NULL };
	static const char *const off[] = { "--graph", "vfs_read",
					    "--graph-funcs", "filemap_read",
					    "--no-offcpu", "-a", NULL };
	static const char *const both[] = { "-i", "x.raw", "--graph", "vfs_read",
					     "--no-offcpu", "--min-offcpu", "1ms",
					     NULL };
	struct outcome r;

	(void)state;
	parse(&r, "--no-offcpu", "-a");
	assert_int_equal(r.status, EXIT_USAGE);
	assert_non_null(strstr(r.err, "--no-offcpu shapes --graph vfs_read"));
	parsev(&r, both);
	assert_int_equal(r.status, EXIT_USAGE);
	assert_non_null(strstr(r.err, "--no-offcpu leaves out"));
	/* The rest needs a kernel list naming filemap_read. */
	parsev(&r, on);
	if (r.status && strstr(r.err, "matches no function"))
		return;
	assert_int_equal(r.status, 0);
	assert_true(r.o.session.events & RINGTRACE_EVENT_OFFCPU);
	assert_int_equal(r.o.session.min_offcpu_ns, 0);
	parsev(&r, min);
	assert_int_equal(r.status, 0);
	assert_true(r.o.session.events & RINGTRACE_EVENT_OFFCPU);
	assert_true(r.o.session.stack_events & RINGTRACE_EVENT_OFFCPU);
	assert_int_equal(r.o.session.stack_kernel_depth,
			 RINGTRACE_STACK_MAX_DEPTH);
	assert_int_equal(r.o.session.min_offcpu_ns, 2000000);
	parsev(&r, off);
	assert_int_equal(r.status, 0);
	assert_false(r.o.session.events & RINGTRACE_EVENT_OFFCPU);
	assert_false(r.o.session.stack_events);
	assert_true(r.o.graph_no_offcpu);
}

/*
 * --graph vfs_read --min-latency asks the session to hold the callees
 * until their read returns (RINGTRACE_CFG_FUNC_HOLD where the module
 * offers it: the session decides), with the latency in the config: not
 * without --min-latency, nor for -e func:NAME without --graph.
 */
static void test_graph_min_latency_holds(void **state)
{
	static const char *const plain[] = { "--graph", "vfs_read",
					      "--graph-funcs", "filemap_read",
					      "-a", NULL };
	static const char *const slow[] = { "--graph", "vfs_read",
					     "--graph-funcs", "filemap_read",
					     "--min-latency", "1ms", "-a", NULL };
	static const char *const raw[] = { "--graph", "vfs_read",
					    "--graph-funcs", "filemap_read",
					    "--min-latency=1ms", "--raw",
					    "-o/dev/null", "-a", NULL };
	static const char *const funcs[] = { "-e", "vfs_read,func:filemap_read",
					      "--min-latency", "1ms", "-a",
					      NULL };
	struct outcome r;

	(void)state;
	parsev(&r, funcs);
	assert_int_equal(r.status, 0);
	assert_false(r.o.session.func_hold);
	/* The rest needs a kernel list naming filemap_read. */
	parsev(&r, plain);
	if (r.status && strstr(r.err, "matches no function"))
		return;
	assert_int_equal(r.status, 0);
	assert_true(r.o.session.func_in_read);
	assert_false(r.o.session.func_hold);
	parsev(&r, slow);
	assert_int_equal(r.status, 0);
	assert_true(r.o.session.func_in_read);
	assert_true(r.o.session.func_hold);
	assert_int_equal(r.o.session.min_latency_ns, 1000000);
	/* a recording keeps only the slower reads' callees too */
	parsev(&r, raw);
	assert_int_equal(r.status, 0);
	assert_true(r.o.session.func_hold);
}

int main(void)
{
	RUN(cmocka_unit_test(test_huge_duration_refused),
	    cmocka_unit_test(test_huge_window_refused),
	    cmocka_unit_test(test_flush_interval_range),
	    cmocka_unit_test(test_in_range_values_taken),
	    cmocka_unit_test(test_buffer_size_nearest),
	    cmocka_unit_test(test_per_thread),
	    cmocka_unit_test(test_graph_offcpu),
	    cmocka_unit_test(test_graph_min_latency_holds),
	    cmocka_unit_test(test_one_file_twice_refused),
	    cmocka_unit_test(test_events_name_perf_kinds),
	    cmocka_unit_test(test_replay_to_raw),
	    cmocka_unit_test(test_mode_refuses_others_options),
	    cmocka_unit_test(test_tables_documented),
	    cmocka_unit_test(test_filter_option),
	    cmocka_unit_test(test_no_names),
	    cmocka_unit_test(test_nothing_ignored),
	    cmocka_unit_test(test_live_flame_weight));
}
