/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ringtrace beside another user of vfs_read, in both orders, with each
 * mechanism the kernel offers: the driver the neighbours_* selftests
 * share. A neighbour is another tool that counts the calls of one process
 * on its own (a kprobe event, a bpftrace program, a livepatch); the
 * workload makes a fixed number of reads, and both sides must count
 * exactly that many, or, where the two cannot share vfs_read (the direct
 * call and a BPF trampoline), the one that comes second must be refused
 * with an error and the first keep counting exactly.
 *
 * Under TCG every attach and detach happens while the workload is parked
 * or finished (Documentation/testing.rst).
 */
#ifndef RINGTRACE_SELFTEST_NEIGHBOUR_H
#define RINGTRACE_SELFTEST_NEIGHBOUR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/ringtrace.h>

#define ST_NB_READS	100

struct st_neighbour {
	const char *name;
	/* Start counting @pid's vfs_read calls: 0, or an errno (@why says). */
	int (*start)(pid_t pid, char *why, size_t len);
	/* Stop; the count, or -1 (@why says). */
	long (*stop)(char *why, size_t len);
	/*
	 * Whether it can share vfs_read with ringtrace's RINGTRACE_ATTACH_*
	 * @mech; false: the second of the two to come must be refused.
	 * NULL: it shares with every mechanism.
	 */
	bool (*shares_with)(unsigned int mech);
};

/*
 * Plan and run every scenario: each offered mechanism (kretprobe, fprobe,
 * direct; the direct call needs ringtrace_direct.ko, which the runner
 * loads) times both orders, two checks each, plus one check that auto
 * never picks an exclusive mechanism. Returns tap_finish().
 */
int st_neighbour_main(const struct st_neighbour *nb);

/*
 * For a neighbour that did not finish in time, as diagnostics: each task
 * of @pid with its state, wait channel and kernel stack.
 */
void st_nb_diag_tasks(pid_t pid);
/*
 * Every livepatch's state and, during a transition, the tasks it still
 * waits for (their /proc/PID/patch_state is not yet the patch's target)
 * with their kernel stacks, at most 20.
 */
void st_nb_diag_livepatch(void);

#endif
