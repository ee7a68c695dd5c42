/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ringtrace-cat's views: what the stream feeds besides (or instead of) the
 * per-record printer. One sink receives every decoded event, applies the
 * userspace filters, then hands it to each view asked for. Files this
 * tool creates are created here, never destroying an old recording.
 */
#ifndef RINGTRACE_CAT_VIEWS_H
#define RINGTRACE_CAT_VIEWS_H

#include <stdbool.h>
#include <sys/types.h>

#include "options.h"
#include "ringtrace/ctf.h"
#include "ringtrace/flamegraph.h"
#include "ringtrace/folded.h"
#include "ringtrace/frame_names.h"
#include "ringtrace/graph.h"
#include "ringtrace/latency_view.h"
#include "ringtrace/missing.h"
#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/perfetto.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/usyms.h"

struct rt_stream;

struct cat_views {
	const struct options	*o;
	rt_print_fn		print;		/* NULL: no per-record stream */
	enum rt_format		format;
	struct rt_outbuf	*out;		/* the main output */
	struct rt_filter	*filter;	/* NULL: none */
	struct rt_paths		*paths;		/* the stream's; names dev:ino */
	struct rt_latency_view	lat;
	bool			lat_on;
	struct rt_folded	folded;
	bool			folded_on;
	struct rt_usyms		usyms;
	bool			usyms_on;
	uint32_t		file_maps;	/* replay: MAPS chunks */
	const struct rt_raw_file *file;		/* replay: the recording */
	bool			ksyms_checked;	/* --kallsyms FILE against it */
	bool			ksyms_warned;	/* and found it did not match */
	/* the stream's frames named (frame_names.h) */
	struct rt_ksyms		stream_ksyms;
	bool			stream_ksyms_on;
	struct rt_frame_names	names;
	bool			names_on;
	struct rt_perfetto	perfetto;
	struct rt_outbuf	perfetto_out;
	bool			perfetto_on;
	struct rt_ctf		ctf;
	bool			ctf_on;
	struct rt_graph		graph;		/* --graph vfs_read */
	bool			graph_on;
	uint64_t		filtered;	/* events the filters dropped */
	/*
	 * What the views are missing: over the run, and since the last
	 * --interval block (each block says its own).
	 */
	struct rt_missing	missing;
	struct rt_missing	missing_block;
	char			kinds[64];	/* -e's, for an empty --hist */
	/* --interval: blocks printed so far, and when the last one ended */
	uint32_t		intervals;
	uint64_t		interval_end_ns;
	/* a replay's --interval: on the records' clock, from the first one */
	uint64_t		replay_interval_ns;
	uint64_t		next_interval_ns;
};

/*
 * Whether the stream must go through cat_views_sink(): a view, a filter,
 * or text/JSON whose frames are named (on unless --no-symbols).
 */
bool cat_views_wanted(const struct options *o);

/*
 * Create @path for writing ("-": standard output, returned as is). An
 * existing non-empty regular file is kept as PATH.old first, as perf keeps
 * perf.data.old; @input (may be NULL) is refused as an output. Returns the
 * fd, or -1 with the reason printed.
 */
int cat_create_file(const char *path, const char *input);

int cat_views_init(struct cat_views *v, const struct options *o,
		   enum rt_format format, struct rt_outbuf *out,
		   struct rt_paths *paths);
void cat_views_sink(void *arg, const struct rt_event *ev);
/*
 * Replay of @f: user frames are named from its process mappings (MAPS
 * chunk now, MMAP2 records as the stream meets them).
 */
void cat_views_use_file(struct cat_views *v, struct rt_raw_file *f);
/*
 * Live: read thread @tid's process mappings now, for its frames named
 * later (--snapshot prints when asked, maybe after the process exited).
 * Nothing when frames are not named.
 */
void cat_views_see_thread(struct cat_views *v, pid_t tid);
/* --interval with --hist/--summary: print them now, then start anew. */
void cat_views_interval(void *arg, uint64_t now_ns);

/*
 * Kernel symbols for the flame graph: --kallsyms FILE, or /proc/kallsyms
 * live; false (said on standard error unless quiet) when there are none,
 * with *@failed set when a --kallsyms FILE was unusable (an error).
 */
bool cat_views_load_ksyms(struct rt_ksyms *k, const struct options *o,
			  bool *failed);

/*
 * The stream @st ended: what no view got, from its counts (@counts: every
 * source's, as the summary adds them) and @st's lost_pending (losses no
 * LOST record reported), func_missed (calls the probes of -e func:NAME
 * missed) and offcpu_missed (off-CPU intervals the module could not
 * follow); and, when its session held its calls until their reads
 * returned (func_held), how many of faster reads the module left out,
 * for --graph's summary. @f the raw file replayed, or NULL live. Before
 * cat_views_finish().
 */
void cat_views_stream_ended(struct cat_views *v,
			    const struct rt_source_counts *counts,
			    const struct rt_stream *st,
			    const struct rt_raw_file *f);

/* "missing: 19497 records lost (97.5%), ..." of @m, or "" when nothing is. */
void cat_views_missing_line(const struct rt_missing *m, char *buf, size_t len);

/* Write the end-of-run views; 0, or -1 if one could not be written. */
int cat_views_finish(struct cat_views *v);
void cat_views_fini(struct cat_views *v);

#endif /* RINGTRACE_CAT_VIEWS_H */
