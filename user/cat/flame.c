// SPDX-License-Identifier: GPL-2.0-only
/* ringtrace-cat's weighted views from one table (see flame.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "flame.h"
#include "views.h"
#include "ringtrace/flamegraph.h"
#include "ringtrace/report.h"
#include "ringtrace/sys.h"

/* ---- the table ---- */

void cat_flame_add(struct cat_views *v, const struct rt_event *ev)
{
	switch (v->o->flame_weight) {
	case FLAME_SAMPLES:
		rt_folded_add(&v->folded, ev);
		break;
	case FLAME_OFFCPU:
		/* Where tasks blocked, weighted by how long. */
		if (ev->kind == RT_EVENT_OFFCPU)
			rt_folded_add_stack(&v->folded, ev,
					    ev->u.offcpu.offcpu_ns);
		break;
	case FLAME_FUNC:
		/* Where the functions were called from, by their latency. */
		if (ev->kind == RT_EVENT_FUNC)
			rt_folded_add_func(&v->folded, ev);
		break;
	case FLAME_LATENCY:
	case FLAME_BYTES:
		if (ev->kind != RT_EVENT_VFS_READ)
			break;
		rt_folded_add_read(&v->folded, ev,
				   v->o->flame_weight == FLAME_LATENCY ?
				   ev->u.vfs_read.lat_ns :
				   ev->u.vfs_read.ret > 0 ?
				   (uint64_t)ev->u.vfs_read.ret : 0);
		break;
	}
}

void cat_flame_lines(struct cat_views *v, const struct rt_ksyms *ksyms,
		     void (*fn)(void *arg, const char *line, size_t len),
		     void *arg)
{
	rt_folded_foreach(&v->folded, ksyms, fn, arg);
}

/* ---- the views ---- */

/*
 * Nothing to weigh: say why (no record of the kind passed, or they all
 * weigh 0) and write nothing. An empty SVG or table said "0 ns" as if it
 * were an answer.
 */
static bool empty(const struct cat_views *v)
{
	const struct options *o = v->o;
	const struct rt_folded *f = &v->folded;
	const char *records = cat_flame_records(o->flame_weight);
	char filtered[64] = "";

	if (f->weight)
		return false;
	if (v->filtered)
		snprintf(filtered, sizeof(filtered), " (%llu events filtered "
			 "out)", (unsigned long long)v->filtered);
	if (!f->samples)
		cat_error("%s: nothing to weigh: no %s %s%s; nothing written",
			  cat_flame_view(o), records, v->filtered ?
			  "passed the filters" : o->input ? "in the file" :
			  "were traced", filtered);
	else
		cat_error("%s: nothing to weigh: %llu %s, every one of weight "
			  "0 (%s)%s; nothing written", cat_flame_view(o),
			  (unsigned long long)f->samples, records,
			  cat_flame_unit(o->flame_weight), filtered);
	return true;
}

static void add_folded_line(void *arg, const char *line, size_t len)
{
	rt_flame_add_folded(arg, line, len);
}

static int write_flamegraph(struct cat_views *v, const struct rt_ksyms *ksyms)
{
	const struct options *o = v->o;
	const char *unit = cat_flame_unit(o->flame_weight);
	struct rt_missing m = v->missing;
	struct rt_outbuf ob;
	struct rt_flame fl;
	char title[128], missing[512];
	int fd, ret = 0;

	if (rt_flame_init(&fl))
		return -1;
	/* What the graph lacks is in it, under the title. */
	m.stacks_dropped = v->folded.dropped;
	cat_views_missing_line(&m, missing, sizeof(missing));
	if (missing[0])
		fl.subtitle = missing;
	/* flamegraph.pl --color=io's palette for time off CPU. */
	fl.io_palette = o->flame_weight == FLAME_OFFCPU;
	cat_flame_lines(v, ksyms, add_folded_line, &fl);
	fd = cat_create_file(o->flamegraph, o->input);
	if (fd < 0 || rt_outbuf_init(&ob, fd, RT_OUTBUF_DEFAULT_SIZE)) {
		rt_flame_fini(&fl);
		return -1;
	}
	snprintf(title, sizeof(title), "ringtrace flame graph (%s)", unit);
	rt_flame_write_svg(&fl, &ob, title, unit);
	if (rt_outbuf_flush(&ob)) {
		cat_error("writing %s: %s", o->flamegraph, strerror(ob.error));
		ret = -1;
	} else if (!o->quiet) {
		fprintf(stderr, PROG ": flame graph of %llu %s in %s (%u frames)\n",
			(unsigned long long)(fl.nodes ? fl.nodes[0].value : 0),
			unit, o->flamegraph, fl.nr - 1);
		if (fl.capped)
			fprintf(stderr, PROG ": %llu call paths deeper than %u "
				"frames end in one \"%s\" frame\n",
				(unsigned long long)fl.capped,
				RT_FLAME_MAX_DEPTH, RT_FLAME_DEEPER);
		if (missing[0])
			fprintf(stderr, PROG ": flame graph %s\n", missing);
	}
	if (fd != STDOUT_FILENO)
		rt_sys.close(fd);
	rt_outbuf_fini(&ob);
	rt_flame_fini(&fl);
	return ret;
}

static void write_folded(struct cat_views *v, const struct rt_ksyms *ksyms)
{
	const struct options *o = v->o;
	uint32_t lines = rt_folded_write(&v->folded, ksyms, v->out);
	struct rt_missing m = v->missing;
	char missing[512];

	/* The lines printed: stacks that name alike are one line. */
	if (!o->quiet)
		fprintf(stderr, PROG ": %u folded stacks from %llu %s%s\n", lines,
			(unsigned long long)v->folded.samples,
			cat_flame_records(o->flame_weight),
			v->folded.dropped ? ", some dropped: the stack table "
			"is full" : "");
	/*
	 * Every folded line is data: what they lack is said here, -q or
	 * not (nothing else would say it).
	 */
	m.stacks_dropped = v->folded.dropped;
	cat_views_missing_line(&m, missing, sizeof(missing));
	if (missing[0])
		fprintf(stderr, PROG ": folded stacks %s\n", missing);
}

/* perf report's table of the same stacks, one symbol a row. */
static int write_report(struct cat_views *v, const struct rt_ksyms *ksyms)
{
	const struct options *o = v->o;
	struct rt_missing m = v->missing;
	struct rt_frame_names names;
	struct rt_report r;
	int ret;

	if (rt_frame_names_init(&names, ksyms, v->usyms_on ? &v->usyms : NULL))
		goto nomem;
	names.bare = true;
	m.stacks_dropped = v->folded.dropped;
	ret = rt_report_build(&r, &v->folded, &names, o->report_by);
	r.missing = &m;
	if (ret) {
		rt_frame_names_fini(&names);
		goto nomem;
	}
	if (v->format == RT_FORMAT_JSON)
		rt_report_print_json(&r, cat_flame_unit(o->flame_weight),
				     o->verbose ? 0 : 50, v->out);
	else
		rt_report_print(&r, cat_flame_unit(o->flame_weight),
				o->verbose ? 0 : 50, v->out);
	if (v->folded.dropped && !o->quiet)
		fprintf(stderr, PROG ": --report: %llu %s dropped: the stack "
			"table is full\n", (unsigned long long)v->folded.dropped,
			cat_flame_records(o->flame_weight));
	rt_report_fini(&r);
	rt_frame_names_fini(&names);
	return 0;
nomem:
	cat_error("--report: out of memory");
	return -1;
}

int cat_flame_finish(struct cat_views *v, const struct rt_ksyms *ksyms)
{
	const struct options *o = v->o;
	int ret = 0;

	if (empty(v))
		return -1;
	if (o->folded)
		write_folded(v, ksyms);
	if (o->flamegraph && write_flamegraph(v, ksyms))
		ret = -1;
	if (o->report && write_report(v, ksyms))
		ret = -1;
	return ret;
}
