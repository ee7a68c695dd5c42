/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * vfs_read's attach mechanisms by name (RINGTRACE_ATTACH_*), and what
 * each one costs the other tools on the machine: the words ringtrace-cat,
 * ringtrace-ctl and the tests print.
 */
#ifndef RINGTRACE_ATTACH_H
#define RINGTRACE_ATTACH_H

#include <stdint.h>

/* "kretprobe", "fprobe", "direct"; NULL for an id we do not know. */
const char *rt_attach_name(uint32_t id);

/* The id of @name, or 0 for "auto"; -1 for anything else. */
int rt_attach_parse(const char *name, uint32_t *id);

/*
 * NULL if the mechanism shares vfs_read with every other tool; else a
 * sentence saying whom it locks out while attached.
 */
const char *rt_attach_excludes(uint32_t id);

#endif /* RINGTRACE_ATTACH_H */
