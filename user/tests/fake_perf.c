// SPDX-License-Identifier: GPL-2.0-only
/* A fake perf_event_open() behind the syscall seam (see fake_perf.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "ringtrace/sys.h"
#include "fake_perf.h"

#define PARANOID_FD	190
#define MAX_RATE_FD	191

struct fake_perf fp;
int fp_hw_errno = ENOENT;

static struct rt_sys prev;		/* what we were installed over */
static const char *file_pos[2];		/* read positions of the sysctls */

int fake_perf_index(int fd)
{
	int i = fd - FAKE_PERF_FD;

	return i >= 0 && i < fp.nr && !fp.ev[i].closed ? i : -1;
}

struct fake_perf_event *fake_perf_find(uint32_t type, uint64_t config, int n)
{
	for (int i = 0; i < fp.nr; i++)
		if (fp.ev[i].attr.type == type && fp.ev[i].attr.config == config &&
		    n-- == 0)
			return &fp.ev[i];
	return NULL;
}

int fake_perf_no_pmu(const struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd)
{
	(void)pid;
	(void)cpu;
	(void)group_fd;
	if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE)
		return fp_hw_errno;
	return 0;
}

static int fail_with(int err)
{
	errno = err;
	return -1;
}

static int fp_open_event(struct perf_event_attr *attr, pid_t pid, int cpu,
			 int group_fd, unsigned long flags)
{
	struct fake_perf_event *e;
	int err, leader = -1;

	fp.calls++;
	if (group_fd >= 0) {
		leader = fake_perf_index(group_fd);
		if (leader < 0)
			return fail_with(EBADF);
	}
	err = fp.policy ? fp.policy(attr, pid, cpu, group_fd) : 0;
	if (err)
		return fail_with(err);
	if (fp.nr == FAKE_PERF_MAX)
		return fail_with(EMFILE);
	e = &fp.ev[fp.nr];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->pid = pid;
	e->cpu = cpu;
	e->group_fd = group_fd;
	e->flags = flags;
	e->id = 1000 + (uint64_t)fp.nr;
	e->leader = leader >= 0 ? leader : fp.nr;
	e->output = -1;
	return FAKE_PERF_FD + fp.nr++;
}

static ssize_t group_read(int i, void *buf, size_t len)
{
	uint64_t v[3 + 2 * FAKE_PERF_MAX];
	int members[FAKE_PERF_MAX], n = 0;
	size_t bytes;

	for (int j = 0; j < fp.nr; j++)
		if (!fp.ev[j].closed && fp.ev[j].leader == i)
			members[n++] = j;
	v[0] = (uint64_t)n;
	v[1] = fp.ev[i].enabled;
	v[2] = fp.ev[i].running;
	for (int k = 0; k < n; k++) {
		/* The leader first, then siblings (reversed when asked). */
		int j = (fp.reverse_group_read && k) ? members[n - k] : members[k];

		v[3 + 2 * k] = fp.ev[j].value;
		v[4 + 2 * k] = fp.ev[j].id;
	}
	bytes = (3 + 2 * (size_t)n) * sizeof(uint64_t);
	if (fp.short_read) {
		fp.short_read = false;
		bytes = 8;
	}
	if (len < bytes)
		return fail_with(ENOSPC);
	memcpy(buf, v, bytes);
	return (ssize_t)bytes;
}

static ssize_t fp_read(int fd, void *buf, size_t len)
{
	int i = fake_perf_index(fd), slot = fd - PARANOID_FD;
	struct fake_perf_event *e;
	uint64_t v[4];
	size_t n = 0;

	if ((fd == PARANOID_FD || fd == MAX_RATE_FD) && file_pos[slot]) {
		size_t left = strlen(file_pos[slot]);

		n = left < len ? left : len;
		memcpy(buf, file_pos[slot], n);
		file_pos[slot] += n;
		return (ssize_t)n;
	}
	if (i < 0)
		return prev.read(fd, buf, len);
	e = &fp.ev[i];
	if (e->attr.read_format & PERF_FORMAT_GROUP)
		return group_read(i, buf, len);
	v[n++] = e->value;
	if (e->attr.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		v[n++] = e->enabled;
	if (e->attr.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		v[n++] = e->running;
	if (e->attr.read_format & PERF_FORMAT_LOST)
		v[n++] = e->lost;
	if (len < n * sizeof(uint64_t))
		return fail_with(ENOSPC);
	memcpy(buf, v, n * sizeof(uint64_t));
	return (ssize_t)(n * sizeof(uint64_t));
}

static int fp_open(const char *path, int flags, mode_t mode)
{
	if (!strcmp(path, "/proc/sys/kernel/perf_event_paranoid")) {
		if (!fp.paranoid)
			return fail_with(ENOENT);
		file_pos[0] = fp.paranoid;
		return PARANOID_FD;
	}
	if (!strcmp(path, "/proc/sys/kernel/perf_event_max_sample_rate")) {
		if (!fp.max_rate)
			return fail_with(ENOENT);
		file_pos[1] = fp.max_rate;
		return MAX_RATE_FD;
	}
	return prev.open(path, flags, mode);
}

static int fp_close(int fd)
{
	int i = fake_perf_index(fd);

	if (fd == PARANOID_FD || fd == MAX_RATE_FD)
		return 0;
	if (i < 0)
		return prev.close(fd);
	fp.ev[i].closed = true;
	return 0;
}

static int fp_ioctl(int fd, unsigned long req, void *arg)
{
	int i = fake_perf_index(fd), out;

	if (i < 0)
		return prev.ioctl(fd, req, arg);
	switch (req) {
	case PERF_EVENT_IOC_ID:
		*(uint64_t *)arg = fp.ev[i].id;
		return 0;
	case PERF_EVENT_IOC_ENABLE:
		fp.ev[i].enables++;
		return 0;
	case PERF_EVENT_IOC_DISABLE:
		fp.ev[i].disables++;
		return 0;
	case PERF_EVENT_IOC_SET_OUTPUT:
		out = fake_perf_index((int)(intptr_t)arg);
		if (out < 0 || !fp.ev[out].mapped ||
		    fp.ev[out].cpu != fp.ev[i].cpu)
			return fail_with(EINVAL);
		fp.ev[i].output = out;
		return 0;
	}
	return fail_with(ENOTTY);
}

static void *fp_mmap(void *addr, size_t len, int prot, int flags, int fd,
		     off_t offset)
{
	int i = fake_perf_index(fd);
	struct fake_perf_event *e;

	if (i < 0)
		return prev.mmap(addr, len, prot, flags, fd, offset);
	e = &fp.ev[i];
	if (fp.mmap_errno) {
		errno = fp.mmap_errno;
		return MAP_FAILED;
	}
	if (e->mapped || offset || flags != MAP_SHARED ||
	    prot != (PROT_READ | PROT_WRITE) || len <= FAKE_PAGE) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	fake_ring_init(&e->ring, len - FAKE_PAGE, (uint32_t)e->cpu);
	e->mapped = true;
	return e->ring.base;
}

static int fp_munmap(void *addr, size_t len)
{
	for (int i = 0; i < fp.nr; i++) {
		if (fp.ev[i].mapped && fp.ev[i].ring.base == addr) {
			if (fp.ev[i].ring.map_len != len)
				abort();
			fake_ring_free(&fp.ev[i].ring);
			fp.ev[i].mapped = false;
			return 0;
		}
	}
	return prev.munmap(addr, len);
}

static int fp_epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
	if (fake_perf_index(fd) >= 0) {
		fp.epoll_adds++;
		return 0;
	}
	return prev.epoll_ctl(epfd, op, fd, ev);
}

void fake_perf_install(void)
{
	memset(&fp, 0, sizeof(fp));
	fp.paranoid = "2\n";
	fp.max_rate = "100000\n";
	fp_hw_errno = ENOENT;
	prev = rt_sys;
	rt_sys.perf_event_open = fp_open_event;
	rt_sys.read = fp_read;
	rt_sys.open = fp_open;
	rt_sys.close = fp_close;
	rt_sys.ioctl = fp_ioctl;
	rt_sys.mmap = fp_mmap;
	rt_sys.munmap = fp_munmap;
	rt_sys.epoll_ctl = fp_epoll_ctl;
}

void fake_perf_remove(void)
{
	for (int i = 0; i < fp.nr; i++)
		if (fp.ev[i].mapped)
			fake_ring_free(&fp.ev[i].ring);
	memset(&fp, 0, sizeof(fp));
	rt_sys = prev;
}

/* ---- records ---- */

static void put_u64(unsigned char *p, size_t *off, uint64_t v)
{
	memcpy(p + *off, &v, sizeof(v));
	*off += sizeof(v);
}

static void put_u32x2(unsigned char *p, size_t *off, uint32_t a, uint32_t b)
{
	memcpy(p + *off, &a, 4);
	memcpy(p + *off + 4, &b, 4);
	*off += 8;
}

static void header(unsigned char *p, uint32_t type, size_t size)
{
	struct perf_event_header h = { .type = type, .misc = 0,
				       .size = (uint16_t)size };

	memcpy(p, &h, sizeof(h));
}

size_t fake_perf_sample(void *buf, uint64_t sample_type, uint64_t ip,
			uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu,
			const uint64_t *chain, uint32_t nr_chain)
{
	unsigned char *p = buf;
	size_t off = sizeof(struct perf_event_header);

	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		put_u64(p, &off, 77);
	if (sample_type & PERF_SAMPLE_IP)
		put_u64(p, &off, ip);
	if (sample_type & PERF_SAMPLE_TID)
		put_u32x2(p, &off, pid, tid);
	if (sample_type & PERF_SAMPLE_TIME)
		put_u64(p, &off, time);
	if (sample_type & PERF_SAMPLE_CPU)
		put_u32x2(p, &off, cpu, 0);
	if (sample_type & PERF_SAMPLE_PERIOD)
		put_u64(p, &off, 250000);
	if (sample_type & PERF_SAMPLE_CALLCHAIN) {
		put_u64(p, &off, nr_chain);
		for (uint32_t i = 0; i < nr_chain; i++)
			put_u64(p, &off, chain[i]);
	}
	header(p, PERF_RECORD_SAMPLE, off);
	return off;
}

static void sample_id(unsigned char *p, size_t *off, uint64_t time,
		      uint32_t cpu)
{
	put_u32x2(p, off, 999, 999);	/* tid of whoever was running */
	put_u64(p, off, time);
	put_u32x2(p, off, cpu, 0);
}

size_t fake_perf_lost(void *buf, uint64_t lost, uint64_t time, uint32_t cpu)
{
	unsigned char *p = buf;
	size_t off = sizeof(struct perf_event_header);

	put_u64(p, &off, 1234);		/* id */
	put_u64(p, &off, lost);
	sample_id(p, &off, time, cpu);
	header(p, PERF_RECORD_LOST, off);
	return off;
}

size_t fake_perf_mmap2(void *buf, uint32_t pid, uint32_t tid, uint64_t addr,
		       uint64_t len, uint64_t pgoff, const char *path,
		       const uint8_t *id, uint8_t id_len, uint64_t time,
		       uint32_t cpu)
{
	unsigned char *p = buf;
	size_t off = sizeof(struct perf_event_header), n = strlen(path) + 1;
	uint64_t v[3] = { addr, len, pgoff };
	struct perf_event_header h;

	put_u32x2(p, &off, pid, tid);
	memcpy(p + off, v, sizeof(v));
	off += sizeof(v);
	/* maj, min, ino, ino_generation; or size, 3 reserved, the id */
	memset(p + off, 0, 24);
	if (id_len) {
		p[off] = id_len;
		memcpy(p + off + 4, id, id_len);
	}
	off += 24;
	memset(p + off, 0, 8);			/* prot, flags */
	off += 8;
	memset(p + off, 0, (n + 7) / 8 * 8);
	memcpy(p + off, path, n);
	off += (n + 7) / 8 * 8;
	sample_id(p, &off, time, cpu);
	header(p, PERF_RECORD_MMAP2, off);
	if (id_len) {
		memcpy(&h, p, sizeof(h));
		h.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		memcpy(p, &h, sizeof(h));
	}
	return off;
}

size_t fake_perf_comm(void *buf, uint32_t pid, uint32_t tid, const char *comm,
		      uint64_t time, uint32_t cpu)
{
	unsigned char *p = buf;
	size_t off = sizeof(struct perf_event_header), len = strlen(comm) + 1;

	put_u32x2(p, &off, pid, tid);
	memset(p + off, 0, (len + 7) / 8 * 8);
	memcpy(p + off, comm, len);
	off += (len + 7) / 8 * 8;
	sample_id(p, &off, time, cpu);
	header(p, PERF_RECORD_COMM, off);
	return off;
}

size_t fake_perf_fork(void *buf, uint32_t pid, uint32_t ppid, uint32_t tid,
		      uint32_t ptid, uint64_t time, uint32_t cpu)
{
	unsigned char *p = buf;
	size_t off = sizeof(struct perf_event_header);

	put_u32x2(p, &off, pid, ppid);
	put_u32x2(p, &off, tid, ptid);
	put_u64(p, &off, time);
	sample_id(p, &off, time, cpu);
	header(p, PERF_RECORD_FORK, off);
	return off;
}
