// SPDX-License-Identifier: GPL-2.0-only
/*
 * A snapshot, ringtrace-cat --snapshot (cat_opt.h), issue 9's flight
 * recorder: the rings overwrite their oldest records and what they hold
 * is printed (or written to PREFIX.N with --raw, per-thread rings as
 * raw format version 3's thread chunks) on each SIGUSR2. No
 * views, no perf, no wake-ups for data: what a trace alone does is not
 * in its tables.
 */
#include <string.h>

#include "cat_opt.h"
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

const struct cat_opt cat_snapshot_opts[] = {
	{ "snapshot",		0, no_argument,		set_snapshot },
	{ "snapshot-size",	0, required_argument,	set_snapshot_size },
	{ "snapshot-time",	0, required_argument,	set_snapshot_time },
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
	cat_check_outputs(o);
	cat_check_unused(o);
	cat_check_live(o);
}

const struct cat_mode cat_mode_snapshot = {
	.name	= "a snapshot (--snapshot)",
	.tables	= { cat_common_opts, cat_live_opts, cat_snapshot_opts, NULL },
	.check	= check_snapshot,
};
