// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-ctl: load, unload and inspect the ringtrace module. Argument
 * handling and printing only; the work is in libringtrace (kmod.c,
 * session.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "ringtrace/attach.h"
#include "ringtrace/kmod.h"
#include "ringtrace/session.h"

#define PROG	"ringtrace-ctl"
/* Which vfs_read mechanism, and whether forced (kmod/attach/attach.c). */
#define ATTACH_PARAM	"/sys/module/ringtrace/parameters/vfs_read_attach"

static const char usage_text[] =
"Usage: " PROG " load [PATH] [PARAM=VALUE...]\n"
"       " PROG " unload\n"
"       " PROG " status\n"
"       " PROG " info\n"
"\n"
"  load     insert ringtrace.ko: PATH, else kmod/ringtrace.ko of the checkout\n"
"           this tool was built in, else the module installed for the running\n"
"           kernel (modprobe's lookup); parameters are passed to the module\n"
"           (one it does not declare is refused); ringtrace_direct.ko\n"
"           (vfs_read's direct-call trampoline) first. Loaded already:\n"
"           the parameters are written to its writable ones, or refused\n"
"  unload   remove the module (refused while a session has it open or mapped),\n"
"           then ringtrace_direct if no traced read still sleeps in it\n"
"  status   whether it is loaded, how many references hold it, and how\n"
"           vfs_read is attached (load ... vfs_read_attach=kretprobe forces\n"
"           one; auto never takes the direct call, which locks BPF\n"
"           fentry/fexit programs out of vfs_read: vfs_read_attach=direct)\n"
"  info     what the loaded module reports (ABI, page size, CPUs, events,\n"
"           the vfs_read attach mechanism and those the kernel offers)\n"
"\n"
"Exit status: 0 done (status: loaded), 1 failed (status: not loaded), 2 usage.\n";

static int usage(void)
{
	fputs(usage_text, stderr);
	return 2;
}

static int cmd_load(int argc, char **argv)
{
	char options[4096] = "", path_buf[PATH_MAX], exe[PATH_MAX], msg[512];
	const char *path = NULL;
	size_t used = 0;
	ssize_t n;
	int i = 0;

	if (argc > 0 && !strchr(argv[0], '='))
		path = argv[i++];
	for (; i < argc; i++) {
		if (!strchr(argv[i], '=')) {
			fprintf(stderr, PROG ": load: '%s' is not PARAM=VALUE\n",
				argv[i]);
			return 2;
		}
		n = snprintf(options + used, sizeof(options) - used, "%s%s",
			     used ? " " : "", argv[i]);
		if (n < 0 || (size_t)n >= sizeof(options) - used) {
			fprintf(stderr, PROG ": load: parameters too long\n");
			return 2;
		}
		used += (size_t)n;
	}
	if (!path) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n > 0) {
			exe[n] = '\0';
			path = rt_kmod_checkout_path(exe, path_buf,
						     sizeof(path_buf));
		}
	}
	if (rt_kmod_load(path, options, msg, sizeof(msg))) {
		fprintf(stderr, PROG ": %s\n", msg);
		return 1;
	}
	printf("%s\n", msg);
	return 0;
}

static int cmd_unload(void)
{
	char msg[512];

	if (rt_kmod_unload(msg, sizeof(msg))) {
		fprintf(stderr, PROG ": %s\n", msg);
		return 1;
	}
	printf("%s\n", msg);
	return 0;
}

/* "vfs_read attach  auto: fprobe (attached)", from the module parameter. */
static void print_attach_param(void)
{
	FILE *f = fopen(ATTACH_PARAM, "r");
	char line[128];

	if (!f)
		return;	/* a module from before the parameter */
	if (fgets(line, sizeof(line), f)) {
		printf("%-16s %s", "vfs_read attach", line);
		/* "direct (attached)": say whom it locks out (attach.h). */
		if (!strncmp(line, "direct ", 7) && strstr(line, "(attached)"))
			printf("%-16s %s\n", "excludes",
			       rt_attach_excludes(RINGTRACE_ATTACH_DIRECT));
	}
	fclose(f);
}

/*
 * ringtrace_direct.ko, the direct call's trampoline: its references are
 * ringtrace's attachment (and symbol_get) while tracing, and afterwards
 * the reads that were traced and still sleep in vfs_read.
 */
static void print_direct_module(void)
{
	struct rt_kmod_status st;
	char msg[512];

	if (rt_kmod_status(RT_KMOD_DIRECT_NAME, &st, msg, sizeof(msg)))
		fprintf(stderr, PROG ": %s\n", msg);
	else if (st.loaded)
		printf("%s\n", msg);
	else
		printf("%s: vfs_read cannot use the direct call\n", msg);
}

static void print_attach_info(const struct ringtrace_info *info)
{
	const char *name;

	if (info->size < RINGTRACE_INFO_SIZE_VER1)
		return;	/* the module does not say */
	name = rt_attach_name(info->vfs_read_attach);
	printf("%-16s %s\n", "vfs_read attach", name ? name : "none");
	printf("%-16s", "attach offered");
	for (uint32_t id = 0; id < 32; id++) {
		if (!(info->vfs_read_attach_mask & (1u << id)))
			continue;
		name = rt_attach_name(id);
		if (name)
			printf(" %s", name);
		else
			printf(" #%u", id);
	}
	printf("\n");
}

/*
 * "functions        1024 a session, fprobe (one batch)": how many -e
 * func:/tp: names a session may give, and how the module attaches them.
 */
static void print_func_info(const struct rt_session *s)
{
	uint32_t attach = rt_session_func_attach(s);

	if (s->info.size <= offsetof(struct ringtrace_info, features) ||
	    !(s->info.features & RINGTRACE_FEAT_FUNC))
		return;	/* no functions at all */
	printf("%-16s %u a session", "functions", rt_session_max_funcs(s));
	if (attach == RINGTRACE_ATTACH_FPROBE)
		printf(", fprobe (one batch)");
	else if (attach == RINGTRACE_ATTACH_KRETPROBE)
		printf(", kretprobe (one per function)");
	else if (attach)
		printf(", attach #%u", attach);
	printf("\n");
}

static int cmd_status(void)
{
	struct rt_kmod_status st;
	char msg[512];

	if (rt_kmod_status(RT_KMOD_NAME, &st, msg, sizeof(msg))) {
		fprintf(stderr, PROG ": %s\n", msg);
		return 1;
	}
	printf("%s\n", msg);
	if (st.loaded) {
		printf("%s %s\n", RINGTRACE_DEVICE_PATH,
		       access(RINGTRACE_DEVICE_PATH, F_OK) ? "is missing" :
							     "is present");
		print_attach_param();
	}
	print_direct_module();
	return st.loaded ? 0 : 1;
}

/* The events by the names -e takes (one table: rt_event_names()). */
static void print_events(const char *label, uint64_t events)
{
	char names[256];

	printf("%-16s %s\n", label, rt_event_names(events, " ", names,
						    sizeof(names)));
}

/*
 * Every feature bit by its name, and any bit this tool does not know by
 * its number, so that a newer module's features are never hidden.
 */
static void print_features(uint64_t features)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} names[] = {
		{ RINGTRACE_FEAT_LOCK_CONTENTION, "lock_contention" },
		{ RINGTRACE_FEAT_PATHS, "paths" },
		{ RINGTRACE_FEAT_STACK_KERNEL, "stack_kernel" },
		{ RINGTRACE_FEAT_STACK_USER, "stack_user" },
		{ RINGTRACE_FEAT_OVERWRITE, "overwrite" },
		{ RINGTRACE_FEAT_RING_STATS, "ring_stats" },
		{ RINGTRACE_FEAT_PER_THREAD, "per_thread" },
		{ RINGTRACE_FEAT_CGROUP, "cgroup" },
		{ RINGTRACE_FEAT_VFS_READ_VALUES, "vfs_read_values" },
		{ RINGTRACE_FEAT_CGROUP_IDS, "cgroup_ids" },
		{ RINGTRACE_FEAT_FUNC, "func" },
		{ RINGTRACE_FEAT_FUNC_IN_READ, "func_in_read" },
		{ RINGTRACE_FEAT_FUNC_TRACEPOINT, "func_tracepoint" },
		{ RINGTRACE_FEAT_FUNC_HOLD, "func_hold" },
	};
	size_t i;

	printf("%-16s%s", "features", features ? "" : " none");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (features & names[i].bit)
			printf(" %s", names[i].name);
		features &= ~names[i].bit;
	}
	for (i = 0; i < 64; i++)
		if (features & (1ULL << i))
			printf(" bit%zu", i);
	printf("\n");
}

static int cmd_info(void)
{
	struct rt_session s;
	int ret = rt_session_open(&s, NULL);

	if (ret) {
		fprintf(stderr, PROG ": %s\n", s.errmsg);
		rt_session_close(&s);
		return 1;
	}
	printf("%-16s %s\n", "module version", s.info.module_version);
	printf("%-16s %u (tools: %d)\n", "abi version", s.info.abi_version,
	       RINGTRACE_ABI_VERSION);
	printf("%-16s %u\n", "page size", s.info.page_size);
	printf("%-16s %u\n", "nr_cpu_ids", s.info.nr_cpu_ids);
	printf("%-16s %u pages\n", "max ring", s.info.max_ring_pages);
	print_events("events", s.info.events);
	print_features(s.info.features);
	print_attach_info(&s.info);
	print_func_info(&s);
	rt_session_close(&s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf(PROG " %s (ringtrace ABI %d)\n", RINGTRACE_VERSION,
		       RINGTRACE_ABI_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "load"))
		return cmd_load(argc - 2, argv + 2);
	if (argc != 2)
		return usage();
	if (!strcmp(argv[1], "unload"))
		return cmd_unload();
	if (!strcmp(argv[1], "status"))
		return cmd_status();
	if (!strcmp(argv[1], "info"))
		return cmd_info();
	fprintf(stderr, PROG ": unknown command '%s'\n", argv[1]);
	return usage();
}
