// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* What a view is missing (see missing.h): counted once, said per format. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <linux/ringtrace.h>

#include "ringtrace/missing.h"

void rt_missing_add(struct rt_missing *m, const struct rt_event *ev)
{
	uint32_t f = ev->stack.flags;

	if (ev->kind == RT_EVENT_LOST) {
		m->lost += ev->u.lost.count;
		return;
	}
	m->events++;
	if (ev->kind == RT_EVENT_SAMPLE) {
		m->user_loop += ev->u.sample.fp_loop;
		return;
	}
	m->kernel_cut += !!(f & RINGTRACE_STACK_KERNEL_TRUNCATED);
	m->user_cut += !!(f & RINGTRACE_STACK_USER_TRUNCATED);
	m->user_fault += !!(f & RINGTRACE_STACK_USER_FAULT);
	m->user_loop += !!(f & RINGTRACE_STACK_USER_LOOP);
}

uint64_t rt_missing_lost(const struct rt_missing *m)
{
	return m->lost + m->lost_pending;
}

/* Every cause but the losses, in the order they are said. */
struct cause {
	size_t		off;		/* of its count in struct rt_missing */
	const char	*json;
	const char	*text;		/* after the count */
};

#define CAUSE(field, json, text) { offsetof(struct rt_missing, field), json, text }

static const struct cause causes[] = {
	CAUSE(malformed, "malformed", "records skipped: malformed"),
	CAUSE(unknown, "unknown", "records skipped: of a type this version "
	      "does not know"),
	CAUSE(damaged_bytes, "damaged_bytes", "bytes of the file skipped: "
	      "damaged"),
	CAUSE(func_missed, "func_missed", "func calls missed by the probe "
	      "(no record)"),
	CAUSE(offcpu_missed, "offcpu_missed", "off-CPU intervals the module "
	      "could not follow (no record)"),
	CAUSE(kernel_cut, "kernel_stacks_cut", "kernel stacks cut at the "
	      "depth limit"),
	CAUSE(user_cut, "user_stacks_cut", "user stacks cut at the depth "
	      "limit"),
	CAUSE(user_fault, "user_stacks_fault", "user stacks cut at a frame "
	      "that could not be read"),
	CAUSE(user_loop, "user_stacks_loop", "user stacks cut at a "
	      "frame-pointer loop"),
	CAUSE(unnamed_files, "unnamed_files", "vfs_reads of files never "
	      "named (shown as dev:ino)"),
	CAUSE(unnamed_cgroups, "unnamed_cgroups", "events in cgroups never "
	      "named (shown as #ID)"),
	CAUSE(other, "other", "events under [other]: the table was full"),
	CAUSE(stacks_dropped, "stacks_dropped", "stacks left out: the stack "
	      "table was full"),
};

#define NR_CAUSES (sizeof(causes) / sizeof(causes[0]))

static uint64_t count_of(const struct rt_missing *m, const struct cause *c)
{
	uint64_t v;

	memcpy(&v, (const char *)m + c->off, sizeof(v));
	return v;
}

bool rt_missing_any(const struct rt_missing *m)
{
	if (rt_missing_lost(m) || m->truncated)
		return true;
	for (size_t i = 0; i < NR_CAUSES; i++)
		if (count_of(m, &causes[i]))
			return true;
	return false;
}

/*
 * The lost share of what was written or lost, in @scale-ths of a percent
 * (10: one decimal), rounded to the nearest.
 */
static uint64_t lost_share(const struct rt_missing *m, uint64_t scale)
{
	uint64_t lost = rt_missing_lost(m), all = lost + m->events;

	if (!all)
		return 0;
	return (uint64_t)(((unsigned __int128)lost * 100 * scale + all / 2) /
			  all);
}

void rt_missing_print(const struct rt_missing *m, struct rt_outbuf *ob,
		      const char *prefix)
{
	uint64_t lost = rt_missing_lost(m), pct = lost_share(m, 10);

	if (!rt_missing_any(m))
		return;
	rt_outbuf_printf(ob, "\n%smissing from this view:\n", prefix);
	if (lost)
		rt_outbuf_printf(ob, "%s  %" PRIu64 " records lost (%" PRIu64
				 ".%" PRIu64 "%% of the %" PRIu64 " written or "
				 "lost)\n", prefix, lost, pct / 10, pct % 10,
				 lost + m->events);
	for (size_t i = 0; i < NR_CAUSES; i++) {
		uint64_t n = count_of(m, &causes[i]);

		if (n)
			rt_outbuf_printf(ob, "%s  %" PRIu64 " %s\n", prefix, n,
					 causes[i].text);
	}
	if (m->truncated)
		rt_outbuf_printf(ob, "%s  the records after the point where "
				 "the file was cut\n", prefix);
}

void rt_missing_line(const struct rt_missing *m, char *buf, size_t len)
{
	uint64_t lost = rt_missing_lost(m), pct = lost_share(m, 10);
	size_t used = 0;
	int n;

	if (!len)
		return;
	buf[0] = '\0';
	if (lost) {
		n = snprintf(buf, len, "%" PRIu64 " records lost (%" PRIu64 ".%"
			     PRIu64 "%%)", lost, pct / 10, pct % 10);
		used = n > 0 ? (size_t)n : 0;
	}
	for (size_t i = 0; i < NR_CAUSES && used < len; i++) {
		uint64_t c = count_of(m, &causes[i]);

		if (!c)
			continue;
		n = snprintf(buf + used, len - used, "%s%" PRIu64 " %s",
			     used ? ", " : "", c, causes[i].text);
		used += n > 0 ? (size_t)n : 0;
	}
	if (m->truncated && used < len)
		snprintf(buf + used, len - used, "%sthe end of the cut file",
			 used ? ", " : "");
}

char *rt_missing_json(char *p, const struct rt_missing *m)
{
	uint64_t pct = lost_share(m, 100);

	p = RT_FMT_LIT(p, "{\"events\":");
	p = rt_fmt_u64(p, m->events);
	p = RT_FMT_LIT(p, ",\"lost\":");
	p = rt_fmt_u64(p, rt_missing_lost(m));
	p = RT_FMT_LIT(p, ",\"lost_pct\":");
	p = rt_fmt_u64(p, pct / 100);
	*p++ = '.';
	p = rt_fmt_u64_zero(p, pct % 100, 2);
	for (size_t i = 0; i < NR_CAUSES; i++) {
		*p++ = ',';
		*p++ = '"';
		p = rt_fmt_lit(p, causes[i].json, strlen(causes[i].json));
		p = RT_FMT_LIT(p, "\":");
		p = rt_fmt_u64(p, count_of(m, &causes[i]));
	}
	p = RT_FMT_LIT(p, ",\"truncated\":");
	p = m->truncated ? RT_FMT_LIT(p, "true") : RT_FMT_LIT(p, "false");
	*p++ = '}';
	return p;
}
