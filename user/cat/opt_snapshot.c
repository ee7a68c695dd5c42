// SPDX-License-Identifier: GPL-2.0-only
/*
 * A snapshot, ringtrace-cat --snapshot (opt.h), the flight
 * recorder: the rings overwrite their oldest records and what they hold
 * is printed (or written to PREFIX.N with --raw, per-thread rings as
 * raw format version 3's thread chunks) on each SIGUSR2, and with
 * --trigger EXPR when a record matches (trigger.c). No views, no perf,
 * no wake-ups for data: what a trace alone does is not in its tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "ringtrace/parse.h"

static void set_snapshot(struct options *o, const char *arg)
{
	(void)arg;
	o->snapshot = true;
	o->session.overwrite = true;
}

static void set_snapshot_size(struct options *o, const char *arg)
{
	o->snapshot_size = cat_size_arg("--snapshot-size", arg, 1ull << 40);
	if (!o->snapshot_size)
		cat_usage_error("--snapshot-size: must be more than 0");
}

static void set_snapshot_time(struct options *o, const char *arg)
{
	o->snapshot_time_ns = cat_duration_arg("--snapshot-time", arg,
					       rt_parse_seconds);
	if (!o->snapshot_time_ns)
		cat_usage_error("--snapshot-time: must be more than 0");
}

/* The --filter language, parsed once here (filter_expr.h). */
static void set_trigger(struct options *o, const char *arg)
{
	char err[256];

	if (o->trigger)
		cat_usage_error("--trigger is given once (join conditions with "
				"&& or ||)");
	o->trigger = malloc(sizeof(*o->trigger));
	if (!o->trigger)
		cat_usage_error("--trigger: out of memory");
	if (rt_expr_parse(o->trigger, arg, err, sizeof(err)))
		cat_usage_error("--trigger '%s': %s", arg, err);
	o->trigger_text = arg;
}

static void set_trigger_max(struct options *o, const char *arg)
{
	char *end;

	errno = 0;
	o->trigger_max = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || !o->trigger_max ||
	    o->trigger_max > 1000000)
		cat_usage_error("--trigger-max %s: a number of dumps, 1 to "
				"1000000", arg);
}

static void set_trigger_gap(struct options *o, const char *arg)
{
	o->trigger_gap_ns = cat_ns_in_range("--trigger-gap", arg,
					    cat_duration_arg("--trigger-gap",
							     arg,
							     rt_parse_seconds),
					    0, MAX_DURATION_NS);
	o->trigger_gap_given = true;
}

static void set_post(struct options *o, const char *arg)
{
	o->post_ns = cat_ns_in_range("--post", arg,
				     cat_duration_arg("--post", arg,
						      rt_parse_seconds),
				     0, MAX_WINDOW_NS);
}

const struct cat_opt cat_snapshot_opts[] = {
	{ "snapshot",		0, no_argument,		set_snapshot },
	{ "snapshot-size",	0, required_argument,	set_snapshot_size },
	{ "snapshot-time",	0, required_argument,	set_snapshot_time },
	{ "trigger",		0, required_argument,	set_trigger },
	{ "trigger-max",	0, required_argument,	set_trigger_max },
	{ "trigger-gap",	0, required_argument,	set_trigger_gap },
	{ "post",		0, required_argument,	set_post },
	CAT_OPT_END,
};

static void check_snapshot(struct options *o)
{
	if (o->json && o->raw)
		cat_usage_error("--json and --raw are alternatives: pick one");
	if (o->raw && (!o->output || !strcmp(o->output, "-")))
		cat_usage_error("--snapshot --raw writes each snapshot to a file "
				"of its own: give -o PREFIX (PREFIX.1, "
				"PREFIX.2...)");
	/* The rings are printed as they are: only the module selects. */
	if ((o->filter.nr_tids && !o->per_thread) || o->filter.nr_pids > 1)
		cat_usage_error("%s prints what the module selects: -t (without "
				"--per-thread) and several -p pids filter a "
				"trace or a replay", "--snapshot");
	if (!o->trigger && (o->trigger_max || o->trigger_gap_given ||
			    o->post_ns))
		cat_usage_error("--trigger-max, --trigger-gap and --post "
				"apply to --trigger");
	if (o->trigger && !o->raw)
		cat_usage_error("--trigger writes each dump to a raw file of its "
				"own, named by the trigger's time: give --raw -o "
				"PREFIX");
	if (o->trigger && !o->trigger_gap_given)
		o->trigger_gap_ns = CAT_TRIGGER_GAP_NS;
	cat_check_outputs(o);
	cat_check_unused(o);
	cat_check_live(o);
}

const struct cat_mode cat_mode_snapshot = {
	.name	= "a snapshot (--snapshot)",
	.tables	= { cat_common_opts, cat_live_opts, cat_snapshot_opts, NULL },
	.check	= check_snapshot,
};
