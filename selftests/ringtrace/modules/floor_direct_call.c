// SPDX-License-Identifier: GPL-2.0
/* ringtrace.ko's direct-call attachment, built into the floor module. */
#include "direct_call.c"
