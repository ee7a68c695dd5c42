// SPDX-License-Identifier: GPL-2.0-only
/* ringtrace-cat --diff BEFORE AFTER (see diff.h). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diff.h"
#include "flame.h"
#include "options.h"
#include "views.h"
#include "ringtrace/escape.h"
#include "ringtrace/flame_diff.h"
#include "ringtrace/graph_diff.h"
#include "ringtrace/hist.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/stream.h"
#include "ringtrace/summary.h"
#include "ringtrace/sys.h"

static const char diff_usage[] =
"Usage: " PROG " --diff BEFORE AFTER [VIEWS] [OPTIONS]\n"
"\n"
"Compare two recordings (raw files of " PROG " --raw) or two folded-stack\n"
"files (" PROG " --folded, stackcollapse-*.pl): what changed from BEFORE\n"
"to AFTER. Which of the two kinds is read from the files' contents.\n"
"\n"
"Views (at least one):\n"
"      --flamegraph FILE     differential flame graph: AFTER's shape, red\n"
"                            where a frame grew, blue where it shrank\n"
"      --folded              stack, BEFORE's and AFTER's weight per line\n"
"                            (difffolded.pl's output, for flamegraph.pl)\n"
"      --hist                both vfs_read latency distributions side by side,\n"
"                            with the change of p50, p90, p99 and max (raw)\n"
"      --summary             per command x file: calls, bytes and time before,\n"
"                            after and their change (raw)\n"
"\n"
"  --graph vfs_read          where the reads' time went, in two recordings of\n"
"                            " PROG " --graph vfs_read --raw: --flamegraph\n"
"                            and --folded weigh each read's wall time by\n"
"                            callee chain, as --graph --folded does; --summary\n"
"                            is per function: calls, self and total time\n"
"                            before, after and their change\n"
"      --graph-depth N       callees deeper than N count in their caller\n"
"      --json                --graph --summary's table as one JSON object\n"
"\n"
"Options:\n"
"      --flame-weight W      samples, latency, bytes, offcpu or func (raw;\n"
"                            default: the first of samples, latency, offcpu\n"
"                            and func that both files hold)\n"
"      --no-normalize        compare raw weights; by default BEFORE is scaled\n"
"                            to AFTER's total, so colours show the shape\n"
"      --kallsyms FILE       kernel symbols of the recording machine (raw);\n"
"                            twice: BEFORE's, then AFTER's\n"
"      --no-symbols          keep user frames as addresses (raw)\n"
"      --comm NAME           this command name only (raw)\n"
"  -o, --output FILE         text views to FILE (an existing one is kept as\n"
"                            FILE.old)\n"
"  -q, --quiet               no notes on standard error\n"
"  -v, --verbose             every --summary row\n"
"  -h, --help                this help\n";

static const char diff_takes[] =
	"--diff takes --flamegraph FILE, --folded, --hist, --summary, "
	"--graph vfs_read, --graph-depth N, --json, "
	"--flame-weight W, --no-normalize, --kallsyms FILE, --no-symbols, "
	"--comm NAME, -o FILE, -q, -v";

enum {
	DOPT_DIFF = 256,
	DOPT_FLAMEGRAPH,
	DOPT_FOLDED,
	DOPT_HIST,
	DOPT_SUMMARY,
	DOPT_FLAME_WEIGHT,
	DOPT_NO_NORMALIZE,
	DOPT_KALLSYMS,
	DOPT_NO_SYMBOLS,
	DOPT_COMM,
	DOPT_GRAPH,
	DOPT_GRAPH_DEPTH,
	DOPT_JSON,
};

static const struct option diff_options[] = {
	{ "diff",		no_argument,		NULL, DOPT_DIFF },
	{ "flamegraph",		required_argument,	NULL, DOPT_FLAMEGRAPH },
	{ "folded",		no_argument,		NULL, DOPT_FOLDED },
	{ "hist",		no_argument,		NULL, DOPT_HIST },
	{ "summary",		no_argument,		NULL, DOPT_SUMMARY },
	{ "flame-weight",	required_argument,	NULL, DOPT_FLAME_WEIGHT },
	{ "no-normalize",	no_argument,		NULL, DOPT_NO_NORMALIZE },
	{ "kallsyms",		required_argument,	NULL, DOPT_KALLSYMS },
	{ "no-symbols",		no_argument,		NULL, DOPT_NO_SYMBOLS },
	{ "comm",		required_argument,	NULL, DOPT_COMM },
	{ "graph",		required_argument,	NULL, DOPT_GRAPH },
	{ "graph-depth",	required_argument,	NULL, DOPT_GRAPH_DEPTH },
	{ "json",		no_argument,		NULL, DOPT_JSON },
	{ "output",		required_argument,	NULL, 'o' },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "verbose",		no_argument,		NULL, 'v' },
	{ "help",		no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct diff_opts {
	const char		*path[2];	/* BEFORE, AFTER */
	const char		*flamegraph;
	bool			folded;
	bool			hist;
	bool			summary;
	bool			normalise;
	enum flame_weight	weight;
	bool			weight_given;
	const char		*kallsyms[2];
	unsigned int		nr_kallsyms;
	bool			symbols;
	const char		*comm;
	bool			graph;		/* --graph vfs_read */
	uint32_t		graph_depth;	/* 0: every level */
	bool			json;		/* --graph --summary's table */
	const char		*output;
	bool			quiet;
	bool			verbose;
};

static void __attribute__((format(printf, 1, 2), noreturn))
diff_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" PROG " --diff --help' for more information.\n");
	exit(EXIT_USAGE);
}

bool cat_diff_requested(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--diff"))
			return true;
	return false;
}

/* An option getopt refused: ringtrace-cat's but not --diff's, or nobody's. */
static void __attribute__((noreturn)) refuse(const char *arg, int c)
{
	char name[64];
	size_t n;

	if (!arg || strncmp(arg, "--", 2)) {
		if (c == ':')
			diff_usage_error("-%c needs an argument", optopt);
		diff_usage_error("-%c does not apply to --diff (%s)", optopt,
				 diff_takes);
	}
	n = strcspn(arg + 2, "=");
	snprintf(name, sizeof(name), "%.*s", (int)n, arg + 2);
	if (c == ':')
		diff_usage_error("--%s needs an argument", name);
	if (cat_option_known(name))
		diff_usage_error("--%s does not apply to --diff (%s)", name,
				 diff_takes);
	diff_usage_error("unknown option --%s (%s)", name, diff_takes);
}

/*
 * --graph vfs_read: the views that compare two function graphs, and
 * what shapes them; what does not apply is refused, never ignored.
 */
static void check_graph(const struct diff_opts *d)
{
	if (!d->graph) {
		if (d->graph_depth)
			diff_usage_error("--graph-depth shapes --graph vfs_read: "
					 "give it");
		if (d->json)
			diff_usage_error("--json: only --graph vfs_read's "
					 "--summary has a JSON form");
		return;
	}
	if (d->hist)
		diff_usage_error("--hist compares vfs_read latency "
				 "distributions, not function graphs: not with "
				 "--graph (its --summary compares the "
				 "functions)");
	if (d->weight_given && d->weight != FLAME_LATENCY)
		diff_usage_error("--graph weighs each read's wall time (ns in "
				 "vfs_read): --flame-weight latency, or none");
	if (d->json && !d->summary)
		diff_usage_error("--json: only --graph's --summary has a JSON "
				 "form (--folded and --flamegraph are formats "
				 "of their own)");
}

static void parse(int argc, char **argv, struct diff_opts *d)
{
	int c;

	memset(d, 0, sizeof(*d));
	d->normalise = true;
	d->symbols = true;
	opterr = 0;
	/* Options may follow the files: ringtrace-cat --diff A B --hist. */
	while ((c = getopt_long(argc, argv, ":o:qvh", diff_options, NULL)) != -1) {
		switch (c) {
		case DOPT_DIFF:
			break;
		case DOPT_FLAMEGRAPH:
			d->flamegraph = optarg;
			break;
		case DOPT_FOLDED:
			d->folded = true;
			break;
		case DOPT_HIST:
			d->hist = true;
			break;
		case DOPT_SUMMARY:
			d->summary = true;
			break;
		case DOPT_FLAME_WEIGHT:
			if (cat_flame_weight_parse(optarg, &d->weight))
				diff_usage_error("--flame-weight: '%s' is not a "
						 "weight (as for --flamegraph)",
						 optarg);
			d->weight_given = true;
			break;
		case DOPT_NO_NORMALIZE:
			d->normalise = false;
			break;
		case DOPT_KALLSYMS:
			if (d->nr_kallsyms == 2)
				diff_usage_error("--kallsyms: at most twice "
						 "(BEFORE's, then AFTER's)");
			d->kallsyms[d->nr_kallsyms++] = optarg;
			break;
		case DOPT_NO_SYMBOLS:
			d->symbols = false;
			break;
		case DOPT_COMM:
			d->comm = optarg;
			break;
		case DOPT_GRAPH:
			if (strcmp(optarg, "vfs_read"))
				diff_usage_error("--graph: only vfs_read's "
						 "callees are graphed, not '%s'",
						 optarg);
			d->graph = true;
			break;
		case DOPT_GRAPH_DEPTH: {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (!*optarg || *end || !n || n > 64)
				diff_usage_error("--graph-depth takes 1 to 64, "
						 "not '%s'", optarg);
			d->graph_depth = (uint32_t)n;
			break;
		}
		case DOPT_JSON:
			d->json = true;
			break;
		case 'o':
			d->output = optarg;
			break;
		case 'q':
			d->quiet = true;
			break;
		case 'v':
			d->verbose = true;
			break;
		case 'h':
			fputs(diff_usage, stdout);
			exit(EXIT_OK);
		default:
			refuse(argv[optind - 1], c);
		}
	}
	if (argc - optind != 2)
		diff_usage_error("--diff compares two files: BEFORE AFTER (%d "
				 "given)", argc - optind);
	d->path[0] = argv[optind];
	d->path[1] = argv[optind + 1];
	for (int i = 0; i < 2; i++)
		if (!strcmp(d->path[i], "-"))
			diff_usage_error("--diff reads two files: '-' (standard "
					 "input) is not one");
	if (!d->flamegraph && !d->folded && !d->hist && !d->summary)
		diff_usage_error("--diff needs a view: --flamegraph FILE, "
				 "--folded, --hist or --summary");
	check_graph(d);
	if (d->folded && (d->hist || d->summary))
		diff_usage_error("--folded writes stacks for other tools: not "
				 "with --hist or --summary on the same output");
	if (d->flamegraph && !strcmp(d->flamegraph, "-") &&
	    (d->folded || d->hist || d->summary) &&
	    (!d->output || !strcmp(d->output, "-")))
		diff_usage_error("--flamegraph - writes the SVG to standard "
				 "output: give the text views -o FILE");
	if (d->flamegraph && d->output && !strcmp(d->flamegraph, d->output))
		diff_usage_error("--flamegraph and -o name the same file");
	/* An option that would do nothing is refused, never ignored. */
	if (d->output && strcmp(d->output, "-") && !d->folded && !d->hist &&
	    !d->summary)
		diff_usage_error("-o %s: nothing would be written there: "
				 "--flamegraph names its own file", d->output);
	if (!d->flamegraph && !d->folded) {
		const char *what = !d->normalise ? "--no-normalize" :
				   d->weight_given ? "--flame-weight" :
				   d->graph ? NULL :
				   d->nr_kallsyms ? "--kallsyms" :
				   !d->symbols ? "--no-symbols" : NULL;

		if (what && d->graph)
			diff_usage_error("%s applies to the stacks of "
					 "--flamegraph and --folded: --graph's "
					 "--summary shows the times as "
					 "recorded", what);
		if (what)
			diff_usage_error("%s applies to the stacks of "
					 "--flamegraph and --folded: --hist and "
					 "--summary show raw vfs_read counts",
					 what);
	}
}

/* ---- the two inputs ---- */

/* One side: a recording decoded through -i's views, or folded text. */
struct diff_side {
	const char		*path;
	bool			raw;
	char			*text;		/* folded: the whole file */
	size_t			len;
	struct options		o;		/* raw: as for -i PATH */
	struct rt_raw_file	f;
	bool			f_open;
	struct rt_paths		paths;
	bool			paths_on;
	struct cat_views	v;
	bool			v_on;
};

/* Raw (the magic) or text, read whole. 0, or -1 with the reason said. */
static int read_kind(struct diff_side *s)
{
	char magic[sizeof(RT_RAW_MAGIC)];
	size_t cap = 65536;
	ssize_t n;
	int fd = rt_sys.open(s->path, O_RDONLY, 0);

	if (fd < 0) {
		fprintf(stderr, PROG ": cannot open %s: %s\n", s->path,
			strerror(errno));
		return -1;
	}
	n = rt_sys.read(fd, magic, sizeof(magic));
	if (n == (ssize_t)sizeof(magic) &&
	    !memcmp(magic, RT_RAW_MAGIC, sizeof(magic))) {
		s->raw = true;
		rt_sys.close(fd);
		return 0;
	}
	s->text = malloc(cap);
	if (s->text && n > 0) {
		memcpy(s->text, magic, (size_t)n);
		s->len = (size_t)n;
	}
	while (s->text && (n = rt_sys.read(fd, s->text + s->len,
					   cap - s->len)) > 0) {
		s->len += (size_t)n;
		if (s->len == cap) {
			char *more = realloc(s->text, cap * 2);

			if (!more) {
				free(s->text);
				s->text = NULL;
				break;
			}
			s->text = more;
			cap *= 2;
		}
	}
	rt_sys.close(fd);
	if (!s->text) {
		fprintf(stderr, PROG ": out of memory reading %s\n", s->path);
		return -1;
	}
	if (!s->len) {
		fprintf(stderr, PROG ": %s is empty: neither a recording nor "
			"folded stacks\n", s->path);
		return -1;
	}
	return 0;
}

/*
 * --graph: both files hold vfs_read and func records (a recording of
 * --graph vfs_read --raw); weighed by the reads' wall time. 0, or -1 with
 * the file named.
 */
static int graph_files(struct diff_side *s, struct diff_opts *d)
{
	for (int i = 0; i < 2; i++) {
		unsigned int held = cat_flame_file_kinds(&s[i].f);

		if (!(held & CAT_FLAME_READS) || !(held & CAT_FLAME_FUNC)) {
			fprintf(stderr, PROG ": --graph: %s holds no %s records: "
				"compare recordings of " PROG " --graph vfs_read "
				"--raw\n", s[i].path, held & CAT_FLAME_READS ?
				"func (callee)" : "vfs_read");
			return -1;
		}
	}
	d->weight = FLAME_LATENCY;
	return 0;
}

/*
 * The weight both recordings are compared by, by the rule of -i FILE
 * (flame.h) over what both hold; -1 if one cannot give it.
 */
static int pick_weight(struct diff_side *s, struct diff_opts *d)
{
	const char *view = d->flamegraph ? "--flamegraph" : "--folded";
	unsigned int both = CAT_FLAME_ALL;
	char why[512];

	if (d->graph)
		return graph_files(s, d);
	if (!d->flamegraph && !d->folded)
		return 0;	/* --hist, --summary: vfs_read, unweighted */
	for (int i = 0; i < 2; i++) {
		unsigned int held = cat_flame_file_kinds(&s[i].f);

		/* A given weight one file lacks: that file is named. */
		if (d->weight_given &&
		    cat_flame_pick(view, true, &d->weight, held, CAT_FLAME_ALL,
				   s[i].path, why, sizeof(why))) {
			fprintf(stderr, PROG ": %s\n", why);
			return -1;
		}
		both &= held;
	}
	if (!d->weight_given &&
	    cat_flame_pick(view, false, &d->weight, both, CAT_FLAME_ALL,
			   "BEFORE and AFTER together", why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return -1;
	}
	return 0;
}

/*
 * --graph: what the side's graph is made of and what it lacks, as -i FILE
 * --graph --folded says it (graph.h's counts, then the recording's losses
 * and the func calls its probes missed): a diff of two graphs that lack
 * different things would show that as a change.
 */
static void graph_said(struct diff_side *s, const struct rt_stream *st,
		       const struct diff_opts *d)
{
	struct rt_summary sum = { .srcs = s->f.srcs };
	struct rt_source_counts t;
	struct rt_outbuf ob;
	char line[512];

	rt_graph_end(&s->v.graph);
	sum.nr_srcs = s->f.nr_srcs - s->f.nr_perf_srcs - s->f.nr_counter_srcs;
	t = rt_summary_totals(&sum);
	cat_views_stream_ended(&s->v, &t, st, &s->f);
	if (d->quiet || rt_outbuf_init(&ob, STDERR_FILENO, 4096))
		return;
	rt_outbuf_printf(&ob, PROG ": %s: ", s->path);
	rt_graph_print_summary(&s->v.graph, &ob);
	cat_views_missing_line(&s->v.missing, line, sizeof(line));
	if (line[0])
		rt_outbuf_printf(&ob, PROG ": %s: %s\n", s->path, line);
	rt_outbuf_flush(&ob);
	rt_outbuf_fini(&ob);
}

/* Decode @s through the views -i would use, weighed by d->weight. */
static int decode_side(struct diff_side *s, const struct diff_opts *d, int i,
		       struct rt_outbuf *out)
{
	volatile sig_atomic_t never = 0;
	struct rt_stream st = {
		.format = RT_FORMAT_TEXT,
		.stop = &never,
		.out = out,
	};
	struct options *o = &s->o;
	int status;

	memset(o, 0, sizeof(*o));
	o->input = s->path;
	o->quiet = d->quiet;
	o->verbose = d->verbose;
	o->symbols = d->symbols;
	o->kallsyms = d->kallsyms[d->nr_kallsyms > 1 ? i : 0];
	o->filter.comm = d->comm;
	o->flame_weight = d->weight;
	o->flame_weight_given = true;
	/* Two runs read other pipes: compare them by kind. */
	o->file_classes = true;
	/* Stacks for the graph (cat_flame_lines()); the table for --summary. */
	o->folded = d->folded || d->flamegraph;
	o->summary = d->summary;
	o->hist = d->hist;
	/*
	 * --graph: each read's tree into the stacks (folded, never printed)
	 * and its functions' table (graph.h), whichever views were asked.
	 */
	if (d->graph) {
		o->graph = true;
		o->graph_depth = d->graph_depth;
		o->folded = true;
		o->summary = false;
	}
	if (rt_paths_init(&s->paths)) {
		fprintf(stderr, PROG ": out of memory\n");
		return EXIT_FAIL;
	}
	s->paths_on = true;
	if (cat_views_init(&s->v, o, RT_FORMAT_TEXT, out, &s->paths))
		return EXIT_FAIL;
	s->v_on = true;
	cat_views_use_file(&s->v, &s->f);
	st.paths = &s->paths;
	st.sink = cat_views_sink;
	st.sink_arg = &s->v;
	status = rt_stream_file(&st, &s->f);
	if (status != RT_STREAM_OK) {
		fprintf(stderr, PROG ": %s: %s\n", s->path, st.errmsg[0] ?
			st.errmsg : strerror(out->error));
		return status == RT_STREAM_ERR_DATA ? EXIT_DATA : EXIT_FAIL;
	}
	if (s->f.truncated_bytes)
		fprintf(stderr, PROG ": warning: %s ends in the middle of a "
			"record; the last %llu bytes were ignored\n", s->path,
			(unsigned long long)s->f.truncated_bytes);
	if (d->graph)
		graph_said(s, &st, d);
	return EXIT_OK;
}

static void side_fini(struct diff_side *s)
{
	if (s->v_on)
		cat_views_fini(&s->v);
	if (s->paths_on)
		rt_paths_fini(&s->paths);
	if (s->f_open)
		rt_raw_close(&s->f);
	free(s->text);
}

/* Both files: the same kind, the options that kind takes, decoded. */
static int load(struct diff_side *s, struct diff_opts *d, struct rt_outbuf *out)
{
	const char *raw_only = d->graph ? "--graph" :
			       d->hist ? "--hist" : d->summary ? "--summary" :
			       d->weight_given ? "--flame-weight" :
			       d->nr_kallsyms ? "--kallsyms" :
			       !d->symbols ? "--no-symbols" :
			       d->comm ? "--comm" : NULL;
	int code;

	for (int i = 0; i < 2; i++) {
		s[i].path = d->path[i];
		if (read_kind(&s[i]))
			return EXIT_FAIL;
	}
	if (s[0].raw != s[1].raw) {
		fprintf(stderr, PROG ": --diff compares files of one kind: %s is "
			"%s, %s is %s\n", s[0].path, s[0].raw ? "a raw file" :
			"text (folded stacks)", s[1].path, s[1].raw ?
			"a raw file" : "text (folded stacks)");
		return EXIT_USAGE;
	}
	if (!s[0].raw) {
		if (raw_only) {
			fprintf(stderr, PROG ": %s reads recordings: %s and %s "
				"are folded stacks, already weighed and named\n",
				raw_only, s[0].path, s[1].path);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	for (int i = 0; i < 2; i++) {
		if (rt_raw_open(&s[i].f, s[i].path)) {
			fprintf(stderr, PROG ": %s\n", s[i].f.errmsg);
			rt_raw_close(&s[i].f);
			return EXIT_DATA;
		}
		s[i].f_open = true;
	}
	if (pick_weight(s, d))
		return EXIT_USAGE;
	for (int i = 0; i < 2; i++) {
		code = decode_side(&s[i], d, i, out);
		if (code)
			return code;
	}
	return EXIT_OK;
}

/* ---- the flame graph's stacks ---- */

struct add_ctx {
	struct rt_flame_diff	*d;
	enum rt_diff_side	side;
	int			error;
};

static void add_line(void *arg, const char *line, size_t len)
{
	struct add_ctx *c = arg;

	if (rt_flame_diff_add(c->d, c->side, line, len))
		c->error = -ENOMEM;
}

static int stacks(struct diff_side *s, const struct diff_opts *d,
		  struct rt_flame_diff *fd)
{
	for (int i = 0; i < 2; i++) {
		struct add_ctx c = { fd, (enum rt_diff_side)i, 0 };
		uint64_t bad = fd->bad_lines, good = fd->nr;

		if (s[i].raw) {
			struct rt_ksyms k;
			bool failed = false;
			bool named = s[i].v.folded.kernel_stacks &&
				     cat_views_load_ksyms(&k, &s[i].o, &failed);

			if (failed)
				return EXIT_FAIL;	/* said: a bad --kallsyms */

			cat_flame_lines(&s[i].v, named ? &k : NULL, add_line,
					&c);
			if (named)
				rt_ksyms_free(&k);
		} else if (rt_flame_diff_add_text(fd, c.side, s[i].text,
						  s[i].len)) {
			c.error = -ENOMEM;
		}
		if (c.error) {
			fprintf(stderr, PROG ": out of memory\n");
			return EXIT_FAIL;
		}
		bad = fd->bad_lines - bad;
		good = fd->nr - good;
		/* Text that is mostly not "stack count" is something else. */
		if (!s[i].raw && (bad > good || !good)) {
			fprintf(stderr, PROG ": %s is neither a ringtrace raw "
				"file nor folded stacks ('stack count' lines)\n",
				s[i].path);
			return EXIT_DATA;
		}
		if (bad && !d->quiet)
			fprintf(stderr, PROG ": %s: %llu lines are not 'stack "
				"count': skipped\n", s[i].path,
				(unsigned long long)bad);
	}
	rt_flame_diff_finish(fd, d->normalise);
	return EXIT_OK;
}

/*
 * "50 -> 100 samples (BEFORE normalised to AFTER's total)": the totals as
 * read, whichever view says them, so that --folded and --flamegraph agree.
 */
static const char *totals(char *buf, size_t len, const struct rt_flame_diff *fd,
			  const char *unit)
{
	snprintf(buf, len, "%llu -> %llu %s%s",
		 (unsigned long long)fd->total[0],
		 (unsigned long long)fd->total[1], unit,
		 fd->normalised ? " (BEFORE normalised to AFTER's total)" : "");
	return buf;
}

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

static int write_graph(const struct rt_flame_diff *fd, const struct diff_opts *d,
		       const char *unit)
{
	char title[160], sub[512];
	struct rt_outbuf ob;
	struct rt_flame fl;
	int fd_out, ret = EXIT_OK;
	struct stat st;

	if (rt_flame_init(&fl))
		return EXIT_FAIL;
	rt_flame_diff_graph(fd, &fl);
	snprintf(title, sizeof(title), "ringtrace differential %s (%s)",
		 d->graph ? "function graph of vfs_read" : "flame graph", unit);
	snprintf(sub, sizeof(sub), "%s -> %s: widths are AFTER's; red grew, "
		 "blue shrank%s", base(d->path[0]), base(d->path[1]),
		 fd->normalised ? " (BEFORE normalised to AFTER's total)" :
		 d->normalise ? "" : " (raw weights)");
	fl.subtitle = sub;
	/* cat_create_file() refuses BEFORE as output; AFTER is checked here. */
	if (strcmp(d->flamegraph, "-") && !stat(d->flamegraph, &st)) {
		struct stat in;

		if (!stat(d->path[1], &in) && in.st_dev == st.st_dev &&
		    in.st_ino == st.st_ino) {
			fprintf(stderr, PROG ": %s is the input: refusing to "
				"overwrite it\n", d->flamegraph);
			rt_flame_fini(&fl);
			return EXIT_FAIL;
		}
	}
	fd_out = cat_create_file(d->flamegraph, d->path[0]);
	if (fd_out < 0 || rt_outbuf_init(&ob, fd_out, RT_OUTBUF_DEFAULT_SIZE)) {
		rt_flame_fini(&fl);
		return EXIT_FAIL;
	}
	rt_flame_write_svg(&fl, &ob, title, unit);
	if (rt_outbuf_flush(&ob)) {
		fprintf(stderr, PROG ": writing %s: %s\n", d->flamegraph,
			strerror(ob.error));
		ret = EXIT_FAIL;
	} else if (!d->quiet) {
		char said[256];

		fprintf(stderr, PROG ": differential flame graph in %s: %u "
			"stacks, %u frames: %s\n", d->flamegraph, fd->nr,
			fl.nr - 1, totals(said, sizeof(said), fd, unit));
	}
	if (fd_out != STDOUT_FILENO)
		rt_sys.close(fd_out);
	rt_outbuf_fini(&ob);
	rt_flame_fini(&fl);
	return ret;
}

/* ---- --summary: command x file, before and after ---- */

struct sum_row {
	char		comm[RINGTRACE_COMM_LEN * RT_TEXT_ESCAPE_MAX + 1];
	char		file[RT_PATH_MAX * RT_TEXT_ESCAPE_MAX + 1];
	uint64_t	calls[2], bytes[2], ns[2];
};

static int by_key(const void *a, const void *b)
{
	const struct sum_row *x = *(const struct sum_row *const *)a;
	const struct sum_row *y = *(const struct sum_row *const *)b;
	int c = strcmp(x->comm, y->comm);

	return c ? c : strcmp(x->file, y->file);
}

static uint64_t change_of(const struct sum_row *r)
{
	return r->ns[1] > r->ns[0] ? r->ns[1] - r->ns[0] : r->ns[0] - r->ns[1];
}

/* The largest change of time first; then by command and file. */
static int by_change(const void *a, const void *b)
{
	const struct sum_row *x = *(const struct sum_row *const *)a;
	const struct sum_row *y = *(const struct sum_row *const *)b;
	uint64_t cx = change_of(x), cy = change_of(y);

	if (cx != cy)
		return cx < cy ? 1 : -1;
	return by_key(a, b);
}

/* Rows of both sides, one per command x file (pids differ between runs). */
static struct sum_row **summary_rows(struct diff_side *s, uint32_t *nr)
{
	uint32_t total = 0, n = 0;
	struct sum_row **rows;

	for (int i = 0; i < 2; i++)
		total += s[i].v.lat.rows.nr + 1;
	rows = calloc(total ? total : 1, sizeof(*rows));
	if (!rows)
		return NULL;
	for (int i = 0; i < 2; i++) {
		const struct rt_view_table *t = &s[i].v.lat.rows;

		for (uint32_t k = 0; k <= t->nr; k++) {
			uint32_t e_i = k < t->nr ? k : t->max;
			const struct rt_view_entry *e = &t->entries[e_i];
			struct sum_row *r;
			char kind[64];
			const char *p;

			if (k == t->nr && !t->overflow)
				break;
			r = calloc(1, sizeof(*r));
			if (!r)
				continue;
			if (e_i == t->max) {
				snprintf(r->comm, sizeof(r->comm), "[other]");
				snprintf(r->file, sizeof(r->file), "(table full)");
			} else {
				*rt_text_escape(r->comm, e->comm,
						sizeof(e->comm), NULL) = '\0';
				p = rt_paths_get(&s[i].paths, e->key.dev_major,
						 e->key.dev_minor, e->key.ino);
				/*
				 * Pipes by kind: each run reads its own. The
				 * name escaped: a row is one line.
				 */
				if (p)
					p = rt_path_class(p, kind, sizeof(kind));
				if (p)
					*rt_text_escape(r->file, p, RT_PATH_MAX,
							NULL) = '\0';
				else
					snprintf(r->file, sizeof(r->file),
						 "%u:%u ino %llu",
						 e->key.dev_major,
						 e->key.dev_minor,
						 (unsigned long long)e->key.ino);
			}
			r->calls[i] = e->read.n;
			r->bytes[i] = e->bytes;
			r->ns[i] = e->read.sum;
			rows[n++] = r;
		}
	}
	qsort(rows, n, sizeof(*rows), by_key);
	/* Merge equal keys: one process's rows and both sides' rows. */
	total = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct sum_row *last = total ? rows[total - 1] : NULL;

		if (last && !by_key(&last, &rows[i])) {
			for (int j = 0; j < 2; j++) {
				last->calls[j] += rows[i]->calls[j];
				last->bytes[j] += rows[i]->bytes[j];
				last->ns[j] += rows[i]->ns[j];
			}
			free(rows[i]);
			continue;
		}
		rows[total++] = rows[i];
	}
	qsort(rows, total, sizeof(*rows), by_change);
	*nr = total;
	return rows;
}

static void print_summary(struct diff_side *s, const struct diff_opts *d,
			  struct rt_outbuf *ob)
{
	char tb[32], ta[32], dt[40], pc[32];
	struct sum_row **rows;
	uint32_t n = 0;

	rows = summary_rows(s, &n);
	if (!rows) {
		fprintf(stderr, PROG ": out of memory\n");
		return;
	}
	rt_outbuf_printf(ob, "\n%-16s %9s %9s %12s %12s %10s %10s %10s %10s  %s\n",
			 "COMM", "CALLS<", "CALLS>", "BYTES<", "BYTES>",
			 "TIME<", "TIME>", "CHANGE", "CHANGE%", "FILE");
	for (uint32_t i = 0; i < n; i++) {
		const struct sum_row *r = rows[i];

		if (!d->verbose && i == 25) {
			rt_outbuf_printf(ob, "... %u more rows (-v shows them "
					 "all)\n", n - i);
			break;
		}
		rt_outbuf_printf(ob, "%-16s %9llu %9llu %12llu %12llu %10s %10s "
				 "%10s %10s  ", r->comm,
				 (unsigned long long)r->calls[0],
				 (unsigned long long)r->calls[1],
				 (unsigned long long)r->bytes[0],
				 (unsigned long long)r->bytes[1],
				 rt_fmt_duration(tb, sizeof(tb), r->ns[0]),
				 rt_fmt_duration(ta, sizeof(ta), r->ns[1]),
				 rt_fmt_duration_change(dt, sizeof(dt), r->ns[0], r->ns[1]),
				 rt_fmt_change(pc, sizeof(pc), r->ns[0], r->ns[1]));
		rt_outbuf_append(ob, r->file, strlen(r->file));
		rt_outbuf_append(ob, "\n", 1);
	}
	rt_outbuf_printf(ob, "\n(<: BEFORE, %s; >: AFTER, %s; time is the sum "
			 "of vfs_read latencies; rows by command x file, the "
			 "largest change first)\n", d->path[0], d->path[1]);
	for (uint32_t i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
}

/*
 * --graph --summary: both graphs' functions side by side, each named from
 * its own recording's symbols (or --kallsyms FILE): addresses differ
 * between boots, names match.
 */
static void print_graph_table(struct diff_side *s, const struct diff_opts *d,
			      struct rt_outbuf *ob)
{
	struct rt_graph_diff diff;
	struct rt_graph_diff *gd = &diff;

	/* Room for every row of both: each named once at most. */
	if (rt_graph_diff_init(gd, s[0].v.graph.nr_funcs +
			       s[1].v.graph.nr_funcs)) {
		fprintf(stderr, PROG ": out of memory\n");
		return;
	}
	for (int i = 0; i < 2; i++) {
		const struct cat_views *v = &s[i].v;

		for (uint32_t k = 0; k < v->graph.nr_funcs; k++) {
			const struct rt_graph_func *f = &v->graph.funcs[k];
			const struct rt_ksym *sym = v->stream_ksyms_on ?
				rt_ksyms_lookup(&v->stream_ksyms, f->ip) : NULL;

			rt_graph_diff_add(gd, (enum rt_diff_side)i,
					  sym ? sym->name : NULL, f);
		}
		if (v->graph.funcs_full && !d->quiet)
			fprintf(stderr, PROG ": %s: %llu spans of functions "
				"beyond the table's %u left out of --summary\n",
				s[i].path,
				(unsigned long long)v->graph.funcs_full,
				RT_GRAPH_FUNCS);
	}
	rt_graph_diff_finish(gd);
	if (d->json)
		rt_graph_diff_print_json(gd, ob, d->path[0], d->path[1]);
	else
		rt_graph_diff_print(gd, ob, d->path[0], d->path[1]);
	rt_graph_diff_fini(gd);
}

static void print_hist(struct diff_side *s, const struct diff_opts *d,
		       struct rt_outbuf *ob)
{
	rt_outbuf_printf(ob, "@[all] vfs_read latency, BEFORE %s, AFTER %s\n",
			 d->path[0], d->path[1]);
	rt_hist_print_diff(ob, &s[0].v.lat.total.read, &s[1].v.lat.total.read,
			   "nsecs");
	rt_outbuf_printf(ob, "\n(percentiles are the upper bound of a "
			 "histogram bucket: at most 12.5%% above the true "
			 "value; max is exact)\n");
}

/* ---- the run ---- */

static int open_out(const struct diff_opts *d, struct rt_outbuf *ob)
{
	int fd = STDOUT_FILENO;

	if (d->output) {
		struct stat a, b;

		/* cat_create_file() refuses BEFORE; AFTER is checked here. */
		if (strcmp(d->output, "-") && !stat(d->output, &a) &&
		    !stat(d->path[1], &b) && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			fprintf(stderr, PROG ": %s is the input: refusing to "
				"overwrite it\n", d->output);
			return -1;
		}
		fd = cat_create_file(d->output, d->path[0]);
		if (fd < 0)
			return -1;
	}
	if (rt_outbuf_init(ob, fd, RT_OUTBUF_DEFAULT_SIZE)) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	return 0;
}

int cat_diff_main(int argc, char **argv)
{
	struct diff_side s[2];
	struct rt_flame_diff fd;
	struct diff_opts d;
	struct rt_outbuf ob;
	const char *unit;
	int code;

	parse(argc, argv, &d);
	memset(s, 0, sizeof(s));
	rt_flame_diff_init(&fd);
	if (open_out(&d, &ob))
		return EXIT_FAIL;
	code = load(s, &d, &ob);
	unit = s[0].raw ? cat_flame_unit(d.weight) : "weight";
	if (!code && (d.folded || d.flamegraph))
		code = stacks(s, &d, &fd);
	if (!code && d.hist)
		print_hist(s, &d, &ob);
	if (!code && d.summary && d.graph)
		print_graph_table(s, &d, &ob);
	else if (!code && d.summary)
		print_summary(s, &d, &ob);
	if (!code && d.folded) {
		char said[256];

		rt_flame_diff_write(&fd, &ob);
		if (!d.quiet)
			fprintf(stderr, PROG ": %u folded stacks: %s\n", fd.nr,
				totals(said, sizeof(said), &fd, unit));
	}
	if (rt_outbuf_flush(&ob) && !code && ob.error != EPIPE) {
		fprintf(stderr, PROG ": writing output: %s\n", strerror(ob.error));
		code = EXIT_FAIL;
	}
	if (!code && d.flamegraph)
		code = write_graph(&fd, &d, unit);
	if (ob.fd >= 0 && ob.fd != STDOUT_FILENO)
		rt_sys.close(ob.fd);
	rt_outbuf_fini(&ob);
	rt_flame_diff_fini(&fd);
	for (int i = 0; i < 2; i++)
		side_fini(&s[i]);
	return code;
}
