/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the kernel calls the vfs_read producer (events/vfs_read.h) at the
 * function's entry and return: one struct rt_attach_ops per mechanism
 * (fprobe.c, kretprobe.c, direct.c), each handing the producer's two
 * functions the same arguments, and attach.c, which picks one and is the
 * vfs_read producer the sessions get (session/producer.h).
 */
#ifndef _RINGTRACE_ATTACH_H
#define _RINGTRACE_ATTACH_H

#include <linux/types.h>

struct rt_producer;

/*
 * One way of attaching to vfs_read. attach() and detach() are called under
 * the attach mutex (attach.c), at most one mechanism attached at a time;
 * detach() returns once no handler of this mechanism runs any more.
 */
struct rt_attach_ops {
	const char	*name;		/* the module parameter's value */
	u32		id;		/* RINGTRACE_ATTACH_* */
	bool		(*available)(void);
	int		(*attach)(unsigned int maxactive);
	void		(*detach)(void);
	/* Calls the current attachment could not follow (no free slot). */
	u64		(*missed)(void);
	/*
	 * NULL: shares vfs_read with every other tool. Else what it locks
	 * out while attached, for the kernel log ("which ..."); auto never
	 * picks such a mechanism.
	 */
	const char	*excludes;
};

extern const struct rt_attach_ops rt_attach_kretprobe;
extern const struct rt_attach_ops rt_attach_fprobe;
extern const struct rt_attach_ops rt_attach_direct;

/* The vfs_read producer: attached by the first session, through one of them. */
extern struct rt_producer rt_vfs_read_producer;

/*
 * Any kernel function a session names (func.c): its own probes, attached
 * by its ENABLE, detached by its DISABLE.
 */
extern struct rt_producer rt_func_producer;
/* RINGTRACE_ATTACH_*: how the functions of a session are attached. */
u32 rt_func_attach_id(void);

/* Which mechanism is in use, or would be used next; those offered. */
u32 rt_vfs_read_attach_id(void);
u32 rt_vfs_read_attach_mask(void);

#endif /* _RINGTRACE_ATTACH_H */
