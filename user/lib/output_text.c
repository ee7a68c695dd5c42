// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Text output: one line per record, columns like `perf script`:
 *
 *             comm     pid/tid     [cpu]  secs.nsecs: event: fields
 *             bash    1234/1234    [001]  8312.123456789: vfs_read: dev=8:1 ino=123 ...
 *
 * comm is right-aligned in 16 columns, pid right-aligned in 7, tid
 * left-aligned in 7, cpu zero-padded to 3 digits, seconds right-aligned in
 * 5 with 9 digits of nanoseconds. Durations are microseconds with 3
 * decimals (exact to the ns) and an "us" suffix. Records without a task
 * (LOST) print "-" for comm, pid and tid so the columns still line up.
 */
#include <stdbool.h>

#include "ringtrace/escape.h"
#include "ringtrace/output.h"

#define COMM_WIDTH	16
#define PID_WIDTH	7
#define TID_WIDTH	7
#define SECS_WIDTH	5

static char *prefix(char *p, const struct rt_event *ev, bool has_task)
{
	char comm[RINGTRACE_COMM_LEN * RT_TEXT_ESCAPE_MAX];
	size_t cols = 1, len = 1;

	if (has_task) {
		len = (size_t)(rt_text_escape(comm, ev->comm, sizeof(ev->comm),
					      &cols) - comm);
	} else {
		comm[0] = '-';
	}
	for (; cols < COMM_WIDTH; cols++)
		*p++ = ' ';
	p = rt_fmt_lit(p, comm, len);
	*p++ = ' ';
	if (has_task) {
		p = rt_fmt_u64_right(p, ev->pid, PID_WIDTH);
		*p++ = '/';
		p = rt_fmt_u64_left(p, ev->tid, TID_WIDTH);
	} else {
		p = RT_FMT_LIT(p, "      -/-      ");
	}
	p = RT_FMT_LIT(p, " [");
	p = ev->cpu < 1000 ? rt_fmt_u64_zero(p, ev->cpu, 3) :
			     rt_fmt_u64(p, ev->cpu);
	p = RT_FMT_LIT(p, "] ");
	p = rt_fmt_u64_right(p, ev->ts_ns / 1000000000u, SECS_WIDTH);
	*p++ = '.';
	p = rt_fmt_u64_zero(p, ev->ts_ns % 1000000000u, 9);
	return RT_FMT_LIT(p, ": ");
}

static char *vfs_read_fields(char *p, const struct rt_vfs_read_event *r)
{
	p = RT_FMT_LIT(p, "vfs_read: dev=");
	p = rt_fmt_u64(p, r->dev_major);
	*p++ = ':';
	p = rt_fmt_u64(p, r->dev_minor);
	p = RT_FMT_LIT(p, " ino=");
	p = rt_fmt_u64(p, r->ino);
	p = RT_FMT_LIT(p, " pos=");
	p = rt_fmt_i64(p, r->pos);
	p = RT_FMT_LIT(p, " count=");
	p = rt_fmt_u64(p, r->count);
	p = RT_FMT_LIT(p, " ret=");
	p = rt_fmt_i64(p, r->ret);
	p = RT_FMT_LIT(p, " lat=");
	p = rt_fmt_ns_as_us(p, r->lat_ns);
	return RT_FMT_LIT(p, "us");
}

static char *lock_fields(char *p, const struct rt_lock_event *l)
{
	p = RT_FMT_LIT(p, "lock: lock=");
	p = rt_text_escape(p, l->name, sizeof(l->name), NULL);
	p = RT_FMT_LIT(p, " lock_id=");
	p = rt_fmt_hex(p, l->lock_id);
	p = RT_FMT_LIT(p, " wait=");
	p = rt_fmt_ns_as_us(p, l->wait_ns);
	p = RT_FMT_LIT(p, "us hold=");
	p = rt_fmt_ns_as_us(p, l->hold_ns);
	p = RT_FMT_LIT(p, "us contended=");
	*p++ = (l->flags & RINGTRACE_LOCK_CONTENDED) ? '1' : '0';
	p = RT_FMT_LIT(p, " kernel=");
	*p++ = (l->flags & RINGTRACE_LOCK_KERNEL) ? '1' : '0';
	return p;
}

void rt_print_text(struct rt_outbuf *ob, const struct rt_event *ev)
{
	char *p;

	if (ev->kind != RT_EVENT_VFS_READ && ev->kind != RT_EVENT_LOCK &&
	    ev->kind != RT_EVENT_LOST)
		return;
	p = rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD);
	p = prefix(p, ev, ev->kind != RT_EVENT_LOST);
	switch (ev->kind) {
	case RT_EVENT_VFS_READ:
		p = vfs_read_fields(p, &ev->u.vfs_read);
		break;
	case RT_EVENT_LOCK:
		p = lock_fields(p, &ev->u.lock);
		break;
	default:
		p = RT_FMT_LIT(p, "lost: count=");
		p = rt_fmt_u64(p, ev->u.lost.count);
		break;
	}
	*p++ = '\n';
	rt_outbuf_commit(ob, p);
}
