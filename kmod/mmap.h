/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RINGTRACE_MMAP_H
#define _RINGTRACE_MMAP_H

#include <linux/mm_types.h>

struct rt_session;

/* Largest ring a mapping may ask for, in data pages (module parameter). */
extern unsigned int rt_max_ring_pages;

int rt_mmap_ring(struct rt_session *s, struct vm_area_struct *vma);

#endif /* _RINGTRACE_MMAP_H */
