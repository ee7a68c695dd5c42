/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Folded stacks (Brendan Gregg's format, what flamegraph.pl reads): one
 * line per distinct stack, frames root first separated by ';', then a
 * space and how many samples had it:
 *
 *   sha256sum;0x401000;0x402abc;entry_SYSCALL_64_[k];ksys_read_[k] 12
 *
 * Samples are aggregated as they stream by (rt_folded_add(), fed from the
 * merge like a printer) and written at the end. The first frame is the
 * thread's name; with -g the call chain follows, user frames then kernel
 * frames (the kernel ran on top of the user stack), otherwise only the
 * sampled ip. Kernel addresses become symbols from /proc/kallsyms with
 * perf's "_[k]" suffix; user addresses are hex, or function names when
 * usyms is set (libdwfl, usyms.h). Memory is reserved up front: no
 * allocation per sample; a stack that does not fit is counted in dropped.
 *
 * The same table weighs records: a vfs_read's latency or bytes on its
 * stack trailer, an offcpu interval's time on the stack it left with. A
 * vfs_read without a stack weighs on its file ("cat;/etc/services"), an
 * offcpu record without one on its thread's name: every record counts,
 * and on something that says where. --folded, --flamegraph and --report
 * all read this one table, so they agree line for line.
 */
#ifndef RINGTRACE_FOLDED_H
#define RINGTRACE_FOLDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ringtrace/ksyms.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/record.h"

#define RT_FOLDED_MAX_STACKS	65536u		/* a power of two */
#define RT_FOLDED_MAX_FRAMES	(4u << 20)	/* over every stack */
#define RT_FOLDED_DEPTH		128u		/* frames kept per sample */

/*
 * A frame that stands for time off CPU in a stack built by the caller
 * (--graph's: "vfs_read;filemap_read;[off-cpu];io_schedule"): written
 * as "[off-cpu]", no symbol looked up. No kernel address is this high.
 */
#define RT_FOLDED_OFFCPU_FRAME	((uint64_t)-4096 - 1)
#define RT_FOLDED_OFFCPU_NAME	"[off-cpu]"

struct rt_folded_stack {
	uint64_t	hash;
	uint64_t	count;
	uint32_t	first;		/* index of its first frame in frames[] */
	uint16_t	nr;		/* frames */
	uint16_t	nr_kernel;	/* of which the last nr_kernel are kernel */
	uint32_t	pid;		/* of its first sample (symbols come per process) */
	char		comm[RINGTRACE_COMM_LEN + 1];
	bool		file;		/* frames: dev (major << 32 | minor), ino
					 * of a vfs_read without a stack */
};

struct rt_usyms;
struct rt_paths;

struct rt_folded {
	struct rt_folded_stack	*stacks;	/* RT_FOLDED_MAX_STACKS slots */
	uint32_t		nr_stacks;
	uint64_t		*frames;
	uint32_t		nr_frames;
	uint64_t		samples;	/* events counted */
	uint64_t		stacks_seen;	/* of which had a stack trailer */
	uint64_t		weight;		/* their weight in the table */
	uint64_t		kernel_stacks;	/* stacks with kernel frames */
	uint64_t		dropped;
	/*
	 * Set before adding: user frames named per process with libdwfl
	 * (usyms.h). Stacks are then also told apart by pid, since one
	 * address means different code in different processes.
	 */
	struct rt_usyms		*usyms;
	/* Names the file frames (NULL: "MAJ:MIN_ino_N"). */
	const struct rt_paths	*paths;
	/*
	 * A pipe or socket frame by its kind, "pipe:[*]", not its inode:
	 * --diff compares two runs, whose pipes are other inodes.
	 */
	bool			file_classes;
};

int rt_folded_init(struct rt_folded *f);
void rt_folded_fini(struct rt_folded *f);

/* Count one event (samples only; anything else is ignored). */
void rt_folded_add(struct rt_folded *f, const struct rt_event *ev);

/*
 * Count @weight (ns of latency, bytes...) for the stack trailer of a
 * vfs_read or lock event; an event without one counts on its thread's
 * name alone, so the total stays the whole weight.
 */
void rt_folded_add_stack(struct rt_folded *f, const struct rt_event *ev,
			 uint64_t weight);

/*
 * Count a func call's latency on its stack trailer (as
 * rt_folded_add_stack()) with the function as its leaf, a kernel frame
 * at its address; without a trailer, on the thread and the function.
 */
void rt_folded_add_func(struct rt_folded *f, const struct rt_event *ev);

/*
 * Count @weight on @nr kernel frames (root first) under @comm: a stack
 * built by the caller (--graph's: vfs_read and its callees). Weight 0
 * counts nothing; nothing is counted as an event (samples).
 */
void rt_folded_add_frames(struct rt_folded *f, const char *comm, uint32_t pid,
			  const uint64_t *frames, uint32_t nr, uint64_t weight);

/*
 * Count @weight for a vfs_read event: on its stack trailer as
 * rt_folded_add_stack() does, or on its file when it has none.
 */
void rt_folded_add_read(struct rt_folded *f, const struct rt_event *ev,
			uint64_t weight);

/*
 * The name of a file stack's (st->file) file: its path (a pipe's kind
 * with file_classes), else "MAJ:MIN ino N" in @buf (64 bytes will do).
 */
const char *rt_folded_file(const struct rt_folded *f,
			   const struct rt_folded_stack *st, char *buf,
			   size_t len);

/*
 * Write every stack, sorted, to @ob; kernel frames named from @ksyms
 * (NULL or empty: hex). Returns the number of lines written: stacks told
 * apart only by their pid (for naming) or by addresses that name the same
 * frames are one line, so this can be less than nr_stacks.
 */
uint32_t rt_folded_write(const struct rt_folded *f,
			 const struct rt_ksyms *ksyms, struct rt_outbuf *ob);

/* Each rendered line ("comm;f1;f2 N\n"), in sorted order, to @fn; how many. */
uint32_t rt_folded_foreach(const struct rt_folded *f,
			   const struct rt_ksyms *ksyms,
			   void (*fn)(void *arg, const char *line, size_t len),
			   void *arg);


#endif /* RINGTRACE_FOLDED_H */
