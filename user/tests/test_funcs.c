// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel functions by name or glob (funcs.h): names and globs resolved
 * against ftrace's list or kallsyms' text symbols (cold parts and data
 * left out), duplicates once; a pattern matching nothing, more than
 * RINGTRACE_MAX_FUNCS names, or a glob with no list to expand it are
 * refused with why; without patterns, the defaults the list has, in
 * their order; a plain name passes when no list can be read.
 */
#include <unistd.h>

#include "test.h"

#include "ringtrace/funcs.h"

static const char ftrace_list[] =
	"rw_verify_area\n"
	"filemap_read\n"
	"filemap_get_pages\n"
	"filemap_get_pages\n"	/* two static functions of one name */
	"ext4_file_read_iter [ext4]\n"
	"touch_atime\n";

static const char kallsyms[] =
	"ffffffff81000000 T filemap_read\n"
	"ffffffff81000100 t filemap_get_pages\n"
	"ffffffff81000200 t filemap_read.cold\n"
	"ffffffff81000300 D filemap_data\n"
	"ffffffffc0000000 t ext4_file_read_iter\t[ext4]\n";

static char path[64];

static const char *const *list_of(const char *text)
{
	static const char *lists[3];
	int fd;

	strcpy(path, "/tmp/test_funcs.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	lists[0] = "/nonexistent/available_filter_functions";
	lists[1] = path;
	lists[2] = NULL;
	return lists;
}

static char out[RINGTRACE_MAX_FUNCS][RINGTRACE_FUNC_NAME_LEN];
static char err[512];
static uint32_t nr;

static int resolve(const char *pats, const char *const *defaults,
		   const char *const *lists)
{
	memset(out, 0, sizeof(out));
	err[0] = '\0';
	return rt_funcs_resolve(pats, defaults, lists, out, &nr, err,
				sizeof(err));
}

static void test_names_and_globs(void **state)
{
	const char *const *lists = list_of(ftrace_list);

	(void)state;
	assert_int_equal(resolve("filemap_*,touch_atime", NULL, lists), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(out[0], "filemap_read");
	assert_string_equal(out[1], "filemap_get_pages");
	assert_string_equal(out[2], "touch_atime");
	assert_int_equal(resolve("ext4_*", NULL, lists), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(out[0], "ext4_file_read_iter");
	assert_int_equal(resolve("filemap_read,nosuch_fn", NULL, lists), -1);
	assert_non_null(strstr(err, "'nosuch_fn' matches no function"));
	assert_int_equal(resolve(",filemap_read", NULL, lists), -1);
	unlink(path);
}

static void test_kallsyms(void **state)
{
	const char *const *lists = list_of(kallsyms);

	(void)state;
	assert_int_equal(resolve("filemap_*", NULL, lists), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(out[0], "filemap_read");
	assert_string_equal(out[1], "filemap_get_pages");
	assert_int_equal(resolve("ext4_file_read_iter", NULL, lists), 0);
	assert_int_equal(nr, 1);
	unlink(path);
}

static void test_too_many(void **state)
{
	static char text[(RINGTRACE_MAX_FUNCS + 1) * 16];
	char want[64], last[32];
	const char *const *lists;

	(void)state;
	text[0] = '\0';
	for (int i = 0; i <= RINGTRACE_MAX_FUNCS; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
			 "fn_%04d\n", i);
	lists = list_of(text);
	assert_int_equal(resolve("fn_*", NULL, lists), -1);
	snprintf(want, sizeof(want), "names %d functions",
		 RINGTRACE_MAX_FUNCS + 1);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof(want), "at most %d", RINGTRACE_MAX_FUNCS);
	assert_non_null(strstr(err, want));
	/* the limit itself is not over it: every name but the last */
	_Static_assert(RINGTRACE_MAX_FUNCS == 1024,
		       "the patterns below name 1024");
	snprintf(last, sizeof(last), "fn_%04d", RINGTRACE_MAX_FUNCS);
	assert_int_equal(resolve("fn_0*,fn_10[01]?,fn_102[0-3]", NULL, lists),
			 0);
	assert_int_equal(nr, RINGTRACE_MAX_FUNCS);
	for (uint32_t i = 0; i < nr; i++)
		assert_string_not_equal(out[i], last);
	unlink(path);
}

static void test_defaults(void **state)
{
	static const char *const defaults[] = {
		"rw_verify_area", "security_file_permission", "filemap_read",
		"copy_page_to_iter", "touch_atime", NULL,
	};
	const char *const *lists = list_of(ftrace_list);

	(void)state;
	assert_int_equal(resolve(NULL, defaults, lists), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(out[0], "rw_verify_area");
	assert_string_equal(out[1], "filemap_read");
	assert_string_equal(out[2], "touch_atime");
	unlink(path);
	lists = list_of("other_fn\n");
	assert_int_equal(resolve(NULL, defaults, lists), -1);
	assert_non_null(strstr(err, "lists none of"));
	unlink(path);
}

static void test_no_list(void **state)
{
	static const char *const none[] = { "/nonexistent/a", "/nonexistent/b",
					    NULL };

	(void)state;
	/* a plain name passes: the module says whether it can trace it */
	assert_int_equal(resolve("filemap_read", NULL, none), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(resolve("filemap_*", NULL, none), -1);
	assert_non_null(strstr(err, "cannot read the kernel's list"));
	assert_int_equal(resolve(NULL, rt_funcs_read_callees, none), -1);
}

int main(void)
{
	RUN(cmocka_unit_test(test_names_and_globs),
	    cmocka_unit_test(test_kallsyms),
	    cmocka_unit_test(test_too_many),
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_no_list));
}
