/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stack trailers (ABI 2): the kernel and user stacks of a probed call,
 * appended to its record. See stack.c and Documentation/abi.rst.
 */
#ifndef _RINGTRACE_STACK_H
#define _RINGTRACE_STACK_H

#include <linux/types.h>

/* A captured stack, in this CPU's buffer until rt_stack_put(). */
struct rt_stack {
	const unsigned long	*kernel;
	const unsigned long	*user;
	u16			nr_kernel;
	u16			nr_user;
	u32			flags;		/* RINGTRACE_STACK_* */
	unsigned int		level;		/* buffer in use */
};

int rt_stack_buffers_get(void);
void rt_stack_buffers_put(void);

/* Features this build offers (RINGTRACE_FEAT_STACK_*). */
u64 rt_stack_features(void);

/*
 * Capture up to @kdepth kernel and @udepth user frames of the current call
 * (preemption disabled). @anchor, if not 0, is the return address the
 * kernel stack starts at (frames before it, the probe's own, are cut);
 * otherwise frames of this module are cut. false: this CPU's buffer for
 * this context is in use (a nested probe), nothing captured.
 */
bool rt_stack_get(struct rt_stack *st, unsigned int kdepth,
		  unsigned int udepth, unsigned long anchor);
void rt_stack_put(const struct rt_stack *st);

/* Bytes the trailer of @st adds to a record, a multiple of 8. */
static inline unsigned int rt_stack_size(const struct rt_stack *st)
{
	return (st->nr_kernel + st->nr_user + 1) * sizeof(u64);
}

/* Write @st's trailer at @dst, the last rt_stack_size() bytes of a record. */
void rt_stack_write(void *dst, const struct rt_stack *st);

#endif /* _RINGTRACE_STACK_H */
