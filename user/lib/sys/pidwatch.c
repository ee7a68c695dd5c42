// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Watching -p's processes exit, through pidfds (see pidwatch.h). */
#include <errno.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ringtrace/pidwatch.h"
#include "ringtrace/sys.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open	434	/* the same number on every architecture */
#endif

int rt_pidwatch_open(struct rt_pidwatch *w, const uint32_t *pids, uint32_t n,
		     int epfd, uint32_t *missing)
{
	int ret;

	w->nr = 0;
	w->left = 0;
	w->epfd = epfd;
	if (n > RT_PIDWATCH_MAX)
		return -E2BIG;
	for (uint32_t i = 0; i < n; i++) {
		struct epoll_event ev = { .events = EPOLLIN };
		int fd = (int)syscall(SYS_pidfd_open, (pid_t)pids[i], 0);

		if (fd < 0) {
			ret = -errno;
			if (ret == -ESRCH)
				*missing = pids[i];
			goto fail;
		}
		w->fds[w->nr++] = fd;
		w->left++;
		/* Level-triggered: an exit that came before the wait counts. */
		ev.data.fd = fd;
		if (epfd >= 0 && rt_sys.epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev)) {
			ret = -errno;
			goto fail;
		}
	}
	return 0;
fail:
	rt_pidwatch_close(w);
	return ret;
}

bool rt_pidwatch_all_exited(struct rt_pidwatch *w)
{
	if (!w->nr)
		return false;
	for (uint32_t i = 0; i < w->nr && w->left; i++) {
		struct pollfd p = { .fd = w->fds[i], .events = POLLIN };

		if (w->fds[i] < 0 || poll(&p, 1, 0) != 1)
			continue;
		/* Exited: out of the epoll set, or it would wake us forever. */
		if (w->epfd >= 0)
			rt_sys.epoll_ctl(w->epfd, EPOLL_CTL_DEL, w->fds[i], NULL);
		close(w->fds[i]);
		w->fds[i] = -1;
		w->left--;
	}
	return !w->left;
}

void rt_pidwatch_close(struct rt_pidwatch *w)
{
	for (uint32_t i = 0; i < w->nr; i++) {
		if (w->fds[i] < 0)
			continue;
		if (w->epfd >= 0)
			rt_sys.epoll_ctl(w->epfd, EPOLL_CTL_DEL, w->fds[i], NULL);
		close(w->fds[i]);
	}
	w->nr = 0;
	w->left = 0;
}
