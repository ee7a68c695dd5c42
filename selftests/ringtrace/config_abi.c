// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ioctl ABI: extensible structures (size field, zero-filled when the
 * caller is older, E2BIG when it is newer and uses what we do not know),
 * validation of every configuration field, the enable/disable state
 * machine, and who may open the device at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

/* Bigger than any version of the structures: room for "newer" callers. */
union big {
	struct ringtrace_config cfg;
	struct ringtrace_info info;
	struct ringtrace_stats stats;
	unsigned char bytes[256];
};

static int ioctl_errno(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static int config_errno(int fd, struct ringtrace_config cfg)
{
	return ioctl_errno(fd, RINGTRACE_IOC_SET_CONFIG, &cfg);
}

static bool check_errno(int got, int want, const char *what)
{
	return tap_ok(got == want, "%s: %s", what,
		      got ? strerror(got) : "accepted");
}

/* open() as an unprivileged user, in a child: the errno, or 0. */
static int unprivileged_open_errno(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(200);
		_exit(open(RINGTRACE_DEVICE_PATH, O_RDWR) < 0 ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void info_checks(int fd)
{
	union big b;
	int err;

	memset(&b, 0, sizeof(b));
	b.info.size = RINGTRACE_INFO_SIZE_VER0 - 8;
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_GET_INFO, &b), EINVAL,
		    "GET_INFO smaller than version 0");

	memset(&b, 0xff, sizeof(b));
	b.info.size = sizeof(b);
	err = ioctl_errno(fd, RINGTRACE_IOC_GET_INFO, &b);
	tap_ok(err == 0 &&
	       b.info.size == sizeof(struct ringtrace_info) &&
	       b.bytes[sizeof(struct ringtrace_info)] == 0xff,
	       "GET_INFO from a newer caller fills what it knows (%u bytes) and no more",
	       b.info.size);
	tap_ok(b.info.abi_version == RINGTRACE_ABI_VERSION &&
	       b.info.page_size == (unsigned int)sysconf(_SC_PAGESIZE) &&
	       b.info.nr_cpu_ids >= (unsigned int)st_online_cpus() &&
	       (b.info.events & RINGTRACE_EVENT_VFS_READ) &&
	       memchr(b.info.module_version, 0,
		      sizeof(b.info.module_version)) &&
	       b.info.module_version[0],
	       "GET_INFO: ABI %u, page %u, %u CPU ids, events %#llx, version %.32s",
	       b.info.abi_version, b.info.page_size, b.info.nr_cpu_ids,
	       (unsigned long long)b.info.events, b.info.module_version);
}

static void config_checks(int fd)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	unsigned char mask[4] = { 0 };
	union big b;

	cfg.size = RINGTRACE_CONFIG_SIZE_VER0 - 8;
	check_errno(config_errno(fd, cfg), EINVAL,
		    "SET_CONFIG smaller than version 0");

	memset(&b, 0, sizeof(b));
	b.cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	b.cfg.size = sizeof(b);
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_SET_CONFIG, &b), 0,
		    "SET_CONFIG from a newer caller, unknown fields zero");
	b.bytes[sizeof(b) - 1] = 1;
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_SET_CONFIG, &b), E2BIG,
		    "SET_CONFIG from a newer caller using an unknown field");

	cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	cfg.flags = 1u << 31;
	check_errno(config_errno(fd, cfg), EINVAL, "unknown config flag");
	check_errno(config_errno(fd, st_config(0, -1)), EINVAL, "no events");
	check_errno(config_errno(fd, st_config(1ull << 63, -1)), EOPNOTSUPP,
		    "unknown event");
	check_errno(config_errno(fd, st_config(RINGTRACE_EVENT_VFS_READ, 0)),
		    EINVAL, "pid 0");
	check_errno(config_errno(fd, st_config(RINGTRACE_EVENT_VFS_READ, -2)),
		    EINVAL, "pid -2");
	check_errno(config_errno(fd, st_config(RINGTRACE_EVENT_VFS_READ,
					       0x3ffffff0)),
		    ESRCH, "pid of no process");

	cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	cfg.flush_ms = 3600 * 1000;
	check_errno(config_errno(fd, cfg), EINVAL, "flush_ms of an hour");

	cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	cfg.cpu_mask_ptr = (uintptr_t)mask;
	cfg.cpu_mask_bytes = sizeof(mask);
	check_errno(config_errno(fd, cfg), EINVAL, "empty CPU mask");
	mask[3] = 0x80;	/* CPU 31 */
	check_errno(config_errno(fd, cfg),
		    st_online_cpus() > 31 ? 0 : EINVAL,
		    "CPU mask naming a CPU that does not exist");
	mask[3] = 0;
	mask[0] = 1;
	check_errno(config_errno(fd, cfg), 0, "CPU mask {0}");
	cfg.cpu_mask_ptr = 0;
	check_errno(config_errno(fd, cfg), EINVAL,
		    "CPU mask size without a pointer");
	cfg.cpu_mask_ptr = 8;	/* unmapped */
	check_errno(config_errno(fd, cfg), EFAULT, "CPU mask at a bad address");
}

static void state_checks(int fd)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	union big b;
	void *ring;
	int err;

	check_errno(config_errno(fd, cfg), 0, "SET_CONFIG, all CPUs");
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_ENABLE, NULL), EINVAL,
		    "ENABLE with no ring mapped");
	ring = st_map(fd, 0, 1, PROT_READ | PROT_WRITE, MAP_SHARED);
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_ENABLE, NULL), 0,
		    "ENABLE with a ring");
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_ENABLE, NULL), 0,
		    "ENABLE again is a no-op");
	check_errno(config_errno(fd, cfg), EBUSY, "SET_CONFIG while enabled");
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_DISABLE, NULL), 0, "DISABLE");
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_DISABLE, NULL), 0,
		    "DISABLE again is a no-op");
	check_errno(config_errno(fd, cfg), 0, "SET_CONFIG once disabled");

	memset(&b, 0, sizeof(b));
	b.stats.size = 8;
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_GET_STATS, &b), EINVAL,
		    "GET_STATS smaller than version 0");
	b.stats.size = sizeof(b.stats);
	err = ioctl_errno(fd, RINGTRACE_IOC_GET_STATS, &b);
	tap_ok(err == 0 &&
	       b.stats.nr_rings == 1 &&
	       b.stats.produced == b.stats.records + b.stats.lost,
	       "GET_STATS: %u ring, produced %llu = records %llu + lost %llu",
	       b.stats.nr_rings, (unsigned long long)b.stats.produced,
	       (unsigned long long)b.stats.records,
	       (unsigned long long)b.stats.lost);
	check_errno(ioctl_errno(fd, _IO(RINGTRACE_IOC_MAGIC, 0x7f), NULL),
		    ENOTTY, "unknown ioctl");
	if (ring != MAP_FAILED)
		munmap(ring, 2 * (size_t)sysconf(_SC_PAGESIZE));
}

int main(void)
{
	int fd;

	tap_plan(30);
	fd = st_open();
	info_checks(fd);
	config_checks(fd);
	state_checks(fd);
	close(fd);
	check_errno(unprivileged_open_errno(), EACCES,
		    "open by an unprivileged user");
	return tap_finish();
}
