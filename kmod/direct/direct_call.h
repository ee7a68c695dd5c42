/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direct call from vfs_read's fentry site to our trampoline, as a
 * service of its own module, ringtrace_direct.ko (direct_call.c has the
 * lifetime rules).
 *
 * Why a module of its own: a traced call that sleeps in vfs_read has the
 * trampoline as its return address for as long as it sleeps, so the code
 * holding the trampoline cannot be unloaded meanwhile. Kept apart, that
 * code is a few hundred bytes that pin only themselves, and ringtrace.ko
 * (which it calls through the handlers below, never after detach) can
 * always be unloaded once its sessions are closed.
 *
 * ringtrace.ko finds the service with symbol_get(rt_direct_api), so that
 * it loads without it (modprobe loads it first: a soft dependency) and
 * falls back to fprobe or the kretprobe where it is missing.
 */
#ifndef _RINGTRACE_DIRECT_CALL_H
#define _RINGTRACE_DIRECT_CALL_H

#include <linux/fs.h>
#include <linux/types.h>

#include "direct_tramp.h"
#include "lib/version.h"

/* The handlers' part of each call's slot in the trampoline's frame. */
#define RT_DIRECT_DATA_SIZE	sizeof_field(struct rt_direct_slot, data)

/*
 * What the user of the direct call does on each call, with preemption
 * disabled. enter(): true if the call is wanted; exit() then follows
 * with the same @data once vfs_read returned @ret to @ret_ip, on
 * whichever CPU it returns on, unless the user detached meanwhile.
 */
struct rt_direct_handlers {
	bool (*enter)(void *data, struct file *file, size_t count,
		      loff_t *ppos);
	void (*exit)(void *data, long ret, unsigned long ret_ip);
};

/*
 * The interface ringtrace_direct.ko exports. Bump the version with any
 * change to this struct, the handlers or the slot: a ringtrace.ko built
 * against another one falls back to the next mechanism.
 */
#define RT_DIRECT_API_VERSION	1

struct rt_direct_api {
	unsigned int	version;
	unsigned int	data_size;	/* RT_DIRECT_DATA_SIZE */
	/*
	 * Patch vfs_read to call @h: 0, -EBUSY (another user of this
	 * module, or another direct-call user of vfs_read such as a BPF
	 * trampoline) or another error. Process context.
	 */
	int		(*attach)(const struct rt_direct_handlers *h);
	/*
	 * Unpatch it. On return no call is in @h and none will enter it:
	 * calls still sleeping in vfs_read come back through the trampoline
	 * without calling @h, and keep ringtrace_direct.ko loaded until they
	 * have.
	 */
	void		(*detach)(void);
};

extern const struct rt_direct_api rt_direct_api;

/*
 * The same, for code linked with direct_call.c. @pin_module: the
 * attachment holds a reference on this module until the last call that
 * entered through it has left; else rt_direct_unregister(true) waits for
 * those calls (the floor module, which attaches from its init).
 */
int rt_direct_register(const struct rt_direct_handlers *h, bool pin_module);
void rt_direct_unregister(bool wait);

/* Module exit: no task may still be on our code after this. */
void rt_direct_module_exit(void);

#endif /* _RINGTRACE_DIRECT_CALL_H */
