/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * One decoder: raw record bytes -> struct rt_event, the single in-memory
 * form every output prints from. A new record type is added here once and
 * then printed by one function per output format.
 */
#ifndef RINGTRACE_RECORD_H
#define RINGTRACE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include <linux/ringtrace.h>

/*
 * What an event is, independent of where it came from: ringtrace record
 * types map 1:1 today; perf samples and counter snapshots (issue 4) get
 * their own kinds without a ringtrace record type.
 */
enum rt_event_kind {
	RT_EVENT_UNKNOWN	= 0,
	RT_EVENT_LOST,
	RT_EVENT_VFS_READ,
	RT_EVENT_LOCK,
	RT_EVENT_COUNTERS,	/* reserved: perf counter snapshot */
	RT_EVENT_SAMPLE,	/* reserved: perf sample */
	RT_EVENT_KIND_MAX,
};

struct rt_vfs_read_event {
	uint32_t	dev_major;
	uint32_t	dev_minor;
	uint64_t	ino;
	int64_t		pos;		/* -1 for stream files */
	uint64_t	count;
	int64_t		ret;		/* bytes read or -errno */
	uint64_t	lat_ns;
};

struct rt_lock_event {
	uint64_t	lock_id;
	uint64_t	wait_ns;
	uint64_t	hold_ns;
	uint32_t	flags;		/* RINGTRACE_LOCK_* */
	char		name[RINGTRACE_LOCK_NAME_LEN + 1];	/* always NUL-terminated */
};

struct rt_lost_event {
	uint64_t	count;
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
	} u;
};

enum rt_decode_status {
	RT_DECODE_OK		= 0,
	RT_DECODE_UNKNOWN	= 1,	/* type not known: skip and count */
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

#endif /* RINGTRACE_RECORD_H */
