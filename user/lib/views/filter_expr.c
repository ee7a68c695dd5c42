// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* --filter expressions (see filter_expr.h): a recursive-descent parser. */
#include <ctype.h>	/* strerrorname_np(): _GNU_SOURCE, from the Makefile */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "ringtrace/filter_expr.h"
#include "ringtrace/output.h"
#include "ringtrace/parse.h"

enum rt_expr_op { OP_CMP, OP_AND, OP_OR, OP_NOT };
enum rt_expr_cmp { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_GLOB, C_NGLOB };
enum rt_expr_type { T_SIGNED, T_BYTES, T_UNSIGNED, T_DURATION, T_STRING };

#define K(k)		(1u << (k))
#define TASKED		(K(RT_EVENT_VFS_READ) | K(RT_EVENT_LOCK) | \
			 K(RT_EVENT_SAMPLE) | K(RT_EVENT_OFFCPU) | \
			 K(RT_EVENT_FUNC))
/* What vfs_read and func calls share: a return value, a latency. */
#define CALLS		(K(RT_EVENT_VFS_READ) | K(RT_EVENT_FUNC))

enum rt_expr_field {
	F_RET, F_COUNT, F_POS, F_LAT, F_INO, F_PATH, F_WAIT, F_HOLD,
	F_LOCK, F_OFFCPU, F_PID, F_TID, F_CPU, F_COMM, F_FUNC,
};

static const struct field {
	const char	*name;
	uint8_t		type;
	uint32_t	kinds;
} fields[] = {
	[F_RET]		= { "ret",	T_SIGNED,	CALLS },
	[F_COUNT]	= { "count",	T_BYTES,	K(RT_EVENT_VFS_READ) },
	[F_POS]		= { "pos",	T_SIGNED,	K(RT_EVENT_VFS_READ) },
	[F_LAT]		= { "lat",	T_DURATION,	CALLS },
	[F_INO]		= { "ino",	T_UNSIGNED,	K(RT_EVENT_VFS_READ) },
	[F_PATH]	= { "path",	T_STRING,	K(RT_EVENT_VFS_READ) },
	[F_WAIT]	= { "wait",	T_DURATION,	K(RT_EVENT_LOCK) },
	[F_HOLD]	= { "hold",	T_DURATION,	K(RT_EVENT_LOCK) },
	[F_LOCK]	= { "lock",	T_STRING,	K(RT_EVENT_LOCK) },
	[F_OFFCPU]	= { "offcpu",	T_DURATION,	K(RT_EVENT_OFFCPU) },
	[F_PID]		= { "pid",	T_UNSIGNED,	TASKED },
	[F_TID]		= { "tid",	T_UNSIGNED,	TASKED },
	[F_CPU]		= { "cpu",	T_UNSIGNED,	TASKED },
	[F_COMM]	= { "comm",	T_STRING,	TASKED },
	[F_FUNC]	= { "func",	T_STRING,	K(RT_EVENT_FUNC) },
};

/* The parser's state: one pass over the text, nodes appended. */
struct parser {
	struct rt_expr	*e;
	const char	*text;
	size_t		pos;
	size_t		buf_used;
	unsigned int	depth;		/* of ! and ( being parsed */
	char		*err;
	size_t		errlen;
	bool		failed;
};

static int fail(struct parser *p, size_t at, const char *what)
{
	if (!p->failed)
		snprintf(p->err, p->errlen, "%s at column %zu", what, at + 1);
	p->failed = true;
	return -1;
}

static void skip_space(struct parser *p)
{
	while (isspace((unsigned char)p->text[p->pos]))
		p->pos++;
}

/* Consume @tok if it comes next (after blanks). */
static bool accept(struct parser *p, const char *tok)
{
	size_t n = strlen(tok);

	skip_space(p);
	if (strncmp(p->text + p->pos, tok, n))
		return false;
	p->pos += n;
	return true;
}

static int new_node(struct parser *p, uint8_t op)
{
	struct rt_expr_node *n;

	if (p->e->nr >= RT_EXPR_MAX_NODES)
		return fail(p, p->pos, "expression too long (at most 64 terms)");
	n = &p->e->nodes[p->e->nr];
	memset(n, 0, sizeof(*n));
	n->op = op;
	return (int)p->e->nr++;
}

static int parse_or(struct parser *p);
static int parse_unary(struct parser *p);
static int parse_unary_nested(struct parser *p);

static int parse_field(struct parser *p)
{
	size_t start, len;

	skip_space(p);
	start = p->pos;
	while (isalnum((unsigned char)p->text[p->pos]) ||
	       p->text[p->pos] == '_')
		p->pos++;
	len = p->pos - start;
	if (!len)
		return fail(p, start, p->text[start] ?
			    "expected a field name (ret, count, path...)" :
			    "expected a field name");
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (strlen(fields[i].name) == len &&
		    !strncmp(fields[i].name, p->text + start, len))
			return (int)i;
	p->pos = start;
	return fail(p, start, "unknown field (ret, count, pos, lat, ino, "
		    "path, wait, hold, lock, offcpu, func, pid, tid, cpu, "
		    "comm)");
}

static int parse_cmp_op(struct parser *p, bool string)
{
	static const struct { const char *tok; uint8_t cmp; bool num, str; } ops[] = {
		{ "==", C_EQ, true, true },  { "!=", C_NE, true, true },
		{ "!~", C_NGLOB, false, true }, { "<=", C_LE, true, false },
		{ ">=", C_GE, true, false }, { "<", C_LT, true, false },
		{ ">", C_GT, true, false },  { "~", C_GLOB, false, true },
	};
	size_t at;

	skip_space(p);
	at = p->pos;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (!accept(p, ops[i].tok))
			continue;
		if (string ? ops[i].str : ops[i].num)
			return ops[i].cmp;
		return fail(p, at, string ?
			    "a string field takes == != ~ !~" :
			    "a numeric field takes == != < <= > >=");
	}
	if (p->text[at] == '=')
		return fail(p, at, "expected a comparison (== not =)");
	return fail(p, at, "expected a comparison");
}

/* "-EISDIR" -> -21: errno names as strerrorname_np() spells them. */
static bool errno_value(const char *name, int64_t *v)
{
	for (int i = 1; i < 4096; i++) {
		const char *n = strerrorname_np(i);

		if (n && !strcmp(n, name)) {
			*v = -i;
			return true;
		}
	}
	return false;
}

static int parse_number(struct parser *p, struct rt_expr_node *n)
{
	uint8_t type = fields[n->field].type;
	char tok[64], why[128];
	bool neg = false;
	uint64_t u;
	size_t at, len;
	int ret;

	skip_space(p);
	at = p->pos;
	if (p->text[p->pos] == '-') {
		neg = true;
		p->pos++;
	}
	while (isalnum((unsigned char)p->text[p->pos]) ||
	       p->text[p->pos] == '.')
		p->pos++;
	len = p->pos - at - neg;
	if (!len || !(isdigit((unsigned char)p->text[at + neg]) ||
		      (type == T_SIGNED && neg && p->text[at + 1] == 'E'))) {
		p->pos = at;
		return fail(p, at, "expected a number");
	}
	if (len >= sizeof(tok))
		return fail(p, at, "number too long");
	memcpy(tok, p->text + at + neg, len);
	tok[len] = '\0';
	if (neg && type != T_SIGNED)
		return fail(p, at, "this field is never negative");
	if (tok[0] == 'E') {
		if (n->field != F_RET || !errno_value(tok, &n->sval))
			return fail(p, at, "expected a number or an errno "
				    "name (-EISDIR)");
		return 0;
	}
	switch (type) {
	case T_DURATION:
		/* A bare number is nanoseconds, as the records give it. */
		if (strspn(tok, "0123456789") == len)
			ret = rt_parse_size(tok, &u, why, sizeof(why));
		else
			ret = rt_parse_duration(tok, &u, why, sizeof(why));
		break;
	case T_UNSIGNED:
		if (strspn(tok, "0123456789") != len)
			return fail(p, at, "expected a whole number");
		/* fall through */
	default:
		ret = rt_parse_size(tok, &u, why, sizeof(why));
		break;
	}
	if (ret)
		return fail(p, at, why);
	if (type == T_SIGNED) {
		if (u > (uint64_t)INT64_MAX)
			return fail(p, at, "number out of range");
		n->sval = neg ? -(int64_t)u : (int64_t)u;
	} else {
		n->uval = u;
	}
	return 0;
}

/* A "quoted string", unescaped into e->buf. */
static int parse_string(struct parser *p, struct rt_expr_node *n)
{
	struct rt_expr *e = p->e;
	char *out = e->buf + p->buf_used;
	size_t at;

	skip_space(p);
	at = p->pos;
	if (p->text[p->pos] != '"')
		return fail(p, at, "expected a \"quoted string\"");
	p->pos++;
	n->str = out;
	for (;;) {
		char c = p->text[p->pos];

		if (!c)
			return fail(p, at, "string not terminated");
		p->pos++;
		if (c == '"')
			break;
		if (c == '\\' && (p->text[p->pos] == '"' ||
				  p->text[p->pos] == '\\'))
			c = p->text[p->pos++];
		/* buf is as long as the longest text: always room. */
		e->buf[p->buf_used++] = c;
	}
	e->buf[p->buf_used++] = '\0';
	return 0;
}

static int parse_comparison(struct parser *p)
{
	int idx, field, cmp;
	struct rt_expr_node *n;

	field = parse_field(p);
	if (field < 0)
		return -1;
	cmp = parse_cmp_op(p, fields[field].type == T_STRING);
	if (cmp < 0)
		return -1;
	idx = new_node(p, OP_CMP);
	if (idx < 0)
		return -1;
	n = &p->e->nodes[idx];
	n->field = (uint8_t)field;
	n->cmp = (uint8_t)cmp;
	if ((fields[field].type == T_STRING ? parse_string : parse_number)(p, n))
		return -1;
	p->e->kinds &= fields[field].kinds;
	return idx;
}

static int parse_unary(struct parser *p)
{
	int idx;

	skip_space(p);
	/* Bounds the recursion: no expression needs more (64 nodes). */
	if (p->depth >= RT_EXPR_MAX_NODES)
		return fail(p, p->pos, "nested too deeply");
	p->depth++;
	idx = parse_unary_nested(p);
	p->depth--;
	return idx;
}

/* ! unary, ( expr ), or a comparison; parse_unary() bounds the depth. */
static int parse_unary_nested(struct parser *p)
{
	int idx, sub;

	if (p->text[p->pos] == '!' && p->text[p->pos + 1] != '=') {
		p->pos++;
		sub = parse_unary(p);
		if (sub < 0)
			return -1;
		idx = new_node(p, OP_NOT);
		if (idx >= 0)
			p->e->nodes[idx].l = (uint8_t)sub;
		return idx;
	}
	if (accept(p, "(")) {
		sub = parse_or(p);
		if (sub < 0)
			return -1;
		if (!accept(p, ")"))
			return fail(p, p->pos, "expected )");
		return sub;
	}
	return parse_comparison(p);
}

/* and/or: left-associative chains of @next joined by @tok. */
static int parse_chain(struct parser *p, const char *tok, uint8_t op,
		       int (*next)(struct parser *))
{
	int left = next(p), right, idx;

	while (left >= 0 && accept(p, tok)) {
		right = next(p);
		if (right < 0)
			return -1;
		idx = new_node(p, op);
		if (idx < 0)
			return -1;
		p->e->nodes[idx].l = (uint8_t)left;
		p->e->nodes[idx].r = (uint8_t)right;
		left = idx;
	}
	return left;
}

static int parse_and(struct parser *p)
{
	return parse_chain(p, "&&", OP_AND, parse_unary);
}

static int parse_or(struct parser *p)
{
	return parse_chain(p, "||", OP_OR, parse_and);
}

int rt_expr_parse(struct rt_expr *e, const char *text, char *err,
		  size_t errlen)
{
	struct parser p = { .e = e, .text = text, .err = err,
			    .errlen = errlen };
	int root;

	memset(e, 0, sizeof(*e));
	e->kinds = ~0u;
	if (strlen(text) >= RT_EXPR_MAX_LEN) {
		snprintf(err, errlen, "longer than %u bytes", RT_EXPR_MAX_LEN - 1);
		return -1;
	}
	root = parse_or(&p);
	if (root < 0)
		return -1;
	skip_space(&p);
	if (text[p.pos]) {
		if (text[p.pos] == '&' || text[p.pos] == '|')
			return fail(&p, p.pos, "expected && or ||");
		return fail(&p, p.pos, "expected && or || or the end");
	}
	e->root = (uint32_t)root;
	return 0;
}

/* ---- evaluation: no allocation, depth bounded by RT_EXPR_MAX_NODES ---- */

static bool cmp_signed(uint8_t cmp, int64_t a, int64_t b)
{
	switch (cmp) {
	case C_EQ: return a == b;
	case C_NE: return a != b;
	case C_LT: return a < b;
	case C_LE: return a <= b;
	case C_GT: return a > b;
	default:   return a >= b;
	}
}

static bool cmp_unsigned(uint8_t cmp, uint64_t a, uint64_t b)
{
	switch (cmp) {
	case C_EQ: return a == b;
	case C_NE: return a != b;
	case C_LT: return a < b;
	case C_LE: return a <= b;
	case C_GT: return a > b;
	default:   return a >= b;
	}
}

static bool cmp_string(uint8_t cmp, const char *a, const char *pat)
{
	switch (cmp) {
	case C_EQ:    return !strcmp(a, pat);
	case C_NE:    return strcmp(a, pat) != 0;
	case C_GLOB:  return !fnmatch(pat, a, 0);
	default:      return fnmatch(pat, a, 0) != 0;
	}
}

/* A func call's fields: ret, lat and its function's name. */
static bool eval_func(const struct rt_expr_node *n, const struct rt_event *ev)
{
	const struct rt_func_event *f = &ev->u.func;
	char hex[RT_FUNC_LABEL_MAX];

	switch (n->field) {
	case F_RET:	return cmp_signed(n->cmp, f->ret, n->sval);
	case F_LAT:	return cmp_unsigned(n->cmp, f->lat_ns, n->uval);
	default:	return cmp_string(n->cmp, rt_output_func_label(f->idx,
					  f->ip, hex), n->str);
	}
}

static bool eval_cmp(const struct rt_expr_node *n, const struct rt_event *ev)
{
	const struct rt_vfs_read_event *r = &ev->u.vfs_read;

	/* Fields of another kind were refused: kinds (rt_expr_eval()). */
	if (ev->kind == RT_EVENT_FUNC &&
	    (n->field == F_RET || n->field == F_LAT || n->field == F_FUNC))
		return eval_func(n, ev);
	switch (n->field) {
	case F_RET:	return cmp_signed(n->cmp, r->ret, n->sval);
	case F_POS:	return cmp_signed(n->cmp, r->pos, n->sval);
	case F_COUNT:	return cmp_unsigned(n->cmp, r->count, n->uval);
	case F_LAT:	return cmp_unsigned(n->cmp, r->lat_ns, n->uval);
	case F_INO:	return cmp_unsigned(n->cmp, r->ino, n->uval);
	case F_PATH:	return cmp_string(n->cmp, r->path ? r->path : "", n->str);
	case F_WAIT:	return cmp_unsigned(n->cmp, ev->u.lock.wait_ns, n->uval);
	case F_HOLD:	return cmp_unsigned(n->cmp, ev->u.lock.hold_ns, n->uval);
	case F_LOCK:	return cmp_string(n->cmp, ev->u.lock.name, n->str);
	case F_OFFCPU:	return cmp_unsigned(n->cmp, ev->u.offcpu.offcpu_ns,
					    n->uval);
	case F_PID:	return cmp_unsigned(n->cmp, ev->pid, n->uval);
	case F_TID:	return cmp_unsigned(n->cmp, ev->tid, n->uval);
	case F_CPU:	return cmp_unsigned(n->cmp, ev->cpu, n->uval);
	default:	return cmp_string(n->cmp, ev->comm, n->str);
	}
}

static bool eval(const struct rt_expr *e, uint32_t i, const struct rt_event *ev)
{
	const struct rt_expr_node *n = &e->nodes[i];

	switch (n->op) {
	case OP_AND:	return eval(e, n->l, ev) && eval(e, n->r, ev);
	case OP_OR:	return eval(e, n->l, ev) || eval(e, n->r, ev);
	case OP_NOT:	return !eval(e, n->l, ev);
	default:	return eval_cmp(n, ev);
	}
}

bool rt_expr_eval(const struct rt_expr *e, const struct rt_event *ev)
{
	if ((unsigned int)ev->kind >= 32 || !(e->kinds & K(ev->kind)))
		return false;
	return eval(e, e->root, ev);
}

/* ---- the part the module can decide ---- */

void rt_expr_ranges_init(struct rt_expr_ranges *r)
{
	memset(r, 0, sizeof(*r));
	r->ret_min = INT64_MIN;
	r->ret_max = INT64_MAX;
	r->count_max = UINT64_MAX;
}

static void narrow_signed(uint8_t cmp, int64_t v, int64_t *lo, int64_t *hi)
{
	int64_t l = INT64_MIN, h = INT64_MAX;

	switch (cmp) {
	case C_EQ: l = h = v; break;
	case C_LT: if (v == INT64_MIN) { l = 1; h = 0; } else { h = v - 1; } break;
	case C_LE: h = v; break;
	case C_GT: if (v == INT64_MAX) { l = 1; h = 0; } else { l = v + 1; } break;
	case C_GE: l = v; break;
	default: return;	/* != is not a range */
	}
	if (l > *lo)
		*lo = l;
	if (h < *hi)
		*hi = h;
}

static void narrow_unsigned(uint8_t cmp, uint64_t v, uint64_t *lo,
			    uint64_t *hi)
{
	uint64_t l = 0, h = UINT64_MAX;

	switch (cmp) {
	case C_EQ: l = h = v; break;
	case C_LT: if (!v) { l = 1; h = 0; } else { h = v - 1; } break;
	case C_LE: h = v; break;
	case C_GT: if (v == UINT64_MAX) { l = 1; h = 0; } else { l = v + 1; } break;
	case C_GE: l = v; break;
	default: return;
	}
	if (l > *lo)
		*lo = l;
	if (h < *hi)
		*hi = h;
}

static void ranges_walk(struct rt_expr_ranges *r, const struct rt_expr *e,
			uint32_t i)
{
	const struct rt_expr_node *n = &e->nodes[i];

	if (n->op == OP_AND) {
		ranges_walk(r, e, n->l);
		ranges_walk(r, e, n->r);
	} else if (n->op == OP_CMP && n->field == F_RET && n->cmp != C_NE) {
		narrow_signed(n->cmp, n->sval, &r->ret_min, &r->ret_max);
		r->ret_set = true;
	} else if (n->op == OP_CMP && n->field == F_COUNT && n->cmp != C_NE) {
		narrow_unsigned(n->cmp, n->uval, &r->count_min, &r->count_max);
		r->count_set = true;
	}
	/* Anything else (||, !, other fields): user space decides. */
}

void rt_expr_ranges_add(struct rt_expr_ranges *r, const struct rt_expr *e)
{
	ranges_walk(r, e, e->root);
}

bool rt_expr_ranges_empty(const struct rt_expr_ranges *r)
{
	return r->ret_min > r->ret_max || r->count_min > r->count_max;
}
