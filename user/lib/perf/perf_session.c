// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* perf counters and sampling beside a ringtrace session (perf_session.h). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/perf_session.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/perf_stat.h"

static int add_sources(void *arg, struct rt_merge *m)
{
	struct rt_perf_session *ps = arg;

	if (ps->has_sampler &&
	    rt_merge_add(m, ps->sampler.srcs, ps->sampler.nr_rings))
		return -ENOMEM;
	if (ps->has_snapshots && rt_merge_add(m, &ps->snapshots.src, 1))
		return -ENOMEM;
	return 0;
}

static uint64_t tick(void *arg, uint64_t now_ns)
{
	struct rt_perf_session *ps = arg;
	uint64_t next = 0;

	if (ps->has_snapshots) {
		if (now_ns >= ps->next_ns) {
			rt_counter_source_snapshot(&ps->snapshots, now_ns);
			/* Keep the grid; after a stall, restart it from now. */
			ps->next_ns += ps->interval_ns;
			if (ps->next_ns <= now_ns)
				ps->next_ns = now_ns + ps->interval_ns;
		}
		next = ps->next_ns;
	}
	/* Samples below the ring's wake-up mark still come out in time. */
	if (ps->has_sampler && (!next || next > now_ns + RT_PERF_POLL_NS))
		next = now_ns + RT_PERF_POLL_NS;
	return next;
}

static void stop(void *arg, uint64_t now_ns)
{
	struct rt_perf_session *ps = arg;

	if (ps->has_sampler) {
		rt_perf_sampler_disable(&ps->sampler);
		ps->kernel_lost = rt_perf_sampler_lost(&ps->sampler);
	}
	if (ps->has_counters) {
		rt_counters_disable(&ps->counters);
		if (ps->has_snapshots)
			rt_counter_source_snapshot(&ps->snapshots, now_ns);
		else
			rt_counters_read(&ps->counters, now_ns);
	}
	ps->stop_ns = now_ns;
}

int rt_perf_session_open(struct rt_perf_session *ps,
			 const struct rt_perf_session_opts *o,
			 const struct rt_perf_target *t, size_t page_size)
{
	int ret;

	memset(ps, 0, sizeof(*ps));
	ps->kernel_lost = -1;
	ps->hooks = (struct rt_stream_hooks){
		.add_sources = add_sources, .tick = tick, .stop = stop,
		.arg = ps,
	};
	if (o->counters) {
		ret = rt_counters_parse(&ps->counters, o->counters, ps->errmsg,
					sizeof(ps->errmsg));
		if (ret)
			return ret;
		ps->has_counters = true;
		ret = rt_counters_open(&ps->counters, t);
		if (ret) {
			snprintf(ps->errmsg, sizeof(ps->errmsg), "%s",
				 ps->counters.errmsg);
			return ret;
		}
	}
	if (ps->has_counters && o->interval_ns) {
		uint64_t held = o->window_ns / o->interval_ns + 1;

		ps->interval_ns = o->interval_ns;
		if (rt_counter_source_init(&ps->snapshots, &ps->counters,
					   held > 64 ? 64 : (uint32_t)held)) {
			snprintf(ps->errmsg, sizeof(ps->errmsg), "out of memory");
			return -ENOMEM;
		}
		ps->has_snapshots = true;
	}
	if (o->sample) {
		ps->has_sampler = true;
		ret = rt_perf_sampler_open(&ps->sampler, &o->sample_spec, t,
					   page_size);
		if (ret) {
			snprintf(ps->errmsg, sizeof(ps->errmsg), "%s",
				 ps->sampler.errmsg);
			return ret;
		}
	}
	return 0;
}

int rt_perf_session_enable(struct rt_perf_session *ps, uint64_t now_ns)
{
	if (ps->has_counters)
		rt_counters_enable(&ps->counters, now_ns);
	if (ps->has_sampler)
		rt_perf_sampler_enable(&ps->sampler);
	ps->next_ns = now_ns + ps->interval_ns;
	return 0;
}

int rt_perf_session_watch(struct rt_perf_session *ps, int epfd)
{
	if (!ps->has_sampler)
		return 0;
	return rt_perf_sampler_watch(&ps->sampler, epfd);
}

static void sampler_summary(FILE *out, const struct rt_perf_session *ps,
			    const char *prog)
{
	const struct rt_perf_sampler *s = &ps->sampler;
	uint64_t samples = 0, reported = 0, malformed = 0, unknown = 0;

	for (uint32_t i = 0; i < s->nr_rings; i++) {
		samples += s->srcs[i].counts.samples;
		reported += s->srcs[i].counts.lost;
		malformed += s->srcs[i].counts.malformed;
		unknown += s->srcs[i].counts.unknown;
	}
	fprintf(out, "%s: perf %s at %" PRIu64 " Hz%s: %" PRIu64 " samples, ",
		prog, s->spec.desc->name, s->spec.freq,
		s->user_only ? " (user space only: not permitted in the kernel)" : "",
		samples);
	if (ps->kernel_lost >= 0 && (uint64_t)ps->kernel_lost > reported)
		fprintf(out, "%" PRIu64 " lost (%" PRIu64 " reported by LOST "
			"records, %" PRIu64 " after the last one)", (uint64_t)
			ps->kernel_lost, reported,
			(uint64_t)ps->kernel_lost - reported);
	else
		fprintf(out, "%" PRIu64 " lost", reported);
	if (unknown)
		fprintf(out, ", %" PRIu64 " of unknown type skipped", unknown);
	if (malformed)
		fprintf(out, ", %" PRIu64 " malformed skipped", malformed);
	fputc('\n', out);
}

void rt_perf_session_summary(FILE *out, const struct rt_perf_session *ps,
			     const char *prog, const char *title)
{
	if (ps->has_sampler && !ps->sampler.spec.tracking_only)
		sampler_summary(out, ps, prog);
	if (ps->has_snapshots && ps->snapshots.dropped)
		fprintf(out, "%s: %" PRIu64 " counter snapshots dropped (the "
			"output could not keep up)\n", prog,
			ps->snapshots.dropped);
	if (ps->has_counters)
		rt_perf_stat_print(out, &ps->counters, title,
				   ps->stop_ns - ps->counters.start_ns);
}

/* See perf_session.h. */
void rt_perf_session_write_raw(const struct rt_perf_session *ps,
			       struct rt_outbuf *ob)
{
	if (ps->has_sampler) {
		struct rt_raw_perf_format pf = {
			.sample_type = ps->sampler.fmt.sample_type,
			.sample_id_all = ps->sampler.fmt.sample_id_all,
		};

		if (ps->sampler.fmt.event)
			snprintf(pf.event, sizeof(pf.event), "%s",
				 ps->sampler.fmt.event);
		rt_raw_write_perf_format(ob, &pf);
		rt_raw_write_comms(ob, ps->sampler.comms);
	}
	if (ps->has_snapshots) {
		struct rt_raw_counter_names cn = { .nr = ps->counters.nr };

		for (uint32_t i = 0; i < ps->counters.nr; i++)
			snprintf(cn.name[i], sizeof(cn.name[i]), "%s",
				 ps->counters.c[i].name);
		rt_raw_write_counter_names(ob, &cn);
	}
}

void rt_perf_session_close(struct rt_perf_session *ps)
{
	if (ps->has_snapshots)
		rt_counter_source_fini(&ps->snapshots);
	if (ps->has_counters)
		rt_counters_close(&ps->counters);
	if (ps->has_sampler)
		rt_perf_sampler_close(&ps->sampler);
	ps->has_snapshots = ps->has_counters = ps->has_sampler = false;
}

int rt_perf_list_threads(pid_t pid, pid_t **tids, uint32_t *nr)
{
	char path[64];
	struct dirent *d;
	uint32_t cap = 16;
	DIR *dir;

	*nr = 0;
	*tids = malloc(cap * sizeof(**tids));
	if (!*tids)
		return -ENOMEM;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir) {
		/* No /proc (or a race with exit): the main thread alone. */
		(*tids)[(*nr)++] = pid;
		return errno == ENOENT ? -ESRCH : 0;
	}
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		if (*nr == cap) {
			pid_t *more = realloc(*tids, 2 * cap * sizeof(**tids));

			if (!more) {
				closedir(dir);
				return -ENOMEM;
			}
			*tids = more;
			cap *= 2;
		}
		(*tids)[(*nr)++] = (pid_t)strtol(d->d_name, NULL, 10);
	}
	closedir(dir);
	return *nr ? 0 : -ESRCH;
}
