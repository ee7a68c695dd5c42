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
		cmocka_unit_test(test_about_task),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
