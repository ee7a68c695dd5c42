// SPDX-License-Identifier: GPL-2.0-only
/*
 * Access without root (Documentation/security.rst): with /dev/ringtrace
 * given to a group, mode 0660 (what dist/60-ringtrace.rules does), a
 * non-root member without CAP_PERFMON may open it and ask GET_INFO, and
 * nothing else (SET_CONFIG, ENABLE, GET_STATS, LOCK_STATS, mmap: EPERM;
 * poll: POLLERR); a member holding CAP_PERFMON, and nothing else, gets a
 * session (configure, map, stats; enabling is left to the other tests); a non-member cannot open it at all, CAP_PERFMON or not. The
 * users are numeric (no passwd entry needed); each runs in a child that
 * reports errnos through a pipe. The device's owner and mode are put back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define GROUP		4242
#define MEMBER		4242
#define OUTSIDER	4343

/* What a child saw: 0 or the errno of each step. */
enum step { S_OPEN, S_INFO, S_CONFIG, S_ENABLE, S_STATS, S_LOCKSTATS,
	    S_MMAP, S_POLL, S_NR };
static const char *const step_name[S_NR] = {
	"open", "GET_INFO", "SET_CONFIG", "ENABLE", "GET_STATS", "LOCK_STATS",
	"mmap", "poll"
};

/* Become @uid/@gid with @groups and exactly the capabilities in @caps. */
static int become(uid_t uid, gid_t gid, gid_t *groups, int n, __u32 caps_hi)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	if (prctl(PR_SET_KEEPCAPS, 1) || setgroups(n, groups) ||
	    setresgid(gid, gid, gid) || setresuid(uid, uid, uid))
		return -1;
	/* CAP_PERFMON is 38: bit 6 of the second word. */
	data[1].effective = caps_hi;
	data[1].permitted = caps_hi;
	return syscall(SYS_capset, &hdr, data);
}

static int err_of(int ret)
{
	return ret < 0 ? errno : 0;
}

static void try_all(int res[S_NR])
{
	struct ringtrace_info info = { .size = sizeof(info) };
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	struct ringtrace_stats st = { .size = sizeof(st) };
	struct ringtrace_lock_stats_query q = {
		.size = sizeof(q),
		.entry_size = sizeof(struct ringtrace_lock_stat),
	};
	struct pollfd pfd;
	void *p;
	int fd;

	for (int i = 0; i < S_NR; i++)
		res[i] = -1;	/* not reached */
	fd = open(RINGTRACE_DEVICE_PATH, O_RDWR);
	res[S_OPEN] = err_of(fd);
	if (fd < 0)
		return;
	res[S_INFO] = err_of(ioctl(fd, RINGTRACE_IOC_GET_INFO, &info));
	res[S_CONFIG] = err_of(ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg));
	p = st_map(fd, 0, 1, PROT_READ | PROT_WRITE, MAP_SHARED);
	res[S_MMAP] = p == MAP_FAILED ? errno : 0;
	/*
	 * Enabling attaches the probes, which under TCG must not happen while
	 * another vCPU may run vfs_read (Documentation/testing.rst): only
	 * where it is expected to be refused before anything is attached.
	 */
	if (res[S_CONFIG])
		res[S_ENABLE] = err_of(ioctl(fd, RINGTRACE_IOC_ENABLE));
	res[S_STATS] = err_of(ioctl(fd, RINGTRACE_IOC_GET_STATS, &st));
	res[S_LOCKSTATS] = err_of(ioctl(fd, RINGTRACE_IOC_LOCK_STATS, &q));
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	res[S_POLL] = poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR) ? EPERM : 0;
	if (p != MAP_FAILED)
		munmap(p, 2 * (size_t)sysconf(_SC_PAGESIZE));
	close(fd);
}

/* Run try_all() as @uid in a child; false if the child failed to. */
static bool as_user(uid_t uid, gid_t gid, gid_t *groups, int n, __u32 caps_hi,
		    int res[S_NR])
{
	int p[2], status;
	pid_t pid;

	if (pipe(p))
		return false;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (become(uid, gid, groups, n, caps_hi))
			_exit(1);
		try_all(res);
		_exit(write(p[1], res, sizeof(int) * S_NR) ==
		      (ssize_t)(sizeof(int) * S_NR) ? 0 : 1);
	}
	close(p[1]);
	memset(res, 0xff, sizeof(int) * S_NR);
	if (pid < 0 || read(p[0], res, sizeof(int) * S_NR) !=
	    (ssize_t)(sizeof(int) * S_NR)) {
		close(p[0]);
		if (pid > 0)
			waitpid(pid, &status, 0);
		return false;
	}
	close(p[0]);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

static void show(const char *who, const int res[S_NR])
{
	for (int i = 0; i < S_NR; i++)
		tap_diag("%s: %s -> %s", who, step_name[i],
			 res[i] < 0 ? "not reached" :
			 res[i] ? strerror(res[i]) : "ok");
}

int main(void)
{
	const __u32 perfmon = 1u << (CAP_PERFMON - 32);
	gid_t member_groups[] = { GROUP };
	struct stat old;
	int res[S_NR];
	bool ok;

	tap_plan(6);
	if (stat(RINGTRACE_DEVICE_PATH, &old))
		tap_bail("no %s (module not loaded?)", RINGTRACE_DEVICE_PATH);
	/* What the udev rule does. */
	if (chown(RINGTRACE_DEVICE_PATH, 0, GROUP) ||
	    chmod(RINGTRACE_DEVICE_PATH, 0660))
		tap_bail("cannot chown/chmod %s: %s", RINGTRACE_DEVICE_PATH,
			 strerror(errno));

	ok = as_user(MEMBER, MEMBER, member_groups, 1, 0, res);
	tap_ok(ok && res[S_OPEN] == 0 && res[S_INFO] == 0,
	       "a group member without CAP_PERFMON opens it and gets GET_INFO");
	tap_ok(ok && res[S_CONFIG] == EPERM && res[S_ENABLE] == EPERM &&
	       res[S_STATS] == EPERM && res[S_LOCKSTATS] == EPERM &&
	       res[S_MMAP] == EPERM && res[S_POLL] == EPERM,
	       "and nothing else: SET_CONFIG, ENABLE, GET_STATS, LOCK_STATS, mmap EPERM, poll POLLERR");
	if (!ok || res[S_CONFIG] != EPERM)
		show("member", res);

	ok = as_user(MEMBER, MEMBER, member_groups, 1, perfmon, res);
	tap_ok(ok && res[S_OPEN] == 0 && res[S_CONFIG] == 0 &&
	       res[S_MMAP] == 0 && res[S_STATS] == 0 && res[S_LOCKSTATS] == 0,
	       "a group member with CAP_PERFMON (and no other capability) configures, maps, reads stats");
	if (!ok || res[S_CONFIG] != 0)
		show("member+perfmon", res);

	ok = as_user(OUTSIDER, OUTSIDER, NULL, 0, 0, res);
	tap_ok(ok && res[S_OPEN] == EACCES,
	       "a user outside the group cannot open it (EACCES)");
	ok = as_user(OUTSIDER, OUTSIDER, NULL, 0, perfmon, res);
	tap_ok(ok && res[S_OPEN] == EACCES,
	       "not even with CAP_PERFMON: the file mode is the door");

	ok = !chown(RINGTRACE_DEVICE_PATH, old.st_uid, old.st_gid) &&
	     !chmod(RINGTRACE_DEVICE_PATH, old.st_mode & 07777);
	tap_ok(ok, "device owner and mode restored");
	return tap_finish();
}
