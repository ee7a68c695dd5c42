// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * perf sampling rings behind the common cursor (see perf_ring.h). This
 * file only opens, maps and wires; reading is ring.c's, decoding is
 * record_perf.c's. Every system call goes through rt_sys.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>

#include <linux/perf_event.h>

#include "ringtrace/perf_counters.h"
#include "ringtrace/perf_ring.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/sys.h"

#define SAMPLE_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_IP)
#define MAX_RATE_PATH	"/proc/sys/kernel/perf_event_max_sample_rate"

int rt_perf_sample_parse(const char *arg, struct rt_perf_sample_spec *spec,
			 char *err, size_t errlen)
{
	size_t len = strcspn(arg, ":");
	const struct rt_perf_event_desc *d = rt_perf_event_find(arg, len);
	char names[256], *end;
	unsigned long long freq = RT_PERF_DEFAULT_FREQ;

	memset(spec, 0, sizeof(*spec));
	if (!d || !d->can_sample) {
		rt_perf_event_names(names, sizeof(names), true);
		snprintf(err, errlen, "cannot sample '%.*s' (sampling events: "
			 "%s)", (int)len, arg, names);
		return -EINVAL;
	}
	if (arg[len] == ':') {
		errno = 0;
		freq = strtoull(arg + len + 1, &end, 10);
		if (errno || end == arg + len + 1 || *end || !freq ||
		    freq > 1000000) {
			snprintf(err, errlen, "'%s': the frequency must be a whole "
				 "number of samples per second, 1 to 1000000",
				 arg);
			return -EINVAL;
		}
	}
	spec->desc = d;
	spec->freq = freq;
	spec->buffer_bytes = RT_PERF_DEFAULT_BUFFER_BYTES;
	return 0;
}

static int fail(struct rt_perf_sampler *ps, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct rt_perf_sampler *ps, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ps->errmsg, sizeof(ps->errmsg), fmt, ap);
	va_end(ap);
	return -err;
}

static uint64_t perf_ts(const struct rt_source *src, const struct rt_record *rec)
{
	const struct rt_perf_sampler *ps = src->ctx;

	return rt_perf_record_ts(&ps->fmt, rec->data, rec->size);
}

/* The decoder, plus thread names: COMM and FORK records feed the cache. */
static int perf_decode(struct rt_source *src, const struct rt_record *rec,
		       struct rt_event *ev)
{
	struct rt_perf_sampler *ps = src->ctx;
	int ret = rt_decode_perf(&ps->fmt, rec->data, rec->size, src->cpu, ev);

	if (ret != RT_DECODE_OK)
		return ret;
	if (rt_comm_track(ps->comms, ev))
		return RT_DECODE_SKIP;
	/* Live, user frames are named from /proc/PID/maps (usyms.h). */
	if (ev->kind == RT_EVENT_MMAP)
		return RT_DECODE_SKIP;
	return RT_DECODE_OK;
}

static void make_attr(const struct rt_perf_sampler *ps,
		      struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = ps->spec.desc->type;
	attr->config = ps->spec.desc->config;
	attr->freq = 1;
	attr->sample_freq = ps->spec.freq;
	attr->sample_type = ps->fmt.sample_type;
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
	attr->comm = 1;
	attr->comm_exec = 1;
	/*
	 * FORK records: a child bears its parent's name from fork to exec
	 * (a shell's subshells, the time before exec), as perf names it.
	 */
	attr->task = 1;
	/*
	 * A raw file names user frames on replay from the mappings: those
	 * made during the run come as MMAP2 records (executable ones only),
	 * with the binary's build-id where the kernel has it (Linux 5.12).
	 */
	attr->mmap = ps->spec.track_mmaps;
	attr->mmap2 = ps->spec.track_mmaps;
	attr->build_id = ps->spec.track_mmaps && ps->mmap_build_id;
	attr->disabled = 1;
	attr->inherit = !ps->per_cpu && !ps->threads_only;
	attr->enable_on_exec = ps->enable_on_exec;
	attr->exclude_kernel = ps->user_only;
	attr->exclude_hv = ps->user_only;
	attr->read_format = ps->has_lost_format ? PERF_FORMAT_LOST : 0;
	/* Wake the reader when a quarter of the ring is used. */
	attr->watermark = 1;
	attr->wakeup_watermark = (uint32_t)(ps->spec.buffer_bytes / 4);
}

static uint64_t max_sample_rate(void)
{
	char buf[32];

	if (rt_sys_read_file(MAX_RATE_PATH, buf, sizeof(buf)) <= 0)
		return 0;
	return strtoull(buf, NULL, 10);
}

/* Open one event, with the fallbacks of perf_ring.h. */
static int open_event(struct rt_perf_sampler *ps, pid_t tid, int cpu)
{
	struct perf_event_attr attr;
	uint64_t max;
	int fd, err;

	for (;;) {
		make_attr(ps, &attr);
		fd = rt_sys.perf_event_open(&attr, tid, cpu, -1,
					    PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			return fd;
		err = errno;
		if (err == EINVAL && attr.build_id) {
			ps->mmap_build_id = false;	/* before Linux 5.12 */
			continue;
		}
		if (err == EINVAL && ps->has_lost_format) {
			ps->has_lost_format = false;	/* before Linux 6.0 */
			continue;
		}
		if ((err == EACCES || err == EPERM) && !ps->user_only) {
			ps->user_only = true;
			continue;
		}
		break;
	}
	if (err == ESRCH)
		return fail(ps, err, "cannot sample thread %d: no such process",
			    (int)tid);
	max = max_sample_rate();
	if (err == EINVAL && max && ps->spec.freq > max)
		return fail(ps, err, "cannot sample %s at %llu Hz: above "
			    "kernel.perf_event_max_sample_rate (%llu); the kernel "
			    "lowers it when sampling interrupts are slow",
			    ps->spec.desc->name,
			    (unsigned long long)ps->spec.freq,
			    (unsigned long long)max);
	if (err == EACCES || err == EPERM)
		return fail(ps, err, "cannot sample %s: not permitted (see "
			    "kernel.perf_event_paranoid): run as root",
			    ps->spec.desc->name);
	return fail(ps, err, "cannot sample %s on CPU %d: %s%s%s",
		    ps->spec.desc->name, cpu,
		    rt_errno_name(err) ? rt_errno_name(err) : "",
		    rt_errno_name(err) ? ": " : "", strerror(err));
}

/* Map @fd as CPU @cpu's ring and put a cursor on it. */
static int map_ring(struct rt_perf_sampler *ps, uint32_t idx, int cpu, int fd)
{
	struct rt_perf_ring *ring = &ps->rings[idx];
	struct rt_source *src = &ps->srcs[idx];
	size_t len = ps->page_size + ps->spec.buffer_bytes;
	char why[160];
	int err;

	ring->cpu = cpu;
	ring->fd = fd;
	ring->base = rt_sys.mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				 fd, 0);
	if (ring->base == MAP_FAILED) {
		err = errno;
		ring->base = NULL;
		if (err == EPERM)
			return fail(ps, err, "cannot map a %zu-byte perf ring: "
				    "over kernel.perf_event_mlock_kb; use a "
				    "smaller --sample-buffer or run as root", len);
		return fail(ps, err, "cannot map the perf ring of CPU %d "
			    "(%zu bytes): %s", cpu, len, strerror(err));
	}
	ring->map_len = len;
	rt_source_init(src, (uint32_t)cpu);
	src->timestamp = perf_ts;
	src->decode = perf_decode;
	src->label = "perf ring of";
	src->raw_kind = RT_RAW_CHUNK_PERF_RECORDS;
	src->ctx = ps;
	if (rt_ring_init_mmap(&src->ring, ring->base, len, ps->page_size,
			      NULL, 0)) {
		rt_ring_describe_error(&src->ring, why, sizeof(why));
		return fail(ps, EPROTO, "perf ring of CPU %d: %s", cpu, why);
	}
	return 0;
}

static bool valid_buffer(uint64_t bytes, size_t page)
{
	uint64_t pages = bytes / page;

	return bytes >= page && !(bytes % page) && !(pages & (pages - 1));
}

int rt_perf_sampler_open(struct rt_perf_sampler *ps,
			 const struct rt_perf_sample_spec *spec,
			 const struct rt_perf_target *t, size_t page_size)
{
	uint32_t nr_cpus = rt_cpuset_count(t->cpus);
	uint32_t per_cpu_events = t->per_cpu ? 1 : t->nr_tids;
	uint32_t idx = 0;
	int ret;

	memset(ps, 0, sizeof(*ps));
	ps->spec = *spec;
	if (!ps->spec.buffer_bytes)
		ps->spec.buffer_bytes = RT_PERF_DEFAULT_BUFFER_BYTES;
	ps->page_size = page_size;
	ps->per_cpu = t->per_cpu;
	ps->enable_on_exec = !t->per_cpu && t->enable_on_exec;
	ps->threads_only = !t->per_cpu && t->threads_only;
	ps->has_lost_format = true;
	ps->mmap_build_id = true;
	if (!valid_buffer(ps->spec.buffer_bytes, page_size))
		return fail(ps, EINVAL, "--sample-buffer %llu: must be a "
			    "power-of-two number of %zu-byte pages",
			    (unsigned long long)ps->spec.buffer_bytes, page_size);
	rt_perf_format_init(&ps->fmt, SAMPLE_TYPE |
			    (spec->callchain ? PERF_SAMPLE_CALLCHAIN : 0), true,
			    spec->desc->name);

	ps->rings = calloc(nr_cpus ? nr_cpus : 1, sizeof(*ps->rings));
	ps->srcs = calloc(nr_cpus ? nr_cpus : 1, sizeof(*ps->srcs));
	ps->fds = calloc((size_t)nr_cpus * per_cpu_events + 1, sizeof(*ps->fds));
	ps->comms = malloc(sizeof(*ps->comms));
	if (!ps->rings || !ps->srcs || !ps->fds || !ps->comms)
		return fail(ps, ENOMEM, "out of memory");
	rt_comm_cache_init(ps->comms);

	for (int cpu = rt_cpuset_next(t->cpus, -1); cpu >= 0;
	     cpu = rt_cpuset_next(t->cpus, cpu), idx++) {
		int owner = -1;

		for (uint32_t i = 0; i < per_cpu_events; i++) {
			pid_t tid = t->per_cpu ? -1 : t->tids[i];
			int fd = open_event(ps, tid, cpu);

			if (fd < 0)
				return fd;
			ps->fds[ps->nr_fds++] = fd;
			if (owner < 0) {
				owner = fd;
				ps->nr_rings = idx + 1;
				ret = map_ring(ps, idx, cpu, fd);
				if (ret)
					return ret;
			} else if (rt_sys.ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT,
						(void *)(intptr_t)owner) < 0) {
				return fail(ps, errno, "cannot share the perf ring "
					    "of CPU %d: %s", cpu, strerror(errno));
			}
		}
	}
	return 0;
}

static void each_fd(struct rt_perf_sampler *ps, unsigned long req)
{
	for (uint32_t i = 0; i < ps->nr_fds; i++)
		rt_sys.ioctl(ps->fds[i], req, NULL);
}

int rt_perf_sampler_enable(struct rt_perf_sampler *ps)
{
	if (!ps->enable_on_exec)
		each_fd(ps, PERF_EVENT_IOC_ENABLE);
	return 0;
}

int rt_perf_sampler_disable(struct rt_perf_sampler *ps)
{
	each_fd(ps, PERF_EVENT_IOC_DISABLE);
	return 0;
}

int rt_perf_sampler_watch(struct rt_perf_sampler *ps, int epfd)
{
	for (uint32_t i = 0; i < ps->nr_rings; i++) {
		struct epoll_event ev = { .events = EPOLLIN | EPOLLET };

		if (rt_sys.epoll_ctl(epfd, EPOLL_CTL_ADD, ps->rings[i].fd,
				     &ev) < 0)
			return -errno;
	}
	return 0;
}

int64_t rt_perf_sampler_lost(struct rt_perf_sampler *ps)
{
	uint64_t v[2], sum = 0;

	if (!ps->has_lost_format)
		return -1;
	for (uint32_t i = 0; i < ps->nr_fds; i++) {
		if (rt_sys.read(ps->fds[i], v, sizeof(v)) != (ssize_t)sizeof(v))
			return -1;
		sum += v[1];
	}
	return (int64_t)sum;
}

void rt_perf_sampler_close(struct rt_perf_sampler *ps)
{
	for (uint32_t i = 0; ps->rings && i < ps->nr_rings; i++) {
		if (ps->srcs)
			rt_ring_fini(&ps->srcs[i].ring);
		if (ps->rings[i].base)
			rt_sys.munmap(ps->rings[i].base, ps->rings[i].map_len);
	}
	for (uint32_t i = 0; ps->fds && i < ps->nr_fds; i++)
		rt_sys.close(ps->fds[i]);
	free(ps->rings);
	free(ps->srcs);
	free(ps->fds);
	free(ps->comms);
	ps->rings = NULL;
	ps->srcs = NULL;
	ps->fds = NULL;
	ps->comms = NULL;
	ps->nr_rings = 0;
	ps->nr_fds = 0;
}
