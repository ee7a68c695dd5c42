// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmap shape rules: a ring is 1 control page + 2^n data pages, mapped
 * MAP_SHARED at RINGTRACE_MMAP_OFFSET(cpu); every other shape is refused;
 * data pages are zeroed and can never be written from userspace (SIGBUS),
 * the control page can; the mapping cannot be split, made executable,
 * grown or inherited by a child.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

static sigjmp_buf fault_jmp;
static volatile sig_atomic_t fault_sig;

static void on_fault(int sig)
{
	fault_sig = sig;
	siglongjmp(fault_jmp, 1);
}

/* Store to @p (after loading from it if @load_first); the signal, or 0. */
static int try_store(volatile unsigned char *p, bool load_first)
{
	struct sigaction sa = { .sa_handler = on_fault };

	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	fault_sig = 0;
	if (!sigsetjmp(fault_jmp, 1)) {
		if (load_first)
			(void)*p;
		*p = 0x5a;
	}
	signal(SIGBUS, SIG_DFL);
	signal(SIGSEGV, SIG_DFL);
	return fault_sig;
}

static bool refused(void *p, int want_errno)
{
	int err = errno;

	if (p != MAP_FAILED) {
		munmap(p, 4096);
		return false;
	}
	if (err != want_errno)
		tap_diag("errno %d (%s), want %d", err, strerror(err), want_errno);
	return err == want_errno;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

int main(void)
{
	const int rw = PROT_READ | PROT_WRITE;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct ringtrace_info info = { .size = sizeof(info) };
	struct ringtrace_mmap_page *ctl, *ctl2;
	unsigned char *base;
	int fd, fd2, status;
	pid_t pid;
	void *p;

	tap_plan(22);
	fd = st_open();
	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));

	tap_ok(refused(st_map(fd, 0, 3, rw, MAP_SHARED), EINVAL),
	       "1 + 3 pages (3 is not a power of two) is refused");
	tap_ok(refused(mmap(NULL, pg, rw, MAP_SHARED, fd, 0), EINVAL),
	       "the control page alone is refused");
	tap_ok(refused(st_map(fd, 0, info.max_ring_pages * 2, rw, MAP_SHARED),
		       EINVAL), "more than max_ring_pages is refused");
	tap_ok(refused(st_map(fd, 0, 4, rw, MAP_PRIVATE), EINVAL),
	       "MAP_PRIVATE is refused");
	tap_ok(refused(st_map(fd, 0, 4, PROT_READ | PROT_EXEC, MAP_SHARED),
		       EPERM), "PROT_EXEC is refused with EPERM");
	tap_ok(refused(mmap(NULL, 5 * pg, rw, MAP_SHARED, fd,
			    RINGTRACE_MMAP_OFFSET(0) + pg), EINVAL),
	       "an offset that names no CPU ring is refused");
	tap_ok(refused(st_map(fd, (int)info.nr_cpu_ids, 4, rw, MAP_SHARED),
		       EINVAL), "CPU nr_cpu_ids is refused");

	base = st_map(fd, 0, 4, rw, MAP_SHARED);
	if (base == MAP_FAILED)
		tap_bail("mmap 1 + 4 pages: %s", strerror(errno));
	ctl = (struct ringtrace_mmap_page *)base;
	tap_ok(ctl->version == RINGTRACE_ABI_VERSION &&
	       ctl->compat_version <= RINGTRACE_ABI_VERSION && ctl->cpu == 0,
	       "control page: version %u, compat %u, cpu %u", ctl->version,
	       ctl->compat_version, ctl->cpu);
	tap_ok(ctl->data_offset == pg && ctl->data_size == 4 * pg &&
	       ctl->data_head == 0 && ctl->data_tail == 0,
	       "control page: data at %llu, %llu bytes, head 0, tail 0",
	       (unsigned long long)ctl->data_offset,
	       (unsigned long long)ctl->data_size);
	tap_ok(all_zero(base + pg, 4 * pg), "data pages start zeroed");

	tap_ok(try_store(base + pg + 8, false) == SIGBUS,
	       "storing to a data page (first touch) raises SIGBUS");
	tap_ok(try_store(base + 3 * pg, true) == SIGBUS,
	       "storing to a data page after reading it raises SIGBUS");
	tap_ok(try_store((unsigned char *)&ctl->__reserved[100], false) == 0,
	       "the control page is writable");

	p = st_map(fd, 0, 8, rw, MAP_SHARED);
	tap_ok(refused(p, EINVAL), "a second mapping of another size is refused");
	p = st_map(fd, 0, 4, rw, MAP_SHARED);
	ctl2 = p;
	if (p != MAP_FAILED) {
		ctl2->data_tail = 0;
		ctl->__reserved[7] = 0x42;
	}
	tap_ok(p != MAP_FAILED && ctl2->__reserved[7] == 0x42,
	       "a second mapping of the same size shares the ring");
	if (p != MAP_FAILED)
		munmap(p, 5 * pg);

	fd2 = st_open();	/* a session of its own: CPU 0 is taken here */
	p = st_map(fd2, 0, 1, PROT_READ, MAP_SHARED);
	tap_ok(p != MAP_FAILED, "a read-only mapping is allowed");
	if (p != MAP_FAILED)
		munmap(p, 2 * pg);
	close(fd2);

	errno = 0;
	tap_ok(mprotect(base, 5 * pg, PROT_READ | PROT_EXEC) != 0 &&
	       errno == EACCES, "mprotect(PROT_EXEC) is refused");
	errno = 0;
	tap_ok(munmap(base + pg, pg) != 0 && errno == EINVAL,
	       "unmapping part of a ring is refused");
	errno = 0;
	p = mremap(base, 5 * pg, 9 * pg, 0);
	tap_ok(p == MAP_FAILED, "the mapping cannot grow (mremap: %s)",
	       strerror(errno));

	pid = fork();
	if (pid == 0)
		_exit(try_store(base + 16, true) == SIGSEGV ? 0 : 1);
	tap_ok(pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "a forked child does not inherit the mapping");

	tap_ok(munmap(base, 5 * pg) == 0, "the whole ring unmaps");
	/* The ring outlives its mappings: mapping it again finds it. */
	base = st_map(fd, 0, 4, rw, MAP_SHARED);
	ctl = (struct ringtrace_mmap_page *)base;
	tap_ok(base != MAP_FAILED && ctl->__reserved[7] == 0x42,
	       "mapping again finds the same ring");
	close(fd);
	return tap_finish();
}
