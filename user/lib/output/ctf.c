// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* CTF 1.8 writer (see ctf.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ringtrace/ctf.h"
#include "ringtrace/funcs.h"
#include "ringtrace/output.h"
#include "ringtrace/perf_counters.h"

#define CTF_MAGIC		0xc1fc1fc1u
/* Packet header (magic, uuid, stream_id) + context (5 x u64, u32). */
#define PACKET_HEADER_LEN	(4 + 16 + 4)
#define PACKET_LEN		(PACKET_HEADER_LEN + 5 * 8 + 4)
/* Offsets of the context fields filled when a packet is closed. */
#define OFF_TS_END		(PACKET_HEADER_LEN + 8)
#define OFF_CONTENT		(PACKET_HEADER_LEN + 16)
#define OFF_PACKET		(PACKET_HEADER_LEN + 24)
#define OFF_DISCARDED		(PACKET_HEADER_LEN + 32)

/*
 * Event class ids (the metadata's order; new classes are appended), then
 * the described functions' classes: EV_FUNC_CLASS + func_idx.
 */
enum { EV_VFS_READ, EV_LOCK, EV_SAMPLE, EV_COUNTERS, EV_OFFCPU, EV_FUNC,
       EV_FUNC_CLASS };

/*
 * Room past packet_max for one event: a lock record with two full stacks
 * and a cgroup path, a counters row of RT_COUNTERS_MAX counters, a sample with its printed
 * frames or a vfs_read with a path and a cgroup path of RT_PATH_MAX each
 * are all far below this.
 */
#define EVENT_MAX	(16u * 1024)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BYTE_ORDER_NAME	"le"
#else
#define BYTE_ORDER_NAME	"be"
#endif

/* Native-order writers: the metadata declares the host's byte order. */
static unsigned char *put(unsigned char *p, const void *v, size_t n)
{
	/* An empty stack has no frames pointer: memcpy(p, NULL, 0) is UB. */
	if (n)
		memcpy(p, v, n);
	return p + n;
}

static unsigned char *u8(unsigned char *p, uint8_t v) { return put(p, &v, 1); }
static unsigned char *u16(unsigned char *p, uint16_t v) { return put(p, &v, 2); }
static unsigned char *u32(unsigned char *p, uint32_t v) { return put(p, &v, 4); }
static unsigned char *u64(unsigned char *p, uint64_t v) { return put(p, &v, 8); }

/* A NUL-terminated string of at most @max bytes (cut there). */
static unsigned char *str(unsigned char *p, const char *s, size_t max)
{
	size_t n = s ? strnlen(s, max) : 0;

	if (n)
		memcpy(p, s, n);
	p[n] = 0;
	return p + n + 1;
}

void rt_ctf_env_here(struct rt_ctf_env *env)
{
	struct timespec mono, real;
	struct utsname u;

	memset(env, 0, sizeof(*env));
	if (!uname(&u)) {
		snprintf(env->hostname, sizeof(env->hostname), "%s", u.nodename);
		snprintf(env->kernel, sizeof(env->kernel), "%s", u.release);
	}
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	env->wall_offset_ns = (int64_t)(real.tv_sec - mono.tv_sec) * 1000000000 +
			      (real.tv_nsec - mono.tv_nsec);
}

/* parent/.base.ctf-XXXXXX for @dir: same filesystem, so rename works. */
static char *tmp_template(const char *dir)
{
	const char *slash = strrchr(dir, '/');
	const char *base = slash ? slash + 1 : dir;
	int plen = slash ? (int)(slash - dir + 1) : 0;
	size_t size = strlen(dir) + 32;
	char *t = malloc(size);

	if (t)
		snprintf(t, size, "%.*s.%s.ctf-XXXXXX", plen, dir, base);
	return t;
}

int rt_ctf_open(struct rt_ctf *c, const char *dir, size_t packet_max,
		const struct rt_ctf_env *env)
{
	size_t n = strlen(dir);
	struct stat st;

	memset(c, 0, sizeof(*c));
	if (!n)
		return -EINVAL;
	if (!lstat(dir, &st))
		return -EEXIST;
	c->packet_max = packet_max < RT_CTF_PACKET_MIN ? RT_CTF_PACKET_MIN :
							 packet_max;
	if (env)
		c->env = *env;
	else
		rt_ctf_env_here(&c->env);
	/* A trailing slash would hide the name in the template. */
	c->dir = strdup(dir);
	if (!c->dir)
		return -ENOMEM;
	while (n > 1 && c->dir[n - 1] == '/')
		c->dir[--n] = '\0';
	c->tmp = tmp_template(c->dir);
	if (!c->tmp) {
		free(c->dir);
		return -ENOMEM;
	}
	if (!mkdtemp(c->tmp)) {
		int err = -errno;

		free(c->tmp);
		free(c->dir);
		memset(c, 0, sizeof(*c));
		return err;
	}
	if (getrandom(c->uuid, sizeof(c->uuid), 0) != sizeof(c->uuid)) {
		/* No entropy source: still unique enough within a machine. */
		uint64_t t = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

		memcpy(c->uuid, &t, sizeof(t));
		memcpy(c->uuid + 8, &c, sizeof(void *));
	}
	c->uuid[6] = (c->uuid[6] & 0x0f) | 0x40;	/* version 4 */
	c->uuid[8] = (c->uuid[8] & 0x3f) | 0x80;	/* RFC 4122 variant */
	return 0;
}

static void fail(struct rt_ctf *c, int err)
{
	if (!c->error)
		c->error = err;
}

static struct rt_ctf_stream *new_stream(struct rt_ctf *c, uint32_t cpu)
{
	struct rt_ctf_stream *s = calloc(1, sizeof(*s));
	char path[PATH_MAX];

	if (!s)
		goto nomem;
	s->cpu_id = cpu;
	s->buf = malloc(c->packet_max + EVENT_MAX);
	if (!s->buf) {
		free(s);
		goto nomem;
	}
	if (cpu == RT_EVENT_CPU_ANY)
		snprintf(path, sizeof(path), "%s/stream_task", c->tmp);
	else
		snprintf(path, sizeof(path), "%s/stream_cpu%u", c->tmp, cpu);
	s->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (s->fd < 0) {
		fail(c, errno);
		free(s->buf);
		free(s);
		return NULL;
	}
	return s;
nomem:
	fail(c, ENOMEM);
	return NULL;
}

/* The stream of @cpu, created the first time (one allocation per CPU). */
static struct rt_ctf_stream *stream_of(struct rt_ctf *c, uint32_t cpu)
{
	struct rt_ctf_stream **grown;

	if (cpu == RT_EVENT_CPU_ANY) {
		if (!c->task)
			c->task = new_stream(c, cpu);
		return c->task;
	}
	if (cpu >= c->nr_cpus) {
		uint32_t nr = cpu + 1 < 64 ? 64 : cpu + 1;

		grown = realloc(c->cpus, nr * sizeof(*grown));
		if (!grown) {
			fail(c, ENOMEM);
			return NULL;
		}
		memset(grown + c->nr_cpus, 0, (nr - c->nr_cpus) * sizeof(*grown));
		c->cpus = grown;
		c->nr_cpus = nr;
	}
	if (!c->cpus[cpu])
		c->cpus[cpu] = new_stream(c, cpu);
	return c->cpus[cpu];
}

/* Header and context of a new packet; the end fields are filled later. */
static void packet_begin(struct rt_ctf *c, struct rt_ctf_stream *s,
			 uint64_t ts)
{
	unsigned char *p = s->buf;

	p = u32(p, CTF_MAGIC);
	p = put(p, c->uuid, sizeof(c->uuid));
	p = u32(p, 0);				/* stream_id */
	p = u64(p, ts);				/* timestamp_begin */
	p = u64(p, ts);				/* timestamp_end */
	p = u64(p, 0);				/* content_size */
	p = u64(p, 0);				/* packet_size */
	p = u64(p, s->discarded);		/* events_discarded */
	p = u32(p, s->cpu_id);
	s->len = (size_t)(p - s->buf);
	s->ts_begin = ts;
	s->ts_last = ts;
}

/* Close the open packet (content_size = packet_size: no padding). */
static void packet_end(struct rt_ctf *c, struct rt_ctf_stream *s)
{
	uint64_t bits = (uint64_t)s->len * 8;
	size_t done = 0;

	if (!s->len)
		return;
	memcpy(s->buf + OFF_TS_END, &s->ts_last, 8);
	memcpy(s->buf + OFF_CONTENT, &bits, 8);
	memcpy(s->buf + OFF_PACKET, &bits, 8);
	memcpy(s->buf + OFF_DISCARDED, &s->discarded, 8);
	while (!c->error && done < s->len) {
		ssize_t n = write(s->fd, s->buf + done, s->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fail(c, n < 0 ? errno : EIO);
		else
			done += (size_t)n;
	}
	s->discarded_written = s->discarded;
	s->len = 0;
	s->seq++;
	c->packets++;
}

/*
 * Start an event at @ts in @s, after the open packet's events (a packet
 * is opened if none is). Timestamps within a stream must not go back
 * (readers refuse that): an earlier one is raised to the last.
 */
static unsigned char *event_begin(struct rt_ctf *c, struct rt_ctf_stream *s,
				  uint16_t id, uint64_t *ts)
{
	unsigned char *p;

	if (s->len && *ts < s->ts_last) {
		c->reordered++;
		*ts = s->ts_last;
	}
	if (!s->len)
		packet_begin(c, s, *ts);
	p = s->buf + s->len;
	p = u16(p, id);
	return u64(p, *ts);
}

/*
 * The event written up to @end: when it takes the packet past packet_max
 * (and is not its first), the packet is closed without it and it moves
 * to a new one; the buffer has EVENT_MAX bytes of room past packet_max.
 */
static void event_end(struct rt_ctf *c, struct rt_ctf_stream *s,
		      unsigned char *end, uint64_t ts)
{
	size_t start = s->len, size = (size_t)(end - s->buf) - start;

	if (start > PACKET_LEN && start + size > c->packet_max) {
		packet_end(c, s);
		packet_begin(c, s, ts);
		memmove(s->buf + s->len, s->buf + start, size);
		start = s->len;
	}
	s->len = start + size;
	s->ts_last = ts;
	c->events++;
}

static unsigned char *task(unsigned char *p, const struct rt_event *ev)
{
	p = u32(p, ev->pid);
	p = u32(p, ev->tid);
	return str(p, ev->comm, sizeof(ev->comm) - 1);
}

/* uint16 count, then that many u64 frames (a sequence). */
static unsigned char *frames(unsigned char *p, const unsigned char *f,
			     uint16_t nr)
{
	if (nr > RINGTRACE_STACK_MAX_DEPTH)
		nr = RINGTRACE_STACK_MAX_DEPTH;
	p = u16(p, nr);
	return put(p, f, (size_t)nr * 8);
}

static unsigned char *stacks(unsigned char *p, const struct rt_stack *st)
{
	p = frames(p, st->kernel, st->nr_kernel);
	return frames(p, st->user, st->nr_user);
}

/*
 * host_pid, host_tid, cgroup_id and the cgroup's path, as
 * --json's keys; a record without them (no -e cgroup data, an older
 * module) gives 0, 0, 0 and "", as does an id no cgroup record named.
 */
static unsigned char *task_ext(const struct rt_ctf *c, unsigned char *p,
			       const struct rt_task_ext *x)
{
	const char *cgroup = NULL;

	if (x->present) {
		cgroup = x->cgroup;
		if (!cgroup)
			cgroup = rt_paths_get(c->paths, RT_PATHS_CGROUP_DEV,
					      RT_PATHS_CGROUP_DEV,
					      x->cgroup_id);
	}
	p = u32(p, x->present ? x->host_pid : 0);
	p = u32(p, x->present ? x->host_tid : 0);
	p = u64(p, x->present ? x->cgroup_id : 0);
	return str(p, cgroup, RT_PATH_MAX);
}

static unsigned char *vfs_read(const struct rt_ctf *c, unsigned char *p,
			       const struct rt_event *ev)
{
	const struct rt_vfs_read_event *r = &ev->u.vfs_read;
	const char *path = r->path;

	if (!path)
		path = rt_paths_get(c->paths, r->dev_major, r->dev_minor, r->ino);
	p = task(p, ev);
	p = u32(p, r->dev_major);
	p = u32(p, r->dev_minor);
	p = u64(p, r->ino);
	p = u64(p, (uint64_t)r->pos);
	p = u64(p, r->count);
	p = u64(p, (uint64_t)r->ret);
	p = u64(p, r->lat_ns);
	/* 0 when the session did not measure them (no offcpu). */
	p = u64(p, r->offcpu_known ? r->offcpu_ns : 0);
	p = u64(p, r->offcpu_known ? r->offcpu_max_ns : 0);
	p = u64(p, r->offcpu_known ? r->offcpu_max_ts : 0);
	p = str(p, path, RT_PATH_MAX);
	p = task_ext(c, p, &ev->ext);
	return stacks(p, &ev->stack);
}

static unsigned char *lock(const struct rt_ctf *c, unsigned char *p,
			   const struct rt_event *ev)
{
	const struct rt_lock_event *l = &ev->u.lock;

	p = task(p, ev);
	p = str(p, l->name, sizeof(l->name) - 1);
	p = u64(p, l->lock_id);
	p = u64(p, l->wait_ns);
	p = u64(p, l->hold_ns);
	p = u8(p, !!(l->flags & RINGTRACE_LOCK_CONTENDED));
	p = u8(p, !!(l->flags & RINGTRACE_LOCK_KERNEL));
	p = u8(p, !!(l->flags & RINGTRACE_LOCK_ID_HASHED));
	p = task_ext(c, p, &ev->ext);
	return stacks(p, &ev->stack);
}

/*
 * one off-CPU interval; the event's stream is the CPU it came
 * back on (cpu_in, also a field so that it reads as --json's "cpu").
 */
static unsigned char *offcpu(const struct rt_ctf *c, unsigned char *p,
			     const struct rt_event *ev)
{
	const struct rt_offcpu_event *o = &ev->u.offcpu;

	p = task(p, ev);
	p = u64(p, o->offcpu_ns);
	p = str(p, rt_offcpu_state_name(o->state), 8);
	p = u32(p, o->cpu_out);
	p = u32(p, ev->cpu);
	p = task_ext(c, p, &ev->ext);	/* as vfs_read and lock */
	return stacks(p, &ev->stack);
}

/*
 * One call of a traced kernel function: its name (as --json's "func"),
 * address, return value, latency, the raw arguments asked for.
 */
static unsigned char *func(const struct rt_ctf *c, unsigned char *p,
			   const struct rt_event *ev)
{
	const struct rt_func_event *f = &ev->u.func;
	char hex[RT_FUNC_LABEL_MAX];
	uint32_t nr = f->nr_args < RINGTRACE_FUNC_MAX_ARGS ? f->nr_args :
		      RINGTRACE_FUNC_MAX_ARGS;

	p = task(p, ev);
	p = str(p, rt_output_func_label(f->idx, f->ip, hex),
		RT_FUNC_LABEL_MAX - 1);
	p = u64(p, f->ip);
	p = u64(p, (uint64_t)f->ret);
	p = u64(p, f->lat_ns);
	p = u32(p, nr);
	for (uint32_t i = 0; i < nr; i++)
		p = u64(p, f->args[i]);
	p = task_ext(c, p, &ev->ext);	/* as vfs_read and lock */
	return stacks(p, &ev->stack);
}

/*
 * The class of a func record: its function's own where the session knew
 * its arguments (the first such record makes the class; *@nr: how many
 * of them the record has), else the generic EV_FUNC.
 */
static uint16_t func_class(struct rt_ctf *c, const struct rt_event *ev,
			   uint32_t *nr)
{
	const struct rt_func_arg_descs *d = rt_output_func_args(ev);
	const struct rt_func_event *f = &ev->u.func;
	struct rt_ctf_func_class *k;
	char hex[RT_FUNC_LABEL_MAX];

	*nr = f->nr_args < RINGTRACE_FUNC_MAX_ARGS ? f->nr_args :
	      RINGTRACE_FUNC_MAX_ARGS;
	if (!d || f->idx >= RINGTRACE_MAX_FUNCS)
		return EV_FUNC;
	if (d->nr_args < *nr)
		*nr = d->nr_args;
	if (!*nr)
		return EV_FUNC;
	if (!c->funcs) {
		c->funcs = calloc(RINGTRACE_MAX_FUNCS, sizeof(*c->funcs));
		if (!c->funcs)
			return EV_FUNC;
	}
	k = &c->funcs[f->idx];
	if (!k->nr_args) {
		k->nr_args = *nr;
		c->nr_func_classes++;
		if (c->func_classes_end <= f->idx)
			c->func_classes_end = f->idx + 1;
		snprintf(k->name, sizeof(k->name), "%s",
			 rt_output_func_label(f->idx, f->ip, hex));
		memcpy(k->arg, d->arg, *nr * sizeof(*d->arg));
	}
	return k->nr_args == *nr ? (uint16_t)(EV_FUNC_CLASS + f->idx) : EV_FUNC;
}

/*
 * After func()'s fields, the arguments by type: an integer in its size
 * (the register's bits past it are not its), a pointer as it is.
 */
static unsigned char *func_named(unsigned char *p, const struct rt_event *ev,
				 const struct rt_ctf_func_class *k)
{
	for (uint32_t i = 0; i < k->nr_args; i++) {
		uint64_t v = ev->u.func.args[i];

		if (rt_output_arg_is_hex(&k->arg[i]))
			p = u64(p, v);
		else if (k->arg[i].size == 1)
			p = u8(p, (uint8_t)v);
		else if (k->arg[i].size == 2)
			p = u16(p, (uint16_t)v);
		else if (k->arg[i].size == 4)
			p = u32(p, (uint32_t)v);
		else
			p = u64(p, v);
	}
	return p;
}

/* The call chain as --json prints it: markers skipped, at most 128. */
static unsigned char *sample(unsigned char *p, const struct rt_event *ev)
{
	const struct rt_sample_event *s = &ev->u.sample;
	unsigned char *count;
	uint16_t n = 0;
	uint32_t i = 0;
	uint64_t ip;

	p = task(p, ev);
	p = str(p, s->event ? s->event : "", 32);
	p = u64(p, s->ip);
	count = p;
	p += 2;
	while (s->frames && n < RT_SAMPLE_MAX_PRINTED_FRAMES &&
	       rt_sample_next_frame(s, &i, &ip)) {
		p = u64(p, ip);
		n++;
	}
	u16(count, n);
	return p;
}

static unsigned char *counters(unsigned char *p, const struct rt_event *ev)
{
	const struct rt_counters_event *c = &ev->u.counters;
	uint32_t nr = c->nr < RT_COUNTERS_MAX ? c->nr : RT_COUNTERS_MAX;

	p = u32(p, ev->cpu);	/* -1 (RT_EVENT_CPU_ANY): a process row */
	p = u32(p, (uint32_t)c->target_pid);
	p = u64(p, c->interval_ns);
	p = u32(p, nr);
	for (uint32_t i = 0; i < nr; i++) {
		const struct rt_counter_value *v = &c->values[i];

		p = str(p, c->names[i], RT_COUNTER_NAME_LEN);
		p = u8(p, v->status == RT_COUNTER_OK);
		p = u64(p, v->value);
		p = u64(p, v->enabled_ns);
		p = u64(p, v->running_ns);
	}
	return p;
}

/*
 * A loss: the records before it end their packet, the count is carried
 * by the next packet's events_discarded (or by an empty packet at the
 * end), so a reader places it between the events around the loss.
 */
static void lost(struct rt_ctf *c, const struct rt_event *ev)
{
	struct rt_ctf_stream *s = stream_of(c, ev->cpu);

	if (!s)
		return;
	packet_end(c, s);
	if (ev->ts_ns > s->ts_last)
		s->ts_last = ev->ts_ns;
	s->discarded += ev->u.lost.count;
	c->discarded += ev->u.lost.count;
}

void rt_ctf_add(struct rt_ctf *c, const struct rt_event *ev)
{
	struct rt_ctf_stream *s;
	unsigned char *p;
	uint32_t nr_named = 0;
	uint64_t ts;
	uint16_t id;

	if (c->error)
		return;
	switch (ev->kind) {
	case RT_EVENT_VFS_READ:
		id = EV_VFS_READ;
		break;
	case RT_EVENT_LOCK:
		id = EV_LOCK;
		break;
	case RT_EVENT_SAMPLE:
		id = EV_SAMPLE;
		break;
	case RT_EVENT_COUNTERS:
		id = EV_COUNTERS;
		break;
	case RT_EVENT_OFFCPU:
		id = EV_OFFCPU;
		break;
	case RT_EVENT_FUNC:
		id = func_class(c, ev, &nr_named);
		break;
	case RT_EVENT_LOST:
		lost(c, ev);
		return;
	default:
		return;
	}
	s = stream_of(c, ev->cpu);
	if (!s)
		return;
	ts = ev->ts_ns;
	p = event_begin(c, s, id, &ts);
	switch (id) {
	case EV_VFS_READ:
		p = vfs_read(c, p, ev);
		break;
	case EV_LOCK:
		p = lock(c, p, ev);
		break;
	case EV_OFFCPU:
		p = offcpu(c, p, ev);
		break;
	case EV_FUNC:
		p = func(c, p, ev);
		break;
	case EV_SAMPLE:
		p = sample(p, ev);
		break;
	case EV_COUNTERS:
		p = counters(p, ev);
		break;
	default:
		/* a described function's class: func's fields, then its own */
		p = func(c, p, ev);
		p = func_named(p, ev, &c->funcs[id - EV_FUNC_CLASS]);
		break;
	}
	event_end(c, s, p, ts);
}

/* @s escaped for a TSDL string literal ("..." with \" and \\). */
static void tsdl_string(char *dst, size_t size, const char *s)
{
	size_t o = 0;

	for (; *s && o + 3 < size; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			dst[o++] = '\\';
		dst[o++] = ch < 0x20 ? '?' : (char)ch;
	}
	dst[o] = '\0';
}

static const char tsdl_types[] =
"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
"typealias integer { size = 64; align = 8; signed = false; base = 16; } := hex64_t;\n";

/* What task() and stacks() write. */
#define TSDL_TASK \
	"\t\tuint32_t pid;\n" \
	"\t\tuint32_t tid;\n" \
	"\t\tstring comm;\n"
/* What task_ext() writes. */
#define TSDL_TASK_EXT \
	"\t\tuint32_t host_pid;\n" \
	"\t\tuint32_t host_tid;\n" \
	"\t\tuint64_t cgroup_id;\n" \
	"\t\tstring cgroup;\n"
#define TSDL_STACKS \
	"\t\tuint16_t nr_kstack;\n" \
	"\t\thex64_t kstack[nr_kstack];\n" \
	"\t\tuint16_t nr_ustack;\n" \
	"\t\thex64_t ustack[nr_ustack];\n"

/* What func() writes (a described function's class adds its own). */
#define TSDL_FUNC \
	TSDL_TASK \
	"\t\tstring func;\n" \
	"\t\thex64_t func_ip;\n" \
	"\t\tint64_t ret;\n" \
	"\t\tuint64_t lat_ns;\n" \
	"\t\tuint32_t nr_args;\n" \
	"\t\thex64_t args[nr_args];\n" \
	TSDL_TASK_EXT \
	TSDL_STACKS

static const char tsdl_streams[] =
"typealias integer { size = 64; align = 8; signed = false;\n"
"\tmap = clock.monotonic.value; } := clock_t;\n"
"\n"
"stream {\n"
"\tid = 0;\n"
"\tpacket.context := struct {\n"
"\t\tclock_t timestamp_begin;\n"
"\t\tclock_t timestamp_end;\n"
"\t\tuint64_t content_size;\n"
"\t\tuint64_t packet_size;\n"
"\t\tuint64_t events_discarded;\n"
"\t\tuint32_t cpu_id;\n"
"\t};\n"
"\tevent.header := struct {\n"
"\t\tuint16_t id;\n"
"\t\tclock_t timestamp;\n"
"\t};\n"
"};\n"
"\n"
"event {\n"
"\tname = \"vfs_read\";\n"
"\tid = 0;\n"
"\tstream_id = 0;\n"
"\tfields := struct {\n"
TSDL_TASK
"\t\tuint32_t dev_major;\n"
"\t\tuint32_t dev_minor;\n"
"\t\tuint64_t ino;\n"
"\t\tint64_t pos;\n"
"\t\tuint64_t count;\n"
"\t\tint64_t ret;\n"
"\t\tuint64_t lat_ns;\n"
"\t\tuint64_t offcpu_ns;\n"
"\t\tuint64_t offcpu_max_ns;\n"
"\t\tuint64_t offcpu_max_ts;\n"
"\t\tstring path;\n"
TSDL_TASK_EXT
TSDL_STACKS
"\t};\n"
"};\n"
"\n"
"event {\n"
"\tname = \"lock\";\n"
"\tid = 1;\n"
"\tstream_id = 0;\n"
"\tfields := struct {\n"
TSDL_TASK
"\t\tstring lock;\n"
"\t\thex64_t lock_id;\n"
"\t\tuint64_t wait_ns;\n"
"\t\tuint64_t hold_ns;\n"
"\t\tuint8_t contended;\n"
"\t\tuint8_t kernel;\n"
"\t\tuint8_t hashed;\n"
TSDL_TASK_EXT
TSDL_STACKS
"\t};\n"
"};\n"
"\n"
"event {\n"
"\tname = \"sample\";\n"
"\tid = 2;\n"
"\tstream_id = 0;\n"
"\tfields := struct {\n"
TSDL_TASK
"\t\tstring perf_event;\n"
"\t\thex64_t ip;\n"
"\t\tuint16_t nr_callchain;\n"
"\t\thex64_t callchain[nr_callchain];\n"
"\t};\n"
"};\n"
"\n"
"event {\n"
"\tname = \"counters\";\n"
"\tid = 3;\n"
"\tstream_id = 0;\n"
"\tfields := struct {\n"
"\t\tint32_t cpu;\n"
"\t\tint32_t pid;\n"
"\t\tuint64_t interval_ns;\n"
"\t\tuint32_t nr_values;\n"
"\t\tstruct {\n"
"\t\t\tstring name;\n"
"\t\t\tuint8_t ok;\n"
"\t\t\tuint64_t value;\n"
"\t\t\tuint64_t enabled_ns;\n"
"\t\t\tuint64_t running_ns;\n"
"\t\t} values[nr_values];\n"
"\t};\n"
"};\n"
"\n"
"event {\n"
"\tname = \"offcpu\";\n"
"\tid = 4;\n"
"\tstream_id = 0;\n"
"\tfields := struct {\n"
TSDL_TASK
"\t\tuint64_t offcpu_ns;\n"
"\t\tstring state;\n"
"\t\tuint32_t cpu_out;\n"
"\t\tuint32_t cpu_in;\n"
TSDL_TASK_EXT
TSDL_STACKS
"\t};\n"
"};\n"
"\n"
"event {\n"
"\tname = \"func\";\n"
"\tid = 5;\n"
"\tstream_id = 0;\n"
"\tfields := struct {\n"
TSDL_FUNC
"\t};\n"
"};\n";

/*
 * The event class of the function of func_idx @idx: "func:NAME" (a
 * tracepoint's "tp:SUBSYS:EVENT" as it is), func's fields, then its
 * arguments by key. A key is written with a leading underscore, which
 * readers take off (CTF 1.8 7.3.1): "_size" is "size" whatever TSDL's
 * keywords are.
 */
static int tsdl_func_class(char *buf, size_t size,
			   const struct rt_ctf_func_class *k, uint32_t idx)
{
	char name[2 * RINGTRACE_FUNC_NAME_LEN];
	char keys[RT_FUNC_ARG_DESCS][RT_OUTPUT_ARG_KEY_MAX];
	struct rt_func_arg_descs d = { .nr_args = k->nr_args };
	size_t o = 0;
	int n;

	memcpy(d.arg, k->arg, sizeof(d.arg));
	rt_output_arg_keys(&d, k->nr_args, keys);
	tsdl_string(name, sizeof(name), k->name);
	n = snprintf(buf, size, "\nevent {\n\tname = \"%s%s\";\n\tid = %u;\n"
		     "\tstream_id = 0;\n\tfields := struct {\n" TSDL_FUNC,
		     rt_func_name_is_tp(k->name) ? "" : "func:", name,
		     EV_FUNC_CLASS + idx);
	for (uint32_t i = 0; n >= 0 && i < k->nr_args; i++) {
		const struct rt_func_arg_desc *a = &k->arg[i];

		o += (size_t)n;
		if (o >= size)
			return -1;
		if (rt_output_arg_is_hex(a))
			n = snprintf(buf + o, size - o, "\t\thex64_t _%s;\n",
				     keys[i]);
		else
			n = snprintf(buf + o, size - o,
				     "\t\tinteger { size = %u; align = 8; "
				     "signed = %s; } _%s;\n", a->size * 8u,
				     a->is_signed ? "true" : "false", keys[i]);
	}
	if (n < 0)
		return -1;
	o += (size_t)n;
	if (o >= size)
		return -1;
	n = snprintf(buf + o, size - o, "\t};\n};\n");
	return n < 0 || o + (size_t)n >= size ? -1 : (int)(o + (size_t)n);
}

static void uuid_text(char out[37], const uint8_t u[16])
{
	static const char hex[] = "0123456789abcdef";
	int o = 0;

	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = hex[u[i] >> 4];
		out[o++] = hex[u[i] & 15];
	}
	out[o] = '\0';
}

int rt_ctf_metadata(const struct rt_ctf *c, char *buf, size_t size)
{
	char uuid[37], host[2 * sizeof(c->env.hostname)];
	char kernel[2 * sizeof(c->env.kernel)];
	char modver[2 * sizeof(c->env.module_version)];
	/* The clock's origin on the wall clock: the Unix epoch + offset. */
	int64_t off = c->env.wall_offset_ns;
	int64_t off_s = off / 1000000000, off_ns = off % 1000000000;
	int n;

	if (off_ns < 0) {
		off_ns += 1000000000;
		off_s--;
	}
	uuid_text(uuid, c->uuid);
	tsdl_string(host, sizeof(host), c->env.hostname);
	tsdl_string(kernel, sizeof(kernel), c->env.kernel);
	tsdl_string(modver, sizeof(modver), c->env.module_version);
	n = snprintf(buf, size,
		     "/* CTF 1.8 */\n"
		     "\n"
		     "%s"
		     "\n"
		     "trace {\n"
		     "\tmajor = 1;\n"
		     "\tminor = 8;\n"
		     "\tuuid = \"%s\";\n"
		     "\tbyte_order = " BYTE_ORDER_NAME ";\n"
		     "\tpacket.header := struct {\n"
		     "\t\tuint32_t magic;\n"
		     "\t\tuint8_t uuid[16];\n"
		     "\t\tuint32_t stream_id;\n"
		     "\t};\n"
		     "};\n"
		     "\n"
		     "env {\n"
		     "\tdomain = \"kernel\";\n"
		     "\tsysname = \"Linux\";\n"
		     "\thostname = \"%s\";\n"
		     "\tkernel_release = \"%s\";\n"
		     "\ttracer_name = \"ringtrace\";\n"
		     "\ttracer_version = \"%s\";\n"
		     "\tmodule_version = \"%s\";\n"
		     "};\n"
		     "\n"
		     "clock {\n"
		     "\tname = \"monotonic\";\n"
		     "\tuuid = \"%s\";\n"
		     "\tdescription = \"CLOCK_MONOTONIC\";\n"
		     "\tfreq = 1000000000;\n"
		     "\tprecision = 1;\n"
		     "\toffset_s = %" PRId64 ";\n"
		     "\toffset = %" PRId64 ";\n"
		     "\tabsolute = false;\n"
		     "};\n"
		     "\n"
		     "%s",
		     tsdl_types, uuid, host, kernel, RINGTRACE_VERSION, modver,
		     uuid, off_s, off_ns, tsdl_streams);
	if (n < 0 || (size_t)n >= size)
		return -1;
	for (uint32_t i = 0; c->funcs && i < c->func_classes_end; i++) {
		int m;

		if (!c->funcs[i].nr_args)
			continue;
		m = tsdl_func_class(buf + n, size - (size_t)n, &c->funcs[i], i);
		if (m < 0)
			return -1;
		n += m;
	}
	return n;
}

static int write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	size_t done = 0;
	int err = 0;

	if (fd < 0)
		return errno;
	while (!err && done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			err = n < 0 ? errno : EIO;
		else
			done += (size_t)n;
	}
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	return err;
}

/* Close @s, with an empty packet first if a loss came after its events. */
static void stream_finish(struct rt_ctf *c, struct rt_ctf_stream *s)
{
	if (!s)
		return;
	if (!s->len && s->discarded != s->discarded_written)
		packet_begin(c, s, s->ts_last);
	packet_end(c, s);
	if (!c->error && fsync(s->fd))
		fail(c, errno);
	if (close(s->fd))
		fail(c, errno);
	free(s->buf);
	free(s);
}

static void free_streams(struct rt_ctf *c, bool finish)
{
	for (uint32_t i = 0; i < c->nr_cpus; i++) {
		if (finish) {
			stream_finish(c, c->cpus[i]);
		} else if (c->cpus[i]) {
			close(c->cpus[i]->fd);
			free(c->cpus[i]->buf);
			free(c->cpus[i]);
		}
	}
	if (finish) {
		stream_finish(c, c->task);
	} else if (c->task) {
		close(c->task->fd);
		free(c->task->buf);
		free(c->task);
	}
	free(c->cpus);
	c->cpus = NULL;
	c->nr_cpus = 0;
	c->task = NULL;
}

/* Remove the hidden directory: only the files this writer puts there. */
static void remove_tmp(struct rt_ctf *c, uint32_t nr_cpus)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/metadata", c->tmp);
	unlink(path);
	snprintf(path, sizeof(path), "%s/stream_task", c->tmp);
	unlink(path);
	for (uint32_t i = 0; i < nr_cpus; i++) {
		snprintf(path, sizeof(path), "%s/stream_cpu%u", c->tmp, i);
		unlink(path);
	}
	rmdir(c->tmp);
}

static void release(struct rt_ctf *c)
{
	free(c->funcs);
	c->funcs = NULL;
	c->nr_func_classes = 0;
	c->func_classes_end = 0;
	free(c->tmp);
	free(c->dir);
	c->tmp = NULL;
	c->dir = NULL;
}

void rt_ctf_abort(struct rt_ctf *c)
{
	uint32_t nr = c->nr_cpus;

	if (!c->tmp)
		return;
	free_streams(c, false);
	remove_tmp(c, nr);
	release(c);
}

int rt_ctf_close(struct rt_ctf *c)
{
	uint32_t nr = c->nr_cpus;
	/* the generic classes, then at most 4 KiB per function's made */
	size_t size = 16384 + (size_t)c->nr_func_classes * 4096;
	char *meta, *slash;
	int n, fd;

	if (!c->tmp)
		return -EINVAL;
	free_streams(c, true);
	meta = malloc(size);
	if (!meta)
		fail(c, ENOMEM);
	if (!c->error) {
		char path[PATH_MAX];

		n = rt_ctf_metadata(c, meta, size);
		snprintf(path, sizeof(path), "%s/metadata", c->tmp);
		if (n < 0)
			fail(c, EOVERFLOW);
		else
			fail(c, write_file(path, meta, (size_t)n));
	}
	free(meta);
	/* mkdtemp() made it private; a trace is as readable as a file. */
	if (!c->error && chmod(c->tmp, 0755))
		fail(c, errno);
	if (!c->error && rename(c->tmp, c->dir))
		fail(c, errno);
	if (c->error) {
		int err = c->error;

		remove_tmp(c, nr);
		release(c);
		return -err;
	}
	/* The rename is durable once the parent directory is synced. */
	slash = strrchr(c->dir, '/');
	if (slash)
		*slash = '\0';
	fd = open(!slash ? "." : *c->dir ? c->dir : "/",
		  O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	release(c);
	return 0;
}
