// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sessions through the mocked syscall seam: the message for each way
 * opening or configuring can fail (module not loaded, not root, not the
 * ringtrace device, old module, bad buffer size, unknown CPU, no memory,
 * newer ring ABI), and what a good setup sends the kernel (config fields,
 * CPU mask, one mapping per CPU at RINGTRACE_MMAP_OFFSET(cpu)).
 */
#include <errno.h>

#include "test.h"

#include "ringtrace/funcs.h"
#include "ringtrace/session.h"
#include "fake_kernel.h"

static int setup(void **state)
{
	(void)state;
	fake_kernel_install();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_kernel_remove();
	return 0;
}

static void expect_open_error(int err, const char *w1, const char *w2)
{
	struct rt_session s;

	fk.open_errno = err;
	assert_int_equal(rt_session_open(&s, NULL), -err);
	if (!strstr(s.errmsg, w1) || !strstr(s.errmsg, w2))
		fail_msg("errno %d: '%s' lacks '%s' or '%s'", err, s.errmsg, w1, w2);
	rt_session_close(&s);
}

static void test_open_messages(void **state)
{
	(void)state;
	expect_open_error(ENOENT, "ringtrace module not loaded",
			  "`sudo ringtrace-ctl load` (or ringtrace-cat --load)");
	expect_open_error(ENODEV, "module not loaded", "ringtrace-ctl load");
	expect_open_error(EACCES, "permission denied", "sudo");
	expect_open_error(EPERM, "permission denied", "root");
	expect_open_error(EMFILE, "cannot open /dev/ringtrace", "files");
	/* Not insmod: it loads neither the direct-call module nor from PATH. */
	{
		struct rt_session s;

		fk.open_errno = ENOENT;
		assert_int_equal(rt_session_open(&s, NULL), -ENOENT);
		assert_null(strstr(s.errmsg, "insmod"));
		rt_session_close(&s);
	}
}

static void test_not_a_ringtrace_device(void **state)
{
	struct rt_session s;

	(void)state;
	fk.ioctl_errno[FK_INFO] = ENOTTY;
	assert_int_equal(rt_session_open(&s, NULL), -ENOTTY);
	assert_non_null(strstr(s.errmsg, "is it really the ringtrace module"));
	rt_session_close(&s);
}

static void test_bad_info_refused(void **state)
{
	struct rt_session s;

	(void)state;
	fk.info.size = 8;
	assert_int_equal(rt_session_open(&s, NULL), -EPROTO);
	rt_session_close(&s);
	fk.info.size = sizeof(fk.info);
	fk.info.page_size = 3000;
	assert_int_equal(rt_session_open(&s, NULL), -EPROTO);
	assert_non_null(strstr(s.errmsg, "page size 3000"));
	rt_session_close(&s);
}

static void test_default_setup(void **state)
{
	struct rt_session_opts o = { .pid = -1 };
	struct rt_session s;

	(void)state;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.size, sizeof(struct ringtrace_config));
	assert_int_equal(fk.config.events, RINGTRACE_EVENT_VFS_READ);
	assert_int_equal(fk.config.pid, -1);
	assert_int_equal(fk.config.flags, 0);
	assert_int_equal(fk.config.cpu_mask_ptr, 0);
	/* Woken every 256 KiB, not every half of the 4 MiB ring. */
	assert_int_equal(fk.config.watermark_bytes, 256 * 1024);
	assert_int_equal(s.nr_rings, 4);
	assert_int_equal(fk.nr_mmaps, 4);
	for (uint32_t cpu = 0; cpu < 4; cpu++) {
		assert_true(fk.mapped[cpu]);
		assert_int_equal(fk.rings[cpu].map_len,
				 FAKE_PAGE + RT_DEFAULT_BUFFER_BYTES);
		assert_int_equal(s.srcs[cpu].cpu, cpu);
		assert_ptr_equal(s.srcs[cpu].ring.data, fk.rings[cpu].data);
	}
	assert_int_equal(rt_session_enable(&s), 0);
	assert_true(fk.enabled);
	rt_session_close(&s);
	for (int cpu = 0; cpu < 4; cpu++)
		assert_false(fk.mapped[cpu]);		/* all unmapped */
}

/* A ring smaller than twice the default watermark is woken at half. */
static void test_small_ring_watermark(void **state)
{
	struct rt_session_opts o = { .pid = -1, .buffer_bytes = 64 * 1024 };
	struct rt_session s;

	(void)state;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.watermark_bytes, 32 * 1024);
	rt_session_close(&s);
}

static void test_selected_setup(void **state)
{
	struct rt_session_opts o = {
		.pid = 123, .inherit = true, .cpus_given = true,
		.min_latency_ns = 1000000, .watermark_bytes = 8192,
		.flush_ms = 50, .buffer_bytes = 64 * 1024,
		.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_LOCK,
	};
	struct rt_session s;
	char err[64];

	(void)state;
	rt_cpuset_parse(&o.cpus, "1,3", err, sizeof(err));
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.pid, 123);
	assert_int_equal(fk.config.flags, RINGTRACE_CFG_INHERIT);
	assert_int_equal(fk.config.events,
			 RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_LOCK);
	assert_int_equal(fk.config.min_latency_ns, 1000000);
	assert_int_equal(fk.config.watermark_bytes, 8192);
	assert_int_equal(fk.config.flush_ms, 50);
	assert_int_equal(fk.config.cpu_mask_bytes, 8);
	assert_int_equal(fk.cpu_mask[0], 0xa);
	assert_int_equal(s.nr_rings, 2);
	assert_false(fk.mapped[0]);
	assert_true(fk.mapped[1]);
	assert_true(fk.mapped[3]);
	assert_int_equal(fk.rings[3].map_len, FAKE_PAGE + 64 * 1024);
	rt_session_close(&s);
}

static void expect_setup_error(struct rt_session_opts *o, int err,
			       const char *words)
{
	struct rt_session s;

	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, o), -err);
	if (!strstr(s.errmsg, words))
		fail_msg("'%s' lacks '%s'", s.errmsg, words);
	rt_session_close(&s);
	for (int cpu = 0; cpu < FAKE_MAX_CPUS; cpu++)
		assert_false(fk.mapped[cpu]);		/* nothing leaked */
}

static void test_setup_errors(void **state)
{
	struct rt_session_opts o = { .pid = -1 };
	char err[64];

	(void)state;
	o.buffer_bytes = 3 * FAKE_PAGE;
	expect_setup_error(&o, EINVAL, "power-of-two number of 4096-byte pages");
	o.buffer_bytes = 5000;
	expect_setup_error(&o, EINVAL, "try 4K or 8K");
	o.buffer_bytes = 2048ull * FAKE_PAGE;
	expect_setup_error(&o, EINVAL, "at most 1024 pages");
	/* In the units the user wrote, not 1099511627776. */
	o.buffer_bytes = 1ull << 40;
	expect_setup_error(&o, EINVAL, "--buffer-size 1T: the module allows "
			   "at most 1024 pages (4M)");
	o.buffer_bytes = 0;

	o.watermark_bytes = RT_DEFAULT_BUFFER_BYTES;
	expect_setup_error(&o, EINVAL, "--watermark");
	o.watermark_bytes = 0;

	o.cpus_given = true;
	rt_cpuset_parse(&o.cpus, "2,5", err, sizeof(err));
	expect_setup_error(&o, EINVAL, "CPU 5 does not exist");
	o.cpus_given = false;

	o.events = RINGTRACE_EVENT_LOCK_CONTENTION;
	expect_setup_error(&o, EOPNOTSUPP, "cannot produce: lock_contention");
	o.events = 0;

	fk.ioctl_errno[FK_CONFIG] = E2BIG;
	expect_setup_error(&o, E2BIG, "older than these tools");
	fk.ioctl_errno[FK_CONFIG] = 0;

	fk.mmap_errno = ENOMEM;
	expect_setup_error(&o, ENOMEM, "try a smaller --buffer-size");
	fk.mmap_errno = EPERM;
	expect_setup_error(&o, EPERM, "mlock_kb KiB per CPU plus ulimit -l");
	fk.mmap_errno = EACCES;
	expect_setup_error(&o, EACCES, "root");
	fk.mmap_errno = 0;

	fk.compat_version = RINGTRACE_ABI_VERSION + 1;
	expect_setup_error(&o, EPROTO, "rebuild");
}

/*
 * --attach MECH goes to the module in the config; one the
 * module does not offer is refused at setup, naming what it needs; an
 * EBUSY at enable names the cause: another tool on vfs_read's direct
 * call, or other sessions with another mechanism.
 */
/*
 * --filter's ret and count ranges go to a module that offers
 * them, and not to one that does not (the tool then filters alone).
 */
/*
 * --no-cgroup-names asks for ids without names when the module
 * can leave names out, and for no cgroups at all when it cannot (it would
 * refuse the flag); names by default.
 */
/*
 * The off-CPU intervals the module could not follow during a session:
 * its module-wide offcpu_missed now less what it was at ENABLE; 0 for a
 * session that did not ask for offcpu.
 */
static void test_offcpu_missed_since_enable(void **state)
{
	struct rt_session_opts o = { .pid = -1,
				     .events = RINGTRACE_EVENT_VFS_READ |
					       RINGTRACE_EVENT_OFFCPU };
	struct rt_session s;

	(void)state;
	fk.info.events |= RINGTRACE_EVENT_OFFCPU;
	fk.stats.offcpu_missed = 40;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(rt_session_enable(&s), 0);
	fk.stats.offcpu_missed = 47;
	assert_int_equal(rt_session_offcpu_missed(&s), 7);
	rt_session_close(&s);

	o.events = RINGTRACE_EVENT_VFS_READ;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(rt_session_enable(&s), 0);
	fk.stats.offcpu_missed = 90;
	assert_int_equal(rt_session_offcpu_missed(&s), 0);
	rt_session_close(&s);
}

static void test_cgroup_names_flag(void **state)
{
	struct rt_session_opts o = { .pid = -1, .cgroups = true,
				     .cgroup_names = true };
	const uint32_t both = RINGTRACE_CFG_CGROUPS |
			      RINGTRACE_CFG_NO_CGROUP_NAMES;
	struct rt_session s;

	(void)state;
	fk.info.features |= RINGTRACE_FEAT_CGROUP | RINGTRACE_FEAT_CGROUP_IDS;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & both, RINGTRACE_CFG_CGROUPS);
	rt_session_close(&s);

	o.cgroup_names = false;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & both, both);
	rt_session_close(&s);

	fk.info.features &= ~RINGTRACE_FEAT_CGROUP_IDS;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & both, 0);
	rt_session_close(&s);
}

/*
 * --graph's "calls inside reads only" goes to a module that offers it,
 * with vfs_read and func events; not to one that does not (the graph
 * then drops calls outside reads itself), nor without both events.
 */
static void test_func_in_read_flag(void **state)
{
	static char names[1][RINGTRACE_FUNC_NAME_LEN] = { "rw_verify_area" };
	struct rt_session_opts o = {
		.pid = -1, .func_in_read = true, .nr_funcs = 1,
		.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_FUNC,
		.funcs = names,
	};
	struct rt_session s;

	(void)state;
	fk.info.events |= RINGTRACE_EVENT_FUNC;
	fk.info.features |= RINGTRACE_FEAT_FUNC;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & RINGTRACE_CFG_FUNC_IN_READ, 0);
	assert_false(s.func_in_read_kernel);
	rt_session_close(&s);

	fk.info.features |= RINGTRACE_FEAT_FUNC_IN_READ;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & RINGTRACE_CFG_FUNC_IN_READ,
			 RINGTRACE_CFG_FUNC_IN_READ);
	assert_true(s.func_in_read_kernel);
	rt_session_close(&s);

	o.events = RINGTRACE_EVENT_FUNC;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & RINGTRACE_CFG_FUNC_IN_READ, 0);
	assert_false(s.func_in_read_kernel);
	rt_session_close(&s);

	o.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_FUNC;
	o.func_in_read = false;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & RINGTRACE_CFG_FUNC_IN_READ, 0);
	rt_session_close(&s);
}

/*
 * --graph --min-latency's "hold the calls until their read returns" goes
 * to a module that offers it, with the calls inside reads only and a
 * min_latency_ns (the module refuses it without them); not to one that
 * does not (its calls of faster reads are then written and dropped by
 * the graph), nor without a min_latency_ns or without func_in_read.
 */
static void test_func_hold_flag(void **state)
{
	static char names[1][RINGTRACE_FUNC_NAME_LEN] = { "rw_verify_area" };
	struct rt_session_opts o = {
		.pid = -1, .func_in_read = true, .func_hold = true,
		.min_latency_ns = 1000000, .nr_funcs = 1,
		.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_FUNC,
		.funcs = names,
	};
	const uint32_t both = RINGTRACE_CFG_FUNC_IN_READ |
			      RINGTRACE_CFG_FUNC_HOLD;
	struct rt_session s;

	(void)state;
	fk.info.events |= RINGTRACE_EVENT_FUNC;
	fk.info.features |= RINGTRACE_FEAT_FUNC | RINGTRACE_FEAT_FUNC_IN_READ;
	/* an older module: the calls inside reads, written at once */
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & both, RINGTRACE_CFG_FUNC_IN_READ);
	assert_int_equal(fk.config.min_latency_ns, 1000000);
	assert_false(s.func_hold_kernel);
	rt_session_close(&s);

	fk.info.features |= RINGTRACE_FEAT_FUNC_HOLD;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & both, both);
	assert_int_equal(fk.config.min_latency_ns, 1000000);
	assert_true(s.func_hold_kernel);
	rt_session_close(&s);

	/* no --min-latency: nothing to hold the calls for */
	o.min_latency_ns = 0;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & both, RINGTRACE_CFG_FUNC_IN_READ);
	assert_false(s.func_hold_kernel);
	rt_session_close(&s);

	/* not asked for (a trace without --graph) */
	o.min_latency_ns = 1000000;
	o.func_hold = false;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & both, RINGTRACE_CFG_FUNC_IN_READ);
	assert_false(s.func_hold_kernel);
	rt_session_close(&s);

	/* no calls-inside-reads (a module without it): none held */
	o.func_hold = true;
	fk.info.features &= ~RINGTRACE_FEAT_FUNC_IN_READ;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.flags & both, 0);
	assert_false(s.func_hold_kernel);
	rt_session_close(&s);
}

/*
 * -e tp:SUBSYS:EVENT: kept whole, prefix included (the module tells a
 * tracepoint from a function by it); a name of another shape, a second
 * one, refused; a module that cannot attach to tracepoints refuses the
 * session before anything attaches, naming the tracepoint.
 */
static void test_tracepoint_names(void **state)
{
	static const char *const bad[] = {
		"tp:", "tp::x", "tp:a:", "tp:a:b:c", "tp:sig-nal:x", "tp:a b",
	};
	struct rt_session_opts o = { .pid = -1 };
	struct rt_session s;
	char err[128];

	(void)state;
	assert_int_equal(rt_session_opts_add_func(&o, "tp:signal:signal_generate",
						  25, err, sizeof(err)), 0);
	assert_string_equal(o.funcs[0], "tp:signal:signal_generate");
	assert_int_equal(rt_session_opts_add_func(&o, "tp:sys_enter", 12, err,
						  sizeof(err)), 0);
	assert_string_equal(o.funcs[1], "tp:sys_enter");
	assert_int_equal(rt_session_opts_add_func(&o, "func:vfs_read", 13, err,
						  sizeof(err)), 0);
	assert_string_equal(o.funcs[2], "vfs_read");
	assert_int_equal(o.nr_funcs, 3);
	assert_true(o.events & RINGTRACE_EVENT_FUNC);
	assert_int_equal(rt_session_opts_add_func(&o, "tp:sys_enter", 12, err,
						  sizeof(err)), -1);
	assert_non_null(strstr(err, "tp:sys_enter given twice"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(rt_session_opts_add_func(&o, bad[i],
							  strlen(bad[i]), err,
							  sizeof(err)), -1);
		assert_non_null(strstr(err, "is not tp:SUBSYS:EVENT"));
	}
	assert_int_equal(o.nr_funcs, 3);
	assert_int_equal(rt_session_opts_add_func(&o, "offcpu", 6, err,
						  sizeof(err)), 1);
	assert_true(rt_func_name_is_tp(o.funcs[0]));
	assert_false(rt_func_name_is_tp(o.funcs[2]));

	fk.info.events |= RINGTRACE_EVENT_FUNC;
	fk.info.features |= RINGTRACE_FEAT_FUNC;
	fk.info.features &= ~RINGTRACE_FEAT_FUNC_TRACEPOINT;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), -EOPNOTSUPP);
	assert_non_null(strstr(s.errmsg, "cannot trace tp:signal:signal_generate"));
	assert_non_null(strstr(s.errmsg, "cannot attach to tracepoints"));
	rt_session_close(&s);
	rt_session_opts_fini(&o);
}

/*
 * As many functions as the loaded module takes go to it; one more is
 * refused before SET_CONFIG, naming the limit: ringtrace_info.max_funcs,
 * or 64 from a module that does not say it (update the module).
 */
static void test_func_limit(void **state)
{
	static struct rt_session_opts o = { .pid = -1 };
	struct rt_session s;
	char item[32], err[128];

	(void)state;
	for (uint32_t i = 0; i <= RINGTRACE_MAX_FUNCS; i++) {
		snprintf(item, sizeof(item), "func:fn_%u", i);
		assert_int_equal(rt_session_opts_add_func(&o, item,
							  strlen(item), err,
							  sizeof(err)),
				 i < RINGTRACE_MAX_FUNCS ? 0 : -1);
	}
	assert_non_null(strstr(err, "at most 1024 func: and tp: events"));
	assert_int_equal(o.nr_funcs, RINGTRACE_MAX_FUNCS);
	fk.info.events |= RINGTRACE_EVENT_FUNC;
	fk.info.features |= RINGTRACE_FEAT_FUNC;

	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_max_funcs(&s), RINGTRACE_MAX_FUNCS);
	assert_int_equal(rt_session_func_attach(&s), RINGTRACE_ATTACH_FPROBE);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.nr_funcs, RINGTRACE_MAX_FUNCS);
	rt_session_close(&s);

	/* A module that takes fewer: refused, SET_CONFIG not asked. */
	fk.info.max_funcs = 100;
	fk.info.func_attach = RINGTRACE_ATTACH_KRETPROBE;
	fk.configured = false;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_func_attach(&s),
			 RINGTRACE_ATTACH_KRETPROBE);
	assert_int_equal(rt_session_setup(&s, &o), -E2BIG);
	assert_non_null(strstr(s.errmsg, "1024 functions and tracepoints "
			       "named: the loaded module takes at most 100 "
			       "per session"));
	assert_null(strstr(s.errmsg, "update the module"));
	assert_false(fk.configured);
	rt_session_close(&s);

	/* An older module, which does not say: 64, and 64 pass. */
	fk.info.size = RINGTRACE_INFO_SIZE_VER1;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_max_funcs(&s), RINGTRACE_MAX_FUNCS_VER0);
	assert_int_equal(rt_session_func_attach(&s), 0);
	assert_int_equal(rt_session_setup(&s, &o), -E2BIG);
	assert_non_null(strstr(s.errmsg, "at most 64 per session (an older "
			       "module): update the module"));
	rt_session_close(&s);
	o.nr_funcs = RINGTRACE_MAX_FUNCS_VER0;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.nr_funcs, RINGTRACE_MAX_FUNCS_VER0);
	rt_session_close(&s);
	rt_session_opts_fini(&o);
}

static void test_value_ranges(void **state)
{
	struct rt_expr_ranges r;
	struct rt_session_opts o = { .pid = -1, .vfs_read_ranges = &r };
	struct rt_session s;

	(void)state;
	rt_expr_ranges_init(&r);
	r.ret_set = true;
	r.ret_max = -1;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.vfs_read_values, 0);
	assert_false(s.values_in_kernel);
	rt_session_close(&s);

	fk.info.features |= RINGTRACE_FEAT_VFS_READ_VALUES;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.vfs_read_values, RINGTRACE_VFS_READ_RET);
	assert_true(fk.config.vfs_read_ret_min == INT64_MIN);
	assert_true(fk.config.vfs_read_ret_max == -1);
	assert_true(s.values_in_kernel);
	rt_session_close(&s);

	/* An empty range is not sent (the module would refuse it). */
	r.count_set = true;
	r.count_min = 10;
	r.count_max = 9;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.vfs_read_values, 0);
	assert_false(s.values_in_kernel);
	rt_session_close(&s);
}

static void test_attach_request(void **state)
{
	struct rt_session_opts o = { .pid = -1,
				     .vfs_read_attach = RINGTRACE_ATTACH_DIRECT };
	struct rt_session s;

	(void)state;
	fk.info.vfs_read_attach = RINGTRACE_ATTACH_KRETPROBE;
	fk.info.vfs_read_attach_mask = 1u << RINGTRACE_ATTACH_KRETPROBE;
	expect_setup_error(&o, EOPNOTSUPP, "needs ringtrace_direct.ko");
	o.vfs_read_attach = RINGTRACE_ATTACH_FPROBE;
	expect_setup_error(&o, EOPNOTSUPP, "this kernel does not offer it");

	fk.info.vfs_read_attach_mask |= 1u << RINGTRACE_ATTACH_DIRECT;
	o.vfs_read_attach = RINGTRACE_ATTACH_DIRECT;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.vfs_read_attach, RINGTRACE_ATTACH_DIRECT);
	assert_int_equal(fk.config.__pad_attach, 0);

	/* The module says kretprobe is attached: other sessions have it. */
	fk.ioctl_errno[FK_ENABLE] = EBUSY;
	assert_int_equal(rt_session_enable(&s), -EBUSY);
	if (!strstr(s.errmsg, "other ringtrace sessions trace it with kretprobe"))
		fail_msg("'%s'", s.errmsg);
	/* The module says direct (its next choice): another tool holds it. */
	fk.info.vfs_read_attach = RINGTRACE_ATTACH_DIRECT;
	assert_int_equal(rt_session_enable(&s), -EBUSY);
	if (!strstr(s.errmsg, "another tool holds vfs_read's direct call"))
		fail_msg("'%s'", s.errmsg);
	fk.ioctl_errno[FK_ENABLE] = 0;
	rt_session_close(&s);

	/* Not asked for: the module's choice, the field left 0. */
	o.vfs_read_attach = 0;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_int_equal(fk.config.vfs_read_attach, 0);
	rt_session_close(&s);
}

static void test_lost_pending_summed(void **state)
{
	struct rt_session_opts o = { .pid = -1 };
	struct rt_session s;

	(void)state;
	rt_session_open(&s, NULL);
	rt_session_setup(&s, &o);
	fk.rings[0].page->lost_pending = 3;
	fk.rings[2].page->lost_pending = 4;
	assert_int_equal(rt_session_lost_pending(&s), 7);
	rt_session_close(&s);
}

/*
 * Per-thread rings: the thread list goes to the module with the
 * flag and no pid, ring i is mapped at RINGTRACE_MMAP_OFFSET(i) and must
 * say it is tids[i]'s; a module without the feature is named as the cause.
 */
static void test_per_thread_setup(void **state)
{
	static const int32_t tids[] = { 101, 202 };
	struct rt_session_opts o = { .pid = -1, .nr_tids = 2, .tids = tids };
	struct rt_session s;

	(void)state;
	expect_setup_error(&o, EOPNOTSUPP, "no per-thread rings");

	fk.info.features |= RINGTRACE_FEAT_PER_THREAD;
	assert_int_equal(rt_session_open(&s, NULL), 0);
	assert_int_equal(rt_session_setup(&s, &o), 0);
	assert_true(fk.config.flags & RINGTRACE_CFG_PER_THREAD);
	assert_int_equal(fk.config.pid, -1);
	assert_int_equal(fk.config.nr_tids, 2);
	assert_int_equal(s.nr_rings, 2);
	assert_int_equal(fk.nr_mmaps, 2);
	for (uint32_t i = 0; i < 2; i++) {
		assert_true(fk.mapped[i]);
		assert_int_equal(s.srcs[i].tid, tids[i]);
		assert_ptr_equal(s.srcs[i].ring.data, fk.rings[i].data);
	}
	assert_false(fk.mapped[2]);
	rt_session_close(&s);

	fk.tid_skew = 1;
	expect_setup_error(&o, EPROTO, "thread 101 says it is thread 102's");
	fk.tid_skew = 0;
	fk.ioctl_errno[FK_CONFIG] = ESRCH;
	expect_setup_error(&o, ESRCH, "no thread with one of the ids");
	fk.ioctl_errno[FK_CONFIG] = 0;
	o.pid = 5;
	expect_setup_error(&o, EINVAL, "threads, not a process");
}

int main(void)
{
	RUN(cmocka_unit_test_setup_teardown(test_open_messages, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_not_a_ringtrace_device, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_bad_info_refused, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_default_setup, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_small_ring_watermark, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_selected_setup, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_setup_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_attach_request, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_value_ranges, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_offcpu_missed_since_enable,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_func_in_read_flag, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_func_hold_flag, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_func_limit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tracepoint_names, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_cgroup_names_flag, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_lost_pending_summed, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_per_thread_setup, setup,
					    teardown));
}
