// SPDX-License-Identifier: GPL-2.0-only
/*
 * The flame weight of --folded, --flamegraph and --report (flame.h):
 * one rule for a trace, a replay and --diff, decided before any work.
 * Among the option tables' files so that the parser's checks and their
 * unit test have it.
 */
#include <stdio.h>

#include <linux/ringtrace.h>

#include "flame.h"

/* The kinds of @events (RINGTRACE_EVENT_*, RT_FILTER_EVENT_SAMPLE). */
static unsigned int kinds_of(uint64_t events)
{
	return (events & RT_FILTER_EVENT_SAMPLE ? CAT_FLAME_SAMPLES : 0) |
	       (events & RINGTRACE_EVENT_VFS_READ ? CAT_FLAME_READS : 0) |
	       (events & RINGTRACE_EVENT_OFFCPU ? CAT_FLAME_OFFCPU : 0) |
	       (events & RINGTRACE_EVENT_FUNC ? CAT_FLAME_FUNC : 0);
}

unsigned int cat_flame_live_kinds(const struct options *o)
{
	uint64_t module = o->session.events & ~RT_FILTER_PERF_EVENTS;

	/* Nothing named: vfs_read. Perf kinds alone: the module's are hidden. */
	if (!o->events_given)
		module = RINGTRACE_EVENT_VFS_READ;
	return kinds_of(module) | (o->perf.sample ? CAT_FLAME_SAMPLES : 0);
}

unsigned int cat_flame_file_kinds(const struct rt_raw_file *f)
{
	/* A header that does not say: whatever its records are. */
	uint64_t events = f->hdr.events ? f->hdr.events :
			  RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_OFFCPU;

	return kinds_of(events & ~RT_FILTER_PERF_EVENTS) |
	       (rt_raw_has_samples(f) ? CAT_FLAME_SAMPLES : 0);
}

unsigned int cat_flame_selected(const struct options *o)
{
	return o->filter.events ? kinds_of(o->filter.events) : CAT_FLAME_ALL;
}

static const struct {
	const char	*name;		/* --flame-weight's */
	unsigned int	kind;
	const char	*records;	/* what it weighs */
	const char	*unit;		/* what the weight counts */
	const char	*record_with;	/* how to record them */
} weights[] = {
	[FLAME_SAMPLES] = { "samples", CAT_FLAME_SAMPLES, "samples",
			    "samples", "--sample" },
	[FLAME_LATENCY] = { "latency", CAT_FLAME_READS, "vfs_read calls",
			    "ns in vfs_read", "-e vfs_read" },
	[FLAME_BYTES] = { "bytes", CAT_FLAME_READS, "vfs_read calls",
			  "bytes read", "-e vfs_read" },
	[FLAME_OFFCPU] = { "offcpu", CAT_FLAME_OFFCPU, "offcpu intervals",
			   "ns off CPU", "-e offcpu" },
	[FLAME_FUNC] = { "func", CAT_FLAME_FUNC, "func calls",
			 "ns in the functions", "-e func:NAME" },
};

/*
 * The rule: samples, then vfs_read latency, then time off CPU, then time
 * in the traced functions.
 */
static const enum flame_weight by_default[] = {
	FLAME_SAMPLES, FLAME_LATENCY, FLAME_OFFCPU, FLAME_FUNC,
};

int cat_flame_pick(const char *view, bool given, enum flame_weight *w,
		   unsigned int held, unsigned int selected, const char *file,
		   char *why, size_t len)
{
	if (given) {
		unsigned int kind = weights[*w].kind;

		if (!(held & kind) && file)
			snprintf(why, len, "--flame-weight %s: %s holds no %s "
				 "(record with --raw %s)", weights[*w].name,
				 file, weights[*w].records,
				 weights[*w].record_with);
		else if (!(held & kind))
			snprintf(why, len, "--flame-weight %s weighs %s: trace "
				 "them with %s%s", weights[*w].name,
				 weights[*w].records, weights[*w].record_with,
				 kind == CAT_FLAME_SAMPLES ? " (or replay a "
				 "recording with -i FILE)" : "");
		else if (!(selected & kind))
			snprintf(why, len, "--flame-weight %s weighs %s: -e "
				 "does not select them", weights[*w].name,
				 weights[*w].records);
		else
			return 0;
		return -1;
	}
	for (size_t i = 0; i < sizeof(by_default) / sizeof(by_default[0]);
	     i++) {
		if (held & selected & weights[by_default[i]].kind) {
			*w = by_default[i];
			return 0;
		}
	}
	snprintf(why, len, "%s weighs samples, vfs_read calls, offcpu "
		 "intervals or func calls: %s", view, !held ?
		 (file ? "the file holds none of them" :
		  "-e traces none of them") :
		 "-e selects none of those it holds");
	return -1;
}

const char *cat_flame_view(const struct options *o)
{
	return o->flamegraph ? "--flamegraph" : o->folded ? "--folded" :
	       o->report ? "--report" : NULL;
}

const char *cat_flame_unit(enum flame_weight w)
{
	return weights[w].unit;
}

const char *cat_flame_records(enum flame_weight w)
{
	return weights[w].records;
}
