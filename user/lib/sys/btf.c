// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Tracepoints' and functions' prototypes from the kernel's raw BTF (see
 * btf.h). The file is read whole at the first lookup, every type's place
 * indexed in one pass and the FUNC and TYPEDEF names hashed; a lookup
 * then finds the typedef btf_trace_NAME (or the FUNC NAME) by its name
 * and follows it to its FUNC_PROTO. Nothing read from the file is
 * trusted: every offset, count and type id is checked before use.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ringtrace/btf.h"
#include "ringtrace/hash.h"
#include "ringtrace/sys.h"

/* The raw format: Documentation/bpf/btf.rst, include/uapi/linux/btf.h. */
#define BTF_MAGIC		0xeb9f
#define BTF_MAGIC_SWAPPED	0x9feb
#define BTF_HDR_MIN		24	/* magic .. str_len */
#define BTF_TYPE_SIZE		12	/* name_off, info, size or type */

enum {
	KIND_INT = 1, KIND_PTR, KIND_ARRAY, KIND_STRUCT, KIND_UNION,
	KIND_ENUM, KIND_FWD, KIND_TYPEDEF, KIND_VOLATILE, KIND_CONST,
	KIND_RESTRICT, KIND_FUNC, KIND_FUNC_PROTO, KIND_VAR, KIND_DATASEC,
	KIND_FLOAT, KIND_DECL_TAG, KIND_TYPE_TAG, KIND_ENUM64,
	KIND_MAX = KIND_ENUM64,
};

static const char *const kind_names[KIND_MAX + 1] = {
	"void", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM", "FWD",
	"TYPEDEF", "VOLATILE", "CONST", "RESTRICT", "FUNC", "FUNC_PROTO",
	"VAR", "DATASEC", "FLOAT", "DECL_TAG", "TYPE_TAG", "ENUM64",
};

#define INT_SIGNED	(1u << 0)

/* Larger than any vmlinux BTF by far (about 6 MiB in 2026). */
#define BTF_FILE_MAX	(256u << 20)
/* Modifier chains are a few links long; a longer one is a loop. */
#define CHAIN_MAX	64

#define TP_TYPEDEF	"btf_trace_"
#define TP_FUNC		"__bpf_trace_"
#define TP_STUB		"__probestub_"

/* The file, read once (btf.h): what every lookup reads. */
struct rt_btf {
	char		*path;
	bool		read;		/* read_btf() was called: ret says how */
	int		ret;		/* 0, or the failure every lookup answers */
	char		why[256];	/* ret's message */
	uint8_t		*buf;		/* the whole file */
	const uint8_t	*types;		/* the type section */
	uint32_t	types_len;
	const char	*strs;		/* the string section, NUL-ended */
	uint32_t	strs_len;
	uint32_t	*off;		/* off[id - first]: id's offset in types */
	uint32_t	nr;		/* ids first .. nr - 1 are this file's */
	/*
	 * A module's split BTF (rt_btf_open_split()) goes on from its base,
	 * vmlinux's: its ids begin after the base's last (first), its string
	 * offsets after the base's strings (str_first); a smaller id or
	 * offset is the base's. A complete BTF: first 1, str_first 0.
	 */
	struct rt_btf	*base;
	uint32_t	first;
	uint32_t	str_first;
	uint32_t	*names;		/* hash_names(): FUNC and TYPEDEF ids */
	uint32_t	names_mask;	/* its size - 1 (a power of 2) */
};

/* One lookup, or the reading: the file, and how a failure is told. */
struct btf {
	struct rt_btf	*f;
	const char	*what;		/* "tracepoint", "function" */
	const char	*name;		/* the tracepoint's or function's */
	char		*err;
	size_t		errlen;
};

struct btf_type {
	uint32_t	name_off;
	uint32_t	kind, vlen;
	bool		kflag;
	uint32_t	size_type;	/* size, or the type referred to */
	const uint8_t	*data;		/* what follows the 12 bytes */
};

static int fail(struct btf *b, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct btf *b, int ret, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!b->err || !b->errlen)
		return ret;
	n = snprintf(b->err, b->errlen, "%s: ", b->f->path);
	if (n < 0 || (size_t)n >= b->errlen)
		return ret;
	va_start(ap, fmt);
	vsnprintf(b->err + n, b->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return ret;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static const char *kind_name(uint32_t kind)
{
	return kind <= KIND_MAX ? kind_names[kind] : "?";
}

/* Bytes that follow a type's 12 of this kind; -1 for an unknown kind. */
static int64_t trailing(uint32_t kind, uint32_t vlen)
{
	switch (kind) {
	case KIND_INT:
	case KIND_VAR:
	case KIND_DECL_TAG:
		return 4;
	case KIND_PTR:
	case KIND_FWD:
	case KIND_TYPEDEF:
	case KIND_VOLATILE:
	case KIND_CONST:
	case KIND_RESTRICT:
	case KIND_FUNC:
	case KIND_FLOAT:
	case KIND_TYPE_TAG:
		return 0;
	case KIND_ARRAY:
		return 12;		/* type, index_type, nelems */
	case KIND_STRUCT:
	case KIND_UNION:
	case KIND_DATASEC:
	case KIND_ENUM64:
		return 12 * (int64_t)vlen;
	case KIND_ENUM:
	case KIND_FUNC_PROTO:
		return 8 * (int64_t)vlen;
	default:
		return -1;
	}
}

/* The string at @off, or NULL: load() made sure the section ends in NUL. */
static const char *str_at(const struct rt_btf *f, uint32_t off)
{
	if (f->base && off < f->str_first)
		return str_at(f->base, off);
	off -= f->str_first;
	return off < f->strs_len ? f->strs + off : NULL;
}

/* Where indexed type @id's 12 bytes are: this file's, or its base's. */
static const uint8_t *type_ptr(const struct rt_btf *f, uint32_t id)
{
	if (f->base && id < f->first)
		return type_ptr(f->base, id);
	return f->types + f->off[id - f->first];
}

static bool is_ident(const char *s)
{
	if (!s || !rt_ident_char(*s) || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!rt_ident_char(*s))
			return false;
	return true;
}

/* A name fit for a one-line message: only identifiers are printed. */
static const char *shown(const char *s)
{
	return is_ident(s) ? s : "(unnamed)";
}

static bool name_is(const char *name, const char *prefix, const char *rest)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && !strcmp(name + n, rest);
}

/* Type @id (1 .. nr - 1) into @t; -EINVAL past the last. */
static int type_of(struct btf *b, uint32_t id, uint32_t from,
		   struct btf_type *t)
{
	const uint8_t *p;
	uint32_t info;

	if (!id || id >= b->f->nr)
		return fail(b, -EINVAL,
			    "type %u refers to type %u, not one of 1..%u",
			    from, id, b->f->nr - 1);
	p = type_ptr(b->f, id);
	t->name_off = get32(p);
	info = get32(p + 4);
	t->size_type = get32(p + 8);
	t->kind = (info >> 24) & 0x1f;
	t->vlen = info & 0xffff;
	t->kflag = info >> 31;
	t->data = p + BTF_TYPE_SIZE;
	return 0;
}

static bool is_modifier(uint32_t kind)
{
	return kind == KIND_TYPEDEF || kind == KIND_VOLATILE ||
	       kind == KIND_CONST || kind == KIND_RESTRICT ||
	       kind == KIND_TYPE_TAG;
}

/*
 * Follow typedef/const/volatile/restrict/type_tag links from @id to the
 * type they name: *@res is its id (0: void) and @t the type when not void.
 */
static int resolve(struct btf *b, uint32_t id, uint32_t from,
		   uint32_t *res, struct btf_type *t)
{
	int ret;

	for (int hops = 0; hops < CHAIN_MAX; hops++) {
		*res = id;
		if (!id)
			return 0;
		ret = type_of(b, id, from, t);
		if (ret)
			return ret;
		if (!is_modifier(t->kind))
			return 0;
		from = id;
		id = t->size_type;
	}
	return fail(b, -EINVAL, "type %u: a chain of more than %d modifiers "
		    "and typedefs (a loop?)", from, CHAIN_MAX);
}

static int read_file(struct btf *b, uint8_t **buf, size_t *len)
{
	size_t cap = 64 << 10, n = 0;
	uint8_t *p = NULL, *q;
	struct stat st;
	ssize_t got;
	int fd, e;

	fd = rt_sys.open(b->f->path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0) {
		e = errno;
		return fail(b, -ENODATA, "cannot open the BTF: %s",
			    strerror(e));
	}
	/*
	 * sysfs gives the BTF's size: one buffer of it (and a byte to see
	 * the end) rather than one grown by copies, 1 ms rather than 3 for
	 * 5 MiB. Where there is no size, the buffer grows.
	 */
	if (!fstat(fd, &st) && st.st_size > 0 && st.st_size < BTF_FILE_MAX)
		cap = (size_t)st.st_size + 1;
	for (;;) {
		if (n == cap || !p) {
			if (p)
				cap *= 2;
			q = realloc(p, cap);
			if (!q) {
				free(p);
				rt_sys.close(fd);
				return fail(b, -ENOMEM, "no memory for %zu bytes",
					    cap);
			}
			p = q;
		}
		got = rt_sys.read(fd, p + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			e = errno;
			free(p);
			rt_sys.close(fd);
			return fail(b, -ENODATA, "cannot read the BTF: %s",
				    strerror(e));
		}
		if (!got)
			break;
		n += (size_t)got;
		if (n > BTF_FILE_MAX) {
			free(p);
			rt_sys.close(fd);
			return fail(b, -EINVAL, "larger than %u MiB: not BTF",
				    BTF_FILE_MAX >> 20);
		}
	}
	rt_sys.close(fd);
	/* Its exact size, so that a sanitizer sees a read past the end. */
	if (n) {
		q = realloc(p, n);
		if (q)
			p = q;
	}
	*buf = p;
	*len = n;
	return 0;
}

/* The header and the two sections' bounds. */
static int load(struct btf *b, const uint8_t *buf, size_t len)
{
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	uint16_t magic;

	if (len < 8)
		return fail(b, -EINVAL, "%zu bytes, too short for a BTF header",
			    len);
	memcpy(&magic, buf, sizeof(magic));
	if (magic == BTF_MAGIC_SWAPPED)
		return fail(b, -EINVAL, "BTF of the other byte order");
	if (magic != BTF_MAGIC)
		return fail(b, -EINVAL, "not BTF (magic 0x%04x, not 0x%04x)",
			    magic, BTF_MAGIC);
	if (buf[2] != 1)
		return fail(b, -EINVAL, "BTF version %u, not 1", buf[2]);
	hdr_len = get32(buf + 4);
	if (hdr_len < BTF_HDR_MIN || hdr_len > len)
		return fail(b, -EINVAL, "header length %u: not in %u..%zu "
			    "(the file's size)", hdr_len, BTF_HDR_MIN, len);
	type_off = get32(buf + 8);
	type_len = get32(buf + 12);
	str_off = get32(buf + 16);
	str_len = get32(buf + 20);
	if ((uint64_t)hdr_len + type_off + type_len > len)
		return fail(b, -EINVAL, "type section (%u bytes at %u after the "
			    "header) past the end of the file (%zu bytes)",
			    type_len, type_off, len);
	if (type_off % 4)
		return fail(b, -EINVAL, "type section at %u: not 4-byte aligned",
			    type_off);
	if ((uint64_t)hdr_len + str_off + str_len > len)
		return fail(b, -EINVAL, "string section (%u bytes at %u after "
			    "the header) past the end of the file (%zu bytes)",
			    str_len, str_off, len);
	b->f->types = buf + hdr_len + type_off;
	b->f->types_len = type_len;
	b->f->strs = (const char *)buf + hdr_len + str_off;
	b->f->strs_len = str_len;
	/* A split BTF's strings go on from its base's: no NUL first. */
	if (b->f->base ? str_len && b->f->strs[str_len - 1] :
	    !str_len || b->f->strs[0] || b->f->strs[str_len - 1])
		return fail(b, -EINVAL, "string section (%u bytes) does not "
			    "%s with NUL", str_len,
			    b->f->base ? "end" : "begin and end");
	return 0;
}

/*
 * One pass over the type section: each type's offset, its trailing data
 * checked to fit and its name to be in the string section.
 */
static int index_types(struct btf *b)
{
	struct rt_btf *f = b->f;
	uint32_t pos = 0, id = f->first, info, kind, name_off;
	int64_t extra;

	f->off = malloc(((size_t)f->types_len / BTF_TYPE_SIZE + 1) *
			sizeof(*f->off));
	if (!f->off)
		return fail(b, -ENOMEM, "no memory for the type index");
	while (pos < f->types_len) {
		if (f->types_len - pos < BTF_TYPE_SIZE)
			return fail(b, -EINVAL, "type %u at byte %u of the type "
				    "section: cut short (%u bytes left)", id,
				    pos, f->types_len - pos);
		name_off = get32(f->types + pos);
		info = get32(f->types + pos + 4);
		kind = (info >> 24) & 0x1f;
		extra = trailing(kind, info & 0xffff);
		if (extra < 0)
			return fail(b, -EINVAL, "type %u at byte %u of the type "
				    "section: unknown kind %u", id, pos, kind);
		if (extra > f->types_len - pos - BTF_TYPE_SIZE)
			return fail(b, -EINVAL, "type %u (%s) at byte %u of the "
				    "type section: its %lld bytes of data run "
				    "past the section's end (%u bytes)", id,
				    kind_name(kind), pos, (long long)extra,
				    f->types_len);
		if (!str_at(f, name_off))
			return fail(b, -EINVAL, "type %u (%s) at byte %u of the "
				    "type section: name offset %u past the "
				    "strings (%u bytes)", id, kind_name(kind),
				    pos, name_off, f->strs_len);
		f->off[id++ - f->first] = pos;
		pos += BTF_TYPE_SIZE + (uint32_t)extra;
	}
	f->nr = id;
	return 0;
}

/* Type @id's kind and name, of an indexed type (1 .. nr - 1). */
static uint32_t kind_at(const struct rt_btf *f, uint32_t id)
{
	return (get32(type_ptr(f, id) + 4) >> 24) & 0x1f;
}

static const char *name_at(const struct rt_btf *f, uint32_t id)
{
	return str_at(f, get32(type_ptr(f, id)));	/* indexed: not NULL */
}

/* The kinds a lookup finds by name: tracepoints' typedefs, functions. */
static bool hashed(uint32_t kind)
{
	return kind == KIND_FUNC || kind == KIND_TYPEDEF;
}

/* FNV-1a of @prefix then @rest: a name found by its two parts, unjoined. */
static uint32_t name_hash(const char *prefix, const char *rest)
{
	return rt_fnv32_str(rt_fnv32_str(RT_FNV32_INIT, prefix), rest);
}

/*
 * The named FUNCs and TYPEDEFs in an open-addressed table, at most half
 * full, put in by id: a lookup probes a slot or two, not ~100000 types.
 */
static int hash_names(struct btf *b)
{
	struct rt_btf *f = b->f;
	uint32_t n = 0, size = 2, h;

	for (uint32_t id = f->first; id < f->nr; id++)
		n += hashed(kind_at(f, id)) && *name_at(f, id);
	while (size < 2 * (uint64_t)n)
		size *= 2;
	f->names = calloc(size, sizeof(*f->names));
	if (!f->names)
		return fail(b, -ENOMEM, "no memory for the names' index");
	f->names_mask = size - 1;
	for (uint32_t id = f->first; id < f->nr; id++) {
		if (!hashed(kind_at(f, id)) || !*name_at(f, id))
			continue;
		h = name_hash("", name_at(f, id)) & f->names_mask;
		while (f->names[h])
			h = (h + 1) & f->names_mask;
		f->names[h] = id;
	}
	return 0;
}

/*
 * The type of @kind (FUNC or TYPEDEF) named @prefix@rest with the lowest
 * id, 0: none; in *@count how many there are. Put in by id, the ones of
 * one name lie in id order along their probe sequence.
 */
static uint32_t find(const struct rt_btf *f, uint32_t kind,
		     const char *prefix, const char *rest, uint32_t *count)
{
	uint32_t h = name_hash(prefix, rest) & f->names_mask, id, first = 0;

	*count = 0;
	for (; (id = f->names[h]); h = (h + 1) & f->names_mask) {
		if (kind_at(f, id) != kind ||
		    !name_is(name_at(f, id), prefix, rest))
			continue;
		if (!first)
			first = id;
		++*count;
	}
	return first;
}

/*
 * The file read, checked and indexed, at the first lookup and only then:
 * a failure here is every later lookup's answer too, with its message
 * (kept in f->why), as if each had read the file again.
 */
static int read_btf(struct btf *b)
{
	struct rt_btf *f = b->f;
	struct btf r = { .f = f, .err = f->why, .errlen = sizeof(f->why) };
	size_t len = 0;

	if (!f->read) {
		f->read = true;
		/* A split BTF's types and strings go on from its base's. */
		if (f->base) {
			struct btf rb = { .f = f->base, .err = f->why,
					  .errlen = sizeof(f->why) };

			f->ret = read_btf(&rb);
			if (f->ret)
				goto out;
			f->first = f->base->nr;
			f->str_first = f->base->strs_len;
		}
		f->ret = read_file(&r, &f->buf, &len);
		if (!f->ret)
			f->ret = load(&r, f->buf, len);
		if (!f->ret)
			f->ret = index_types(&r);
		if (!f->ret)
			f->ret = hash_names(&r);
		if (f->ret) {
			free(f->names);
			free(f->off);
			free(f->buf);
			f->names = f->off = NULL;
			f->buf = NULL;
		}
	}
out:
	if (f->ret && b->err && b->errlen)
		snprintf(b->err, b->errlen, "%s", f->why);
	return f->ret;
}

/* The FUNC_PROTO that typedef @tdef points to: *@proto_id and @proto. */
static int tp_proto(struct btf *b, uint32_t tdef, uint32_t *proto_id,
		    struct btf_type *proto)
{
	struct btf_type t;
	uint32_t id;
	int ret;

	ret = type_of(b, tdef, tdef, &t);
	if (!ret)
		ret = resolve(b, t.size_type, tdef, &id, &t);
	if (ret)
		return ret;
	if (!id || t.kind != KIND_PTR)
		return fail(b, -EINVAL, TP_TYPEDEF "%s (type %u): not a pointer "
			    "to a function but %s", b->name, tdef,
			    id ? kind_name(t.kind) : "void");
	ret = resolve(b, t.size_type, id, &id, proto);
	if (ret)
		return ret;
	*proto_id = id;
	if (!id || proto->kind != KIND_FUNC_PROTO)
		return fail(b, -EINVAL, TP_TYPEDEF "%s (type %u): a pointer to "
			    "%s, not to a function", b->name, tdef,
			    id ? kind_name(proto->kind) : "void");
	if (!proto->vlen)
		return fail(b, -EINVAL, TP_TYPEDEF "%s (type %u): no "
			    "parameters, not even void *__data", b->name, tdef);
	return 0;
}

/* Parameter @p of FUNC_PROTO @proto: its name offset and type. */
static void param(const struct btf_type *proto, uint32_t p,
		  uint32_t *name_off, uint32_t *type)
{
	*name_off = get32(proto->data + 8 * p);
	*type = get32(proto->data + 8 * p + 4);
}

/*
 * Parameter @p of FUNC_PROTO @proto (@proto_id) as argument p - @first
 * (a tracepoint's parameter 0 is its probe's void *__data: @first 1; a
 * function's arguments are all its parameters: 0): its size and shape
 * into @a, whose name is already there for the messages.
 */
static int arg_type(struct btf *b, const struct btf_type *proto,
		    uint32_t proto_id, uint32_t p, uint32_t first,
		    struct rt_func_arg_desc *a)
{
	const uint32_t i = p - first;
	uint32_t name_off, type, id, enc;
	struct btf_type t;
	int ret;

	param(proto, p, &name_off, &type);
	ret = resolve(b, type, proto_id, &id, &t);
	if (ret)
		return ret;
	/* Type 0 as the last parameter is how BTF writes "...". */
	if (!id)
		return p + 1 == proto->vlen ?
			fail(b, -EOPNOTSUPP, "%s %s: argument %u is variadic "
			     "(...)", b->what, b->name, i) :
			fail(b, -EINVAL, "%s %s: argument %u is void",
			     b->what, b->name, i);
	switch (t.kind) {
	case KIND_PTR:
		a->size = 8;
		a->is_ptr = 1;
		return 0;
	case KIND_INT:
		enc = get32(t.data);
		a->is_signed = (enc >> 24) & INT_SIGNED;
		if ((enc & 0xff) > 8 * (uint64_t)t.size_type)
			return fail(b, -EINVAL, "type %u (INT): %u bits in %u "
				    "bytes", id, enc & 0xff, t.size_type);
		break;
	case KIND_ENUM:
	case KIND_ENUM64:
		a->is_signed = t.kflag;
		break;
	case KIND_STRUCT:
	case KIND_UNION:
	case KIND_FWD:
		return fail(b, -EOPNOTSUPP, "%s %s: argument %u (%s) is %s %s "
			    "by value", b->what, b->name, i, a->name,
			    t.kind == KIND_UNION ||
			    (t.kind == KIND_FWD && t.kflag) ? "union" : "struct",
			    shown(str_at(b->f, t.name_off)));
	case KIND_FLOAT:
		return fail(b, -EOPNOTSUPP, "%s %s: argument %u (%s) is a "
			    "floating-point number", b->what, b->name, i,
			    a->name);
	case KIND_ARRAY:
		return fail(b, -EOPNOTSUPP, "%s %s: argument %u (%s) is an "
			    "array by value", b->what, b->name, i, a->name);
	default:
		return fail(b, -EINVAL, "%s %s: argument %u (%s) has type %u, "
			    "a %s: not a parameter's type", b->what, b->name,
			    i, a->name, id, kind_name(t.kind));
	}
	/* INT, ENUM, ENUM64: size_type is the size in bytes. */
	if (t.size_type > 8)
		return fail(b, -EOPNOTSUPP, "%s %s: argument %u (%s) is %u "
			    "bytes wide, wider than 8", b->what, b->name, i,
			    a->name, t.size_type);
	if (!rt_func_arg_size_ok(t.size_type))
		return fail(b, -EINVAL, "type %u (%s): size %u, not 1, 2, 4 "
			    "or 8", id, kind_name(t.kind), t.size_type);
	a->size = (uint8_t)t.size_type;
	return 0;
}

/*
 * Argument @i's name, parameter @p of @names (NULL: none): the name it
 * has there if it is a C identifier that fits, else "argI".
 */
static void arg_name(const struct rt_btf *f, const struct btf_type *names,
		     uint32_t p, uint32_t i, struct rt_func_arg_desc *a)
{
	uint32_t name_off, type;
	const char *name = NULL;

	if (names) {
		param(names, p, &name_off, &type);
		name = str_at(f, name_off);
	}
	if (is_ident(name) && strlen(name) < sizeof(a->name))
		memcpy(a->name, name, strlen(name) + 1);
	else
		snprintf(a->name, sizeof(a->name), "arg%u", i);
}

/*
 * The arguments of FUNC_PROTO @proto (@proto_id): its parameters from
 * @first on, named as in @names (a FUNC_PROTO of as many parameters;
 * NULL: argN). Every one is checked to be what a register carries; the
 * first RT_FUNC_ARG_DESCS are described in @out, all a record can show.
 */
static int proto_args(struct btf *b, const struct btf_type *proto,
		      uint32_t proto_id, const struct btf_type *names,
		      uint32_t first, struct rt_func_arg_descs *out)
{
	int ret;

	for (uint32_t p = first; p < proto->vlen; p++) {
		struct rt_func_arg_desc a = { 0 };

		arg_name(b->f, names, p, p - first, &a);
		ret = arg_type(b, proto, proto_id, p, first, &a);
		if (ret)
			return ret;
		if (out->nr_args < RT_FUNC_ARG_DESCS)
			out->arg[out->nr_args++] = a;
	}
	return 0;
}

/*
 * FUNC @fname@name's prototype into @fp (@fname: TP_FUNC or TP_STUB; 0:
 * there is none) when it has as many parameters as the tracepoint's
 * @proto, every parameter's name offset checked: *@found then.
 */
static int names_from(struct btf *b, const struct btf_type *proto,
		      const char *fname, struct btf_type *fp, bool *found)
{
	uint32_t func, n, name_off, type;
	struct btf_type f;
	int ret;

	*found = false;
	func = find(b->f, KIND_FUNC, fname, b->name, &n);
	if (!func)
		return 0;
	ret = type_of(b, func, func, &f);
	if (!ret)
		ret = type_of(b, f.size_type, func, fp);
	if (ret)
		return ret;
	if (fp->kind != KIND_FUNC_PROTO)
		return fail(b, -EINVAL, "%s%s (type %u): a FUNC whose type is "
			    "a %s, not a FUNC_PROTO", fname, b->name, func,
			    kind_name(fp->kind));
	if (fp->vlen != proto->vlen)
		return 0;
	for (uint32_t p = 1; p < fp->vlen; p++) {
		param(fp, p, &name_off, &type);
		if (!str_at(b->f, name_off))
			return fail(b, -EINVAL, "%s%s (type %u): parameter %u's "
				    "name offset %u past the strings (%u bytes)",
				    fname, b->name, f.size_type, p, name_off,
				    b->f->strs_len);
	}
	*found = true;
	return 0;
}

static int tp_lookup(struct btf *b, struct rt_func_arg_descs *out)
{
	uint32_t tdef, n, proto_id = 0, id = 0, name_off, type;
	struct btf_type proto, t, fp;
	bool named = false;
	int ret;

	tdef = find(b->f, KIND_TYPEDEF, TP_TYPEDEF, b->name, &n);
	if (!tdef)
		return fail(b, -ENOENT, "no tracepoint %s (no typedef "
			    TP_TYPEDEF "%s)", b->name, b->name);
	ret = tp_proto(b, tdef, &proto_id, &proto);
	if (ret)
		return ret;
	/* The first parameter is void *__data, the probe's own. */
	param(&proto, 0, &name_off, &type);
	ret = resolve(b, type, proto_id, &id, &t);
	if (ret)
		return ret;
	if (!id || t.kind != KIND_PTR)
		return fail(b, -EINVAL, TP_TYPEDEF "%s (type %u): its first "
			    "parameter is not a pointer (void *__data)",
			    b->name, tdef);
	/* Names: __bpf_trace_TP's, else __probestub_TP's, else argN. */
	ret = names_from(b, &proto, TP_FUNC, &fp, &named);
	if (!ret && !named)
		ret = names_from(b, &proto, TP_STUB, &fp, &named);
	if (!ret)
		ret = proto_args(b, &proto, proto_id, named ? &fp : NULL, 1,
				 out);
	return ret;
}

int rt_btf_tracepoint(struct rt_btf *btf, const char *tp,
		      struct rt_func_arg_descs *out, char *err, size_t errlen)
{
	struct btf b = {
		.f = btf,
		.what = "tracepoint",
		.name = tp ? tp : "",
		.err = err,
		.errlen = errlen,
	};
	int ret;

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	/* Every tracepoint's name is one (it is part of C names here). */
	if (!is_ident(b.name))
		return fail(&b, -ENOENT, "no tracepoint of that name: not a C "
			    "identifier");
	ret = read_btf(&b);
	if (!ret)
		ret = tp_lookup(&b, out);
	if (ret)
		memset(out, 0, sizeof(*out));
	return ret;
}

int rt_btf_func(struct rt_btf *btf, const char *name,
		struct rt_func_arg_descs *out, char *err, size_t errlen)
{
	struct btf b = {
		.f = btf,
		.what = "function",
		.name = name,
		.err = err,
		.errlen = errlen,
	};
	uint32_t func, n, proto_id = 0;
	struct btf_type f, proto;
	int ret;

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	ret = read_btf(&b);
	if (ret)
		return ret;
	func = find(btf, KIND_FUNC, "", name, &n);
	/* Two of one name (static ones): neither. */
	if (n != 1)
		return fail(&b, -ENOENT, "%s FUNCs named %s", n ? "several" :
			    "no", shown(name));
	ret = type_of(&b, func, func, &f);
	if (!ret)
		ret = resolve(&b, f.size_type, func, &proto_id, &proto);
	if (ret)
		return ret;
	if (!proto_id || proto.kind != KIND_FUNC_PROTO || !proto.vlen)
		return fail(&b, -EOPNOTSUPP, "function %s (type %u): no "
			    "parameters to show", shown(name), func);
	ret = proto_args(&b, &proto, proto_id, &proto, 0, out);
	if (ret)
		memset(out, 0, sizeof(*out));
	return ret;
}

struct rt_btf *rt_btf_open(const char *path)
{
	struct rt_btf *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->path = strdup(path ? path : RT_BTF_VMLINUX);
	if (!f->path) {
		free(f);
		return NULL;
	}
	f->first = 1;
	return f;
}

struct rt_btf *rt_btf_open_split(const char *path, struct rt_btf *base)
{
	struct rt_btf *f = rt_btf_open(path);

	if (f)
		f->base = base;
	return f;
}

const char *rt_btf_path(const struct rt_btf *btf)
{
	return btf->path;
}

void rt_btf_close(struct rt_btf *btf)
{
	if (!btf)
		return;
	free(btf->names);
	free(btf->off);
	free(btf->buf);
	free(btf->path);
	free(btf);
}
