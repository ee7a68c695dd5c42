/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * One decoder: raw record bytes -> struct rt_event, the single in-memory
 * form every output prints from. A new record type is added here once and
 * then printed by one function per output format.
 */
#ifndef RINGTRACE_RECORD_H
#define RINGTRACE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/ringtrace.h>

/*
 * What an event is, independent of where it came from: ringtrace record
 * types map 1:1; perf samples, perf's own records and counter snapshots
 * have kinds of their own and no ringtrace record type.
 */
enum rt_event_kind {
	RT_EVENT_UNKNOWN	= 0,
	RT_EVENT_LOST,		/* ringtrace's or perf's LOST record */
	RT_EVENT_VFS_READ,
	RT_EVENT_LOCK,
	RT_EVENT_COUNTERS,	/* perf counter snapshot (perf_counters.h) */
	RT_EVENT_SAMPLE,	/* PERF_RECORD_SAMPLE */
	RT_EVENT_COMM,		/* PERF_RECORD_COMM: names a tid; not printed */
	RT_EVENT_PATH,		/* a file's name (ABI 2); the stream keeps it in
				   its path table and names later vfs_reads */
	RT_EVENT_MMAP,		/* PERF_RECORD_MMAP2: an executable mapping
				   (replay names user frames with it) */
	RT_EVENT_FORK,		/* PERF_RECORD_FORK: a new task, named as its
				   parent until it execs; not printed */
	RT_EVENT_OFFCPU,	/* a task ran again after off CPU */
	RT_EVENT_CGROUP,	/* a cgroup's path; like PATH, kept
				   in the stream's table, not printed */
	RT_EVENT_FUNC,		/* a traced kernel function returned */
	RT_EVENT_KIND_MAX,
};

/* rt_event.cpu of an event not tied to one CPU (a per-task counter row). */
#define RT_EVENT_CPU_ANY	UINT32_MAX

struct rt_vfs_read_event {
	uint32_t	dev_major;
	uint32_t	dev_minor;
	uint64_t	ino;
	int64_t		pos;		/* -1 for stream files */
	uint64_t	count;
	int64_t		ret;		/* bytes read or -errno */
	uint64_t	lat_ns;
	/*
	 * time off CPU during the call, its longest interval and
	 * when that one ended (the ts_ns of its offcpu record); meaningful
	 * only when offcpu_known (RINGTRACE_MISC_OFFCPU).
	 */
	bool		offcpu_known;
	uint64_t	offcpu_ns;
	uint64_t	offcpu_max_ns;
	uint64_t	offcpu_max_ts;
	/*
	 * The file's name, from the stream's path table (paths.h) filled by
	 * path records; NULL when unknown. Not set by rt_decode().
	 */
	const char	*path;
};

/* RINGTRACE_RECORD_PATH; path points into the record (see sample frames). */
struct rt_path_event {
	uint32_t	dev_major;
	uint32_t	dev_minor;
	uint64_t	ino;
	uint32_t	flags;		/* RINGTRACE_PATH_* */
	uint16_t	len;		/* bytes, NUL excluded */
	const char	*path;		/* NUL-terminated */
};

/* RINGTRACE_RECORD_CGROUP; path points into the record. */
struct rt_cgroup_event {
	uint64_t	id;
	uint32_t	flags;		/* RINGTRACE_CGROUP_* */
	uint16_t	len;		/* bytes, NUL excluded */
	const char	*path;		/* NUL-terminated */
};

/*
 * a vfs_read, lock or offcpu record's struct ringtrace_task_ext
 * (RINGTRACE_MISC_TASK_EXT); present false on records without one.
 */
struct rt_task_ext {
	bool		present;
	uint32_t	host_pid;	/* rt_event.pid in the initial namespace */
	uint32_t	host_tid;
	uint64_t	cgroup_id;
	/* The cgroup's path, from the stream's table; NULL: unknown. */
	const char	*cgroup;
};

/*
 * A vfs_read or lock record's stack trailer (RINGTRACE_MISC_STACK): the
 * frames point into the record, innermost first, valid only while the
 * event is being handled; read them with rt_stack_frame() (unaligned).
 * nr_kernel = nr_user = 0: the record has no stack.
 */
struct rt_stack {
	uint16_t		nr_kernel;
	uint16_t		nr_user;
	uint32_t		flags;		/* RINGTRACE_STACK_* */
	const unsigned char	*kernel;
	const unsigned char	*user;
};

static inline uint64_t rt_stack_frame(const unsigned char *frames, uint32_t i)
{
	uint64_t v;

	memcpy(&v, frames + (size_t)i * sizeof(v), sizeof(v));
	return v;
}

struct rt_lock_event {
	uint64_t	lock_id;
	uint64_t	wait_ns;
	uint64_t	hold_ns;
	uint32_t	flags;		/* RINGTRACE_LOCK_* */
	char		name[RINGTRACE_LOCK_NAME_LEN + 1];	/* always NUL-terminated */
};

/*
 * RINGTRACE_RECORD_OFFCPU. The event's ts_ns and cpu are when
 * and where the task ran again; it left at ts_ns - offcpu_ns from cpu_out.
 * The stack (if any) is the one it left with.
 */
struct rt_offcpu_event {
	uint64_t	offcpu_ns;
	uint32_t	cpu_out;
	uint32_t	state;		/* RINGTRACE_OFFCPU_* */
};

/*
 * RINGTRACE_RECORD_FUNC: a call of a kernel function the session named
 * returned. ts_ns is the return, the entry ts_ns - lat_ns; the printers
 * name it with rt_output_func_name() (output.h).
 */
struct rt_func_event {
	uint64_t	ip;
	uint32_t	idx;
	uint32_t	nr_args;
	int64_t		ret;
	uint64_t	lat_ns;
	uint64_t	args[RINGTRACE_FUNC_MAX_ARGS];
};

/*
 * What a func record's arguments are, when known (a tracepoint's, or
 * with --args a function's: btf.h fills them from the kernel's BTF): a
 * name and a C type's shape each, so that the printers show
 * "sig=10,info=0xffff..." rather than registers.
 * The same bytes are a raw file's FUNC_ARGS entries (rawfile.h): fixed
 * sizes, explicit padding, written and read as they are.
 */
#define RT_FUNC_ARG_DESCS	8	/* descriptions kept per function */
#define RT_FUNC_ARG_NAME_LEN	32	/* name with its NUL */

struct rt_func_arg_desc {
	char		name[RT_FUNC_ARG_NAME_LEN]; /* NUL-terminated */
	uint8_t		size;		/* bytes: 1, 2, 4 or 8 */
	uint8_t		is_ptr;		/* 1: a pointer (size 8), in hex */
	uint8_t		is_signed;	/* 1: a signed integer or enum */
	uint8_t		__pad[5];
};

struct rt_func_arg_descs {
	uint32_t		nr_args; /* 0: unknown; at most RT_FUNC_ARG_DESCS */
	uint32_t		__pad;
	struct rt_func_arg_desc	arg[RT_FUNC_ARG_DESCS];
};

/*
 * Whether @size is an integer's that a register's value can be cut to
 * (1, 2, 4 or 8 bytes): what the kernel's BTF must say for an argument,
 * what a raw file's description must hold, what prints in decimal.
 */
static inline bool rt_func_arg_size_ok(uint32_t size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* "R", "S", "D" or "other": how a task left the CPU. */
const char *rt_offcpu_state_name(uint32_t state);

struct rt_lost_event {
	uint64_t	count;
	const char	*source;	/* NULL: a ringtrace ring; "perf": a perf ring */
};

/*
 * PERF_RECORD_SAMPLE. The callchain points into the record (or the ring's
 * bounce buffer): valid only while the event is being printed. It is kept
 * raw, PERF_CONTEXT_* markers included; read frames with
 * rt_sample_frame(), which copies (the bytes may be unaligned).
 */
struct rt_sample_event {
	const char		*event;		/* "cpu-clock": the sampler's event */
	uint64_t		ip;
	uint64_t		period;		/* 0 unless PERF_SAMPLE_PERIOD */
	uint32_t		nr_frames;	/* callchain entries, markers included */
	const unsigned char	*frames;	/* nr_frames __u64s, or NULL */
	bool			fp_loop;	/* cut at a frame-pointer loop */
};

/*
 * perf's user walk does not check that frames move up the stack: a frame
 * pointer that points at its own frame fills the chain to its depth with
 * one return address. A chain that ends with this many copies of one
 * frame is cut to one copy (fp_loop set), as the module's walk stops at
 * such a frame (RINGTRACE_STACK_USER_LOOP).
 */
#define RT_FP_LOOP_RUN		8

/*
 * PERF_RECORD_MMAP2 (recorded with --raw --sample): @path and @build_id
 * point into the record, valid while the event is handled.
 */
struct rt_mmap_event {
	uint64_t		start, len, pgoff;
	const char		*path;		/* NUL-terminated in the record */
	const uint8_t		*build_id;	/* NULL unless the kernel gave it */
	uint32_t		build_id_len;
};

/* PERF_RECORD_FORK: the new task is the event's pid/tid. */
struct rt_fork_event {
	uint32_t		ppid, ptid;
};

/* Entry @i of a sample's raw callchain. */
static inline uint64_t rt_sample_frame(const struct rt_sample_event *s,
				       uint32_t i)
{
	uint64_t v;

	memcpy(&v, s->frames + (size_t)i * sizeof(v), sizeof(v));
	return v;
}

/* Callchain entries at or above this are PERF_CONTEXT_* markers. */
#define RT_PERF_CONTEXT_MARKERS	((uint64_t)-4095)

static inline bool rt_sample_frame_is_marker(uint64_t ip)
{
	return ip >= RT_PERF_CONTEXT_MARKERS;
}

/*
 * The next real frame of @s at or after entry *@i, PERF_CONTEXT_* markers
 * skipped; false once there is none.
 */
static inline bool rt_sample_next_frame(const struct rt_sample_event *s,
					uint32_t *i, uint64_t *ip)
{
	while (*i < s->nr_frames) {
		*ip = rt_sample_frame(s, (*i)++);
		if (!rt_sample_frame_is_marker(*ip))
			return true;
	}
	return false;
}

struct rt_counter_value;

/*
 * A counter snapshot: @nr counters over the @interval_ns ending at ts_ns,
 * for one CPU (cpu) or one process (cpu RT_EVENT_CPU_ANY, pid). names and
 * values point at the counter set and the snapshot record: valid only
 * while the event is being printed.
 */
struct rt_counters_event {
	uint64_t			interval_ns;
	int32_t				target_pid;	/* -1 on a CPU row */
	uint32_t			nr;
	const char			*const *names;	/* [nr] */
	const struct rt_counter_value	*values;	/* [nr] */
};

struct rt_event {
	enum rt_event_kind	kind;
	uint32_t		raw_type;	/* header.type as found */
	uint64_t		ts_ns;		/* CLOCK_MONOTONIC */
	uint32_t		cpu;
	uint32_t		pid;		/* 0 when the kind has no task */
	uint32_t		tid;
	char			comm[RINGTRACE_COMM_LEN + 1];	/* always NUL-terminated */
	union {
		struct rt_vfs_read_event	vfs_read;
		struct rt_lock_event		lock;
		struct rt_lost_event		lost;
		struct rt_sample_event		sample;
		struct rt_counters_event	counters;
		struct rt_path_event		path;
		struct rt_mmap_event		mmap;
		struct rt_fork_event		fork;
		struct rt_offcpu_event		offcpu;
		struct rt_cgroup_event		cgroup;
		struct rt_func_event		func;
	} u;
	struct rt_stack		stack;		/* rt_event_about_task() kinds */
	struct rt_task_ext	ext;		/* rt_event_about_task() kinds */
};

/*
 * The module's records about a task: those that may carry a task_ext
 * (a cgroup to name) and a stack trailer (kernel frames to name). One
 * list, so that a new kind is named everywhere at once.
 */
static inline bool rt_event_about_task(enum rt_event_kind kind)
{
	return kind == RT_EVENT_VFS_READ || kind == RT_EVENT_LOCK ||
	       kind == RT_EVENT_OFFCPU || kind == RT_EVENT_FUNC;
}

enum rt_decode_status {
	RT_DECODE_OK		= 0,
	RT_DECODE_UNKNOWN	= 1,	/* type not known: skip and count */
	RT_DECODE_SKIP		= 2,	/* known, nothing to print (perf's COMM,
					   THROTTLE...): not counted */
	RT_DECODE_ERR_SHORT	= -1,	/* shorter than its type's structure */
};

/*
 * Decode @size bytes at @rec (a whole record, header included, as handed
 * out by rt_ring_peek() or read from a raw file). @ring_cpu is the CPU of
 * the ring it came from: LOST records carry no CPU of their own. Records
 * longer than the structure known here are accepted (fields appended by a
 * newer module are ignored).
 */
int rt_decode(const void *rec, size_t size, uint32_t ring_cpu,
	      struct rt_event *ev);

/*
 * Timestamp used to order a ringtrace record: every type defined so far
 * has a __u64 ts_ns right after the header; records too short to hold one
 * sort as 0 (they are emitted, and counted as malformed, at once).
 */
uint64_t rt_record_ts(const void *rec, size_t size);

const char *rt_event_kind_name(enum rt_event_kind kind);

/*
 * perf rings (perf_event_open() mmap): what a record holds depends on the
 * event's sample_type and sample_id_all, so decoding one needs them. The
 * offsets are computed once, so finding a record's time costs one load.
 */
struct rt_perf_format {
	uint64_t	sample_type;	/* PERF_SAMPLE_*; READ, RAW, BRANCH_STACK
					   and later bits are refused */
	bool		sample_id_all;	/* non-sample records end with sample_id */
	const char	*event;		/* name samples are printed with */
	uint32_t	time_off;	/* SAMPLE: offset of time; 0: none */
	uint32_t	id_len;		/* bytes of the sample_id trailer */
	int32_t		id_tid_off;	/* in the trailer; -1: absent */
	int32_t		id_time_off;
	int32_t		id_cpu_off;
};

/* 0, or -EINVAL if @sample_type has a field this decoder cannot skip. */
int rt_perf_format_init(struct rt_perf_format *f, uint64_t sample_type,
			bool sample_id_all, const char *event);

/*
 * Decode a perf record: SAMPLE -> RT_EVENT_SAMPLE (comm left empty: perf
 * samples carry none; the reader names them from COMM records), LOST ->
 * RT_EVENT_LOST (source "perf"), COMM -> RT_EVENT_COMM, FORK ->
 * RT_EVENT_FORK; THROTTLE, UNTHROTTLE, EXIT and the like -> RT_DECODE_SKIP; anything else
 * RT_DECODE_UNKNOWN. Sizes are checked against the format: a record too
 * short for what its format promises is RT_DECODE_ERR_SHORT.
 */
int rt_decode_perf(const struct rt_perf_format *f, const void *rec,
		   size_t size, uint32_t ring_cpu, struct rt_event *ev);

/* CLOCK_MONOTONIC time of a perf record (use_clockid); 0 if it has none. */
uint64_t rt_perf_record_ts(const struct rt_perf_format *f, const void *rec,
			   size_t size);

#endif /* RINGTRACE_RECORD_H */
