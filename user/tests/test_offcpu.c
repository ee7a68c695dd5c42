// SPDX-License-Identifier: GPL-2.0-only
/*
 * Off-CPU time: the decoder (offcpu records with their stack
 * trailer; vfs_read records of 96 bytes, the size before off-CPU
 * attribution, and of
 * 120 with the offcpu_* fields, with and without a trailer after them),
 * the text and JSON lines byte for byte, the --hist/--summary view
 * (off-CPU histogram, OFFCPU column), the Perfetto slice and the replay
 * filters (-e offcpu, --min-offcpu). An offcpu record's
 * task_ext (between its fixed part and its frames), named by a cgroup
 * record, in the text and JSON lines, --hist-by cgroup and Perfetto.
 */
#include "test.h"

#include "print_event.h"

#include "ringtrace/filter.h"
#include "ringtrace/latency_view.h"
#include "ringtrace/output.h"
#include "ringtrace/perfetto.h"
#include "fake_ring.h"

struct offcpu_with_stack {
	struct ringtrace_offcpu_record	r;
	uint64_t			ips[3];	/* 2 kernel, 1 user */
	struct ringtrace_stack_trailer	t;
};

static void make_offcpu(struct offcpu_with_stack *o, bool stack)
{
	memset(o, 0, sizeof(*o));
	o->r.header.type = RINGTRACE_RECORD_OFFCPU;
	o->r.header.size = stack ? sizeof(*o) : sizeof(o->r);
	o->r.header.misc = stack ? RINGTRACE_MISC_STACK : 0;
	o->r.task.ts_ns = 5000000000ull;
	o->r.task.cpu = 1;
	o->r.task.pid = 42;
	o->r.task.tid = 43;
	memcpy(o->r.task.comm, "sleeper", 7);
	o->r.offcpu_ns = 20000123;
	o->r.cpu_out = 0;
	o->r.state = RINGTRACE_OFFCPU_SLEEP;
	o->ips[0] = 0xffffffff81000010ull;
	o->ips[1] = 0xffffffff81000020ull;
	o->ips[2] = 0x401000;
	o->t.nr_kernel = 2;
	o->t.nr_user = 1;
}

static void test_decode_offcpu(void **state)
{
	struct offcpu_with_stack o;
	struct rt_event ev;

	(void)state;
	make_offcpu(&o, true);
	assert_int_equal(rt_decode(&o, sizeof(o), 7, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_OFFCPU);
	assert_int_equal(ev.cpu, 1);
	assert_int_equal(ev.tid, 43);
	assert_string_equal(ev.comm, "sleeper");
	assert_int_equal(ev.u.offcpu.offcpu_ns, 20000123);
	assert_int_equal(ev.u.offcpu.state, RINGTRACE_OFFCPU_SLEEP);
	assert_int_equal(ev.stack.nr_kernel, 2);
	assert_int_equal(ev.stack.nr_user, 1);
	assert_true(rt_stack_frame(ev.stack.kernel, 1) == 0xffffffff81000020ull);
	assert_true(rt_stack_frame(ev.stack.user, 0) == 0x401000);
	/* One byte short of its structure: malformed. */
	make_offcpu(&o, false);
	assert_int_equal(rt_decode(&o, sizeof(o.r) - 8, 0, &ev),
			 RT_DECODE_ERR_SHORT);
	assert_string_equal(rt_offcpu_state_name(RINGTRACE_OFFCPU_PREEMPTED), "R");
	assert_string_equal(rt_offcpu_state_name(RINGTRACE_OFFCPU_DISK), "D");
	assert_string_equal(rt_offcpu_state_name(99), "other");
}

static void test_decode_vfs_read_sizes(void **state)
{
	struct {
		struct ringtrace_vfs_read_record	r;
		uint64_t				ip;
		struct ringtrace_stack_trailer		t;
	} big;
	struct {
		unsigned char				fixed[RINGTRACE_VFS_READ_SIZE_VER0];
		uint64_t				ip;
		struct ringtrace_stack_trailer		t;
	} old;
	struct rt_event ev;

	(void)state;
	/* A 120-byte record with the off-CPU part and a one-frame trailer. */
	make_vfs_read(&big.r, 10, 0, 1, 1, "cat");
	big.r.header.size = sizeof(big);
	big.r.header.misc = RINGTRACE_MISC_STACK | RINGTRACE_MISC_OFFCPU;
	big.r.offcpu_ns = 2100000;
	big.r.offcpu_max_ns = 2000000;
	big.r.offcpu_max_ts = 9;
	big.ip = 0xffffffff81000abcull;
	memset(&big.t, 0, sizeof(big.t));
	big.t.nr_kernel = 1;
	assert_int_equal(rt_decode(&big, sizeof(big), 0, &ev), RT_DECODE_OK);
	assert_true(ev.u.vfs_read.offcpu_known);
	assert_int_equal(ev.u.vfs_read.offcpu_ns, 2100000);
	assert_int_equal(ev.u.vfs_read.offcpu_max_ns, 2000000);
	assert_int_equal(ev.u.vfs_read.offcpu_max_ts, 9);
	assert_int_equal(ev.stack.nr_kernel, 1);
	assert_true(rt_stack_frame(ev.stack.kernel, 0) == 0xffffffff81000abcull);

	/* The same fields, flag unset: not measured. */
	big.r.header.misc = RINGTRACE_MISC_STACK;
	assert_int_equal(rt_decode(&big, sizeof(big), 0, &ev), RT_DECODE_OK);
	assert_false(ev.u.vfs_read.offcpu_known);

	/*
	 * A 96-byte record (an older module, an old raw file) with a
	 * trailer: the trailer's frames are not read as offcpu_* fields.
	 */
	memcpy(old.fixed, &big.r, sizeof(old.fixed));
	((struct ringtrace_event_header *)old.fixed)->size = sizeof(old);
	((struct ringtrace_event_header *)old.fixed)->misc =
		RINGTRACE_MISC_STACK | RINGTRACE_MISC_OFFCPU;
	old.ip = 0xffffffff81000abcull;
	memset(&old.t, 0, sizeof(old.t));
	old.t.nr_kernel = 1;
	assert_int_equal(rt_decode(&old, sizeof(old), 0, &ev), RT_DECODE_OK);
	assert_false(ev.u.vfs_read.offcpu_known);
	assert_int_equal(ev.u.vfs_read.offcpu_ns, 0);
	assert_int_equal(ev.u.vfs_read.lat_ns, 12345);
	assert_int_equal(ev.stack.nr_kernel, 1);
	/* And without a trailer; shorter than 96 is malformed. */
	((struct ringtrace_event_header *)old.fixed)->size = sizeof(old.fixed);
	((struct ringtrace_event_header *)old.fixed)->misc = 0;
	assert_int_equal(rt_decode(&old, sizeof(old.fixed), 0, &ev), RT_DECODE_OK);
	assert_false(ev.u.vfs_read.offcpu_known);
	assert_int_equal(rt_decode(&old, sizeof(old.fixed) - 8, 0, &ev),
			 RT_DECODE_ERR_SHORT);
}

static void test_lines(void **state)
{
	struct ringtrace_vfs_read_record r;
	struct offcpu_with_stack o;
	struct rt_event ev;

	(void)state;
	make_offcpu(&o, true);
	rt_decode(&o, sizeof(o), 0, &ev);
	assert_string_equal(print_event_as(&ev, false),
		"         sleeper      42/43      [001]     5.000000000: offcpu: "
		"state=S dur=20000.123us cpu_out=0 "
		"kstack=0xffffffff81000010,0xffffffff81000020 ustack=0x401000\n");
	assert_string_equal(print_event_as(&ev, true),
		"{\"type\":\"offcpu\",\"ts_ns\":5000000000,\"cpu\":1,\"pid\":42,"
		"\"tid\":43,\"comm\":\"sleeper\",\"offcpu_ns\":20000123,"
		"\"state\":\"S\",\"cpu_out\":0,\"kstack\":[\"0xffffffff81000010\","
		"\"0xffffffff81000020\"],\"ustack\":[\"0x401000\"]}\n");

	make_vfs_read(&r, 8312123456789ull, 1, 1234, 1235, "bash");
	r.lat_ns = 2210000;
	r.header.misc = RINGTRACE_MISC_OFFCPU;
	r.offcpu_ns = 2100000;
	r.offcpu_max_ns = 1500000;
	r.offcpu_max_ts = 8312123000000ull;
	rt_decode(&r, sizeof(r), 1, &ev);
	assert_string_equal(print_event_as(&ev, false),
		"            bash    1234/1235    [001]  8312.123456789: vfs_read: "
		"dev=8:1 ino=123 pos=0 count=4096 ret=4096 lat=2210.000us "
		"offcpu=2100.000us\n");
	assert_string_equal(print_event_as(&ev, true),
		"{\"type\":\"vfs_read\",\"ts_ns\":8312123456789,\"cpu\":1,"
		"\"pid\":1234,\"tid\":1235,\"comm\":\"bash\",\"dev\":\"8:1\","
		"\"ino\":123,\"pos\":0,\"count\":4096,\"ret\":4096,"
		"\"lat_ns\":2210000,\"offcpu_ns\":2100000,\"offcpu_max_ns\":1500000,"
		"\"offcpu_max_ts\":8312123000000}\n");
	/* Not measured: the lines an older ringtrace printed. */
	r.header.misc = 0;
	rt_decode(&r, sizeof(r), 1, &ev);
	assert_null(strstr(print_event_as(&ev, false), "offcpu"));
	assert_null(strstr(print_event_as(&ev, true), "offcpu"));
}

static void test_views(void **state)
{
	struct rt_latency_view v = { .hist = true, .by = RT_HIST_BY_FILE,
				     .summary = true };
	struct ringtrace_vfs_read_record r;
	struct offcpu_with_stack o;
	struct rt_outbuf ob;
	struct rt_event ev;
	char *text;

	(void)state;
	assert_int_equal(rt_latency_view_init(&v), 0);
	make_offcpu(&o, false);
	rt_decode(&o, sizeof(o.r), 0, &ev);
	rt_latency_view_add(&v, &ev);
	rt_latency_view_add(&v, &ev);
	make_vfs_read(&r, 10, 0, 42, 43, "sleeper");
	r.header.misc = RINGTRACE_MISC_OFFCPU;
	r.lat_ns = 3000000;
	r.offcpu_ns = 2500000;
	rt_decode(&r, sizeof(r), 0, &ev);
	rt_latency_view_add(&v, &ev);

	assert_int_equal(v.total_locks.offcpu.n, 2);
	assert_true(v.total_locks.offcpu.sum == 2 * 20000123ull);
	assert_true(v.total.read_offcpu == 2500000);
	/* --hist-by file: off-CPU intervals keyed by state, reads by file. */
	assert_int_equal(v.keyed.nr, 2);

	rt_outbuf_init(&ob, -1, 0);
	rt_latency_view_print(&v, &ob);
	rt_outbuf_append(&ob, "", 1);
	text = ob.buf;
	assert_non_null(strstr(text, " off CPU\n"));
	assert_non_null(strstr(text, "@[offcpu S]\n"));
	assert_non_null(strstr(text, "     OFFCPU  FILE\n"));
	assert_non_null(strstr(text, " 2.50ms  8:1 ino 123\n"));
	rt_outbuf_fini(&ob);
	rt_latency_view_fini(&v);
}

static void test_perfetto_slice(void **state)
{
	struct offcpu_with_stack o;
	struct rt_perfetto p;
	struct rt_outbuf ob;
	struct rt_event ev;

	(void)state;
	rt_outbuf_init(&ob, -1, 0);
	assert_int_equal(rt_perfetto_init(&p, &ob), 0);
	make_offcpu(&o, true);
	o.r.state = RINGTRACE_OFFCPU_DISK;
	rt_decode(&o, sizeof(o), 0, &ev);
	rt_perfetto_add(&p, &ev);
	rt_perfetto_finish(&p);
	rt_outbuf_append(&ob, "", 1);
	/* Starts when it left: 5 s - 20000.123 us. */
	assert_non_null(strstr(ob.buf, "{\"ph\":\"X\",\"name\":\"blocked D\","
			"\"cat\":\"offcpu\",\"pid\":42,\"tid\":43,"
			"\"ts\":4979999.877,\"dur\":20000.123,\"args\":{"
			"\"cpu_out\":0,\"cpu_in\":1,\"kstack\":[\"0xffffffff81000010\","
			"\"0xffffffff81000020\"],\"ustack\":[\"0x401000\"]}}"));
	rt_outbuf_fini(&ob);
}

/* RINGTRACE_CFG_CGROUPS's offcpu record, frames after its ext. */
struct offcpu_with_ext {
	struct ringtrace_offcpu_record	r;
	struct ringtrace_task_ext	x;
	uint64_t			ips[3];
	struct ringtrace_stack_trailer	t;
};

static void make_offcpu_ext(struct offcpu_with_ext *o)
{
	struct offcpu_with_stack s;

	make_offcpu(&s, true);
	memset(o, 0, sizeof(*o));
	o->r = s.r;
	o->r.header.size = sizeof(*o);
	o->r.header.misc = RINGTRACE_MISC_STACK | RINGTRACE_MISC_TASK_EXT;
	o->x.cgroup_id = 4242;
	o->x.host_pid = 5042;
	o->x.host_tid = 5043;
	memcpy(o->ips, s.ips, sizeof(o->ips));
	o->t = s.t;
}

static void test_cgroup(void **state)
{
	struct {
		struct ringtrace_cgroup_record	c;
		char				path[8];
	} cg;
	struct rt_latency_view v = { .hist = true, .by = RT_HIST_BY_CGROUP };
	struct offcpu_with_ext o;
	struct rt_perfetto pf;
	struct rt_paths paths;
	struct rt_outbuf ob;
	struct rt_event ev;

	(void)state;
	make_offcpu_ext(&o);
	assert_int_equal(rt_decode(&o, sizeof(o), 0, &ev), RT_DECODE_OK);
	assert_int_equal(ev.kind, RT_EVENT_OFFCPU);
	assert_true(ev.ext.present);
	assert_true(ev.ext.cgroup_id == 4242);
	assert_int_equal(ev.ext.host_pid, 5042);
	assert_int_equal(ev.ext.host_tid, 5043);
	assert_int_equal(ev.u.offcpu.offcpu_ns, 20000123);
	assert_int_equal(ev.stack.nr_kernel, 2);
	assert_int_equal(ev.stack.nr_user, 1);
	assert_true(rt_stack_frame(ev.stack.kernel, 0) == 0xffffffff81000010ull);
	assert_true(rt_stack_frame(ev.stack.user, 0) == 0x401000);
	/* Without frames: the ext ends the record. */
	o.r.header.misc = RINGTRACE_MISC_TASK_EXT;
	o.r.header.size = sizeof(o.r) + sizeof(o.x);
	assert_int_equal(rt_decode(&o, o.r.header.size, 0, &ev), RT_DECODE_OK);
	assert_true(ev.ext.present && ev.ext.cgroup_id == 4242);
	assert_int_equal(ev.stack.nr_kernel, 0);
	/* The flag on a record with no room for it: malformed. */
	assert_int_equal(rt_decode(&o, sizeof(o.r), 0, &ev),
			 RT_DECODE_ERR_SHORT);

	/* The cgroup record names it, as it does vfs_read and lock records. */
	memset(&cg, 0, sizeof(cg));
	cg.c.header.type = RINGTRACE_RECORD_CGROUP;
	cg.c.header.size = sizeof(cg);
	cg.c.ts_ns = 5000000000ull;
	cg.c.cgroup_id = 4242;
	cg.c.path_len = 6;
	memcpy(cg.path, "/ctr/a", 6);
	assert_int_equal(rt_paths_init(&paths), 0);
	assert_int_equal(rt_decode(&cg, sizeof(cg), 0, &ev), RT_DECODE_OK);
	assert_true(rt_paths_take(&paths, &ev));
	make_offcpu_ext(&o);
	rt_decode(&o, sizeof(o), 0, &ev);
	rt_paths_name(&paths, &ev);
	assert_non_null(ev.ext.cgroup);
	assert_string_equal(ev.ext.cgroup, "/ctr/a");
	assert_string_equal(print_event_as(&ev, false),
		"         sleeper      42/43      [001]     5.000000000: offcpu: "
		"state=S dur=20000.123us cpu_out=0 "
		"kstack=0xffffffff81000010,0xffffffff81000020 ustack=0x401000 "
		"host_pid=5042 host_tid=5043 cgroup=/ctr/a\n");
	assert_string_equal(print_event_as(&ev, true),
		"{\"type\":\"offcpu\",\"ts_ns\":5000000000,\"cpu\":1,\"pid\":42,"
		"\"tid\":43,\"comm\":\"sleeper\",\"offcpu_ns\":20000123,"
		"\"state\":\"S\",\"cpu_out\":0,\"host_pid\":5042,"
		"\"host_tid\":5043,\"cgroup_id\":4242,\"cgroup\":\"/ctr/a\","
		"\"kstack\":[\"0xffffffff81000010\",\"0xffffffff81000020\"],"
		"\"ustack\":[\"0x401000\"]}\n");

	/* --hist-by cgroup: the off-CPU intervals under the cgroup's name. */
	v.paths = &paths;
	assert_int_equal(rt_latency_view_init(&v), 0);
	rt_latency_view_add(&v, &ev);
	rt_latency_view_add(&v, &ev);
	assert_int_equal(v.keyed.nr, 1);
	rt_outbuf_init(&ob, -1, 0);
	rt_latency_view_print(&v, &ob);
	rt_outbuf_append(&ob, "", 1);
	assert_non_null(strstr(ob.buf, "\n@[cgroup /ctr/a]\n off CPU\n"));
	rt_outbuf_fini(&ob);
	rt_latency_view_fini(&v);

	/* Perfetto: the process is named with its cgroup. */
	rt_outbuf_init(&ob, -1, 0);
	assert_int_equal(rt_perfetto_init(&pf, &ob), 0);
	rt_perfetto_add(&pf, &ev);
	rt_perfetto_finish(&pf);
	rt_outbuf_append(&ob, "", 1);
	assert_non_null(strstr(ob.buf, "\"name\":\"process_name\",\"pid\":42,"
			       "\"tid\":42,\"args\":{\"name\":\"sleeper "
			       "(cgroup /ctr/a)\"}}"));
	rt_outbuf_fini(&ob);
	rt_paths_fini(&paths);
}

static void test_filters(void **state)
{
	struct rt_filter f = { .events = RINGTRACE_EVENT_VFS_READ };
	struct offcpu_with_stack o;
	struct rt_event ev;

	(void)state;
	make_offcpu(&o, false);
	rt_decode(&o, sizeof(o.r), 0, &ev);
	assert_false(rt_filter_pass(&f, &ev));
	f.events = RINGTRACE_EVENT_OFFCPU;
	assert_true(rt_filter_pass(&f, &ev));
	f.min_offcpu_ns = 20000124;
	assert_true(rt_filter_active(&f));
	assert_false(rt_filter_pass(&f, &ev));
	f.min_offcpu_ns = 20000123;
	assert_true(rt_filter_pass(&f, &ev));
	f.comm = "other";
	assert_false(rt_filter_pass(&f, &ev));
}

int main(void)
{
	RUN(cmocka_unit_test(test_decode_offcpu),
	    cmocka_unit_test(test_decode_vfs_read_sizes),
	    cmocka_unit_test(test_lines),
	    cmocka_unit_test(test_views),
	    cmocka_unit_test(test_perfetto_slice),
	    cmocka_unit_test(test_cgroup),
	    cmocka_unit_test(test_filters));
}
