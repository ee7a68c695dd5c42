// SPDX-License-Identifier: GPL-2.0-only
/*
 * User stacks on vfs_read records (stack_user_depth): the frame-pointer
 * walk. This program is built with frame pointers; a child calls
 * level1() -> level2() -> level3(), which makes the read system call
 * itself (no libc wrapper without a frame in between). Every record's user
 * stack must start in level3, then level2 and level1. A second session
 * asks for 2 frames: exactly 2, flagged USER_TRUNCATED. A third reads with
 * its frame pointer on a frame that points at itself (a frame-pointer
 * loop): the walk stops after that frame, flagged USER_LOOP,
 * instead of stopping silently (perf's walk repeats such a frame up to
 * its depth).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define NR_READS	10

static int zero_fd = -1;
static int loop_mode;

static __attribute__((noipa)) long level1(void *buf);
/* The return address of the looping frame: one byte into level1. */
#define LOOP_RET	((unsigned long)(uintptr_t)level1 + 1)

int main(void);

static __attribute__((noipa)) void not_a_leaf(void)
{
}

/*
 * Calls another function so that it has a frame of its own: a frameless
 * leaf (like libc's read() wrapper) hides its caller from the walk, as
 * from perf --call-graph fp.
 */
static __attribute__((noipa)) long level3(void *buf)
{
	long ret;

	not_a_leaf();
#if defined(__aarch64__)
	{
		register long x8 __asm__("x8") = SYS_read;
		register long x0 __asm__("x0") = zero_fd;
		register long x1 __asm__("x1") = (long)buf;
		register long x2 __asm__("x2") = 64;

		__asm__ volatile("svc #0"
				 : "+r"(x0)
				 : "r"(x8), "r"(x1), "r"(x2)
				 : "memory");
		ret = x0;
	}
#else
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"((long)SYS_read), "D"((long)zero_fd), "S"(buf),
			   "d"(64L)
			 : "rcx", "r11", "memory");
#endif
	return ret;
}

/*
 * noipa: no clone (.isra, .constprop) with another address than the one
 * where() compares with. The empty asm after each call keeps it a call,
 * not a tail jump.
 */
static __attribute__((noipa)) long level2(void *buf)
{
	long ret = level3(buf);

	__asm__ volatile("" ::: "memory");
	return ret;
}

/*
 * read() with the frame pointer on a frame whose saved frame pointer is
 * itself, and whose return address is @fake; the frame pointer is saved
 * in a callee-saved register and restored around the system call.
 */
#if defined(__x86_64__)
/* No push: this function's locals may sit in the red zone below %rsp. */
static __attribute__((noipa)) long loop_read(void *buf, unsigned long fake)
{
	unsigned long frame[2];
	long ret;

	frame[0] = (unsigned long)(uintptr_t)frame;
	frame[1] = fake;
	__asm__ volatile("mov %%rbp, %%r12\n\t"
			 "mov %[f], %%rbp\n\t"
			 "syscall\n\t"
			 "mov %%r12, %%rbp"
			 : "=a"(ret)
			 : "a"((long)SYS_read), "D"((long)zero_fd), "S"(buf),
			   "d"(64L), [f] "r"(frame)
			 : "rcx", "r11", "r12", "memory");
	return ret;
}
#elif defined(__aarch64__)
/* An AAPCS64 frame record: 16 bytes, 16-byte aligned, as the walk wants. */
static __attribute__((noipa)) long loop_read(void *buf, unsigned long fake)
{
	register long x8 __asm__("x8") = SYS_read;
	register long x0 __asm__("x0") = zero_fd;
	register long x1 __asm__("x1") = (long)buf;
	register long x2 __asm__("x2") = 64;
	unsigned long frame[2] __attribute__((aligned(16)));

	frame[0] = (unsigned long)(uintptr_t)frame;
	frame[1] = fake;
	__asm__ volatile("mov x19, x29\n\t"
			 "mov x29, %[f]\n\t"
			 "svc #0\n\t"
			 "mov x29, x19"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), [f] "r"(frame)
			 : "x19", "memory");
	return x0;
}
#else
#error "stack_user: no system call staged for this architecture"
#endif

static __attribute__((noipa)) long level1(void *buf)
{
	long ret = level2(buf);

	__asm__ volatile("" ::: "memory");
	return ret;
}

static int workload(void *arg)
{
	char buf[64];
	int i;

	(void)arg;
	for (i = 0; i < NR_READS; i++)
		if ((loop_mode ? loop_read(buf, LOOP_RET) : level1(buf)) != 64)
			return 2;
	return 0;
}

/* Which of our functions holds @ip: the closest start below it. */
static int where(unsigned long long ip)
{
	const unsigned long long starts[] = {
		(unsigned long long)(uintptr_t)level1,
		(unsigned long long)(uintptr_t)level2,
		(unsigned long long)(uintptr_t)level3,
		(unsigned long long)(uintptr_t)workload,
		(unsigned long long)(uintptr_t)main,
	};
	unsigned long long best = 0;
	int i, which = 0;

	for (i = 0; i < 5; i++)
		if (starts[i] <= ip && starts[i] > best) {
			best = starts[i];
			which = i + 1;
		}
	/* Far from all of them: somewhere else (libc, st_util). */
	return best && ip - best < 4096 ? which : 0;
}

struct seen {
	int reads, with_stack, bad_layout, chain_ok, truncated, looped;
	int min_user, max_user;
	unsigned long long first[3];
};

static void collect(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_stack_trailer *t;
	const unsigned long long *ip;
	struct seen *s = arg;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_VFS_READ)
		return;
	s->reads++;
	if (!(h->misc & RINGTRACE_MISC_STACK))
		return;
	s->with_stack++;
	t = (const void *)((const char *)h + h->size - sizeof(*t));
	if (h->size != sizeof(struct ringtrace_vfs_read_record) +
		       8 * (t->nr_kernel + t->nr_user) + sizeof(*t) ||
	    t->nr_kernel || (t->flags & (RINGTRACE_STACK_USER_NONE |
					 RINGTRACE_STACK_KERNEL_TRUNCATED))) {
		s->bad_layout++;
		return;
	}
	ip = (const void *)((const char *)h +
			    sizeof(struct ringtrace_vfs_read_record));
	if (t->nr_user < s->min_user)
		s->min_user = t->nr_user;
	if (t->nr_user > s->max_user)
		s->max_user = t->nr_user;
	s->truncated += !!(t->flags & RINGTRACE_STACK_USER_TRUNCATED);
	if (loop_mode) {
		s->looped += t->nr_user == 2 && ip[1] == LOOP_RET &&
			     (t->flags & RINGTRACE_STACK_USER_LOOP);
		return;
	}
	if (t->nr_user >= 2 && where(ip[0]) == 3 && where(ip[1]) == 2 &&
	    (t->nr_user == 2 || where(ip[2]) == 1))
		s->chain_ok++;
	else if (t->nr_user >= 3)
		memcpy(s->first, ip, sizeof(s->first));
}

static void run(unsigned int depth, struct seen *seen)
{
	struct st_run r = {
		.child = workload, .ring_pages = 16,
		.record = collect, .record_arg = seen,
	};

	memset(seen, 0, sizeof(*seen));
	seen->min_user = 1 << 30;
	r.cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
	r.cfg.stack_events = RINGTRACE_EVENT_VFS_READ;
	r.cfg.stack_user_depth = (__u8)depth;
	st_traced_run(&r);
	tap_ok(r.status == 0 && r.drained >= 0 && seen->reads == NR_READS,
	       "depth %u: workload ran, %d records", depth, seen->reads);
}

int main(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	struct seen seen;
	int fd;

	/* Every architecture the module builds for walks user stacks. */
	fd = st_open();
	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	close(fd);
	zero_fd = open("/dev/zero", O_RDONLY);
	if (zero_fd < 0)
		tap_bail("/dev/zero: %s", strerror(errno));

	tap_plan(9);
	tap_ok(info.features & RINGTRACE_FEAT_STACK_USER,
	       "the module offers user stacks (features %#llx)",
	       (unsigned long long)info.features);
	run(16, &seen);
	tap_ok(seen.with_stack == seen.reads && seen.bad_layout == 0,
	       "every record carries a well-formed user-only trailer (%d of %d, %d bad)",
	       seen.with_stack, seen.reads, seen.bad_layout);
	tap_ok(seen.chain_ok == seen.reads,
	       "user stacks start level3, level2, level1 (%d of %d; else %#llx %#llx %#llx)",
	       seen.chain_ok, seen.reads, seen.first[0], seen.first[1],
	       seen.first[2]);
	tap_ok(seen.max_user <= 16, "at most 16 frames (%d)", seen.max_user);

	run(2, &seen);
	tap_ok(seen.with_stack == seen.reads && seen.chain_ok == seen.reads &&
	       seen.min_user == 2 && seen.max_user == 2 &&
	       seen.truncated == seen.reads,
	       "depth 2: exactly 2 frames, flagged USER_TRUNCATED (%d..%d, %d of %d)",
	       seen.min_user, seen.max_user, seen.truncated, seen.reads);

	loop_mode = 1;
	run(16, &seen);
	tap_ok(seen.with_stack == seen.reads && seen.looped == seen.reads &&
	       seen.truncated == 0,
	       "a frame-pointer loop: the walk stops after the looping frame, "
	       "flagged USER_LOOP (%d of %d; %d..%d frames)", seen.looped,
	       seen.reads, seen.min_user, seen.max_user);
	close(zero_fd);
	return tap_finish();
}
