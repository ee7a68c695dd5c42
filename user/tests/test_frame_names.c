// SPDX-License-Identifier: GPL-2.0-only
/*
 * Frames named in the stream. frame_names.c: kernel names with
 * offsets and modules from kallsyms text, user names from this test's own
 * binary through libdwfl, each frame resolved once (the second lookup is
 * the table's), a full table looking nothing more up; the text and JSON printers print the names (text in place
 * of the address, JSON beside it) and nothing changes without a namer.
 */
#include <unistd.h>

#include "test.h"

#include "print_event.h"

#include "ringtrace/frame_names.h"
#include "ringtrace/output.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81367500 T vfs_read\n"
	"ffffffff81367800 t ksys_read\n"
	"ffffffffc0001000 t ext4_file_read_iter\t[ext4]\n"
	"ffffffffc0002000 t ext4_other\t[ext4]\n";

static void test_kernel_names(void **state)
{
	struct rt_frame_names n;
	struct rt_ksyms k;
	const char *a, *b;

	(void)state;
	assert_int_equal(rt_ksyms_parse(&k, kallsyms), 0);
	assert_int_equal(rt_frame_names_init(&n, &k, NULL), 0);
	a = rt_frame_name(&n, true, 1, "x", 0xffffffff81367505ull);
	assert_non_null(a);
	assert_string_equal(a, "vfs_read+0x5");
	assert_string_equal(rt_frame_name(&n, true, 1, "x",
					  0xffffffffc000103full),
			    "ext4_file_read_iter+0x3f[ext4]");
	/* Below the first symbol: nothing names it. */
	assert_null(rt_frame_name(&n, true, 1, "x", 0xffffffff80000000ull));
	assert_int_equal(n.resolved, 3);
	/* Kernel frames are one whatever the task: the table answers. */
	b = rt_frame_name(&n, true, 77, "other", 0xffffffff81367505ull);
	assert_ptr_equal(a, b);
	assert_null(rt_frame_name(&n, true, 1, "x", 0xffffffff80000000ull));
	assert_int_equal(n.resolved, 3);
	assert_int_equal(n.lookups, 5);
	/* No user symboliser: user frames stay hex. */
	assert_null(rt_frame_name(&n, false, 1, "x", 0x401000));
	rt_frame_names_fini(&n);

	/* Bare names (--report): one row per symbol. */
	assert_int_equal(rt_frame_names_init(&n, &k, NULL), 0);
	n.bare = true;
	assert_string_equal(rt_frame_name(&n, true, 1, "x",
					  0xffffffffc000103full),
			    "ext4_file_read_iter[ext4]");
	assert_string_equal(rt_frame_name(&n, true, 1, "x",
					  0xffffffff81367899ull), "ksys_read");
	rt_frame_names_fini(&n);
	rt_ksyms_free(&k);
}

/* Full: a new frame stays hex without a lookup; known ones still named. */
static void test_full_table(void **state)
{
	const uint32_t keep = RT_FRAME_NAMES_SLOTS / 4 * 3;
	struct rt_frame_names n;
	struct rt_ksyms k;

	(void)state;
	assert_int_equal(rt_ksyms_parse(&k, kallsyms), 0);
	assert_int_equal(rt_frame_names_init(&n, &k, NULL), 0);
	for (uint32_t i = 0; i < keep; i++)
		assert_non_null(rt_frame_name(&n, true, 0, "",
					      0xffffffff81000000ull + i));
	assert_int_equal(n.resolved, keep);
	assert_null(rt_frame_name(&n, true, 0, "", 0xffffffff81367505ull));
	assert_int_equal(n.full, 1);
	assert_int_equal(n.resolved, keep);
	assert_string_equal(rt_frame_name(&n, true, 0, "",
					  0xffffffff81000007ull), "_stext+0x7");
	rt_frame_names_fini(&n);
	rt_ksyms_free(&k);
}

/* A function of this binary to name (global: in its symbol table). */
__attribute__((noinline)) int rt_test_named_function(int x);
__attribute__((noinline)) int rt_test_named_function(int x)
{
	return x * 3 + 1;
}

static void test_user_names_live(void **state)
{
	uint64_t ip = (uint64_t)(uintptr_t)&rt_test_named_function + 3;
	char comm[32] = "", want[128];
	struct rt_frame_names n;
	struct rt_usyms u;
	const char *name;
	FILE *f;

	(void)state;
	f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	assert_int_equal(rt_usyms_init(&u, true), 0);
	assert_int_equal(rt_frame_names_init(&n, NULL, &u), 0);
	name = rt_frame_name(&n, false, (uint32_t)getpid(), comm, ip);
	assert_non_null(name);
	snprintf(want, sizeof(want), "rt_test_named_function+0x3(%s)",
		 "test_frame_names");
	assert_string_equal(name, want);
	/* Once: the binary was loaded once, the name comes from the table. */
	assert_ptr_equal(rt_frame_name(&n, false, (uint32_t)getpid(), comm, ip),
			 name);
	assert_int_equal(n.resolved, 1);
	assert_int_equal(u.module_loads, 1);
	rt_frame_names_fini(&n);
	rt_usyms_fini(&u);
}

/* A namer that knows one kernel and one user address. */
static const char *fake_namer(void *arg, bool kernel, uint32_t pid,
			      const char *comm, uint64_t ip)
{
	(void)arg;
	(void)comm;
	if (kernel && ip == 0xffffffff81367505ull)
		return "vfs_read+0x5";
	if (!kernel && pid == 42 && ip == 0x401234)
		return "main+0x10(prog)";
	return NULL;
}

static void stack_event(struct rt_event *ev, const uint64_t *kern,
			const uint64_t *user)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = RT_EVENT_VFS_READ;
	ev->ts_ns = 1000000000;
	ev->pid = ev->tid = 42;
	strcpy(ev->comm, "prog");
	ev->stack.nr_kernel = 2;
	ev->stack.kernel = (const unsigned char *)kern;
	ev->stack.nr_user = 1;
	ev->stack.user = (const unsigned char *)user;
}

static void test_printers_name_frames(void **state)
{
	const uint64_t kern[2] = { 0xffffffff81367505ull, 0xffffffff81a43e1dull };
	const uint64_t user[1] = { 0x401234 };
	struct rt_event ev;

	(void)state;
	stack_event(&ev, kern, user);
	rt_output_set_frame_names(fake_namer, NULL);
	assert_non_null(strstr(print_event(rt_print_text, &ev),
			       " kstack=vfs_read+0x5,0xffffffff81a43e1d "
			       "ustack=main+0x10(prog)\n"));
	assert_non_null(strstr(print_event(rt_print_json, &ev),
			       "\"kstack\":[\"0xffffffff81367505\","
			       "\"0xffffffff81a43e1d\"],"
			       "\"kstack_sym\":[\"vfs_read+0x5\",null],"
			       "\"ustack\":[\"0x401234\"],"
			       "\"ustack_sym\":[\"main+0x10(prog)\"]}\n"));
	/* A task nothing is known of: no *_sym array for its user stack. */
	ev.pid = 7;
	assert_non_null(strstr(print_event(rt_print_json, &ev),
			       "\"ustack\":[\"0x401234\"]}\n"));
	/* Without a namer, as before frame names: hex, no names. */
	rt_output_set_frame_names(NULL, NULL);
	ev.pid = 42;
	assert_non_null(strstr(print_event(rt_print_text, &ev),
			       " kstack=0xffffffff81367505,0xffffffff81a43e1d "
			       "ustack=0x401234\n"));
	assert_null(strstr(print_event(rt_print_json, &ev), "_sym"));
}

int main(void)
{
	RUN(cmocka_unit_test(test_kernel_names),
	    cmocka_unit_test(test_full_table),
	    cmocka_unit_test(test_user_names_live),
	    cmocka_unit_test(test_printers_name_frames));
}
