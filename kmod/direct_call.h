/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct call from vfs_read's fentry site to our trampoline, and the
 * reference each traced call holds on the attachment it entered through
 * (direct_call.c has the lifetime rules).
 */
#ifndef _RINGTRACE_DIRECT_CALL_H
#define _RINGTRACE_DIRECT_CALL_H

#include <linux/completion.h>
#include <linux/percpu-refcount.h>
#include <linux/types.h>

#include "direct_tramp.h"

struct rt_direct_att {
	struct percpu_ref	ref;
	struct completion	*drained;	/* unregister waits on it */
	bool			pinned;		/* holds a module reference */
};

/*
 * Install the direct call. @pin_module: the attachment holds a reference
 * on this module until the last call that entered through it has left.
 */
int rt_direct_register(bool pin_module);
/* Remove it; with @wait, return once every call that entered has left. */
void rt_direct_unregister(bool wait);

/*
 * In an entry handler, preemption off: the current attachment with a
 * reference for this call, or NULL (detaching: leave the call alone).
 */
struct rt_direct_att *rt_direct_get(void);

/* In the exit handler: was the call's attachment detached meanwhile? */
static inline bool rt_direct_dying(struct rt_direct_att *att)
{
	return percpu_ref_is_dying(&att->ref);
}

/* Last thing the exit handler does: it may free @att and the module. */
static inline void rt_direct_put(struct rt_direct_att *att)
{
	percpu_ref_put(&att->ref);
}

/* Module exit: no task may still be on our code after this. */
void rt_direct_module_exit(void);

#endif /* _RINGTRACE_DIRECT_CALL_H */
