// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Cached names of stack frames for the stream (see frame_names.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/frame_names.h"
#include "ringtrace/hash.h"

#define COMM_LEN	16u
#define NAME_NONE	UINT32_MAX	/* looked up, nothing named it */

struct rt_frame_slot {
	uint64_t	ip;
	uint32_t	pid;		/* 0 for kernel frames */
	uint32_t	name;		/* arena offset + 1; 0: free slot */
	char		comm[COMM_LEN];	/* user frames: the image's name */
};

int rt_frame_names_init(struct rt_frame_names *n,
			const struct rt_ksyms *ksyms, struct rt_usyms *usyms)
{
	memset(n, 0, sizeof(*n));
	n->ksyms = ksyms && ksyms->nr ? ksyms : NULL;
	n->usyms = usyms;
	n->slots = calloc(RT_FRAME_NAMES_SLOTS, sizeof(*n->slots));
	n->arena = malloc(RT_FRAME_NAMES_ARENA);
	if (!n->slots || !n->arena) {
		rt_frame_names_fini(n);
		return -ENOMEM;
	}
	return 0;
}

void rt_frame_names_fini(struct rt_frame_names *n)
{
	free(n->slots);
	free(n->arena);
	n->slots = NULL;
	n->arena = NULL;
}

static uint64_t mix(uint64_t ip, uint32_t pid, const char *comm)
{
	uint64_t h = (ip ^ ((uint64_t)pid << 32)) * 0x9e3779b97f4a7c15ull;

	h = rt_fnv64(h, comm, strnlen(comm, COMM_LEN));
	return h ^ (h >> 29);
}

/*
 * Keep the stream's fields apart: no space, comma, quote, backslash or
 * control character (a C++ or odd file name may hold them).
 */
static void tidy(char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s == ',' || *s == '"' || *s == '\\' ||
		    *s == 0x7f)
			*s = '_';
}

/* The name of a frame that missed the table into @buf; false: none. */
static bool resolve(struct rt_frame_names *n, bool kernel, uint32_t pid,
		    const char *comm, uint64_t ip, char *buf, size_t len)
{
	if (kernel) {
		const struct rt_ksym *k = n->ksyms ?
					  rt_ksyms_lookup(n->ksyms, ip) : NULL;

		if (!k)
			return false;
		int at = snprintf(buf, len, "%s", k->name);

		if (!n->bare && at >= 0 && (size_t)at < len)
			at += snprintf(buf + at, len - (size_t)at, "+0x%llx",
				       (unsigned long long)(ip - k->addr));
		if (k->module && at >= 0 && (size_t)at < len)
			snprintf(buf + at, len - (size_t)at, "[%s]", k->module);
	} else {
		struct rt_usym u;

		if (!n->usyms)
			return false;
		/* Live: this image's maps, read once (and when ld.so adds). */
		rt_usyms_see(n->usyms, pid, comm);
		rt_usyms_check(n->usyms, pid, comm, ip);
		if (!rt_usyms_lookup(n->usyms, pid, comm, ip, &u))
			return false;
		if (u.sym && n->bare)
			snprintf(buf, len, "%s(%s)", u.sym, u.dso);
		else if (u.sym)
			snprintf(buf, len, "%s+0x%llx(%s)", u.sym,
				 (unsigned long long)u.sym_off, u.dso);
		else if (n->bare)
			snprintf(buf, len, "[unknown](%s)", u.dso);
		else
			snprintf(buf, len, "[unknown](%s+0x%llx)", u.dso,
				 (unsigned long long)u.dso_off);
	}
	tidy(buf);
	return true;
}

const char *rt_frame_name(struct rt_frame_names *n, bool kernel, uint32_t pid,
			  const char *comm, uint64_t ip)
{
	char key_comm[COMM_LEN] = "", buf[RT_FRAME_NAME_MAX];
	struct rt_frame_slot *s;
	uint32_t slot, len;

	if (!n || !n->slots)
		return NULL;
	if (kernel && !n->ksyms) {
		n->kernel_hex++;
		return NULL;
	}
	if (!kernel && !n->usyms)
		return NULL;
	n->lookups++;
	/* Kernel frames are the same in every process. */
	if (kernel)
		pid = 0;
	else
		strncpy(key_comm, comm, COMM_LEN - 1);
	for (slot = (uint32_t)mix(ip, pid, key_comm) & (RT_FRAME_NAMES_SLOTS - 1);;
	     slot = (slot + 1) & (RT_FRAME_NAMES_SLOTS - 1)) {
		s = &n->slots[slot];
		if (!s->name)
			break;
		if (s->ip == ip && s->pid == pid &&
		    !memcmp(s->comm, key_comm, COMM_LEN))
			return s->name == NAME_NONE ? NULL :
						      n->arena + s->name - 1;
	}
	/*
	 * At most 3/4 full, so that probes stay short; full, a new frame
	 * stays hex without a lookup, so that its records cost no more.
	 */
	if (n->nr >= RT_FRAME_NAMES_SLOTS / 4 * 3 ||
	    n->arena_used + RT_FRAME_NAME_MAX > RT_FRAME_NAMES_ARENA) {
		n->full++;
		return NULL;
	}
	n->resolved++;
	n->kernel_resolved += kernel;
	if (!resolve(n, kernel, pid, comm, ip, buf, sizeof(buf))) {
		n->unnamed++;
		n->kernel_unnamed += kernel;
		buf[0] = '\0';
	}
	len = (uint32_t)strlen(buf) + 1;
	s->ip = ip;
	s->pid = pid;
	memcpy(s->comm, key_comm, COMM_LEN);
	n->nr++;
	if (!buf[0]) {
		s->name = NAME_NONE;
		return NULL;
	}
	memcpy(n->arena + n->arena_used, buf, len);
	s->name = n->arena_used + 1;
	n->arena_used += len;
	return n->arena + s->name - 1;
}

const char *rt_frame_name_cb(void *arg, bool kernel, uint32_t pid,
			     const char *comm, uint64_t ip)
{
	return rt_frame_name(arg, kernel, pid, comm, ip);
}
