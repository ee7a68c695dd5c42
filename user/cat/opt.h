/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ringtrace-cat's option tables, private to options.c and the
 * opt_*.c files (and the unit test).
 *
 * Each mode of the tool (a trace, a replay of -i FILE, a flight-recorder
 * snapshot) is the list of option tables it accepts plus its own check of
 * the combination. A table is defined once, in the file of its concern:
 *
 *   options.c       cat_common_opts: output, verbosity, selections
 *                   (every mode); the parser and the mode of argv
 *   opt_live.c      cat_live_opts: tracing the kernel (trace, snapshot)
 *   opt_views.c     cat_view_opts: views instead of the stream (trace,
 *                   replay)
 *   opt_trace.c     cat_trace_opts: perf_event_open, wakeups (trace)
 *   opt_replay.c    cat_replay_opts: -i FILE and its filters (replay)
 *   opt_snapshot.c  cat_snapshot_opts: --snapshot and its bounds
 *   opt_outputs.c   where the outputs go (every mode's check)
 *   opt_unused.c    options that would do nothing (every mode's)
 *   opt_graph.c     cat_graph_opts: --graph vfs_read (trace, replay)
 *
 * An option a mode's tables lack is refused by the parser, naming the
 * mode ("--hist does not apply to a snapshot (--snapshot)"): a new option
 * is one table entry, its setter, and a line of --help and the man page
 * (test_cat_options.c checks both). --diff (diff.c) has its own.
 */
#ifndef RINGTRACE_CAT_OPT_H
#define RINGTRACE_CAT_OPT_H

#include <getopt.h>

#include "options.h"

struct cat_opt {
	const char	*name;		/* long name, without "--" */
	int		letter;		/* short option, or 0 */
	int		has_arg;	/* no_argument, required_argument */
	void		(*set)(struct options *o, const char *arg);
};

#define CAT_OPT_END	{ NULL, 0, 0, NULL }

/* Setters that only store the argument or raise a flag. */
#define CAT_SET_FLAG(fn, field)						\
	static void fn(struct options *o, const char *arg)		\
	{								\
		(void)arg;						\
		o->field = true;					\
	}
#define CAT_SET_STR(fn, field)						\
	static void fn(struct options *o, const char *arg)		\
	{								\
		o->field = arg;						\
	}

extern const struct cat_opt cat_common_opts[];
extern const struct cat_opt cat_live_opts[];
extern const struct cat_opt cat_view_opts[];
extern const struct cat_opt cat_trace_opts[];
extern const struct cat_opt cat_replay_opts[];
extern const struct cat_opt cat_snapshot_opts[];
extern const struct cat_opt cat_graph_opts[];

#define CAT_MAX_TABLES	5

struct cat_mode {
	const char		*name;	/* "a replay (-i FILE)", for messages */
	const struct cat_opt	*tables[CAT_MAX_TABLES + 1];	/* NULL-ended */
	void			(*check)(struct options *o);	/* after parsing */
};

extern const struct cat_mode cat_mode_trace;
extern const struct cat_mode cat_mode_replay;
extern const struct cat_mode cat_mode_snapshot;
/* Every mode, NULL-terminated. */
extern const struct cat_mode *const cat_modes[];

/* --help's text. */
extern const char cat_usage_text[];

/* The mode argv asks for: -i FILE a replay, --snapshot a snapshot. */
const struct cat_mode *cat_mode_of(int argc, char **argv);
/* Whether @mode's tables have the long option --@name. */
bool cat_mode_has(const struct cat_mode *mode, const char *name);

/* Shared by the tables' setters and checks (options.c). */
void __attribute__((format(printf, 1, 2), noreturn))
cat_usage_error(const char *fmt, ...);
uint64_t cat_duration_arg(const char *opt, const char *arg,
			  int (*parse)(const char *, uint64_t *, char *, size_t));
uint64_t cat_ns_in_range(const char *opt, const char *arg, uint64_t ns,
			 uint64_t min, uint64_t max);
uint64_t cat_size_arg(const char *opt, const char *arg, uint64_t max);
uint64_t cat_ms_arg(const char *opt, const char *arg);
void cat_check_buffer_size(const char *opt, const char *arg, uint64_t bytes);

/* Checks more than one mode makes. */
void cat_check_views(struct options *o);	/* opt_views.c */
void cat_check_live(struct options *o);		/* opt_live.c */
/*
 * opt_graph.c: --graph's combinations; live, its events and the
 * functions it names resolved (before the other checks).
 */
void cat_check_graph(struct options *o);
/*
 * opt_outputs.c: no two outputs in one place (a file, standard
 * output), none on the input, -o only where something is written.
 */
void cat_check_outputs(const struct options *o);
/*
 * Data on standard output (a recording, JSON, folded stacks...): not a
 * terminal for --raw, not the file standard error goes to.
 */
void cat_check_stdout(const struct options *o);
/* opt_unused.c: an option that would do nothing is refused. */
void cat_check_unused(const struct options *o);

#define NS_PER_MS		1000000ull
#define NS_PER_S		1000000000ull
/*
 * Upper bounds, so that nothing downstream adds a value near 2^64 ns to a
 * clock reading and wraps (a huge -d stopped at once, a huge window woke
 * the reader every millisecond). --flush-interval's is the module's
 * (RT_MAX_FLUSH_MS in kmod/chardev.c refuses more).
 */
#define MAX_DURATION_NS		(365 * 86400 * NS_PER_S)	/* -d, --interval */
#define MAX_WINDOW_NS		(60 * NS_PER_S)	/* records wait in the rings */
/* --trigger-gap's default: at most one triggered dump every 10s. */
#define CAT_TRIGGER_GAP_NS	(10 * NS_PER_S)
#define MIN_FLUSH_NS		NS_PER_MS
#define MAX_FLUSH_NS		(60000 * NS_PER_MS)

#endif /* RINGTRACE_CAT_OPT_H */
