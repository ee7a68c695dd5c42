// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output buffer and its number formatting: integers at every width
 * and both extremes, padding helpers, appends larger than the buffer,
 * writes only when full or flushed, partial writes completed, EINTR
 * retried, and a write error (EPIPE) that is sticky and stops writing;
 * writev of outside pieces after the buffered bytes, in order, through
 * short writes that end mid-piece; pieces copied through the buffer once
 * a writev got EFAULT (a file system that pins a perf mapping).
 */
#include <errno.h>
#include <sys/uio.h>

#include "test.h"

#include "ringtrace/outbuf.h"
#include "ringtrace/sys.h"

static char sink[1 << 21];
static size_t sink_len;
static int writes, fail_errno, short_writes, eintr_left;
static const void *unpinnable;	/* writev of a piece here: EFAULT */

static ssize_t fake_write(int fd, const void *buf, size_t len)
{
	(void)fd;
	writes++;
	if (eintr_left) {
		eintr_left--;
		errno = EINTR;
		return -1;
	}
	if (fail_errno) {
		errno = fail_errno;
		return -1;
	}
	if (short_writes && len > 3)
		len = 3;
	memcpy(sink + sink_len, buf, len);
	sink_len += len;
	return (ssize_t)len;
}

/* Like fake_write(), gathering up to 3 bytes per call when short. */
static ssize_t fake_writev(int fd, const struct iovec *iov, int n)
{
	size_t total = 0;

	(void)fd;
	for (int i = 0; i < n; i++)
		total += iov[i].iov_len;
	if (eintr_left || fail_errno)
		return fake_write(fd, NULL, 0);
	writes++;
	for (int i = 0; i < n; i++)
		if (unpinnable && iov[i].iov_base == unpinnable) {
			errno = EFAULT;
			return -1;
		}
	if (short_writes && total > 3)
		total = 3;
	for (size_t left = total; left; iov++) {
		size_t step = left < iov->iov_len ? left : iov->iov_len;

		memcpy(sink + sink_len, iov->iov_base, step);
		sink_len += step;
		left -= step;
	}
	return (ssize_t)total;
}

static int setup(void **state)
{
	(void)state;
	sink_len = 0;
	writes = fail_errno = short_writes = eintr_left = 0;
	unpinnable = NULL;
	rt_sys.write = fake_write;
	rt_sys.writev = fake_writev;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rt_sys_reset();
	return 0;
}

static const char *fmt_u(uint64_t v)
{
	static char b[32];

	*rt_fmt_u64(b, v) = '\0';
	return b;
}

static void test_integers(void **state)
{
	char b[64];

	(void)state;
	for (uint64_t v = 1, digits = 1; digits < 20; v *= 10, digits++) {
		char want[32];

		snprintf(want, sizeof(want), "%llu", (unsigned long long)(v - 1));
		assert_string_equal(fmt_u(v - 1), want);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
		assert_string_equal(fmt_u(v), want);
	}
	assert_string_equal(fmt_u(UINT64_MAX), "18446744073709551615");
	*rt_fmt_i64(b, INT64_MIN) = '\0';
	assert_string_equal(b, "-9223372036854775808");
	*rt_fmt_i64(b, -1) = '\0';
	assert_string_equal(b, "-1");
	*rt_fmt_u64_zero(b, 7, 3) = '\0';
	assert_string_equal(b, "007");
	*rt_fmt_u64_right(b, 42, 5) = '\0';
	assert_string_equal(b, "   42");
	*rt_fmt_u64_left(b, 42, 5) = '\0';
	assert_string_equal(b, "42   ");
	*rt_fmt_u64_right(b, 123456, 3) = '\0';
	assert_string_equal(b, "123456");
	*rt_fmt_hex(b, 0) = '\0';
	assert_string_equal(b, "0x0");
	*rt_fmt_hex(b, UINT64_MAX) = '\0';
	assert_string_equal(b, "0xffffffffffffffff");
	*rt_fmt_ns_as_us(b, 1000001) = '\0';
	assert_string_equal(b, "1000.001");
}

static void test_writes_only_when_full(void **state)
{
	struct rt_outbuf ob;

	(void)state;
	rt_outbuf_init(&ob, 1, 64 * 1024);
	for (int i = 0; i < 1000; i++) {
		char *p = rt_outbuf_reserve(&ob, 100);

		memset(p, 'a' + i % 26, 100);
		rt_outbuf_commit(&ob, p + 100);
	}
	assert_true(writes <= 2);		/* 100000 bytes, 64 KiB buffer */
	rt_outbuf_flush(&ob);
	assert_int_equal(sink_len, 100000);
	assert_int_equal(ob.bytes, 100000);
	assert_int_equal(sink[99999], 'a' + 999 % 26);
	rt_outbuf_fini(&ob);
}

static void test_big_append_and_partial_writes(void **state)
{
	static char big[300000];
	struct rt_outbuf ob;

	(void)state;
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)i;
	rt_outbuf_init(&ob, 1, 0);
	rt_outbuf_append(&ob, "xy", 2);
	rt_outbuf_append(&ob, big, sizeof(big));
	short_writes = 1;
	eintr_left = 2;
	rt_outbuf_append(&ob, "z", 1);
	assert_int_equal(rt_outbuf_flush(&ob), 0);
	assert_int_equal(sink_len, sizeof(big) + 3);
	assert_memory_equal(sink, "xy", 2);
	assert_memory_equal(sink + 2, big, sizeof(big));
	assert_int_equal(sink[sink_len - 1], 'z');
	rt_outbuf_fini(&ob);
}

static void test_error_is_sticky(void **state)
{
	struct rt_outbuf ob;
	int before;

	(void)state;
	rt_outbuf_init(&ob, 1, 0);
	fail_errno = EPIPE;
	rt_outbuf_append(&ob, "hello", 5);
	assert_int_equal(rt_outbuf_flush(&ob), -EPIPE);
	assert_int_equal(ob.error, EPIPE);
	before = writes;
	for (int i = 0; i < 10000; i++) {
		char *p = rt_outbuf_reserve(&ob, 200);

		assert_non_null(p);
		memset(p, 'x', 200);
		rt_outbuf_commit(&ob, p + 200);
	}
	rt_outbuf_append(&ob, "more", 4);
	rt_outbuf_flush(&ob);
	assert_int_equal(writes, before);	/* nothing tried after EPIPE */
	rt_outbuf_fini(&ob);
}

static void test_writev_pieces(void **state)
{
	static const char a[] = "ring-", b[] = "bytes", c[] = "!";
	struct iovec iov[4] = {
		[1] = { (void *)a, 5 }, [2] = { (void *)b, 0 },
		[3] = { (void *)b, 5 },
	};
	struct iovec iov2[2] = { [1] = { (void *)c, 1 } };
	struct rt_outbuf ob;

	(void)state;
	rt_outbuf_init(&ob, 1, 0);
	rt_outbuf_append(&ob, "hdr:", 4);
	short_writes = 1;
	eintr_left = 1;
	assert_int_equal(rt_outbuf_writev(&ob, iov, 3), 0);
	assert_int_equal(ob.len, 0);
	assert_int_equal(sink_len, 14);
	assert_memory_equal(sink, "hdr:ring-bytes", 14);
	assert_int_equal(ob.bytes, 14);
	/* 14 bytes, 3 at a time, and the EINTR. */
	assert_int_equal(writes, 6);
	/* Nothing buffered: only the piece. */
	assert_int_equal(rt_outbuf_writev(&ob, iov2, 1), 0);
	assert_memory_equal(sink, "hdr:ring-bytes!", 15);
	fail_errno = EPIPE;
	iov2[1].iov_len = 1;
	assert_int_equal(rt_outbuf_writev(&ob, iov2, 1), -EPIPE);
	assert_int_equal(sink_len, 15);
	rt_outbuf_fini(&ob);
}

/*
 * A file system that pins the source pages cannot take a perf ring's
 * mapping (EFAULT): the pieces are copied through the buffer instead,
 * in order, and every later writev on that output copies too.
 */
static void test_writev_efault_copies(void **state)
{
	static const char a[] = "perf-", b[] = "ring";
	struct iovec iov[3] = { [1] = { (void *)a, 5 }, [2] = { (void *)b, 4 } };
	struct iovec iov2[2] = { [1] = { (void *)b, 4 } };
	struct rt_outbuf ob;

	(void)state;
	rt_outbuf_init(&ob, 1, 0);
	rt_outbuf_append(&ob, "hdr:", 4);
	unpinnable = a;
	assert_int_equal(rt_outbuf_writev(&ob, iov, 2), 0);
	assert_true(ob.bounce);
	assert_int_equal(sink_len, 13);
	assert_memory_equal(sink, "hdr:perf-ring", 13);
	assert_int_equal(ob.bytes, 13);
	/* The failed writev, then one write per piece. */
	assert_int_equal(writes, 4);
	assert_int_equal(rt_outbuf_writev(&ob, iov2, 1), 0);
	assert_memory_equal(sink, "hdr:perf-ringring", 17);
	assert_int_equal(writes, 5);
	rt_outbuf_fini(&ob);
}

int main(void)
{
	RUN(cmocka_unit_test(test_integers),
	    cmocka_unit_test_setup_teardown(test_writes_only_when_full, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_big_append_and_partial_writes,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_writev_pieces, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_writev_efault_copies, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_error_is_sticky, setup,
					    teardown));
}
