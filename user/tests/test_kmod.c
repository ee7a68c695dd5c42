// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-ctl's module handling through the mocked libkmod seam: load by
 * path passes the parameters, "already loaded" is not an error, each
 * kernel refusal (not root, wrong kernel, in use) gets its own advice,
 * unloading a module that is not loaded says so without trying,
 * loading without a path uses the installed module, the checkout's
 * kmod/ringtrace.ko is found next to the tool, and ringtrace_direct.ko
 * is loaded first from beside the path and unloaded after. A
 * parameter the module does not declare is refused before anything is
 * loaded; with the module loaded, parameters are written to its writable
 * sysfs files, and a read-only one is refused with nothing written.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/kmod.h"
#include "ringtrace/sys_kmod.h"

static struct kmod_ctx *const CTX = (struct kmod_ctx *)0x1000;
static struct kmod_module *const MOD = (struct kmod_module *)0x2000;
static struct kmod_module *const DIRECT = (struct kmod_module *)0x2008;
static struct kmod_list *const LIST = (struct kmod_list *)0x3000;

static int insert_ret, remove_ret, lookup_ret, refs, state_ret;
static int direct_insert_ret, direct_remove_ret;
static char got_path[256], got_options[256], first_path[256];
static char last_name[64];
static int paths;
static bool probed;
static int removes;

static struct kmod_ctx *f_new(const char *d, const char * const *c)
{
	(void)d;
	(void)c;
	return CTX;
}
static struct kmod_ctx *f_unref_ctx(struct kmod_ctx *c)
{
	assert_ptr_equal(c, CTX);
	return NULL;
}
static int f_from_path(struct kmod_ctx *c, const char *p, struct kmod_module **m)
{
	assert_ptr_equal(c, CTX);
	paths++;
	snprintf(got_path, sizeof(got_path), "%s", p);
	*m = strstr(p, "ringtrace_direct.ko") ? DIRECT : MOD;
	return 0;
}
static int f_from_name(struct kmod_ctx *c, const char *n, struct kmod_module **m)
{
	(void)c;
	if (strcmp(n, "ringtrace") && strcmp(n, "ringtrace_direct"))
		fail_msg("looked up module '%s'", n);
	snprintf(last_name, sizeof(last_name), "%s", n);
	*m = MOD;
	return 0;
}
static int f_lookup(struct kmod_ctx *c, const char *a, struct kmod_list **l)
{
	(void)c;
	assert_string_equal(a, "ringtrace");
	*l = lookup_ret ? NULL : LIST;
	return lookup_ret;
}
static struct kmod_module *f_list_module(const struct kmod_list *l)
{
	assert_ptr_equal(l, LIST);
	return MOD;
}
static int f_unref_list(struct kmod_list *l)
{
	(void)l;
	return 0;
}
static struct kmod_module *f_unref(struct kmod_module *m)
{
	assert_true(m == MOD || m == DIRECT);
	return NULL;
}
static int f_insert(struct kmod_module *m, unsigned int flags, const char *o)
{
	(void)flags;
	/* The first module inserted: ringtrace_direct.ko goes in first. */
	if (!first_path[0])
		snprintf(first_path, sizeof(first_path), "%s",
			 m == DIRECT ? "direct" : "ringtrace");
	if (m == DIRECT)
		return direct_insert_ret;
	snprintf(got_options, sizeof(got_options), "%s", o ? o : "");
	return insert_ret;
}
static int f_probe(struct kmod_module *m, const char *o)
{
	(void)m;
	probed = true;
	snprintf(got_options, sizeof(got_options), "%s", o ? o : "");
	return insert_ret;
}
static int f_remove(struct kmod_module *m, unsigned int flags)
{
	(void)m;
	(void)flags;
	removes++;
	if (!strcmp(last_name, "ringtrace_direct"))
		return direct_remove_ret;
	return remove_ret;
}
static int f_params(const struct kmod_module *m, char *buf, size_t len)
{
	(void)m;
	snprintf(buf, len, "a b vfs_read_attach max_ring_pages ");
	return 0;
}

static int f_state(const struct kmod_module *m)
{
	(void)m;
	return state_ret;
}
static int f_refcnt(const struct kmod_module *m)
{
	(void)m;
	return refs;
}

static int setup(void **state)
{
	(void)state;
	insert_ret = remove_ret = lookup_ret = refs = 0;
	direct_insert_ret = direct_remove_ret = 0;
	state_ret = KMOD_MODULE_LIVE;
	probed = false;
	removes = paths = 0;
	got_path[0] = got_options[0] = first_path[0] = last_name[0] = '\0';
	rt_sys_kmod = (struct rt_sys_kmod){
		.new_ctx = f_new, .unref_ctx = f_unref_ctx,
		.new_from_path = f_from_path, .new_from_name = f_from_name,
		.new_from_lookup = f_lookup, .list_module = f_list_module,
		.unref_list = f_unref_list, .unref = f_unref,
		.insert = f_insert, .probe_insert = f_probe,
		.remove = f_remove, .initstate = f_state, .refcnt = f_refcnt,
		.params = f_params,
	};
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rt_sys_kmod_reset();
	return 0;
}

static void expect_load(int ret, int want, const char *words)
{
	char msg[512];

	insert_ret = ret;
	assert_int_equal(rt_kmod_load("/x/ringtrace.ko", "a=1 b=2", msg,
				      sizeof(msg)), want);
	if (!strstr(msg, words))
		fail_msg("'%s' lacks '%s'", msg, words);
}

static void test_load_by_path(void **state)
{
	(void)state;
	expect_load(0, 0, "loaded /x/ringtrace.ko");
	/* No /x/ringtrace_direct.ko: only ringtrace.ko is inserted. */
	assert_int_equal(paths, 1);
	assert_string_equal(got_path, "/x/ringtrace.ko");
	assert_string_equal(got_options, "a=1 b=2");
	assert_false(probed);
	expect_load(-EEXIST, -EBUSY, "already loaded and a cannot change");
	expect_load(-EPERM, -EPERM, "needs root");
	expect_load(-ENOEXEC, -ENOEXEC, "another kernel version");
	expect_load(-EINVAL, -EINVAL, "see dmesg");
}

/* A checkout's kmod/ with both modules; @direct: with ringtrace_direct.ko. */
static void make_kmod_dir(char *dir, bool direct)
{
	char p[512];
	FILE *fp;

	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/ringtrace.ko", dir);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fclose(fp);
	if (!direct)
		return;
	snprintf(p, sizeof(p), "%s/ringtrace_direct.ko", dir);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fclose(fp);
}

static void remove_kmod_dir(const char *dir)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/ringtrace.ko", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/ringtrace_direct.ko", dir);
	unlink(p);
	rmdir(dir);
}

/* ringtrace_direct.ko beside the path goes in first; a refusal is a note. */
static void test_load_direct_beside(void **state)
{
	char dir[] = "/tmp/ringtrace-kmod-XXXXXX", ko[512], direct[512];
	char msg[1024];

	(void)state;
	make_kmod_dir(dir, true);
	snprintf(ko, sizeof(ko), "%s/ringtrace.ko", dir);
	snprintf(direct, sizeof(direct), "%s/ringtrace_direct.ko", dir);
	assert_int_equal(rt_kmod_load(ko, "a=1", msg, sizeof(msg)), 0);
	assert_int_equal(paths, 2);
	assert_string_equal(first_path, "direct");
	assert_string_equal(got_options, "a=1");
	assert_non_null(strstr(msg, " and "));
	assert_non_null(strstr(msg, direct));

	/* Already loaded: nothing to say about it. */
	paths = 0;
	direct_insert_ret = -EEXIST;
	assert_int_equal(rt_kmod_load(ko, "", msg, sizeof(msg)), 0);
	assert_int_equal(paths, 2);
	assert_null(strstr(msg, "direct"));

	/* Refused: ringtrace.ko still loads, and the message says why. */
	direct_insert_ret = -ENOEXEC;
	assert_int_equal(rt_kmod_load(ko, "", msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "without the direct call"));
	remove_kmod_dir(dir);
}

/* Parameters are checked against modinfo's, and applied live. */
static void test_load_params(void **state)
{
	char dir[] = "/tmp/ringtrace-params-XXXXXX", f[600], buf[64], msg[512];
	FILE *fp;

	(void)state;
	assert_int_equal(rt_kmod_load("/x/ringtrace.ko", "a=1 bogus_param=1",
				      msg, sizeof(msg)), -EINVAL);
	if (!strstr(msg, "no parameter 'bogus_param=1'") ||
	    !strstr(msg, "vfs_read_attach"))
		fail_msg("%s", msg);
	assert_int_equal(paths, 1);		/* opened, never inserted */
	assert_string_equal(got_options, "");
	assert_int_equal(rt_kmod_load(NULL, "bogus_param=1", msg, sizeof(msg)),
			 -EINVAL);
	assert_false(probed);

	/* Loaded: vfs_read_attach is writable, max_ring_pages is not. */
	assert_non_null(mkdtemp(dir));
	rt_kmod_params_dir = dir;
	snprintf(f, sizeof(f), "%s/vfs_read_attach", dir);
	fp = fopen(f, "w");
	fputs("auto\n", fp);
	fclose(fp);
	chmod(f, 0644);
	snprintf(f, sizeof(f), "%s/max_ring_pages", dir);
	fp = fopen(f, "w");
	fputs("1024\n", fp);
	fclose(fp);
	chmod(f, 0444);
	insert_ret = -EEXIST;
	assert_int_equal(rt_kmod_load("/x/ringtrace.ko",
				      "vfs_read_attach=fprobe max_ring_pages=8",
				      msg, sizeof(msg)), -EBUSY);
	if (!strstr(msg, "max_ring_pages cannot change while it is (read-only)"))
		fail_msg("%s", msg);
	snprintf(f, sizeof(f), "%s/vfs_read_attach", dir);
	fp = fopen(f, "r");
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "auto\n");	/* all or nothing */
	assert_int_equal(rt_kmod_load("/x/ringtrace.ko", "vfs_read_attach=fprobe",
				      msg, sizeof(msg)), 0);
	assert_string_equal(msg, "ringtrace is already loaded: set "
			    "vfs_read_attach=fprobe");
	fp = fopen(f, "r");
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "fprobe");
	/* A declared parameter without a sysfs file (0 permissions). */
	assert_int_equal(rt_kmod_load("/x/ringtrace.ko", "a=2", msg,
				      sizeof(msg)), -EBUSY);
	assert_non_null(strstr(msg, "not in sysfs"));
	/* No parameters: loaded already is not an error. */
	assert_int_equal(rt_kmod_load("/x/ringtrace.ko", "", msg, sizeof(msg)),
			 0);
	assert_non_null(strstr(msg, "already loaded"));
	unlink(f);
	snprintf(f, sizeof(f), "%s/max_ring_pages", dir);
	unlink(f);
	rmdir(dir);
	rt_kmod_params_dir = "/sys/module/ringtrace/parameters";
}

static void test_load_installed(void **state)
{
	char msg[512];

	(void)state;
	assert_int_equal(rt_kmod_load(NULL, "", msg, sizeof(msg)), 0);
	assert_true(probed);
	lookup_ret = -ENOENT;
	assert_int_equal(rt_kmod_load(NULL, "", msg, sizeof(msg)), -ENOENT);
	assert_non_null(strstr(msg, "not installed"));
}

static void test_unload(void **state)
{
	char msg[512];

	(void)state;
	assert_int_equal(rt_kmod_unload(msg, sizeof(msg)), 0);
	assert_int_equal(removes, 2);
	assert_string_equal(msg, "unloaded ringtrace and ringtrace_direct");
	/* Calls asleep since before the detach keep the trampoline module. */
	removes = 0;
	direct_remove_ret = -EAGAIN;
	assert_int_equal(rt_kmod_unload(msg, sizeof(msg)), 0);
	assert_int_equal(removes, 2);
	assert_non_null(strstr(msg, "ringtrace_direct stays loaded"));
	remove_ret = -EBUSY;
	refs = 2;
	assert_int_equal(rt_kmod_unload(msg, sizeof(msg)), -EBUSY);
	assert_non_null(strstr(msg, "in use (2 references)"));
	remove_ret = -ENOENT;
	assert_int_equal(rt_kmod_unload(msg, sizeof(msg)), -ENOENT);
	assert_string_equal(msg, "ringtrace is not loaded");
}

/*
 * Not loaded: said so without trying to remove it, whatever the kernel
 * would answer first (EPERM for a user, ENOSYS in a container).
 */
static void test_unload_not_loaded(void **state)
{
	char msg[512];

	(void)state;
	state_ret = -ENOENT;
	remove_ret = -EPERM;
	assert_int_equal(rt_kmod_unload(msg, sizeof(msg)), -ENOENT);
	assert_string_equal(msg, "ringtrace is not loaded");
	assert_int_equal(removes, 0);
	remove_ret = -ENOSYS;
	assert_int_equal(rt_kmod_unload(msg, sizeof(msg)), -ENOENT);
	assert_string_equal(msg, "ringtrace is not loaded");
	assert_int_equal(removes, 0);
}

static void test_status(void **state)
{
	struct rt_kmod_status st;
	char msg[512];

	(void)state;
	refs = 1;
	assert_int_equal(rt_kmod_status(RT_KMOD_NAME, &st, msg, sizeof(msg)), 0);
	assert_true(st.loaded);
	assert_int_equal(st.refcnt, 1);
	assert_string_equal(st.state, "live");
	/* The same for the trampoline module, by its own name. */
	assert_int_equal(rt_kmod_status(RT_KMOD_DIRECT_NAME, &st, msg,
					sizeof(msg)), 0);
	assert_string_equal(last_name, "ringtrace_direct");
	assert_string_equal(msg, "ringtrace_direct is loaded (live, 1 references)");
	state_ret = -ENOENT;
	assert_int_equal(rt_kmod_status(RT_KMOD_NAME, &st, msg, sizeof(msg)), 0);
	assert_false(st.loaded);
	assert_string_equal(msg, "ringtrace is not loaded");
}

static void test_checkout_path(void **state)
{
	char dir[] = "/tmp/ringtrace-co-XXXXXX", p[512], buf[512];
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/kmod", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/user", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/user/ringtrace-ctl", dir);
	assert_null(rt_kmod_checkout_path(p, buf, sizeof(buf)));
	snprintf(p, sizeof(p), "%s/kmod/ringtrace.ko", dir);
	fp = fopen(p, "w");
	fclose(fp);
	snprintf(p, sizeof(p), "%s/user/ringtrace-ctl", dir);
	assert_non_null(rt_kmod_checkout_path(p, buf, sizeof(buf)));
	snprintf(p, sizeof(p), "%s/user/../kmod/ringtrace.ko", dir);
	assert_string_equal(buf, p);
	snprintf(p, sizeof(p), "%s/kmod/ringtrace.ko", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/kmod", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/user", dir);
	rmdir(p);
	rmdir(dir);
}

int main(void)
{
	RUN(cmocka_unit_test_setup_teardown(test_load_by_path, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_load_direct_beside, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_load_params, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_load_installed, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_unload, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unload_not_loaded, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_status, setup, teardown),
	    cmocka_unit_test(test_checkout_path));
}
