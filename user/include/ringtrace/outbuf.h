/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A big output buffer drained with write(2) in large chunks, and the small
 * formatting helpers printers use to fill it. No stdio, no allocation and
 * no system call per record: printers reserve room for a whole record,
 * format into it and commit.
 *
 * Errors are sticky and make later output a no-op (the bytes go to the
 * start of the buffer and are dropped), so printers need no error checks;
 * the caller looks at rt_outbuf.error once per batch. EPIPE is reported
 * like any other errno: the caller decides that it means "stop quietly".
 */
#ifndef RINGTRACE_OUTBUF_H
#define RINGTRACE_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RT_OUTBUF_DEFAULT_SIZE	(1u << 20)	/* flush in 1 MiB writes */
/*
 * reserve() never needs more: the longest line is a vfs_read with a
 * 511-byte path escaped (x6 in JSON) and two 64-frame stacks, or a
 * sample's 128-frame chain, each frame with its address and a name of at
 * most 127 bytes (frame_names.h).
 */
#define RT_OUTBUF_MAX_RECORD	32768u

struct rt_outbuf {
	int		fd;
	char		*buf;
	size_t		cap;
	size_t		len;
	uint64_t	bytes;		/* written to fd so far */
	uint64_t	writes;		/* write(2) calls made */
	int		error;		/* first errno, sticky; 0 while fine */
	bool		bounce;		/* writev of mappings got EFAULT: copy */
};

/* @cap is rounded up to at least 2 * RT_OUTBUF_MAX_RECORD. */
int rt_outbuf_init(struct rt_outbuf *ob, int fd, size_t cap);
void rt_outbuf_fini(struct rt_outbuf *ob);

/* Write everything buffered. Returns 0 or -errno (also kept in ->error). */
int rt_outbuf_flush(struct rt_outbuf *ob);

/* Slow path of rt_outbuf_reserve(). */
char *rt_outbuf_make_room(struct rt_outbuf *ob, size_t n);

/*
 * Room for @n bytes (n <= cap); write them at the returned pointer, then
 * call rt_outbuf_commit() with the end of what was written.
 */
static inline char *rt_outbuf_reserve(struct rt_outbuf *ob, size_t n)
{
	if (ob->cap - ob->len >= n && !ob->error)
		return ob->buf + ob->len;
	return rt_outbuf_make_room(ob, n);
}

static inline void rt_outbuf_commit(struct rt_outbuf *ob, const char *end)
{
	ob->len = (size_t)(end - ob->buf);
}

/* Copy bytes of any length (raw records): flushes as often as needed. */
void rt_outbuf_append(struct rt_outbuf *ob, const void *p, size_t n);

struct iovec;

/*
 * Write what is buffered, then @n more pieces from wherever they lie (the
 * mapped ring), in as few writev(2) calls as the file takes: no copy.
 * @iov[0] must be left empty for the buffered bytes; @iov is consumed.
 * Returns 0 or -errno (also kept in ->error). When it returns, nothing
 * points into the pieces any more: their memory may be reused.
 */
int rt_outbuf_writev(struct rt_outbuf *ob, struct iovec *iov, int n);

/*
 * printf into the buffer, for end-of-run views (histograms, tables), not
 * for per-record printers: at most RT_OUTBUF_MAX_RECORD bytes, cut there.
 */
void rt_outbuf_printf(struct rt_outbuf *ob, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- formatting into reserved space; each returns the new end ---- */

extern const char rt_digit_pairs[200];

/* Decimal digits of @v (1..20). */
static inline unsigned int rt_fmt_u64_len(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	if (v >= 1000)
		return n + 3;
	if (v >= 100)
		return n + 2;
	return n + (v >= 10);
}

/* Decimal, written back to front two digits at a time. */
static inline char *rt_fmt_u64(char *p, uint64_t v)
{
	unsigned int len = rt_fmt_u64_len(v);
	char *end = p + len;
	char *q = end;

	while (v >= 100) {
		unsigned int i = (unsigned int)(v % 100) * 2;

		v /= 100;
		*--q = rt_digit_pairs[i + 1];
		*--q = rt_digit_pairs[i];
	}
	if (v >= 10) {
		*--q = rt_digit_pairs[v * 2 + 1];
		*--q = rt_digit_pairs[v * 2];
	} else {
		*--q = (char)('0' + v);
	}
	return end;
}

static inline char *rt_fmt_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return rt_fmt_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return rt_fmt_u64(p, (uint64_t)v);
}

/* Zero-padded to exactly @width digits (v must fit). */
static inline char *rt_fmt_u64_zero(char *p, uint64_t v, unsigned int width)
{
	char *end = p + width;

	for (char *q = end; q > p; v /= 10)
		*--q = (char)('0' + v % 10);
	return end;
}

/* Right-aligned in at least @width columns, space-padded. */
static inline char *rt_fmt_u64_right(char *p, uint64_t v, unsigned int width)
{
	unsigned int len = rt_fmt_u64_len(v);

	while (len < width--)
		*p++ = ' ';
	return rt_fmt_u64(p, v);
}

/* Left-aligned in at least @width columns, space-padded. */
static inline char *rt_fmt_u64_left(char *p, uint64_t v, unsigned int width)
{
	char *end = rt_fmt_u64(p, v);

	while ((unsigned int)(end - p) < width)
		*end++ = ' ';
	return end;
}

/* Lower-case hex with 0x prefix, no padding. */
static inline char *rt_fmt_hex(char *p, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int n = 1;

	while (n < 16 && (v >> (4 * n)))
		n++;
	*p++ = '0';
	*p++ = 'x';
	for (unsigned int i = n; i-- > 0;)
		*p++ = hex[(v >> (4 * i)) & 0xf];
	return p;
}

/* Literal string of known length (use with sizeof("...") - 1). */
static inline char *rt_fmt_lit(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

#define RT_FMT_LIT(p, s)	rt_fmt_lit((p), (s), sizeof(s) - 1)

/* "12.345" from ns as microseconds with 3 decimals (exact). */
static inline char *rt_fmt_ns_as_us(char *p, uint64_t ns)
{
	p = rt_fmt_u64(p, ns / 1000);
	*p++ = '.';
	return rt_fmt_u64_zero(p, ns % 1000, 3);
}

#endif /* RINGTRACE_OUTBUF_H */
