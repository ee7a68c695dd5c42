// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Userspace event filters (see filter.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ringtrace.h>

#include "ringtrace/filter.h"
#include "ringtrace/parse.h"

int rt_filter_parse_ids(const char *list, uint32_t *ids, uint32_t *nr)
{
	const char *p = list;

	*nr = 0;
	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v <= 0 || v > INT32_MAX ||
		    (*end && *end != ',') || *nr >= RT_FILTER_MAX_IDS)
			return -1;
		ids[(*nr)++] = (uint32_t)v;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return -1;	/* trailing comma */
	}
	return *nr ? 0 : -1;
}

/* One end of --time: a timestamp, or a duration after the first event. */
static int time_end(const char *s, size_t len, uint64_t *ns, bool *after,
		    const char *which, char *err, size_t errlen)
{
	char buf[64], why[160];

	if (!len || len >= sizeof(buf)) {
		snprintf(err, errlen, "%s is %s", which, len ? "too long" :
			 "empty");
		return -1;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	*after = !isdigit((unsigned char)buf[len - 1]);
	if ((*after ? rt_parse_duration : rt_parse_seconds)(buf, ns, why,
							    sizeof(why))) {
		snprintf(err, errlen, "%s: %s", which, why);
		return -1;
	}
	return 0;
}

int rt_filter_parse_time(const char *arg, struct rt_filter *f, char *err,
			 size_t errlen)
{
	const char *comma = strchr(arg, ',');

	if (!comma) {
		snprintf(err, errlen, "'%s' is not START,END (either may be "
			 "empty)", arg);
		return -1;
	}
	f->relative = true;
	f->from_ns = 0;
	f->to_ns = 0;
	f->from_after_first = true;
	f->to_after_first = true;
	if (comma != arg &&
	    time_end(arg, (size_t)(comma - arg), &f->from_ns,
		     &f->from_after_first, "START", err, errlen))
		return -1;
	if (comma[1] &&
	    time_end(comma + 1, strlen(comma + 1), &f->to_ns,
		     &f->to_after_first, "END", err, errlen))
		return -1;
	if (comma[1] && f->from_after_first == f->to_after_first &&
	    f->to_ns < f->from_ns) {
		snprintf(err, errlen, "END (%s) is before START (%.*s)",
			 comma + 1, (int)(comma - arg), arg);
		return -1;
	}
	return 0;
}

uint64_t rt_filter_time_from(const struct rt_filter *f)
{
	return f->from_after_first ? f->first_ns + f->from_ns : f->from_ns;
}

uint64_t rt_filter_time_to(const struct rt_filter *f)
{
	if (!f->to_ns && f->to_after_first)
		return 0;
	return f->to_after_first ? f->first_ns + f->to_ns : f->to_ns;
}

bool rt_filter_active(const struct rt_filter *f)
{
	return f->nr_pids || f->nr_tids || f->comm || f->cpus_given ||
	       f->events || f->min_latency_ns || f->min_func_latency_ns ||
	       f->min_offcpu_ns ||
	       f->relative || f->nr_exprs;
}

int rt_filter_add_expr(struct rt_filter *f, const char *text, char *err,
		       size_t errlen)
{
	if (f->nr_exprs >= RT_FILTER_MAX_EXPRS) {
		snprintf(err, errlen, "at most %u --filter", RT_FILTER_MAX_EXPRS);
		return -1;
	}
	if (!f->exprs) {
		f->exprs = calloc(RT_FILTER_MAX_EXPRS, sizeof(*f->exprs));
		if (!f->exprs) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	if (rt_expr_parse(&f->exprs[f->nr_exprs], text, err, errlen))
		return -1;
	f->nr_exprs++;
	return 0;
}

void rt_filter_free(struct rt_filter *f)
{
	free(f->exprs);
	f->exprs = NULL;
	f->nr_exprs = 0;
}

static bool has(const uint32_t *ids, uint32_t nr, uint32_t id)
{
	for (uint32_t i = 0; i < nr; i++)
		if (ids[i] == id)
			return true;
	return false;
}

bool rt_filter_pass(struct rt_filter *f, const struct rt_event *ev)
{
	bool tasked = ev->kind == RT_EVENT_VFS_READ || ev->kind == RT_EVENT_LOCK ||
		      ev->kind == RT_EVENT_SAMPLE || ev->kind == RT_EVENT_OFFCPU ||
		      ev->kind == RT_EVENT_FUNC;

	if (!f->first_ns && ev->ts_ns)
		f->first_ns = ev->ts_ns;
	if (ev->ts_ns > f->last_ns)
		f->last_ns = ev->ts_ns;
	if (f->relative) {
		uint64_t to = rt_filter_time_to(f);

		if (ev->ts_ns < rt_filter_time_from(f) || (to && ev->ts_ns > to))
			return false;
		f->time_matched++;
	}
	if (f->cpus_given && ev->cpu != RT_EVENT_CPU_ANY &&
	    !rt_cpuset_has(&f->cpus, ev->cpu))
		return false;
	if (f->events) {
		if (ev->kind == RT_EVENT_VFS_READ &&
		    !(f->events & RINGTRACE_EVENT_VFS_READ))
			return false;
		if (ev->kind == RT_EVENT_LOCK &&
		    !(f->events & (RINGTRACE_EVENT_LOCK |
				   RINGTRACE_EVENT_LOCK_CONTENTION)))
			return false;
		if (ev->kind == RT_EVENT_SAMPLE &&
		    !(f->events & RT_FILTER_EVENT_SAMPLE))
			return false;
		if (ev->kind == RT_EVENT_COUNTERS &&
		    !(f->events & RT_FILTER_EVENT_COUNTERS))
			return false;
		if (ev->kind == RT_EVENT_OFFCPU &&
		    !(f->events & RINGTRACE_EVENT_OFFCPU))
			return false;
		if (ev->kind == RT_EVENT_FUNC &&
		    !(f->events & RINGTRACE_EVENT_FUNC))
			return false;
	}
	if (f->min_offcpu_ns && ev->kind == RT_EVENT_OFFCPU &&
	    ev->u.offcpu.offcpu_ns < f->min_offcpu_ns)
		return false;
	if (f->min_latency_ns && ev->kind == RT_EVENT_VFS_READ &&
	    ev->u.vfs_read.lat_ns < f->min_latency_ns)
		return false;
	/* The module applies it to vfs_read only: func calls are here. */
	if (f->min_func_latency_ns && ev->kind == RT_EVENT_FUNC &&
	    ev->u.func.lat_ns < f->min_func_latency_ns)
		return false;
	if (!tasked)
		return true;
	if (f->nr_pids && !has(f->pids, f->nr_pids, ev->pid))
		return false;
	if (f->nr_tids && !has(f->tids, f->nr_tids, ev->tid))
		return false;
	if (f->comm && strcmp(f->comm, ev->comm))
		return false;
	/* --filter, last: the other filters are cheaper. */
	for (uint32_t i = 0; i < f->nr_exprs; i++)
		if (!rt_expr_eval(&f->exprs[i], ev)) {
			f->expr_dropped++;
			return false;
		}
	return true;
}
