/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The raw file format (ringtrace-cat --raw -o FILE; read back with -i):
 *
 *	struct rt_raw_header		header_size bytes (grows at the end)
 *	{ struct rt_raw_chunk, payload }...
 *
 * A RECORDS chunk holds bytes copied verbatim from one CPU's ring, LOST
 * records included, whole records only: exactly what the kernel wrote. The
 * writer does no per-record work beyond validating sizes, so this is the
 * cheapest way to record. Chunks are written in the order the rings were
 * drained, not in timestamp order: the reader merges them (every chunk of
 * a CPU, in file order, is that CPU's stream).
 *
 * Version 2 adds the other sources a live session merges (written only
 * when the file holds them, so a ringtrace-only file stays version 1 and
 * older readers keep reading it; they refuse a version 2 file by its
 * version): PERF_RECORDS chunks hold perf_event_open() ring bytes of one
 * CPU, verbatim, decoded with the PERF_FORMAT chunk that precedes them
 * (sample_type, sample_id_all, event name: what perf_event_attr said);
 * COUNTERS chunks hold counter snapshot records (counter_source.h),
 * named by the COUNTER_NAMES chunk that precedes them.
 *
 * A MAPS chunk (any version: it is skipped by readers that do not know
 * it, so a ringtrace-only file stays version 1) holds struct rt_raw_map
 * entries: the executable file mappings of every process when recording
 * started, read from /proc, with each binary's GNU build-id, so that user
 * frames can be named on replay (usyms.h); the mappings made during the
 * run are perf's MMAP2 records in the PERF_RECORDS chunks (--sample).
 *
 * A KSYMS chunk (any version, skipped like MAPS) holds the kernel
 * symbols that the recorded kernel frames fall in, appended when a
 * recording of kernel stacks or samples ends (rawksyms.c), so that its
 * kernel frames are named on replay on another machine or boot.
 *
 * A MOUNTS chunk (any version, skipped like MAPS) holds the recording
 * reader's /proc/self/mountinfo as text when recording started, padded
 * with NULs to 8 bytes: the mount points that name a path the module
 * gave relative to its mount (PREEMPT_RT kernels; mounts.h), on replay
 * as live.
 *
 * A FUNC_NAMES chunk (any version, skipped like MAPS) holds the names
 * of the functions and tracepoints the session traced (-e func:NAME,
 * -e tp:SUBSYS:EVENT), by func_idx, as the live run named its func
 * records: a replay names them from it, not from the recording's kernel
 * symbols, which cannot name a tracepoint (its func_ip is the address of
 * its struct tracepoint, data). Written near the start when the session
 * traces functions; a file without it (older writers) is named from its
 * KSYMS chunk as before.
 *
 * A FUNC_ARGS chunk (any version, skipped like MAPS) says what the
 * traced functions' arguments are, by func_idx as FUNC_NAMES: each
 * tracepoint's names and types from the recording kernel's BTF, so that
 * a replay prints "args=sig=10,info=0x..." as the live run did. Written
 * beside FUNC_NAMES when the session knew any; a file without it (older
 * writers, a kernel without BTF) prints its arguments in hex, as before.
 *
 * Version 3 holds the rings of a per-thread session
 * (--per-thread --raw): THREAD_RECORDS and THREAD_PENDING chunks are
 * RECORDS and PENDING of the ring of one thread, named by its id in the
 * chunk header's @tid (where a CPU's chunk has @cpu), as the ring's
 * control page names it. Every chunk of a thread, in file order, is that
 * thread's stream. A file is written as version 3 only when it holds
 * them, so that an older reader refuses it by its version rather than
 * skipping every record as an unknown kind; version 1 and 2 files read
 * as before.
 *
 * Everything is in the writer's byte order (the endian field tells a
 * reader of the other order to refuse the file) and 8-byte aligned, every
 * field of a fixed size and every hole an explicit pad: x86-64 and arm64
 * (both little-endian, LP64, 8-byte aligned uint64_t) write the same
 * layout, and each replays the other's files (the header's machine field
 * says where it was recorded; user/tests/data/vm-arm64.raw).
 * Readers skip chunk kinds they do not know, using size.
 */
#ifndef RINGTRACE_RAWFILE_H
#define RINGTRACE_RAWFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/uio.h>

#include "ringtrace/comm_cache.h"
#include "ringtrace/merge.h"
#include "ringtrace/mounts.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/record.h"

#define RT_RAW_MAGIC		"RINGTRC"	/* 8 bytes with its NUL */
#define RT_RAW_FORMAT_VERSION	1	/* ringtrace rings only */
#define RT_RAW_FORMAT_SOURCES	2	/* + perf rings, counter snapshots */
#define RT_RAW_FORMAT_THREADS	3	/* + per-thread rings */
#define RT_RAW_MAX_THREADS	256	/* RINGTRACE_MAX_THREADS rings */
#define RT_RAW_MAX_TID		4194304u /* the kernel's PID_MAX_LIMIT */
#define RT_RAW_ENDIAN		0x01020304u
#define RT_RAW_MAX_DAMAGE	4	/* damaged chunks described, each */

struct rt_raw_header {
	char		magic[8];		/* RT_RAW_MAGIC */
	uint32_t	header_size;		/* sizeof(struct rt_raw_header) */
	uint32_t	format_version;		/* RT_RAW_FORMAT_VERSION */
	uint32_t	endian;			/* RT_RAW_ENDIAN */
	uint32_t	abi_version;		/* module's RINGTRACE_ABI_VERSION */
	uint32_t	page_size;
	uint32_t	nr_cpu_ids;
	uint64_t	events;			/* RINGTRACE_EVENT_* requested */
	uint64_t	start_mono_ns;		/* CLOCK_MONOTONIC at enable */
	uint64_t	start_real_ns;		/* CLOCK_REALTIME at the same time */
	char		module_version[32];
	/* header_size >= 216: where it was recorded */
	char		host[64];		/* uname nodename */
	char		kernel[64];		/* uname release */
	/*
	 * header_size >= 728: the recording's command line, the
	 * tool's arguments joined by spaces, quoted as a shell would need,
	 * NUL-terminated, cut at 511 bytes ("..." ends a cut one)
	 */
	char		cmdline[512];
	/*
	 * header_size >= 744: the recording machine's
	 * architecture, uname's machine (x86_64, aarch64), NUL-terminated.
	 * The layout is the same on every 64-bit little-endian machine
	 * (fixed-size fields, explicit padding): a file replays on another
	 * architecture; this says which one its addresses belong to.
	 */
	char		machine[16];
};

enum rt_raw_chunk_kind {
	RT_RAW_CHUNK_RECORDS	= 1,	/* payload: records from ring @cpu */
	RT_RAW_CHUNK_PENDING	= 2,	/* payload: __u64 records dropped on
					 * @cpu and never reported by a LOST
					 * record (no room at the end) */
	/* version 2 */
	RT_RAW_CHUNK_PERF_FORMAT = 3,	/* struct rt_raw_perf_format, once,
					 * before any PERF_RECORDS */
	RT_RAW_CHUNK_PERF_RECORDS = 4,	/* perf ring bytes of @cpu */
	RT_RAW_CHUNK_COUNTER_NAMES = 5,	/* struct rt_raw_counter_names, once,
					 * before any COUNTERS */
	RT_RAW_CHUNK_COUNTERS	= 6,	/* counter snapshot records */
	RT_RAW_CHUNK_COMMS	= 7,	/* struct rt_raw_comm[]: thread names
					 * known before the run (live, read
					 * from /proc) for the perf samples */
	/* any version */
	RT_RAW_CHUNK_MAPS	= 8,	/* struct rt_raw_map entries */
	/* version 3 */
	RT_RAW_CHUNK_THREAD_RECORDS = 9, /* records from the ring of @tid */
	RT_RAW_CHUNK_THREAD_PENDING = 10, /* PENDING, of the ring of @tid */
	/* any version */
	RT_RAW_CHUNK_KSYMS	= 11,	/* struct rt_raw_ksyms_head, then
					 * struct rt_raw_ksym entries */
	RT_RAW_CHUNK_MOUNTS	= 12,	/* mountinfo text, NUL-padded */
	RT_RAW_CHUNK_FUNC_MISSED = 13,	/* payload: __u64 calls of the traced
					 * functions the probes missed (the
					 * session's func_missed), at the
					 * end: no record has them */
	RT_RAW_CHUNK_OFFCPU_MISSED = 14, /* payload: __u64 off-CPU intervals
					 * the module could not follow while
					 * recording (offcpu_missed), at the
					 * end: no record has them */
	/*
	 * any version: it needs no new reader (readers skip the kinds they
	 * do not know), so it raises no version: an older reader replays
	 * the file as before, naming func records from its KSYMS chunk.
	 */
	RT_RAW_CHUNK_FUNC_NAMES	= 15,	/* payload: the session's traced
					 * names by func_idx, nr of
					 * RINGTRACE_FUNC_NAME_LEN bytes each
					 * (NUL-terminated, NUL-padded; nr 1
					 * to RINGTRACE_MAX_FUNCS), once, near
					 * the start */
	RT_RAW_CHUNK_FUNC_ARGS	= 16,	/* payload: struct rt_func_arg_descs
					 * (record.h) by func_idx, nr of them
					 * (1 to RINGTRACE_MAX_FUNCS), once,
					 * after FUNC_NAMES */
	/*
	 * any version, as FUNC_NAMES: an older reader skips it and replays
	 * the file as before, without the count.
	 */
	RT_RAW_CHUNK_FUNC_FAST_READ = 17, /* payload: __u64 calls the module
					 * held inside reads faster than
					 * min_latency_ns and dropped (the
					 * session's func_fast_read), at the
					 * end, written whenever it held
					 * calls (RINGTRACE_CFG_FUNC_HOLD),
					 * 0 included */
};

/* FUNC_ARGS' entries: fixed-size, the same on every 64-bit LE machine. */
_Static_assert(sizeof(struct rt_func_arg_desc) == 40, "FUNC_ARGS layout");
_Static_assert(sizeof(struct rt_func_arg_descs) == 328, "FUNC_ARGS layout");

/*
 * A KSYMS chunk (any version, skipped by readers that do not
 * know it, like MAPS): the kernel symbols that the recorded kernel frames
 * fall in, and only those, sorted by address, written when a recording of
 * kernel stacks or samples ends (rawksyms.c), so that its kernel frames
 * are named on replay on another machine or after a reboot (KASLR).
 */
struct rt_raw_ksyms_head {
	uint32_t	nr;			/* entries that follow */
	uint32_t	__pad;
	char		kernel[64];		/* uname release they are of */
};

/* One symbol: [addr, addr + size); its name, then its module, follow. */
struct rt_raw_ksym {
	uint32_t	size;			/* entry and strings, padded: 8n */
	uint32_t	__pad;
	uint64_t	addr;
	uint64_t	len;			/* to the next kallsyms symbol */
	/* char name[]: NUL-terminated; char module[]: "" for the kernel's */
};

/* One executable file mapping of a process; the path follows. */
struct rt_raw_map {
	uint32_t	size;			/* entry, path and padding: 8n */
	uint32_t	pid;
	uint64_t	start, end;		/* [start, end) */
	uint64_t	pgoff;			/* file offset at start */
	char		comm[16];		/* the image's name then */
	uint8_t		build_id_len;		/* 0: none read */
	uint8_t		__pad[3];
	uint8_t		build_id[20];
	/* char path[]: NUL-terminated, then zeroes up to size */
};

struct rt_raw_comm {
	uint32_t	tid;
	uint32_t	__pad;
	char		comm[16];		/* RINGTRACE_COMM_LEN */
};

#define RT_RAW_NAME_LEN		32
#define RT_RAW_MAX_COUNTERS	24	/* RT_COUNTERS_MAX */

/* How the perf rings' records were laid out (perf_event_attr). */
struct rt_raw_perf_format {
	uint64_t	sample_type;		/* PERF_SAMPLE_* */
	uint32_t	sample_id_all;
	uint32_t	__pad;
	char		event[RT_RAW_NAME_LEN];	/* samples are printed with it */
};

struct rt_raw_counter_names {
	uint32_t	nr;
	uint32_t	__pad;
	char		name[RT_RAW_MAX_COUNTERS][RT_RAW_NAME_LEN];
};

struct rt_raw_chunk {
	uint32_t	kind;			/* enum rt_raw_chunk_kind */
	union {
		uint32_t cpu;			/* a CPU's ring, perf's, a slot */
		uint32_t tid;			/* THREAD_*: the ring's thread */
	};
	uint64_t	size;			/* payload bytes that follow */
};

/*
 * The chunk kind and id that hold @src's bytes: a per-thread ring's
 * THREAD_RECORDS and its tid, else its own kind (RECORDS by default) and
 * CPU.
 */
static inline void rt_raw_source_chunk(const struct rt_source *src,
				       uint32_t *kind, uint32_t *id)
{
	if (!src->raw_kind && src->tid) {
		*kind = RT_RAW_CHUNK_THREAD_RECORDS;
		*id = src->tid;
	} else {
		*kind = src->raw_kind ? src->raw_kind : RT_RAW_CHUNK_RECORDS;
		*id = src->cpu;
	}
}

/* ---- writing ---- */

void rt_raw_write_header(struct rt_outbuf *ob, const struct rt_raw_header *h);

/* The ring bytes between two positions (whole records), as one chunk. */
void rt_raw_write_ring(struct rt_outbuf *ob, uint32_t cpu,
		       const struct rt_ring *r, uint64_t from, uint64_t to);

void rt_raw_write_pending(struct rt_outbuf *ob, uint32_t cpu, uint64_t lost);
/* The same for @src's ring: a thread's is THREAD_PENDING with its tid. */
void rt_raw_write_source_pending(struct rt_outbuf *ob,
				 const struct rt_source *src, uint64_t lost);

/* Calls the probes missed (ringtrace_stats.func_missed), one chunk. */
void rt_raw_write_func_missed(struct rt_outbuf *ob, uint64_t missed);
/* Off-CPU intervals not followed (rt_session_offcpu_missed()), one chunk. */
void rt_raw_write_offcpu_missed(struct rt_outbuf *ob, uint64_t missed);
/*
 * Calls held inside reads faster than min_latency_ns and dropped
 * (ringtrace_stats.func_fast_read), one chunk, 0 included.
 */
void rt_raw_write_func_fast_read(struct rt_outbuf *ob, uint64_t calls);

/* The descriptors of version 2 (write them right after the header). */
void rt_raw_write_perf_format(struct rt_outbuf *ob,
			      const struct rt_raw_perf_format *pf);
void rt_raw_write_counter_names(struct rt_outbuf *ob,
				const struct rt_raw_counter_names *cn);
/* Every name in @c, one COMMS chunk. */
void rt_raw_write_comms(struct rt_outbuf *ob, const struct rt_comm_cache *c);

/*
 * A MAPS chunk with every process's executable mappings, read from /proc
 * now (rawmaps.c: one open per process and per binary, once, when
 * recording starts). Returns the number of processes saved.
 */
uint32_t rt_raw_write_maps(struct rt_outbuf *ob);

/*
 * The same chunks without copying the records: each ring's bytes go to the
 * file straight from the mapping, several rings in one writev(2). Add up
 * to RT_RAW_BATCH_RINGS rings, write, and only then release those rings
 * (store data_tail): until the write returns the bytes are still read
 * from the ring.
 */
#define RT_RAW_BATCH_RINGS	16

struct rt_raw_batch {
	struct rt_outbuf	*ob;
	int			nr_chunks;
	int			nr_iov;		/* after iov[0], outbuf's bytes */
	struct rt_raw_chunk	chunks[RT_RAW_BATCH_RINGS];
	struct iovec		iov[1 + 3 * RT_RAW_BATCH_RINGS];
};

void rt_raw_batch_init(struct rt_raw_batch *b, struct rt_outbuf *ob);

static inline bool rt_raw_batch_full(const struct rt_raw_batch *b)
{
	return b->nr_chunks == RT_RAW_BATCH_RINGS;
}

/* Queue the ring bytes between two positions (whole records) as a chunk. */
void rt_raw_batch_add_ring(struct rt_raw_batch *b, uint32_t cpu,
			   const struct rt_ring *r, uint64_t from,
			   uint64_t to);

/* The same for any source's ring, as a chunk of @kind. */
void rt_raw_batch_add_chunk(struct rt_raw_batch *b, uint32_t kind,
			    uint32_t cpu, const struct rt_ring *r,
			    uint64_t from, uint64_t to);

/* Write what is buffered and queued; empties the batch. 0 or -errno. */
int rt_raw_batch_write(struct rt_raw_batch *b);

/* ---- reading ---- */

/* Where one RECORDS chunk's payload lies, and the next chunk of its CPU. */
struct rt_raw_chunk_ref {
	uint64_t	offset;
	uint64_t	size;
	uint32_t	next;			/* index, or UINT32_MAX: last */
};

/* Per-source reading state: the chunk being read, as a one-shot ring. */
struct rt_raw_cursor {
	struct rt_raw_file	*file;
	uint32_t		cur;		/* chunk being read */
	uint32_t		next;		/* next chunk to load */
	__u64			head;		/* this chunk's size */
	__u64			tail;
};

struct rt_raw_file {
	int			fd;
	char			*path;		/* for messages */
	const unsigned char	*map;
	size_t			len;
	bool			in_memory;	/* map is malloc'ed (stdin) */
	struct rt_raw_header	hdr;		/* zero-filled past header_size */
	uint32_t		nr_srcs;
	/*
	 * One per CPU found, CPU order: ringtrace rings, then perf rings,
	 * then the counter snapshots (version 2).
	 */
	struct rt_source	*srcs;
	struct rt_raw_cursor	*cursors;	/* parallel to srcs */
	struct rt_raw_chunk_ref	*chunks;
	uint32_t		nr_chunks;
	uint64_t		pending_lost;	/* sum of PENDING chunks */
	uint64_t		func_missed;	/* sum of FUNC_MISSED chunks */
	uint64_t		offcpu_missed;	/* sum of OFFCPU_MISSED chunks */
	/*
	 * A FUNC_FAST_READ chunk was read (the recording's session held its
	 * calls until their reads returned), and the sum of those read.
	 */
	bool			func_held;
	uint64_t		func_fast_read;
	uint64_t		truncated_bytes; /* of a partial record, ignored */
	/*
	 * The file ends before the last chunk does (the writer was stopped,
	 * or the copy was cut): where that chunk's header is, and how many
	 * of the bytes it declares are not in the file. Whole records before
	 * the cut are read; the file is reported as truncated all the same.
	 */
	bool			truncated;
	uint64_t		truncated_at;
	uint64_t		truncated_missing;
	uint32_t		truncated_kind;	/* of that chunk, 0: cut in
						 * its header */
	/*
	 * Damage: a chunk header (found when the file is opened: the reader
	 * skips to the next valid chunk, rawfile.c next_valid_chunk()), or a
	 * record (found when it is read: the rest of its chunk is skipped,
	 * and its ring goes on at its next chunk, raw_recover()). The first
	 * RT_RAW_MAX_DAMAGE are kept to report; nr_damage counts them all.
	 */
	struct rt_raw_damage {
		uint64_t	offset;		/* of the damaged header or record */
		uint64_t	skipped;	/* bytes skipped from there */
		uint64_t	resume;		/* where reading went on (a chunk
						 * header's offset); 0: nowhere */
		bool		to_end;		/* no valid chunk after it */
		bool		record;		/* a record, not a chunk header */
		char		where[40];	/* "chunk header", "record of CPU 1" */
		char		what[96];	/* what is wrong with it */
	}			damage[RT_RAW_MAX_DAMAGE];
	uint32_t		nr_damage;
	uint64_t		damaged_bytes;	/* skipped in all */
	/* version 2: how to decode perf and counter chunks */
	bool			has_perf_format;
	struct rt_raw_perf_format perf_desc;
	struct rt_perf_format	perf_fmt;
	struct rt_comm_cache	*comms;		/* perf COMM records name samples */
	bool			has_counter_names;
	struct rt_raw_counter_names counter_names;
	const char		*counter_name_ptrs[RT_RAW_MAX_COUNTERS];
	/* MAPS chunks (offset, size; next unused) */
	struct rt_raw_chunk_ref	*maps;
	uint32_t		nr_maps;
	/* the KSYMS chunk (offset 0: none), what of it the file holds */
	struct rt_raw_chunk_ref	ksyms;
	/* the first MOUNTS chunk's table (nr 0: none) */
	struct rt_mounts	mounts;
	/*
	 * The first valid FUNC_NAMES chunk's names, by func_idx (NULL, nr 0:
	 * none); a damaged one is noted as damage and skipped.
	 */
	char			(*func_names)[RINGTRACE_FUNC_NAME_LEN];
	uint32_t		nr_func_names;
	/*
	 * The first valid FUNC_ARGS chunk's descriptions, by func_idx (NULL,
	 * nr 0: none); a damaged one is noted as damage and skipped.
	 */
	struct rt_func_arg_descs *func_args;
	uint32_t		nr_func_args;
	/* called for each perf MMAP2 record met while reading (replay) */
	void			(*on_mmap)(void *arg, const struct rt_event *ev);
	void			*on_mmap_arg;
	uint32_t		nr_perf_srcs;
	uint32_t		nr_counter_srcs;
	char			errmsg[256];
};

/*
 * Open and index @path (mmap'ed read-only; nothing is copied). "-" reads
 * standard input to its end into memory instead (a pipe cannot be
 * mapped; the merge needs every CPU's chunks). The file's sources then
 * feed rt_merge with drain = true; a corrupt record's error names @path
 * (or "standard input") and the record's offset in the file. 0 or -errno:
 * -EINVAL not a raw file or damaged beyond reading, -ENODATA an empty
 * file (nothing was recorded: no damage), errmsg saying which.
 */
int rt_raw_open(struct rt_raw_file *f, const char *path);

/*
 * Whether @f holds perf samples: perf rings of a sampling event, not of
 * the dummy event that only carries MMAP2 records (perf_events.h).
 */
bool rt_raw_has_samples(const struct rt_raw_file *f);

/*
 * Say on @fp (each line prefixed "@prog: ") what was wrong with the file
 * beyond its records: damaged chunk headers and records (where, what, how
 * much was skipped, where reading went on) and a truncation (where, how
 * many bytes are missing). Returns whether there was anything: such a
 * file was not read whole. Records are found damaged as they are read:
 * call it after the stream.
 */
bool rt_raw_report_damage(const struct rt_raw_file *f, FILE *fp,
			  const char *prog);
void rt_raw_close(struct rt_raw_file *f);

/*
 * Call @fn for each entry of the file's MAPS chunks (entries checked:
 * sizes, NUL-terminated path). Returns the number of malformed entries
 * (the rest of their chunk is skipped).
 */
uint32_t rt_raw_foreach_map(const struct rt_raw_file *f,
			    void (*fn)(void *arg, const struct rt_raw_map *m,
				       const char *path),
			    void *arg);

/*
 * At the end of a recording of kernel frames: read the raw file @path
 * back, find the /proc/kallsyms (@kallsyms) symbols its kernel frames
 * fall in, append them as a KSYMS chunk. Returns the number of symbols
 * saved, or -errno with @err said.
 */
struct rt_ksyms;
int rt_raw_append_ksyms(const char *path, const char *kallsyms, char *err,
			size_t len);

/*
 * The KSYMS chunk of @f as symbols for rt_ksyms_lookup(). Returns the
 * number read (0: no chunk), or -ENOMEM. A damaged or cut chunk gives the
 * entries before the damage; @err then says where it stopped (else "").
 */
int rt_raw_read_ksyms(const struct rt_raw_file *f, struct rt_ksyms *k,
		      char *err, size_t len);

/*
 * A MOUNTS chunk of table @m (mounts.h; nothing if NULL or empty): a
 * recording keeps the reader's own (rt_mounts_self()) for its replay to
 * name mount-relative paths as the live run did; a copy, the file's.
 */
void rt_raw_write_mounts(struct rt_outbuf *ob, const struct rt_mounts *m);

/*
 * A FUNC_NAMES chunk of the @nr names a session traced (@names, by
 * func_idx: rt_session's funcs), so that a replay names func records as
 * the live run did; nothing if @nr is 0 (or past RINGTRACE_MAX_FUNCS,
 * which no session has).
 */
void rt_raw_write_func_names(struct rt_outbuf *ob,
			     const char (*names)[RINGTRACE_FUNC_NAME_LEN],
			     uint32_t nr);

/*
 * A FUNC_ARGS chunk of @nr descriptions (@descs, by func_idx: rt_session's
 * func_arg_descs), so that a replay prints the arguments by name as the
 * live run did; nothing if none is known (every nr_args 0), @nr is 0 or
 * past RINGTRACE_MAX_FUNCS.
 */
void rt_raw_write_func_args(struct rt_outbuf *ob,
			    const struct rt_func_arg_descs *descs,
			    uint32_t nr);

/* The KSYMS chunk's count and kernel release; false: none. */
bool rt_raw_ksyms_info(const struct rt_raw_file *f, uint32_t *nr,
		       char *kernel, size_t len);

#endif /* RINGTRACE_RAWFILE_H */
