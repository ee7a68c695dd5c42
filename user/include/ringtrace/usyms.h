/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Names for user addresses (perf samples' -g chains, --stack user
 * trailers), from the ELF files and their debug info (.debug files,
 * build-id links) with elfutils' libdwfl.
 *
 * Two tables: process images (pid and comm: exec() keeps the pid and
 * replaces the mappings, and nearly always the comm, so a frame of the new
 * image is never named from the old one's maps), each with its executable
 * file mappings (start, end, file offset, binary); and binaries (path and,
 * when known, GNU build-id). A binary is opened and its symbol table read
 * by libdwfl once, at its own link-time addresses, the first time one of
 * its frames is named, whatever the number of processes mapping it: an
 * address is turned into the binary's address through the mapping's file
 * offset and the ELF's PT_LOAD headers. Names are looked up at the end of
 * the run, once per distinct frame; nothing here runs per record.
 *
 * Where the mappings come from:
 *  - live (rt_usyms_init(u, true)): /proc/PID/maps, read the first time
 *    an image is seen (rt_usyms_see(): a few system calls per process),
 *    again when a new stack holds an address no mapping read so far covers
 *    (ld.so maps libraries after the first samples; at most
 *    RT_USYMS_MAX_REREADS times per image);
 *  - replay (live = false): the raw file's MAPS chunk (the /proc snapshot
 *    taken when recording started) and perf's MMAP2 records (mappings made
 *    during the run, recorded with --sample), given with rt_usyms_add_map();
 *    nothing is read from /proc.
 *
 * Frames stay hex ("[unknown]" in perf's words) for images past
 * RT_USYMS_MAX_PROCS, processes gone before their maps were read, binaries
 * that are not on this machine (missing) or differ from the recorded ones
 * (build-id mismatch: counted, see the stats), and stripped binaries
 * without debug info show "file+0xOFFSET".
 */
#ifndef RINGTRACE_USYMS_H
#define RINGTRACE_USYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_USYMS_MAX_PROCS	1024u		/* process images (pid, comm) */
#define RT_USYMS_MAX_BINS	1024u		/* distinct binaries */
#define RT_USYMS_COMM_LEN	17u
#define RT_USYMS_MAX_REREADS	16u		/* per process image, live */
#define RT_USYMS_BUILD_ID_MAX	20u		/* GNU build-id: SHA-1 */

struct rt_usyms_proc;
struct rt_usyms_bin;

struct rt_usyms {
	bool			live;		/* read /proc/PID/maps */
	bool			exec_tracked;	/* replay: MMAP2 records given */
	struct rt_usyms_proc	*procs;		/* RT_USYMS_MAX_PROCS */
	uint32_t		nr;
	struct rt_usyms_bin	*bins;		/* RT_USYMS_MAX_BINS */
	uint32_t		nr_bins;
	uint32_t		*bin_index;	/* path hash -> bins[] + 1 */
	/* stats */
	uint64_t		untracked;	/* images not taken: table full */
	uint64_t		failed;		/* maps not readable (gone) */
	uint64_t		module_loads;	/* binaries opened by libdwfl */
	uint64_t		missing;	/* binaries not found or not ELF */
	uint64_t		mismatched;	/* build-id differs from recorded */
	uint64_t		bins_dropped;	/* binary table full */
	uint64_t		unmapped;	/* frames no known mapping covers */
};

int rt_usyms_init(struct rt_usyms *u, bool live);
void rt_usyms_fini(struct rt_usyms *u);

/* Live: read @pid's mappings if not done yet for this image (@comm). */
void rt_usyms_see(struct rt_usyms *u, uint32_t pid, const char *comm);

/*
 * Live: a frame of a new stack; read @pid's maps again if nothing known
 * maps @ip (no system call when something does).
 */
void rt_usyms_check(struct rt_usyms *u, uint32_t pid, const char *comm,
		    uint64_t ip);

/*
 * An executable file mapping of image (@pid, @comm): [start, end) maps
 * @path from file offset @pgoff. @build_id may be NULL (not recorded).
 */
void rt_usyms_add_map(struct rt_usyms *u, uint32_t pid, const char *comm,
		      uint64_t start, uint64_t end, uint64_t pgoff,
		      const char *path, const uint8_t *build_id,
		      uint32_t build_id_len);

/*
 * "func" or "libc.so.6+0x2a0f0" for @ip in @pid into @buf; NULL if
 * nothing is known (the caller prints hex).
 */
const char *rt_usyms_name(struct rt_usyms *u, uint32_t pid, const char *comm,
			  uint64_t ip, char *buf, size_t len);

/* What is known of a user address (rt_usyms_lookup()). */
struct rt_usym {
	const char	*sym;		/* NULL: no symbol covers it */
	uint64_t	sym_off;	/* from the symbol's start */
	const char	*dso;		/* the binary's base name */
	uint64_t	dso_off;	/* offset in the file */
};

/*
 * @ip in @pid's image: its binary and, where the symbol table covers it,
 * its symbol. The strings live until rt_usyms_fini(). False if no known
 * mapping covers @ip or its binary could not be opened (or differs).
 */
bool rt_usyms_lookup(struct rt_usyms *u, uint32_t pid, const char *comm,
		     uint64_t ip, struct rt_usym *out);

/*
 * The GNU build-id of the ELF file @path into @out (at most
 * RT_USYMS_BUILD_ID_MAX bytes); its length, or 0 if it has none or cannot
 * be read.
 */
uint32_t rt_usyms_file_build_id(const char *path, uint8_t *out);

#endif /* RINGTRACE_USYMS_H */
