// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* --hist, --hist-by and --summary (see latency_view.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/escape.h"
#include "ringtrace/hash.h"
#include "ringtrace/latency_view.h"
#include "ringtrace/output.h"
#include "latency_view_names.h"

int rt_hist_by_parse(const char *s, enum rt_hist_by *by)
{
	if (!strcmp(s, "comm"))
		*by = RT_HIST_BY_COMM;
	else if (!strcmp(s, "pid"))
		*by = RT_HIST_BY_PID;
	else if (!strcmp(s, "file"))
		*by = RT_HIST_BY_FILE;
	else if (!strcmp(s, "cgroup"))
		*by = RT_HIST_BY_CGROUP;
	else
		return -1;
	return 0;
}

static int table_init(struct rt_view_table *t, uint32_t max, bool locks)
{
	t->max = max;
	t->entries = calloc(max + 1, sizeof(*t->entries));
	t->slots = calloc(RT_VIEW_SLOTS, sizeof(*t->slots));
	if (locks)
		t->locks = calloc(max + 1, sizeof(*t->locks));
	return t->entries && t->slots && (!locks || t->locks) ? 0 : -ENOMEM;
}

static void table_fini(struct rt_view_table *t)
{
	free(t->locks);
	free(t->entries);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static void func_hists_fini(struct rt_view_func_hists *h)
{
	free(h->pool);
	free(h->owner);
	free(h->slots);
	memset(h, 0, sizeof(*h));
}

static void func_hists_reset(struct rt_view_func_hists *h)
{
	if (h->slots)
		memset(h->slots, 0, h->nr_slots * sizeof(*h->slots));
	h->nr = 0;
}

static uint32_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (uint32_t)x;
}

/* @owner's histogram's index in the pool, or -1 and the free slot *@at. */
static int64_t func_hists_find(const struct rt_view_func_hists *h,
			       uint32_t owner, uint32_t *at)
{
	uint32_t mask = h->nr_slots - 1;

	if (!h->nr_slots)
		return -1;
	/* nr_slots >= 2 * cap: a free slot always ends the probe. */
	for (uint32_t s = hash64(owner) & mask;; s = (s + 1) & mask) {
		uint32_t i = h->slots[s];

		if (!i) {
			if (at)
				*at = s;
			return -1;
		}
		if (h->owner[i - 1] == owner)
			return i - 1;
	}
}

/* Twice the room, every histogram hashed again. 0 or -ENOMEM. */
static int func_hists_grow(struct rt_view_func_hists *h)
{
	uint32_t cap = h->cap ? 2 * h->cap : 16;
	uint32_t nr_slots = 2 * cap, mask = nr_slots - 1;
	struct rt_hist *pool;
	uint32_t *owner, *slots;

	pool = realloc(h->pool, cap * sizeof(*pool));
	if (!pool)
		return -ENOMEM;
	h->pool = pool;
	owner = realloc(h->owner, cap * sizeof(*owner));
	if (!owner)
		return -ENOMEM;
	h->owner = owner;
	slots = calloc(nr_slots, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	free(h->slots);
	h->slots = slots;
	h->nr_slots = nr_slots;
	h->cap = cap;
	for (uint32_t i = 0; i < h->nr; i++) {
		uint32_t s = hash64(owner[i]) & mask;

		while (slots[s])
			s = (s + 1) & mask;
		slots[s] = i + 1;
	}
	return 0;
}

/* @owner's histogram, new (zeroed) if it had none; NULL: no memory. */
static struct rt_hist *func_hists_get(struct rt_view_func_hists *h,
				      uint32_t owner)
{
	uint32_t at = 0;
	int64_t i = func_hists_find(h, owner, &at);

	if (i >= 0)
		return &h->pool[i];
	if (h->nr == h->cap) {
		if (func_hists_grow(h))
			return NULL;
		func_hists_find(h, owner, &at);
	}
	memset(&h->pool[h->nr], 0, sizeof(h->pool[0]));
	h->owner[h->nr] = owner;
	h->slots[at] = ++h->nr;
	return &h->pool[h->nr - 1];
}

/* Whose histograms (struct rt_view_func_hists): @l's, for function @slot. */
static uint32_t func_owner(const struct rt_latency_view *v,
			   const struct rt_view_locks *l, uint32_t slot)
{
	uint32_t n = l == &v->total_locks ? 0 :
		     (uint32_t)(l - v->keyed.locks) + 1;

	return n * RINGTRACE_MAX_FUNCS + slot;
}

const struct rt_hist *rt_view_func_hist(const struct rt_latency_view *v,
					const struct rt_view_locks *l,
					uint32_t slot)
{
	int64_t i = func_hists_find(&v->func_hists, func_owner(v, l, slot),
				    NULL);

	return i < 0 ? NULL : &v->func_hists.pool[i];
}

int rt_latency_view_init(struct rt_latency_view *v)
{
	int ret = 0;

	_Static_assert((RT_VIEW_MAX_KEYS + 2ull) * RINGTRACE_MAX_FUNCS <=
		       UINT32_MAX, "func_owner() fits 32 bits");
	_Static_assert(!(RT_VIEW_FUNC_SLOTS & (RT_VIEW_FUNC_SLOTS - 1)),
		       "RT_VIEW_FUNC_SLOTS: a power of two");
	v->funcs = NULL;
	v->nr_funcs = 0;
	v->funcs_cap = 0;
	v->func_index = NULL;
	v->func_overflow = 0;
	memset(&v->func_hists, 0, sizeof(v->func_hists));

	memset(&v->total, 0, sizeof(v->total));
	memset(&v->total_locks, 0, sizeof(v->total_locks));
	memset(&v->keyed, 0, sizeof(v->keyed));
	memset(&v->rows, 0, sizeof(v->rows));
	if (v->hist && v->by != RT_HIST_BY_NONE)
		ret = table_init(&v->keyed, RT_VIEW_MAX_KEYS, true);
	if (!ret && v->summary)
		ret = table_init(&v->rows, RT_VIEW_MAX_ROWS, false);
	if (ret)
		rt_latency_view_fini(v);
	return ret;
}

void rt_latency_view_fini(struct rt_latency_view *v)
{
	table_fini(&v->keyed);
	table_fini(&v->rows);
	func_hists_fini(&v->func_hists);
	free(v->funcs);
	free(v->func_index);
	v->funcs = NULL;
	v->func_index = NULL;
	v->nr_funcs = 0;
	v->funcs_cap = 0;
}

static void table_reset(struct rt_view_table *t)
{
	if (!t->entries)
		return;
	/* Only what was used: entries up to nr, and [other]. */
	memset(t->entries, 0, t->nr * sizeof(*t->entries));
	memset(&t->entries[t->max], 0, sizeof(t->entries[t->max]));
	if (t->locks) {
		memset(t->locks, 0, t->nr * sizeof(*t->locks));
		memset(&t->locks[t->max], 0, sizeof(t->locks[t->max]));
	}
	memset(t->slots, 0, RT_VIEW_SLOTS * sizeof(*t->slots));
	t->nr = 0;
	t->overflow = 0;
}

void rt_latency_view_reset(struct rt_latency_view *v)
{
	memset(&v->total, 0, sizeof(v->total));
	memset(&v->total_locks, 0, sizeof(v->total_locks));
	table_reset(&v->keyed);
	table_reset(&v->rows);
	func_hists_reset(&v->func_hists);
	v->func_overflow = 0;
}

static uint64_t key_hash(const struct rt_view_key *k)
{
	return rt_fnv64(RT_FNV64_INIT, k, sizeof(*k));
}

/* The entry for @k: found, new, or [other] once the table is full. */
static struct rt_view_entry *lookup(struct rt_view_table *t,
				    const struct rt_view_key *k)
{
	uint32_t s = (uint32_t)key_hash(k) & (RT_VIEW_SLOTS - 1);
	struct rt_view_entry *e;

	for (;; s = (s + 1) & (RT_VIEW_SLOTS - 1)) {
		if (!t->slots[s])
			break;
		e = &t->entries[t->slots[s] - 1];
		if (!memcmp(&e->key, k, sizeof(*k)))
			return e;
	}
	/* max <= RT_VIEW_SLOTS / 2: a free slot always ends the probe. */
	if (t->nr >= t->max) {
		t->overflow++;
		return &t->entries[t->max];
	}
	e = &t->entries[t->nr];
	memcpy(&e->key, k, sizeof(*k));	/* padding included: compared with memcmp */
	t->slots[s] = ++t->nr;
	return e;
}

/*
 * @ev's function's slot: found by its address, new, or -1 once every
 * slot is taken (or no memory). Memory only for a function first seen.
 */
static int func_slot(struct rt_latency_view *v, const struct rt_event *ev)
{
	const struct rt_func_event *f = &ev->u.func;
	const uint32_t mask = RT_VIEW_FUNC_SLOTS - 1;
	uint32_t s;

	if (!v->func_index) {
		v->func_index = calloc(RT_VIEW_FUNC_SLOTS,
				       sizeof(*v->func_index));
		if (!v->func_index)
			return -1;
	}
	/* At most half the slots taken: a free one ends the probe. */
	for (s = hash64(f->ip) & mask; v->func_index[s]; s = (s + 1) & mask)
		if (v->funcs[v->func_index[s] - 1].ip == f->ip)
			return (int)v->func_index[s] - 1;
	if (v->nr_funcs >= RINGTRACE_MAX_FUNCS)
		return -1;
	if (v->nr_funcs == v->funcs_cap) {
		uint32_t cap = v->funcs_cap ? 2 * v->funcs_cap : 16;
		struct rt_view_func *funcs = realloc(v->funcs,
						     cap * sizeof(*funcs));

		if (!funcs)
			return -1;
		v->funcs = funcs;
		v->funcs_cap = cap;
	}
	v->funcs[v->nr_funcs].ip = f->ip;
	v->funcs[v->nr_funcs].idx = f->idx;
	v->func_index[s] = ++v->nr_funcs;
	return (int)v->nr_funcs - 1;
}

const char *rt_view_func_name(const struct rt_latency_view *v, uint32_t slot,
			      char *buf)
{
	return rt_output_func_label(v->funcs[slot].idx, v->funcs[slot].ip, buf);
}

/* Most total time first; ties: first seen first. */
static int by_func_time(const void *a, const void *b, void *arg)
{
	const struct rt_latency_view *v = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t tx = rt_view_func_hist(v, &v->total_locks, x)->sum;
	uint64_t ty = rt_view_func_hist(v, &v->total_locks, y)->sum;

	if (tx != ty)
		return tx < ty ? 1 : -1;
	return x < y ? -1 : x > y;
}

uint32_t rt_view_funcs_sorted(const struct rt_latency_view *v,
			      uint32_t order[RINGTRACE_MAX_FUNCS])
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < v->nr_funcs; i++) {
		const struct rt_hist *h = rt_view_func_hist(v, &v->total_locks,
							    i);

		if (h && h->n)
			order[n++] = i;
	}
	qsort_r(order, n, sizeof(*order), by_func_time, (void *)v);
	return n;
}

/* @slot: the function of a func event (func_slot()), else unused. */
static void key_of(const struct rt_event *ev, enum rt_hist_by by, int slot,
		   struct rt_view_key *k)
{
	memset(k, 0, sizeof(*k));
	switch (by) {
	case RT_HIST_BY_NONE:
		break;
	case RT_HIST_BY_COMM:
		memcpy(k->name, ev->comm, sizeof(ev->comm));
		break;
	case RT_HIST_BY_PID:
		k->pid = ev->pid;
		break;
	case RT_HIST_BY_CGROUP:
		k->cgroup_id = ev->ext.cgroup_id;
		break;
	case RT_HIST_BY_FILE:
		if (ev->kind == RT_EVENT_FUNC) {
			/* no file; one key per function. */
			k->is_lock = 3;
			k->ino = (uint64_t)slot;
		} else if (ev->kind == RT_EVENT_OFFCPU) {
			/* no file; one key per state left in. */
			k->is_lock = 2;
			snprintf(k->name, sizeof(k->name), "offcpu %s",
				 rt_offcpu_state_name(ev->u.offcpu.state));
		} else if (ev->kind == RT_EVENT_LOCK) {
			k->is_lock = 1;
			memcpy(k->name, ev->u.lock.name, sizeof(k->name));
		} else {
			k->dev_major = ev->u.vfs_read.dev_major;
			k->dev_minor = ev->u.vfs_read.dev_minor;
			k->ino = ev->u.vfs_read.ino;
		}
		break;
	}
}

static void account(struct rt_latency_view *v, struct rt_view_entry *e,
		    struct rt_view_locks *l, const struct rt_event *ev,
		    int slot)
{
	memcpy(e->comm, ev->comm, sizeof(e->comm));
	if (ev->kind == RT_EVENT_VFS_READ) {
		const struct rt_vfs_read_event *r = &ev->u.vfs_read;

		rt_hist_add(&e->read, r->lat_ns);
		if (r->offcpu_known) {
			e->read_offcpu += r->offcpu_ns;
			e->read_offcpu_n++;
		}
		if (r->ret > 0)
			e->bytes += (uint64_t)r->ret;
		else if (r->ret < 0)
			e->errors++;
	} else if (l && ev->kind == RT_EVENT_OFFCPU) {
		rt_hist_add(&l->offcpu, ev->u.offcpu.offcpu_ns);
	} else if (l && ev->kind == RT_EVENT_FUNC) {
		struct rt_hist *h = func_hists_get(&v->func_hists,
						   func_owner(v, l,
							      (uint32_t)slot));

		if (!h) {
			v->func_overflow++;	/* no memory */
			return;
		}
		rt_hist_add(h, ev->u.func.lat_ns);
		l->func_n++;
		l->func_sum += ev->u.func.lat_ns;
	} else if (l && ev->kind == RT_EVENT_LOCK) {
		rt_hist_add(&l->wait, ev->u.lock.wait_ns);
		/* Kernel contention records know no hold time. */
		if (!(ev->u.lock.flags & RINGTRACE_LOCK_KERNEL))
			rt_hist_add(&l->hold, ev->u.lock.hold_ns);
	}
}

void rt_latency_view_add(struct rt_latency_view *v, const struct rt_event *ev)
{
	struct rt_view_key k;
	int slot = -1;

	if (ev->kind != RT_EVENT_VFS_READ && ev->kind != RT_EVENT_LOCK &&
	    ev->kind != RT_EVENT_OFFCPU && ev->kind != RT_EVENT_FUNC)
		return;
	if (ev->kind == RT_EVENT_FUNC) {
		slot = func_slot(v, ev);
		if (slot < 0) {
			v->func_overflow++;
			return;
		}
	}
	v->cgroups |= ev->ext.present;
	account(v, &v->total, &v->total_locks, ev, slot);
	if (v->keyed.entries) {
		struct rt_view_entry *e;

		key_of(ev, v->by, slot, &k);
		e = lookup(&v->keyed, &k);
		account(v, e, &v->keyed.locks[e - v->keyed.entries], ev, slot);
	}
	if (v->rows.entries && ev->kind == RT_EVENT_VFS_READ) {
		key_of(ev, RT_HIST_BY_FILE, slot, &k);
		k.pid = ev->pid;
		k.cgroup_id = ev->ext.cgroup_id;
		account(v, lookup(&v->rows, &k), NULL, ev, slot);
	}
}

/* A name escaped as the text stream escapes it: a row stays one line. */
#define NAME_MAX_ESCAPED	(RT_PATH_MAX * RT_TEXT_ESCAPE_MAX + 1)

const char *rt_view_file_name(const struct rt_latency_view *v,
			      const struct rt_view_key *k, char *buf,
			      size_t len)
{
	const char *p = rt_paths_get(v->paths, k->dev_major, k->dev_minor,
				     k->ino);

	if (p)
		return p;
	snprintf(buf, len, "%u:%u ino %llu", k->dev_major, k->dev_minor,
		 (unsigned long long)k->ino);
	return buf;
}

const char *rt_view_cgroup_name(const struct rt_latency_view *v, uint64_t id,
				char *buf, size_t len)
{
	const char *p;

	if (!id)
		return "-";
	p = rt_paths_get(v->paths, RT_PATHS_CGROUP_DEV, RT_PATHS_CGROUP_DEV, id);
	if (p)
		return p;
	snprintf(buf, len, "#%llu", (unsigned long long)id);
	return buf;
}

static bool named_file(const struct rt_latency_view *v,
		       const struct rt_view_key *k)
{
	return rt_paths_get(v->paths, k->dev_major, k->dev_minor, k->ino);
}

static bool named_cgroup(const struct rt_latency_view *v, uint64_t id)
{
	return !id || rt_paths_get(v->paths, RT_PATHS_CGROUP_DEV,
				   RT_PATHS_CGROUP_DEV, id);
}

/* Calls of the view's functions counted in @l. */
static uint64_t func_calls(const struct rt_view_locks *l)
{
	return l->func_n;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void rt_latency_view_unnamed(const struct rt_latency_view *v,
			     uint64_t *files, uint64_t *cgroups)
{
	const struct rt_view_table *t = &v->keyed;
	uint64_t f = 0, c = 0;

	*files = 0;
	*cgroups = 0;
	if (v->summary && v->rows.entries) {
		for (uint32_t i = 0; i < v->rows.nr; i++) {
			const struct rt_view_entry *e = &v->rows.entries[i];

			f += named_file(v, &e->key) ? 0 : e->read.n;
			c += v->cgroups && !named_cgroup(v, e->key.cgroup_id) ?
			     e->read.n : 0;
		}
	}
	*files = f;
	*cgroups = c;
	if (!t->entries || (v->by != RT_HIST_BY_FILE &&
			    v->by != RT_HIST_BY_CGROUP))
		return;
	f = 0;
	c = 0;
	for (uint32_t i = 0; i < t->nr; i++) {
		const struct rt_view_entry *e = &t->entries[i];
		const struct rt_view_locks *l = &t->locks[i];

		if (v->by == RT_HIST_BY_FILE && !e->key.is_lock &&
		    !named_file(v, &e->key))
			f += e->read.n;
		if (v->by == RT_HIST_BY_CGROUP &&
		    !named_cgroup(v, e->key.cgroup_id))
			c += e->read.n + l->wait.n + l->offcpu.n +
			     func_calls(l);
	}
	*files = max_u64(*files, f);
	*cgroups = max_u64(*cgroups, c);
}

/*
 * @name for the text views: a path, a cgroup (anyone can put a newline
 * in them) escaped into @esc (NAME_MAX_ESCAPED bytes). JSON escapes its
 * own (latency_view_json.c).
 */
static const char *text_name(const char *name, char *esc)
{
	*rt_text_escape(esc, name, RT_PATH_MAX, NULL) = '\0';
	return esc;
}

static void print_entry_hists(const struct rt_latency_view *v,
			      struct rt_outbuf *ob, const struct rt_view_entry *e,
			      const struct rt_view_locks *l)
{
	char hex[RT_FUNC_LABEL_MAX];
	char esc[RT_FUNC_LABEL_MAX * RT_TEXT_ESCAPE_MAX + 1];

	if (e->read.n) {
		rt_outbuf_printf(ob, " vfs_read latency\n");
		rt_hist_print(ob, &e->read, "nsecs");
	}
	if (l && l->wait.n) {
		rt_outbuf_printf(ob, " lock wait\n");
		rt_hist_print(ob, &l->wait, "nsecs");
	}
	if (l && l->hold.n) {
		rt_outbuf_printf(ob, " lock hold\n");
		rt_hist_print(ob, &l->hold, "nsecs");
	}
	if (l && l->offcpu.n) {
		rt_outbuf_printf(ob, " off CPU\n");
		rt_hist_print(ob, &l->offcpu, "nsecs");
	}
	for (uint32_t i = 0; l && l->func_n && i < v->nr_funcs; i++) {
		const struct rt_hist *h = rt_view_func_hist(v, l, i);

		if (!h || !h->n)
			continue;
		*rt_text_escape(esc, rt_view_func_name(v, i, hex),
				RT_FUNC_LABEL_MAX, NULL) = '\0';
		rt_outbuf_printf(ob, " func %s latency\n", esc);
		rt_hist_print(ob, h, "nsecs");
	}
}

/* Sorting needs the lock times of keyed entries: the table being sorted. */
static const struct rt_view_table *sort_table;

static uint64_t time_spent(const struct rt_view_entry *e)
{
	const struct rt_view_table *t = sort_table;
	const struct rt_view_locks *l;
	uint64_t sum = e->read.sum;

	if (!t || !t->locks)
		return sum;
	l = &t->locks[e - t->entries];
	return sum + l->wait.sum + l->offcpu.sum + l->func_sum;
}

static int by_time(const void *a, const void *b)
{
	const struct rt_view_entry *x = *(const struct rt_view_entry *const *)a;
	const struct rt_view_entry *y = *(const struct rt_view_entry *const *)b;
	uint64_t tx = time_spent(x), ty = time_spent(y);

	if (tx != ty)
		return tx < ty ? 1 : -1;
	return memcmp(&x->key, &y->key, sizeof(x->key));
}

const struct rt_view_entry **rt_view_sorted(const struct rt_view_table *t,
					    uint32_t *n)
{
	const struct rt_view_entry **list = calloc(t->nr + 2, sizeof(*list));

	*n = 0;
	if (!list)
		return NULL;
	for (uint32_t i = 0; i < t->nr; i++)
		list[(*n)++] = &t->entries[i];
	sort_table = t;
	qsort(list, *n, sizeof(*list), by_time);
	sort_table = NULL;
	if (t->overflow)
		list[(*n)++] = &t->entries[t->max];
	return list;
}

static void print_keyed(struct rt_latency_view *v, struct rt_outbuf *ob)
{
	const struct rt_view_entry **list;
	char name[64], path[NAME_MAX_ESCAPED];
	char esc[RT_FUNC_LABEL_MAX * RT_TEXT_ESCAPE_MAX + 1];
	uint32_t n;

	list = rt_view_sorted(&v->keyed, &n);
	if (!list)
		return;
	for (uint32_t i = 0; i < n; i++) {
		const struct rt_view_entry *e = list[i];

		if (e == &v->keyed.entries[v->keyed.max]) {
			rt_outbuf_printf(ob, "\n@[other] (the table holds %u keys; "
					 "%llu events beyond)\n", v->keyed.max,
					 (unsigned long long)v->keyed.overflow);
		} else if (v->by == RT_HIST_BY_CGROUP) {
			rt_outbuf_printf(ob, "\n@[cgroup %s]\n",
					 text_name(rt_view_cgroup_name(v,
						   e->key.cgroup_id, name,
						   sizeof(name)), path));
		} else if (v->by == RT_HIST_BY_PID) {
			*rt_text_escape(esc, e->comm, sizeof(e->comm), NULL) = '\0';
			rt_outbuf_printf(ob, "\n@[pid %u, %s]\n", e->key.pid, esc);
		} else if (e->key.is_lock == 3) {
			*rt_text_escape(esc, rt_view_func_name(v,
					(uint32_t)e->key.ino, name),
					RT_FUNC_LABEL_MAX, NULL) = '\0';
			rt_outbuf_printf(ob, "\n@[func %s]\n", esc);
		} else if (v->by == RT_HIST_BY_COMM || e->key.is_lock) {
			*rt_text_escape(esc, e->key.name, sizeof(e->key.name),
					NULL) = '\0';
			rt_outbuf_printf(ob, "\n@[%s%s]\n", e->key.is_lock == 1 ?
					 "lock " : "", esc);
		} else {
			rt_outbuf_printf(ob, "\n@[%s]\n",
					 text_name(rt_view_file_name(v, &e->key,
						   name, sizeof(name)), path));
		}
		print_entry_hists(v, ob, e,
				  &v->keyed.locks[e - v->keyed.entries]);
	}
	free(list);
}

/*
 * The per-process and file table of vfs_reads; a line saying there were
 * none in its place when no vfs_read was kept (a recording of locks
 * only, or -e lock): a header over no rows looked like a broken table.
 * Whether it printed percentiles.
 */
static bool print_summary(struct rt_latency_view *v, struct rt_outbuf *ob)
{
	const struct rt_view_entry **list;
	char comm[RINGTRACE_COMM_LEN * RT_TEXT_ESCAPE_MAX + 1];
	char name[64], path[NAME_MAX_ESCAPED], cg[64], cg_path[NAME_MAX_ESCAPED];
	char tot[32], p50[32], p99[32], max[32], off[40], tot_off[32];
	/* only when some read's off-CPU time was measured. */
	bool offcpu_col = v->total.read_offcpu_n > 0;
	uint32_t n;

	list = rt_view_sorted(&v->rows, &n);
	if (!list)
		return false;
	if (!n) {
		free(list);
		/* func calls alone have their table (print_funcs()). */
		if (!func_calls(&v->total_locks))
			rt_outbuf_printf(ob, "\n(no vfs_read records: no "
					 "per-file table)\n");
		return false;
	}
	rt_outbuf_printf(ob, "\n%-16s %7s %9s %12s %10s %10s %10s %10s%s  %s%s\n",
			 "COMM", "PID", "CALLS", "BYTES", "TOTAL", "P50", "P99",
			 "MAX", offcpu_col ? "     OFFCPU" : "",
			 v->cgroups ? "CGROUP                  " : "", "FILE");
	for (uint32_t i = 0; i < n; i++) {
		const struct rt_view_entry *e = list[i];
		bool other = e == &v->rows.entries[v->rows.max];

		if (v->top && i == v->top && !other) {
			rt_outbuf_printf(ob, "... %u more rows (-v shows them all)\n",
					 n - i - (v->rows.overflow ? 1 : 0));
			break;
		}
		*rt_text_escape(comm, other ? "[other]" : e->comm,
				sizeof(e->comm), NULL) = '\0';
		off[0] = '\0';
		if (offcpu_col)
			snprintf(off, sizeof(off), " %10s",
				 rt_fmt_duration(tot_off, sizeof(tot_off),
						 e->read_offcpu));
		rt_outbuf_printf(ob, "%-16s %7u %9llu %12llu %10s %10s %10s %10s%s  ",
				 comm, other ? 0 : e->key.pid,
				 (unsigned long long)e->read.n,
				 (unsigned long long)e->bytes,
				 rt_fmt_duration(tot, sizeof(tot), e->read.sum),
				 rt_fmt_duration(p50, sizeof(p50),
						 rt_hist_percentile(&e->read, 500)),
				 rt_fmt_duration(p99, sizeof(p99),
						 rt_hist_percentile(&e->read, 990)),
				 rt_fmt_duration(max, sizeof(max), e->read.max),
				 off);
		/* where the records say which cgroup. */
		if (v->cgroups)
			rt_outbuf_printf(ob, "%-23s ", other ? "-" :
					 text_name(rt_view_cgroup_name(v,
						   e->key.cgroup_id, cg,
						   sizeof(cg)), cg_path));
		rt_outbuf_printf(ob, "%s\n", other ? "(table full)" :
				 text_name(rt_view_file_name(v, &e->key, name,
							     sizeof(name)),
					   path));
	}
	free(list);
	return true;
}

/*
 * The calls of each function (-e func:NAME), most time first; whether it
 * printed a row (and so percentiles).
 */
static bool print_funcs(struct rt_latency_view *v, struct rt_outbuf *ob)
{
	char esc[RT_FUNC_LABEL_MAX * RT_TEXT_ESCAPE_MAX + 1];
	char tot[32], p50[32], p99[32], max[32], hex[RT_FUNC_LABEL_MAX];
	uint32_t order[RINGTRACE_MAX_FUNCS];
	uint32_t n = rt_view_funcs_sorted(v, order);

	if (!n)
		return false;
	rt_outbuf_printf(ob, "\n%-32s %9s %10s %10s %10s %10s\n", "FUNCTION",
			 "CALLS", "TOTAL", "P50", "P99", "MAX");
	for (uint32_t i = 0; i < n; i++) {
		const struct rt_hist *h = rt_view_func_hist(v, &v->total_locks,
							    order[i]);

		*rt_text_escape(esc, rt_view_func_name(v, order[i], hex),
				RT_FUNC_LABEL_MAX, NULL) = '\0';
		rt_outbuf_printf(ob, "%-32s %9llu %10s %10s %10s %10s\n", esc,
				 (unsigned long long)h->n,
				 rt_fmt_duration(tot, sizeof(tot), h->sum),
				 rt_fmt_duration(p50, sizeof(p50),
						 rt_hist_percentile(h, 500)),
				 rt_fmt_duration(p99, sizeof(p99),
						 rt_hist_percentile(h, 990)),
				 rt_fmt_duration(max, sizeof(max), h->max));
	}
	return true;
}

void rt_latency_view_print(struct rt_latency_view *v, struct rt_outbuf *ob)
{
	bool any = v->total.read.n || v->total_locks.wait.n ||
		   v->total_locks.hold.n || v->total_locks.offcpu.n ||
		   func_calls(&v->total_locks);
	bool percentiles = v->hist && any;

	if (v->hist) {
		rt_outbuf_printf(ob, "@[all]\n");
		print_entry_hists(v, ob, &v->total, &v->total_locks);
		if (!any)
			rt_outbuf_printf(ob, "  (no %s events)\n", v->kinds ?
					 v->kinds : "vfs_read, lock or offcpu");
		if (v->keyed.entries)
			print_keyed(v, ob);
	}
	if (v->summary && print_summary(v, ob))
		percentiles = true;
	if (v->summary && print_funcs(v, ob))
		percentiles = true;
	/* Only under percentiles that were printed. */
	if (percentiles)
		rt_outbuf_printf(ob, "\n(percentiles are the upper bound of a "
				 "histogram bucket: at most 12.5%% above the "
				 "true value; max is exact)\n");
}
