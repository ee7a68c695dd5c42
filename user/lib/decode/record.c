// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The one decoder from ring records to struct rt_event.
 *
 * Records are read with memcpy into local copies of the ABI structures:
 * the bytes may sit in shared memory or in an unaligned file buffer, and a
 * copy reads each field exactly once.
 */
#include <stddef.h>
#include <string.h>

#include "ringtrace/record.h"

/* rt_record_ts() relies on this: the timestamp right after the header. */
_Static_assert(offsetof(struct ringtrace_lost_record, ts_ns) == 8, "ts");
_Static_assert(offsetof(struct ringtrace_vfs_read_record, task.ts_ns) == 8, "ts");
_Static_assert(offsetof(struct ringtrace_lock_record, task.ts_ns) == 8, "ts");
_Static_assert(offsetof(struct ringtrace_path_record, ts_ns) == 8, "ts");
_Static_assert(sizeof(struct ringtrace_path_record) == 40, "path record");
_Static_assert(offsetof(struct ringtrace_offcpu_record, task.ts_ns) == 8, "ts");
_Static_assert(sizeof(struct ringtrace_offcpu_record) ==
	       RINGTRACE_OFFCPU_SIZE_VER0, "offcpu record");
_Static_assert(sizeof(struct ringtrace_vfs_read_record) ==
	       RINGTRACE_VFS_READ_SIZE_OFFCPU, "vfs_read record");
_Static_assert(offsetof(struct ringtrace_cgroup_record, ts_ns) == 8, "ts");
_Static_assert(sizeof(struct ringtrace_cgroup_record) == 32, "cgroup record");

static void copy_task(struct rt_event *ev, const struct ringtrace_task_ctx *t)
{
	ev->ts_ns = t->ts_ns;
	ev->cpu = t->cpu;
	ev->pid = t->pid;
	ev->tid = t->tid;
	memcpy(ev->comm, t->comm, RINGTRACE_COMM_LEN);
	ev->comm[RINGTRACE_COMM_LEN] = '\0';
}

static int decode_lost(const void *rec, size_t size, uint32_t ring_cpu,
		       struct rt_event *ev)
{
	struct ringtrace_lost_record r;

	if (size < sizeof(r))
		return RT_DECODE_ERR_SHORT;
	memcpy(&r, rec, sizeof(r));
	ev->kind = RT_EVENT_LOST;
	ev->ts_ns = r.ts_ns;
	ev->cpu = ring_cpu;
	ev->u.lost.count = r.lost;
	ev->u.lost.source = NULL;
	return RT_DECODE_OK;
}

/*
 * The stack trailer at the end of a record of @fixed bytes (uapi: kernel
 * ips, user ips, then struct ringtrace_stack_trailer). A trailer that does
 * not fit the record makes the record malformed.
 */
static int decode_stack(const void *rec, size_t size, size_t fixed,
			struct rt_event *ev)
{
	const unsigned char *b = rec;
	struct ringtrace_stack_trailer t;
	size_t frames;

	if (size < fixed + sizeof(t))
		return RT_DECODE_ERR_SHORT;
	memcpy(&t, b + size - sizeof(t), sizeof(t));
	frames = ((size_t)t.nr_kernel + t.nr_user) * sizeof(uint64_t);
	if (frames > size - fixed - sizeof(t))
		return RT_DECODE_ERR_SHORT;
	ev->stack.nr_kernel = t.nr_kernel;
	ev->stack.nr_user = t.nr_user;
	ev->stack.flags = t.flags;
	ev->stack.user = b + size - sizeof(t) - (size_t)t.nr_user * 8;
	ev->stack.kernel = ev->stack.user - (size_t)t.nr_kernel * 8;
	return RT_DECODE_OK;
}

/*
 * A name record (path, cgroup): its @len fixed bytes into @r, and the
 * name after them, which with its NUL must lie inside the record; NULL if
 * it does not.
 */
static const char *name_record(const void *rec, size_t size, void *r,
			       size_t len, size_t name_len_off)
{
	const char *name = (const char *)rec + len;
	uint16_t name_len;

	if (size < len)
		return NULL;
	memcpy(r, rec, len);
	memcpy(&name_len, (const char *)r + name_len_off, sizeof(name_len));
	if (name_len >= size - len || name[name_len] != '\0')
		return NULL;
	return name;
}

static int decode_path(const void *rec, size_t size, struct rt_event *ev)
{
	struct ringtrace_path_record r;
	const char *path = name_record(rec, size, &r, sizeof(r),
				       offsetof(struct ringtrace_path_record,
						path_len));

	if (!path)
		return RT_DECODE_ERR_SHORT;
	ev->kind = RT_EVENT_PATH;
	ev->ts_ns = r.ts_ns;
	ev->u.path.dev_major = r.dev_major;
	ev->u.path.dev_minor = r.dev_minor;
	ev->u.path.ino = r.ino;
	ev->u.path.flags = r.flags;
	ev->u.path.len = r.path_len;
	ev->u.path.path = path;
	return RT_DECODE_OK;
}

static int decode_cgroup(const void *rec, size_t size, struct rt_event *ev)
{
	struct ringtrace_cgroup_record r;
	const char *path = name_record(rec, size, &r, sizeof(r),
				       offsetof(struct ringtrace_cgroup_record,
						path_len));

	if (!path)
		return RT_DECODE_ERR_SHORT;
	ev->kind = RT_EVENT_CGROUP;
	ev->ts_ns = r.ts_ns;
	ev->u.cgroup.id = r.cgroup_id;
	ev->u.cgroup.flags = r.flags;
	ev->u.cgroup.len = r.path_len;
	ev->u.cgroup.path = path;
	return RT_DECODE_OK;
}

/* the task_ext that ends at @end, the end of the fixed part. */
static void take_ext(const void *rec, size_t end, struct rt_event *ev)
{
	struct ringtrace_task_ext x;

	memcpy(&x, (const unsigned char *)rec + end - sizeof(x), sizeof(x));
	ev->ext.present = true;
	ev->ext.cgroup_id = x.cgroup_id;
	ev->ext.host_pid = x.host_pid;
	ev->ext.host_tid = x.host_tid;
}

/*
 * The @len fixed bytes of a record that may carry a task_ext
 * after them and end in a stack trailer (every such record starts with
 * its event header) into @r, the rest into @ev. Nonzero if short.
 */
static int fixed_part(const void *rec, size_t size, void *r, size_t len,
		      struct rt_event *ev)
{
	struct ringtrace_event_header h;

	if (size < len)
		return -1;
	memcpy(r, rec, len);
	memcpy(&h, rec, sizeof(h));
	if (h.misc & RINGTRACE_MISC_TASK_EXT) {
		len += sizeof(struct ringtrace_task_ext);
		if (size < len)
			return -1;
		take_ext(rec, len, ev);
	}
	return (h.misc & RINGTRACE_MISC_STACK) &&
	       decode_stack(rec, size, len, ev);
}

/*
 * A record whose fixed part grew (vfs_read): the part this
 * record has is what precedes its task_ext and stack trailer,
 * either exactly @min bytes (the first published size) or at least @len
 * (what we know; a
 * newer module may append more). Copies what @r knows of it (the rest of
 * @r zeroed) and returns its length, 0 if the record is malformed.
 */
static size_t grown_part(const void *rec, size_t size, void *r, size_t len,
			 size_t min, struct rt_event *ev)
{
	struct ringtrace_stack_trailer t;
	struct ringtrace_event_header h;
	size_t fixed = size, ext = 0;

	memcpy(&h, rec, sizeof(h));
	/* a task_ext ends the fixed part, whatever its length. */
	if (h.misc & RINGTRACE_MISC_TASK_EXT)
		ext = sizeof(struct ringtrace_task_ext);
	if (size < min + ext)
		return 0;
	if (h.misc & RINGTRACE_MISC_STACK) {
		if (decode_stack(rec, size, min + ext, ev))
			return 0;
		memcpy(&t, (const unsigned char *)rec + size - sizeof(t),
		       sizeof(t));
		fixed = size - sizeof(t) -
			((size_t)t.nr_kernel + t.nr_user) * sizeof(uint64_t);
	}
	if (ext) {
		take_ext(rec, fixed, ev);
		fixed -= ext;
	}
	/* A size in between names no layout ever published. */
	if (fixed != min && fixed < len)
		return 0;
	memset(r, 0, len);
	memcpy(r, rec, fixed < len ? fixed : len);
	return fixed;
}

static int decode_vfs_read(const void *rec, size_t size, struct rt_event *ev)
{
	struct ringtrace_vfs_read_record r;
	size_t fixed;

	fixed = grown_part(rec, size, &r, sizeof(r),
			   RINGTRACE_VFS_READ_SIZE_VER0, ev);
	if (!fixed)
		return RT_DECODE_ERR_SHORT;
	ev->kind = RT_EVENT_VFS_READ;
	copy_task(ev, &r.task);
	ev->u.vfs_read.dev_major = r.dev_major;
	ev->u.vfs_read.dev_minor = r.dev_minor;
	ev->u.vfs_read.ino = r.ino;
	ev->u.vfs_read.pos = r.pos;
	ev->u.vfs_read.count = r.count;
	ev->u.vfs_read.ret = r.ret;
	ev->u.vfs_read.lat_ns = r.lat_ns;
	/* older records (96 bytes) have no off-CPU part. */
	ev->u.vfs_read.offcpu_known = fixed >= RINGTRACE_VFS_READ_SIZE_OFFCPU &&
				      (r.header.misc & RINGTRACE_MISC_OFFCPU);
	ev->u.vfs_read.offcpu_ns = r.offcpu_ns;
	ev->u.vfs_read.offcpu_max_ns = r.offcpu_max_ns;
	ev->u.vfs_read.offcpu_max_ts = r.offcpu_max_ts;
	ev->u.vfs_read.path = NULL;
	return RT_DECODE_OK;
}

static int decode_offcpu(const void *rec, size_t size, struct rt_event *ev)
{
	struct ringtrace_offcpu_record r;

	if (fixed_part(rec, size, &r, sizeof(r), ev))
		return RT_DECODE_ERR_SHORT;
	ev->kind = RT_EVENT_OFFCPU;
	copy_task(ev, &r.task);
	ev->u.offcpu.offcpu_ns = r.offcpu_ns;
	ev->u.offcpu.cpu_out = r.cpu_out;
	ev->u.offcpu.state = r.state;
	return RT_DECODE_OK;
}

static int decode_func(const void *rec, size_t size, struct rt_event *ev)
{
	unsigned char buf[sizeof(struct ringtrace_func_record) +
			  RINGTRACE_FUNC_MAX_ARGS * sizeof(uint64_t)];
	struct ringtrace_func_record r;
	struct rt_func_event *f = &ev->u.func;

	if (size < sizeof(r))
		return RT_DECODE_ERR_SHORT;
	memcpy(&r, rec, sizeof(r));
	/* More than the ABI allows: not a layout ever published. */
	if (r.nr_args > RINGTRACE_FUNC_MAX_ARGS ||
	    fixed_part(rec, size, buf, sizeof(r) + r.nr_args * sizeof(uint64_t),
		       ev))
		return RT_DECODE_ERR_SHORT;
	ev->kind = RT_EVENT_FUNC;
	copy_task(ev, &r.task);
	f->ip = r.func_ip;
	f->idx = r.func_idx;
	f->nr_args = r.nr_args;
	f->ret = r.ret;
	f->lat_ns = r.lat_ns;
	memset(f->args, 0, sizeof(f->args));
	memcpy(f->args, buf + sizeof(r), r.nr_args * sizeof(uint64_t));
	return RT_DECODE_OK;
}

const char *rt_offcpu_state_name(uint32_t state)
{
	switch (state) {
	case RINGTRACE_OFFCPU_PREEMPTED:	return "R";
	case RINGTRACE_OFFCPU_SLEEP:		return "S";
	case RINGTRACE_OFFCPU_DISK:		return "D";
	}
	return "other";
}

static int decode_lock(const void *rec, size_t size, struct rt_event *ev)
{
	struct ringtrace_lock_record r;

	if (fixed_part(rec, size, &r, sizeof(r), ev))
		return RT_DECODE_ERR_SHORT;
	ev->kind = RT_EVENT_LOCK;
	copy_task(ev, &r.task);
	ev->u.lock.lock_id = r.lock_id;
	ev->u.lock.wait_ns = r.wait_ns;
	ev->u.lock.hold_ns = r.hold_ns;
	ev->u.lock.flags = r.flags;
	memcpy(ev->u.lock.name, r.name, RINGTRACE_LOCK_NAME_LEN);
	ev->u.lock.name[RINGTRACE_LOCK_NAME_LEN] = '\0';
	return RT_DECODE_OK;
}

int rt_decode(const void *rec, size_t size, uint32_t ring_cpu,
	      struct rt_event *ev)
{
	struct ringtrace_event_header hdr;

	/* Only the fields every kind has; the rest is set per kind. */
	ev->kind = RT_EVENT_UNKNOWN;
	ev->ts_ns = 0;
	ev->cpu = ring_cpu;
	ev->pid = 0;
	ev->tid = 0;
	ev->comm[0] = '\0';
	memset(&ev->stack, 0, sizeof(ev->stack));
	memset(&ev->ext, 0, sizeof(ev->ext));

	if (size < sizeof(hdr))
		return RT_DECODE_ERR_SHORT;
	memcpy(&hdr, rec, sizeof(hdr));
	ev->raw_type = hdr.type;

	switch (hdr.type) {
	case RINGTRACE_RECORD_LOST:
		return decode_lost(rec, size, ring_cpu, ev);
	case RINGTRACE_RECORD_VFS_READ:
		return decode_vfs_read(rec, size, ev);
	case RINGTRACE_RECORD_LOCK:
		return decode_lock(rec, size, ev);
	case RINGTRACE_RECORD_PATH:
		return decode_path(rec, size, ev);
	case RINGTRACE_RECORD_OFFCPU:
		return decode_offcpu(rec, size, ev);
	case RINGTRACE_RECORD_CGROUP:
		return decode_cgroup(rec, size, ev);
	case RINGTRACE_RECORD_FUNC:
		return decode_func(rec, size, ev);
	}
	ev->ts_ns = rt_record_ts(rec, size);
	return RT_DECODE_UNKNOWN;
}

uint64_t rt_record_ts(const void *rec, size_t size)
{
	uint64_t ts;

	if (size < sizeof(struct ringtrace_event_header) + sizeof(ts))
		return 0;
	memcpy(&ts, (const unsigned char *)rec +
			    sizeof(struct ringtrace_event_header), sizeof(ts));
	return ts;
}

const char *rt_event_kind_name(enum rt_event_kind kind)
{
	switch (kind) {
	case RT_EVENT_LOST:	return "lost";
	case RT_EVENT_VFS_READ:	return "vfs_read";
	case RT_EVENT_LOCK:	return "lock";
	case RT_EVENT_COUNTERS:	return "counters";
	case RT_EVENT_SAMPLE:	return "sample";
	case RT_EVENT_COMM:	return "comm";
	case RT_EVENT_PATH:	return "path";
	case RT_EVENT_MMAP:	return "mmap";
	case RT_EVENT_FORK:	return "fork";
	case RT_EVENT_OFFCPU:	return "offcpu";
	case RT_EVENT_CGROUP:	return "cgroup";
	case RT_EVENT_FUNC:	return "func";
	case RT_EVENT_UNKNOWN:
	case RT_EVENT_KIND_MAX:
		break;
	}
	return "unknown";
}
