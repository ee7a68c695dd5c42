/* SPDX-License-Identifier: GPL-2.0 */
/* The lock ringtrace_lockowner_a exports and ringtrace_lockowner_b takes. */
#ifndef _RINGTRACE_LOCKOWNER_H
#define _RINGTRACE_LOCKOWNER_H

#include "events/tracked_lock.h"

extern struct tracked_spinlock lockowner_shared;

#endif /* _RINGTRACE_LOCKOWNER_H */
