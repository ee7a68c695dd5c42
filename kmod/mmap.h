/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RINGTRACE_MMAP_H
#define _RINGTRACE_MMAP_H

#include <linux/mm_types.h>

#include "session/session.h"

int rt_mmap_ring(struct rt_session *s, struct vm_area_struct *vma);

#endif /* _RINGTRACE_MMAP_H */
