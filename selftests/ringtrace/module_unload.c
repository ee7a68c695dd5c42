// SPDX-License-Identifier: GPL-2.0-only
/*
 * Module lifetime: an open fd or a live mapping pins ringtrace.ko (unload
 * refused), closing everything lets it unload cleanly, even with a session
 * still enabled and producing when its fd was closed, and it loads again.
 * Unloading leaves nothing behind: no device, no debugfs entry, no kprobe.
 * Runs last: it unloads the module (and leaves it loaded again).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

static int unload(void)
{
	return syscall(SYS_delete_module, "ringtrace", O_NONBLOCK) ? errno : 0;
}

static int load(void)
{
	int fd = open(st_ko("kmod/ringtrace.ko"), O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, "", 0))
		err = errno;
	close(fd);
	return err;
}

static bool loaded(void)
{
	struct stat sb;

	return stat("/sys/module/ringtrace", &sb) == 0;
}

static int spin_reads(void *arg)
{
	char buf[16];
	int fd = open("/dev/zero", O_RDONLY);

	(void)arg;
	for (;;)
		if (read(fd, buf, sizeof(buf)) < 0)
			return 1;
}

int main(void)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct st_child busy;
	int fd, err;
	void *ring;

	tap_plan(8);
	if (!loaded())
		tap_bail("ringtrace is not loaded");

	fd = st_open();
	err = unload();
	tap_ok((err == EWOULDBLOCK || err == EBUSY) && loaded(),
	       "an open fd pins the module (%s)", strerror(err));

	ring = st_map(fd, 0, 1, PROT_READ | PROT_WRITE, MAP_SHARED);
	close(fd);
	err = unload();
	tap_ok(ring != MAP_FAILED && (err == EWOULDBLOCK || err == EBUSY) &&
	       loaded(), "a mapping alone pins it (%s)", strerror(err));
	munmap(ring, 2 * pg);
	err = unload();
	tap_ok(err == 0 && !loaded(), "unmapped: it unloads (%s)",
	       err ? strerror(err) : "ok");
	tap_ok(access(RINGTRACE_DEVICE_PATH, F_OK) != 0 &&
	       access("/sys/kernel/debug/ringtrace", F_OK) != 0 &&
	       !st_probes_on("vfs_read"),
	       "/dev/ringtrace, its debugfs directory and every probe are gone");

	err = load();
	tap_ok(err == 0 && loaded(), "it loads again (%s)",
	       err ? strerror(err) : "ok");

	/*
	 * Close an enabled session that was tracing a busy process, without
	 * DISABLE, then unload. The process stops first: patching vfs_read
	 * while another vCPU runs it crashes QEMU TCG guests
	 * (Documentation/testing.rst).
	 */
	fd = st_open();
	ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg);
	ring = st_map(fd, 0, 1, PROT_READ | PROT_WRITE, MAP_SHARED);
	tap_ok(ring != MAP_FAILED && ioctl(fd, RINGTRACE_IOC_ENABLE) == 0 &&
	       st_probes_on("vfs_read"),
	       "a session traces a busy process (a probe on vfs_read)");
	st_child_start(&busy, spin_reads, NULL);
	st_child_go(&busy);
	usleep(200000);
	kill(busy.pid, SIGKILL);
	st_child_wait(&busy);
	munmap(ring, 2 * pg);
	close(fd);
	err = unload();
	tap_ok(err == 0 && !loaded(),
	       "closed while enabled: it unloads (%s)",
	       err ? strerror(err) : "ok");

	err = load();
	tap_ok(err == 0, "and loads again (%s)", err ? strerror(err) : "ok");
	return tap_finish();
}
