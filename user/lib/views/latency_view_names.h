/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * What the text and the JSON printers of the latency views share
 * (latency_view.c, latency_view_json.c): the order of the entries and the
 * names of their keys, so that both print the same rows with the same
 * names.
 */
#ifndef RINGTRACE_LATENCY_VIEW_NAMES_H
#define RINGTRACE_LATENCY_VIEW_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "ringtrace/latency_view.h"

/* A file's path, or "8:1 ino 1234" when no record named it. */
const char *rt_view_file_name(const struct rt_latency_view *v,
			      const struct rt_view_key *k, char *buf,
			      size_t len);
/* A cgroup's path, "#ID" when no record named it, "-" for none. */
const char *rt_view_cgroup_name(const struct rt_latency_view *v, uint64_t id,
				char *buf, size_t len);
/*
 * The entries of @t by time spent, most first, [other] last when used;
 * NULL when out of memory. The caller frees the list.
 */
const struct rt_view_entry **rt_view_sorted(const struct rt_view_table *t,
					    uint32_t *n);

/* Function @slot of the view's: its name, or its address in @buf. */
const char *rt_view_func_name(const struct rt_latency_view *v, uint32_t slot,
			      char *buf);
/*
 * The view's functions with calls counted, by total time, most first
 * (ties: first seen first), into @order; how many.
 */
uint32_t rt_view_funcs_sorted(const struct rt_latency_view *v,
			      uint32_t order[RINGTRACE_MAX_FUNCS]);

#endif /* RINGTRACE_LATENCY_VIEW_NAMES_H */
