// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ioctl ABI can grow: the kernel tells commands apart by type and
 * number only, and each structure's size field decides how much the
 * caller knows. A binary built when a structure was smaller (or larger)
 * passes a different command number, with the size bits of its own
 * sizeof, and must keep working: the first published sizes (64-byte
 * ringtrace_stats, as _IOR() encoded it then) and a future, larger size
 * are accepted; sizes above a page are refused with E2BIG (as clone3 and
 * openat2 do), whatever the tail holds, and so is a LOCK_STATS entry_size
 * above a page.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define M RINGTRACE_IOC_MAGIC

static int ioctl_errno(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? errno : 0;
}

static bool check_errno(int got, int want, const char *what)
{
	return tap_ok(got == want, "%s: %s (want %s)", what,
		      got ? strerror(got) : "accepted",
		      want ? strerror(want) : "accepted");
}

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *buf = calloc(1, 2 * page);
	struct ringtrace_lock_stats_query q;
	struct ringtrace_stat_v0 {
		__u32 size;
		unsigned char rest[RINGTRACE_STATS_SIZE_VER0 - 4];
	} old_stats = { .size = RINGTRACE_STATS_SIZE_VER0 };
	struct ringtrace_lock_stat e[2];
	struct ringtrace_config cfg;
	int fd;

	tap_plan(15);
	if (!buf)
		tap_bail("out of memory");
	fd = st_open();

	/* The numbers a binary built against the first header passed. */
	check_errno(ioctl_errno(fd, _IOR(M, 0x04, struct ringtrace_stat_v0),
				&old_stats), 0,
		    "GET_STATS with the first command number and 64-byte size");
	tap_ok(old_stats.size == RINGTRACE_STATS_SIZE_VER0,
	       "only the 64 bytes it knows are filled (size %u)", old_stats.size);

	/* A newer binary: bigger structures, zero tails, other numbers. */
	memset(buf, 0, 2 * page);
	*(__u32 *)buf = 128;
	check_errno(ioctl_errno(fd, _IOR(M, 0x00, unsigned char[128]), buf), 0,
		    "GET_INFO with a 128-byte structure and its command number");
	tap_ok(*(__u32 *)buf == sizeof(struct ringtrace_info),
	       "GET_INFO says it filled %u bytes", *(__u32 *)buf);

	cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	memset(buf, 0, 2 * page);
	memcpy(buf, &cfg, sizeof(cfg));
	*(__u32 *)buf = 96;
	check_errno(ioctl_errno(fd, _IOW(M, 0x01, unsigned char[96]), buf), 0,
		    "SET_CONFIG with a 96-byte structure, zero tail");
	*(__u32 *)buf = (__u32)page;
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_SET_CONFIG, buf), 0,
		    "SET_CONFIG with a page-sized structure, zero tail");

	/* Above a page: E2BIG before looking at the tail. */
	*(__u32 *)buf = (__u32)page + 1;
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_SET_CONFIG, buf), E2BIG,
		    "SET_CONFIG size page + 1");
	*(__u32 *)buf = 0xffffffffu;
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_SET_CONFIG, buf), E2BIG,
		    "SET_CONFIG size 4 GiB - 1");
	*(__u32 *)buf = (__u32)page + 1;
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_GET_INFO, buf), E2BIG,
		    "GET_INFO size page + 1");
	*(__u32 *)buf = 0xffffffffu;
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_GET_STATS, buf), E2BIG,
		    "GET_STATS size 4 GiB - 1");

	memset(&q, 0, sizeof(q));
	q.size = 0xffffffffu;
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_LOCK_STATS, &q), E2BIG,
		    "LOCK_STATS size 4 GiB - 1");
	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.entry_size = 0xffffffffu;
	q.nr_entries = 2;
	q.entries = (uintptr_t)e;
	check_errno(ioctl_errno(fd, RINGTRACE_IOC_LOCK_STATS, &q), E2BIG,
		    "LOCK_STATS entry_size 4 GiB - 1");
	q.entry_size = sizeof(e[0]);
	check_errno(ioctl_errno(fd, _IOWR(M, 0x05, unsigned char[16]), &q), 0,
		    "LOCK_STATS with another size in its command number");

	/* Type and number still matter. */
	check_errno(ioctl_errno(fd, _IOR(M + 1, 0x04, struct ringtrace_stats),
				buf), ENOTTY, "another ioctl type");
	check_errno(ioctl_errno(fd, _IOR(M, 0x3f, struct ringtrace_stats), buf),
		    ENOTTY, "an unknown command number");

	close(fd);
	free(buf);
	return tap_finish();
}
