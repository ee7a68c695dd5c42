// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decoder: every record type into struct rt_event with every field,
 * strings always NUL-terminated even when the kernel filled them, records
 * longer than known structures accepted, shorter ones refused, unknown
 * types skipped (reported, not fatal). ABI 2: path records (name inside
 * the record and NUL-terminated, else malformed) and stack trailers (found
 * from the end; frames that do not fit the record make it malformed).
 */
#include "test.h"

#include "ringtrace/record.h"
#include "fake_ring.h"

static void test_vfs_read(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_event ev;

	(void)state;
	make_vfs_read(&r, 123456789, 3, 1000, 1001, "cat");
	r.dev_major = 259;
	r.dev_minor = 7;
	r.ino = 0xffffffffffffull;
	r.pos = -1;
	r.count = 65536;
	r.ret = -5;
	r.lat_ns = 999;
	assert_int_equal(rt_decode(&r, sizeof(r), 9, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_VFS_READ);
	assert_int_equal(ev.raw_type, RINGTRACE_RECORD_VFS_READ);
	assert_int_equal(ev.ts_ns, 123456789);
	assert_int_equal(ev.cpu, 3);		/* from the record, not the ring */
	assert_int_equal(ev.pid, 1000);
	assert_int_equal(ev.tid, 1001);
	assert_string_equal(ev.comm, "cat");
	assert_int_equal(ev.u.vfs_read.dev_major, 259);
	assert_int_equal(ev.u.vfs_read.dev_minor, 7);
	assert_int_equal(ev.u.vfs_read.ino, 0xffffffffffffull);
	assert_int_equal(ev.u.vfs_read.pos, -1);
	assert_int_equal(ev.u.vfs_read.count, 65536);
	assert_int_equal(ev.u.vfs_read.ret, -5);
	assert_int_equal(ev.u.vfs_read.lat_ns, 999);
}

static void test_full_width_comm_is_terminated(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct rt_event ev;

	(void)state;
	make_vfs_read(&r, 1, 0, 1, 1, "0123456789abcdefXYZ");	/* 16 used */
	memset(&ev, 'Z', sizeof(ev));
	assert_int_equal(rt_decode(&r, sizeof(r), 0, &ev), RT_DECODE_OK);
	assert_int_equal(strlen(ev.comm), 16);
	assert_string_equal(ev.comm, "0123456789abcdef");
}

static void test_lock(void **state)
{
	struct ringtrace_lock_record r;
	struct rt_event ev;

	(void)state;
	make_lock(&r, 55, 1, "kworker/0:1", "0123456789abcdef0123456789abcdefXX",
		  RINGTRACE_LOCK_CONTENDED | RINGTRACE_LOCK_KERNEL);
	assert_int_equal(rt_decode(&r, sizeof(r), 1, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_LOCK);
	assert_int_equal(ev.ts_ns, 55);
	assert_int_equal(ev.pid, 77);
	assert_int_equal(ev.tid, 78);
	assert_string_equal(ev.comm, "kworker/0:1");
	assert_int_equal(ev.u.lock.lock_id, 0xdeadbeef);
	assert_int_equal(ev.u.lock.wait_ns, 1500);
	assert_int_equal(ev.u.lock.hold_ns, 250);
	assert_int_equal(ev.u.lock.flags,
			 RINGTRACE_LOCK_CONTENDED | RINGTRACE_LOCK_KERNEL);
	assert_int_equal(strlen(ev.u.lock.name), 32);
	assert_string_equal(ev.u.lock.name, "0123456789abcdef0123456789abcdef");
}

static void test_lost_takes_cpu_from_ring(void **state)
{
	struct ringtrace_lost_record r;
	struct rt_event ev;

	(void)state;
	make_lost(&r, 777, 42);
	assert_int_equal(rt_decode(&r, sizeof(r), 5, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_LOST);
	assert_int_equal(ev.ts_ns, 777);
	assert_int_equal(ev.cpu, 5);
	assert_int_equal(ev.u.lost.count, 42);
	assert_int_equal(ev.pid, 0);
	assert_string_equal(ev.comm, "");
}

/* A newer module appends fields: decode what we know, ignore the rest. */
static void test_longer_record_accepted(void **state)
{
	unsigned char buf[sizeof(struct ringtrace_vfs_read_record) + 32];
	struct ringtrace_vfs_read_record r;
	struct rt_event ev;

	(void)state;
	make_vfs_read(&r, 9, 0, 2, 3, "newer");
	r.header.size = sizeof(buf);
	memset(buf, 0xee, sizeof(buf));
	memcpy(buf, &r, sizeof(r));
	assert_int_equal(rt_decode(buf, sizeof(buf), 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.ts_ns, 9);
	assert_string_equal(ev.comm, "newer");
	assert_int_equal(ev.u.vfs_read.lat_ns, 12345);
}

static void test_truncated_records_refused(void **state)
{
	struct ringtrace_vfs_read_record v;
	struct ringtrace_lock_record l;
	struct ringtrace_lost_record lost;
	struct rt_event ev;

	(void)state;
	make_vfs_read(&v, 1, 0, 1, 1, "x");
	make_lock(&l, 1, 0, "x", "y", 0);
	make_lost(&lost, 1, 1);
	assert_int_equal(rt_decode(&v, sizeof(v) - 8, 0, &ev),
			 RT_DECODE_ERR_SHORT);
	assert_int_equal(rt_decode(&l, sizeof(l) - 8, 0, &ev),
			 RT_DECODE_ERR_SHORT);
	assert_int_equal(rt_decode(&lost, sizeof(lost) - 8, 0, &ev),
			 RT_DECODE_ERR_SHORT);
	assert_int_equal(rt_decode(&v, 4, 0, &ev), RT_DECODE_ERR_SHORT);
}

static void test_unknown_type_skipped_with_timestamp(void **state)
{
	struct {
		struct ringtrace_event_header h;
		uint64_t ts;
		uint64_t payload;
	} rec = { { .type = 99, .size = 24 }, 31337, 0 };
	struct rt_event ev;

	(void)state;
	assert_int_equal(rt_decode(&rec, sizeof(rec), 2, &ev), RT_DECODE_UNKNOWN);
	assert_int_equal(ev.kind, RT_EVENT_UNKNOWN);
	assert_int_equal(ev.raw_type, 99);
	assert_int_equal(ev.ts_ns, 31337);
	assert_int_equal(rt_record_ts(&rec, 8), 0);	/* no room for one */
}

static void test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(rt_event_kind_name(RT_EVENT_VFS_READ), "vfs_read");
	assert_string_equal(rt_event_kind_name(RT_EVENT_LOCK), "lock");
	assert_string_equal(rt_event_kind_name(RT_EVENT_LOST), "lost");
	assert_string_equal(rt_event_kind_name(RT_EVENT_UNKNOWN), "unknown");
}

static void test_path_record(void **state)
{
	unsigned char buf[64];
	struct ringtrace_path_record r;
	struct rt_event ev;

	(void)state;
	memset(buf, 0, sizeof(buf));
	memset(&r, 0, sizeof(r));
	r.header.type = RINGTRACE_RECORD_PATH;
	r.header.size = 56;
	r.ts_ns = 77;
	r.dev_major = 8;
	r.dev_minor = 3;
	r.ino = 99;
	r.flags = RINGTRACE_PATH_DELETED;
	r.path_len = 10;
	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), "/etc/hosts", 10);
	assert_int_equal(rt_decode(buf, 56, 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_PATH);
	assert_true(ev.ts_ns == 77 && ev.u.path.ino == 99);
	assert_int_equal(ev.u.path.dev_minor, 3);
	assert_int_equal(ev.u.path.flags, RINGTRACE_PATH_DELETED);
	assert_string_equal(ev.u.path.path, "/etc/hosts");
	/* The name's NUL past the record, or no NUL where path_len says. */
	r.path_len = 16;
	memcpy(buf, &r, sizeof(r));
	assert_int_equal(rt_decode(buf, 56, 0, &ev), RT_DECODE_ERR_SHORT);
	r.path_len = 5;
	memcpy(buf, &r, sizeof(r));
	assert_int_equal(rt_decode(buf, 56, 0, &ev), RT_DECODE_ERR_SHORT);
	assert_int_equal(rt_decode(buf, 32, 0, &ev), RT_DECODE_ERR_SHORT);
}

static void test_stack_trailer(void **state)
{
	unsigned char buf[sizeof(struct ringtrace_vfs_read_record) + 4 * 8 + 8];
	struct ringtrace_vfs_read_record r;
	struct ringtrace_stack_trailer t = { .nr_kernel = 3, .nr_user = 1 };
	uint64_t frames[4] = { 0xffffffff81000001ull, 0xffffffff81000002ull,
			       0xffffffff81000003ull, 0x401234ull };
	struct rt_event ev;

	(void)state;
	make_vfs_read(&r, 5, 0, 10, 11, "sh");
	r.header.misc = RINGTRACE_MISC_STACK;
	r.header.size = sizeof(buf);
	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), frames, sizeof(frames));
	memcpy(buf + sizeof(r) + sizeof(frames), &t, sizeof(t));
	assert_int_equal(rt_decode(buf, sizeof(buf), 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.stack.nr_kernel, 3);
	assert_int_equal(ev.stack.nr_user, 1);
	assert_true(rt_stack_frame(ev.stack.kernel, 0) == frames[0]);
	assert_true(rt_stack_frame(ev.stack.kernel, 2) == frames[2]);
	assert_true(rt_stack_frame(ev.stack.user, 0) == frames[3]);
	assert_null(ev.u.vfs_read.path);
	/* More frames than the record holds. */
	t.nr_kernel = 4;
	memcpy(buf + sizeof(r) + sizeof(frames), &t, sizeof(t));
	assert_int_equal(rt_decode(buf, sizeof(buf), 0, &ev), RT_DECODE_ERR_SHORT);
	/* Without the flag the tail is ignored, as an ABI 1 reader does. */
	r.header.misc = 0;
	memcpy(buf, &r, sizeof(r));
	assert_int_equal(rt_decode(buf, sizeof(buf), 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.stack.nr_kernel, 0);
}

/* a task_ext after the fixed part, before the stack frames. */
static void test_task_ext(void **state)
{
	unsigned char buf[sizeof(struct ringtrace_vfs_read_record) +
			  sizeof(struct ringtrace_task_ext) + 2 * 8 + 8];
	struct ringtrace_vfs_read_record r;
	struct ringtrace_task_ext x = { .cgroup_id = 4242, .host_pid = 5000,
					.host_tid = 5001 };
	struct ringtrace_stack_trailer t = { .nr_kernel = 1, .nr_user = 1 };
	uint64_t frames[2] = { 0xffffffff81000001ull, 0x401234ull };
	struct rt_event ev;

	(void)state;
	make_vfs_read(&r, 5, 0, 2, 2, "sh");
	r.header.misc = RINGTRACE_MISC_TASK_EXT | RINGTRACE_MISC_STACK;
	r.header.size = sizeof(buf);
	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), &x, sizeof(x));
	memcpy(buf + sizeof(r) + sizeof(x), frames, sizeof(frames));
	memcpy(buf + sizeof(buf) - sizeof(t), &t, sizeof(t));
	assert_int_equal(rt_decode(buf, sizeof(buf), 0, &ev), RT_DECODE_OK);
	assert_true(ev.ext.present);
	assert_int_equal(ev.ext.cgroup_id, 4242);
	assert_int_equal(ev.ext.host_pid, 5000);
	assert_int_equal(ev.ext.host_tid, 5001);
	assert_null(ev.ext.cgroup);
	assert_int_equal(ev.pid, 2);
	assert_true(rt_stack_frame(ev.stack.kernel, 0) == frames[0]);
	assert_true(rt_stack_frame(ev.stack.user, 0) == frames[1]);
	/* Frames that would overlap the task_ext: malformed. */
	t.nr_kernel = 3;
	memcpy(buf + sizeof(buf) - sizeof(t), &t, sizeof(t));
	assert_int_equal(rt_decode(buf, sizeof(buf), 0, &ev), RT_DECODE_ERR_SHORT);
	/* The flag on a record too short for the task_ext: malformed. */
	r.header.misc = RINGTRACE_MISC_TASK_EXT;
	r.header.size = sizeof(r);
	assert_int_equal(rt_decode(&r, sizeof(r), 0, &ev), RT_DECODE_ERR_SHORT);
	/* An older module's record: no task_ext. */
	r.header.misc = 0;
	assert_int_equal(rt_decode(&r, sizeof(r), 0, &ev), RT_DECODE_OK);
	assert_false(ev.ext.present);
}

static void test_cgroup_record(void **state)
{
	unsigned char buf[sizeof(struct ringtrace_cgroup_record) + 16];
	struct ringtrace_cgroup_record r = {
		.header = { .type = RINGTRACE_RECORD_CGROUP,
			    .size = sizeof(buf) },
		.ts_ns = 77, .cgroup_id = 9, .path_len = 6,
	};
	struct rt_event ev;

	(void)state;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, &r, sizeof(r));
	memcpy(buf + sizeof(r), "/a/b/c", 6);
	assert_int_equal(rt_decode(buf, sizeof(buf), 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_CGROUP);
	assert_int_equal(ev.ts_ns, 77);
	assert_int_equal(ev.u.cgroup.id, 9);
	assert_string_equal(ev.u.cgroup.path, "/a/b/c");
	assert_string_equal(rt_event_kind_name(ev.kind), "cgroup");
	/* A name running to the end of the record, with no NUL: malformed. */
	r.path_len = 16;
	memcpy(buf, &r, sizeof(r));
	assert_int_equal(rt_decode(buf, sizeof(buf), 0, &ev), RT_DECODE_ERR_SHORT);
}

int main(void)
{
	RUN(cmocka_unit_test(test_vfs_read),
	    cmocka_unit_test(test_full_width_comm_is_terminated),
	    cmocka_unit_test(test_lock),
	    cmocka_unit_test(test_lost_takes_cpu_from_ring),
	    cmocka_unit_test(test_longer_record_accepted),
	    cmocka_unit_test(test_truncated_records_refused),
	    cmocka_unit_test(test_unknown_type_skipped_with_timestamp),
	    cmocka_unit_test(test_kind_names),
	    cmocka_unit_test(test_path_record),
	    cmocka_unit_test(test_stack_trailer),
	    cmocka_unit_test(test_task_ext),
	    cmocka_unit_test(test_cgroup_record));
}
