// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * /dev/ringtrace sessions (see session.h). Most of this file is turning
 * errnos into sentences a user can act on: the kernel side only has
 * numbers, and "Operation not permitted" alone does not say "run as root".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "ringtrace/attach.h"
#include "ringtrace/barrier.h"
#include "ringtrace/btf.h"
#include "ringtrace/filter_expr.h"
#include "ringtrace/funcs.h"
#include "ringtrace/parse.h"
#include "ringtrace/record.h"
#include "ringtrace/session.h"
#include "ringtrace/sys.h"
#include "ringtrace/tracepoints.h"

/* The tools load it as it should be (the direct-call module first). */
#define NOT_LOADED_HINT \
	"load it with `sudo ringtrace-ctl load` (or ringtrace-cat --load)"
#define NOT_ROOT_HINT \
	"tracing the kernel needs root (CAP_PERFMON): run it with sudo"

/* The module's per-user locked-memory allowance (kmod/ring/mlock.c). */
#define MLOCK_KB_PARAM "/sys/module/ringtrace/parameters/mlock_kb"

/* The smallest GET_INFO answer we can work with: up to nr_cpu_ids. */
#define INFO_MIN_SIZE \
	(offsetof(struct ringtrace_info, nr_cpu_ids) + sizeof(__u32))

static int set_error(struct rt_session *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_error(struct rt_session *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->errmsg, sizeof(s->errmsg), fmt, ap);
	va_end(ap);
	return err > 0 ? -err : err;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int open_error(struct rt_session *s, int err)
{
	switch (err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return set_error(s, err,
				 "ringtrace module not loaded (%s: %s): " NOT_LOADED_HINT,
				 s->path, strerror(err));
	case EACCES:
	case EPERM:
		return set_error(s, err, "permission denied opening %s: "
				 NOT_ROOT_HINT, s->path);
	}
	return set_error(s, err, "cannot open %s: %s", s->path, strerror(err));
}

int rt_session_open(struct rt_session *s, const char *path)
{
	struct ringtrace_info *info = &s->info;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->epfd = -1;
	s->path = path ? path : RINGTRACE_DEVICE_PATH;

	s->fd = rt_sys.open(s->path, O_RDWR, 0);
	if (s->fd < 0)
		return open_error(s, errno);

	info->size = sizeof(*info);
	if (rt_sys.ioctl(s->fd, RINGTRACE_IOC_GET_INFO, info) < 0) {
		int err = errno;

		if (err == EPERM || err == EACCES)
			return set_error(s, err, "permission denied asking %s "
					 "for its info: " NOT_ROOT_HINT, s->path);
		return set_error(s, err,
				 "%s did not answer RINGTRACE_IOC_GET_INFO (%s): "
				 "is it really the ringtrace module?",
				 s->path, strerror(err));
	}
	if (info->size < INFO_MIN_SIZE || info->size > sizeof(*info))
		return set_error(s, EPROTO, "%s: GET_INFO answered %u bytes, "
				 "expected %zu to %zu", s->path, info->size,
				 INFO_MIN_SIZE, sizeof(*info));
	if (info->abi_version == 0)
		return set_error(s, EPROTO, "%s reports ABI version 0", s->path);
	if (!is_pow2(info->page_size) ||
	    info->page_size < sizeof(struct ringtrace_mmap_page))
		return set_error(s, EPROTO, "%s reports page size %u",
				 s->path, info->page_size);
	if (!info->nr_cpu_ids || info->nr_cpu_ids > RT_MAX_CPUS)
		return set_error(s, EPROTO, "%s reports %u CPU ids (at most %u "
				 "supported)", s->path, info->nr_cpu_ids,
				 RT_MAX_CPUS);
	info->module_version[sizeof(info->module_version) - 1] = '\0';
	return 0;
}

int rt_session_check_buffer(struct rt_session *s, uint64_t bytes)
{
	uint64_t page = s->info.page_size, pages = bytes / page;
	uint64_t lo, max = s->info.max_ring_pages;
	char b[32], l[32], h[32];

	if (bytes < page || bytes % page || !is_pow2(pages)) {
		lo = page;
		while (lo * 2 <= bytes)
			lo *= 2;
		if (lo * 2 < lo)
			lo /= 2;
		return set_error(s, EINVAL,
				 "--buffer-size %s: must be a power-of-two number of "
				 "%llu-byte pages (try %s or %s)",
				 rt_format_size(b, sizeof(b), bytes),
				 (unsigned long long)page,
				 rt_format_size(l, sizeof(l), lo),
				 rt_format_size(h, sizeof(h),
						bytes < page ? lo : lo * 2));
	}
	if (max && pages > max)
		return set_error(s, EINVAL,
				 "--buffer-size %s: the module allows at most %llu "
				 "pages (%s) per CPU (its max_ring_pages parameter)",
				 rt_format_size(b, sizeof(b), bytes),
				 (unsigned long long)max,
				 rt_format_size(h, sizeof(h), max * page));
	return 0;
}

const char *rt_event_names(uint64_t events, const char *sep, char *buf,
			   size_t len)
{
	static const struct {
		uint64_t	bit;
		const char	*name;
	} names[] = {
		{ RINGTRACE_EVENT_VFS_READ,		"vfs_read" },
		{ RINGTRACE_EVENT_LOCK,			"lock" },
		{ RINGTRACE_EVENT_LOCK_CONTENTION,	"lock_contention" },
		{ RINGTRACE_EVENT_OFFCPU,		"offcpu" },
		{ RINGTRACE_EVENT_FUNC,			"func" },
	};
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(events & names[i].bit))
			continue;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
					 "%s%s", used ? sep : "", names[i].name);
		events &= ~names[i].bit;
	}
	if (events && used < len)
		snprintf(buf + used, len - used, "%sevent bits 0x%llx",
			 used ? sep : "", (unsigned long long)events);
	return buf;
}

/*
 * Room for twice the names (16 at first, RINGTRACE_MAX_FUNCS at most),
 * those there copied; the caller's own array (funcs_cap 0) left alone.
 */
static int grow_funcs(struct rt_session_opts *o)
{
	uint32_t cap = o->funcs_cap ? 2 * o->funcs_cap : 16;
	char (*names)[RINGTRACE_FUNC_NAME_LEN];

	if (cap < o->nr_funcs + 1)
		cap = o->nr_funcs + 1;
	if (cap > RINGTRACE_MAX_FUNCS)
		cap = RINGTRACE_MAX_FUNCS;
	names = malloc((size_t)cap * sizeof(*names));
	if (!names)
		return -ENOMEM;
	if (o->nr_funcs)
		memcpy(names, o->funcs, (size_t)o->nr_funcs * sizeof(*names));
	if (o->funcs_cap)
		free(o->funcs);
	o->funcs = names;
	o->funcs_cap = cap;
	return 0;
}

int rt_session_opts_set_funcs(struct rt_session_opts *o,
			      const char (*names)[RINGTRACE_FUNC_NAME_LEN],
			      uint32_t nr)
{
	char (*copy)[RINGTRACE_FUNC_NAME_LEN] = NULL;

	if (nr > RINGTRACE_MAX_FUNCS)
		return -E2BIG;
	if (nr) {
		copy = malloc((size_t)nr * sizeof(*copy));
		if (!copy)
			return -ENOMEM;
		memcpy(copy, names, (size_t)nr * sizeof(*copy));
	}
	rt_session_opts_fini(o);
	o->funcs = copy;
	o->funcs_cap = nr;
	o->nr_funcs = nr;
	return 0;
}

void rt_session_opts_fini(struct rt_session_opts *o)
{
	if (o->funcs_cap)
		free(o->funcs);
	o->funcs = NULL;
	o->funcs_cap = 0;
	o->nr_funcs = 0;
}

int rt_session_opts_add_func(struct rt_session_opts *o, const char *item,
			     size_t len, char *err, size_t errlen)
{
	const size_t skip = sizeof(RINGTRACE_FUNC_TP_PREFIX) - 1;
	bool tp = len >= skip && rt_func_name_is_tp(item);
	/* A tracepoint keeps its prefix: the module tells them apart by it. */
	const char *name = tp ? item : item + 5;
	size_t n = tp ? len : len - 5;

	if (!tp && (len < 5 || strncmp(item, "func:", 5)))
		return 1;
	if (!tp && !n) {
		snprintf(err, errlen, "func: needs a function name");
		return -1;
	}
	if (tp && !rt_tracepoint_spec_ok(item + skip, len - skip)) {
		snprintf(err, errlen, "'%.*s' is not tp:SUBSYS:EVENT or "
			 "tp:EVENT", (int)len, item);
		return -1;
	}
	if (n >= RINGTRACE_FUNC_NAME_LEN) {
		snprintf(err, errlen, "%s name '%.*s' longer than %d bytes",
			 tp ? "tracepoint" : "function", (int)n, name,
			 RINGTRACE_FUNC_NAME_LEN - 1);
		return -1;
	}
	for (uint32_t i = 0; i < o->nr_funcs; i++) {
		if (!strncmp(o->funcs[i], name, n) && !o->funcs[i][n]) {
			snprintf(err, errlen, "%s%.*s given twice",
				 tp ? "" : "func:", (int)n, name);
			return -1;
		}
	}
	if (o->nr_funcs == RINGTRACE_MAX_FUNCS) {
		snprintf(err, errlen, "at most %d func: and tp: events",
			 RINGTRACE_MAX_FUNCS);
		return -1;
	}
	if (o->nr_funcs >= o->funcs_cap && grow_funcs(o)) {
		snprintf(err, errlen, "no memory for %u function names",
			 o->nr_funcs + 1);
		return -1;
	}
	memset(o->funcs[o->nr_funcs], 0, RINGTRACE_FUNC_NAME_LEN);
	memcpy(o->funcs[o->nr_funcs++], name, n);
	o->events |= RINGTRACE_EVENT_FUNC;
	return 0;
}

static bool info_has_funcs(const struct rt_session *s)
{
	return s->info.size >= RINGTRACE_INFO_SIZE_FUNCS;
}

uint32_t rt_session_max_funcs(const struct rt_session *s)
{
	uint32_t max = info_has_funcs(s) ? s->info.max_funcs : 0;

	if (!max)
		return RINGTRACE_MAX_FUNCS_VER0;
	return max < RINGTRACE_MAX_FUNCS ? max : RINGTRACE_MAX_FUNCS;
}

uint32_t rt_session_func_attach(const struct rt_session *s)
{
	return info_has_funcs(s) ? s->info.func_attach : 0;
}

/* What a session with rings of @bytes asks for when not told. */
static uint32_t default_watermark(uint64_t bytes)
{
	return bytes / 2 < RT_DEFAULT_WATERMARK_BYTES ? (uint32_t)(bytes / 2) :
		RT_DEFAULT_WATERMARK_BYTES;
}

static int configure(struct rt_session *s, const struct rt_session_opts *o,
		     uint64_t events, uint64_t bytes)
{
	struct ringtrace_config cfg;
	struct rt_btf *btf;
	uint32_t tp_args;
	char names[128];
	char why[320];
	int ret;

	if (s->info.size > offsetof(struct ringtrace_info, events) &&
	    (events & ~s->info.events))
		return set_error(s, EOPNOTSUPP,
				 "the loaded module cannot produce: %s",
				 rt_event_names(events & ~s->info.events, ", ",
						names, sizeof(names)));

	memset(&cfg, 0, sizeof(cfg));
	cfg.size = sizeof(cfg);
	cfg.flags = (o->inherit ? RINGTRACE_CFG_INHERIT : 0) |
		    (o->include_self ? RINGTRACE_CFG_INCLUDE_SELF : 0);
	cfg.events = events;
	cfg.pid = o->pid;
	if (o->cpus_given) {
		/* Whole 64-bit words covering nr_cpu_ids bits. */
		cfg.cpu_mask_bytes = (s->info.nr_cpu_ids + 63) / 64 * 8;
		cfg.cpu_mask_ptr = (uintptr_t)o->cpus.bits;
	}
	cfg.min_latency_ns = o->min_latency_ns;
	cfg.watermark_bytes = o->watermark_bytes ? o->watermark_bytes :
			      default_watermark(bytes);
	s->watermark = cfg.watermark_bytes;
	cfg.flush_ms = o->flush_ms;
	cfg.lock_min_wait_ns = o->lock_min_wait_ns;
	cfg.lock_min_hold_ns = o->lock_min_hold_ns;
	/* Any kernel function: the names, zero otherwise (older modules). */
	if (events & RINGTRACE_EVENT_FUNC) {
		if (s->info.size <= offsetof(struct ringtrace_info, features) ||
		    !(s->info.features & RINGTRACE_FEAT_FUNC))
			return set_error(s, EOPNOTSUPP, "the loaded module cannot "
					 "trace kernel functions: update the "
					 "module");
		if (o->nr_funcs > rt_session_max_funcs(s))
			return set_error(s, E2BIG, "%u functions and "
					 "tracepoints named: the loaded module "
					 "takes at most %u per session%s",
					 o->nr_funcs,
					 rt_session_max_funcs(s),
					 info_has_funcs(s) ? "" :
					 " (an older module): update the "
					 "module");
		for (uint32_t i = 0; i < o->nr_funcs; i++)
			if (rt_func_name_is_tp(o->funcs[i]) &&
			    !(s->info.features & RINGTRACE_FEAT_FUNC_TRACEPOINT))
				return set_error(s, EOPNOTSUPP, "cannot trace %s: "
						 "the loaded module cannot attach "
						 "to tracepoints (an older module, "
						 "or a kernel built with CFI, which "
						 "checks every call's prototype)",
						 o->funcs[i]);
		/*
		 * One reading of the kernel's BTF for the tracepoints and the
		 * functions, at the first lookup: none where nothing is looked
		 * up (functions without --args, as --graph's).
		 */
		free(s->func_arg_descs);
		s->func_arg_descs = calloc(o->nr_funcs ? o->nr_funcs : 1,
					   sizeof(*s->func_arg_descs));
		if (!s->func_arg_descs)
			return set_error(s, ENOMEM, "no memory");
		btf = rt_btf_open(NULL);
		if (!btf)
			return set_error(s, ENOMEM, "no memory");
		ret = rt_tracepoints_check(o->funcs, o->nr_funcs, btf, NULL,
					   &tp_args, s->func_arg_descs, why,
					   sizeof(why));
		/* Functions' arguments by name where records carry any. */
		if (!ret && o->func_args_given && o->func_args)
			rt_functions_describe(o->funcs, o->nr_funcs, btf,
					      s->func_arg_descs);
		rt_btf_close(btf);
		if (ret)
			return set_error(s, ENOENT, "%s", why);
		cfg.nr_funcs = o->nr_funcs;
		/* Unless told, a tracepoint's records carry what it takes. */
		cfg.func_args = o->func_args_given ? o->func_args : tp_args;
		cfg.funcs_ptr = (uintptr_t)o->funcs;
		s->funcs = o->funcs;
		s->nr_funcs = o->nr_funcs;
	}
	/* zero otherwise, so that older modules take the config. */
	if (events & RINGTRACE_EVENT_OFFCPU)
		cfg.min_offcpu_ns = o->min_offcpu_ns;
	s->offcpu = events & RINGTRACE_EVENT_OFFCPU;
	if (o->paths && (s->info.features & RINGTRACE_FEAT_PATHS))
		cfg.flags |= RINGTRACE_CFG_PATHS;
	if (o->cgroups && (s->info.features & RINGTRACE_FEAT_CGROUP)) {
		/* ids only, if the module can leave names out. */
		if (o->cgroup_names)
			cfg.flags |= RINGTRACE_CFG_CGROUPS;
		else if (s->info.features & RINGTRACE_FEAT_CGROUP_IDS)
			cfg.flags |= RINGTRACE_CFG_CGROUPS |
				     RINGTRACE_CFG_NO_CGROUP_NAMES;
	}
	if (o->stack_events) {
		if (!(s->info.features & RINGTRACE_FEAT_STACK_KERNEL))
			return set_error(s, EOPNOTSUPP, "the loaded module cannot "
					 "capture stacks (it predates ABI 2's "
					 "stack trailers): update the module");
		cfg.stack_events = o->stack_events & events;
		cfg.stack_kernel_depth = o->stack_kernel_depth;
		if (s->info.features & RINGTRACE_FEAT_STACK_USER)
			cfg.stack_user_depth = o->stack_user_depth;
	}

	if (o->nr_tids) {
		/* one ring per thread (Documentation/abi.rst). */
		if (s->info.size <= offsetof(struct ringtrace_info, features) ||
		    !(s->info.features & RINGTRACE_FEAT_PER_THREAD))
			return set_error(s, EOPNOTSUPP, "the loaded module has no "
					 "per-thread rings (ABI 3): update the "
					 "module");
		if (o->pid > 0 || o->inherit)
			return set_error(s, EINVAL, "per-thread rings select "
					 "threads, not a process");
		cfg.flags |= RINGTRACE_CFG_PER_THREAD;
		cfg.pid = -1;
		cfg.nr_tids = o->nr_tids;
		cfg.tids_ptr = (uintptr_t)o->tids;
	}

	if (o->overwrite) {
		/* flight recorder */
		if (!(s->info.features & RINGTRACE_FEAT_OVERWRITE))
			return set_error(s, EOPNOTSUPP, "the loaded module has no "
					 "overwrite mode (it predates ABI 3): "
					 "update the module");
		cfg.flags |= RINGTRACE_CFG_OVERWRITE;
	}

	if (o->vfs_read_attach && (events & RINGTRACE_EVENT_VFS_READ)) {
		/* a mechanism by name; the ENABLE says if it is had. */
		if (s->info.size < RINGTRACE_INFO_SIZE_VER1 ||
		    !(s->info.vfs_read_attach_mask & (1u << o->vfs_read_attach)))
			return set_error(s, EOPNOTSUPP, "vfs_read cannot be "
					 "attached with %s here: %s",
					 rt_attach_name(o->vfs_read_attach),
					 o->vfs_read_attach ==
					 RINGTRACE_ATTACH_DIRECT ?
					 "it needs ringtrace_direct.ko loaded "
					 "(ringtrace-ctl load) and an x86-64 "
					 "kernel with ftrace direct calls" :
					 "this kernel does not offer it "
					 "(ringtrace-ctl info lists what it "
					 "offers)");
		cfg.vfs_read_attach = o->vfs_read_attach;
	}
	s->vfs_read_attach = cfg.vfs_read_attach;

	if (o->nr_cgroups) {
		/* the module selects the cgroups. */
		if (s->info.size <= offsetof(struct ringtrace_info, features) ||
		    !(s->info.features & RINGTRACE_FEAT_CGROUP))
			return set_error(s, EOPNOTSUPP, "the loaded module cannot "
					 "filter by cgroup: update the module");
		cfg.nr_cgroups = o->nr_cgroups;
		cfg.cgroup_ids_ptr = (uintptr_t)o->cgroup_ids;
	}

	s->func_in_read_kernel = false;
	if (o->func_in_read &&
	    (events & RINGTRACE_EVENT_VFS_READ) &&
	    (events & RINGTRACE_EVENT_FUNC) &&
	    (s->info.features & RINGTRACE_FEAT_FUNC_IN_READ)) {
		/* the module leaves calls outside reads out. */
		cfg.flags |= RINGTRACE_CFG_FUNC_IN_READ;
		s->func_in_read_kernel = true;
	}
	s->func_hold_kernel = false;
	if (o->func_hold && s->func_in_read_kernel && o->min_latency_ns &&
	    (s->info.features & RINGTRACE_FEAT_FUNC_HOLD)) {
		/* the calls of faster reads are never written. */
		cfg.flags |= RINGTRACE_CFG_FUNC_HOLD;
		s->func_hold_kernel = true;
	}

	s->values_in_kernel = false;
	if (o->vfs_read_ranges && (events & RINGTRACE_EVENT_VFS_READ) &&
	    s->info.size > offsetof(struct ringtrace_info, features) &&
	    (s->info.features & RINGTRACE_FEAT_VFS_READ_VALUES) &&
	    !rt_expr_ranges_empty(o->vfs_read_ranges)) {
		/* what the module can decide before reserving. */
		const struct rt_expr_ranges *r = o->vfs_read_ranges;

		if (r->ret_set) {
			cfg.vfs_read_values |= RINGTRACE_VFS_READ_RET;
			cfg.vfs_read_ret_min = r->ret_min;
			cfg.vfs_read_ret_max = r->ret_max;
		}
		if (r->count_set) {
			cfg.vfs_read_values |= RINGTRACE_VFS_READ_COUNT;
			cfg.vfs_read_count_min = r->count_min;
			cfg.vfs_read_count_max = r->count_max;
		}
		s->values_in_kernel = cfg.vfs_read_values != 0;
	}

	if (rt_sys.ioctl(s->fd, RINGTRACE_IOC_SET_CONFIG, &cfg) == 0)
		return 0;
	switch (errno) {
	case E2BIG:
		return set_error(s, E2BIG, "the loaded module is older than "
				 "these tools and does not know an option they "
				 "use: update the module");
	case EBUSY:
		return set_error(s, EBUSY, "session already enabled: its "
				 "configuration cannot change");
	case ESRCH:
		if (o->nr_tids)
			return set_error(s, ESRCH, "no thread with one of the "
					 "ids given (-t): has it exited?");
		return set_error(s, ESRCH, "no process with pid %d", o->pid);
	case ENOENT:
		if (o->nr_cgroups)
			return set_error(s, ENOENT, "a --cgroup was removed, or "
					 "is not visible from this cgroup "
					 "namespace");
		break;
	case EOPNOTSUPP:
		return set_error(s, EOPNOTSUPP, "the module cannot produce: %s",
				 rt_event_names(events, ", ", names, sizeof(names)));
	case EPERM:
	case EACCES:
		return set_error(s, errno, "permission denied configuring the "
				 "session: " NOT_ROOT_HINT);
	}
	return set_error(s, errno, "the module refused the configuration: %s",
			 strerror(errno));
}

static int map_error(struct rt_session *s, int err, unsigned int cpu,
		     size_t len)
{
	struct rlimit memlock;
	char limit[32] = "unknown";

	switch (err) {
	case ENOMEM:
		return set_error(s, err, "out of memory for a %zu KiB ring on "
				 "CPU %u: try a smaller --buffer-size",
				 len >> 10, cpu);
	case ENODEV:
	case ENXIO:
	case ENOENT:
		return set_error(s, err, "CPU %u has no ring (is it online?)",
				 cpu);
	case EPERM:
		/*
		 * The module refuses a mapping with EPERM only when it exceeds
		 * the locked-memory allowance (kmod/ring/mlock.c, as perf does);
		 * permission itself was checked at open and gives EACCES.
		 */
		if (getrlimit(RLIMIT_MEMLOCK, &memlock) == 0) {
			if (memlock.rlim_cur == RLIM_INFINITY)
				snprintf(limit, sizeof(limit), "unlimited");
			else
				snprintf(limit, sizeof(limit), "%llu KiB",
					 (unsigned long long)memlock.rlim_cur >> 10);
		}
		return set_error(s, err, "the %zu KiB ring of CPU %u exceeds the "
				 "locked-memory limit: " MLOCK_KB_PARAM " KiB "
				 "per CPU plus ulimit -l (%s); use a smaller "
				 "--buffer-size, raise either, or grant "
				 "CAP_IPC_LOCK", len >> 10, cpu, limit);
	case EACCES:
		return set_error(s, err, "permission denied mapping the ring of "
				 "CPU %u: " NOT_ROOT_HINT, cpu);
	}
	return set_error(s, err, "cannot map the ring of CPU %u (%zu bytes): %s",
			 cpu, len, strerror(err));
}

/*
 * Map CPU @cpu's ring and attach a cursor to it; with @tid > 0, the ring
 * of that thread, at index @cpu of the session's thread list.
 */
static int map_ring(struct rt_session *s, uint32_t idx, unsigned int cpu,
		    int32_t tid, uint64_t data_bytes)
{
	struct rt_session_ring *ring = &s->rings[idx];
	struct rt_source *src = &s->srcs[idx];
	size_t len = (size_t)(s->info.page_size + data_bytes);
	struct ringtrace_mmap_page *page;
	uint32_t compat, page_cpu;
	char why[160];

	ring->base = rt_sys.mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				 s->fd, (off_t)RINGTRACE_MMAP_OFFSET(cpu));
	if (ring->base == MAP_FAILED) {
		ring->base = NULL;
		return map_error(s, errno, cpu, len);
	}
	ring->map_len = len;
	ring->page = page = ring->base;

	compat = rt_load_u32_once(&page->compat_version);
	if (compat > RINGTRACE_ABI_VERSION)
		return set_error(s, EPROTO,
				 "the module's ring format (ABI %u) needs readers of "
				 "ABI %u or later; these tools speak ABI %u: rebuild "
				 "them", rt_load_u32_once(&page->version), compat,
				 RINGTRACE_ABI_VERSION);
	page_cpu = rt_load_u32_once(&page->cpu);
	if (tid > 0) {
		uint32_t page_tid = rt_load_u32_once(&page->tid);

		if (page_cpu != RINGTRACE_CPU_NONE || page_tid != (uint32_t)tid)
			return set_error(s, EPROTO, "the ring mapped for thread "
					 "%d says it is thread %u's (CPU %u)",
					 tid, page_tid, page_cpu);
		rt_source_init(src, RT_EVENT_CPU_ANY);
		src->tid = (uint32_t)tid;
	} else if (page_cpu != cpu) {
		return set_error(s, EPROTO, "the ring mapped for CPU %u says it "
				 "is CPU %u's", cpu, page_cpu);
	} else {
		rt_source_init(src, cpu);
	}
	if (rt_ring_init_mmap(&src->ring, ring->base, len, s->info.page_size,
			      NULL, 0)) {
		rt_ring_describe_error(&src->ring, why, sizeof(why));
		return set_error(s, EPROTO, "CPU %u ring: %s", cpu, why);
	}
	return 0;
}

int rt_session_setup(struct rt_session *s, const struct rt_session_opts *o)
{
	uint64_t events = o->events ? o->events : RINGTRACE_EVENT_VFS_READ;
	uint64_t bytes = o->buffer_bytes ? o->buffer_bytes :
					   RT_DEFAULT_BUFFER_BYTES;
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };
	struct rt_cpuset online;
	const struct rt_cpuset *cpus = &o->cpus;
	uint32_t n = 0;
	int cpu, ret;

	ret = rt_session_check_buffer(s, bytes);
	if (ret)
		return ret;
	if (o->watermark_bytes >= bytes)
		return set_error(s, EINVAL, "--watermark %u must be smaller than "
				 "the per-CPU buffer (%llu bytes)",
				 o->watermark_bytes, (unsigned long long)bytes);
	if (!o->cpus_given) {
		/*
		 * Present, not only online: a CPU offline now may come back
		 * while we trace, and its ring must then exist already.
		 */
		ret = rt_cpuset_present(&online, s->errmsg, sizeof(s->errmsg));
		if (ret)
			return ret;
		cpus = &online;
	}
	for (cpu = rt_cpuset_next(cpus, -1); cpu >= 0;
	     cpu = rt_cpuset_next(cpus, cpu)) {
		if ((unsigned int)cpu >= s->info.nr_cpu_ids)
			return set_error(s, EINVAL, "CPU %d does not exist (this "
					 "system's CPUs are 0-%u)", cpu,
					 s->info.nr_cpu_ids - 1);
	}

	ret = configure(s, o, events, bytes);
	if (ret)
		return ret;

	s->nr_rings = o->nr_tids ? o->nr_tids : rt_cpuset_count(cpus);
	s->rings = calloc(s->nr_rings ? s->nr_rings : 1, sizeof(*s->rings));
	s->srcs = calloc(s->nr_rings ? s->nr_rings : 1, sizeof(*s->srcs));
	if (!s->rings || !s->srcs)
		return set_error(s, ENOMEM, "out of memory");
	for (n = 0; n < o->nr_tids; n++) {
		ret = map_ring(s, n, n, o->tids[n], bytes);
		if (ret)
			return ret;
	}
	for (cpu = rt_cpuset_next(cpus, -1); cpu >= 0 && !o->nr_tids;
	     cpu = rt_cpuset_next(cpus, cpu)) {
		ret = map_ring(s, n++, (unsigned int)cpu, 0, bytes);
		if (ret)
			return ret;
	}

	s->epfd = rt_sys.epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0)
		return set_error(s, errno, "epoll_create1: %s", strerror(errno));
	if (rt_sys.epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->fd, &ev) < 0)
		return set_error(s, errno, "cannot poll %s: %s", s->path,
				 strerror(errno));
	return 0;
}

/*
 * EBUSY for a mechanism asked by name: other sessions trace vfs_read with
 * another one, or (the direct call) another tool holds vfs_read's direct
 * call. GET_INFO says which mechanism is attached now.
 */
static int enable_busy_error(struct rt_session *s)
{
	const char *want = rt_attach_name(s->vfs_read_attach);
	uint32_t id = rt_session_vfs_read_attach(s);
	const char *cur = id != s->vfs_read_attach ? rt_attach_name(id) : NULL;

	if (s->vfs_read_attach == RINGTRACE_ATTACH_DIRECT && !cur)
		return set_error(s, EBUSY, "cannot attach vfs_read with the "
				 "direct call: another tool holds vfs_read's "
				 "direct call (a BPF fentry/fexit/LSM program, "
				 "e.g. bpftrace kfunc:vfs_read); trace without "
				 "--attach direct: the default shares vfs_read");
	return set_error(s, EBUSY, "cannot attach vfs_read with %s: other "
			 "ringtrace sessions trace it with %s now, and one "
			 "mechanism serves them all: leave --attach out, or "
			 "wait until they end", want, cur ? cur : "another one");
}

/* The module-wide count of switches not followed (0: unknown). */
static uint64_t offcpu_missed_now(struct rt_session *s)
{
	struct ringtrace_stats st;

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	if (rt_sys.ioctl(s->fd, RINGTRACE_IOC_GET_STATS, &st) < 0)
		return 0;
	return st.offcpu_missed;
}

uint64_t rt_session_offcpu_missed(struct rt_session *s)
{
	uint64_t now;

	if (!s->offcpu)
		return 0;
	now = offcpu_missed_now(s);
	return now > s->offcpu_missed_before ? now - s->offcpu_missed_before :
	       0;
}

/* Why ENABLE refused a function or tracepoint of @s, by its errno. */
static const char *func_refusal(const struct rt_session *s, int err)
{
	uint32_t tps = 0;

	for (uint32_t i = 0; i < s->nr_funcs; i++)
		tps += rt_func_name_is_tp(s->funcs[i]);
	if (err == EINVAL)
		return "the kernel refuses to probe it: kprobe blacklist";
	if (tps == s->nr_funcs)
		return "no such tracepoint, built in or in a loaded module";
	return tps ? "no such function (or notrace, inlined), or no such "
		     "tracepoint" :
		     "no such function, or notrace or inlined";
}

int rt_session_enable(struct rt_session *s)
{
	if (s->offcpu)
		s->offcpu_missed_before = offcpu_missed_now(s);
	if (rt_sys.ioctl(s->fd, RINGTRACE_IOC_ENABLE, NULL) < 0) {
		int err = errno;

		if (err == EBUSY && s->vfs_read_attach)
			return enable_busy_error(s);
		if ((err == ENOENT || err == EINVAL) && s->nr_funcs)
			return set_error(s, err, "cannot trace %s%s: %s (%s; "
					 "the kernel log names which)",
					 s->funcs[0], s->nr_funcs > 1 ?
					 " and the others" : "",
					 strerror(err), func_refusal(s, err));
		return set_error(s, err, "cannot enable tracing: %s",
				 strerror(err));
	}
	s->enabled = true;
	return 0;
}

uint32_t rt_session_vfs_read_attach(struct rt_session *s)
{
	struct ringtrace_info info = { .size = sizeof(info) };

	if (rt_sys.ioctl(s->fd, RINGTRACE_IOC_GET_INFO, &info) ||
	    info.size < RINGTRACE_INFO_SIZE_VER1)
		return 0;
	return info.vfs_read_attach;
}

int rt_session_disable(struct rt_session *s)
{
	if (rt_sys.ioctl(s->fd, RINGTRACE_IOC_DISABLE, NULL) < 0)
		return set_error(s, errno, "cannot disable tracing: %s",
				 strerror(errno));
	s->enabled = false;
	return 0;
}

int rt_session_stats(struct rt_session *s, struct ringtrace_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	if (rt_sys.ioctl(s->fd, RINGTRACE_IOC_GET_STATS, st) < 0)
		return set_error(s, errno, "cannot read session stats: %s",
				 strerror(errno));
	return 0;
}

int rt_session_wait(struct rt_session *s, int timeout_ms,
		    const sigset_t *sigmask)
{
	struct epoll_event ev;
	int n = rt_sys.epoll_pwait(s->epfd, &ev, 1, timeout_ms, sigmask);

	return n < 0 ? -errno : n;
}

uint64_t rt_session_lost_pending(const struct rt_session *s)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < s->nr_rings; i++)
		if (s->rings[i].page)
			sum += rt_load_u64_once(&s->rings[i].page->lost_pending);
	return sum;
}

void rt_session_close(struct rt_session *s)
{
	for (uint32_t i = 0; s->rings && i < s->nr_rings; i++) {
		if (s->srcs)
			rt_ring_fini(&s->srcs[i].ring);
		if (s->rings[i].base)
			rt_sys.munmap(s->rings[i].base, s->rings[i].map_len);
	}
	free(s->rings);
	free(s->srcs);
	free(s->func_arg_descs);
	s->func_arg_descs = NULL;
	s->rings = NULL;
	s->srcs = NULL;
	s->nr_rings = 0;
	if (s->epfd >= 0)
		rt_sys.close(s->epfd);
	if (s->fd >= 0)
		rt_sys.close(s->fd);
	s->epfd = -1;
	s->fd = -1;
}
