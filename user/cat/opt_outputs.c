// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where ringtrace-cat's outputs go (opt.h), checked before any work.
 * No output is ever mixed into another: two outputs never share a file or
 * standard output, none is written over the input, a directory is never
 * made of '-', and what other tools parse (a recording, JSON, folded
 * stacks, an SVG, a Perfetto trace) holds nothing else: not our messages
 * (standard error on the same file is refused) and not a COMMAND's own
 * output (trace.c sends it to standard error, as perf record -o - does).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opt.h"

static bool is_stdout(const char *path)
{
	return !strcmp(path, "-");
}

/* Whether the main output (-o FILE, else standard output) gets anything. */
bool cat_main_output_used(const struct options *o)
{
	bool files_only = o->flamegraph || o->perfetto || o->ctf;

	/* The views that name their own file replace the stream. */
	return o->raw || o->header || o->snapshot || o->hist || o->summary ||
	       o->folded || o->report || !files_only;
}

static bool main_on_stdout(const struct options *o)
{
	/* --snapshot --raw -o PREFIX writes PREFIX.N files */
	return cat_main_output_used(o) &&
	       (!o->output || is_stdout(o->output)) && !(o->snapshot && o->raw);
}

const char *cat_stdout_data(const struct options *o)
{
	if (o->flamegraph && is_stdout(o->flamegraph))
		return "the flame graph";
	if (o->perfetto && is_stdout(o->perfetto))
		return "the Perfetto trace";
	if (!main_on_stdout(o) || o->header)
		return NULL;
	if (o->raw)
		return "the recording";
	if (o->folded)
		return "the folded output";
	if (o->json)
		return o->hist || o->summary || o->report ? "the JSON views" :
		       "the JSON stream";
	return NULL;
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

void cat_check_stdout(const struct options *o)
{
	const char *data = cat_stdout_data(o);

	if (o->raw && main_on_stdout(o) && isatty(STDOUT_FILENO))
		cat_usage_error("--raw writes binary data: give -o FILE or "
				"redirect standard output");
	/* A replay's messages are few, but they still break the data. */
	if (data && stdout_is_stderr())
		cat_usage_error("%s goes to standard output: standard error is "
				"the same file, and messages%s would be mixed "
				"into it: give -o FILE or redirect one of them",
				data, o->command ? " and the command's output" :
				"");
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
 * Every file ringtrace-cat reads or writes is a different file. Two
 * outputs to one file left one of them (and the previous FILE.old) lost;
 * an output on the input destroyed the recording after the whole replay.
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
		{ "--ctf", o->ctf },
	};
	size_t n = sizeof(f) / sizeof(f[0]);

	for (size_t i = 0; i < n; i++) {
		if (!f[i].path || is_stdout(f[i].path))
			continue;
		for (size_t j = i + 1; j < n; j++) {
			if (!f[j].path || is_stdout(f[j].path) ||
			    !same_file(f[i].path, f[j].path))
				continue;
			if (i == 0)
				cat_usage_error("%s %s is the input: refusing "
						"to overwrite it", f[j].opt,
						f[j].path);
			cat_usage_error("%s and %s name the same file, %s: each "
					"output needs its own", f[i].opt,
					f[j].opt, f[j].path);
		}
	}
}

/* The outputs on standard output: at most one. */
static void check_stdout_once(const struct options *o)
{
	const char *on[3];
	size_t n = 0;

	if (main_on_stdout(o))
		on[n++] = o->output ? "-o -" : o->raw ? "--raw" :
			  o->folded ? "--folded" : o->hist || o->summary ||
			  o->report ? "the text views" : "the stream";
	if (o->flamegraph && is_stdout(o->flamegraph))
		on[n++] = "--flamegraph -";
	if (o->perfetto && is_stdout(o->perfetto))
		on[n++] = "--perfetto -";
	if (n > 1)
		cat_usage_error("%s and %s both write to standard output: give "
				"%s a file", on[0], on[1], on[1]);
}

void cat_check_outputs(const struct options *o)
{
	if (o->ctf && is_stdout(o->ctf))
		cat_usage_error("--ctf writes a directory of files: give it a "
				"name ('-', standard output, cannot be one)");
	if (o->output && !is_stdout(o->output) && !cat_main_output_used(o))
		cat_usage_error("-o %s: nothing would be written there: "
				"--flamegraph, --perfetto and --ctf name their "
				"own files", o->output);
	/* Folded stacks are read by other tools: one kind of line. */
	if (o->folded && (o->hist || o->summary || o->report))
		cat_usage_error("--folded writes stacks for other tools "
				"(flamegraph.pl): not with %s on the same output",
				o->hist ? "--hist" : o->summary ? "--summary" :
				"--report");
	check_stdout_once(o);
	check_distinct_files(o);
}
