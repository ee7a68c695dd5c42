// SPDX-License-Identifier: GPL-2.0-only
/* ringtrace-cat --snapshot and --stats (see flight.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "flight.h"
#include "trigger.h"
#include "views.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/snapshot.h"
#include "ringtrace/sys.h"

int cat_stats_init(struct cat_stats *cs, struct rt_session *s,
		   uint64_t now_ns)
{
	memset(cs, 0, sizeof(*cs));
	cs->s = s;
	cs->start_ns = now_ns;
	if (rt_health_init(&cs->h, s->nr_rings, now_ns)) {
		cat_error("out of memory");
		return -1;
	}
	return 0;
}

void cat_stats_fini(struct cat_stats *cs)
{
	rt_health_fini(&cs->h);
}

void cat_stats_print(void *arg, uint64_t now_ns)
{
	struct cat_stats *cs = arg;
	uint64_t ms = (now_ns - cs->start_ns) / 1000000;
	char line[160];

	if (cs->failed)
		return;
	if (rt_health_sample(&cs->h, cs->s, now_ns)) {
		cat_error("--stats: %s", cs->s->errmsg);
		cs->failed = true;
		return;
	}
	for (uint32_t i = 0; i < cs->h.nr; i++) {
		rt_health_format(&cs->h, i, line, sizeof(line));
		fprintf(stderr, PROG ": [%5" PRIu64 ".%03" PRIu64 "s] %s\n",
			ms / 1000, ms % 1000, line);
	}
}

int cat_raw_dump_open(struct cat_raw_dump *d, const struct options *o,
		      const char *path, const struct cat_raw_header *raw)
{
	uint64_t events = o->session.events ? o->session.events :
					     RINGTRACE_EVENT_VFS_READ;

	snprintf(d->path, sizeof(d->path), "%s", path);
	d->fd = cat_create_file(path, NULL);
	if (d->fd < 0)
		return -1;
	if (rt_outbuf_init(&d->ob, d->fd, RT_OUTBUF_DEFAULT_SIZE)) {
		cat_error("out of memory");
		rt_sys.close(d->fd);
		d->fd = -1;
		return -1;
	}
	raw->write(&d->ob, raw->session, raw->perf, events, raw->maps);
	return 0;
}

int cat_raw_dump_close(struct cat_raw_dump *d, const struct options *o)
{
	int ret = rt_outbuf_flush(&d->ob);

	if (ret)
		cat_error("writing %s: %s", d->path, strerror(d->ob.error));
	rt_outbuf_fini(&d->ob);
	if (rt_sys.close(d->fd) && !ret) {
		cat_error("closing %s: %s", d->path, strerror(errno));
		ret = -1;
	}
	d->fd = -1;
	/* Its kernel frames' symbols, as a live --raw --stack file keeps. */
	if (!ret)
		cat_save_ksyms(o, d->path);
	return ret ? -1 : 0;
}

/*
 * --raw: snapshot N is the file OUTPUT.N, a raw file of its own (read it
 * with -i): the header, then one RECORDS chunk per ring holding its kept
 * records in time order, and the func calls the probes missed since the
 * previous snapshot (FUNC_MISSED). 0, or -1 with the reason printed.
 */
static int write_raw_snapshot(const struct options *o,
			      const struct rt_snapshot *sn,
			      const struct cat_raw_header *raw)
{
	struct cat_raw_dump d;
	char path[4096];

	snprintf(path, sizeof(path), "%s.%" PRIu64, o->output, sn->number);
	if (cat_raw_dump_open(&d, o, path, raw))
		return -1;
	rt_snapshot_write_raw(sn, &d.ob);
	if (cat_raw_dump_close(&d, o))
		return -1;
	if (!o->quiet)
		fprintf(stderr, PROG ": snapshot %" PRIu64 ": %s (%zu records, "
			"%zu older not shown, %" PRIu64 " overwritten since the "
			"previous snapshot)\n", sn->number, path,
			sn->nr_shown, sn->nr_not_shown, sn->overwritten);
	return 0;
}

void cat_save_ksyms(const struct options *o, const char *path)
{
	char err[512];
	int ret;

	/* kernel addresses: stacks, samples, func records' functions */
	if (!o->session.stack_kernel_depth && !o->perf.sample &&
	    !o->session.nr_funcs)
		return;
	ret = rt_raw_append_ksyms(path, "/proc/kallsyms", err, sizeof(err));
	if (ret < 0 && !o->quiet)
		fprintf(stderr, PROG ": kernel symbols not saved in %s: %s\n",
			path, err);
	else if (ret >= 0 && o->verbose)
		fprintf(stderr, PROG ": %d kernel symbols saved in %s\n", ret,
			path);
}

/* Milliseconds from @now to @when, at least 1, at most a minute. */
static int ms_until(uint64_t when, uint64_t now)
{
	uint64_t ms = when > now ? (when - now + 999999) / 1000000 : 1;

	return ms > 60000 ? 60000 : (int)ms;
}

int cat_snapshot_run(const struct options *o, struct rt_session *s,
		     struct rt_outbuf *ob, struct rt_paths *paths,
		     volatile sig_atomic_t *snap, volatile sig_atomic_t *stop,
		     const sigset_t *wait_signals, struct cat_stats *stats,
		     const struct cat_raw_header *raw, uint64_t *snapshots)
{
	struct rt_snapshot sn = { .max_bytes = o->snapshot_size,
				  .max_age_ns = o->snapshot_time_ns };
	enum rt_format format = o->json ? RT_FORMAT_JSON : RT_FORMAT_TEXT;
	uint64_t now = rt_sys.now_ns(), deadline = 0, next_stats = 0;
	int code = EXIT_OK, ret, timeout;
	struct cat_trigger trig;
	sigset_t old;

	if (rt_snapshot_init(&sn, s)) {
		cat_error("out of memory");
		return EXIT_FAIL;
	}
	if (o->trigger && cat_trigger_init(&trig, o, s, raw)) {
		rt_snapshot_fini(&sn);
		return EXIT_FAIL;
	}
	if (o->duration_ns)
		deadline = now + o->duration_ns;
	if (stats)
		next_stats = now + o->stats_ns;
	sigprocmask(SIG_BLOCK, wait_signals, &old);
	for (;;) {
		now = rt_sys.now_ns();
		/* A snapshot asked for before a stop is still taken. */
		if (!*snap && (*stop || (deadline && now >= deadline)))
			break;
		if (o->trigger) {
			code = cat_trigger_run(&trig, s, &sn, now, snapshots);
			if (code)
				break;
		}
		/* SIGUSR2 waits for a dump's --post records: they are its. */
		if (*snap && !(o->trigger && cat_trigger_pending(&trig))) {
			*snap = 0;
			ret = rt_snapshot_take(&sn, s, now);
			if (ret < 0) {
				cat_error("snapshot %" PRIu64 ": a "
					  "ring holds a malformed record",
					  sn.number);
				code = EXIT_DATA;
				break;
			}
			if (o->raw) {
				if (write_raw_snapshot(o, &sn, raw)) {
					code = EXIT_FAIL;
					break;
				}
				(*snapshots)++;
				continue;
			}
			rt_snapshot_print(&sn, format, ob, paths);
			if (rt_outbuf_flush(ob)) {
				if (ob->error != EPIPE) {
					cat_error("writing output: "
						  "%s", strerror(ob->error));
					code = EXIT_FAIL;
				}
				break;
			}
			(*snapshots)++;
			continue;
		}
		if (next_stats && now >= next_stats) {
			cat_stats_print(stats, now);
			while (next_stats <= now)
				next_stats += o->stats_ns;
		}
		/*
		 * The rings send no wake-up in overwrite mode: this sleeps
		 * until a signal (SIGUSR2, stop) or the next deadline.
		 */
		timeout = -1;
		if (deadline)
			timeout = ms_until(deadline, now);
		if (next_stats && (timeout < 0 ||
				   timeout > ms_until(next_stats, now)))
			timeout = ms_until(next_stats, now);
		/* --trigger: the next look at the rings, or a dump's end. */
		if (o->trigger && cat_trigger_when(&trig) != UINT64_MAX &&
		    (timeout < 0 ||
		     timeout > ms_until(cat_trigger_when(&trig), now)))
			timeout = ms_until(cat_trigger_when(&trig), now);
		ret = rt_session_wait(s, timeout, &old);
		if (ret < 0 && ret != -EINTR) {
			cat_error("waiting: %s", strerror(-ret));
			code = EXIT_FAIL;
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* A dump waiting for its --post records gets what there is. */
	if (o->trigger) {
		ret = cat_trigger_stop(&trig, s, &sn, rt_sys.now_ns(),
				       snapshots);
		if (ret && code == EXIT_OK)
			code = ret;
	}
	if (s->enabled && rt_session_disable(s)) {
		cat_error("%s", s->errmsg);
		code = EXIT_FAIL;
	}
	if (o->trigger)
		cat_trigger_fini(&trig);
	rt_snapshot_fini(&sn);
	return code;
}

void cat_summary_rings(struct rt_session *s, struct rt_summary *sum,
		       struct ringtrace_ring_stats **rings)
{
	struct ringtrace_stats st;
	uint32_t nr;

	*rings = NULL;
	if (!(s->info.features & RINGTRACE_FEAT_RING_STATS) || !s->nr_rings)
		return;
	*rings = calloc(s->nr_rings, sizeof(**rings));
	if (!*rings)
		return;
	if (rt_session_ring_stats(s, &st, *rings, s->nr_rings, &nr)) {
		free(*rings);
		*rings = NULL;
		return;
	}
	sum->rings = *rings;
	sum->nr_rings = nr;
	sum->page_size = s->info.page_size;
}
