// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running out of memory for rings ends in ENOMEM, not in the OOM killer.
 * A child in a memory cgroup limited to 32 MiB (so the test cannot starve
 * the VM) maps 4 MiB rings, one session each, until mmap fails: it must
 * fail with ENOMEM and the child must live on (before the fix, the memcg
 * OOM killer killed it), and the cgroup logs no OOM kill.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define CG_ROOT		"/run/ringtrace-cg"
#define CG		CG_ROOT "/enomem"
#define LIMIT		(32 << 20)
#define RING_PAGES	1024		/* 4 MiB with 4 KiB pages */
#define MAX_RINGS	64		/* 256 MiB: far past the limit */

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		err = -1;
	close(fd);
	return err;
}

static long read_key(const char *path, const char *key)
{
	char k[64];
	long v, found = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", k, &v) == 2)
		if (!strcmp(k, key))
			found = v;
	fclose(f);
	return found;
}

/* Exit status: 0 ENOMEM reached, 1 another errno, 2 never failed. */
static int child(void)
{
	size_t len = (1 + (size_t)RING_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	char pid[32];
	int n;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_file(CG "/cgroup.procs", pid))
		return 3;
	for (n = 0; n < MAX_RINGS; n++) {
		int fd = open(RINGTRACE_DEVICE_PATH, O_RDWR);
		void *p;

		if (fd < 0)
			return 1;
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 RINGTRACE_MMAP_OFFSET(0));
		close(fd);
		if (p == MAP_FAILED) {
			printf("# ring %d: %s\n", n, strerror(errno));
			return errno == ENOMEM ? 0 : 1;
		}
	}
	return 2;
}

int main(void)
{
	int status;
	char limit[32];
	pid_t pid;
	long kills;

	tap_plan(3);
	mkdir(CG_ROOT, 0755);
	if (mount("none", CG_ROOT, "cgroup2", 0, NULL) && errno != EBUSY)
		tap_skip_all("cannot mount cgroup2: %s", strerror(errno));
	if (write_file(CG_ROOT "/cgroup.subtree_control", "+memory"))
		tap_skip_all("no memory controller (CONFIG_MEMCG)");
	if (mkdir(CG, 0755) && errno != EEXIST)
		tap_bail("mkdir %s: %s", CG, strerror(errno));
	snprintf(limit, sizeof(limit), "%d", LIMIT);
	if (write_file(CG "/memory.max", limit))
		tap_bail("cannot limit %s", CG);
	write_file(CG "/memory.swap.max", "0");	/* absent without swap */

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(child());
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		tap_bail("fork/wait: %s", strerror(errno));

	tap_ok(WIFEXITED(status), "the child lives on (%s %d)",
	       WIFEXITED(status) ? "exit" : "signal",
	       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "mmap fails with ENOMEM once the cgroup is full");
	kills = read_key(CG "/memory.events", "oom_kill");
	tap_ok(kills == 0, "no OOM kill in the cgroup (oom_kill %ld)", kills);

	rmdir(CG);
	umount(CG_ROOT);
	rmdir(CG_ROOT);
	return tap_finish();
}
