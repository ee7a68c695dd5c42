// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Output buffer drained in large write(2) calls (see outbuf.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>

/* Linux's UIO_MAXIOV: the most pieces one writev(2) takes. */
#define WRITEV_MAX	1024

#include "ringtrace/outbuf.h"
#include "ringtrace/sys.h"

const char rt_digit_pairs[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

int rt_outbuf_init(struct rt_outbuf *ob, int fd, size_t cap)
{
	if (cap < 2 * RT_OUTBUF_MAX_RECORD)
		cap = 2 * RT_OUTBUF_MAX_RECORD;
	ob->fd = fd;
	ob->len = 0;
	ob->bytes = 0;
	ob->writes = 0;
	ob->error = 0;
	ob->bounce = false;
	ob->cap = cap;
	ob->buf = malloc(cap);
	if (!ob->buf) {
		ob->cap = 0;
		ob->error = ENOMEM;
		return -ENOMEM;
	}
	return 0;
}

void rt_outbuf_fini(struct rt_outbuf *ob)
{
	free(ob->buf);
	ob->buf = NULL;
	ob->cap = 0;
	ob->len = 0;
}

/* Write @n bytes at @p fully, or record the first error. */
static void write_all(struct rt_outbuf *ob, const char *p, size_t n)
{
	while (n && !ob->error) {
		ssize_t done = rt_sys.write(ob->fd, p, n);

		ob->writes++;
		if (done < 0) {
			if (errno == EINTR)
				continue;
			ob->error = errno;
			break;
		}
		if (done == 0) {
			ob->error = EIO;
			break;
		}
		p += done;
		n -= (size_t)done;
		ob->bytes += (uint64_t)done;
	}
}

int rt_outbuf_flush(struct rt_outbuf *ob)
{
	write_all(ob, ob->buf, ob->len);
	ob->len = 0;
	return -ob->error;
}

char *rt_outbuf_make_room(struct rt_outbuf *ob, size_t n)
{
	if (!ob->error)
		rt_outbuf_flush(ob);
	/* After an error, output is discarded: hand out the buffer again. */
	ob->len = 0;
	return n <= ob->cap ? ob->buf : NULL;
}

void rt_outbuf_append(struct rt_outbuf *ob, const void *p, size_t n)
{
	const char *src = p;

	if (ob->error)
		return;
	if (n >= ob->cap) {
		/* Bigger than the buffer: skip the copy. */
		rt_outbuf_flush(ob);
		write_all(ob, src, n);
		return;
	}
	if (ob->cap - ob->len < n)
		rt_outbuf_flush(ob);
	if (ob->error)
		return;
	memcpy(ob->buf + ob->len, src, n);
	ob->len += n;
}

int rt_outbuf_writev(struct rt_outbuf *ob, struct iovec *iov, int n)
{
	int i = 0;

	iov[0].iov_base = ob->buf;
	iov[0].iov_len = ob->len;
	ob->len = 0;
	n++;
	while (!ob->error) {
		ssize_t done;

		while (i < n && !iov[i].iov_len)
			i++;
		if (i == n)
			break;
		if (ob->bounce && i > 0) {
			/* Our buffer is written (i > 0): it is free to copy into. */
			size_t len = iov[i].iov_len < ob->cap ? iov[i].iov_len :
								ob->cap;

			memcpy(ob->buf, iov[i].iov_base, len);
			done = rt_sys.write(ob->fd, ob->buf, len);
		} else if (ob->bounce) {
			done = rt_sys.write(ob->fd, iov[0].iov_base,
					    iov[0].iov_len);
		} else {
			done = rt_sys.writev(ob->fd, iov + i,
					     n - i > WRITEV_MAX ? WRITEV_MAX :
								  n - i);
		}
		ob->writes++;
		if (done < 0) {
			if (errno == EINTR)
				continue;
			/*
			 * Some file systems (9p, FUSE, NFS with direct I/O) pin
			 * the source pages, and a perf ring's mapping cannot be
			 * pinned: copy from then on, for this output.
			 */
			if (errno == EFAULT && !ob->bounce) {
				ob->bounce = true;
				continue;
			}
			ob->error = errno;
			break;
		}
		if (done == 0) {
			ob->error = EIO;
			break;
		}
		ob->bytes += (uint64_t)done;
		/* A partial write: skip what went, resume mid-piece. */
		for (size_t left = (size_t)done; left;) {
			size_t step = left < iov[i].iov_len ? left :
							      iov[i].iov_len;

			iov[i].iov_base = (char *)iov[i].iov_base + step;
			iov[i].iov_len -= step;
			left -= step;
			if (!iov[i].iov_len)
				i++;
		}
	}
	return -ob->error;
}

void rt_outbuf_printf(struct rt_outbuf *ob, const char *fmt, ...)
{
	char *p = rt_outbuf_reserve(ob, RT_OUTBUF_MAX_RECORD);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p, RT_OUTBUF_MAX_RECORD, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((unsigned int)n >= RT_OUTBUF_MAX_RECORD)
		n = RT_OUTBUF_MAX_RECORD - 1;
	rt_outbuf_commit(ob, p + n);
}
