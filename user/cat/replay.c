// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat -i FILE: a raw file replayed (the stream or the views,
 * as a live trace prints them), rewritten (--raw -o OUT: rewrite.c) or
 * described (--header).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/ringtrace.h>

#include "cat.h"
#include "errors.h"
#include "flame.h"
#include "rewrite.h"
#include "views.h"
#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/stream.h"
#include "ringtrace/summary.h"

/* --header: what the raw file says about where it was recorded. */
static void print_header(const struct rt_raw_file *f, struct rt_outbuf *ob)
{
	const struct rt_raw_header *h = &f->hdr;
	time_t secs = (time_t)(h->start_real_ns / 1000000000ull);
	char when[64] = "unknown", events[64];
	struct tm tm;
	/* The architecture: shorter headers lack it (all were x86-64). */
	const char *machine = h->header_size >= offsetof(struct rt_raw_header,
							 machine) +
					       sizeof(h->machine) &&
			      h->machine[0] ? h->machine : "(not recorded)";

	if (h->start_real_ns && gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	rt_outbuf_printf(ob, "format version: %u\nheader size:    %u\n"
			 "host:           %s\nkernel:         %s\n"
			 "machine:        %s\n"
			 "module version: %s\nABI version:    %u\n"
			 "started:        %s (CLOCK_MONOTONIC %llu ns)\n"
			 "events:         %s\npage size:      %u\n"
			 "CPUs:           %u (rings with data: %u)\n",
			 h->format_version, h->header_size,
			 h->host[0] ? h->host : "(not recorded)",
			 h->kernel[0] ? h->kernel : "(not recorded)", machine,
			 h->module_version, h->abi_version, when,
			 (unsigned long long)h->start_mono_ns,
			 *rt_event_names(h->events, " ", events, sizeof(events)) ?
			 events : "(none)",
			 h->page_size, h->nr_cpu_ids,
			 f->nr_srcs - f->nr_perf_srcs - f->nr_counter_srcs);
	/* The command line, with its options: shorter headers lack it. */
	rt_outbuf_printf(ob, "command line:   %s\n",
			 h->header_size >= offsetof(struct rt_raw_header,
						    cmdline) +
					   sizeof(h->cmdline) && h->cmdline[0] ?
			 h->cmdline : "(not recorded)");
	if (f->has_perf_format)
		rt_outbuf_printf(ob, "perf samples:   %s (sample_type %#llx, "
				 "rings with data: %u)\n", f->perf_desc.event,
				 (unsigned long long)f->perf_desc.sample_type,
				 f->nr_perf_srcs);
	{
		char release[64];
		uint32_t nr;

		if (rt_raw_ksyms_info(f, &nr, release, sizeof(release)))
			rt_outbuf_printf(ob, "kernel symbols: %u stored (of %s)\n",
					 nr, release[0] ? release :
					 "an unknown kernel");
		else
			rt_outbuf_printf(ob, "kernel symbols: none stored\n");
	}
	/* The functions and tracepoints it traced, when the file names them. */
	if (f->nr_func_names) {
		rt_outbuf_printf(ob, "functions:     ");
		for (uint32_t i = 0; i < f->nr_func_names; i++)
			rt_outbuf_printf(ob, " %s", f->func_names[i]);
		rt_outbuf_printf(ob, "\n");
	}
	if (f->has_counter_names) {
		rt_outbuf_printf(ob, "counters:      ");
		for (uint32_t i = 0; i < f->counter_names.nr; i++)
			rt_outbuf_printf(ob, " %s", f->counter_name_ptrs[i]);
		rt_outbuf_printf(ob, "%s\n", f->nr_counter_srcs ? "" :
				 " (no snapshots)");
	}
}

/*
 * -i FILE: the raw file rewritten (--raw), described (--header), or
 * decoded through the stream or the views like a live trace's records,
 * then its summary. Damage found in the file makes the exit EXIT_DATA.
 */
int cat_replay(struct options *o)
{
	struct rt_paths paths;
	struct cat_views views;
	bool use_views = cat_views_wanted(o);
	struct rt_stream st = {
		.format = o->json ? RT_FORMAT_JSON : RT_FORMAT_TEXT,
		.stop = &cat_stop_requested,
	};
	struct rt_summary sum = { .prog = PROG, .verbose = o->verbose };
	struct rt_raw_file f;
	struct rt_outbuf ob;
	char why[512];
	int ret, code;

	ret = rt_raw_open(&f, o->input);
	if (ret) {
		cat_error("%s", f.errmsg);
		rt_raw_close(&f);
		return ret == -EINVAL ? EXIT_DATA : EXIT_FAIL;
	}
	/* The flame weight by the rule, from what the file holds. */
	if (cat_flame_view(o) &&
	    cat_flame_pick(cat_flame_view(o), o->flame_weight_given,
			   &o->flame_weight, cat_flame_file_kinds(&f),
			   cat_flame_selected(o), o->input, why, sizeof(why))) {
		cat_error("%s", why);
		rt_raw_close(&f);
		return EXIT_USAGE;
	}
	if (cat_open_output(o, &ob)) {
		rt_raw_close(&f);
		return EXIT_FAIL;
	}
	st.out = &ob;
	if (o->raw) {
		struct rt_source_counts written;

		code = cat_stream_exit_code(&st, cat_rewrite(o, &st, &f, &written),
					&ob);
		if (rt_raw_report_damage(&f, stderr, PROG) && code == EXIT_OK)
			code = EXIT_DATA;
		if (!o->quiet && code == EXIT_OK)
			cat_rewrite_report(stderr, &f, &written,
					   o->output && strcmp(o->output, "-") ?
					   o->output : "standard output");
		cat_close_output(o, &ob);
		rt_raw_close(&f);
		return code;
	}
	if (o->header) {
		print_header(&f, &ob);
		code = rt_outbuf_flush(&ob) ? EXIT_FAIL : EXIT_OK;
		cat_close_output(o, &ob);
		rt_raw_close(&f);
		return code;
	}
	/* Path records fill it; vfs_read lines are named from it. */
	if (rt_paths_init(&paths) ||
	    (use_views && cat_views_init(&views, o, st.format, &ob, &paths))) {
		if (use_views)
			cat_views_fini(&views);
		rt_paths_fini(&paths);
		cat_close_output(o, &ob);
		rt_raw_close(&f);
		return EXIT_FAIL;
	}
	st.paths = &paths;
	/*
	 * Its func records are named from the list the session traced
	 * (FUNC_NAMES chunk), by func_idx, exactly as the live run named
	 * them, --no-symbols or not: a tracepoint's func_ip is data that no
	 * kernel symbol names. A recording without the list is named from its
	 * symbols (views.c func_names_init()), as before. Only here, one
	 * recording: --diff reads two, each with its own list, and one list
	 * set for the process would name the other file's records by the
	 * wrong indexes; it names them by their symbols.
	 */
	rt_output_set_func_names((const char (*)[RINGTRACE_FUNC_NAME_LEN])
				 f.func_names, f.nr_func_names);
	/* Their arguments, by name where the recording says (FUNC_ARGS). */
	rt_output_set_func_args(f.func_args, f.nr_func_args);
	if (use_views) {
		st.sink = cat_views_sink;
		st.sink_arg = &views;
		cat_views_use_file(&views, &f);
	}
	code = cat_stream_exit_code(&st, rt_stream_file(&st, &f), &ob);
	/* f.srcs: ringtrace's rings, then perf's, then the counters */
	sum.srcs = f.srcs;
	sum.nr_srcs = f.nr_srcs - f.nr_perf_srcs - f.nr_counter_srcs;
	sum.perf_srcs = f.srcs + sum.nr_srcs;
	sum.nr_perf_srcs = f.nr_perf_srcs;
	sum.counter_srcs = sum.perf_srcs + f.nr_perf_srcs;
	sum.nr_counter_srcs = f.nr_counter_srcs;
	sum.lost_pending = st.lost_pending;
	sum.func_missed = st.func_missed;
	sum.offcpu_missed = st.offcpu_missed;
	sum.elapsed_ns = RT_SUMMARY_NO_TIME;
	if (use_views) {
		struct rt_source_counts t = rt_summary_totals(&sum);

		/* What the views lack, -q or not: said in each view. */
		cat_views_stream_ended(&views, &t, &st, &f);
		if (code == EXIT_OK && cat_views_finish(&views))
			code = EXIT_FAIL;
		cat_views_fini(&views);
	}
	rt_paths_fini(&paths);
	/* After what was read: damage and truncation make a replay fail. */
	if (rt_raw_report_damage(&f, stderr, PROG) && code == EXIT_OK)
		code = EXIT_DATA;
	if (!o->quiet)
		rt_summary_print(stderr, &sum);
	cat_close_output(o, &ob);
	rt_output_set_func_names(NULL, 0);
	rt_output_set_func_args(NULL, 0);
	rt_raw_close(&f);
	return code;
}
