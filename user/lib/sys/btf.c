// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * A tracepoint's prototype from the kernel's raw BTF (see btf.h). The file
 * is read whole, every type's place indexed in one pass, then the
 * typedef btf_trace_NAME followed to its FUNC_PROTO. Nothing read from the
 * file is trusted: every offset, count and type id is checked before use.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/btf.h"
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

struct btf {
	const char	*path;
	const char	*tp;
	const uint8_t	*types;		/* the type section */
	uint32_t	types_len;
	const char	*strs;		/* the string section, NUL-ended */
	uint32_t	strs_len;
	uint32_t	*off;		/* off[id]: id's offset in types */
	uint32_t	nr;		/* ids 1 .. nr - 1 exist */
	char		*err;
	size_t		errlen;
};

struct btf_type {
	uint32_t	name_off;
	uint32_t	kind, vlen;
	bool		kflag;
	uint32_t	size_type;	/* size, or the type referred to */
	uint32_t	at;		/* offset in the type section */
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
	n = snprintf(b->err, b->errlen, "%s: ", b->path);
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
static const char *str_at(const struct btf *b, uint32_t off)
{
	return off < b->strs_len ? b->strs + off : NULL;
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

static bool name_is(const char *name, const char *prefix, const char *tp)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && !strcmp(name + n, tp);
}

/* Type @id (1 .. nr - 1) into @t; -EINVAL past the last. */
static int type_of(struct btf *b, uint32_t id, uint32_t from,
		   struct btf_type *t)
{
	const uint8_t *p;
	uint32_t info;

	if (!id || id >= b->nr)
		return fail(b, -EINVAL,
			    "type %u refers to type %u, not one of 1..%u",
			    from, id, b->nr - 1);
	t->at = b->off[id];
	p = b->types + t->at;
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
	ssize_t got;
	int fd, e;

	fd = rt_sys.open(b->path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0) {
		e = errno;
		return fail(b, -ENODATA, "cannot open the BTF: %s",
			    strerror(e));
	}
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
	b->types = buf + hdr_len + type_off;
	b->types_len = type_len;
	b->strs = (const char *)buf + hdr_len + str_off;
	b->strs_len = str_len;
	if (!str_len || b->strs[0] || b->strs[str_len - 1])
		return fail(b, -EINVAL, "string section (%u bytes) does not "
			    "begin and end with NUL", str_len);
	return 0;
}

/*
 * One pass over the type section: each type's offset, its trailing data
 * checked to fit, and the ids of typedef btf_trace_TP and FUNCs
 * __bpf_trace_TP and __probestub_TP (0 where there is none).
 */
static int index_types(struct btf *b, uint32_t *tdef, uint32_t *funcs)
{
	uint32_t pos = 0, id = 1, info, kind, name_off;
	const char *name;
	int64_t extra;

	b->off = malloc(((size_t)b->types_len / BTF_TYPE_SIZE + 1) *
			sizeof(*b->off));
	if (!b->off)
		return fail(b, -ENOMEM, "no memory for the type index");
	*tdef = funcs[0] = funcs[1] = 0;
	while (pos < b->types_len) {
		if (b->types_len - pos < BTF_TYPE_SIZE)
			return fail(b, -EINVAL, "type %u at byte %u of the type "
				    "section: cut short (%u bytes left)", id,
				    pos, b->types_len - pos);
		name_off = get32(b->types + pos);
		info = get32(b->types + pos + 4);
		kind = (info >> 24) & 0x1f;
		extra = trailing(kind, info & 0xffff);
		if (extra < 0)
			return fail(b, -EINVAL, "type %u at byte %u of the type "
				    "section: unknown kind %u", id, pos, kind);
		if (extra > b->types_len - pos - BTF_TYPE_SIZE)
			return fail(b, -EINVAL, "type %u (%s) at byte %u of the "
				    "type section: its %lld bytes of data run "
				    "past the section's end (%u bytes)", id,
				    kind_name(kind), pos, (long long)extra,
				    b->types_len);
		name = str_at(b, name_off);
		if (!name)
			return fail(b, -EINVAL, "type %u (%s) at byte %u of the "
				    "type section: name offset %u past the "
				    "strings (%u bytes)", id, kind_name(kind),
				    pos, name_off, b->strs_len);
		if (kind == KIND_TYPEDEF && !*tdef &&
		    name_is(name, TP_TYPEDEF, b->tp))
			*tdef = id;
		else if (kind == KIND_FUNC && !funcs[0] &&
			 name_is(name, TP_FUNC, b->tp))
			funcs[0] = id;
		else if (kind == KIND_FUNC && !funcs[1] &&
			 name_is(name, TP_STUB, b->tp))
			funcs[1] = id;
		b->off[id++] = pos;
		pos += BTF_TYPE_SIZE + (uint32_t)extra;
	}
	b->nr = id;
	return 0;
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
			    "to a function but %s", b->tp, tdef,
			    id ? kind_name(t.kind) : "void");
	ret = resolve(b, t.size_type, id, &id, proto);
	if (ret)
		return ret;
	*proto_id = id;
	if (!id || proto->kind != KIND_FUNC_PROTO)
		return fail(b, -EINVAL, TP_TYPEDEF "%s (type %u): a pointer to "
			    "%s, not to a function", b->tp, tdef,
			    id ? kind_name(proto->kind) : "void");
	if (!proto->vlen)
		return fail(b, -EINVAL, TP_TYPEDEF "%s (type %u): no "
			    "parameters, not even void *__data", b->tp, tdef);
	return 0;
}

/* Parameter @i of FUNC_PROTO @proto: its name offset and type. */
static void param(const struct btf_type *proto, uint32_t i,
		  uint32_t *name_off, uint32_t *type)
{
	*name_off = get32(proto->data + 8 * i);
	*type = get32(proto->data + 8 * i + 4);
}

/* Argument @i (0: the first after __data) of type @type, into @a. */
static int tp_arg(struct btf *b, const struct btf_type *proto,
		  uint32_t proto_id, uint32_t i, uint32_t type,
		  struct rt_tp_arg *a)
{
	struct btf_type t;
	uint32_t id, enc;
	int ret;

	ret = resolve(b, type, proto_id, &id, &t);
	if (ret)
		return ret;
	if (!id)
		return i + 2 == proto->vlen ?
			fail(b, -EOPNOTSUPP, "tracepoint %s: argument %u is "
			     "variadic (...)", b->tp, i) :
			fail(b, -EINVAL, "tracepoint %s: argument %u is void",
			     b->tp, i);
	switch (t.kind) {
	case KIND_PTR:
		a->size = 8;
		a->is_ptr = true;
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
		return fail(b, -EOPNOTSUPP, "tracepoint %s: argument %u (%s) "
			    "is %s %s by value", b->tp, i, a->name,
			    t.kind == KIND_UNION ||
			    (t.kind == KIND_FWD && t.kflag) ? "union" : "struct",
			    shown(str_at(b, t.name_off)));
	case KIND_FLOAT:
		return fail(b, -EOPNOTSUPP, "tracepoint %s: argument %u (%s) "
			    "is a floating-point number", b->tp, i, a->name);
	case KIND_ARRAY:
		return fail(b, -EOPNOTSUPP, "tracepoint %s: argument %u (%s) "
			    "is an array by value", b->tp, i, a->name);
	default:
		return fail(b, -EINVAL, "tracepoint %s: argument %u (%s) has "
			    "type %u, a %s: not a parameter's type", b->tp, i,
			    a->name, id, kind_name(t.kind));
	}
	/* INT, ENUM, ENUM64: size_type is the size in bytes. */
	if (t.size_type > 8)
		return fail(b, -EOPNOTSUPP, "tracepoint %s: argument %u (%s) "
			    "is %u bytes wide, wider than 8", b->tp, i,
			    a->name, t.size_type);
	if (t.size_type != 1 && t.size_type != 2 && t.size_type != 4 &&
	    t.size_type != 8)
		return fail(b, -EINVAL, "type %u (%s): size %u, not 1, 2, 4 "
			    "or 8", id, kind_name(t.kind), t.size_type);
	a->size = t.size_type;
	return 0;
}

/*
 * The arguments' names from FUNC @fname (@func, 0: none) when its
 * prototype has as many parameters as the typedef's: *@named then.
 */
static int names_from(struct btf *b, const struct btf_type *proto,
		      uint32_t func, const char *fname,
		      struct rt_tp_proto *out, bool *named)
{
	struct btf_type f, fp;
	uint32_t name_off, type;
	const char *name;
	int ret;

	*named = false;
	if (!func)
		return 0;
	ret = type_of(b, func, func, &f);
	if (!ret)
		ret = type_of(b, f.size_type, func, &fp);
	if (ret)
		return ret;
	if (fp.kind != KIND_FUNC_PROTO)
		return fail(b, -EINVAL, "%s%s (type %u): a FUNC whose type is "
			    "a %s, not a FUNC_PROTO", fname, b->tp, func,
			    kind_name(fp.kind));
	if (fp.vlen != proto->vlen)
		return 0;
	for (uint32_t i = 0; i < out->nr_args; i++) {
		param(&fp, i + 1, &name_off, &type);
		name = str_at(b, name_off);
		if (!name)
			return fail(b, -EINVAL, "%s%s (type %u): parameter %u's "
				    "name offset %u past the strings (%u bytes)",
				    fname, b->tp, f.size_type, i + 1, name_off,
				    b->strs_len);
		if (is_ident(name))
			snprintf(out->arg[i].name, sizeof(out->arg[i].name),
				 "%s", name);
	}
	*named = true;
	return 0;
}

/*
 * The arguments' names: __bpf_trace_TP's (@funcs[0]) or else
 * __probestub_TP's (@funcs[1]), where they have the typedef's parameters;
 * arg0, arg1... for any still unnamed.
 */
static int tp_names(struct btf *b, const struct btf_type *proto,
		    const uint32_t *funcs, struct rt_tp_proto *out)
{
	bool named = false;
	int ret;

	ret = names_from(b, proto, funcs[0], TP_FUNC, out, &named);
	if (!ret && !named)
		ret = names_from(b, proto, funcs[1], TP_STUB, out, &named);
	if (ret)
		return ret;
	for (uint32_t i = 0; i < out->nr_args; i++)
		if (!out->arg[i].name[0])
			snprintf(out->arg[i].name, sizeof(out->arg[i].name),
				 "arg%u", i);
	return 0;
}

static int lookup(struct btf *b, const uint8_t *buf, size_t len,
		  struct rt_tp_proto *out)
{
	uint32_t tdef = 0, funcs[2] = { 0 }, proto_id = 0, id = 0;
	uint32_t name_off, type;
	struct btf_type proto, t;
	int ret;

	ret = load(b, buf, len);
	if (!ret)
		ret = index_types(b, &tdef, funcs);
	if (ret)
		return ret;
	if (!tdef)
		return fail(b, -ENOENT, "no tracepoint %s (no typedef "
			    TP_TYPEDEF "%s)", b->tp, b->tp);
	ret = tp_proto(b, tdef, &proto_id, &proto);
	if (ret)
		return ret;
	if (proto.vlen - 1 > RT_TP_MAX_ARGS)
		return fail(b, -EOPNOTSUPP, "tracepoint %s: %u arguments, more "
			    "than %d", b->tp, proto.vlen - 1, RT_TP_MAX_ARGS);
	/* The first parameter is void *__data, the probe's own. */
	param(&proto, 0, &name_off, &type);
	ret = resolve(b, type, proto_id, &id, &t);
	if (ret)
		return ret;
	if (!id || t.kind != KIND_PTR)
		return fail(b, -EINVAL, TP_TYPEDEF "%s (type %u): its first "
			    "parameter is not a pointer (void *__data)",
			    b->tp, tdef);
	out->nr_args = proto.vlen - 1;
	ret = tp_names(b, &proto, funcs, out);
	for (uint32_t i = 0; !ret && i < out->nr_args; i++) {
		param(&proto, i + 1, &name_off, &type);
		ret = tp_arg(b, &proto, proto_id, i, type, &out->arg[i]);
	}
	return ret;
}

int rt_btf_tracepoint(const char *path, const char *tp,
		      struct rt_tp_proto *out, char *err, size_t errlen)
{
	struct btf b = {
		.path = path ? path : RT_BTF_VMLINUX,
		.tp = tp ? tp : "",
		.err = err,
		.errlen = errlen,
	};
	uint8_t *buf = NULL;
	size_t len = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	/* Every tracepoint's name is one (it is part of C names here). */
	if (!is_ident(b.tp))
		return fail(&b, -ENOENT, "no tracepoint of that name: not a C "
			    "identifier");
	ret = read_file(&b, &buf, &len);
	if (ret)
		return ret;
	ret = lookup(&b, buf, len, out);
	free(b.off);
	free(buf);
	if (ret)
		memset(out, 0, sizeof(*out));
	return ret;
}

/*
 * FUNC @func's prototype into @out: its parameters' names (argN where
 * one has none) and shapes, as a tracepoint's. Nonzero: not one a
 * record's registers show (none, variadic, a struct by value...).
 */
static int func_proto(struct btf *b, uint32_t func, struct rt_tp_proto *out)
{
	uint32_t name_off, type, proto_id;
	struct btf_type f, proto;
	const char *name;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = type_of(b, func, func, &f);
	if (!ret)
		ret = resolve(b, f.size_type, func, &proto_id, &proto);
	if (ret)
		return ret;
	if (!proto_id || proto.kind != KIND_FUNC_PROTO || !proto.vlen ||
	    proto.vlen > RT_TP_MAX_ARGS)
		return -EOPNOTSUPP;
	out->nr_args = proto.vlen;
	for (uint32_t i = 0; i < proto.vlen; i++) {
		param(&proto, i, &name_off, &type);
		name = str_at(b, name_off);
		if (name && is_ident(name) &&
		    strlen(name) < sizeof(out->arg[i].name))
			memcpy(out->arg[i].name, name, strlen(name) + 1);
		else
			snprintf(out->arg[i].name, sizeof(out->arg[i].name),
				 "arg%u", i);
		/* tp_arg() counts as a tracepoint does: one parameter more. */
		ret = tp_arg(b, &(struct btf_type){ .vlen = proto.vlen + 1 },
			     proto_id, i, type, &out->arg[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int rt_btf_funcs(const char *path, const char *const *names, uint32_t nr,
		 struct rt_tp_proto *out, char *err, size_t errlen)
{
	struct btf b = {
		.path = path ? path : RT_BTF_VMLINUX,
		.tp = "",
		.err = err,
		.errlen = errlen,
	};
	uint32_t tdef, funcs[2], *ids;
	uint8_t *buf = NULL;
	size_t len = 0;
	int ret;

	memset(out, 0, nr * sizeof(*out));
	if (err && errlen)
		err[0] = '\0';
	ids = calloc(nr ? nr : 1, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	ret = read_file(&b, &buf, &len);
	if (!ret)
		ret = load(&b, buf, len);
	if (!ret)
		ret = index_types(&b, &tdef, funcs);
	for (uint32_t id = 1; !ret && id < b.nr; id++) {
		uint32_t info = get32(b.types + b.off[id] + 4);
		const char *name;

		if (((info >> 24) & 0x1f) != KIND_FUNC)
			continue;
		name = str_at(&b, get32(b.types + b.off[id]));
		for (uint32_t j = 0; name && j < nr; j++)
			if (!strcmp(name, names[j]))
				/* Two of one name (static ones): neither. */
				ids[j] = ids[j] ? UINT32_MAX : id;
	}
	for (uint32_t j = 0; !ret && j < nr; j++)
		if (ids[j] && ids[j] != UINT32_MAX &&
		    func_proto(&b, ids[j], &out[j]))
			memset(&out[j], 0, sizeof(out[j]));
	if (err && errlen && !ret)
		err[0] = '\0';
	free(ids);
	free(b.off);
	free(buf);
	if (ret)
		memset(out, 0, nr * sizeof(*out));
	return ret;
}
