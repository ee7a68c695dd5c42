// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* User-space symbols with libdwfl (see usyms.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdwfl.h>

#include "ringtrace/usyms.h"

/*
 * A process image: pid and comm, since exec() keeps the pid and replaces
 * the mappings (and, nearly always, the comm): a sample of the new image
 * must not be named from the old one's maps.
 */
struct rt_usyms_proc {
	uint32_t	pid;
	char		comm[RT_USYMS_COMM_LEN];
	uint32_t	rereads;	/* maps read again for unmapped addresses */
	Dwfl		*dwfl;		/* NULL: maps could not be read */
};

static char *debuginfo_path;

static const Dwfl_Callbacks callbacks = {
	.find_elf	= dwfl_linux_proc_find_elf,
	.find_debuginfo	= dwfl_standard_find_debuginfo,
	.debuginfo_path	= &debuginfo_path,
};

int rt_usyms_init(struct rt_usyms *u)
{
	memset(u, 0, sizeof(*u));
	u->procs = calloc(RT_USYMS_MAX_PROCS, sizeof(*u->procs));
	return u->procs ? 0 : -ENOMEM;
}

void rt_usyms_fini(struct rt_usyms *u)
{
	for (uint32_t i = 0; u->procs && i < u->nr; i++)
		if (u->procs[i].dwfl)
			dwfl_end(u->procs[i].dwfl);
	free(u->procs);
	memset(u, 0, sizeof(*u));
}

static struct rt_usyms_proc *find(struct rt_usyms *u, uint32_t pid,
				   const char *comm)
{
	/* Newest first: the image a pid has now. Few, so a linear scan. */
	for (uint32_t i = u->nr; i-- > 0;)
		if (u->procs[i].pid == pid &&
		    !strncmp(u->procs[i].comm, comm, RT_USYMS_COMM_LEN))
			return &u->procs[i];
	return NULL;
}

/* (Re)read the maps of @p into its session; false if they are gone. */
static bool report(struct rt_usyms_proc *p)
{
	dwfl_report_begin(p->dwfl);
	return !dwfl_linux_proc_report(p->dwfl, (pid_t)p->pid) &&
	       !dwfl_report_end(p->dwfl, NULL, NULL);
}

void rt_usyms_see(struct rt_usyms *u, uint32_t pid, const char *comm)
{
	struct rt_usyms_proc *p;

	if (!u->procs || !pid || find(u, pid, comm))
		return;
	if (u->nr >= RT_USYMS_MAX_PROCS) {
		u->untracked++;
		return;
	}
	p = &u->procs[u->nr++];
	p->pid = pid;
	strncpy(p->comm, comm, RT_USYMS_COMM_LEN - 1);
	p->dwfl = dwfl_begin(&callbacks);
	if (!p->dwfl)
		return;
	if (!report(p)) {
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
		u->failed++;
	}
}

void rt_usyms_check(struct rt_usyms *u, uint32_t pid, const char *comm,
		    uint64_t ip)
{
	struct rt_usyms_proc *p = u->procs ? find(u, pid, comm) : NULL;

	if (!p || !p->dwfl || dwfl_addrmodule(p->dwfl, ip) ||
	    p->rereads >= RT_USYMS_MAX_REREADS)
		return;
	/* Mapped since (ld.so loads libraries after the first samples). */
	p->rereads++;
	if (!report(p))
		u->failed++;
}

const char *rt_usyms_name(struct rt_usyms *u, uint32_t pid, const char *comm,
			  uint64_t ip, char *buf, size_t len)
{
	struct rt_usyms_proc *p = u->procs ? find(u, pid, comm) : NULL;
	const char *sym, *mod, *base;
	Dwfl_Module *m;
	GElf_Off off;
	GElf_Sym s;
	Dwarf_Addr start;

	if (!p || !p->dwfl)
		return NULL;
	m = dwfl_addrmodule(p->dwfl, ip);
	if (!m)
		return NULL;
	sym = dwfl_module_addrinfo(m, ip, &off, &s, NULL, NULL, NULL);
	if (sym) {
		snprintf(buf, len, "%s", sym);
		return buf;
	}
	mod = dwfl_module_info(m, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	if (!mod)
		return NULL;
	base = strrchr(mod, '/');
	snprintf(buf, len, "%s+0x%llx", base ? base + 1 : mod,
		 (unsigned long long)(ip - start));
	return buf;
}
