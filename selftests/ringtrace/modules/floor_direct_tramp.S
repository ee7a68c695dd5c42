/* SPDX-License-Identifier: GPL-2.0 */
/* ringtrace_direct.ko's trampoline, built into the floor module. */
#include "direct/direct_tramp_x86_64.S"
