// SPDX-License-Identifier: GPL-2.0-only
/*
 * A func record (any kernel function's call) names what it refers to as
 * the module's other records about a task do: its task_ext's cgroup by
 * the cgroup record before it (text and JSON), and a func record without
 * one says cgroup=#ID. On replay (no session's names) the namer gives the
 * symbol its address falls in, bare, so that it is one name live and on
 * replay; a frame's name (symbol+offset) never stands in for it. rt_event_about_task() lists the
 * kinds that carry a task_ext and a stack trailer.
 */
#include "test.h"
#include "signal_generate_args.h"

#include "print_event.h"

#include "ringtrace/folded.h"
#include "ringtrace/output.h"
#include "ringtrace/paths.h"

struct func_with_ext {
	struct ringtrace_func_record	r;
	uint64_t			args[1];
	struct ringtrace_task_ext	x;
};

struct cgroup_rec {
	struct ringtrace_cgroup_record	c;
	char				path[8];
};

static void make_func(struct func_with_ext *f)
{
	memset(f, 0, sizeof(*f));
	f->r.header.type = RINGTRACE_RECORD_FUNC;
	f->r.header.size = sizeof(*f);
	f->r.header.misc = RINGTRACE_MISC_TASK_EXT;
	f->r.task.ts_ns = 6000000000ull;
	f->r.task.cpu = 0;
	f->r.task.pid = 137;
	f->r.task.tid = 137;
	memcpy(f->r.task.comm, "dd", 2);
	f->r.func_ip = 0xffffffff81234560ull;
	f->r.nr_args = 1;
	f->r.ret = 1234;
	f->r.lat_ns = 3470;
	f->args[0] = 0x4d2;
	f->x.cgroup_id = 4242;
}

static void test_cgroup_named(void **state)
{
	struct func_with_ext f;
	struct cgroup_rec cg;
	struct rt_paths paths;
	struct rt_event ev;

	(void)state;
	make_func(&f);
	assert_int_equal(rt_decode(&f, sizeof(f), 0, &ev), RT_DECODE_OK);
	assert_true(ev.kind == RT_EVENT_FUNC && ev.ext.present);
	assert_true(ev.ext.cgroup_id == 4242);
	/* No cgroup record yet: the id. */
	assert_non_null(strstr(print_event_as(&ev, false), " cgroup=#4242"));

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

	assert_int_equal(rt_decode(&f, sizeof(f), 0, &ev), RT_DECODE_OK);
	rt_paths_name(&paths, &ev);
	assert_non_null(ev.ext.cgroup);
	assert_string_equal(ev.ext.cgroup, "/ctr/a");
	assert_non_null(strstr(print_event_as(&ev, false), " cgroup=/ctr/a"));
	assert_null(strstr(print_event_as(&ev, false), "cgroup=#"));
	assert_non_null(strstr(print_event_as(&ev, true), "\"cgroup\":\"/ctr/a\""));
	rt_paths_fini(&paths);
}

/*
 * ringtrace-cat's namer on replay: the symbol an address falls in, bare
 * (the recording's symbols, here a kallsyms text).
 */
static const char *ksym_namer(void *arg, uint64_t ip)
{
	const struct rt_ksym *sym = rt_ksyms_lookup(arg, ip);

	return sym ? sym->name : NULL;
}

/* What a frame namer gives: symbol+offset. Not a function's name. */
static const char *frame_namer(void *arg, bool kernel, uint32_t pid,
			       const char *comm, uint64_t ip)
{
	(void)arg;
	(void)kernel;
	(void)pid;
	(void)comm;
	(void)ip;
	return "vfs_write+0x0";
}

static void test_name_on_replay(void **state)
{
	static const char kallsyms[] =
		"ffffffff81234560 T vfs_write\n"
		"ffffffff81234700 T ksys_write\n"
		"ffffffffc0001000 t rt_mark\t[ringtrace_graph]\n";
	static const char names[1][RINGTRACE_FUNC_NAME_LEN] = { "ksys_write" };
	struct func_with_ext f;
	struct rt_ksyms k;
	struct rt_event ev;

	(void)state;
	make_func(&f);
	assert_int_equal(rt_decode(&f, sizeof(f), 0, &ev), RT_DECODE_OK);
	/* Unnamed: the address; a frame's name is not the function's. */
	rt_output_set_frame_names(frame_namer, NULL);
	assert_null(rt_output_func_name(&ev));
	assert_non_null(strstr(print_event_as(&ev, false),
				"func: name=0xffffffff81234560 "));
	rt_output_set_frame_names(NULL, NULL);
	assert_int_equal(rt_ksyms_parse(&k, kallsyms), 0);
	rt_output_set_func_namer(ksym_namer, &k);
	assert_string_equal(rt_output_func_name(&ev), "vfs_write");
	assert_non_null(strstr(print_event_as(&ev, false), "func: name=vfs_write ret="));
	assert_non_null(strstr(print_event_as(&ev, true), "\"func\":\"vfs_write\""));
	ev.u.func.ip = 0xffffffff81234564ull;	/* past an ENDBR64 */
	assert_string_equal(rt_output_func_name(&ev), "vfs_write");
	ev.u.func.ip = 0xffffffffc0001004ull;	/* a module's, bare */
	assert_string_equal(rt_output_func_name(&ev), "rt_mark");
	/* The session's names come first. */
	rt_output_set_func_names(names, 1);
	assert_string_equal(rt_output_func_name(&ev), "ksys_write");
	rt_output_set_func_names(NULL, 0);
	rt_output_set_func_namer(NULL, NULL);
	rt_ksyms_free(&k);
}

/*
 * A tracepoint's record (a name with the "tp:" prefix) is a hit, not a
 * call: "tp: name=SUBSYS:EVENT" and its arguments, no ret or lat in the
 * text; JSON keeps the name whole, as the views do.
 */
static void test_tracepoint_line(void **state)
{
	static const char names[1][RINGTRACE_FUNC_NAME_LEN] = {
		"tp:signal:signal_generate"
	};
	struct func_with_ext f;
	struct rt_event ev;
	const char *line;

	(void)state;
	make_func(&f);
	f.r.ret = 0;
	f.r.lat_ns = 0;
	f.args[0] = 0xa;
	assert_int_equal(rt_decode(&f, sizeof(f), 0, &ev), RT_DECODE_OK);
	rt_output_set_func_names(names, 1);
	line = print_event_as(&ev, false);
	assert_non_null(strstr(line, " tp: name=signal:signal_generate args=0xa "));
	assert_null(strstr(line, "ret="));
	assert_null(strstr(line, "lat="));
	line = print_event_as(&ev, true);
	assert_non_null(strstr(line, "\"func\":\"tp:signal:signal_generate\""));
	assert_non_null(strstr(line, "\"lat_ns\":0"));
	rt_output_set_func_names(NULL, 0);
}

struct tp_with_args {
	struct ringtrace_func_record	r;
	uint64_t			args[6];
};

/* signal:signal_generate's prototype, as the kernel's BTF says it. */
static const struct rt_func_arg_descs signal_generate = SIGNAL_GENERATE_ARGS;

static void decode_tp(struct tp_with_args *t, uint32_t nr,
		      const uint64_t *args, struct rt_event *ev)
{
	memset(t, 0, sizeof(*t));
	t->r.header.type = RINGTRACE_RECORD_FUNC;
	t->r.header.size = (uint16_t)(sizeof(t->r) + nr * sizeof(uint64_t));
	t->r.task.ts_ns = 6000000000ull;
	t->r.task.pid = 214;
	t->r.task.tid = 214;
	memcpy(t->r.task.comm, "bash", 4);
	t->r.func_ip = 0xffffffff82a3c5c0ull;
	t->r.nr_args = nr;
	memcpy(t->args, args, nr * sizeof(uint64_t));
	assert_int_equal(rt_decode(t, t->r.header.size, 0, ev), RT_DECODE_OK);
}

/*
 * Where the session knows a tracepoint's arguments (its BTF prototype):
 * each by name, a pointer in hex, an integer in decimal cut to its size
 * and, signed, sign-extended; registers past its own arguments left out.
 * JSON keeps "args" as ever and adds "named_args". Not known: hex.
 */
static void test_tracepoint_named_args(void **state)
{
	static const char names[1][RINGTRACE_FUNC_NAME_LEN] = {
		"tp:signal:signal_generate"
	};
	static const uint64_t args[6] = {
		0xa, 0xffffc90000533d78ull, 0xffff88800512c200ull, 1,
		0xffffffff, 0x1234,
	};
	struct tp_with_args t;
	struct rt_event ev;
	const char *line;

	(void)state;
	rt_output_set_func_names(names, 1);
	decode_tp(&t, 6, args, &ev);
	/* Not known: the registers, all of them, in hex. */
	line = print_event_as(&ev, false);
	assert_non_null(strstr(line, " tp: name=signal:signal_generate "
			       "args=0xa,0xffffc90000533d78,0xffff88800512c200,"
			       "0x1,0xffffffff,0x1234"));
	assert_null(strstr(print_event_as(&ev, true), "named_args"));

	rt_output_set_func_args(&signal_generate, 1);
	line = print_event_as(&ev, false);
	assert_non_null(strstr(line, " tp: name=signal:signal_generate "
			       "args=sig=10,info=0xffffc90000533d78,"
			       "task=0xffff88800512c200,group=1,result=-1"));
	assert_null(strstr(line, "0x1234"));	/* no argument of it */
	line = print_event_as(&ev, true);
	assert_non_null(strstr(line, "\"args\":[\"0xa\",\"0xffffc90000533d78\","
			       "\"0xffff88800512c200\",\"0x1\",\"0xffffffff\","
			       "\"0x1234\"]"));
	assert_non_null(strstr(line, "\"named_args\":{\"sig\":10,"
			       "\"info\":\"0xffffc90000533d78\","
			       "\"task\":\"0xffff88800512c200\",\"group\":1,"
			       "\"result\":-1}"));
	/* Fewer registers than arguments (--args 2): those named. */
	decode_tp(&t, 2, args, &ev);
	assert_non_null(strstr(print_event_as(&ev, false),
			       " args=sig=10,info=0xffffc90000533d78"));
	assert_non_null(strstr(print_event_as(&ev, true),
			       "\"named_args\":{\"sig\":10,"
			       "\"info\":\"0xffffc90000533d78\"}"));
	/* Another func_idx than the descriptions cover: hex. */
	ev.u.func.idx = 1;
	assert_non_null(strstr(print_event_as(&ev, false),
			       " args=0xa,0xffffc90000533d78"));
	rt_output_set_func_args(NULL, 0);
	rt_output_set_func_names(NULL, 0);
}

/* A value cut to its argument's size, signed or not, or a pointer. */
static const char *fmt_arg(uint8_t size, bool is_signed, bool is_ptr,
			   uint64_t v)
{
	static char buf[32];
	struct rt_func_arg_desc d = {
		.size = size, .is_signed = is_signed, .is_ptr = is_ptr,
	};

	*rt_output_fmt_arg(buf, &d, v) = '\0';
	return buf;
}

static void test_arg_types(void **state)
{
	(void)state;
	assert_string_equal(fmt_arg(4, true, false, 0xffffffff), "-1");
	assert_string_equal(fmt_arg(4, false, false, 0xffffffff), "4294967295");
	/* the register's upper half is not the int's */
	assert_string_equal(fmt_arg(4, true, false, 0xdeadbeef00000005ull), "5");
	assert_string_equal(fmt_arg(4, true, false, 0x80000000), "-2147483648");
	assert_string_equal(fmt_arg(1, true, false, 0x1ff), "-1");
	assert_string_equal(fmt_arg(1, false, false, 0x1ff), "255");
	assert_string_equal(fmt_arg(2, true, false, 0x8000), "-32768");
	assert_string_equal(fmt_arg(2, false, false, 0x12345), "9029");
	assert_string_equal(fmt_arg(8, true, false, ~0ull), "-1");
	assert_string_equal(fmt_arg(8, true, false, 1ull << 63),
			    "-9223372036854775808");
	assert_string_equal(fmt_arg(8, false, false, ~0ull),
			    "18446744073709551615");
	assert_string_equal(fmt_arg(8, false, true, 0xffff88800512c200ull),
			    "0xffff88800512c200");
	assert_string_equal(fmt_arg(8, false, true, 0), "0x0");
	/* a size no argument has: the register, in hex */
	assert_string_equal(fmt_arg(3, true, false, 0xffffff), "0xffffff");
	assert_true(rt_output_arg_is_hex(&(struct rt_func_arg_desc){
		.size = 0 }));
}

static void test_about_task(void **state)
{
	(void)state;
	assert_true(rt_event_about_task(RT_EVENT_VFS_READ));
	assert_true(rt_event_about_task(RT_EVENT_LOCK));
	assert_true(rt_event_about_task(RT_EVENT_OFFCPU));
	assert_true(rt_event_about_task(RT_EVENT_FUNC));
	assert_false(rt_event_about_task(RT_EVENT_SAMPLE));
	assert_false(rt_event_about_task(RT_EVENT_PATH));
	assert_false(rt_event_about_task(RT_EVENT_CGROUP));
	assert_false(rt_event_about_task(RT_EVENT_LOST));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_named),
		cmocka_unit_test(test_name_on_replay),
		cmocka_unit_test(test_tracepoint_line),
		cmocka_unit_test(test_tracepoint_named_args),
		cmocka_unit_test(test_arg_types),
		cmocka_unit_test(test_about_task),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
