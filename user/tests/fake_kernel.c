// SPDX-License-Identifier: GPL-2.0-only
/* A fake /dev/ringtrace behind the syscall seam (see fake_kernel.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>

#include "ringtrace/sys.h"
#include "fake_kernel.h"

struct fake_kernel fk;

/* Read position in fk.online of the one open sysfs file. */
static const char *online_pos;

static int fk_open(const char *path, int flags, mode_t mode)
{
	(void)flags;
	(void)mode;
	if (!strcmp(path, "/sys/devices/system/cpu/online")) {
		online_pos = fk.online;
		return 50;
	}
	if (strcmp(path, RINGTRACE_DEVICE_PATH)) {
		errno = ENOENT;
		return -1;
	}
	if (fk.open_errno) {
		errno = fk.open_errno;
		return -1;
	}
	return FAKE_DEV_FD;
}

static ssize_t fk_read(int fd, void *buf, size_t len)
{
	size_t n = strlen(online_pos);

	if (fd != 50) {
		errno = EBADF;
		return -1;
	}
	n = n < len ? n : len;
	memcpy(buf, online_pos, n);
	online_pos += n;
	return (ssize_t)n;
}

static int fk_close(int fd)
{
	(void)fd;
	return 0;
}

static int fail_with(int err)
{
	errno = err;
	return -1;
}

static int fk_ioctl(int fd, unsigned long req, void *arg)
{
	if (fd != FAKE_DEV_FD)
		return fail_with(EBADF);
	switch (req) {
	case RINGTRACE_IOC_GET_INFO:
		if (fk.ioctl_errno[FK_INFO])
			return fail_with(fk.ioctl_errno[FK_INFO]);
		memcpy(arg, &fk.info, sizeof(fk.info));
		return 0;
	case RINGTRACE_IOC_SET_CONFIG:
		if (fk.ioctl_errno[FK_CONFIG])
			return fail_with(fk.ioctl_errno[FK_CONFIG]);
		memcpy(&fk.config, arg, sizeof(fk.config));
		if (fk.config.cpu_mask_ptr)
			memcpy(fk.cpu_mask, (void *)(uintptr_t)fk.config.cpu_mask_ptr,
			       fk.config.cpu_mask_bytes < sizeof(fk.cpu_mask) ?
			       fk.config.cpu_mask_bytes : sizeof(fk.cpu_mask));
		if ((fk.config.flags & RINGTRACE_CFG_PER_THREAD) &&
		    fk.config.nr_tids <= FAKE_MAX_CPUS)
			memcpy(fk.tids, (void *)(uintptr_t)fk.config.tids_ptr,
			       fk.config.nr_tids * sizeof(fk.tids[0]));
		fk.configured = true;
		return 0;
	case RINGTRACE_IOC_ENABLE:
		if (fk.ioctl_errno[FK_ENABLE])
			return fail_with(fk.ioctl_errno[FK_ENABLE]);
		fk.enabled = true;
		return 0;
	case RINGTRACE_IOC_DISABLE:
		fk.disable_calls++;
		fk.enabled = false;
		return 0;
	case RINGTRACE_IOC_GET_STATS:
		if (fk.ioctl_errno[FK_STATS])
			return fail_with(fk.ioctl_errno[FK_STATS]);
		memcpy(arg, &fk.stats, sizeof(fk.stats));
		return 0;
	}
	return fail_with(ENOTTY);
}

static void *fk_mmap(void *addr, size_t len, int prot, int flags, int fd,
		     off_t offset)
{
	uint64_t cpu = (uint64_t)offset >> RINGTRACE_MMAP_CPU_SHIFT;

	(void)addr;
	if (fd != FAKE_DEV_FD || prot != (PROT_READ | PROT_WRITE) ||
	    flags != MAP_SHARED || cpu >= FAKE_MAX_CPUS || fk.mapped[cpu] ||
	    fk.mmap_errno) {
		errno = fk.mmap_errno ? fk.mmap_errno : EINVAL;
		return MAP_FAILED;
	}
	fake_ring_init(&fk.rings[cpu], len - FAKE_PAGE, (uint32_t)cpu);
	fk.rings[cpu].page->compat_version = fk.compat_version;
	if (fk.config.flags & RINGTRACE_CFG_PER_THREAD) {
		/* ring i is the i-th thread's. */
		fk.rings[cpu].page->cpu = RINGTRACE_CPU_NONE;
		fk.rings[cpu].page->tid = (uint32_t)(fk.tids[cpu] + fk.tid_skew);
	}
	fk.mapped[cpu] = true;
	fk.nr_mmaps++;
	return fk.rings[cpu].base;
}

static int fk_munmap(void *addr, size_t len)
{
	for (int i = 0; i < FAKE_MAX_CPUS; i++) {
		if (fk.mapped[i] && fk.rings[i].base == addr) {
			if (fk.rings[i].map_len != len)
				abort();	/* unmapping the wrong length */
			fake_ring_free(&fk.rings[i]);
			fk.mapped[i] = false;
			return 0;
		}
	}
	return fail_with(EINVAL);
}

static int fk_epoll_create1(int flags)
{
	(void)flags;
	return FAKE_EPOLL_FD;
}

static int fk_epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
	(void)op;
	(void)ev;
	if (epfd != FAKE_EPOLL_FD || fd != FAKE_DEV_FD)
		return fail_with(EBADF);
	return 0;
}

static int fk_epoll_pwait(int epfd, struct epoll_event *evs, int max,
			  int timeout, const sigset_t *mask)
{
	(void)evs;
	(void)max;
	(void)mask;
	if (epfd != FAKE_EPOLL_FD)
		return fail_with(EBADF);
	fk.waits++;
	if (timeout > 0)
		fk.now += (uint64_t)timeout * 1000000;
	if (fk.on_wait)
		fk.on_wait(&fk);
	return 1;
}

static uint64_t fk_now(void)
{
	return fk.now;
}

static ssize_t fk_write(int fd, const void *buf, size_t len)
{
	if (fd != FAKE_OUT_FD)
		return fail_with(EBADF);
	fk.writes++;
	if (fk.write_errno)
		return fail_with(fk.write_errno);
	fk.out = realloc(fk.out, fk.out_len + len + 1);
	memcpy(fk.out + fk.out_len, buf, len);
	fk.out_len += len;
	fk.out[fk.out_len] = '\0';
	return (ssize_t)len;
}

/* One write, the pieces in order: the capture is what write() gives. */
static ssize_t fk_writev(int fd, const struct iovec *iov, int n)
{
	size_t total = 0;

	if (fd != FAKE_OUT_FD)
		return fail_with(EBADF);
	if (fk.writes < 64 && fk.mapped[fk.watch_cpu])
		fk.tail_at_write[fk.writes] =
			fk.rings[fk.watch_cpu].page->data_tail;
	fk.writes++;
	if (fk.write_errno)
		return fail_with(fk.write_errno);
	for (int i = 0; i < n; i++)
		total += iov[i].iov_len;
	fk.out = realloc(fk.out, fk.out_len + total + 1);
	for (int i = 0; i < n; i++) {
		memcpy(fk.out + fk.out_len, iov[i].iov_base, iov[i].iov_len);
		fk.out_len += iov[i].iov_len;
	}
	fk.out[fk.out_len] = '\0';
	return (ssize_t)total;
}

static int fk_get_affinity(size_t size, void *mask)
{
	if (size < sizeof(fk.affinity))
		return fail_with(EINVAL);
	memset(mask, 0, size);
	memcpy(mask, &fk.affinity, sizeof(fk.affinity));
	return 0;
}

static int fk_set_affinity(size_t size, const void *mask)
{
	uint64_t want = 0;

	memcpy(&want, mask, size < sizeof(want) ? size : sizeof(want));
	if (!want)
		return fail_with(EINVAL);
	fk.affinity = want;
	if (fk.affinity_calls < 16)
		fk.affinity_log[fk.affinity_calls] = want;
	fk.affinity_calls++;
	return 0;
}

static int fk_get_nice(void)
{
	errno = 0;
	return fk.nice;
}

static int fk_set_nice(int nice)
{
	if (fk.nice_errno)
		return fail_with(fk.nice_errno);
	fk.nice = nice;
	return 0;
}

void fake_kernel_install(void)
{
	memset(&fk, 0, sizeof(fk));
	fk.info.size = sizeof(fk.info);
	fk.info.abi_version = RINGTRACE_ABI_VERSION;
	fk.info.page_size = FAKE_PAGE;
	fk.info.nr_cpu_ids = 4;
	fk.info.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_LOCK;
	fk.info.max_ring_pages = 1024;
	fk.info.max_funcs = RINGTRACE_MAX_FUNCS;
	fk.info.func_attach = RINGTRACE_ATTACH_FPROBE;
	strcpy(fk.info.module_version, "test");
	fk.compat_version = RINGTRACE_ABI_VERSION;
	fk.online = "0-3\n";
	fk.now = 1000000000;
	fk.affinity = 0xf;

	rt_sys.open = fk_open;
	rt_sys.read = fk_read;
	rt_sys.close = fk_close;
	rt_sys.ioctl = fk_ioctl;
	rt_sys.mmap = fk_mmap;
	rt_sys.munmap = fk_munmap;
	rt_sys.epoll_create1 = fk_epoll_create1;
	rt_sys.epoll_ctl = fk_epoll_ctl;
	rt_sys.epoll_pwait = fk_epoll_pwait;
	rt_sys.now_ns = fk_now;
	rt_sys.write = fk_write;
	rt_sys.writev = fk_writev;
	rt_sys.get_affinity = fk_get_affinity;
	rt_sys.set_affinity = fk_set_affinity;
	rt_sys.get_nice = fk_get_nice;
	rt_sys.set_nice = fk_set_nice;
}

void fake_kernel_remove(void)
{
	for (int i = 0; i < FAKE_MAX_CPUS; i++)
		if (fk.mapped[i])
			fake_ring_free(&fk.rings[i]);
	free(fk.out);
	memset(&fk, 0, sizeof(fk));
	rt_sys_reset();
}
