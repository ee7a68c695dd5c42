// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The real implementations behind the syscall seam (see sys.h). Each is a
 * thin adapter with no logic of its own, so what the tests replace is
 * exactly the kernel boundary.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "ringtrace/sys.h"

_Static_assert(sizeof(off_t) == 8, "mmap offsets need a 64-bit off_t");

static int sys_open(const char *path, int flags, mode_t mode)
{
	return open(path, flags | O_CLOEXEC, mode);
}

static int sys_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

static uint64_t sys_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
			       int cpu, int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			    flags);
}

/* pid/tid 0: the calling thread (Linux affinity and nice are per thread). */
static int sys_get_affinity(size_t size, void *mask)
{
	return sched_getaffinity(0, size, mask);
}

static int sys_set_affinity(size_t size, const void *mask)
{
	return sched_setaffinity(0, size, mask);
}

static int sys_get_nice(void)
{
	errno = 0;
	return getpriority(PRIO_PROCESS, 0);
}

static int sys_set_nice(int nice)
{
	return setpriority(PRIO_PROCESS, 0, nice);
}

/* One initializer for both tables (a const copy is not a constant). */
#define REAL_RT_SYS { \
	.open		= sys_open, \
	.close		= close, \
	.ioctl		= sys_ioctl, \
	.mmap		= mmap, \
	.munmap		= munmap, \
	.read		= read, \
	.write		= write, \
	.writev		= writev, \
	.epoll_create1	= epoll_create1, \
	.epoll_ctl	= epoll_ctl, \
	.epoll_pwait	= epoll_pwait, \
	.now_ns		= sys_now_ns, \
	.perf_event_open = sys_perf_event_open, \
	.get_affinity	= sys_get_affinity, \
	.set_affinity	= sys_set_affinity, \
	.get_nice	= sys_get_nice, \
	.set_nice	= sys_set_nice, \
}

static const struct rt_sys rt_sys_real = REAL_RT_SYS;

struct rt_sys rt_sys = REAL_RT_SYS;

void rt_sys_reset(void)
{
	rt_sys = rt_sys_real;
}

ssize_t rt_sys_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n, total = 0;
	int fd, saved;

	if (!len)
		return -EINVAL;
	fd = rt_sys.open(path, O_RDONLY, 0);
	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1) {
		n = rt_sys.read(fd, buf + total, len - 1 - (size_t)total);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			rt_sys.close(fd);
			return -saved;
		}
		if (n == 0)
			break;
		total += n;
	}
	buf[total] = '\0';
	rt_sys.close(fd);
	return total;
}
