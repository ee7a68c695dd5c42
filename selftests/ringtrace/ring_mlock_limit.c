// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ring memory is locked memory, accounted like perf's: a user may lock
 * ringtrace.mlock_kb KiB per online CPU, then RLIMIT_MEMLOCK more, and
 * CAP_IPC_LOCK goes past both. A process of uid 65534 with only
 * CAP_PERFMON and RLIMIT_MEMLOCK 64 KiB loops open, mmap, close (each
 * mapping keeps its session, so the fd limit bounds nothing): mmap fails
 * with EPERM before the rings pass the allowance plus the rlimit, the
 * kernel log names the limit, the charge comes back when the mappings go
 * (the same loop fits as many rings again), and with CAP_IPC_LOCK the
 * same process may map past the limit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "st_util.h"
#include "tap.h"

#define PARAM		"/sys/module/ringtrace/parameters/mlock_kb"
#define MLOCK_KB	64		/* per CPU, for this test */
#define RLIMIT_KB	64
#define DATA_PAGES	4		/* + control page: 5 pages a ring */
#define MAX_RINGS	64
#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

struct result {
	int mapped;		/* rings mapped before the first failure */
	int err;		/* its errno, 0 if none failed */
	int again;		/* after unmapping: rings mapped again */
};

static int set_caps(bool ipc_lock)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	data[CAP_PERFMON / 32].permitted |= 1u << (CAP_PERFMON % 32);
	if (ipc_lock)
		data[CAP_IPC_LOCK / 32].permitted |= 1u << (CAP_IPC_LOCK % 32);
	data[0].effective = data[0].permitted;
	data[1].effective = data[1].permitted;
	return (int)syscall(SYS_capset, &hdr, data);
}

/* Map rings (one session each, fd closed) until one fails. */
static int map_until_failure(void **maps, int *err, size_t len)
{
	int n;

	*err = 0;
	for (n = 0; n < MAX_RINGS; n++) {
		int fd = open(RINGTRACE_DEVICE_PATH, O_RDWR);

		if (fd < 0) {
			*err = errno;
			break;
		}
		maps[n] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, RINGTRACE_MMAP_OFFSET(0));
		if (maps[n] == MAP_FAILED)
			*err = errno;
		close(fd);
		if (*err)
			break;
	}
	return n;
}

static void child(int wfd, bool ipc_lock, size_t len)
{
	struct rlimit rl = { RLIMIT_KB * 1024, RLIMIT_KB * 1024 };
	struct result r = {};
	void *maps[MAX_RINGS];
	int i, err;

	if (setrlimit(RLIMIT_MEMLOCK, &rl) || prctl(PR_SET_KEEPCAPS, 1) ||
	    setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
	    set_caps(ipc_lock))
		_exit(100);
	r.mapped = map_until_failure(maps, &r.err, len);
	for (i = 0; i < r.mapped; i++)
		munmap(maps[i], len);
	r.again = map_until_failure(maps, &err, len);
	if (write(wfd, &r, sizeof(r)) != sizeof(r))
		_exit(101);
	_exit(0);
}

static bool run_child(bool ipc_lock, size_t len, struct result *r)
{
	int p[2], status;
	pid_t pid;
	bool ok;

	if (pipe(p))
		return false;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		child(p[1], ipc_lock, len);
	}
	close(p[1]);
	ok = pid > 0 && read(p[0], r, sizeof(*r)) == sizeof(*r);
	close(p[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return ok;
}

static bool log_names_limit(void)
{
	FILE *f = popen("dmesg | grep -c 'exceeds the locked-memory limit: ringtrace.mlock_kb'", "r");
	int n = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &n) != 1)
		n = 0;
	pclose(f);
	return n > 0;
}

static int write_param(const char *s)
{
	int fd = open(PARAM, O_WRONLY), err = 0;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		err = -1;
	close(fd);
	return err;
}

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (1 + DATA_PAGES) * page;
	long budget = (long)MLOCK_KB * st_online_cpus() + RLIMIT_KB;
	char old[32] = "", val[32];
	struct result r;
	struct stat st;
	int fd;

	tap_plan(6);
	/* A module without ring accounting has no knob: the checks fail. */
	fd = open(PARAM, O_RDONLY);
	if (fd < 0 || read(fd, old, sizeof(old) - 1) <= 0)
		tap_diag("%s: %s", PARAM, strerror(errno));
	if (fd >= 0)
		close(fd);
	snprintf(val, sizeof(val), "%d", MLOCK_KB);
	if ((old[0] && write_param(val)) || stat(RINGTRACE_DEVICE_PATH, &st) ||
	    chmod(RINGTRACE_DEVICE_PATH, 0666))
		tap_bail("cannot set up the limits: %s", strerror(errno));

	if (!run_child(false, len, &r))
		tap_bail("child (CAP_PERFMON only) failed");
	tap_diag("CAP_PERFMON only: %d rings of %zu KiB mapped, then %s; again: %d",
		 r.mapped, len / 1024, r.err ? strerror(r.err) : "no failure",
		 r.again);
	tap_ok(r.err == EPERM, "mmap past the limit fails with EPERM");
	tap_ok(r.mapped >= 1 && (long)(r.mapped * len / 1024) <= budget,
	       "%d rings = %zu KiB locked, within mlock_kb x CPUs + RLIMIT_MEMLOCK = %ld KiB",
	       r.mapped, r.mapped * len / 1024, budget);
	tap_ok(r.again == r.mapped,
	       "the charge comes back with the mappings (%d rings again)",
	       r.again);
	tap_ok(log_names_limit(), "the kernel log names ringtrace.mlock_kb");

	if (!run_child(true, len, &r))
		tap_bail("child (CAP_PERFMON + CAP_IPC_LOCK) failed");
	tap_ok(r.err == 0 && r.mapped == MAX_RINGS,
	       "with CAP_IPC_LOCK: %d rings mapped (%s)", r.mapped,
	       r.err ? strerror(r.err) : "no failure");

	if (old[0])
		write_param(old);
	chmod(RINGTRACE_DEVICE_PATH, st.st_mode & 07777);
	fd = open(PARAM, O_RDONLY);
	memset(val, 0, sizeof(val));
	tap_ok(fd >= 0 && read(fd, val, sizeof(val) - 1) > 0 && !strcmp(val, old),
	       "mlock_kb restored to %s", val);
	if (fd >= 0)
		close(fd);
	return tap_finish();
}
