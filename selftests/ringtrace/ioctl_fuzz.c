// SPDX-License-Identifier: GPL-2.0-only
/*
 * ioctl fuzzer, fixed seed: every ringtrace command number (and unknown
 * ones), with random size and direction bits, on an enabled and a
 * disabled session, with random structure contents and sizes (below the
 * first published size, exact, larger with zero or non-zero tails, above
 * a page, up to 4 GiB), and with bad pointers (NULL, unmapped, kernel
 * addresses, a structure running into an unmapped page). Every call must
 * return 0 or one of the errnos the ABI documents, the kernel must log no
 * splat (the runner checks), and both sessions must still work afterwards.
 * Events are limited to vfs_read and tracked locks, whose enabling patches
 * no code other vCPUs run (Documentation/testing.rst).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define SEED		0x5eed1234abcdULL
#define CALLS		20000

static uint64_t rng = SEED;

static uint64_t next(void)
{
	/* xorshift64*: deterministic, good enough to pick cases. */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static bool errno_expected(int e)
{
	switch (e) {
	case EFAULT: case EINVAL: case E2BIG: case ENOTTY: case EBUSY:
	case EOPNOTSUPP: case ESRCH: case ENOMEM:
		return true;
	default:
		return false;
	}
}

static uint32_t pick_size(size_t page)
{
	static const uint32_t sizes[] = { 0, 4, 8, 31, 32, 63, 64, 71, 72, 80,
					  96, 128, 255 };

	switch (next() % 6) {
	case 0:
		return (uint32_t)next();
	case 1:
		return (uint32_t)page + (uint32_t)(next() % 64);
	case 2:
		return (uint32_t)page - (uint32_t)(next() % 64);
	default:
		return sizes[next() % (sizeof(sizes) / sizeof(sizes[0]))];
	}
}

/* Random bytes, a chosen size field, events kept to safe ones. */
static void fill(unsigned char *buf, size_t len, uint32_t size, int nr)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)next();
	if (next() % 2)		/* zero tails are the interesting case too */
		memset(buf + 16, 0, len - 16);
	memcpy(buf, &size, sizeof(size));
	if (nr == 0x01) {
		struct ringtrace_config *c = (void *)buf;

		c->events &= RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_LOCK;
		if (next() % 4) {
			c->cpu_mask_ptr = 0;
			c->cpu_mask_bytes = 0;
		}
		if (next() % 2)
			c->pid = -1;
	}
}

static void *pick_pointer(unsigned char *buf, unsigned char *edge, size_t page)
{
	switch (next() % 8) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)0x10;
	case 2:
		return (void *)(uintptr_t)0xffffffff81000000ULL;	/* kernel */
	case 3:
		return edge - (next() % 128);	/* runs into PROT_NONE */
	case 4:
		return (void *)(uintptr_t)next();
	default:
		(void)page;
		return buf;
	}
}

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_LOCK, -1);
	struct st_session on, off;
	unsigned char *area, *buf, *edge;
	unsigned long calls = 0, unexpected = 0, ok = 0;
	struct ringtrace_stats st;
	int i;

	tap_plan(4);
	/* Two pages of room, then a PROT_NONE page. */
	area = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED || mprotect(area + 2 * page, page, PROT_NONE))
		tap_bail("mmap: %s", strerror(errno));
	buf = area;
	edge = area + 2 * page;

	st_session_open(&on, &cfg, 4);
	st_session_open(&off, &cfg, 4);
	if (st_enable(&on))
		tap_bail("ENABLE: %s", strerror(errno));

	for (i = 0; i < CALLS; i++) {
		struct st_session *s = next() % 2 ? &on : &off;
		int nr = (int)(next() % 8);	/* 6 and 7: unknown */
		uint32_t size = pick_size(page);
		unsigned int dir = (unsigned int)(next() % 4);
		unsigned long cmd;
		void *arg;
		int r;

		/* Any size bits, any direction: only type and number count. */
		cmd = _IOC(dir, RINGTRACE_IOC_MAGIC, nr, next() % 512);
		if (nr == 0x02 || nr == 0x03)
			if (next() % 8)	/* mostly keep the session's state */
				continue;
		fill(buf, 2 * page, size, nr);
		arg = pick_pointer(buf, edge, page);
		r = ioctl(s->fd, cmd, arg);
		calls++;
		if (!r) {
			ok++;
		} else if (!errno_expected(errno)) {
			if (unexpected++ < 5)
				tap_diag("nr %#x size %u: unexpected %s", nr, size,
					 strerror(errno));
		}
	}
	tap_diag("seed %#llx: %lu calls, %lu accepted", (unsigned long long)SEED,
		 calls, ok);
	tap_ok(unexpected == 0, "%lu calls: only documented errnos (%lu others)",
	       calls, unexpected);
	tap_ok(ok > 0, "some calls were accepted (%lu)", ok);

	/* Both sessions still answer, and DISABLE/ENABLE still work. */
	st_disable(&on);
	st_disable(&off);	/* a fuzzed ENABLE may have enabled it */
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, getpid());
	tap_ok(!ioctl(off.fd, RINGTRACE_IOC_SET_CONFIG, &cfg) &&
	       !st_stats(&off, &st) && !st_enable(&off) && !st_disable(&off),
	       "a fuzzed session can still be configured, enabled, disabled");
	i = st_stats(&on, &st);
	tap_ok(!i && st.nr_rings > 0, "the other one still reports its %u rings",
	       st.nr_rings);
	st_session_close(&on);
	st_session_close(&off);
	munmap(area, 3 * page);
	return tap_finish();
}
