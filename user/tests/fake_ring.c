// SPDX-License-Identifier: GPL-2.0-only
/* Test helpers: a malloc'ed ring and a kernel-like producer (fake_ring.h). */
#include <stdlib.h>
#include <string.h>

#include "ringtrace/barrier.h"
#include "fake_ring.h"

void fake_ring_init(struct fake_ring *fr, uint64_t data_size, uint32_t cpu)
{
	memset(fr, 0, sizeof(*fr));
	fr->map_len = FAKE_PAGE + data_size;
	/*
	 * aligned_alloc() wants a size that is a multiple of the alignment
	 * (C11 7.22.3.1; ASan aborts otherwise): round up, the tail is unused.
	 */
	fr->base = aligned_alloc(FAKE_PAGE, (fr->map_len + FAKE_PAGE - 1) &
				 ~(size_t)(FAKE_PAGE - 1));
	if (!fr->base)
		abort();
	memset(fr->base, 0, fr->map_len);
	fr->page = fr->base;
	fr->data = (unsigned char *)fr->base + FAKE_PAGE;
	fr->size = data_size;
	fr->page->version = RINGTRACE_ABI_VERSION;
	fr->page->compat_version = RINGTRACE_ABI_VERSION;
	fr->page->cpu = cpu;
	fr->page->data_offset = FAKE_PAGE;
	fr->page->data_size = data_size;
}

void fake_ring_free(struct fake_ring *fr)
{
	free(fr->base);
	fr->base = NULL;
}

void fake_ring_poke(struct fake_ring *fr, uint64_t pos, const void *p,
		    size_t len)
{
	const unsigned char *src = p;

	for (size_t i = 0; i < len; i++)
		fr->data[(pos + i) & (fr->size - 1)] = src[i];
}

bool fake_ring_write(struct fake_ring *fr, const void *rec, size_t len)
{
	uint64_t tail = rt_producer_load_tail(&fr->page->data_tail);

	if (fr->head + len - tail > fr->size)
		return false;
	fake_ring_poke(fr, fr->head, rec, len);
	fr->head += len;
	rt_producer_publish_head(&fr->page->data_head, fr->head);
	return true;
}

void fake_ring_set_head(struct fake_ring *fr, uint64_t head)
{
	fr->head = head;
	rt_producer_publish_head(&fr->page->data_head, head);
}

/* NUL-padded, not necessarily NUL-terminated: like the kernel's fields. */
static void set_str(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);

	memset(dst, 0, n);
	memcpy(dst, src, len < n ? len : n);
}

static void task(struct ringtrace_task_ctx *t, uint64_t ts, uint32_t cpu,
		 uint32_t pid, uint32_t tid, const char *comm)
{
	t->ts_ns = ts;
	t->cpu = cpu;
	t->pid = pid;
	t->tid = tid;
	set_str(t->comm, sizeof(t->comm), comm);
}

void make_vfs_read(struct ringtrace_vfs_read_record *r, uint64_t ts,
		   uint32_t cpu, uint32_t pid, uint32_t tid, const char *comm)
{
	memset(r, 0, sizeof(*r));
	r->header.type = RINGTRACE_RECORD_VFS_READ;
	r->header.size = sizeof(*r);
	task(&r->task, ts, cpu, pid, tid, comm);
	r->dev_major = 8;
	r->dev_minor = 1;
	r->ino = 123;
	r->pos = 0;
	r->count = 4096;
	r->ret = 4096;
	r->lat_ns = 12345;
}

void make_lost(struct ringtrace_lost_record *r, uint64_t ts, uint64_t lost)
{
	memset(r, 0, sizeof(*r));
	r->header.type = RINGTRACE_RECORD_LOST;
	r->header.size = sizeof(*r);
	r->ts_ns = ts;
	r->lost = lost;
}

void make_lock(struct ringtrace_lock_record *r, uint64_t ts, uint32_t cpu,
	       const char *comm, const char *name, uint32_t flags)
{
	memset(r, 0, sizeof(*r));
	r->header.type = RINGTRACE_RECORD_LOCK;
	r->header.size = sizeof(*r);
	task(&r->task, ts, cpu, 77, 78, comm);
	r->lock_id = 0xdeadbeef;
	r->wait_ns = 1500;
	r->hold_ns = 250;
	r->flags = flags;
	set_str(r->name, sizeof(r->name), name);
}

bool fake_ring_vfs_read(struct fake_ring *fr, uint64_t ts)
{
	struct ringtrace_vfs_read_record r;

	make_vfs_read(&r, ts, fr->page->cpu, 100, 101, "reader");
	return fake_ring_write(fr, &r, sizeof(r));
}
