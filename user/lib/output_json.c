// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * JSON output: one object per line, keys in a fixed order.
 *
 * vfs_read: type ts_ns cpu pid tid comm dev ino pos count ret lat_ns
 * lock:     type ts_ns cpu pid tid comm lock lock_id wait_ns hold_ns contended
 * lost:     type ts_ns cpu count
 *
 * Numbers are decimal integers (pos and ret may be negative); dev is the
 * string "MAJOR:MINOR"; contended is a boolean. Strings are escaped as
 * escape.h describes.
 */
#include "ringtrace/escape.h"
#include "ringtrace/output.h"

static char *common(char *p, const char *type, size_t type_len,
		    const struct rt_event *ev)
{
	p = RT_FMT_LIT(p, "{\"type\":\"");
	p = rt_fmt_lit(p, type, type_len);
	p = RT_FMT_LIT(p, "\",\"ts_ns\":");
	p = rt_fmt_u64(p, ev->ts_ns);
	p = RT_FMT_LIT(p, ",\"cpu\":");
	return rt_fmt_u64(p, ev->cpu);
}

static char *task(char *p, const struct rt_event *ev)
{
	p = RT_FMT_LIT(p, ",\"pid\":");
	p = rt_fmt_u64(p, ev->pid);
	p = RT_FMT_LIT(p, ",\"tid\":");
	p = rt_fmt_u64(p, ev->tid);
	p = RT_FMT_LIT(p, ",\"comm\":\"");
	p = rt_json_escape(p, ev->comm, sizeof(ev->comm));
	*p++ = '"';
	return p;
}

static char *vfs_read(char *p, const struct rt_event *ev)
{
	const struct rt_vfs_read_event *r = &ev->u.vfs_read;

	p = common(p, "vfs_read", 8, ev);
	p = task(p, ev);
	p = RT_FMT_LIT(p, ",\"dev\":\"");
	p = rt_fmt_u64(p, r->dev_major);
	*p++ = ':';
	p = rt_fmt_u64(p, r->dev_minor);
	p = RT_FMT_LIT(p, "\",\"ino\":");
	p = rt_fmt_u64(p, r->ino);
	p = RT_FMT_LIT(p, ",\"pos\":");
	p = rt_fmt_i64(p, r->pos);
	p = RT_FMT_LIT(p, ",\"count\":");
	p = rt_fmt_u64(p, r->count);
	p = RT_FMT_LIT(p, ",\"ret\":");
	p = rt_fmt_i64(p, r->ret);
	p = RT_FMT_LIT(p, ",\"lat_ns\":");
	return rt_fmt_u64(p, r->lat_ns);
}

static char *lock(char *p, const struct rt_event *ev)
{
	const struct rt_lock_event *l = &ev->u.lock;

	p = common(p, "lock", 4, ev);
	p = task(p, ev);
	p = RT_FMT_LIT(p, ",\"lock\":\"");
	p = rt_json_escape(p, l->name, sizeof(l->name));
	p = RT_FMT_LIT(p, "\",\"lock_id\":");
	p = rt_fmt_u64(p, l->lock_id);
	p = RT_FMT_LIT(p, ",\"wait_ns\":");
	p = rt_fmt_u64(p, l->wait_ns);
	p = RT_FMT_LIT(p, ",\"hold_ns\":");
	p = rt_fmt_u64(p, l->hold_ns);
	if (l->flags & RINGTRACE_LOCK_CONTENDED)
		return RT_FMT_LIT(p, ",\"contended\":true");
	return RT_FMT_LIT(p, ",\"contended\":false");
}

static char *lost(char *p, const struct rt_event *ev)
{
	p = common(p, "lost", 4, ev);
	p = RT_FMT_LIT(p, ",\"count\":");
	return rt_fmt_u64(p, ev->u.lost.count);
}

void rt_print_json(struct rt_outbuf *ob, const struct rt_event *ev)
{
	char *p;

	switch (ev->kind) {
	case RT_EVENT_VFS_READ:
		p = vfs_read(rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD), ev);
		break;
	case RT_EVENT_LOCK:
		p = lock(rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD), ev);
		break;
	case RT_EVENT_LOST:
		p = lost(rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD), ev);
		break;
	default:
		return;
	}
	*p++ = '}';
	*p++ = '\n';
	rt_outbuf_commit(ob, p);
}
