// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perf_event_open() counter groups (see perf_counters.h for the contract).
 *
 * Layout: a slot is one perf_event_open() target (a CPU, or a thread) with
 * one fd per counter; rows are what gets reported (a CPU, or the whole
 * task: its threads' slots summed). Groups are decided per slot, so a CPU
 * that lacks an event (hybrid systems) only loses it there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/perf_event.h>

#include "ringtrace/perf_counters.h"
#include "ringtrace/sys.h"

#define READ_FORMAT	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING | \
			 PERF_FORMAT_ID | PERF_FORMAT_GROUP)
#define PARANOID_PATH	"/proc/sys/kernel/perf_event_paranoid"

int rt_counters_parse(struct rt_counters *cs, const char *list, char *err,
		      size_t errlen)
{
	const char *p = list;

	memset(cs, 0, sizeof(*cs));
	if (!strcmp(list, "default"))
		p = rt_perf_default_counters;
	while (*p) {
		size_t len = strcspn(p, ",");
		const struct rt_perf_event_desc *d = rt_perf_event_find(p, len);
		char names[512];

		if (!d) {
			rt_perf_event_names(names, sizeof(names), false);
			snprintf(err, errlen, "unknown counter '%.*s' (known: "
				 "default, %s)", (int)len, p, names);
			return -EINVAL;
		}
		if (rt_counters_find(cs, d->name) < 0) {
			if (cs->nr == RT_COUNTERS_MAX) {
				snprintf(err, errlen, "at most %d counters",
					 RT_COUNTERS_MAX);
				return -EINVAL;
			}
			cs->c[cs->nr].desc = d;
			snprintf(cs->c[cs->nr].name, RT_COUNTER_NAME_LEN, "%s",
				 d->name);
			cs->nr++;
		}
		p += len + (p[len] == ',');
	}
	if (!cs->nr) {
		snprintf(err, errlen, "no counter named");
		return -EINVAL;
	}
	return 0;
}

int rt_counters_find(const struct rt_counters *cs, const char *name)
{
	for (uint32_t i = 0; i < cs->nr; i++)
		if (!strcmp(cs->c[i].desc->name, name))
			return (int)i;
	return -1;
}

const char *rt_errno_name(int err)
{
	switch (err) {
	case ENOENT:	return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EINVAL:	return "EINVAL";
	case ENODEV:	return "ENODEV";
	case EACCES:	return "EACCES";
	case EPERM:	return "EPERM";
	case EBUSY:	return "EBUSY";
	case EMFILE:	return "EMFILE";
	case ENOSPC:	return "ENOSPC";
	case E2BIG:	return "E2BIG";
	case ESRCH:	return "ESRCH";
	case ENOMEM:	return "ENOMEM";
	}
	return NULL;
}

static int paranoid_level(void)
{
	char buf[32];

	if (rt_sys_read_file(PARANOID_PATH, buf, sizeof(buf)) <= 0)
		return -100;	/* unknown */
	return atoi(buf);
}

/* The sentence after "<not supported>": what the errno means here. */
static void explain(struct rt_counter *c, int err)
{
	const char *name = rt_errno_name(err);
	char num[16];
	int paranoid;

	if (!name) {
		snprintf(num, sizeof(num), "errno %d", err);
		name = num;
	}
	switch (err) {
	case ENOENT:
		snprintf(c->reason, sizeof(c->reason), "%s: %s", name,
			 c->desc->hardware ?
			 "no PMU counts this event here (hardware counters are "
			 "usually missing in virtual machines)" :
			 "this kernel does not know the event");
		return;
	case EOPNOTSUPP:
		snprintf(c->reason, sizeof(c->reason), "%s: the PMU cannot "
			 "count this event in this mode", name);
		return;
	case ENODEV:
		snprintf(c->reason, sizeof(c->reason), "%s: no PMU for this "
			 "event on this CPU", name);
		return;
	case EINVAL:
		snprintf(c->reason, sizeof(c->reason), "%s: the kernel refused "
			 "the event's attributes", name);
		return;
	case EACCES:
	case EPERM:
		paranoid = paranoid_level();
		if (paranoid > -100)
			snprintf(c->reason, sizeof(c->reason), "%s: not permitted "
				 "(kernel.perf_event_paranoid = %d): run as root "
				 "or lower it", name, paranoid);
		else
			snprintf(c->reason, sizeof(c->reason), "%s: not "
				 "permitted: run as root", name);
		return;
	case EBUSY:
		snprintf(c->reason, sizeof(c->reason), "%s: the PMU is taken "
			 "(by the NMI watchdog or another tool)", name);
		return;
	case EMFILE:
		snprintf(c->reason, sizeof(c->reason), "%s: too many open "
			 "files: raise `ulimit -n`", name);
		return;
	}
	snprintf(c->reason, sizeof(c->reason), "%s: %s", name, strerror(err));
}

static void make_attr(const struct rt_counters *cs, const struct rt_counter *c,
		      bool leader, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = c->desc->type;
	attr->config = c->desc->config;
	attr->read_format = READ_FORMAT;
	/* Siblings follow their leader: only leaders are enabled/disabled. */
	attr->disabled = leader;
	attr->inherit = !cs->target.per_cpu && !cs->target.threads_only;
	attr->enable_on_exec = leader && cs->target.enable_on_exec;
	attr->exclude_kernel = c->user_only;
	attr->exclude_hv = c->user_only;
}

/*
 * perf_event_open() once, or twice when the kernel side is refused for
 * lack of privilege (then the counter counts user space only, everywhere).
 */
static int open_one(struct rt_counters *cs, struct rt_counter *c,
		    const struct rt_counter_slot *slot, bool leader,
		    int group_fd)
{
	struct perf_event_attr attr;
	int fd, err;

	make_attr(cs, c, leader, &attr);
	fd = rt_sys.perf_event_open(&attr, slot->tid, slot->cpu, group_fd,
				    PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		return fd;
	err = errno;
	if ((err == EACCES || err == EPERM) && !c->user_only) {
		explain(c, err);
		c->user_only = true;
		make_attr(cs, c, leader, &attr);
		fd = rt_sys.perf_event_open(&attr, slot->tid, slot->cpu,
					    group_fd, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0) {
			snprintf(c->name, sizeof(c->name), "%s:u",
				 c->desc->name);
			/* Keep the first sentence: it says why ":u". */
			return fd;
		}
		c->user_only = false;
		err = errno;
	}
	errno = err;
	return -1;
}

static int slot_error(struct rt_counters *cs, const struct rt_counter_slot *s,
		      int err)
{
	if (err == ESRCH)
		snprintf(cs->errmsg, sizeof(cs->errmsg), "cannot count thread "
			 "%d: no such process", (int)s->tid);
	else
		snprintf(cs->errmsg, sizeof(cs->errmsg), "out of memory");
	return -err;
}

/* Open every counter in @s, group by group. */
static int open_slot(struct rt_counters *cs, struct rt_counter_slot *s)
{
	for (uint32_t i = 0; i < cs->nr; i++)
		s->fd[i] = -1;

	for (int g = 0; g < RT_PERF_GROUP_NR; g++) {
		int leader = -1;

		for (uint32_t i = 0; i < cs->nr; i++) {
			struct rt_counter *c = &cs->c[i];
			int fd, err;

			if ((int)c->desc->group != g)
				continue;
			fd = open_one(cs, c, s, leader < 0,
				      leader < 0 ? -1 : s->fd[leader]);
			err = errno;
			if (fd < 0 && err == ESRCH)
				return slot_error(cs, s, err);
			if (fd < 0 && leader >= 0) {
				/* The group cannot take it: count it alone. */
				fd = open_one(cs, c, s, true, -1);
				err = errno;
				if (fd >= 0) {
					c->ungrouped = true;
					s->leader[i] = i;
				}
			} else if (fd >= 0) {
				if (leader < 0)
					leader = (int)i;
				s->leader[i] = (uint32_t)leader;
			}
			if (fd < 0) {
				c->err = err;
				explain(c, err);
				continue;
			}
			s->fd[i] = fd;
			c->opened++;
			if (rt_sys.ioctl(fd, PERF_EVENT_IOC_ID, &s->id[i]) < 0)
				s->id[i] = UINT64_MAX;	/* unreadable in a group */
		}
	}
	return 0;
}

static void *zalloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static int alloc_rows(struct rt_counters *cs, uint32_t nr_rows)
{
	cs->rows = zalloc(nr_rows, sizeof(*cs->rows));
	cs->sum = zalloc(cs->nr, sizeof(*cs->sum));
	if (!cs->rows || !cs->sum)
		return -ENOMEM;
	cs->nr_rows = nr_rows;
	for (uint32_t r = 0; r < nr_rows; r++) {
		cs->rows[r].delta = zalloc(cs->nr, sizeof(*cs->rows[r].delta));
		cs->rows[r].total = zalloc(cs->nr, sizeof(*cs->rows[r].total));
		if (!cs->rows[r].delta || !cs->rows[r].total)
			return -ENOMEM;
	}
	return 0;
}

int rt_counters_open(struct rt_counters *cs, const struct rt_perf_target *t)
{
	uint32_t n = 0;
	bool by_slot;
	int ret;

	cs->target = *t;
	cs->nr_slots = t->per_cpu ? rt_cpuset_count(t->cpus) : t->nr_tids;
	cs->slots = zalloc(cs->nr_slots, sizeof(*cs->slots));
	/*
	 * A row per CPU, per thread of --per-thread (each counted alone,
	 * as its ring holds its records alone), or one for the process.
	 */
	by_slot = t->per_cpu || t->threads_only;
	if (!cs->slots || alloc_rows(cs, by_slot ? cs->nr_slots : 1)) {
		snprintf(cs->errmsg, sizeof(cs->errmsg), "out of memory");
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < cs->nr_slots; i++)
		for (uint32_t j = 0; j < RT_COUNTERS_MAX; j++)
			cs->slots[i].fd[j] = -1;

	if (t->per_cpu) {
		for (int cpu = rt_cpuset_next(t->cpus, -1); cpu >= 0;
		     cpu = rt_cpuset_next(t->cpus, cpu), n++) {
			cs->slots[n].cpu = cpu;
			cs->slots[n].tid = -1;
			cs->slots[n].row = n;
			cs->rows[n].cpu = cpu;
			cs->rows[n].pid = -1;
		}
	} else {
		for (; n < t->nr_tids; n++) {
			cs->slots[n].cpu = -1;
			cs->slots[n].tid = t->tids[n];
			cs->slots[n].row = by_slot ? n : 0;
			if (by_slot) {
				cs->rows[n].cpu = -1;
				cs->rows[n].pid = t->tids[n];
			}
		}
		if (!by_slot) {
			cs->rows[0].cpu = -1;
			cs->rows[0].pid = t->pid;
		}
	}
	for (uint32_t i = 0; i < cs->nr_slots; i++) {
		ret = open_slot(cs, &cs->slots[i]);
		if (ret)
			return ret;
	}
	/* Opened somewhere: the reason of a failure elsewhere is moot. */
	for (uint32_t i = 0; i < cs->nr; i++)
		if (cs->c[i].opened && !cs->c[i].user_only)
			cs->c[i].reason[0] = '\0';
	return 0;
}

static void each_leader(struct rt_counters *cs, unsigned long req)
{
	for (uint32_t i = 0; i < cs->nr_slots; i++) {
		struct rt_counter_slot *s = &cs->slots[i];

		for (uint32_t j = 0; j < cs->nr; j++)
			if (s->fd[j] >= 0 && s->leader[j] == j)
				rt_sys.ioctl(s->fd[j], req, NULL);
	}
}

int rt_counters_enable(struct rt_counters *cs, uint64_t now_ns)
{
	if (!cs->target.enable_on_exec)
		each_leader(cs, PERF_EVENT_IOC_ENABLE);
	cs->start_ns = now_ns;
	cs->last_read_ns = now_ns;
	return 0;
}

int rt_counters_disable(struct rt_counters *cs)
{
	each_leader(cs, PERF_EVENT_IOC_DISABLE);
	return 0;
}

uint64_t rt_counter_scale(uint64_t raw, uint64_t enabled, uint64_t running)
{
	unsigned __int128 v;

	if (!running)
		return enabled ? 0 : raw;	/* never on the PMU / no time yet */
	if (running >= enabled)
		return raw;
	v = (unsigned __int128)raw * enabled / running;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* Read one group: {nr, enabled, running, {value, id} x nr}. */
static bool read_group(struct rt_counters *cs, struct rt_counter_slot *s,
		       uint32_t leader)
{
	uint64_t buf[3 + 2 * RT_COUNTERS_MAX];
	ssize_t n = rt_sys.read(s->fd[leader], buf, sizeof(buf));
	uint64_t nr;

	if (n < (ssize_t)(3 * sizeof(uint64_t)))
		return false;
	nr = buf[0];
	if (nr > RT_COUNTERS_MAX || (uint64_t)n != (3 + 2 * nr) * sizeof(uint64_t))
		return false;
	for (uint64_t k = 0; k < nr; k++) {
		uint64_t value = buf[3 + 2 * k], id = buf[4 + 2 * k];

		for (uint32_t j = 0; j < cs->nr; j++) {
			if (s->fd[j] < 0 || s->leader[j] != leader ||
			    s->id[j] != id)
				continue;
			s->cur_raw[j] = value;
			s->cur_enabled[j] = buf[1];
			s->cur_running[j] = buf[2];
			break;
		}
	}
	return true;
}

static void add_value(struct rt_counter_value *v, uint64_t raw,
		      uint64_t enabled, uint64_t running)
{
	v->value += rt_counter_scale(raw, enabled, running);
	v->raw += raw;
	v->enabled_ns += enabled;
	v->running_ns += running;
}

static void set_status(struct rt_counter_value *v, bool opened)
{
	if (!opened)
		v->status = RT_COUNTER_NOT_SUPPORTED;
	else if (v->enabled_ns && !v->running_ns)
		v->status = RT_COUNTER_NOT_COUNTED;
	else
		v->status = RT_COUNTER_OK;
}

void rt_counters_read(struct rt_counters *cs, uint64_t now_ns)
{
	bool opened[RT_COUNTERS_MAX];

	for (uint32_t i = 0; i < cs->nr_slots; i++) {
		struct rt_counter_slot *s = &cs->slots[i];

		for (uint32_t j = 0; j < cs->nr; j++)
			if (s->fd[j] >= 0 && s->leader[j] == j &&
			    !read_group(cs, s, j))
				cs->read_errors++;
	}

	for (uint32_t r = 0; r < cs->nr_rows; r++) {
		memset(cs->rows[r].delta, 0, cs->nr * sizeof(*cs->rows[r].delta));
		memset(cs->rows[r].total, 0, cs->nr * sizeof(*cs->rows[r].total));
	}
	memset(cs->sum, 0, cs->nr * sizeof(*cs->sum));

	for (uint32_t r = 0; r < cs->nr_rows; r++) {
		struct rt_counter_row *row = &cs->rows[r];

		memset(opened, 0, sizeof(opened));
		for (uint32_t i = 0; i < cs->nr_slots; i++) {
			struct rt_counter_slot *s = &cs->slots[i];

			if (s->row != r)
				continue;
			for (uint32_t j = 0; j < cs->nr; j++) {
				if (s->fd[j] < 0)
					continue;
				opened[j] = true;
				add_value(&row->delta[j],
					  s->cur_raw[j] - s->last_raw[j],
					  s->cur_enabled[j] - s->last_enabled[j],
					  s->cur_running[j] - s->last_running[j]);
				add_value(&row->total[j], s->cur_raw[j],
					  s->cur_enabled[j], s->cur_running[j]);
			}
		}
		for (uint32_t j = 0; j < cs->nr; j++) {
			set_status(&row->delta[j], opened[j]);
			set_status(&row->total[j], opened[j]);
			cs->sum[j].value += row->total[j].value;
			cs->sum[j].raw += row->total[j].raw;
			cs->sum[j].enabled_ns += row->total[j].enabled_ns;
			cs->sum[j].running_ns += row->total[j].running_ns;
		}
	}
	for (uint32_t j = 0; j < cs->nr; j++)
		set_status(&cs->sum[j], cs->c[j].opened > 0);

	for (uint32_t i = 0; i < cs->nr_slots; i++) {
		struct rt_counter_slot *s = &cs->slots[i];

		memcpy(s->last_raw, s->cur_raw, sizeof(s->last_raw));
		memcpy(s->last_enabled, s->cur_enabled, sizeof(s->last_enabled));
		memcpy(s->last_running, s->cur_running, sizeof(s->last_running));
	}
	cs->last_read_ns = now_ns;
}

void rt_counters_close(struct rt_counters *cs)
{
	for (uint32_t i = 0; cs->slots && i < cs->nr_slots; i++)
		for (uint32_t j = 0; j < cs->nr; j++)
			if (cs->slots[i].fd[j] >= 0)
				rt_sys.close(cs->slots[i].fd[j]);
	for (uint32_t r = 0; cs->rows && r < cs->nr_rows; r++) {
		free(cs->rows[r].delta);
		free(cs->rows[r].total);
	}
	free(cs->rows);
	free(cs->slots);
	free(cs->sum);
	cs->rows = NULL;
	cs->slots = NULL;
	cs->sum = NULL;
	cs->nr_rows = 0;
	cs->nr_slots = 0;
	for (uint32_t i = 0; i < cs->nr; i++)
		cs->c[i].opened = 0;
}
