/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Command-line values: durations ("250us", "1.5ms", "2s") and sizes
 * ("64K", "4M", "1GiB"). Integer arithmetic only, so "0.1s" is exactly
 * 100000000 ns; every overflow is an error, never a wrap.
 */
#ifndef RINGTRACE_PARSE_H
#define RINGTRACE_PARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A duration with a unit: ns, us (or µs), ms, s, min, h, d. A bare number is refused
 * (ambiguous) unless it is 0. Fractions below 1 ns are dropped.
 * Returns 0, or -EINVAL / -ERANGE with a message in @err.
 */
int rt_parse_duration(const char *s, uint64_t *ns, char *err, size_t errlen);

/* Like rt_parse_duration(), but a bare number means seconds ("-d 2.5"). */
int rt_parse_seconds(const char *s, uint64_t *ns, char *err, size_t errlen);

/*
 * A size in bytes with an optional binary suffix: K, M, G, T (powers of
 * 1024), optionally followed by "iB" or "B"; case-insensitive.
 */
int rt_parse_size(const char *s, uint64_t *bytes, char *err, size_t errlen);

/*
 * @bytes as the user writes sizes: "64K", "4M", "1T", with the largest
 * binary unit that writes it exactly (else plain bytes). Returns @buf.
 */
const char *rt_format_size(char *buf, size_t len, uint64_t bytes);

/*
 * The RINGTRACE_EVENT_* bit of a module event named by the @len bytes at
 * @name ("vfs_read", "lock", "lock_contention" or "lock-contention",
 * "offcpu"), as every tool's -e takes it; 0 for any other name.
 */
uint64_t rt_parse_event_name(const char *name, size_t len);

#endif /* RINGTRACE_PARSE_H */
