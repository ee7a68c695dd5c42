/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Names for user addresses of perf samples, from the ELF files (and their
 * debug info: .debug files, build-id links) with elfutils' libdwfl.
 *
 * A process's mappings are read from /proc/PID/maps the first time one of
 * its samples is seen (rt_usyms_see(): a few system calls per process, not
 * per sample), while it still runs; again when the same pid shows up with
 * another comm (it exec'ed: the old maps would name the new code wrongly),
 * and when a new stack holds an address no mapping read so far covers
 * (ld.so maps libraries after the first samples; at most
 * RT_USYMS_MAX_REREADS times per process); names are looked up at the end, once
 * per distinct frame. libdwfl opens each mapped ELF once per process and
 * keeps its symbol table; processes past RT_USYMS_MAX_PROCS, or gone
 * before their first sample was read, keep hex addresses ("[unknown]"
 * frames in perf's words), as do stripped binaries without debug info.
 */
#ifndef RINGTRACE_USYMS_H
#define RINGTRACE_USYMS_H

#include <stddef.h>
#include <stdint.h>

#define RT_USYMS_MAX_PROCS	256u		/* process images (pid, comm) */
#define RT_USYMS_COMM_LEN	17u
#define RT_USYMS_MAX_REREADS	16u		/* per process image */

struct rt_usyms_proc;

struct rt_usyms {
	struct rt_usyms_proc	*procs;		/* RT_USYMS_MAX_PROCS */
	uint32_t		nr;
	uint64_t		untracked;	/* pids not taken: table full */
	uint64_t		failed;		/* maps not readable (gone) */
};

int rt_usyms_init(struct rt_usyms *u);
void rt_usyms_fini(struct rt_usyms *u);

/* Read @pid's mappings if not done yet for this image (@comm). */
void rt_usyms_see(struct rt_usyms *u, uint32_t pid, const char *comm);

/*
 * A frame of a new stack: read @pid's maps again if nothing known maps
 * @ip (no system call when something does).
 */
void rt_usyms_check(struct rt_usyms *u, uint32_t pid, const char *comm,
		    uint64_t ip);

/*
 * "func+0x12" or "libc.so.6+0x2a0f0" for @ip in @pid into @buf; NULL if
 * nothing is known (the caller prints hex).
 */
const char *rt_usyms_name(struct rt_usyms *u, uint32_t pid, const char *comm,
			  uint64_t ip, char *buf, size_t len);

#endif /* RINGTRACE_USYMS_H */
