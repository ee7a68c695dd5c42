// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_read through an ftrace direct call to our own trampoline
 * (kmod/direct_tramp_x86_64.S): the fentry site calls it without ftrace's
 * list walk, kprobe state or return-address hijack, and it calls vfs_read
 * itself, so the call's entry data lives in the trampoline's stack frame
 * (BPF's fentry/fexit do the same). x86-64 only.
 *
 * The trampoline is in ringtrace_direct.ko, which this module finds with
 * symbol_get() when it attaches: a call sleeping in vfs_read then pins
 * that small module, never this one (direct_call.h). Where it is not
 * loaded, is built for another interface or the kernel has no direct
 * calls, it is not offered. It is used only when asked for: while
 * attached it holds vfs_read's one direct-call slot, which BPF's
 * trampolines need (attach.c, ->excludes). It shares vfs_read with
 * livepatches (direct_call.c's ops_func).
 */
#include <linux/module.h>
#include <linux/ringtrace.h>

#include "attach.h"
#include "direct/direct_call.h"
#include "events/vfs_read.h"

#ifdef RT_HAVE_DIRECT

/* ringtrace_direct.ko's interface, with a reference, while attached. */
static const struct rt_direct_api *rt_direct_svc;

/* Called by ringtrace_direct.ko with preemption off, as vfs_read.h asks. */
static bool notrace rt_direct_on_enter(void *data, struct file *file,
				       size_t count, loff_t *ppos)
{
	return rt_vfs_read_enter(data, file, count, ppos);
}

static void notrace rt_direct_on_exit(void *data, long ret,
				      unsigned long ret_ip)
{
	rt_vfs_read_exit(data, ret, ret_ip);
}

static const struct rt_direct_handlers rt_direct_handlers = {
	.enter	= rt_direct_on_enter,
	.exit	= rt_direct_on_exit,
};

/* ringtrace_direct.ko's interface with a reference on it, or NULL. */
static const struct rt_direct_api *rt_direct_get_api(void)
{
	const struct rt_direct_api *api = symbol_get(rt_direct_api);

	BUILD_BUG_ON(sizeof(struct rt_vfs_read_call) > RT_DIRECT_DATA_SIZE);
	if (api && (api->version != RT_DIRECT_API_VERSION ||
		    api->data_size < sizeof(struct rt_vfs_read_call))) {
		pr_warn_once("%s.ko has interface %u, not %u: not using it\n",
			     RT_DIRECT_MODULE, api->version,
			     RT_DIRECT_API_VERSION);
		symbol_put(rt_direct_api);
		api = NULL;
	}
	return api;
}

/* Offered while ringtrace_direct.ko is loaded (modprobe loads it first). */
static bool rt_direct_available(void)
{
	const struct rt_direct_api *api = rt_direct_get_api();

	if (!api)
		return false;
	symbol_put(rt_direct_api);
	return true;
}

/* Under attach.c's mutex, like rt_direct_detach(). */
static int rt_direct_attach(unsigned int maxactive)
{
	const struct rt_direct_api *api = rt_direct_get_api();
	int err;

	if (!api)
		return -ENOENT;
	err = api->attach(&rt_direct_handlers);
	if (err) {
		symbol_put(rt_direct_api);
		return err;
	}
	rt_direct_svc = api;
	return 0;
}

/* On return our handlers are done with: this module may go. */
static void rt_direct_detach(void)
{
	rt_direct_svc->detach();
	rt_direct_svc = NULL;
	symbol_put(rt_direct_api);
}

/* The stack holds each call's data: there is no slot to run out of. */
static u64 rt_direct_missed(void)
{
	return 0;
}

#else /* !RT_HAVE_DIRECT */

static bool rt_direct_available(void)
{
	return false;
}

static int rt_direct_attach(unsigned int maxactive)
{
	return -EOPNOTSUPP;
}

static void rt_direct_detach(void)
{
}

static u64 rt_direct_missed(void)
{
	return 0;
}

#endif /* RT_HAVE_DIRECT */

const struct rt_attach_ops rt_attach_direct = {
	.name		= "direct",
	.id		= RINGTRACE_ATTACH_DIRECT,
	.available	= rt_direct_available,
	.attach		= rt_direct_attach,
	.detach		= rt_direct_detach,
	.missed		= rt_direct_missed,
	/* attach.c's log line says the rest. */
	.excludes	= "locks BPF fentry/fexit/LSM programs out of vfs_read",
};
