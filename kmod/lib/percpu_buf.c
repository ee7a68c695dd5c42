// SPDX-License-Identifier: GPL-2.0
/*
 * Reference-counted per-CPU scratch buffers (percpu_buf.h), for the path
 * and stack buffers that only sessions asking for them should cost.
 */
#include <linux/bug.h>
#include <linux/percpu.h>

#include "percpu_buf.h"

int rt_percpu_buf_get(struct rt_percpu_buf *b)
{
	int err = 0;

	mutex_lock(&b->lock);
	if (!b->users) {
		b->ptr = __alloc_percpu_gfp(b->size, b->align,
					    GFP_KERNEL_ACCOUNT);
		if (!b->ptr) {
			err = -ENOMEM;
			goto unlock;
		}
	}
	b->users++;
unlock:
	mutex_unlock(&b->lock);
	return err;
}

void rt_percpu_buf_put(struct rt_percpu_buf *b)
{
	mutex_lock(&b->lock);
	if (!WARN_ON_ONCE(!b->users) && !--b->users) {
		free_percpu(b->ptr);
		b->ptr = NULL;
	}
	mutex_unlock(&b->lock);
}
