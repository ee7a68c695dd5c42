/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ringtrace: the ABI between ringtrace.ko and its readers.
 *
 * This header is the single source of truth for the layout of the control
 * page, the records and the ioctls. Tools and tests include it; nothing
 * re-declares these structures. It needs nothing beyond <linux/types.h>
 * and <linux/ioctl.h>, so C and C++ programs can use it without kernel
 * headers.
 *
 * Compatibility rules (see Documentation/abi.rst):
 *  - structures only grow at the end; a field once published keeps its
 *    offset, size and meaning;
 *  - the ioctl structures start with a __u32 size the caller fills in, so
 *    old binaries keep working against a newer module and vice versa
 *    (the kernel zero-fills what the caller did not know about, and
 *    refuses non-zero bytes it does not know about with E2BIG);
 *  - readers skip record types they do not know, using header.size;
 *  - a record may be longer than the structure below (new fields are
 *    appended); readers must use header.size, never sizeof, to advance.
 */
#ifndef _UAPI_LINUX_RINGTRACE_H
#define _UAPI_LINUX_RINGTRACE_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define RINGTRACE_DEVICE_NAME		"ringtrace"
#define RINGTRACE_DEVICE_PATH		"/dev/ringtrace"

/*
 * Bumped when anything below changes; readers check compat_version.
 * 2: path records, stack trailers; 3: per-thread rings,
 * overwrite mode (flight recorder), ring health.
 */
#define RINGTRACE_ABI_VERSION		3
/*
 * Oldest reader ABI that can read this module's rings (compat_version):
 * ABI 2 only added record types, flags and fields an ABI 1 reader skips;
 * ABI 3 modes an ABI 1 reader never asks for, control page fields it
 * ignores and a GET_STATS tail.
 */
#define RINGTRACE_ABI_COMPAT_VERSION	1

/*
 * Mapping a CPU's ring
 * --------------------
 * Each CPU's ring is one mmap() of the session's file descriptor:
 *
 *	len    = (1 + 2^n) * page_size	control page + 2^n data pages
 *	offset = RINGTRACE_MMAP_OFFSET(cpu)
 *	prot   = PROT_READ | PROT_WRITE	(PROT_READ alone: an observer that
 *					 never frees space)
 *	flags  = MAP_SHARED
 *
 * The first mapping of a CPU's ring chooses its size; later mappings of the
 * same ring must use the same length. Any other length, MAP_PRIVATE or
 * PROT_EXEC is refused (EINVAL / EINVAL / EPERM). Only the control page can
 * be written from userspace: a store to a data page raises SIGBUS.
 *
 * Per-thread sessions (RINGTRACE_CFG_PER_THREAD, ABI 3) have one ring per
 * selected thread instead: RINGTRACE_MMAP_OFFSET(i) maps the ring of the
 * i-th thread of ringtrace_config.tids_ptr (0 <= i < nr_tids), whose
 * control page says cpu = RINGTRACE_CPU_NONE and tid = that thread.
 */
#define RINGTRACE_MMAP_CPU_SHIFT	32
#define RINGTRACE_MMAP_OFFSET(cpu)	((__u64)(cpu) << RINGTRACE_MMAP_CPU_SHIFT)

/*
 * The control page, page 0 of every ring mapping.
 *
 * The first fields play the role of perf_event_mmap_page's header;
 * data_head, data_tail, data_offset and data_size sit at the same offsets
 * (1024..1055) and mean the same as perf's, so one reader serves both
 * rings.
 *
 * Everything here except data_tail is written by the kernel only and is
 * never read back by it: the kernel keeps its own copy of every value.
 * data_tail is the reader's; the kernel reads it only to compute free space,
 * and a hostile value can at worst make records be dropped (and counted).
 */
struct ringtrace_mmap_page {
	__u32	version;		/* RINGTRACE_ABI_VERSION of the module */
	__u32	compat_version;		/* lowest ABI version a reader needs */
	__u32	cpu;			/* CPU whose events this ring holds */
	__u32	flags;			/* RINGTRACE_PAGE_* */
	/*
	 * Cumulative counters, refreshed when the reader is woken for the
	 * watermark, while records are being dropped, and on DISABLE (exact
	 * from then on). records + lost == produced: every event that
	 * passed the session's filters on this CPU.
	 */
	__u64	records;		/* records written (LOST records excluded) */
	__u64	lost;			/* records dropped because the ring was full */
	__u64	bytes;			/* bytes written, LOST records included */
	__u64	lost_pending;		/* dropped, not yet reported by a LOST record */

	/*
	 * flight recorder and buffer health (ABI 3; 0 from older
	 * modules). Refreshed with the counters above, and in overwrite mode
	 * also every half ring written; GET_STATS has the exact values.
	 */
	/*
	 * Most bytes the ring held unread at once (data_head - data_tail
	 * after a reservation, from the reader's data_tail); in overwrite
	 * mode, the most bytes of complete records it held (data_size
	 * once it wrapped).
	 */
	__u64	high_water;
	__u64	wakeups;		/* watermark wake-ups this ring sent */
	/* RINGTRACE_CFG_OVERWRITE: records overwritten (LOST included). */
	__u64	overwritten;
	/*
	 * RINGTRACE_CFG_OVERWRITE: where the oldest record still intact
	 * starts (free-running, like data_head). Always current (not only
	 * refreshed): the snapshot protocol in Documentation/protocol.rst
	 * reads it after copying to discard what was overwritten meanwhile.
	 */
	__u64	overwrite_tail;
	/* ---- end flight recorder and buffer health ---- */

	__u8	__reserved[1024 - 80 - 8];	/* keeps data_head at perf's offset */

	/*
	 * ---- per-thread rings (ABI 3) ----
	 * Taken from the END of the reserved bytes (offsets 1016..1023);
	 * they were zero before ABI 3, which means "a CPU's ring".
	 * A per-thread session's ring: the thread whose records it holds,
	 * as SET_CONFIG named it (cpu is then RINGTRACE_CPU_NONE); 0 in a
	 * CPU's ring.
	 */
	__u32	tid;
	__u32	thread_flags;		/* RINGTRACE_THREAD_*, per-thread rings */

	/*
	 * Head and tail, perf's protocol (Documentation/protocol.rst):
	 *
	 *   kernel                          user
	 *   if (LOAD data_tail) {           LOAD-ACQUIRE data_head    (C)
	 *           (A) ctrl dependency     LOAD $data
	 *     STORE $data                   STORE-RELEASE data_tail   (D)
	 *     smp_wmb()  (B)
	 *     STORE data_head
	 *   }
	 * A pairs with D, B pairs with C.
	 */
	__u64	data_head;		/* kernel: bytes ever written (free-running) */
	__u64	data_tail;		/* reader: bytes ever consumed */
	__u64	data_offset;		/* offset of the data area in the mapping */
	__u64	data_size;		/* data area size, a power of two */
};

/* ringtrace_mmap_page.cpu of a per-thread ring (ABI 3). */
#define RINGTRACE_CPU_NONE		0xffffffffU
/*
 * ringtrace_mmap_page.thread_flags: the thread has exited; nothing more
 * will be written, what is in the ring stays until drained. Set within a
 * flush period (ringtrace_config.flush_ms) of the exit, and by DISABLE.
 */
#define RINGTRACE_THREAD_EXITED		(1U << 0)

#define RINGTRACE_PAGE_ENABLED		(1U << 0)	/* session is producing */
/* the ring overwrites its oldest records (RINGTRACE_CFG_OVERWRITE). */
#define RINGTRACE_PAGE_OVERWRITE	(1U << 1)

/*
 * Records
 * -------
 * Every record starts with this header (perf_event_header's shape), followed
 * by a __u64 ts_ns (CLOCK_MONOTONIC), so a reader can order records of any
 * type, even one it does not know. Records are 8-byte aligned and padded:
 * size is a multiple of 8, at least 16, and every byte of a record is
 * initialised.
 */
struct ringtrace_event_header {
	__u32	type;			/* enum ringtrace_record_type */
	__u16	misc;			/* RINGTRACE_MISC_* */
	__u16	size;			/* whole record, header included */
};

#define RINGTRACE_RECORD_ALIGN		8

/* ringtrace_event_header.misc */
/* The record ends with a stack trailer (struct ringtrace_stack_trailer). */
#define RINGTRACE_MISC_STACK		(1U << 0)
/* a vfs_read record's offcpu_* fields were measured. */
#define RINGTRACE_MISC_OFFCPU		(1U << 1)
/*
 * the last 16 bytes before any stack frames (the end of the
 * fixed part, whatever its length) are a struct ringtrace_task_ext
 * (RINGTRACE_CFG_CGROUPS).
 */
#define RINGTRACE_MISC_TASK_EXT		(1U << 2)

enum ringtrace_record_type {
	/* Records were dropped since the previous record on this ring. */
	RINGTRACE_RECORD_LOST		= 1,
	/* One completed vfs_read() call. */
	RINGTRACE_RECORD_VFS_READ	= 2,
	/* One tracked-lock acquisition, or one kernel lock contention. */
	RINGTRACE_RECORD_LOCK		= 3,
	/* The name of a file, before the first record naming it (ABI 2). */
	RINGTRACE_RECORD_PATH		= 4,
	/* a task ran again after an off-CPU interval. */
	RINGTRACE_RECORD_OFFCPU		= 5,
	/* the path of a cgroup, before the first record naming it. */
	RINGTRACE_RECORD_CGROUP		= 6,
	/* One completed call of a traced kernel function (RINGTRACE_EVENT_FUNC). */
	RINGTRACE_RECORD_FUNC		= 7,

	RINGTRACE_RECORD_MAX,
};

#define RINGTRACE_COMM_LEN		16
#define RINGTRACE_LOCK_NAME_LEN		32

/* Who and when: common to every event record. */
struct ringtrace_task_ctx {
	__u64	ts_ns;			/* CLOCK_MONOTONIC, when the event ended */
	__u32	cpu;
	__u32	pid;			/* thread group id (what ps calls PID) */
	__u32	tid;
	__u32	__pad;			/* zero */
	char	comm[RINGTRACE_COMM_LEN];	/* NUL-padded */
};

struct ringtrace_lost_record {
	struct ringtrace_event_header	header;
	__u64	ts_ns;			/* when the loss was reported */
	__u64	lost;			/* records dropped on this ring */
};

/*
 * vfs_read(file, buf, count, pos) returned: task.ts_ns is the return time,
 * the call entered at task.ts_ns - lat_ns.
 */
struct ringtrace_vfs_read_record {
	struct ringtrace_event_header	header;
	struct ringtrace_task_ctx	task;
	__u32	dev_major;		/* device of the file's inode (st_dev) */
	__u32	dev_minor;
	__u64	ino;
	__s64	pos;			/* *pos at entry; -1 for stream files */
	__u64	count;			/* bytes requested */
	__s64	ret;			/* bytes read, or -errno */
	__u64	lat_ns;			/* entry to return */

	/*
	 * ---- off-CPU attribution (RINGTRACE_VFS_READ_SIZE_OFFCPU) ----
	 * Meaningful only with RINGTRACE_MISC_OFFCPU in header.misc (the
	 * session asked for RINGTRACE_EVENT_OFFCPU and the module followed
	 * the task's context switches for the whole call); zero otherwise.
	 */
	__u64	offcpu_ns;		/* off CPU between entry and return */
	__u64	offcpu_max_ns;		/* the longest of those intervals */
	/*
	 * When that longest interval ended: the ts_ns of the offcpu record
	 * of the same tid that describes it (and carries its stack), if it
	 * was at least the session's min_offcpu_ns; 0: the call never left
	 * the CPU.
	 */
	__u64	offcpu_max_ts;
};

/*
 * Sizes of the fixed part of a vfs_read record (before any stack trailer):
 * a reader knows a field is there when the fixed part is at least as long
 * as the size that introduced it.
 */
#define RINGTRACE_VFS_READ_SIZE_VER0	96
#define RINGTRACE_VFS_READ_SIZE_OFFCPU	120

/* ringtrace_lock_record.flags */
#define RINGTRACE_LOCK_CONTENDED	(1U << 0)	/* had to wait */
/* A kernel lock, from the contention tracepoints: no hold time. */
#define RINGTRACE_LOCK_KERNEL		(1U << 1)
#define RINGTRACE_LOCK_ID_HASHED	(1U << 2)	/* lock_id is not an address */

/*
 * A tracked lock was released (wait_ns and hold_ns known), or a kernel lock
 * contention ended (RINGTRACE_LOCK_KERNEL: hold_ns is 0). task.ts_ns is when
 * the record was written: release time, or contention end.
 */
struct ringtrace_lock_record {
	struct ringtrace_event_header	header;
	struct ringtrace_task_ctx	task;
	__u64	lock_id;		/* stable per lock; see RINGTRACE_LOCK_ID_HASHED */
	__u64	wait_ns;		/* time spent waiting to acquire */
	__u64	hold_ns;		/* time held */
	__u32	flags;			/* RINGTRACE_LOCK_* */
	__u32	__pad;			/* zero */
	char	name[RINGTRACE_LOCK_NAME_LEN];	/* NUL-padded */
};

/* ---- off-CPU intervals (RINGTRACE_EVENT_OFFCPU) ---- */

/*
 * ringtrace_offcpu_record.state: how the task left the CPU, from the state
 * the scheduler saw at the switch (prev_state of sched:sched_switch).
 */
#define RINGTRACE_OFFCPU_PREEMPTED	0	/* runnable, preempted ("R") */
#define RINGTRACE_OFFCPU_SLEEP		1	/* TASK_INTERRUPTIBLE ("S") */
#define RINGTRACE_OFFCPU_DISK		2	/* TASK_UNINTERRUPTIBLE ("D") */
#define RINGTRACE_OFFCPU_OTHER		3	/* stopped, traced, parked... */

/*
 * One off-CPU interval of a traced task, written when the task runs again,
 * on the ring of the CPU it came back on (per-thread sessions: its ring).
 * task is the task that ran again: task.ts_ns is when it did, task.cpu the
 * CPU it came back on; it left at task.ts_ns - offcpu_ns, from cpu_out.
 * With RINGTRACE_MISC_STACK the stack trailer holds the stacks taken when
 * it left (the kernel stack then ends in the scheduler).
 */
struct ringtrace_offcpu_record {
	struct ringtrace_event_header	header;
	struct ringtrace_task_ctx	task;
	__u64	offcpu_ns;		/* how long it was off CPU */
	__u32	cpu_out;		/* the CPU it left */
	__u32	state;			/* RINGTRACE_OFFCPU_* */
};

#define RINGTRACE_OFFCPU_SIZE_VER0	64

/* ---- end off-CPU time ---- */

/* ---- func: any kernel function (RINGTRACE_EVENT_FUNC) ---- */

/*
 * One call of a function the session named (ringtrace_config.funcs_ptr)
 * returned: task.ts_ns is the return time, the call entered at
 * task.ts_ns - lat_ns. nr_args raw argument registers (the arch's calling
 * convention, ringtrace_config.func_args of them) follow the fixed 80
 * bytes: RINGTRACE_FUNC_RECORD_ARGS(rec); a task_ext and a stack trailer,
 * when present, come after them (the fixed part is 80 + 8 * nr_args).
 */
struct ringtrace_func_record {
	struct ringtrace_event_header	header;
	struct ringtrace_task_ctx	task;
	__u64	func_ip;		/* the probed address (kallsyms names it) */
	__u32	func_idx;		/* index of the name at funcs_ptr */
	__u32	nr_args;		/* __u64 arguments after the fixed part */
	__s64	ret;			/* the return register, as a signed long */
	__u64	lat_ns;			/* entry to return */
};

#define RINGTRACE_FUNC_SIZE_VER0	80
#define RINGTRACE_FUNC_RECORD_ARGS(rec)	((const __u64 *)((rec) + 1))

/*
 * A name at funcs_ptr that starts with this prefix names a kernel
 * tracepoint, not a function (RINGTRACE_FEAT_FUNC_TRACEPOINT):
 * "tp:SUBSYS:NAME" or "tp:NAME"; the module looks up NAME, the part after
 * the last ':', among the kernel's own (built-in) tracepoints. Each hit
 * is one ringtrace_func_record written when it fires: lat_ns 0, ret 0,
 * func_ip the address of the kernel's struct tracepoint, and its first
 * nr_args arguments (those after the tracepoint's data pointer) as the
 * registers held them: an argument narrower than 64 bits leaves the
 * upper bits undefined, arguments past the tracepoint's last are
 * meaningless (BTF's btf_trace_NAME typedef gives the prototype).
 */
#define RINGTRACE_FUNC_TP_PREFIX	"tp:"

/*
 * Most functions one session may trace (nr_funcs), arguments per record.
 * A module older than RINGTRACE_INFO_SIZE_FUNCS took at most
 * RINGTRACE_MAX_FUNCS_VER0 (EINVAL above); ringtrace_info.max_funcs says
 * what the loaded module takes.
 */
#define RINGTRACE_MAX_FUNCS		1024
#define RINGTRACE_MAX_FUNCS_VER0	64
#define RINGTRACE_FUNC_MAX_ARGS		6
/* Bytes per name at funcs_ptr, the terminating NUL included. */
#define RINGTRACE_FUNC_NAME_LEN		64

/* ---- end func ---- */

/* ---- ABI 2: path records (RINGTRACE_CFG_PATHS) ---- */

/* ringtrace_path_record.flags */
/* Longer than the session's path_max: path holds its last bytes. */
#define RINGTRACE_PATH_TRUNCATED	(1U << 0)
/* The file was unlinked; path is its last name (no " (deleted)"). */
#define RINGTRACE_PATH_DELETED		(1U << 1)
/* Not a filesystem path but the kernel's name, e.g. "pipe:[1234]". */
#define RINGTRACE_PATH_PSEUDO		(1U << 2)
/*
 * Relative to the root of the mount the file was opened through, not to
 * the reading process's root (kernels where the full walk cannot be done
 * in the probe, see Documentation/protocol.rst); starts with '/'.
 */
#define RINGTRACE_PATH_MOUNT_RELATIVE	(1U << 3)
/* No name could be resolved: path_len is 0. */
#define RINGTRACE_PATH_UNRESOLVED	(1U << 4)
/*
 * The session's path cache had no room for this file: a path record will
 * precede every record naming it, not only the first.
 */
#define RINGTRACE_PATH_UNCACHED		(1U << 5)

/*
 * A file's name, written once per file per session, the first time the
 * session sees (dev, ino): on the same ring as, and right before, the first
 * record naming the file, with the same ts_ns. The path is the one the
 * probed call's struct file was opened by, as d_path() would show it to
 * the reading process. Variable length: header.size is
 * 40 + path_len + 1 rounded up to 8; the path starts right after the
 * structure, and the bytes after its path_len bytes (the NUL terminator
 * and padding) are zero. Documentation/protocol.rst says
 * when a file is named more than once.
 */
struct ringtrace_path_record {
	struct ringtrace_event_header	header;
	__u64	ts_ns;			/* ts_ns of the record it precedes */
	__u32	dev_major;		/* as in ringtrace_vfs_read_record */
	__u32	dev_minor;
	__u64	ino;
	__u32	flags;			/* RINGTRACE_PATH_* */
	__u16	path_len;		/* bytes in path, NUL excluded */
	__u16	__pad;			/* zero */
	/*
	 * Followed by the path, NUL-terminated and zero-padded: at
	 * RINGTRACE_PATH_RECORD_PATH(rec) (no flexible array member, which
	 * C++ does not have).
	 */
};

#define RINGTRACE_PATH_RECORD_PATH(rec)	((const char *)((rec) + 1))

/* ---- containers (RINGTRACE_CFG_CGROUPS) ---- */

/*
 * Who, seen from outside any container: the last 16 bytes of the fixed
 * part of a vfs_read, lock or offcpu record whose header.misc has
 * RINGTRACE_MISC_TASK_EXT, right before any stack frames (at offset 120
 * of a vfs_read record of this ABI, 112 of a lock record, 64 of an offcpu
 * record: the task that ran again; a reader finds
 * it from the end, as the fixed part grows). task.pid and task.tid are the reader's view (the pid
 * namespace of the process that opened the session); these are the
 * initial namespace's, the same for a reader there.
 */
struct ringtrace_task_ext {
	__u64	cgroup_id;		/* the task's cgroup v2 id; 0: none */
	__u32	host_pid;		/* task.pid in the initial pid namespace */
	__u32	host_tid;		/* task.tid in the initial pid namespace */
};

/* ringtrace_cgroup_record.flags */
/*
 * Longer than RINGTRACE_CGROUP_PATH_MAX: path holds its last components
 * (6.15 and later; a single name longer than that, its last bytes) or its
 * first bytes (before 6.15). path_len is at most RINGTRACE_CGROUP_PATH_MAX.
 */
#define RINGTRACE_CGROUP_TRUNCATED	(1U << 0)
/* No name could be had in the probe (PREEMPT_RT before 6.15): path_len 0. */
#define RINGTRACE_CGROUP_UNRESOLVED	(1U << 1)
/* The session's table of named cgroups was full: named before each use. */
#define RINGTRACE_CGROUP_UNCACHED	(1U << 2)

/* Longest cgroup path a cgroup record carries. */
#define RINGTRACE_CGROUP_PATH_MAX	255

/*
 * A cgroup's path from the root of the cgroup v2 hierarchy ("/" for the
 * root, "/system.slice/nginx.service"), written once per cgroup per
 * enabled period the first time a record with a task_ext names the id, on
 * the same ring as, and right before, that record, with the same ts_ns;
 * named more than once under the rules of path records
 * (Documentation/protocol.rst). Variable length: header.size is
 * 32 + path_len + 1 rounded up to 8; the NUL-terminated path follows
 * the structure, zero-padded. The path is not relative to the reader's
 * cgroup namespace.
 */
struct ringtrace_cgroup_record {
	struct ringtrace_event_header	header;
	__u64	ts_ns;			/* ts_ns of the record it precedes */
	__u64	cgroup_id;		/* as in ringtrace_task_ext */
	__u32	flags;			/* RINGTRACE_CGROUP_* */
	__u16	path_len;		/* bytes in path, NUL excluded */
	__u16	__pad;			/* zero */
	/* Followed by the path: RINGTRACE_CGROUP_RECORD_PATH(rec). */
};

#define RINGTRACE_CGROUP_RECORD_PATH(rec)	((const char *)((rec) + 1))

/* ---- ABI 2: stack trailers (ringtrace_config.stack_events) ---- */

/* ringtrace_stack_trailer.flags */
/* The kernel stack had more frames than stack_kernel_depth. */
#define RINGTRACE_STACK_KERNEL_TRUNCATED	(1U << 0)
/* The user stack had more frames than stack_user_depth. */
#define RINGTRACE_STACK_USER_TRUNCATED		(1U << 1)
/*
 * No user stack: interrupt context, kernel thread, 32-bit task, or an
 * architecture without the user walk (RINGTRACE_FEAT_STACK_USER unset).
 */
#define RINGTRACE_STACK_USER_NONE		(1U << 2)
/* The user walk stopped at a frame it could not read (no frame pointer). */
#define RINGTRACE_STACK_USER_FAULT		(1U << 3)
/*
 * The user walk stopped at a frame pointer that did not move up the stack
 * (it repeated, or went down): a frame-pointer loop, or a register that
 * code built without frame pointers used for something else.
 */
#define RINGTRACE_STACK_USER_LOOP		(1U << 4)

/*
 * A record with RINGTRACE_MISC_STACK in header.misc (vfs_read and lock
 * records, as ringtrace_config.stack_events asks) carries the stack of the
 * probed call at its END, so that the fixed part may still grow:
 *
 *	[record's fixed part][__u64 kernel_ip[nr_kernel]]
 *	[__u64 user_ip[nr_user]][struct ringtrace_stack_trailer]
 *
 * The trailer is the last 8 bytes of the record (header.size - 8); the
 * user addresses end where it starts, the kernel ones right before them.
 * Innermost frame first in each array. A reader that does not know the
 * flag sees a longer record and ignores the tail.
 */
struct ringtrace_stack_trailer {
	__u16	nr_kernel;		/* kernel return addresses */
	__u16	nr_user;		/* user return addresses */
	__u32	flags;			/* RINGTRACE_STACK_* */
};

/* Most frames a stack of each kind may ask for (stack_*_depth). */
#define RINGTRACE_STACK_MAX_DEPTH	64

/*
 * Sessions
 * --------
 * Each open() of /dev/ringtrace is an independent session: configure it
 * (SET_CONFIG), map one ring per CPU, then ENABLE. While enabled the
 * configuration cannot change (EBUSY). DISABLE stops producing: when it
 * returns, every record is published (no writer is left in flight), losses
 * not yet reported are in a LOST record where there was room, and readers
 * are woken to drain. Closing the last reference (fd and mappings) frees
 * everything.
 */

/* Events a session can ask for (ringtrace_config.events). */
#define RINGTRACE_EVENT_VFS_READ	(1ULL << 0)
#define RINGTRACE_EVENT_LOCK		(1ULL << 1)	/* tracked locks */
#define RINGTRACE_EVENT_LOCK_CONTENTION	(1ULL << 2)	/* lock:contention_* */
/*
 * off-CPU intervals (sched:sched_switch), and the offcpu_*
 * fields of the session's vfs_read records.
 */
#define RINGTRACE_EVENT_OFFCPU		(1ULL << 3)
/* Calls of the kernel functions named at funcs_ptr (RINGTRACE_FEAT_FUNC). */
#define RINGTRACE_EVENT_FUNC		(1ULL << 4)

/* ringtrace_config.flags */
#define RINGTRACE_CFG_INHERIT		(1U << 0)	/* pid filter includes descendants */
#define RINGTRACE_CFG_INCLUDE_SELF	(1U << 1)	/* do not exclude the opener's process */
/* ABI 2: path records for the files vfs_read records name. */
#define RINGTRACE_CFG_PATHS		(1U << 2)
/*
 * flight recorder (ABI 3, RINGTRACE_FEAT_OVERWRITE). The rings
 * never wait for the reader: a record that does not fit overwrites the
 * oldest whole records; data_tail is ignored, no watermark or flush
 * wake-ups are sent. Read them with the snapshot protocol
 * (Documentation/protocol.rst, overwrite_tail).
 */
#define RINGTRACE_CFG_OVERWRITE		(1U << 3)
/*
 * Cgroup records (RINGTRACE_FEAT_CGROUP): vfs_read, lock and offcpu
 * records carry a
 * struct ringtrace_task_ext (RINGTRACE_MISC_TASK_EXT), and cgroup records
 * name the cgroups they give.
 */
#define RINGTRACE_CFG_CGROUPS		(1U << 4)
/*
 * Cgroup ids without names (RINGTRACE_FEAT_CGROUP_IDS): with
 * RINGTRACE_CFG_CGROUPS, the
 * task_ext only, no cgroup records: ids a reader cannot name, for the
 * lowest cost. Refused without RINGTRACE_CFG_CGROUPS.
 */
#define RINGTRACE_CFG_NO_CGROUP_NAMES	(1U << 5)
/*
 * Per-thread rings, ABI 3: one ring per thread of tids_ptr (not per
 * CPU), holding
 * that thread's task-context records whatever CPU it runs on; pid must
 * be -1 and INHERIT unset. Documentation/abi.rst, "Per-thread rings".
 */
#define RINGTRACE_CFG_PER_THREAD	(1U << 8)
/*
 * Function calls inside reads only (RINGTRACE_FEAT_FUNC_IN_READ): a
 * call of the session's functions (RINGTRACE_EVENT_FUNC) is recorded
 * only while its task is inside a vfs_read call the session traces
 * (entered while the session, or another with this flag, was enabled
 * and wanted the task; nested reads count once each). Calls outside
 * any read are counted in ringtrace_stats.func_outside_read, not
 * written. Needs RINGTRACE_EVENT_VFS_READ and RINGTRACE_EVENT_FUNC.
 * Documentation/abi.rst, "Calls inside reads".
 */
#define RINGTRACE_CFG_FUNC_IN_READ	(1U << 9)
/*
 * Calls held until their read returns (RINGTRACE_FEAT_FUNC_HOLD), with
 * RINGTRACE_CFG_FUNC_IN_READ and a min_latency_ns: the module holds a
 * call of the session's functions made inside a read, in its task's
 * entry, instead of writing it at once. When the task's outermost read
 * returns, its held calls are written if that read took at least
 * min_latency_ns, and dropped otherwise: counted in
 * ringtrace_stats.func_fast_read, not written and not in produced. So
 * the callees of the reads a min_latency_ns leaves out cost no record.
 * A nested read's return writes what is held. A call that cannot be
 * held is written at once, as without the flag: one with arguments or
 * a stack trailer, one in interrupt context, one of a task the module
 * does not follow (func_inread_unknown), a tracepoint hit; so are the
 * held calls when the task's room (module parameter inread_held) is
 * full. A held call keeps its own time and CPU; it is written before the
 * read's record, on the ring the read returns on, which is then not in
 * time order. EINVAL without RINGTRACE_CFG_FUNC_IN_READ or
 * min_latency_ns. Documentation/abi.rst, "Calls held until the read
 * returns".
 */
#define RINGTRACE_CFG_FUNC_HOLD		(1U << 10)

#define RINGTRACE_CONFIG_SIZE_VER0	64	/* first published size */
#define RINGTRACE_CONFIG_SIZE_VER1	80	/* ABI 2: paths and stacks */
#define RINGTRACE_CONFIG_SIZE_THREADS	96	/* per-thread rings */
#define RINGTRACE_CONFIG_SIZE_ATTACH	104	/* vfs_read_attach */
#define RINGTRACE_CONFIG_SIZE_OFFCPU	112	/* min_offcpu_ns */
#define RINGTRACE_CONFIG_SIZE_CGROUP	128	/* cgroup filter */
#define RINGTRACE_CONFIG_SIZE_VALUES	168	/* ret/count ranges */
#define RINGTRACE_CONFIG_SIZE_FUNCS	184	/* any kernel function */

/* Most threads a per-thread session may select (nr_tids). */
#define RINGTRACE_MAX_THREADS		256

/* Defaults for the ABI 2 fields left 0. */
#define RINGTRACE_PATH_CACHE_DEFAULT	4096	/* files per session */
#define RINGTRACE_PATH_CACHE_MAX	(1U << 20)
#define RINGTRACE_PATH_MAX_DEFAULT	256	/* bytes of path kept */
#define RINGTRACE_PATH_MAX_MAX		4095

struct ringtrace_config {
	__u32	size;			/* sizeof(struct ringtrace_config) */
	__u32	flags;			/* RINGTRACE_CFG_* */
	__u64	events;			/* RINGTRACE_EVENT_* */
	__s32	pid;			/* process (tgid) to trace; -1: all */
	__u32	cpu_mask_bytes;		/* size of the bitmap at cpu_mask_ptr */
	__u64	cpu_mask_ptr;		/* CPU bitmap (bit n = CPU n), 0: all CPUs */
	__u64	min_latency_ns;		/* vfs_read: drop calls faster than this */
	/* Wake the reader once this much is unread; 0: half the ring. */
	__u32	watermark_bytes;
	/* Wake a reader at least this often while anything is unread; 0: 100. */
	__u32	flush_ms;
	/*
	 * lock events: with both 0, every acquisition; otherwise only those
	 * that waited at least lock_min_wait_ns (when non-zero) or held the
	 * lock at least lock_min_hold_ns (when non-zero).
	 */
	__u64	lock_min_wait_ns;
	__u64	lock_min_hold_ns;

	/* ---- ABI 2 (RINGTRACE_CONFIG_SIZE_VER1): paths and stacks ---- */
	/*
	 * Records of these events (RINGTRACE_EVENT_VFS_READ, _LOCK,
	 * _LOCK_CONTENTION) carry a stack trailer; 0: none. At least one
	 * of the depths below must then be non-zero.
	 */
	__u64	stack_events;
	/*
	 * RINGTRACE_CFG_PATHS: files the session remembers having named;
	 * 0: RINGTRACE_PATH_CACHE_DEFAULT; rounded up to a power of two, at
	 * most RINGTRACE_PATH_CACHE_MAX.
	 */
	__u32	path_cache_entries;
	/* RINGTRACE_CFG_PATHS: longest path kept; 0: the default. */
	__u16	path_max;
	/* Kernel frames per stack, at most RINGTRACE_STACK_MAX_DEPTH; 0: none. */
	__u8	stack_kernel_depth;
	/* User frames per stack (frame-pointer walk); 0: none. */
	__u8	stack_user_depth;

	/* ---- per-thread rings (RINGTRACE_CONFIG_SIZE_THREADS) ---- */
	/*
	 * RINGTRACE_CFG_PER_THREAD: thread ids (__s32, in the caller's pid
	 * namespace, each naming a live thread: ESRCH otherwise, EINVAL if
	 * repeated) at tids_ptr, 1..RINGTRACE_MAX_THREADS of them; ring i
	 * is tids[i]'s. Both 0 otherwise.
	 */
	__u32	nr_tids;
	__u32	__pad_threads;		/* zero */
	__u64	tids_ptr;

	/* ---- vfs_read's mechanism (RINGTRACE_CONFIG_SIZE_ATTACH) ---- */
	/*
	 * RINGTRACE_ATTACH_*: attach vfs_read with this mechanism, or fail
	 * the ENABLE; 0: the module's choice (its vfs_read_attach parameter,
	 * by default the cheapest mechanism that shares vfs_read with every
	 * other tool: the direct call is only used when asked for). One
	 * mechanism serves every session at a time: asking for another one
	 * than the sessions tracing vfs_read now use gives EBUSY, as does the
	 * direct call while another tool (a BPF trampoline) holds vfs_read's.
	 * EOPNOTSUPP: this kernel (or module set) does not offer it.
	 */
	__u32	vfs_read_attach;
	__u32	__pad_attach;		/* zero */

	/* ---- off-CPU intervals (RINGTRACE_CONFIG_SIZE_OFFCPU) ---- */
	/*
	 * RINGTRACE_EVENT_OFFCPU: write no record for an interval shorter
	 * than this (checked before any ring work); 0: every interval.
	 * vfs_read records' offcpu_ns counts every interval regardless.
	 */
	__u64	min_offcpu_ns;

	/* ---- cgroup filter (RINGTRACE_CONFIG_SIZE_CGROUP) ---- */
	/*
	 * Record only tasks in one of these cgroup v2 cgroups or below
	 * them: nr_cgroups cgroup ids (__u64, what name_to_handle_at()
	 * returns as the handle of the cgroup's directory on cgroup2, and
	 * what bpf_get_current_cgroup_id() returns) at cgroup_ids_ptr, at
	 * most RINGTRACE_MAX_CGROUPS of them; both 0: every cgroup. ENOENT:
	 * an id names no cgroup of the default (v2) hierarchy visible from
	 * the caller's cgroup namespace; EINVAL: an id repeated;
	 * EOPNOTSUPP: no RINGTRACE_FEAT_CGROUP. ANDed with the other
	 * filters. A cgroup removed while traced just has no task left.
	 */
	__u32	nr_cgroups;
	__u32	__pad_cgroup;		/* zero */
	__u64	cgroup_ids_ptr;

	/* ---- vfs_read value filter (RINGTRACE_CONFIG_SIZE_VALUES) ---- */
	/*
	 * RINGTRACE_VFS_READ_RET: record only calls that returned within
	 * [ret_min, ret_max]; RINGTRACE_VFS_READ_COUNT: only calls that asked
	 * for [count_min, count_max] bytes (both inclusive). Decided at
	 * vfs_read's return, before any ring work, and counted in
	 * ringtrace_stats.vfs_read_filtered. 0 (what an older caller sends):
	 * no such filter. EINVAL: a min above its max, an unknown bit, a
	 * range not asked for that is not zero; E2BIG from a module without
	 * RINGTRACE_FEAT_VFS_READ_VALUES (it does not know these bytes).
	 */
	__u32	vfs_read_values;	/* RINGTRACE_VFS_READ_RET | _COUNT */
	__u32	__pad_values;		/* zero */
	__s64	vfs_read_ret_min;
	__s64	vfs_read_ret_max;
	__u64	vfs_read_count_min;
	__u64	vfs_read_count_max;

	/* ---- func: any kernel function (RINGTRACE_CONFIG_SIZE_FUNCS) ---- */
	/*
	 * RINGTRACE_EVENT_FUNC: trace these kernel functions, each call one
	 * ringtrace_func_record. funcs_ptr holds nr_funcs names (1 to
	 * RINGTRACE_MAX_FUNCS, each in RINGTRACE_FUNC_NAME_LEN bytes,
	 * NUL-terminated, distinct); func_args raw arguments per record (at
	 * most RINGTRACE_FUNC_MAX_ARGS). All three 0 without the event.
	 * SET_CONFIG checks the shape (EINVAL); ENABLE attaches through
	 * probes that share the function with every other tool (fprobe where
	 * the kernel has it, else a kretprobe) and refuses a function it
	 * cannot probe: ENOENT (no such symbol, or one ftrace cannot hook:
	 * notrace, inlined), EINVAL (kprobes refuse it: blacklisted), with a
	 * line naming it in the kernel log. A RINGTRACE_FUNC_TP_PREFIX name
	 * is a tracepoint's, attached with tracepoint_probe_register() (which
	 * any number of tools share): ENOENT (no such built-in tracepoint),
	 * EOPNOTSUPP (a module without RINGTRACE_FEAT_FUNC_TRACEPOINT). The
	 * task, CPU and cgroup filters apply; min_latency_ns does not.
	 */
	__u32	nr_funcs;
	__u32	func_args;
	__u64	funcs_ptr;
};

/* ringtrace_config.vfs_read_values. */
#define RINGTRACE_VFS_READ_RET		(1U << 0)
#define RINGTRACE_VFS_READ_COUNT	(1U << 1)

/* Most cgroups one session may select (nr_cgroups). */
#define RINGTRACE_MAX_CGROUPS		64

/* Features the module offers (ringtrace_info.features). */
#define RINGTRACE_FEAT_LOCK_CONTENTION	(1ULL << 0)	/* tracepoints attachable */
/* ABI 2 */
#define RINGTRACE_FEAT_PATHS		(1ULL << 1)	/* RINGTRACE_CFG_PATHS */
#define RINGTRACE_FEAT_STACK_KERNEL	(1ULL << 2)	/* stack_kernel_depth */
#define RINGTRACE_FEAT_STACK_USER	(1ULL << 3)	/* stack_user_depth */
/* flight recorder and buffer health (ABI 3) */
#define RINGTRACE_FEAT_OVERWRITE	(1ULL << 4)	/* RINGTRACE_CFG_OVERWRITE */
/* GET_STATS fills per-ring entries (ringtrace_stats.rings_ptr). */
#define RINGTRACE_FEAT_RING_STATS	(1ULL << 5)
/* per-thread rings, ABI 3 */
#define RINGTRACE_FEAT_PER_THREAD	(1ULL << 8)	/* RINGTRACE_CFG_PER_THREAD */
/*
 * ringtrace_config.nr_cgroups and RINGTRACE_CFG_CGROUPS (a
 * kernel with cgroups). Every module of this ABI also gives a reader in a
 * child pid namespace its own view (Documentation/abi.rst).
 */
#define RINGTRACE_FEAT_CGROUP		(1ULL << 9)
/* ringtrace_config.vfs_read_values, stats.vfs_read_filtered. */
#define RINGTRACE_FEAT_VFS_READ_VALUES	(1ULL << 10)
/* RINGTRACE_CFG_NO_CGROUP_NAMES. */
#define RINGTRACE_FEAT_CGROUP_IDS	(1ULL << 11)
/* RINGTRACE_EVENT_FUNC, ringtrace_config.nr_funcs (any kernel function). */
#define RINGTRACE_FEAT_FUNC		(1ULL << 12)
/* RINGTRACE_CFG_FUNC_IN_READ, stats.func_outside_read and _unknown. */
#define RINGTRACE_FEAT_FUNC_IN_READ	(1ULL << 13)
/*
 * RINGTRACE_FUNC_TP_PREFIX names: kernel tracepoints (not offered on a
 * kernel built with control-flow integrity, which checks each call's
 * prototype against the probe's).
 */
#define RINGTRACE_FEAT_FUNC_TRACEPOINT	(1ULL << 14)
/* RINGTRACE_CFG_FUNC_HOLD, stats.func_fast_read. */
#define RINGTRACE_FEAT_FUNC_HOLD	(1ULL << 15)

#define RINGTRACE_INFO_SIZE_VER0	72
#define RINGTRACE_INFO_SIZE_VER1	80	/* + vfs_read_attach{,_mask} */
#define RINGTRACE_INFO_SIZE_FUNCS	88	/* + max_funcs, func_attach */

/*
 * How vfs_read is attached (ringtrace_info.vfs_read_attach): every
 * mechanism produces the same records through the same filters; they
 * differ only in what a call costs. 0: the module does not say (older
 * than RINGTRACE_INFO_SIZE_VER1).
 */
#define RINGTRACE_ATTACH_KRETPROBE	1	/* kprobe + kretprobe, any kernel */
#define RINGTRACE_ATTACH_FPROBE		2	/* ftrace-based, CONFIG_FPROBE */
/*
 * The direct call excludes other tools while attached: ftrace keeps one
 * direct-call trampoline per function, so BPF fentry/fexit/LSM programs
 * (bpftrace kfunc:, libbpf tools, BPF security agents) cannot attach to
 * vfs_read meanwhile, and it cannot attach while one is. Livepatches,
 * kprobes, fprobes and ftrace events share it. Never chosen by default.
 */
#define RINGTRACE_ATTACH_DIRECT		3	/* ftrace direct call, x86-64 */

struct ringtrace_info {
	__u32	size;			/* in: caller's sizeof; out: bytes filled */
	__u32	abi_version;		/* RINGTRACE_ABI_VERSION */
	__u32	page_size;
	__u32	nr_cpu_ids;		/* CPU numbers are below this */
	__u64	events;			/* RINGTRACE_EVENT_* this module can produce */
	__u64	features;		/* RINGTRACE_FEAT_* */
	__u32	max_ring_pages;		/* largest 2^n data pages a ring may have */
	__u32	compat_version;		/* lowest ABI version a reader needs */
	char	module_version[32];	/* NUL-terminated */
	/*
	 * RINGTRACE_ATTACH_*: the mechanism vfs_read is attached with, or,
	 * while no session traces vfs_read, the one the next attach uses
	 * (the module parameter vfs_read_attach forces one).
	 */
	__u32	vfs_read_attach;
	__u32	vfs_read_attach_mask;	/* 1 << RINGTRACE_ATTACH_* offered */

	/* ---- RINGTRACE_INFO_SIZE_FUNCS ---- */
	/* Most names one session may give (ringtrace_config.nr_funcs). */
	__u32	max_funcs;
	/*
	 * RINGTRACE_ATTACH_FPROBE: one fprobe per session for all its
	 * functions, registered in one batch; RINGTRACE_ATTACH_KRETPROBE:
	 * one kretprobe per function, each registered on its own (attaching
	 * costs in proportion to the number of functions).
	 */
	__u32	func_attach;
};

/* Session totals: the sum over the session's rings plus probe-wide counts. */
#define RINGTRACE_STATS_SIZE_VER0	64
#define RINGTRACE_STATS_SIZE_VER1	112	/* ABI 2: paths and stacks */
#define RINGTRACE_STATS_SIZE_THREADS	120	/* per-thread rings */

struct ringtrace_stats {
	__u32	size;			/* in: caller's sizeof; out: bytes filled */
	__u32	nr_rings;		/* rings this session has allocated */
	__u64	produced;		/* passed the filters: records + lost */
	__u64	records;		/* written to a ring */
	__u64	lost;			/* dropped: ring full */
	__u64	bytes;			/* written, LOST records included */
	__u64	no_ring;		/* passed the filters on a CPU with no ring */
	/* Calls the kretprobe could not track (maxactive), module-wide. */
	__u64	vfs_read_missed;
	__u64	vfs_read_hits;		/* vfs_read calls seen, module-wide */
	/* Kernel lock contentions not tracked (table full), module-wide. */
	__u64	contention_missed;

	/* ---- ABI 2 (RINGTRACE_STATS_SIZE_VER1): paths and stacks ---- */
	__u64	path_records;		/* path records written (in records) */
	/* Files first seen while the path cache had no room (UNCACHED). */
	__u64	path_cache_full;
	/* Path records without a name (UNRESOLVED). */
	__u64	path_unresolved;
	/*
	 * Path records written again for a file already named because
	 * another CPU was naming it at the same time (protocol.rst).
	 */
	__u64	path_races;
	/* Stacks left out: the CPU's stack buffer was busy (nested probe). */
	__u64	stack_missed;

	/* ---- per-thread rings (RINGTRACE_STATS_SIZE_THREADS) ---- */
	/*
	 * Per-thread sessions: events that passed the filters in interrupt
	 * context (hard or soft IRQ, NMI) while a selected thread was
	 * current. They are not the thread's and are not written to its
	 * ring (nor counted in produced).
	 */
	__u64	thread_not_task;

	/* ---- flight recorder, buffer health (STATS_SIZE_HEALTH) ---- */
	__u64	wakeups;		/* watermark wake-ups, all rings */
	__u64	overwritten;		/* RINGTRACE_CFG_OVERWRITE, all rings */
	/*
	 * In: where to put one struct ringtrace_ring_stats per ring
	 * (0: nowhere), room for nr_ring_entries entries of ring_entry_size
	 * bytes. Out: nr_ring_entries filled, in ring order (CPU order, or
	 * the order of tids_ptr for per-thread rings). The module reads
	 * these three fields from the caller's structure (the only GET_STATS
	 * input besides size).
	 */
	__u64	rings_ptr;
	__u32	ring_entry_size;	/* sizeof(struct ringtrace_ring_stats) */
	__u32	nr_ring_entries;

	/* ---- off-CPU intervals (RINGTRACE_STATS_SIZE_OFFCPU) ---- */
	/*
	 * Module-wide: switches of traced tasks not followed because the
	 * table of tasks off CPU (module parameter offcpu_tasks) was full;
	 * their interval has no record and the vfs_read they were in no
	 * RINGTRACE_MISC_OFFCPU.
	 */
	__u64	offcpu_missed;

	/* ---- vfs_read value filter (RINGTRACE_STATS_SIZE_VALUES) ---- */
	/*
	 * vfs_read calls the session's vfs_read_values ranges turned away at
	 * return, before any ring work (not counted in produced).
	 */
	__u64	vfs_read_filtered;

	/* ---- function calls (RINGTRACE_STATS_SIZE_FUNCS) ---- */
	/*
	 * RINGTRACE_EVENT_FUNC: calls of the session's functions its probes
	 * could not follow (no free return instance of the kretprobe or
	 * the fprobe, a probe hit inside another probe's handler), since
	 * the session was opened, DISABLE included. The probe misses a call
	 * before any filter runs: one of a task the filters drop counts too.
	 */
	__u64	func_missed;

	/* ---- calls inside reads (RINGTRACE_STATS_SIZE_IN_READ) ---- */
	/*
	 * RINGTRACE_CFG_FUNC_IN_READ: calls of the session's functions by a
	 * task it traces, not recorded because the task was in no traced
	 * vfs_read (not counted in produced).
	 */
	__u64	func_outside_read;
	/*
	 * RINGTRACE_CFG_FUNC_IN_READ: calls recorded without knowing whether
	 * their task was inside a read: some traced read could not be
	 * followed (the module's table of reading tasks, module parameter
	 * inread_tasks, was full) and the calling task had no entry. Kept,
	 * so that a reader can still place them (or drop them) itself.
	 */
	__u64	func_inread_unknown;

	/* ---- held calls (RINGTRACE_STATS_SIZE_HOLD) ---- */
	/*
	 * RINGTRACE_CFG_FUNC_HOLD: calls held inside a read that returned
	 * faster than min_latency_ns, dropped (not counted in produced).
	 */
	__u64	func_fast_read;
};

#define RINGTRACE_STATS_SIZE_HEALTH	152	/* per-ring stats */
#define RINGTRACE_STATS_SIZE_OFFCPU	160	/* offcpu_missed */
#define RINGTRACE_STATS_SIZE_VALUES	168	/* vfs_read_filtered */
#define RINGTRACE_STATS_SIZE_FUNCS	176	/* func_missed */
#define RINGTRACE_STATS_SIZE_IN_READ	192	/* func_outside_read, _unknown */
#define RINGTRACE_STATS_SIZE_HOLD	200	/* func_fast_read */

#define RINGTRACE_RING_STATS_SIZE_VER0	80

/* One ring's health (GET_STATS with rings_ptr); exact, unlike the page's. */
struct ringtrace_ring_stats {
	__u32	cpu;			/* RINGTRACE_CPU_NONE: a thread's ring */
	__u32	flags;			/* RINGTRACE_PAGE_* */
	__u64	records;		/* as in ringtrace_mmap_page */
	__u64	lost;
	__u64	bytes;
	__u64	high_water;
	__u64	wakeups;
	__u64	overwritten;
	__u64	data_size;		/* ring's data area, bytes */
	__u64	data_head;		/* bytes ever written */
	__u32	tid;			/* a thread's ring: its tid; else 0 */
	__u32	__pad;			/* zero */
};
/* ---- end flight recorder and buffer health ---- */

/* One tracked lock's statistics (RINGTRACE_IOC_LOCK_STATS). */
struct ringtrace_lock_stat {
	__u64	lock_id;		/* as in lock records */
	__u64	acquisitions;
	__u64	contended;		/* acquisitions that had to wait */
	__u64	wait_total_ns;
	__u64	wait_max_ns;
	__u64	hold_total_ns;
	__u64	hold_max_ns;
	char	name[RINGTRACE_LOCK_NAME_LEN];	/* NUL-padded */
};

/* ringtrace_lock_stats_query.flags */
#define RINGTRACE_LOCK_STATS_RESET	(1U << 0)	/* zero them after reading */

#define RINGTRACE_LOCK_STATS_QUERY_SIZE_VER0	32

/*
 * Every tracked lock in the system (not only this session's): the kernel
 * fills up to nr_entries entries of entry_size bytes at entries and says
 * how many locks there are in nr_locks (ask again with more room if it is
 * larger). Open file descriptors of any session may ask.
 */
struct ringtrace_lock_stats_query {
	__u32	size;			/* sizeof(struct ringtrace_lock_stats_query) */
	__u32	entry_size;		/* sizeof(struct ringtrace_lock_stat) */
	__u32	nr_entries;		/* in: room at entries; out: filled */
	__u32	nr_locks;		/* out: tracked locks registered */
	__u64	entries;		/* user pointer to the array */
	__u32	flags;			/* RINGTRACE_LOCK_STATS_* */
	__u32	__pad;			/* zero */
};

/*
 * ioctl commands. The kernel tells them apart by type and number only:
 * the size _IOR()/_IOW() encode is the caller's sizeof, which changes as a
 * structure grows, so the same command arrives under several numbers and
 * each works (the structure's size field decides). A size field below the
 * structure's *_SIZE_VER0 is EINVAL; above the page size it is E2BIG, as
 * is a LOCK_STATS entry_size above the page size. Numbers are never
 * reused.
 */
#define RINGTRACE_IOC_MAGIC		0xB8

/*
 * The size encoded in a command is the first published size of its
 * structure, frozen: the structure's own size field says how much the
 * caller knows, so growing a structure never changes a command number
 * (ABI 1 binaries keep working).
 */
#define RINGTRACE_IOC_GET_INFO		_IOC(_IOC_READ, RINGTRACE_IOC_MAGIC, 0x00, \
					     RINGTRACE_INFO_SIZE_VER0)
#define RINGTRACE_IOC_SET_CONFIG	_IOC(_IOC_WRITE, RINGTRACE_IOC_MAGIC, 0x01, \
					     RINGTRACE_CONFIG_SIZE_VER0)
#define RINGTRACE_IOC_ENABLE		_IO(RINGTRACE_IOC_MAGIC, 0x02)
#define RINGTRACE_IOC_DISABLE		_IO(RINGTRACE_IOC_MAGIC, 0x03)
/* ABI 1 published the 72-byte structure in this command. */
#define RINGTRACE_IOC_GET_STATS		_IOC(_IOC_READ, RINGTRACE_IOC_MAGIC, 0x04, 72)
#define RINGTRACE_IOC_LOCK_STATS	_IOWR(RINGTRACE_IOC_MAGIC, 0x05, struct ringtrace_lock_stats_query)

#endif /* _UAPI_LINUX_RINGTRACE_H */
