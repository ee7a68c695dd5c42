/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ringtrace-cat's command line: what the user asked for, parsed and
 * checked by the mode argv asks for (its option tables: opt.h).
 * main.c hands it to the mode (trace.c, replay.c), which only wires it
 * to libringtrace.
 */
#ifndef RINGTRACE_CAT_OPTIONS_H
#define RINGTRACE_CAT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "ringtrace/filter.h"
#include "ringtrace/latency_view.h"
#include "ringtrace/report.h"
#include "ringtrace/perf_session.h"
#include "ringtrace/session.h"

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
	bool			min_offcpu_given;	/* --min-offcpu */
	bool			json;
	bool			raw;
	bool			quiet;
	bool			verbose;
	const char		*output;
	const char		*input;
	uint64_t		duration_ns;
	uint64_t		window_ns;
	bool			window_given;	/* --reorder-window */
	bool			reader_plain;	/* --reader plain */
	char			**command;	/* after "--", NULL-terminated */
	struct rt_perf_session_opts perf;	/* --counters, --sample */
	bool			callchain;	/* -g */
	bool			folded;		/* --folded */
	uint64_t		sample_buffer;	/* --sample-buffer; 0: default */
	bool			load;		/* --load */

	/* views (views.c) */
	bool			hist;		/* --hist */
	enum rt_hist_by		hist_by;	/* --hist-by */
	bool			summary;	/* --summary */
	bool			report;		/* --report, --report-by */
	enum rt_report_by	report_by;
	const char		*flamegraph;	/* --flamegraph FILE */
	enum flame_weight {
		FLAME_SAMPLES,
		FLAME_LATENCY,
		FLAME_BYTES,
		FLAME_OFFCPU,	/* ns off CPU, offcpu records */
		FLAME_FUNC,	/* ns in the functions, func records */
	}			flame_weight;	/* --flame-weight */
	bool			flame_weight_given;
	bool			file_classes;	/* --diff: pipes by kind */
	const char		*perfetto;	/* --perfetto FILE */
	/* --graph vfs_read: each read's callees (opt_graph.c) */
	bool			graph;
	const char		*graph_funcs;	/* --graph-funcs LIST */
	uint32_t		graph_depth;	/* --graph-depth; 0: all */
	bool			graph_no_offcpu; /* --no-offcpu */
	const char		*ctf;		/* --ctf DIR */
	bool			symbols;	/* name user frames (--no-symbols) */
	bool			header;		/* --header: -i FILE's header */
	const char		*kallsyms;	/* --kallsyms FILE (replay) */
	struct rt_filter	filter;		/* userspace: replay, -p LIST */
	/* what the module can decide of filter.exprs (trace.c) */
	struct rt_expr_ranges	filter_ranges;

	/* --per-thread, one ring per thread (trace.c fills the list) */
	bool			per_thread;
	int32_t			per_thread_pid;	/* -p PID: its threads; 0: -t */
	int32_t			thread_ids[RT_FILTER_MAX_IDS];
	/* flight recorder and buffer health */
	bool			snapshot;	/* --snapshot */
	uint64_t		snapshot_size;	/* --snapshot-size; 0: all */
	uint64_t		snapshot_time_ns; /* --snapshot-time; 0: all */
	/* triggered snapshots (trigger.c) */
	struct rt_expr		*trigger;	/* --trigger EXPR; NULL: none */
	const char		*trigger_text;
	uint64_t		trigger_max;	/* --trigger-max; 0: no limit */
	uint64_t		trigger_gap_ns;	/* --trigger-gap */
	bool			trigger_gap_given;
	uint64_t		post_ns;	/* --post */
	uint64_t		stats_ns;	/* --stats INTERVAL; 0: none */
	/* --cgroup PATH, resolved to ids the module filters by */
	const char		*cgroup_paths[RINGTRACE_MAX_CGROUPS];
	uint32_t		nr_cgroup_paths;
	uint64_t		cgroup_ids[RINGTRACE_MAX_CGROUPS];
};

/* "samples", "latency", "bytes" -> *w; -1 if unknown. */
int cat_flame_weight_parse(const char *s, enum flame_weight *w);
/* Whether ringtrace-cat has the long option --@name. */
bool cat_option_known(const char *name);

/* Whether the main output (-o FILE, else standard output) gets anything. */
bool cat_main_output_used(const struct options *o);
/*
 * What goes to standard output that other tools parse ("the recording",
 * "the JSON stream", "the flame graph"...), or NULL: a COMMAND's own
 * output must then go elsewhere (trace.c).
 */
const char *cat_stdout_data(const struct options *o);

/* Parse argv into *o; on a bad command line, print why and exit(EXIT_USAGE). */
void cat_parse_options(int argc, char **argv, struct options *o);

#endif /* RINGTRACE_CAT_OPTIONS_H */
