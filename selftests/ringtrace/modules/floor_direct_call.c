// SPDX-License-Identifier: GPL-2.0
/*
 * ringtrace_direct.ko's attachment code, built into the floor module
 * without exporting its interface (ringtrace_direct.ko exports it).
 */
#define RT_DIRECT_PRIVATE
#include "direct/direct_call.c"
