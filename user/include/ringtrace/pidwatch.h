/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Watching the processes a trace was pointed at (ringtrace-cat -p PID):
 * perf record -p stops once they have exited, and so does ringtrace-cat
 * instead of running to the end of -d with nothing left to trace.
 *
 * Each process is held by a pidfd (pidfd_open(2), Linux 5.3), which
 * becomes readable when the process exits and cannot be confused with a
 * later process given the same pid. The pidfds join the session's epoll
 * set, so an exit wakes the reader; each is dropped from it once its exit
 * has been seen (it stays readable, and would wake the reader forever).
 * Only the processes named are watched: children they leave running are
 * not waited for.
 */
#ifndef RINGTRACE_PIDWATCH_H
#define RINGTRACE_PIDWATCH_H

#include <stdbool.h>
#include <stdint.h>

#define RT_PIDWATCH_MAX		64u

struct rt_pidwatch {
	int		fds[RT_PIDWATCH_MAX];	/* -1: exited and closed */
	uint32_t	nr;
	uint32_t	left;			/* not exited yet */
	int		epfd;			/* -1: none */
};

/*
 * Watch @pids (@n of them, at most RT_PIDWATCH_MAX), waking @epfd (-1:
 * none) when one exits. 0; -ESRCH with *@missing set when one does not
 * exist; -ENOSYS when the kernel has no pidfd_open, -EINVAL (-ENOENT
 * since Linux 6.9) for a thread that leads no process (nothing is
 * watched either way); another -errno.
 */
int rt_pidwatch_open(struct rt_pidwatch *w, const uint32_t *pids, uint32_t n,
		     int epfd, uint32_t *missing);

/*
 * Whether every watched process has exited (false when nothing is
 * watched). Looks without waiting; an exit seen is closed and leaves the
 * epoll set.
 */
bool rt_pidwatch_all_exited(struct rt_pidwatch *w);

void rt_pidwatch_close(struct rt_pidwatch *w);

#endif /* RINGTRACE_PIDWATCH_H */
