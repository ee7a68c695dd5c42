/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A process's executable file mappings, from /proc/PID/maps: what user
 * stacks are named from (usyms.h) and what a raw file saves of each
 * process (rawmaps.h). Anonymous and special mappings ([vdso], [heap],
 * JIT code) are left out: there is no file to read symbols from.
 */
#ifndef RINGTRACE_PROCMAPS_H
#define RINGTRACE_PROCMAPS_H

#include <stdint.h>

struct rt_procmap {
	uint64_t	start, end;	/* [start, end) */
	uint64_t	pgoff;		/* file offset mapped at start */
	const char	*path;		/* " (deleted)" cut off */
};

/*
 * Call @fn for each executable file mapping of @pid, in address order.
 * 0, or -errno if the maps cannot be read (the process is gone, or not
 * ours to read).
 */
int rt_procmaps_read(uint32_t pid,
		     void (*fn)(void *arg, const struct rt_procmap *m),
		     void *arg);

/* Parse one line of a maps file; 0 if it is an executable file mapping. */
int rt_procmaps_parse_line(char *line, struct rt_procmap *m);

#endif /* RINGTRACE_PROCMAPS_H */
