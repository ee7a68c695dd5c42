// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace_direct.ko: the ftrace direct-call trampoline on vfs_read as a
 * module of its own, so that what a sleeping traced call pins is this
 * small module and not ringtrace.ko (direct_call.h says why). It does
 * nothing until ringtrace.ko attaches through rt_direct_api.
 */
#include <linux/init.h>
#include <linux/module.h>
#include "direct_call.h"
#include "lib/version.h"

static int __init rt_direct_init(void)
{
	return 0;
}

static void __exit rt_direct_exit_module(void)
{
	/* Last: tasks may still be leaving the trampoline. */
	rt_direct_module_exit();
}

module_init(rt_direct_init);
module_exit(rt_direct_exit_module);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The ringtrace authors");
MODULE_DESCRIPTION("ringtrace's ftrace direct-call trampoline on vfs_read");
MODULE_VERSION(RINGTRACE_VERSION);
