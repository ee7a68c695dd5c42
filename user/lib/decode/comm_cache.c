// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Thread names for perf samples (see comm_cache.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/comm_cache.h"
#include "ringtrace/sys.h"

static uint32_t home(uint32_t tid)
{
	/* Fibonacci hashing: consecutive tids spread over the table. */
	return (uint32_t)(((uint64_t)tid * 2654435761u) >> 8) &
	       (RT_COMM_CACHE_SLOTS - 1);
}

void rt_comm_cache_init(struct rt_comm_cache *c)
{
	memset(c, 0, sizeof(*c));
}

void rt_comm_set(struct rt_comm_cache *c, uint32_t tid, const char *comm)
{
	uint32_t h = home(tid), key = tid + 1;
	struct rt_comm_entry *victim = &c->e[h];

	for (uint32_t i = 0; i < RT_COMM_CACHE_PROBE; i++) {
		struct rt_comm_entry *e = &c->e[(h + i) & (RT_COMM_CACHE_SLOTS - 1)];

		if (e->key == key || !e->key) {
			victim = e;
			break;
		}
	}
	if (victim->key && victim->key != key)
		c->evicted++;
	victim->key = key;
	/* NUL-padded like the kernel's comm; at most 16 bytes kept. */
	memset(victim->comm, 0, sizeof(victim->comm));
	memcpy(victim->comm, comm, strnlen(comm, sizeof(victim->comm)));
}

static const struct rt_comm_entry *find(const struct rt_comm_cache *c,
					uint32_t tid)
{
	uint32_t h = home(tid), key = tid + 1;

	for (uint32_t i = 0; i < RT_COMM_CACHE_PROBE; i++) {
		const struct rt_comm_entry *e =
			&c->e[(h + i) & (RT_COMM_CACHE_SLOTS - 1)];

		if (e->key == key)
			return e;
		if (!e->key)
			break;
	}
	return NULL;
}

void rt_comm_inherit(struct rt_comm_cache *c, uint32_t tid, uint32_t ptid)
{
	const struct rt_comm_entry *parent = find(c, ptid);
	char comm[RINGTRACE_COMM_LEN + 1];

	if (!parent || tid == ptid)
		return;
	memcpy(comm, parent->comm, RINGTRACE_COMM_LEN);
	comm[RINGTRACE_COMM_LEN] = '\0';
	rt_comm_set(c, tid, comm);
}

void rt_comm_get(const struct rt_comm_cache *c, uint32_t tid, char *out)
{
	const struct rt_comm_entry *e = find(c, tid);

	if (e) {
		memcpy(out, e->comm, RINGTRACE_COMM_LEN);
		out[RINGTRACE_COMM_LEN] = '\0';
	} else if (tid == 0) {
		snprintf(out, RINGTRACE_COMM_LEN + 1, "swapper");
	} else {
		snprintf(out, RINGTRACE_COMM_LEN + 1, ":%u", tid);
	}
}

bool rt_comm_track(struct rt_comm_cache *c, struct rt_event *ev)
{
	switch (ev->kind) {
	case RT_EVENT_COMM:
		rt_comm_set(c, ev->tid, ev->comm);
		return true;
	case RT_EVENT_FORK:
		rt_comm_inherit(c, ev->tid, ev->u.fork.ptid);
		return true;
	case RT_EVENT_SAMPLE:
	case RT_EVENT_MMAP:
		rt_comm_get(c, ev->tid, ev->comm);
		return false;
	default:
		return false;
	}
}

static unsigned int scan_tasks(struct rt_comm_cache *c, const char *pid)
{
	char path[600], comm[RINGTRACE_COMM_LEN + 2];
	unsigned int n = 0;
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%s/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		ssize_t len;

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task/%s/comm", pid,
			 d->d_name);
		len = rt_sys_read_file(path, comm, sizeof(comm));
		if (len <= 0)
			continue;
		if (comm[len - 1] == '\n')
			comm[len - 1] = '\0';
		rt_comm_set(c, (uint32_t)strtoul(d->d_name, NULL, 10), comm);
		n++;
	}
	closedir(dir);
	return n;
}

unsigned int rt_comm_cache_scan(struct rt_comm_cache *c, pid_t pid)
{
	unsigned int n = 0;
	struct dirent *d;
	char buf[16];
	DIR *dir;

	if (pid > 0) {
		snprintf(buf, sizeof(buf), "%d", (int)pid);
		return scan_tasks(c, buf);
	}
	dir = opendir("/proc");
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9')
			n += scan_tasks(c, d->d_name);
	closedir(dir);
	return n;
}
