/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * CPU sets: parsing "0,2-3" (the -C option and sysfs' online file) and
 * discovering online CPUs. A fixed-size bitmap: no allocation, and the
 * same bytes are handed to the kernel as ringtrace_config.cpu_mask_ptr.
 */
#ifndef RINGTRACE_CPUSET_H
#define RINGTRACE_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_MAX_CPUS		8192u	/* the kernel's largest NR_CPUS */
#define RT_CPU_ONLINE_PATH	"/sys/devices/system/cpu/online"
#define RT_CPU_PRESENT_PATH	"/sys/devices/system/cpu/present"

struct rt_cpuset {
	uint64_t	bits[RT_MAX_CPUS / 64];	/* bit n = CPU n, as the kernel wants */
};

static inline void rt_cpuset_clear(struct rt_cpuset *set)
{
	for (size_t i = 0; i < RT_MAX_CPUS / 64; i++)
		set->bits[i] = 0;
}

static inline void rt_cpuset_add(struct rt_cpuset *set, unsigned int cpu)
{
	if (cpu < RT_MAX_CPUS)
		set->bits[cpu / 64] |= 1ull << (cpu % 64);
}

static inline bool rt_cpuset_has(const struct rt_cpuset *set, unsigned int cpu)
{
	return cpu < RT_MAX_CPUS && (set->bits[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned int rt_cpuset_count(const struct rt_cpuset *set);

/* First CPU after @cpu (pass -1 to start), or -1 when none is left. */
int rt_cpuset_next(const struct rt_cpuset *set, int cpu);

/*
 * Parse a list such as "0,2-3" or "0-7\n". Returns 0, or -EINVAL with a
 * message in @err naming the offending part.
 */
int rt_cpuset_parse(struct rt_cpuset *set, const char *list,
		    char *err, size_t errlen);

/* Print as a compact list ("0,2-3") for messages. */
void rt_cpuset_format(const struct rt_cpuset *set, char *buf, size_t len);

/* Online CPUs, from RT_CPU_ONLINE_PATH (read through the syscall seam). */
int rt_cpuset_online(struct rt_cpuset *set, char *err, size_t errlen);

/*
 * Present CPUs, from RT_CPU_PRESENT_PATH: the online ones plus those taken
 * offline (echo 0 > .../cpuN/online) that can come back. The rings a
 * session maps by default, so that tracing resumes on a CPU that returns
 * (Documentation/abi.rst, "CPU hotplug"). Falls back to the online CPUs
 * where the file is missing.
 */
int rt_cpuset_present(struct rt_cpuset *set, char *err, size_t errlen);

#endif /* RINGTRACE_CPUSET_H */
