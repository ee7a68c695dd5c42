/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Kernel symbols: /proc/kallsyms (or a copy of it, or a raw file's KSYMS
 * chunk: rawfile.h) as a table sorted by address, to name kernel frames
 * and traced functions.
 */
#ifndef RINGTRACE_KSYMS_H
#define RINGTRACE_KSYMS_H

#include <stdint.h>

struct rt_ksym {
	uint64_t	addr;
	const char	*name;
	const char	*module;	/* "ext4"; NULL: the kernel's own */
	uint64_t	end;		/* 0: up to the next symbol */
};

/*
 * The extent of the last symbol of the kernel's text or of a module's
 * (no symbol of the same owner after it to say where it ends): an address
 * further than this past it is not named after it. A frame past the end
 * of its region, or from another boot's or machine's layout, would
 * otherwise take the name of whatever symbol precedes it, however far
 * (arch_prepare_kprobe+0x3876f81998af).
 */
#define RT_KSYM_LAST_EXTENT	0x1000u

/* Kernel symbols, sorted by address. */
struct rt_ksyms {
	struct rt_ksym	*syms;
	uint32_t	nr;
	uint32_t	nr_hidden;	/* symbol lines with address 0
					 * (kptr_restrict hid them) */
	char		*names;		/* the strings syms point into */
};

/*
 * Parse /proc/kallsyms text (@text, NUL-terminated) into @k: its text
 * symbols, each ending where the next symbol of its owner (the kernel or
 * its module, of any type) starts, or RT_KSYM_LAST_EXTENT past it when
 * none does. 0 or -ENOMEM.
 */
int rt_ksyms_parse(struct rt_ksyms *k, const char *text);
/* Read @path (normally /proc/kallsyms) through the seam and parse it. */
int rt_ksyms_load(struct rt_ksyms *k, const char *path);
/* The symbol containing @addr, or NULL. */
const char *rt_ksyms_find(const struct rt_ksyms *k, uint64_t addr);
/* The address of the symbol named @name (the first), or 0. */
uint64_t rt_ksyms_addr_of(const struct rt_ksyms *k, const char *name);
/*
 * The architecture whose kernel layout @k's addresses are: "x86_64"
 * (every kernel address at or above 0xffffffff80000000), "aarch64" (below
 * it), or NULL for no symbol.
 */
const char *rt_ksyms_arch(const struct rt_ksyms *k);
/* Its entry (name, start address, module), or NULL. */
const struct rt_ksym *rt_ksyms_lookup(const struct rt_ksyms *k, uint64_t addr);
/*
 * A traced function's bare name, as rt_output_set_func_namer() (output.h)
 * wants it from @arg, a struct rt_ksyms: the symbol @ip lies in (its
 * entry, or past the arch's entry padding: x86's ENDBR64, +0x4); NULL.
 */
const char *rt_ksyms_func_name(void *arg, uint64_t ip);
void rt_ksyms_free(struct rt_ksyms *k);

#endif /* RINGTRACE_KSYMS_H */
