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

/* Bumped when anything below changes; readers check compat_version. */
#define RINGTRACE_ABI_VERSION		1

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

	__u8	__reserved[1024 - 48];	/* keeps data_head at perf's offset */

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

#define RINGTRACE_PAGE_ENABLED		(1U << 0)	/* session is producing */

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

enum ringtrace_record_type {
	/* Records were dropped since the previous record on this ring. */
	RINGTRACE_RECORD_LOST		= 1,
	/* One completed vfs_read() call. */
	RINGTRACE_RECORD_VFS_READ	= 2,
	/* One tracked-lock acquisition, or one kernel lock contention. */
	RINGTRACE_RECORD_LOCK		= 3,

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
};

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

/* ringtrace_config.flags */
#define RINGTRACE_CFG_INHERIT		(1U << 0)	/* pid filter includes descendants */
#define RINGTRACE_CFG_INCLUDE_SELF	(1U << 1)	/* do not exclude the opener's process */

#define RINGTRACE_CONFIG_SIZE_VER0	64	/* first published size */

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
};

/* Features the module offers (ringtrace_info.features). */
#define RINGTRACE_FEAT_LOCK_CONTENTION	(1ULL << 0)	/* tracepoints attachable */

#define RINGTRACE_INFO_SIZE_VER0	72
#define RINGTRACE_INFO_SIZE_VER1	80	/* + vfs_read_attach{,_mask} */

/*
 * How vfs_read is attached (ringtrace_info.vfs_read_attach): every
 * mechanism produces the same records through the same filters; they
 * differ only in what a call costs. 0: the module does not say (older
 * than RINGTRACE_INFO_SIZE_VER1).
 */
#define RINGTRACE_ATTACH_KRETPROBE	1	/* kprobe + kretprobe, any kernel */
#define RINGTRACE_ATTACH_FPROBE		2	/* ftrace-based, CONFIG_FPROBE */

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
};

/* Session totals: the sum over the session's rings plus probe-wide counts. */
#define RINGTRACE_STATS_SIZE_VER0	64

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
};

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

#define RINGTRACE_IOC_GET_INFO		_IOR(RINGTRACE_IOC_MAGIC, 0x00, struct ringtrace_info)
#define RINGTRACE_IOC_SET_CONFIG	_IOW(RINGTRACE_IOC_MAGIC, 0x01, struct ringtrace_config)
#define RINGTRACE_IOC_ENABLE		_IO(RINGTRACE_IOC_MAGIC, 0x02)
#define RINGTRACE_IOC_DISABLE		_IO(RINGTRACE_IOC_MAGIC, 0x03)
#define RINGTRACE_IOC_GET_STATS		_IOR(RINGTRACE_IOC_MAGIC, 0x04, struct ringtrace_stats)
#define RINGTRACE_IOC_LOCK_STATS	_IOWR(RINGTRACE_IOC_MAGIC, 0x05, struct ringtrace_lock_stats_query)

#endif /* _UAPI_LINUX_RINGTRACE_H */
