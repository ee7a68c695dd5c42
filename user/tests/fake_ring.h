/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test helpers: a ring mapping in malloc'ed memory (control page + data)
 * and a producer that writes records into it the way the kernel does
 * (check free space against data_tail, copy with wrap, publish data_head),
 * plus builders for each record type.
 */
#ifndef RINGTRACE_TESTS_FAKE_RING_H
#define RINGTRACE_TESTS_FAKE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/ringtrace.h>

#define FAKE_PAGE	4096u

struct fake_ring {
	void				*base;		/* control page + data */
	size_t				map_len;
	struct ringtrace_mmap_page	*page;
	unsigned char			*data;
	uint64_t			size;
	uint64_t			head;		/* producer's own copy */
};

/* A mapping with @data_size bytes of data after one control page. */
void fake_ring_init(struct fake_ring *fr, uint64_t data_size, uint32_t cpu);
void fake_ring_free(struct fake_ring *fr);

/* Write @len bytes as the kernel would; false (nothing written) if full. */
bool fake_ring_write(struct fake_ring *fr, const void *rec, size_t len);

/* Put bytes at free-running position @pos without publishing (hostile). */
void fake_ring_poke(struct fake_ring *fr, uint64_t pos, const void *p,
		    size_t len);

/* Publish an arbitrary head (hostile producers). */
void fake_ring_set_head(struct fake_ring *fr, uint64_t head);

void make_vfs_read(struct ringtrace_vfs_read_record *r, uint64_t ts,
		   uint32_t cpu, uint32_t pid, uint32_t tid, const char *comm);
void make_lost(struct ringtrace_lost_record *r, uint64_t ts, uint64_t lost);
void make_lock(struct ringtrace_lock_record *r, uint64_t ts, uint32_t cpu,
	       const char *comm, const char *name, uint32_t flags);

/* Shorthand: write a vfs_read record with @ts to @fr. */
bool fake_ring_vfs_read(struct fake_ring *fr, uint64_t ts);

#endif /* RINGTRACE_TESTS_FAKE_RING_H */
