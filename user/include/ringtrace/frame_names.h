/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Names of stack frames for the per-record stream (perf script
 * prints sym+off for every callchain frame), one lookup per distinct
 * frame: kernel addresses through kallsyms (folded.h's rt_ksyms), user
 * addresses per process image through libdwfl (usyms.h), the same
 * symbolisers the flame graph uses.
 *
 * Every answer, a name or "none", is kept in an open-addressing table
 * sized up front, its text in an arena sized up front: after the first
 * record that holds a frame, that frame costs a hash probe and no
 * allocation or system call. Live, the first lookup of a process image
 * reads its /proc/PID/maps (usyms.h); that is per image, not per record.
 *
 * The names, with no space, comma or quote in them so that the text
 * stream's fields still split on spaces and JSON needs no escaping:
 *
 *   vfs_read+0x5                 a kernel symbol
 *   ext4_file_read_iter+0x3f[ext4]   a module's
 *   __libc_read+0x12(libc.so.6)  a user symbol and its binary
 *   [unknown](libc.so.6+0x2a0f0) a binary without a symbol there (its
 *                                file offset)
 *
 * A frame nothing names stays hex (the caller prints the address). When
 * the table or the arena is full, new frames stay hex too (counted in
 * full).
 */
#ifndef RINGTRACE_FRAME_NAMES_H
#define RINGTRACE_FRAME_NAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "ringtrace/folded.h"
#include "ringtrace/usyms.h"

#define RT_FRAME_NAMES_SLOTS	(1u << 17)	/* a power of two */
#define RT_FRAME_NAMES_ARENA	(8u << 20)	/* bytes of names */
#define RT_FRAME_NAME_MAX	128u		/* longer names are cut */

struct rt_frame_slot;

struct rt_frame_names {
	bool			bare;		/* names without +0xOFF (report.h);
						 * set before the first lookup */
	const struct rt_ksyms	*ksyms;		/* NULL: kernel frames hex */
	struct rt_usyms		*usyms;		/* NULL: user frames hex */
	struct rt_frame_slot	*slots;
	char			*arena;
	uint32_t		arena_used;
	uint32_t		nr;		/* slots used */
	/* stats */
	uint64_t		lookups;	/* frames asked for */
	uint64_t		resolved;	/* symbolisers asked (misses) */
	uint64_t		unnamed;	/* of which nothing named */
	uint64_t		full;		/* not kept: table or arena full */
	uint64_t		kernel_hex;	/* kernel frames, no kallsyms */
	uint64_t		kernel_resolved; /* distinct kernel frames asked */
	uint64_t		kernel_unnamed;	/* of which in no function */
};

int rt_frame_names_init(struct rt_frame_names *n,
			const struct rt_ksyms *ksyms, struct rt_usyms *usyms);
void rt_frame_names_fini(struct rt_frame_names *n);

/*
 * The name of @ip, a kernel frame when @kernel, else a user frame of the
 * image (@pid, @comm); NULL: print the address. Valid until
 * rt_frame_names_fini().
 */
const char *rt_frame_name(struct rt_frame_names *n, bool kernel, uint32_t pid,
			  const char *comm, uint64_t ip);

/* rt_frame_name() with the printers' signature (output.h): @arg is @n. */
const char *rt_frame_name_cb(void *arg, bool kernel, uint32_t pid,
			     const char *comm, uint64_t ip);

#endif /* RINGTRACE_FRAME_NAMES_H */
