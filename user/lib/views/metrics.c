// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The exporter's fixed table of series (metrics.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ringtrace.h>

#include "ringtrace/hash.h"
#include "ringtrace/metrics.h"
#include "ringtrace/output.h"

int rt_metrics_init(struct rt_metrics *m, uint32_t max_series)
{
	uint32_t cap = 1;

	memset(m, 0, sizeof(*m));
	if (!max_series || max_series > RT_METRICS_MAX_SERIES)
		return -EINVAL;
	/* At most half full: probes stay short. */
	while (cap < 2 * max_series)
		cap <<= 1;
	m->max_series = max_series;
	m->index_mask = cap - 1;
	m->series = calloc((size_t)max_series + 2, sizeof(*m->series));
	m->index = calloc(cap, sizeof(*m->index));
	if (!m->series || !m->index) {
		rt_metrics_fini(m);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < 2; i++) {
		struct rt_metrics_series *o = &m->series[max_series + i];

		o->used = true;
		o->cls = i ? RT_MC_NONE : RT_MC_NR;	/* NR: "other" class */
		strcpy(o->comm, "[other]");
		strcpy(o->cgroup, "[other]");
		strcpy(o->func, "[other]");
	}
	return 0;
}

void rt_metrics_fini(struct rt_metrics *m)
{
	free(m->series);
	free(m->index);
	m->series = NULL;
	m->index = NULL;
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

enum rt_metrics_class rt_metrics_file_class(const char *path)
{
	size_t kind;

	if (!path)
		return RT_MC_UNNAMED;
	if (starts_with(path, "/dev/"))
		return RT_MC_DEVICE;
	if (starts_with(path, "/proc/") || starts_with(path, "/sys/"))
		return RT_MC_PROCFS;
	if (path[0] == '/')
		return RT_MC_FILE;
	if (starts_with(path, "pipe:"))
		return RT_MC_PIPE;
	if (starts_with(path, "socket:"))
		return RT_MC_SOCKET;
	/* "anon_inode:[eventfd]", "memfd:x": a file of no directory. */
	kind = strspn(path, "abcdefghijklmnopqrstuvwxyz_");
	if (kind && path[kind] == ':')
		return RT_MC_ANON;
	return RT_MC_FILE;	/* a path as d_path gives it, made relative */
}

const char *rt_metrics_class_name(enum rt_metrics_class c)
{
	static const char *const names[] = {
		[RT_MC_FILE]	= "file",
		[RT_MC_DEVICE]	= "device",
		[RT_MC_PROCFS]	= "procfs",
		[RT_MC_PIPE]	= "pipe",
		[RT_MC_SOCKET]	= "socket",
		[RT_MC_ANON]	= "anon",
		[RT_MC_UNNAMED]	= "unnamed",
		[RT_MC_NONE]	= "none",
		[RT_MC_NR]	= "other",
	};

	return (unsigned int)c <= RT_MC_NR ? names[c] : "other";
}

static uint32_t fnv_str(uint32_t h, const char *s)
{
	h = rt_fnv32_str(h, s);
	/* The end too: ("ab", "") and ("a", "b") differ. */
	return (h ^ 0xff) * RT_FNV32_PRIME;
}

/* FNV-1a over the key: cgroup id, comm, class, function. */
static uint32_t key_hash(uint64_t cgroup_id, const char *comm, uint8_t cls,
			 const char *func)
{
	uint32_t h = RT_FNV32_INIT;

	for (unsigned int i = 0; i < 8; i++)
		h = (h ^ (uint8_t)(cgroup_id >> (8 * i))) * RT_FNV32_PRIME;
	h = fnv_str(h, comm);
	h ^= cls;
	return fnv_str(h * RT_FNV32_PRIME, func);
}

static void cgroup_name(struct rt_metrics_series *s, const struct rt_event *ev)
{
	if (!s->cgroup_id)
		strcpy(s->cgroup, "-");
	else if (ev->ext.cgroup)
		snprintf(s->cgroup, sizeof(s->cgroup), "%s", ev->ext.cgroup);
	else
		snprintf(s->cgroup, sizeof(s->cgroup), "#%llu",
			 (unsigned long long)s->cgroup_id);
}

static struct rt_metrics_series *lookup(struct rt_metrics *m,
					const struct rt_event *ev, uint8_t cls,
					const char *func)
{
	uint64_t cg = ev->ext.present ? ev->ext.cgroup_id : 0;
	uint32_t i = key_hash(cg, ev->comm, cls, func) & m->index_mask;
	struct rt_metrics_series *s;

	for (;; i = (i + 1) & m->index_mask) {
		uint32_t slot = m->index[i];

		if (!slot)
			break;
		s = &m->series[slot - 1];
		if (s->cgroup_id == cg && s->cls == cls &&
		    !strcmp(s->comm, ev->comm) && !strcmp(s->func, func)) {
			/* A cgroup record may name it after its first use. */
			if (cg && s->cgroup[0] == '#' && ev->ext.cgroup)
				cgroup_name(s, ev);
			return s;
		}
	}
	if (m->nr_series == m->max_series) {
		m->other_records++;
		return &m->series[m->max_series + (cls == RT_MC_NONE)];
	}
	s = &m->series[m->nr_series++];
	m->index[i] = m->nr_series;
	s->used = true;
	s->cls = cls;
	s->cgroup_id = cg;
	memcpy(s->comm, ev->comm, sizeof(s->comm));
	snprintf(s->func, sizeof(s->func), "%s", func);
	cgroup_name(s, ev);
	return s;
}

static void hist_add(struct rt_metrics_hist *h, uint64_t ns)
{
	unsigned int b = 0;

	while (b < RT_METRICS_BOUNDS && ns > rt_metrics_bound_ns(b))
		b++;
	h->count++;
	h->sum_ns += ns;
	h->bucket[b]++;
}

void rt_metrics_add(struct rt_metrics *m, const struct rt_event *ev)
{
	char hex[RT_FUNC_LABEL_MAX];
	struct rt_metrics_series *s;

	if ((unsigned int)ev->kind < RT_EVENT_KIND_MAX)
		m->records[ev->kind]++;
	switch (ev->kind) {
	case RT_EVENT_LOST:
		m->lost += ev->u.lost.count;
		break;
	case RT_EVENT_VFS_READ:
		s = lookup(m, ev, rt_metrics_file_class(ev->u.vfs_read.path),
			   "");
		hist_add(&s->h[RT_MH_VFS_READ], ev->u.vfs_read.lat_ns);
		if (ev->u.vfs_read.ret > 0)
			s->bytes += (uint64_t)ev->u.vfs_read.ret;
		else if (ev->u.vfs_read.ret < 0)
			s->errors++;
		break;
	case RT_EVENT_LOCK:
		s = lookup(m, ev, RT_MC_NONE, "");
		hist_add(&s->h[RT_MH_LOCK_WAIT], ev->u.lock.wait_ns);
		/* Kernel contention records know no hold time (as --hist). */
		if (!(ev->u.lock.flags & RINGTRACE_LOCK_KERNEL))
			hist_add(&s->h[RT_MH_LOCK_HOLD], ev->u.lock.hold_ns);
		break;
	case RT_EVENT_OFFCPU:
		s = lookup(m, ev, RT_MC_NONE, "");
		hist_add(&s->h[RT_MH_OFFCPU], ev->u.offcpu.offcpu_ns);
		break;
	case RT_EVENT_FUNC:
		/* Named as every view names it: hex without a name. */
		s = lookup(m, ev, RT_MC_NONE,
			   rt_output_func_label(ev->u.func.idx, ev->u.func.ip,
						hex));
		hist_add(&s->h[RT_MH_FUNC], ev->u.func.lat_ns);
		break;
	default:
		break;
	}
}
