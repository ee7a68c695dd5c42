// SPDX-License-Identifier: GPL-2.0-only
/*
 * Any kernel function traced like vfs_read (RINGTRACE_EVENT_FUNC): a
 * workload makes exactly W write() calls of a size nothing else uses to
 * /dev/null; the session traces vfs_write for the workload's pid with
 * three raw arguments, and gets exactly W func records of that size from
 * that pid, each with the return value, the count argument and a
 * latency, and produced == records + lost. A function that cannot be
 * probed fails ENABLE: a symbol that does not exist (ENOENT), one the
 * kernel refuses to probe (x86's exc_int3: noinstr, kprobe-blacklisted).
 * SET_CONFIG refuses a bad list (too many names, one repeated, args
 * beyond the maximum, names without the event).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define W	41	/* write() calls */
#define SIZE	777	/* bytes per call: no other write of the run */

static char names[RINGTRACE_MAX_FUNCS + 1][RINGTRACE_FUNC_NAME_LEN];

static int workload(void *arg)
{
	static char buf[SIZE];
	int fd = open("/dev/null", O_WRONLY);

	(void)arg;
	if (fd < 0)
		return 1;
	for (int i = 0; i < W; i++)
		if (write(fd, buf, SIZE) != SIZE)
			return 2;
	close(fd);
	return 0;
}

struct seen {
	long func, ours, bad, lat0;
	const struct st_run *run;	/* its cfg.pid: the workload's */
};

static void count(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_func_record *r = (const void *)h;
	const __u64 *args = RINGTRACE_FUNC_RECORD_ARGS(r);
	struct seen *s = arg;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_FUNC)
		return;
	s->func++;
	if (r->func_idx != 0 || r->nr_args != 3 ||
	    h->size < RINGTRACE_FUNC_SIZE_VER0 + 3 * sizeof(uint64_t) ||
	    !r->func_ip) {
		s->bad++;
		return;
	}
	/* vfs_write(file, buf, count, pos) */
	if (args[2] == SIZE && r->ret == SIZE &&
	    r->task.pid == (uint32_t)s->run->cfg.pid)
		s->ours++;
	if (!r->lat_ns)
		s->lat0++;
}

static int config_errno(struct ringtrace_config cfg)
{
	int fd = st_open(), err;

	err = ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg) ? errno : 0;
	close(fd);
	return err;
}

/* ENABLE's errno for a session tracing @name alone (0: it enabled). */
static int enable_errno(const char *name)
{
	struct ringtrace_config cfg = st_config(RINGTRACE_EVENT_FUNC, -1);
	struct st_session s;
	int err;

	memset(names, 0, sizeof(names));
	strcpy(names[0], name);
	cfg.nr_funcs = 1;
	cfg.funcs_ptr = (uintptr_t)names;
	st_session_open(&s, &cfg, 1);
	err = st_enable(&s) ? errno : 0;
	if (!err)
		st_disable(&s);
	st_session_close(&s);
	return err;
}

int main(void)
{
	struct ringtrace_config cfg, bad;
	struct utsname u;
	struct st_run r;
	struct seen s = { 0 };
	int err;

	tap_plan(10);
	st_require_features(RINGTRACE_FEAT_FUNC, "function tracing");
	tap_ok(sizeof(cfg) == RINGTRACE_CONFIG_SIZE_FUNCS &&
	       sizeof(struct ringtrace_func_record) == RINGTRACE_FUNC_SIZE_VER0,
	       "config %zu bytes, func record %zu", sizeof(cfg),
	       sizeof(struct ringtrace_func_record));

	memset(names, 0, sizeof(names));
	strcpy(names[0], "vfs_write");
	cfg = st_config(RINGTRACE_EVENT_FUNC, 0);
	cfg.nr_funcs = 1;
	cfg.func_args = 3;
	cfg.funcs_ptr = (uintptr_t)names;

	memset(&r, 0, sizeof(r));
	r.child = workload;
	r.cfg = cfg;
	r.ring_pages = 64;
	r.record = count;
	r.record_arg = &s;
	s.run = &r;
	st_traced_run(&r);
	tap_ok(r.status == 0 && r.drained >= 0 && r.stats_rc == 0,
	       "workload %d, drained %ld, stats %d", r.status, r.drained,
	       r.stats_rc);
	tap_ok(s.ours == W, "exactly %d vfs_write records of %d bytes from "
	       "the traced pid: %ld", W, SIZE, s.ours);
	tap_ok(s.bad == 0, "every func record well formed (%ld bad of %ld)",
	       s.bad, s.func);
	tap_ok(r.stats.lost == 0 && r.stats.produced == r.stats.records +
	       r.stats.lost && r.stats.records == (uint64_t)s.func,
	       "produced %llu == records %llu + lost %llu, all %ld drained",
	       (unsigned long long)r.stats.produced,
	       (unsigned long long)r.stats.records,
	       (unsigned long long)r.stats.lost, s.func);
	tap_diag("%ld records with zero latency", s.lat0);

	bad = cfg;
	bad.nr_funcs = RINGTRACE_MAX_FUNCS + 1;
	tap_ok(config_errno(bad) == EINVAL, "%d functions: EINVAL",
	       RINGTRACE_MAX_FUNCS + 1);
	bad = cfg;
	strcpy(names[1], "vfs_write");
	bad.nr_funcs = 2;
	err = config_errno(bad);
	bad = cfg;
	bad.func_args = RINGTRACE_FUNC_MAX_ARGS + 1;
	tap_ok(err == EINVAL && config_errno(bad) == EINVAL,
	       "a name repeated, %d arguments: EINVAL",
	       RINGTRACE_FUNC_MAX_ARGS + 1);
	bad = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	bad.nr_funcs = 1;
	bad.funcs_ptr = (uintptr_t)names;
	tap_ok(config_errno(bad) == EINVAL, "names without the event: EINVAL");

	err = enable_errno("ringtrace_no_such_function");
	tap_ok(err == ENOENT, "a function that does not exist: ENOENT (%s)",
	       strerror(err));
	uname(&u);
	if (strcmp(u.machine, "x86_64")) {
		tap_skip("exc_int3 is x86's");
	} else {
		bool there;

		st_ksyms_load();
		there = st_ksym_exists("exc_int3");
		err = enable_errno("exc_int3");
		tap_ok(there && (err == ENOENT || err == EINVAL),
		       "exc_int3 (noinstr, kprobe blacklist%s) refused: %s",
		       there ? "" : ", NOT IN KALLSYMS", strerror(err));
	}
	return tap_finish();
}
