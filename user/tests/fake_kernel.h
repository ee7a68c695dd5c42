/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake /dev/ringtrace behind the syscall seam: open/ioctl/mmap/epoll
 * answer like the module would (or fail with the errno a test chooses),
 * mmap() hands out malloc'ed fake rings a test can produce into, the clock
 * is a variable, and write() to FAKE_OUT_FD is captured in memory.
 */
#ifndef RINGTRACE_TESTS_FAKE_KERNEL_H
#define RINGTRACE_TESTS_FAKE_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/ringtrace.h>

#include "fake_ring.h"

#define FAKE_DEV_FD	7
#define FAKE_EPOLL_FD	8
#define FAKE_OUT_FD	99
#define FAKE_MAX_CPUS	8

enum fake_ioctl { FK_INFO, FK_CONFIG, FK_ENABLE, FK_DISABLE, FK_STATS, FK_NR };

struct fake_kernel {
	int				open_errno;
	struct ringtrace_info		info;
	int				ioctl_errno[FK_NR];
	struct ringtrace_config		config;
	uint64_t			cpu_mask[4];
	bool				configured;
	bool				enabled;
	int				disable_calls;
	struct ringtrace_stats		stats;

	int				mmap_errno;
	uint32_t			compat_version;
	struct fake_ring		rings[FAKE_MAX_CPUS];
	bool				mapped[FAKE_MAX_CPUS];
	int				nr_mmaps;

	const char			*online;	/* sysfs online file */
	/* the thread ids of a per-thread SET_CONFIG, copied. */
	int32_t				tids[FAKE_MAX_CPUS];
	/* Added to the tid a per-thread ring's page reports (a lying module). */
	int32_t				tid_skew;
	uint64_t			now;		/* CLOCK_MONOTONIC */
	int				waits;
	/* Called on each epoll_pwait: the test's producer. */
	void				(*on_wait)(struct fake_kernel *k);
	void				*arg;

	char				*out;
	size_t				out_len;
	int				writes;
	int				write_errno;
	/* data_tail of ring watch_cpu when each write came (the first 64). */
	int				watch_cpu;
	uint64_t			tail_at_write[64];

	/* The reader thread's CPU mask (CPUs 0-63) and nice (placement.h). */
	uint64_t			affinity;
	int				affinity_calls;
	uint64_t			affinity_log[16];	/* each mask set */
	int				nice;
	int				nice_errno;	/* set_nice fails with it */
};

extern struct fake_kernel fk;

/* Reset fk to a healthy 4-CPU module and plug it into rt_sys. */
void fake_kernel_install(void);
/* Free everything and restore the real rt_sys. */
void fake_kernel_remove(void);

#endif /* RINGTRACE_TESTS_FAKE_KERNEL_H */
