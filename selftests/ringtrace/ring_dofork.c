// SPDX-License-Identifier: GPL-2.0-only
/*
 * A ring mapping is never inherited by a child: it is VM_DONTCOPY, and
 * madvise(MADV_DOFORK), which would clear that, is refused (EINVAL, as for
 * any VM_IO mapping), so a forked child does not see the ring.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

/* In the child: is @addr mapped? (mincore says ENOMEM if not.) */
static int child_sees(void *addr, size_t page)
{
	unsigned char vec;

	return mincore(addr, page, &vec) == 0;
}

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int fd, status, err;
	void *ring;
	pid_t pid;

	tap_plan(2);
	fd = st_open();
	ring = st_map(fd, 0, 1, PROT_READ | PROT_WRITE, MAP_SHARED);
	if (ring == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));

	err = madvise(ring, 2 * page, MADV_DOFORK) ? errno : 0;
	tap_ok(err == EINVAL, "madvise(MADV_DOFORK) on a ring: %s",
	       err ? strerror(err) : "accepted");

	pid = fork();
	if (pid == 0)
		_exit(child_sees(ring, page));
	tap_ok(pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "a forked child does not inherit the ring");

	munmap(ring, 2 * page);
	close(fd);
	return tap_finish();
}
