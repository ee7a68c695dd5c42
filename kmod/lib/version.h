/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two modules are called and which version they are: named by
 * both, and by code that recognises the other module's frames (stack.c).
 */
#ifndef _RINGTRACE_VERSION_H
#define _RINGTRACE_VERSION_H

#define RINGTRACE_VERSION	"0.1.0"

/* The direct-call trampoline's module (direct/direct_call.h). */
#define RT_DIRECT_MODULE	"ringtrace_direct"

#endif /* _RINGTRACE_VERSION_H */
