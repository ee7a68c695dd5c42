/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake perf_event_open() behind the syscall seam, installed on top of
 * whatever rt_sys holds (the fake kernel, or the real calls): it hands
 * out perf fds from FAKE_PERF_FD, records every attr, fails opens with the
 * errno a test's policy chooses, answers read() in the read_format each
 * event asked for (group reads included), ioctl(ID, ENABLE, DISABLE,
 * SET_OUTPUT), and maps malloc'ed rings (fake_ring.h: the data_* fields
 * sit where perf_event_mmap_page has them) a test writes perf records to.
 */
#ifndef RINGTRACE_TESTS_FAKE_PERF_H
#define RINGTRACE_TESTS_FAKE_PERF_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/perf_event.h>

#include "fake_ring.h"

#define FAKE_PERF_FD		200
#define FAKE_PERF_MAX		128

struct fake_perf_event {
	struct perf_event_attr	attr;
	pid_t			pid;
	int			cpu;
	int			group_fd;
	unsigned long		flags;
	bool			closed;
	uint64_t		id;
	int			leader;		/* index of its group leader */
	uint64_t		value;		/* raw count */
	uint64_t		enabled;	/* group times (leader's used) */
	uint64_t		running;
	uint64_t		lost;		/* PERF_FORMAT_LOST */
	int			enables;
	int			disables;
	int			output;		/* SET_OUTPUT target index, or -1 */
	bool			mapped;
	struct fake_ring	ring;
};

struct fake_perf {
	struct fake_perf_event	ev[FAKE_PERF_MAX];
	int			nr;		/* successful opens */
	int			calls;		/* perf_event_open() calls */
	/*
	 * Decides each open: the errno to fail with, or 0. NULL: everything
	 * opens. Called with the attr as the caller built it.
	 */
	int			(*policy)(const struct perf_event_attr *attr,
					  pid_t pid, int cpu, int group_fd);
	bool			reverse_group_read;	/* siblings last-first */
	bool			short_read;		/* next read returns 8 bytes */
	int			mmap_errno;
	const char		*paranoid;		/* /proc/sys/kernel/... */
	const char		*max_rate;
	int			epoll_adds;
};

extern struct fake_perf fp;

void fake_perf_install(void);
void fake_perf_remove(void);

/* Index of the event open on @fd, or -1. */
int fake_perf_index(int fd);
/* The n-th event opened with this type/config, or NULL. */
struct fake_perf_event *fake_perf_find(uint32_t type, uint64_t config, int n);

/* Policy: hardware and cache events fail with fp_hw_errno. */
extern int fp_hw_errno;
int fake_perf_no_pmu(const struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd);

/* Synthetic perf records, as the kernel writes them. */
size_t fake_perf_sample(void *buf, uint64_t sample_type, uint64_t ip,
			uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu,
			const uint64_t *chain, uint32_t nr_chain);
/* LOST / COMM with a sample_id trailer of TID | TIME | CPU. */
size_t fake_perf_lost(void *buf, uint64_t lost, uint64_t time, uint32_t cpu);
/* PERF_RECORD_MMAP2 of @path, with a build-id when @id_len. */
size_t fake_perf_mmap2(void *buf, uint32_t pid, uint32_t tid, uint64_t addr,
		       uint64_t len, uint64_t pgoff, const char *path,
		       const uint8_t *id, uint8_t id_len, uint64_t time,
		       uint32_t cpu);
size_t fake_perf_comm(void *buf, uint32_t pid, uint32_t tid, const char *comm,
		      uint64_t time, uint32_t cpu);
/* PERF_RECORD_FORK: @tid of @pid made by @ptid of @ppid. */
size_t fake_perf_fork(void *buf, uint32_t pid, uint32_t ppid, uint32_t tid,
		      uint32_t ptid, uint64_t time, uint32_t cpu);

#endif /* RINGTRACE_TESTS_FAKE_PERF_H */
