// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* User-space symbols with libdwfl, one load per binary (see usyms.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "ringtrace/hash.h"
#include "ringtrace/procmaps.h"
#include "ringtrace/usyms.h"

#define MAX_LOADS	8		/* PT_LOAD headers kept per binary */
#define INDEX_SIZE	(2 * RT_USYMS_MAX_BINS)	/* power of two */

struct map {
	uint64_t	start, end, pgoff;
	uint32_t	bin;			/* index in bins[] */
};

struct rt_usyms_proc {
	uint32_t	pid;
	char		comm[RT_USYMS_COMM_LEN];
	uint32_t	rereads;		/* live: maps read again */
	uint32_t	nr_maps, cap_maps;
	struct map	*maps;
};

enum bin_state { BIN_NEW, BIN_LOADED, BIN_MISSING, BIN_MISMATCH };

struct load {
	uint64_t	offset, vaddr, filesz;
};

struct rt_usyms_bin {
	char		*path;
	uint8_t		build_id[RT_USYMS_BUILD_ID_MAX];
	uint32_t	build_id_len;		/* 0: not recorded */
	enum bin_state	state;
	Dwfl		*dwfl;			/* this binary alone */
	Dwfl_Module	*mod;
	uint64_t	bias;
	uint32_t	nr_loads;
	struct load	loads[MAX_LOADS];
};

static char *debuginfo_path;

/* Files by name, debug info by build-id links and .gnu_debuglink. */
static const Dwfl_Callbacks callbacks = {
	.find_elf		= dwfl_build_id_find_elf,
	.find_debuginfo		= dwfl_standard_find_debuginfo,
	.section_address	= dwfl_offline_section_address,
	.debuginfo_path		= &debuginfo_path,
};

int rt_usyms_init(struct rt_usyms *u, bool live)
{
	memset(u, 0, sizeof(*u));
	u->live = live;
	u->procs = calloc(RT_USYMS_MAX_PROCS, sizeof(*u->procs));
	u->bins = calloc(RT_USYMS_MAX_BINS, sizeof(*u->bins));
	u->bin_index = calloc(INDEX_SIZE, sizeof(*u->bin_index));
	if (!u->procs || !u->bins || !u->bin_index) {
		rt_usyms_fini(u);
		return -ENOMEM;
	}
	return 0;
}

void rt_usyms_fini(struct rt_usyms *u)
{
	for (uint32_t i = 0; u->procs && i < u->nr; i++)
		free(u->procs[i].maps);
	for (uint32_t i = 0; u->bins && i < u->nr_bins; i++) {
		if (u->bins[i].dwfl)
			dwfl_end(u->bins[i].dwfl);
		free(u->bins[i].path);
	}
	free(u->procs);
	free(u->bins);
	free(u->bin_index);
	memset(u, 0, sizeof(*u));
}

static struct rt_usyms_proc *find(struct rt_usyms *u, uint32_t pid,
				   const char *comm)
{
	/* Newest first: the image a pid has now. Few, so a linear scan. */
	for (uint32_t i = u->nr; i-- > 0;)
		if (u->procs[i].pid == pid &&
		    !strncmp(u->procs[i].comm, comm, RT_USYMS_COMM_LEN - 1))
			return &u->procs[i];
	return NULL;
}

static struct rt_usyms_proc *get(struct rt_usyms *u, uint32_t pid,
				  const char *comm, bool *created)
{
	struct rt_usyms_proc *p = find(u, pid, comm);

	*created = false;
	if (p)
		return p;
	if (u->nr >= RT_USYMS_MAX_PROCS) {
		u->untracked++;
		return NULL;
	}
	p = &u->procs[u->nr++];
	p->pid = pid;
	strncpy(p->comm, comm, RT_USYMS_COMM_LEN - 1);
	*created = true;
	return p;
}

static bool same_id(const struct rt_usyms_bin *b, const uint8_t *id,
		    uint32_t len)
{
	/* Unknown on either side: the path decides. */
	return !b->build_id_len || !len ||
	       (b->build_id_len == len && !memcmp(b->build_id, id, len));
}

/* The binary @path (@id): one entry however many processes map it. */
static int32_t bin_of(struct rt_usyms *u, const char *path, const uint8_t *id,
		      uint32_t id_len)
{
	uint32_t slot = rt_fnv32_str(RT_FNV32_INIT, path) & (INDEX_SIZE - 1);
	struct rt_usyms_bin *b;

	if (id_len > RT_USYMS_BUILD_ID_MAX)
		id_len = 0;
	for (;; slot = (slot + 1) & (INDEX_SIZE - 1)) {
		uint32_t i = u->bin_index[slot];

		if (!i)
			break;
		b = &u->bins[i - 1];
		if (!strcmp(b->path, path) && same_id(b, id, id_len)) {
			if (!b->build_id_len && id_len && b->state == BIN_NEW) {
				memcpy(b->build_id, id, id_len);
				b->build_id_len = id_len;
			}
			return (int32_t)(i - 1);
		}
	}
	if (u->nr_bins >= RT_USYMS_MAX_BINS) {
		u->bins_dropped++;
		return -1;
	}
	b = &u->bins[u->nr_bins];
	b->path = strdup(path);
	if (!b->path)
		return -1;
	if (id_len)
		memcpy(b->build_id, id, id_len);
	b->build_id_len = id_len;
	u->bin_index[slot] = ++u->nr_bins;
	return (int32_t)(u->nr_bins - 1);
}

static void add_map(struct rt_usyms *u, struct rt_usyms_proc *p,
		    uint64_t start, uint64_t end, uint64_t pgoff,
		    const char *path, const uint8_t *id, uint32_t id_len)
{
	int32_t bin = bin_of(u, path, id, id_len);

	if (bin < 0)
		return;
	if (p->nr_maps == p->cap_maps) {
		uint32_t cap = p->cap_maps ? 2 * p->cap_maps : 16;
		struct map *m = realloc(p->maps, cap * sizeof(*m));

		if (!m)
			return;
		p->maps = m;
		p->cap_maps = cap;
	}
	p->maps[p->nr_maps++] = (struct map){ start, end, pgoff, (uint32_t)bin };
}

void rt_usyms_add_map(struct rt_usyms *u, uint32_t pid, const char *comm,
		      uint64_t start, uint64_t end, uint64_t pgoff,
		      const char *path, const uint8_t *build_id,
		      uint32_t build_id_len)
{
	struct rt_usyms_proc *p;
	bool created;

	if (!u->procs || !pid || end <= start || path[0] != '/')
		return;
	p = get(u, pid, comm, &created);
	if (p)
		add_map(u, p, start, end, pgoff, path, build_id,
			build_id ? build_id_len : 0);
}

struct read_ctx {
	struct rt_usyms		*u;
	struct rt_usyms_proc	*p;
};

static void read_one(void *arg, const struct rt_procmap *m)
{
	struct read_ctx *c = arg;

	add_map(c->u, c->p, m->start, m->end, m->pgoff, m->path, NULL, 0);
}

/* (Re)read the maps of @p; false if they are gone. */
static bool read_maps(struct rt_usyms *u, struct rt_usyms_proc *p)
{
	struct read_ctx c = { u, p };

	p->nr_maps = 0;
	return !rt_procmaps_read(p->pid, read_one, &c);
}

void rt_usyms_see(struct rt_usyms *u, uint32_t pid, const char *comm)
{
	struct rt_usyms_proc *p;
	bool created;

	if (!u->procs || !u->live || !pid)
		return;
	p = get(u, pid, comm, &created);
	if (p && created && !read_maps(u, p))
		u->failed++;
}

/* Newest mapping first: a later mmap over an older one wins. */
static const struct map *map_of(const struct rt_usyms_proc *p, uint64_t ip)
{
	for (uint32_t i = p->nr_maps; i-- > 0;)
		if (ip >= p->maps[i].start && ip < p->maps[i].end)
			return &p->maps[i];
	return NULL;
}

void rt_usyms_check(struct rt_usyms *u, uint32_t pid, const char *comm,
		    uint64_t ip)
{
	struct rt_usyms_proc *p;

	if (!u->procs || !u->live)
		return;
	p = find(u, pid, comm);
	if (!p || map_of(p, ip) || p->rereads >= RT_USYMS_MAX_REREADS)
		return;
	/* Mapped since (ld.so loads libraries after the first samples). */
	p->rereads++;
	if (!read_maps(u, p))
		u->failed++;
}

static void keep_loads(struct rt_usyms_bin *b, Elf *elf)
{
	size_t n = 0;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return;
	for (size_t i = 0; i < n && b->nr_loads < MAX_LOADS; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			b->loads[b->nr_loads++] = (struct load){
				ph.p_offset, ph.p_vaddr, ph.p_filesz,
			};
}

/* Open @b and its symbols, once: every process mapping it shares them. */
static void load(struct rt_usyms *u, struct rt_usyms_bin *b)
{
	const unsigned char *bits;
	const char *base = strrchr(b->path, '/');
	GElf_Addr vaddr, bias = 0;
	Elf *elf;
	int n;

	b->state = BIN_MISSING;
	b->dwfl = dwfl_begin(&callbacks);
	if (!b->dwfl)
		return;
	u->module_loads++;
	dwfl_report_begin(b->dwfl);
	/* At its link-time addresses (bias 0), whoever maps it where. */
	b->mod = dwfl_report_elf(b->dwfl, base ? base + 1 : b->path, b->path,
				 -1, 0, true);
	dwfl_report_end(b->dwfl, NULL, NULL);
	if (!b->mod) {
		u->missing++;
		return;
	}
	if (b->build_id_len) {
		n = dwfl_module_build_id(b->mod, &bits, &vaddr);
		if (n != (int)b->build_id_len ||
		    memcmp(bits, b->build_id, b->build_id_len)) {
			b->state = BIN_MISMATCH;
			u->mismatched++;
			return;
		}
	}
	elf = dwfl_module_getelf(b->mod, &bias);
	if (!elf) {
		u->missing++;
		return;
	}
	b->bias = bias;
	keep_loads(b, elf);
	b->state = BIN_LOADED;
}

/* The file offset @off as an address of the binary's own (link-time). */
static uint64_t file_vaddr(const struct rt_usyms_bin *b, uint64_t off)
{
	for (uint32_t i = 0; i < b->nr_loads; i++)
		if (off >= b->loads[i].offset &&
		    off - b->loads[i].offset < b->loads[i].filesz)
			return off - b->loads[i].offset + b->loads[i].vaddr;
	return off;
}

/*
 * Replay has only what was recorded: a thread named otherwise than its
 * process (prctl(PR_SET_NAME)) uses its process's newest image, but only
 * when exec()s were recorded too (MMAP2 records): otherwise the newest
 * image known may be the one the pid had before an exec, whose maps would
 * name the new program's addresses wrongly.
 */
static struct rt_usyms_proc *image_of(struct rt_usyms *u, uint32_t pid,
				      const char *comm)
{
	struct rt_usyms_proc *p = find(u, pid, comm);

	for (uint32_t i = u->nr; !p && !u->live && u->exec_tracked && i-- > 0;)
		if (u->procs[i].pid == pid)
			p = &u->procs[i];
	return p;
}

bool rt_usyms_lookup(struct rt_usyms *u, uint32_t pid, const char *comm,
		     uint64_t ip, struct rt_usym *out)
{
	struct rt_usyms_proc *p = u->procs ? image_of(u, pid, comm) : NULL;
	const struct map *m = p ? map_of(p, ip) : NULL;
	struct rt_usyms_bin *b;
	const char *base;
	GElf_Off symoff = 0;
	GElf_Sym s;

	if (!m) {
		u->unmapped++;
		return false;
	}
	b = &u->bins[m->bin];
	if (b->state == BIN_NEW)
		load(u, b);
	if (b->state != BIN_LOADED)
		return false;
	base = strrchr(b->path, '/');
	out->dso = base ? base + 1 : b->path;
	out->dso_off = ip - m->start + m->pgoff;
	out->sym = dwfl_module_addrinfo(b->mod,
					file_vaddr(b, out->dso_off) + b->bias,
					&symoff, &s, NULL, NULL, NULL);
	out->sym_off = symoff;
	return true;
}

const char *rt_usyms_name(struct rt_usyms *u, uint32_t pid, const char *comm,
			  uint64_t ip, char *buf, size_t len)
{
	struct rt_usym us;

	if (!rt_usyms_lookup(u, pid, comm, ip, &us))
		return NULL;
	if (us.sym)
		snprintf(buf, len, "%s", us.sym);
	else
		snprintf(buf, len, "%s+0x%llx", us.dso,
			 (unsigned long long)us.dso_off);
	return buf;
}

uint32_t rt_usyms_file_build_id(const char *path, uint8_t *out)
{
	const void *id = NULL;
	ssize_t n = 0;
	Elf *elf;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		n = dwelf_elf_gnu_build_id(elf, &id);
		if (n > 0 && n <= (ssize_t)RT_USYMS_BUILD_ID_MAX)
			memcpy(out, id, (size_t)n);
		else
			n = 0;
		elf_end(elf);
	}
	close(fd);
	return (uint32_t)n;
}
