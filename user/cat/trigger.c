// SPDX-License-Identifier: GPL-2.0-only
/* ringtrace-cat --snapshot --trigger (see trigger.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "trigger.h"
#include "ringtrace/filter_expr.h"
#include "ringtrace/hist.h"

int cat_trigger_init(struct cat_trigger *t, const struct options *o,
		     const struct rt_session *s,
		     const struct cat_raw_header *raw)
{
	memset(t, 0, sizeof(*t));
	t->o = o;
	t->raw = raw;
	t->dump.fd = -1;
	if (rt_paths_init(&t->paths))
		goto nomem;
	/* Live: mount-relative paths (PREEMPT_RT) as the reader sees them. */
	rt_paths_use_own_mounts(&t->paths);
	if (rt_trigger_scan_init(&t->scan, s, &t->paths)) {
		rt_paths_fini(&t->paths);
		goto nomem;
	}
	return 0;
nomem:
	cat_error("out of memory");
	return -1;
}

void cat_trigger_fini(struct cat_trigger *t)
{
	const struct rt_trigger_scan *sc = &t->scan;

	if (!t->o->quiet) {
		fprintf(stderr, PROG ": --trigger: %" PRIu64 " records checked, "
			"%" PRIu64 " dump%s", sc->records, t->dumps,
			t->dumps == 1 ? "" : "s");
		if (t->in_gap)
			fprintf(stderr, ", %" PRIu64 " matches inside a dump "
				"or --trigger-gap", t->in_gap);
		if (t->o->trigger_max && t->dumps >= t->o->trigger_max)
			fprintf(stderr, " (--trigger-max: no look after the "
				"last)");
		fputc('\n', stderr);
	}
	/* What was never checked is said, -q or not: a trigger may be in it. */
	if (sc->missed_bytes || sc->busy)
		fprintf(stderr, PROG ": --trigger: %" PRIu64 " bytes of records "
			"were overwritten before they were checked (%" PRIu64
			" times a ring went past its last look, %" PRIu64
			" looks given up): a larger --buffer-size keeps them "
			"longer\n", sc->missed_bytes, sc->missed_rings,
			sc->busy);
	if (sc->malformed)
		fprintf(stderr, PROG ": --trigger: %" PRIu64 " malformed "
			"records skipped\n", sc->malformed);
	rt_trigger_scan_fini(&t->scan);
	rt_paths_fini(&t->paths);
}

uint64_t cat_trigger_when(const struct cat_trigger *t)
{
	if (t->pending && t->post_end < t->next_look)
		return t->post_end;
	return t->next_look;
}

/* The first match of a look, by time (rings are looked at one by one). */
static void check(void *arg, const struct rt_event *ev)
{
	struct cat_trigger *t = arg;
	struct cat_trigger_hit *h = &t->first;

	if (!rt_expr_eval(t->o->trigger, ev))
		return;
	t->matches++;
	if (t->hit && ev->ts_ns >= h->ts_ns)
		return;
	t->hit = true;
	h->ts_ns = ev->ts_ns;
	h->kind = ev->kind;
	h->pid = ev->pid;
	memcpy(h->comm, ev->comm, sizeof(h->comm));
	h->what[0] = '\0';
	if (ev->kind == RT_EVENT_VFS_READ) {
		h->ns = ev->u.vfs_read.lat_ns;
		if (ev->u.vfs_read.path)
			snprintf(h->what, sizeof(h->what), " file=%s",
				 ev->u.vfs_read.path);
		else
			snprintf(h->what, sizeof(h->what), " dev=%u:%u ino=%"
				 PRIu64, ev->u.vfs_read.dev_major,
				 ev->u.vfs_read.dev_minor, ev->u.vfs_read.ino);
	} else if (ev->kind == RT_EVENT_LOCK) {
		h->ns = ev->u.lock.wait_ns;
		snprintf(h->what, sizeof(h->what), " lock=%s", ev->u.lock.name);
	} else {
		h->ns = ev->u.offcpu.offcpu_ns;
	}
}

/*
 * PREFIX.YYYYMMDD-HHMMSS.NNNNNNNNN: the trigger's time in UTC, from its
 * CLOCK_MONOTONIC stamp and the two clocks read when tracing started.
 * Sorted by name is sorted by time; no ':' (scp, make and URLs read it).
 */
static void dump_name(const struct cat_trigger *t, uint64_t ts, char *buf,
		      size_t len)
{
	uint64_t real = t->raw->start_real_ns + (ts - t->raw->start_mono_ns);
	time_t secs = (time_t)(real / 1000000000u);
	char when[32] = "unknown";
	struct tm tm;

	if (gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "%s.%s.%09" PRIu64, t->o->output, when,
		 real % 1000000000u);
}

static const char *kind_name(enum rt_event_kind k)
{
	return k == RT_EVENT_VFS_READ ? "vfs_read" :
	       k == RT_EVENT_LOCK ? "lock" : "offcpu";
}

/* The line that says a dump was written. */
static void say_dump(const struct cat_trigger *t, size_t after)
{
	const struct cat_trigger_hit *h = &t->dump_hit;
	char d[32];

	if (t->o->quiet)
		return;
	fprintf(stderr, PROG ": trigger %" PRIu64 " at %" PRIu64 ".%09" PRIu64
		": %s by %s %u (%s)%s: %s (%zu records", t->dumps,
		h->ts_ns / 1000000000u, h->ts_ns % 1000000000u,
		kind_name(h->kind), h->comm, h->pid,
		rt_fmt_duration(d, sizeof(d), h->ns), h->what, t->dump.path,
		t->dump_before);
	if (t->o->post_ns)
		fprintf(stderr, ", %zu more in the --post time", after);
	fprintf(stderr, ")\n");
}

static int take(struct rt_snapshot *sn, struct rt_session *s, uint64_t now)
{
	if (rt_snapshot_take(sn, s, now) >= 0)
		return EXIT_OK;
	cat_error("snapshot %" PRIu64 ": a ring holds a malformed record",
		  sn->number);
	return EXIT_DATA;
}

/* The snapshot of a trigger: everything the rings keep up to now. */
static int dump(struct cat_trigger *t, struct rt_session *s,
		struct rt_snapshot *sn, uint64_t now, uint64_t *snapshots)
{
	char path[sizeof(t->dump.path)];
	int code = take(sn, s, now);

	if (code)
		return code;
	t->dumps++;
	t->last_ts = t->first.ts_ns;
	t->dump_hit = t->first;
	t->dump_before = sn->nr_shown;
	t->dump_number = sn->number;
	dump_name(t, t->first.ts_ns, path, sizeof(path));
	if (cat_raw_dump_open(&t->dump, t->o, path, t->raw))
		return EXIT_FAIL;
	rt_snapshot_write_raw(sn, &t->dump.ob);
	(*snapshots)++;
	if (t->o->post_ns) {
		t->pending = true;
		t->post_end = now + t->o->post_ns;
		return EXIT_OK;
	}
	if (cat_raw_dump_close(&t->dump, t->o))
		return EXIT_FAIL;
	say_dump(t, 0);
	return EXIT_OK;
}

/* The records after the trigger, into the same file, then close it. */
static int finish_dump(struct cat_trigger *t, struct rt_session *s,
		       struct rt_snapshot *sn, uint64_t now)
{
	int code = take(sn, s, now);
	size_t after = 0;

	t->pending = false;
	if (!code) {
		rt_snapshot_write_raw(sn, &t->dump.ob);
		after = sn->nr_shown;
	}
	if (cat_raw_dump_close(&t->dump, t->o))
		return EXIT_FAIL;
	if (!code)
		say_dump(t, after);
	return code;
}

int cat_trigger_run(struct cat_trigger *t, struct rt_session *s,
		    struct rt_snapshot *sn, uint64_t now, uint64_t *snapshots)
{
	const struct options *o = t->o;

	if (t->pending && now >= t->post_end) {
		int code = finish_dump(t, s, sn, now);

		if (code)
			return code;
	}
	if (now < t->next_look)
		return EXIT_OK;
	t->next_look = now + TRIGGER_LOOK_MS * 1000000ull;
	/* Past --trigger-max nothing can dump: no more looks, no cost. */
	if (o->trigger_max && t->dumps >= o->trigger_max) {
		t->next_look = UINT64_MAX;
		return EXIT_OK;
	}
	t->matches = 0;
	t->hit = false;
	rt_trigger_scan_look(&t->scan, s, check, t);
	if (!t->hit)
		return EXIT_OK;
	/* A match inside a dump's --post time or its gap is part of it. */
	if (t->pending || (t->dumps && t->first.ts_ns < t->last_ts +
			   o->trigger_gap_ns)) {
		t->in_gap += t->matches;
		return EXIT_OK;
	}
	t->in_gap += t->matches - 1;
	return dump(t, s, sn, now, snapshots);
}

int cat_trigger_stop(struct cat_trigger *t, struct rt_session *s,
		     struct rt_snapshot *sn, uint64_t now, uint64_t *snapshots)
{
	int code;

	/* The records since the last look are checked too: one last look. */
	if (t->next_look != UINT64_MAX)
		t->next_look = 0;
	code = cat_trigger_run(t, s, sn, now, snapshots);
	if (code || !t->pending)
		return code;
	return finish_dump(t, s, sn, now);
}
