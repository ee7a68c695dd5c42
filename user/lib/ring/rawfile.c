// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Reading a raw file (format in rawfile.h). The file is mapped, its chunks
 * are indexed per CPU, and each CPU becomes an rt_source whose ring is the
 * current chunk: the same cursor, with the same size validation, that
 * reads live rings. A chunk never wraps (the "ring" is the next power of
 * two above its size and head is its size), so no bounce buffer is needed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "ringtrace/btf.h"
#include "ringtrace/counter_source.h"
#include "ringtrace/cpuset.h"
#include "ringtrace/perf_events.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/sys.h"

#define NO_CHUNK	UINT32_MAX

/* Never written to: chunks do not wrap (see above). */
static unsigned char no_bounce[8];

static int raw_error(struct rt_raw_file *f, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int raw_error(struct rt_raw_file *f, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->errmsg, sizeof(f->errmsg), fmt, ap);
	va_end(ap);
	return -err;
}

static uint64_t pow2_at_least(uint64_t v)
{
	uint64_t p = RINGTRACE_RECORD_ALIGN;

	while (p < v)
		p <<= 1;
	return p;
}

/* Point @src's ring at chunk @idx (or at nothing), ready to peek. */
static void load_chunk(struct rt_source *src, uint32_t idx)
{
	struct rt_raw_cursor *cur = src->ctx;
	const struct rt_raw_chunk_ref *c;
	static const unsigned char empty[8];

	cur->tail = 0;
	if (idx == NO_CHUNK) {
		cur->head = 0;
		rt_ring_init(&src->ring, &cur->head, &cur->tail, empty,
			     sizeof(empty), no_bounce, 0);
		return;
	}
	c = &cur->file->chunks[idx];
	cur->cur = idx;
	cur->head = c->size;
	cur->next = c->next;
	rt_ring_init(&src->ring, &cur->head, &cur->tail,
		     cur->file->map + c->offset, pow2_at_least(c->size),
		     no_bounce, 0);
	rt_ring_refresh(&src->ring, NULL);
}

static int raw_refill(struct rt_source *src)
{
	struct rt_raw_cursor *cur = src->ctx;

	if (cur->next == NO_CHUNK)
		return RT_RING_EMPTY;
	load_chunk(src, cur->next);
	return RT_RING_OK;
}

/* Whole records at the start of @p (a chunk cut short by the file's end). */
static uint64_t whole_records(const unsigned char *p, uint64_t len)
{
	struct ringtrace_event_header h;
	uint64_t pos = 0;

	while (len - pos >= sizeof(h)) {
		memcpy(&h, p + pos, sizeof(h));
		if (h.size < sizeof(h) || h.size % RINGTRACE_RECORD_ALIGN ||
		    h.size > len - pos)
			break;
		pos += h.size;
	}
	return pos;
}

static int check_header(struct rt_raw_file *f, const char *path)
{
	struct rt_raw_header h;

	/* Not damage: nothing was ever written (a run that failed first). */
	if (!f->len)
		return raw_error(f, ENODATA, "%s is empty: it holds no "
				 "recording", path);
	if (f->len < sizeof(h.magic) ||
	    memcmp(f->map, RT_RAW_MAGIC, sizeof(h.magic)))
		return raw_error(f, EINVAL, "%s is not a ringtrace raw file",
				 path);
	if (f->len < offsetof(struct rt_raw_header, events))
		return raw_error(f, EINVAL, "%s is truncated: %zu bytes, not "
				 "even a whole header", path, f->len);
	memset(&h, 0, sizeof(h));
	memcpy(&h, f->map, offsetof(struct rt_raw_header, events));
	if (h.endian != RT_RAW_ENDIAN)
		return raw_error(f, EINVAL, "%s was written on a machine of the "
				 "other byte order", path);
	if (h.format_version < RT_RAW_FORMAT_VERSION ||
	    h.format_version > RT_RAW_FORMAT_THREADS)
		return raw_error(f, EINVAL, "%s has raw format version %u; these "
				 "tools read versions %u to %u", path,
				 h.format_version, RT_RAW_FORMAT_VERSION,
				 RT_RAW_FORMAT_THREADS);
	if (h.header_size >= offsetof(struct rt_raw_header, events) &&
	    !(h.header_size % 8) && h.header_size > f->len)
		return raw_error(f, EINVAL, "%s is truncated: %zu bytes, shorter "
				 "than its %u-byte header", path, f->len,
				 h.header_size);
	if (h.header_size < offsetof(struct rt_raw_header, events) ||
	    h.header_size % 8)
		return raw_error(f, EINVAL, "%s: bad header size %u", path,
				 h.header_size);
	memcpy(&f->hdr, f->map, h.header_size < sizeof(h) ? h.header_size :
							     sizeof(h));
	f->hdr.module_version[sizeof(f->hdr.module_version) - 1] = '\0';
	f->hdr.cmdline[sizeof(f->hdr.cmdline) - 1] = '\0';
	f->hdr.machine[sizeof(f->hdr.machine) - 1] = '\0';
	return 0;
}

/* Chunks of @cpu are chained in file order through chunk_ref.next. */
struct chain {
	uint32_t	first;
	uint32_t	last;
};

/*
 * The streams of records a file holds, each a chain per CPU; and the
 * rings of threads (version 3), a chain per thread, in the order their
 * first chunk comes.
 */
enum { STREAM_RING, STREAM_PERF, STREAM_COUNTERS, NR_STREAMS,
       STREAM_THREAD = NR_STREAMS };

struct chains {
	struct chain	cpu[NR_STREAMS * RT_MAX_CPUS];
	struct chain	thread[RT_RAW_MAX_THREADS];
	uint32_t	tid[RT_RAW_MAX_THREADS];
	uint32_t	nr_threads;
};

static int stream_of(uint32_t kind)
{
	switch (kind) {
	case RT_RAW_CHUNK_RECORDS:		return STREAM_RING;
	case RT_RAW_CHUNK_PERF_RECORDS:		return STREAM_PERF;
	case RT_RAW_CHUNK_COUNTERS:		return STREAM_COUNTERS;
	case RT_RAW_CHUNK_THREAD_RECORDS:	return STREAM_THREAD;
	}
	return -1;
}

static bool thread_kind(uint32_t kind)
{
	return kind == RT_RAW_CHUNK_THREAD_RECORDS ||
	       kind == RT_RAW_CHUNK_THREAD_PENDING;
}

/* A chunk header's id is a CPU, or for a thread's chunk a thread id. */
static bool chunk_id_valid(const struct rt_raw_chunk *c)
{
	if (thread_kind(c->kind))
		return c->tid && c->tid < RT_RAW_MAX_TID;
	return c->cpu < RT_MAX_CPUS;
}

/* A version 2 descriptor chunk: checked, kept for the decoders. */
static int read_descriptor(struct rt_raw_file *f, const char *path,
			   const struct rt_raw_chunk *c, uint64_t off)
{
	unsigned long long at = (unsigned long long)(off - sizeof(*c));
	const unsigned char *p = f->map + off;

	if (c->kind == RT_RAW_CHUNK_PERF_FORMAT) {
		struct rt_raw_perf_format *pf = &f->perf_desc;

		if (f->has_perf_format || c->size != sizeof(*pf))
			return raw_error(f, EINVAL, "corrupt raw file %s: perf "
					 "format chunk at offset %llu: %s", path,
					 at, f->has_perf_format ? "a second one" :
					 "wrong size");
		memcpy(pf, p, sizeof(*pf));
		pf->event[sizeof(pf->event) - 1] = '\0';
		if (rt_perf_format_init(&f->perf_fmt, pf->sample_type,
					pf->sample_id_all != 0, pf->event))
			return raw_error(f, EINVAL, "corrupt raw file %s: perf "
					 "format chunk at offset %llu: sample "
					 "type %#llx cannot be decoded", path,
					 at, (unsigned long long)pf->sample_type);
		f->has_perf_format = true;
		return 0;
	}
	/* RT_RAW_CHUNK_COUNTER_NAMES */
	if (f->has_counter_names || c->size != sizeof(f->counter_names))
		return raw_error(f, EINVAL, "corrupt raw file %s: counter names "
				 "chunk at offset %llu: %s", path, at,
				 f->has_counter_names ? "a second one" :
				 "wrong size");
	memcpy(&f->counter_names, p, sizeof(f->counter_names));
	if (!f->counter_names.nr ||
	    f->counter_names.nr > RT_RAW_MAX_COUNTERS)
		return raw_error(f, EINVAL, "corrupt raw file %s: counter names "
				 "chunk at offset %llu: %u counters", path, at,
				 f->counter_names.nr);
	for (uint32_t i = 0; i < f->counter_names.nr; i++) {
		f->counter_names.name[i][RT_RAW_NAME_LEN - 1] = '\0';
		f->counter_name_ptrs[i] = f->counter_names.name[i];
	}
	f->has_counter_names = true;
	return 0;
}

/* Names of threads that existed before the run, for the perf samples. */
static int read_comms(struct rt_raw_file *f, const char *path,
		      const struct rt_raw_chunk *c, uint64_t off)
{
	struct rt_raw_comm rc;

	if (c->size % sizeof(rc))
		return raw_error(f, EINVAL, "corrupt raw file %s: thread names "
				 "chunk at offset %llu: size %llu", path,
				 (unsigned long long)(off - sizeof(*c)),
				 (unsigned long long)c->size);
	if (!f->comms) {
		f->comms = malloc(sizeof(*f->comms));
		if (!f->comms)
			return raw_error(f, ENOMEM, "out of memory");
		rt_comm_cache_init(f->comms);
	}
	for (uint64_t at = 0; at < c->size; at += sizeof(rc)) {
		memcpy(&rc, f->map + off + at, sizeof(rc));
		rc.comm[sizeof(rc.comm) - 1] = '\0';
		rt_comm_set(f->comms, rc.tid, rc.comm);
	}
	return 0;
}

/*
 * Whether a valid chunk header could start at @off: a kind this reader
 * knows, a CPU in range, a size that fits, and a payload that agrees with
 * its kind (records chunks made of whole records). Then the header after
 * it must at least look like one, or be the file's end. Used only after
 * damage, to find where the file is readable again.
 */
static bool plausible_header(const struct rt_raw_file *f, uint64_t off,
			     struct rt_raw_chunk *c)
{
	if (f->len - off < sizeof(*c))
		return false;
	memcpy(c, f->map + off, sizeof(*c));
	return c->kind >= RT_RAW_CHUNK_RECORDS &&
	       c->kind <= RT_RAW_CHUNK_FUNC_FAST_READ && chunk_id_valid(c) &&
	       !(c->size % 8) &&
	       c->size <= f->len - off - sizeof(*c);
}

static bool plausible_chunk(const struct rt_raw_file *f, uint64_t off)
{
	const unsigned char *p = f->map + off + sizeof(struct rt_raw_chunk);
	struct rt_raw_chunk c, next;
	uint64_t end;

	if (!plausible_header(f, off, &c))
		return false;
	end = off + sizeof(c) + c.size;
	if (end < f->len && !plausible_header(f, end, &next))
		return false;
	switch (c.kind) {
	case RT_RAW_CHUNK_RECORDS:
	case RT_RAW_CHUNK_PERF_RECORDS:
	case RT_RAW_CHUNK_COUNTERS:
	case RT_RAW_CHUNK_THREAD_RECORDS:
		return c.size && whole_records(p, c.size) == c.size;
	case RT_RAW_CHUNK_PENDING:
	case RT_RAW_CHUNK_THREAD_PENDING:
	case RT_RAW_CHUNK_FUNC_MISSED:
	case RT_RAW_CHUNK_OFFCPU_MISSED:
	case RT_RAW_CHUNK_FUNC_FAST_READ:
		return c.size == sizeof(uint64_t);
	case RT_RAW_CHUNK_PERF_FORMAT:
		return c.size == sizeof(struct rt_raw_perf_format);
	case RT_RAW_CHUNK_COUNTER_NAMES:
		return c.size == sizeof(struct rt_raw_counter_names);
	case RT_RAW_CHUNK_COMMS:
		return c.size && !(c.size % sizeof(struct rt_raw_comm));
	case RT_RAW_CHUNK_KSYMS:
		return c.size >= sizeof(struct rt_raw_ksyms_head);
	case RT_RAW_CHUNK_FUNC_NAMES:
		return c.size && !(c.size % RINGTRACE_FUNC_NAME_LEN) &&
		       c.size <= (uint64_t)RINGTRACE_MAX_FUNCS *
				 RINGTRACE_FUNC_NAME_LEN;
	case RT_RAW_CHUNK_FUNC_ARGS:
		return c.size &&
		       !(c.size % sizeof(struct rt_func_arg_descs)) &&
		       c.size <= (uint64_t)RINGTRACE_MAX_FUNCS *
				 sizeof(struct rt_func_arg_descs);
	}
	return c.size != 0;		/* MAPS, MOUNTS: checked when read */
}

/*
 * Note damage at @off, of what @where says ("chunk header", "record of
 * CPU 1"), the @skipped bytes after it, and @resume, the chunk header
 * where reading went on (0: nowhere, the damage runs to the end).
 */
static void note_damage(struct rt_raw_file *f, const char *where, uint64_t off,
			uint64_t skipped, uint64_t resume, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void note_damage(struct rt_raw_file *f, const char *where, uint64_t off,
			uint64_t skipped, uint64_t resume, const char *fmt, ...)
{
	va_list ap;

	if (f->nr_damage < RT_RAW_MAX_DAMAGE) {
		struct rt_raw_damage *d = &f->damage[f->nr_damage];

		d->offset = off;
		d->skipped = skipped;
		d->resume = resume;
		d->to_end = !resume;
		/* "chunk header", "function names chunk": not a record */
		d->record = !strstr(where, "chunk");
		snprintf(d->where, sizeof(d->where), "%s", where);
		va_start(ap, fmt);
		vsnprintf(d->what, sizeof(d->what), fmt, ap);
		va_end(ap);
	}
	f->nr_damage++;
	f->damaged_bytes += skipped;
}

/* A ring error's words, with the size that caused it where it is one. */
static void ring_error_words(const struct rt_ring *r, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s", rt_ring_strerror(r->error));

	if (n < 0 || (size_t)n >= len)
		return;
	switch (r->error) {
	case RT_RING_ERR_SIZE_SHORT:
	case RT_RING_ERR_SIZE_UNALIGNED:
	case RT_RING_ERR_SIZE_TRUNCATED:
	case RT_RING_ERR_SIZE_TOO_BIG:
		snprintf(buf + n, len - (size_t)n, " (size %llu)",
			 (unsigned long long)r->error_value);
		break;
	}
}

/* "record of CPU 1", "perf record of thread 1234"... */
static void record_of(const struct rt_source *src, char *buf, size_t len)
{
	const char *what = src->raw_kind == RT_RAW_CHUNK_PERF_RECORDS ?
			   "perf " : src->raw_kind == RT_RAW_CHUNK_COUNTERS ?
			   "counters " : "";

	snprintf(buf, len, "%srecord of %s %u", what,
		 src->tid ? "thread" : "CPU", src->tid ? src->tid : src->cpu);
}

/*
 * A damaged record in the chunk being read (a size of 0, or one that
 * runs past the chunk, or that put the next header inside a record): the
 * records before it were read. The chunk's records after it cannot be
 * found (a record says where the next starts, and nothing else does), but
 * the ring's next chunk starts where its header says: note the damage,
 * skip the rest of this chunk, and go on there, as a damaged chunk
 * header does.
 */
static int raw_recover(struct rt_source *src)
{
	struct rt_raw_cursor *cur = src->ctx;
	struct rt_raw_file *f = cur->file;
	const struct rt_raw_chunk_ref *c = &f->chunks[cur->cur];
	const struct rt_ring *r = &src->ring;
	uint64_t at = c->offset + r->error_pos, resume = 0;
	char where[40], why[80];

	if (cur->next != NO_CHUNK)
		resume = f->chunks[cur->next].offset - sizeof(struct rt_raw_chunk);
	record_of(src, where, sizeof(where));
	ring_error_words(r, why, sizeof(why));
	note_damage(f, where, at, c->size - r->error_pos, resume, "%s", why);
	if (cur->next == NO_CHUNK) {
		load_chunk(src, NO_CHUNK);
		return RT_RING_EMPTY;
	}
	load_chunk(src, cur->next);
	return RT_RING_OK;
}

/*
 * The chunk header at @off is damaged: return where reading resumes, the
 * next offset (8-aligned, as every chunk is) where a valid chunk starts,
 * or the file's end. What lies between is skipped (the caller notes it).
 */
static uint64_t next_valid_chunk(const struct rt_raw_file *f, uint64_t off)
{
	uint64_t next = off + sizeof(struct rt_raw_chunk);

	while (next < f->len && !plausible_chunk(f, next))
		next += 8;
	return next < f->len ? next : f->len;
}

/*
 * The per-function tables (FUNC_NAMES, FUNC_ARGS): @each bytes per traced
 * function, by func_idx. Each is checked whole, as it is used whole: a
 * replay that named func records, or printed their arguments, from a
 * table cut or shifted would mislead, where the fallbacks (the
 * recording's symbols, hex arguments) do not.
 */
struct func_table {
	const char	*chunk;		/* in the damage note */
	const char	*entry;		/* "name", "entry" */
	const char	*entries;	/* "names", "entries" */
	size_t		each;
	/*
	 * What is wrong with entry @p, said after "<entry> <index>" (in
	 * @buf, @len bytes, if it must be written); NULL: nothing.
	 */
	const char	*(*wrong)(const unsigned char *p, char *buf, size_t len);
};

static const char *func_name_wrong(const unsigned char *p, char *buf,
				   size_t len)
{
	const char *name = (const char *)p;

	(void)buf;	/* every answer is a constant */
	(void)len;

	if (!memchr(name, '\0', RINGTRACE_FUNC_NAME_LEN))
		return " is not NUL-terminated";
	return *name ? NULL : " is empty";
}

/* What is wrong with argument @a (of an entry's first nr_args); NULL: nothing. */
static const char *func_arg_wrong(const struct rt_func_arg_desc *a)
{
	const char *end = memchr(a->name, '\0', sizeof(a->name));

	if (!end)
		return "a name not NUL-terminated";
	if (end == a->name)
		return "an empty name";
	for (const char *c = a->name; c < end; c++)
		if (!rt_ident_char((unsigned char)*c))
			return "a name not a C identifier";
	if (!rt_func_arg_size_ok(a->size))
		return "a size not 1, 2, 4 or 8";
	if (a->is_ptr > 1 || a->is_signed > 1 || (a->is_ptr && a->size != 8))
		return "a type neither integer nor pointer";
	return NULL;
}

static const char *func_args_wrong(const unsigned char *p, char *buf,
				   size_t len)
{
	struct rt_func_arg_descs d;

	memcpy(&d, p, sizeof(d));
	if (d.nr_args > RT_FUNC_ARG_DESCS) {
		snprintf(buf, len, " has %u arguments, more than %u",
			 d.nr_args, RT_FUNC_ARG_DESCS);
		return buf;
	}
	for (uint32_t j = 0; j < d.nr_args; j++) {
		const char *wrong = func_arg_wrong(&d.arg[j]);

		if (wrong) {
			snprintf(buf, len, ", argument %u: %s", j, wrong);
			return buf;
		}
	}
	return NULL;
}

static const struct func_table func_names_table = {
	.chunk	= "function names chunk",
	.entry	= "name",
	.entries = "names",
	.each	= RINGTRACE_FUNC_NAME_LEN,
	.wrong	= func_name_wrong,
};

static const struct func_table func_args_table = {
	.chunk	= "function arguments chunk",
	.entry	= "entry",
	.entries = "entries",
	.each	= sizeof(struct rt_func_arg_descs),
	.wrong	= func_args_wrong,
};

/* What is wrong with table @t's chunk of @size bytes at @p, in @why. */
static bool func_table_valid(const struct func_table *t,
			     const unsigned char *p, uint64_t size,
			     char *why, size_t len)
{
	uint64_t nr = size / t->each;

	if (size % t->each) {
		snprintf(why, len, "size %llu, not a multiple of %zu",
			 (unsigned long long)size, t->each);
		return false;
	}
	if (!nr || nr > RINGTRACE_MAX_FUNCS) {
		snprintf(why, len, "%llu %s, not 1 to %u",
			 (unsigned long long)nr, t->entries,
			 RINGTRACE_MAX_FUNCS);
		return false;
	}
	for (uint64_t i = 0; i < nr; i++) {
		char buf[64];
		const char *wrong = t->wrong(p + i * t->each, buf,
					     sizeof(buf));

		if (wrong) {
			snprintf(why, len, "%s %llu%s", t->entry,
				 (unsigned long long)i, wrong);
			return false;
		}
	}
	return true;
}

/*
 * Table @t's chunk of @c->size bytes at @off: the first valid one is kept
 * (*@table, *@nr entries); a damaged one is noted as damage (the file was
 * not read whole) and skipped, as a damaged chunk header's payload is:
 * func records are then printed as without it. 0, or -ENOMEM.
 */
static int read_func_table(struct rt_raw_file *f, const struct rt_raw_chunk *c,
			   uint64_t off, const struct func_table *t,
			   void **table, uint32_t *nr)
{
	char why[160];

	if (!func_table_valid(t, f->map + off, c->size, why, sizeof(why))) {
		uint64_t end = off + c->size;

		note_damage(f, t->chunk, off - sizeof(*c), sizeof(*c) + c->size,
			    end < f->len ? end : 0, "%s", why);
		return 0;
	}
	if (*table)
		return 0;
	*table = malloc(c->size);
	if (!*table)
		return -ENOMEM;
	memcpy(*table, f->map + off, c->size);
	*nr = (uint32_t)(c->size / t->each);
	return 0;
}

/* The chain of thread @tid's ring: found, or the next free one. */
static struct chain *thread_chain(struct chains *ch, uint32_t tid)
{
	uint32_t i;

	for (i = 0; i < ch->nr_threads && ch->tid[i] != tid; i++)
		;
	if (i == ch->nr_threads) {
		if (i == RT_RAW_MAX_THREADS)
			return NULL;
		ch->tid[ch->nr_threads++] = tid;
	}
	return &ch->thread[i];
}

static int index_chunks(struct rt_raw_file *f, const char *path,
			struct chains *chains)
{
	uint64_t off = f->hdr.header_size;
	bool v2 = f->hdr.format_version >= RT_RAW_FORMAT_SOURCES;
	bool v3 = f->hdr.format_version >= RT_RAW_FORMAT_THREADS;
	uint32_t cap = 0;

	while (off < f->len) {
		struct rt_raw_chunk c;
		uint64_t left, resume = 0;
		int stream;

		if (f->len - off < sizeof(c)) {
			/* Cut inside a chunk header. */
			f->truncated = true;
			f->truncated_at = off;
			f->truncated_missing = sizeof(c) - (f->len - off);
			f->truncated_bytes = f->len - off;
			break;
		}
		left = f->len - off - sizeof(c);
		memcpy(&c, f->map + off, sizeof(c));
		/*
		 * A damaged header: its size or CPU cannot be trusted, so
		 * neither can its payload. Skip to the next valid chunk; the
		 * records of every other chunk are still read.
		 */
		if (c.size % 8 || !chunk_id_valid(&c)) {
			uint64_t next = next_valid_chunk(f, off);

			uint64_t at = next < f->len ? next : 0;

			if (c.size % 8)
				note_damage(f, "chunk header", off, next - off,
					    at, "size %llu, not a multiple of 8",
					    (unsigned long long)c.size);
			else if (thread_kind(c.kind))
				note_damage(f, "chunk header", off, next - off,
					    at, "thread id %u, not one (1 to %u)",
					    c.tid, RT_RAW_MAX_TID - 1);
			else
				note_damage(f, "chunk header", off, next - off,
					    at, "CPU %u, more than %u", c.cpu,
					    RT_MAX_CPUS - 1);
			off = next;
			continue;
		}
		off += sizeof(c);
		/* Version 1 readers skipped the kinds of version 2: so do we. */
		stream = stream_of(c.kind);
		if ((!v2 && stream > STREAM_RING) ||
		    (!v3 && stream == STREAM_THREAD))
			stream = -1;
		if (c.size > left) {
			uint64_t keep = stream >= 0 ?
					whole_records(f->map + off, left) : 0;

			if (stream >= 0 && keep && keep < left &&
			    plausible_chunk(f, off + keep)) {
				/*
				 * Its records end where a valid chunk
				 * starts: the size is damaged, not the file
				 * cut. Keep the records, go on from there.
				 */
				resume = off + keep;
				note_damage(f, "chunk header", off - sizeof(c),
					    0, resume, "size %llu, more than the "
					    "%llu bytes left",
					    (unsigned long long)c.size,
					    (unsigned long long)left);
			} else {
				/* Stopped or cut mid-chunk: keep whole records. */
				f->truncated = true;
				f->truncated_at = off - sizeof(c);
				f->truncated_missing = c.size - left;
				f->truncated_kind = c.kind;
				f->truncated_bytes = left - keep;
			}
			c.size = keep;
		}
		/* Mount points: the first whole table; lines checked as read. */
		if (c.kind == RT_RAW_CHUNK_MOUNTS && !f->truncated &&
		    !f->mounts.text)
			rt_mounts_parse(&f->mounts,
					(const char *)f->map + off, c.size);
		/* The traced functions' names: a cut chunk is not used. */
		if (c.kind == RT_RAW_CHUNK_FUNC_NAMES && !f->truncated &&
		    read_func_table(f, &c, off, &func_names_table,
				    (void **)&f->func_names,
				    &f->nr_func_names))
			return raw_error(f, ENOMEM, "out of memory");
		if (c.kind == RT_RAW_CHUNK_FUNC_ARGS && !f->truncated &&
		    read_func_table(f, &c, off, &func_args_table,
				    (void **)&f->func_args, &f->nr_func_args))
			return raw_error(f, ENOMEM, "out of memory");
		/*
		 * Kernel symbols: what the file holds of the last chunk, cut
		 * or not; its entries are checked when read (rawksyms.c).
		 */
		if (c.kind == RT_RAW_CHUNK_KSYMS)
			f->ksyms = (struct rt_raw_chunk_ref){
				.offset = off, .size = f->truncated ? left :
							c.size,
				.next = NO_CHUNK,
			};
		if (v2 && !f->truncated &&
		    (c.kind == RT_RAW_CHUNK_PERF_FORMAT ||
		     c.kind == RT_RAW_CHUNK_COUNTER_NAMES)) {
			int ret = read_descriptor(f, path, &c, off);

			if (ret)
				return ret;
		}
		if (v2 && !f->truncated && c.kind == RT_RAW_CHUNK_COMMS) {
			int ret = read_comms(f, path, &c, off);

			if (ret)
				return ret;
		}
		if (c.kind == RT_RAW_CHUNK_MAPS && !f->truncated && c.size) {
			struct rt_raw_chunk_ref *n;

			n = realloc(f->maps, (f->nr_maps + 1) * sizeof(*n));
			if (!n)
				return raw_error(f, ENOMEM, "out of memory");
			f->maps = n;
			f->maps[f->nr_maps++] = (struct rt_raw_chunk_ref){
				.offset = off, .size = c.size, .next = NO_CHUNK,
			};
		}
		if ((stream == STREAM_PERF && !f->has_perf_format) ||
		    (stream == STREAM_COUNTERS && !f->has_counter_names))
			return raw_error(f, EINVAL, "corrupt raw file %s: %s chunk "
					 "at offset %llu comes before its "
					 "descriptor", path, stream == STREAM_PERF ?
					 "perf records" : "counters",
					 (unsigned long long)(off - sizeof(c)));
		if ((c.kind == RT_RAW_CHUNK_PENDING ||
		     (v3 && c.kind == RT_RAW_CHUNK_THREAD_PENDING)) &&
		    c.size >= sizeof(uint64_t)) {
			uint64_t lost;

			memcpy(&lost, f->map + off, sizeof(lost));
			f->pending_lost += lost;
		} else if (c.kind == RT_RAW_CHUNK_FUNC_MISSED &&
			   c.size >= sizeof(uint64_t)) {
			uint64_t missed;

			memcpy(&missed, f->map + off, sizeof(missed));
			f->func_missed += missed;
		} else if (c.kind == RT_RAW_CHUNK_OFFCPU_MISSED &&
			   c.size >= sizeof(uint64_t)) {
			uint64_t missed;

			memcpy(&missed, f->map + off, sizeof(missed));
			f->offcpu_missed += missed;
		} else if (c.kind == RT_RAW_CHUNK_FUNC_FAST_READ &&
			   c.size >= sizeof(uint64_t)) {
			uint64_t calls;

			memcpy(&calls, f->map + off, sizeof(calls));
			f->func_fast_read += calls;
			f->func_held = true;
		} else if (stream >= 0 && c.size) {
			struct chain *ch = stream == STREAM_THREAD ?
				thread_chain(chains, c.tid) :
				&chains->cpu[stream * RT_MAX_CPUS + c.cpu];

			if (!ch)
				return raw_error(f, EINVAL, "corrupt raw file "
						 "%s: chunk at offset %llu is of "
						 "a thread ring past the %u a "
						 "session can have", path,
						 (unsigned long long)(off -
								      sizeof(c)),
						 RT_RAW_MAX_THREADS);

			if (f->nr_chunks == cap) {
				struct rt_raw_chunk_ref *n;

				cap = cap ? cap * 2 : 256;
				n = realloc(f->chunks, cap * sizeof(*n));
				if (!n)
					return raw_error(f, ENOMEM, "out of memory");
				f->chunks = n;
			}
			f->chunks[f->nr_chunks] = (struct rt_raw_chunk_ref){
				.offset = off, .size = c.size, .next = NO_CHUNK,
			};
			if (ch->first == NO_CHUNK)
				ch->first = f->nr_chunks;
			else
				f->chunks[ch->last].next = f->nr_chunks;
			ch->last = f->nr_chunks++;
		}
		if (f->truncated)
			break;
		off = resume ? resume : off + c.size;
	}
	return 0;
}

/*
 * What was lost with the cut, by the kind of the chunk it fell in: part of
 * a record of a ring, or part of a chunk that holds no records (names,
 * maps, symbols), whose readable part each reader says about itself.
 */
static const char *cut_what(const struct rt_raw_file *f)
{
	switch (f->truncated_kind) {
	case 0:
		return "; it was cut inside its header";
	case RT_RAW_CHUNK_MAPS:
		return "; it holds memory maps, not records: they were "
		       "ignored";
	case RT_RAW_CHUNK_KSYMS:
		return "; it holds kernel symbols, not records";
	case RT_RAW_CHUNK_MOUNTS:
		return "; it holds the mount table, not records: it was "
		       "ignored";
	case RT_RAW_CHUNK_FUNC_NAMES:
		return "; it holds the names of the traced functions, not "
		       "records: they were ignored";
	case RT_RAW_CHUNK_FUNC_ARGS:
		return "; it says what the traced functions' arguments are, "
		       "not records: it was ignored";
	case RT_RAW_CHUNK_COMMS:
		return "; it holds thread names, not records: they were "
		       "ignored";
	case RT_RAW_CHUNK_FUNC_MISSED:
		return "; it holds the count of function calls the probes "
		       "missed, not records: it was ignored";
	case RT_RAW_CHUNK_OFFCPU_MISSED:
		return "; it holds the count of off-CPU intervals the module "
		       "could not follow, not records: it was ignored";
	case RT_RAW_CHUNK_FUNC_FAST_READ:
		return "; it holds the count of function calls left out with "
		       "reads faster than --min-latency, not records: it was "
		       "ignored";
	case RT_RAW_CHUNK_PERF_FORMAT:
	case RT_RAW_CHUNK_COUNTER_NAMES:
		return "; it describes the samples or counters that would "
		       "follow, and was ignored";
	default:
		return f->truncated_bytes ? "; the partial record at its end "
					    "was ignored" : "";
	}
}

bool rt_raw_report_damage(const struct rt_raw_file *f, FILE *fp,
			  const char *prog)
{
	uint32_t shown = f->nr_damage < RT_RAW_MAX_DAMAGE ? f->nr_damage :
							    RT_RAW_MAX_DAMAGE;

	for (uint32_t i = 0; i < shown; i++) {
		const struct rt_raw_damage *d = &f->damage[i];

		fprintf(fp, "%s: corrupt raw file %s: %s at offset %llu: %s; ",
			prog, f->path, d->where, (unsigned long long)d->offset,
			d->what);
		if (!d->skipped)
			fprintf(fp, "its whole records were read, then the "
				"chunk at offset %llu\n",
				(unsigned long long)d->resume);
		else if (d->record && d->to_end)
			fprintf(fp, "skipped the %llu bytes to the end of its "
				"chunk, its ring's last\n",
				(unsigned long long)d->skipped);
		else if (d->record)
			fprintf(fp, "skipped the %llu bytes to the end of its "
				"chunk, read on from its ring's next chunk at "
				"offset %llu\n", (unsigned long long)d->skipped,
				(unsigned long long)d->resume);
		else if (d->to_end)
			fprintf(fp, "skipped %llu bytes to the end of the "
				"file\n", (unsigned long long)d->skipped);
		else
			fprintf(fp, "skipped %llu bytes, read on from the "
				"chunk at offset %llu\n",
				(unsigned long long)d->skipped,
				(unsigned long long)d->resume);
	}
	if (f->nr_damage > shown)
		fprintf(fp, "%s: corrupt raw file %s: %u more damaged chunk "
			"headers or records; %llu bytes skipped in all\n", prog,
			f->path, f->nr_damage - shown,
			(unsigned long long)f->damaged_bytes);
	if (f->truncated)
		fprintf(fp, "%s: truncated raw file %s: the chunk at offset "
			"%llu needs %llu more bytes than the file holds%s\n",
			prog, f->path, (unsigned long long)f->truncated_at,
			(unsigned long long)f->truncated_missing,
			cut_what(f));
	return f->nr_damage || f->truncated;
}

static uint64_t raw_perf_ts(const struct rt_source *src,
			    const struct rt_record *rec)
{
	const struct rt_raw_cursor *cur = src->ctx;

	return rt_perf_record_ts(&cur->file->perf_fmt, rec->data, rec->size);
}

/* As live (perf_ring.c): COMM and FORK records name the samples that follow. */
static int raw_perf_decode(struct rt_source *src, const struct rt_record *rec,
			   struct rt_event *ev)
{
	struct rt_raw_file *f = ((struct rt_raw_cursor *)src->ctx)->file;
	int ret = rt_decode_perf(&f->perf_fmt, rec->data, rec->size, src->cpu,
				 ev);

	if (ret != RT_DECODE_OK)
		return ret;
	if (rt_comm_track(f->comms, ev))
		return RT_DECODE_SKIP;
	/* Mappings made during the run: the symboliser's, if it listens. */
	if (ev->kind == RT_EVENT_MMAP) {
		if (f->on_mmap)
			f->on_mmap(f->on_mmap_arg, ev);
		return RT_DECODE_SKIP;
	}
	return RT_DECODE_OK;
}

static int raw_counters_decode(struct rt_source *src,
			       const struct rt_record *rec, struct rt_event *ev)
{
	struct rt_raw_file *f = ((struct rt_raw_cursor *)src->ctx)->file;

	return rt_decode_counters(rec, f->counter_names.nr,
				  f->counter_name_ptrs, ev);
}

static void make_source(struct rt_raw_file *f, int stream, uint32_t cpu,
			uint32_t first)
{
	struct rt_source *src = &f->srcs[f->nr_srcs];

	/* A thread's ring, as the live session has it (session.c). */
	rt_source_init(src, stream == STREAM_THREAD ? RT_EVENT_CPU_ANY : cpu);
	if (stream == STREAM_THREAD)
		src->tid = cpu;
	src->refill = raw_refill;
	src->recover = raw_recover;
	src->ctx = &f->cursors[f->nr_srcs++];
	f->cursors[src - f->srcs].file = f;
	if (stream == STREAM_PERF) {
		src->timestamp = raw_perf_ts;
		src->decode = raw_perf_decode;
		src->label = "perf ring of";
		src->raw_kind = RT_RAW_CHUNK_PERF_RECORDS;
		f->nr_perf_srcs++;
	} else if (stream == STREAM_COUNTERS) {
		src->decode = raw_counters_decode;
		src->label = "counter snapshots, slot";
		src->raw_kind = RT_RAW_CHUNK_COUNTERS;
		f->nr_counter_srcs++;
	}
	load_chunk(src, first);
}

static int make_sources(struct rt_raw_file *f, const struct chains *chains)
{
	uint32_t n = chains->nr_threads;

	for (uint32_t i = 0; i < NR_STREAMS * RT_MAX_CPUS; i++)
		n += chains->cpu[i].first != NO_CHUNK;
	f->srcs = calloc(n ? n : 1, sizeof(*f->srcs));
	f->cursors = calloc(n ? n : 1, sizeof(*f->cursors));
	if (!f->srcs || !f->cursors)
		return raw_error(f, ENOMEM, "out of memory");
	if (f->has_perf_format && !f->comms) {
		f->comms = malloc(sizeof(*f->comms));
		if (!f->comms)
			return raw_error(f, ENOMEM, "out of memory");
		rt_comm_cache_init(f->comms);
	}
	/* ringtrace's rings (CPUs', then threads'), perf's, the counters */
	for (int stream = 0; stream < NR_STREAMS; stream++) {
		for (uint32_t cpu = 0; cpu < RT_MAX_CPUS; cpu++) {
			uint32_t first =
				chains->cpu[stream * RT_MAX_CPUS + cpu].first;

			if (first != NO_CHUNK)
				make_source(f, stream, cpu, first);
		}
		for (uint32_t i = 0; stream == STREAM_RING &&
				     i < chains->nr_threads; i++)
			make_source(f, STREAM_THREAD, chains->tid[i],
				    chains->thread[i].first);
	}
	return 0;
}

/*
 * All of @fd, in memory: a pipe (standard input, "<(...)", a FIFO) cannot
 * be mapped.
 */
static int read_all(struct rt_raw_file *f, int fd)
{
	size_t cap = 1 << 20, len = 0;
	unsigned char *buf = malloc(cap), *more;
	ssize_t n;

	if (!buf)
		return raw_error(f, ENOMEM, "out of memory");
	for (;;) {
		if (cap - len < 65536) {
			more = realloc(buf, cap * 2);
			if (!more) {
				free(buf);
				return raw_error(f, ENOMEM, "%s does not fit "
						 "in memory", f->path);
			}
			buf = more;
			cap *= 2;
		}
		n = rt_sys.read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return raw_error(f, errno, "reading %s: %s", f->path,
					 strerror(errno));
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	f->map = buf;
	f->len = len;
	f->in_memory = true;
	return 0;
}

int rt_raw_open(struct rt_raw_file *f, const char *path)
{
	struct chains *chains = NULL;
	struct stat st;
	int ret;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	/* Damage reports name the file (rt_raw_report_damage). */
	f->path = strdup(strcmp(path, "-") ? path : "standard input");
	if (!f->path)
		return raw_error(f, ENOMEM, "out of memory");
	if (!strcmp(path, "-")) {
		ret = read_all(f, STDIN_FILENO);
		if (ret)
			return ret;
		path = f->path;
		goto mapped;
	}
	f->fd = rt_sys.open(path, O_RDONLY, 0);
	if (f->fd < 0)
		return raw_error(f, errno, "cannot open %s: %s", path,
				 strerror(errno));
	if (fstat(f->fd, &st) < 0)
		return raw_error(f, errno, "cannot stat %s: %s", path,
				 strerror(errno));
	if (S_ISDIR(st.st_mode))
		return raw_error(f, EISDIR, "%s is a directory, not a raw file",
				 path);
	if (!S_ISREG(st.st_mode)) {
		ret = read_all(f, f->fd);
		if (ret)
			return ret;
		goto mapped;
	}
	f->len = (size_t)st.st_size;
	if (f->len) {
		void *map = rt_sys.mmap(NULL, f->len, PROT_READ, MAP_PRIVATE,
					f->fd, 0);

		if (map == MAP_FAILED)
			return raw_error(f, errno, "cannot map %s: %s", path,
					 strerror(errno));
		f->map = map;
	}
mapped:
	ret = check_header(f, path);
	if (ret)
		return ret;

	chains = malloc(sizeof(*chains));
	if (!chains)
		return raw_error(f, ENOMEM, "out of memory");
	for (uint32_t i = 0; i < NR_STREAMS * RT_MAX_CPUS; i++)
		chains->cpu[i] = (struct chain){ NO_CHUNK, NO_CHUNK };
	for (uint32_t i = 0; i < RT_RAW_MAX_THREADS; i++)
		chains->thread[i] = (struct chain){ NO_CHUNK, NO_CHUNK };
	chains->nr_threads = 0;
	ret = index_chunks(f, path, chains);
	if (!ret)
		ret = make_sources(f, chains);
	free(chains);
	return ret;
}

bool rt_raw_has_samples(const struct rt_raw_file *f)
{
	return f->nr_perf_srcs &&
	       strncmp(f->perf_desc.event, RT_PERF_TRACKING_EVENT,
		       sizeof(f->perf_desc.event));
}

void rt_raw_close(struct rt_raw_file *f)
{
	if (f->map && f->in_memory)
		free((void *)f->map);
	else if (f->map)
		rt_sys.munmap((void *)f->map, f->len);
	if (f->fd >= 0)
		rt_sys.close(f->fd);
	free(f->srcs);
	free(f->cursors);
	free(f->chunks);
	free(f->maps);
	free(f->comms);
	free(f->func_names);
	free(f->func_args);
	free(f->path);
	rt_mounts_fini(&f->mounts);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}
