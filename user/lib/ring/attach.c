// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* vfs_read's attach mechanisms by name (see attach.h). */
#include <stddef.h>
#include <string.h>

#include <linux/ringtrace.h>

#include "ringtrace/attach.h"

static const char *const names[] = {
	[RINGTRACE_ATTACH_KRETPROBE]	= "kretprobe",
	[RINGTRACE_ATTACH_FPROBE]	= "fprobe",
	[RINGTRACE_ATTACH_DIRECT]	= "direct",
};

const char *rt_attach_name(uint32_t id)
{
	return id < sizeof(names) / sizeof(names[0]) ? names[id] : NULL;
}

int rt_attach_parse(const char *name, uint32_t *id)
{
	if (!strcmp(name, "auto")) {
		*id = 0;
		return 0;
	}
	for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (names[i] && !strcmp(name, names[i])) {
			*id = i;
			return 0;
		}
	}
	return -1;
}

const char *rt_attach_excludes(uint32_t id)
{
	if (id != RINGTRACE_ATTACH_DIRECT)
		return NULL;
	/* kmod/attach/direct.c says the same in the kernel log. */
	return "the direct call holds vfs_read's one ftrace direct-call "
	       "trampoline: BPF fentry/fexit/LSM programs on vfs_read "
	       "(bpftrace kfunc:vfs_read, libbpf tools, BPF security agents) "
	       "cannot attach while it is attached, and it cannot attach "
	       "while one of them is; livepatches, kprobes, fprobes and "
	       "ftrace events share vfs_read with it";
}
