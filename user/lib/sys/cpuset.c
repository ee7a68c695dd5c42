// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* CPU list parsing and online CPU discovery (see cpuset.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ringtrace/cpuset.h"
#include "ringtrace/sys.h"

unsigned int rt_cpuset_count(const struct rt_cpuset *set)
{
	unsigned int n = 0;

	for (size_t i = 0; i < RT_MAX_CPUS / 64; i++)
		n += (unsigned int)__builtin_popcountll(set->bits[i]);
	return n;
}

int rt_cpuset_next(const struct rt_cpuset *set, int cpu)
{
	for (unsigned int c = (unsigned int)(cpu + 1); c < RT_MAX_CPUS; c++) {
		uint64_t word = set->bits[c / 64] >> (c % 64);

		if (!word) {		/* skip the rest of this word */
			c |= 63;
			continue;
		}
		return (int)(c + (unsigned int)__builtin_ctzll(word));
	}
	return -1;
}

/* A decimal CPU number; leaves *s after it. */
static int parse_cpu(const char **s, unsigned int *cpu)
{
	unsigned long v = 0;
	const char *p = *s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v >= RT_MAX_CPUS)
			return -ERANGE;
		p++;
	}
	*cpu = (unsigned int)v;
	*s = p;
	return 0;
}

int rt_cpuset_parse(struct rt_cpuset *set, const char *list,
		    char *err, size_t errlen)
{
	const char *p = list, *item;
	unsigned int lo, hi;
	int ret;

	rt_cpuset_clear(set);
	if (!*list || *list == '\n')
		goto empty;
	for (;;) {
		item = p;
		ret = parse_cpu(&p, &lo);
		hi = lo;
		if (!ret && *p == '-') {
			p++;
			ret = parse_cpu(&p, &hi);
		}
		if (ret == -ERANGE) {
			snprintf(err, errlen,
				 "CPU list '%s': CPU numbers must be below %u",
				 list, RT_MAX_CPUS);
			return -EINVAL;
		}
		if (ret || (*p && *p != ',' && *p != '\n')) {
			snprintf(err, errlen,
				 "CPU list '%s': cannot parse '%.*s' (expected e.g. 0,2-3)",
				 list, (int)strcspn(item, ",\n"), item);
			return -EINVAL;
		}
		if (hi < lo) {
			snprintf(err, errlen,
				 "CPU list '%s': range %u-%u goes backwards",
				 list, lo, hi);
			return -EINVAL;
		}
		for (unsigned int c = lo; c <= hi; c++)
			rt_cpuset_add(set, c);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n')
			p++;
		if (!*p)
			return 0;
		goto trailing;
	}
trailing:
	snprintf(err, errlen, "CPU list '%s': unexpected text after the list",
		 list);
	return -EINVAL;
empty:
	snprintf(err, errlen, "CPU list is empty");
	return -EINVAL;
}

void rt_cpuset_format(const struct rt_cpuset *set, char *buf, size_t len)
{
	size_t used = 0;
	int cpu = rt_cpuset_next(set, -1), last;

	if (len)
		buf[0] = '\0';
	while (cpu >= 0 && used < len) {
		last = cpu;
		while (rt_cpuset_has(set, (unsigned int)last + 1))
			last++;
		int n = last > cpu ?
			snprintf(buf + used, len - used, "%s%d-%d",
				 used ? "," : "", cpu, last) :
			snprintf(buf + used, len - used, "%s%d",
				 used ? "," : "", cpu);
		if (n < 0)
			break;
		used += (size_t)n;
		cpu = rt_cpuset_next(set, last);
	}
}

int rt_cpuset_online(struct rt_cpuset *set, char *err, size_t errlen)
{
	char buf[4096];
	ssize_t n = rt_sys_read_file(RT_CPU_ONLINE_PATH, buf, sizeof(buf));

	if (n < 0) {
		snprintf(err, errlen, "cannot read %s: %s", RT_CPU_ONLINE_PATH,
			 strerror((int)-n));
		return (int)n;
	}
	return rt_cpuset_parse(set, buf, err, errlen);
}

int rt_cpuset_present(struct rt_cpuset *set, char *err, size_t errlen)
{
	char buf[4096];
	ssize_t n = rt_sys_read_file(RT_CPU_PRESENT_PATH, buf, sizeof(buf));

	if (n == -ENOENT)
		return rt_cpuset_online(set, err, errlen);
	if (n < 0) {
		snprintf(err, errlen, "cannot read %s: %s", RT_CPU_PRESENT_PATH,
			 strerror((int)-n));
		return (int)n;
	}
	return rt_cpuset_parse(set, buf, err, errlen);
}
