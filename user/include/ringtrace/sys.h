/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The syscall seam. Every system call the library makes goes through
 * rt_sys, a table of function pointers that starts out pointing at the real
 * calls. Unit tests replace entries to play the kernel: a fake
 * /dev/ringtrace whose mmap() returns malloc'ed memory a fake producer
 * writes into, ioctls that fail with chosen errnos, and so on.
 *
 * libkmod calls have their own seam (sys_kmod.h) so that programs which do
 * not load modules need not link libkmod.
 */
#ifndef RINGTRACE_SYS_H
#define RINGTRACE_SYS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct epoll_event;
struct iovec;
struct perf_event_attr;

struct rt_sys {
	int	(*open)(const char *path, int flags, mode_t mode);
	int	(*close)(int fd);
	int	(*ioctl)(int fd, unsigned long request, void *arg);
	void	*(*mmap)(void *addr, size_t len, int prot, int flags, int fd,
			 off_t offset);
	int	(*munmap)(void *addr, size_t len);
	ssize_t	(*read)(int fd, void *buf, size_t len);
	ssize_t	(*write)(int fd, const void *buf, size_t len);
	ssize_t	(*writev)(int fd, const struct iovec *iov, int iovcnt);
	int	(*epoll_create1)(int flags);
	int	(*epoll_ctl)(int epfd, int op, int fd, struct epoll_event *ev);
	int	(*epoll_pwait)(int epfd, struct epoll_event *events, int max,
			       int timeout_ms, const sigset_t *sigmask);
	/* CLOCK_MONOTONIC in ns: the clock ringtrace timestamps use. */
	uint64_t (*now_ns)(void);
	/* For perf rings alongside: raw syscall, -1 + errno. */
	int	(*perf_event_open)(struct perf_event_attr *attr, pid_t pid,
				   int cpu, int group_fd, unsigned long flags);
	/*
	 * The calling thread's CPU mask (@size bytes of cpu_set_t) and nice
	 * value: where and how urgently the live reader runs (placement.h).
	 * 0 or -1 + errno; get_nice returns the value, or -1 + errno set.
	 */
	int	(*get_affinity)(size_t size, void *mask);
	int	(*set_affinity)(size_t size, const void *mask);
	int	(*get_nice)(void);
	int	(*set_nice)(int nice);
};

/* The live table; tests assign members, rt_sys_reset() restores them. */
extern struct rt_sys rt_sys;

void rt_sys_reset(void);

/* Read a small text file (sysfs) through the seam; NUL-terminates. */
ssize_t rt_sys_read_file(const char *path, char *buf, size_t len);

#endif /* RINGTRACE_SYS_H */
