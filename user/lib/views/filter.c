// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Userspace event filters (see filter.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ringtrace.h>

#include "ringtrace/filter.h"

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

static int seconds(const char *s, const char *end, uint64_t *ns)
{
	char buf[64], *e;
	double v;

	if (end - s <= 0 || (size_t)(end - s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, (size_t)(end - s));
	buf[end - s] = '\0';
	v = strtod(buf, &e);
	if (*e || v < 0 || v > 1e9)
		return -1;
	*ns = (uint64_t)(v * 1e9);
	return 0;
}

int rt_filter_parse_time(const char *arg, struct rt_filter *f)
{
	const char *comma = strchr(arg, ',');

	if (!comma)
		return -1;
	f->relative = true;
	f->from_ns = 0;
	f->to_ns = 0;
	if (comma != arg && seconds(arg, comma, &f->from_ns))
		return -1;
	if (comma[1] && seconds(comma + 1, comma + strlen(comma), &f->to_ns))
		return -1;
	return f->to_ns && f->to_ns < f->from_ns ? -1 : 0;
}

bool rt_filter_active(const struct rt_filter *f)
{
	return f->nr_pids || f->nr_tids || f->comm || f->cpus_given ||
	       f->events || f->min_latency_ns || f->min_offcpu_ns ||
	       f->relative;
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
		      ev->kind == RT_EVENT_SAMPLE || ev->kind == RT_EVENT_OFFCPU;

	if (!f->first_ns && ev->ts_ns)
		f->first_ns = ev->ts_ns;
	if (f->relative) {
		uint64_t t = ev->ts_ns - f->first_ns;

		if (t < f->from_ns || (f->to_ns && t > f->to_ns))
			return false;
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
		if (ev->kind == RT_EVENT_OFFCPU &&
		    !(f->events & RINGTRACE_EVENT_OFFCPU))
			return false;
	}
	if (f->min_offcpu_ns && ev->kind == RT_EVENT_OFFCPU &&
	    ev->u.offcpu.offcpu_ns < f->min_offcpu_ns)
		return false;
	if (f->min_latency_ns && ev->kind == RT_EVENT_VFS_READ &&
	    ev->u.vfs_read.lat_ns < f->min_latency_ns)
		return false;
	if (!tasked)
		return true;
	if (f->nr_pids && !has(f->pids, f->nr_pids, ev->pid))
		return false;
	if (f->nr_tids && !has(f->tids, f->nr_tids, ev->tid))
		return false;
	if (f->comm && strcmp(f->comm, ev->comm))
		return false;
	return true;
}
