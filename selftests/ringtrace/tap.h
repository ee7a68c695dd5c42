/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TAP output for the selftests, kselftest's conventions: "TAP version 13",
 * a plan, one "ok N - what" / "not ok N - what" per check, "# SKIP why"
 * for checks that cannot run here, "# ..." for diagnostics, and the exit
 * status 0 (pass), 1 (fail) or 4 (skip) the runner reads.
 */
#ifndef RINGTRACE_SELFTEST_TAP_H
#define RINGTRACE_SELFTEST_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

struct tap_state {
	int planned;
	int run;
	int failed;
	int skipped;
};

static struct tap_state tap;

static inline void tap_plan(int n)
{
	tap.planned = n;
	printf("TAP version 13\n1..%d\n", n);
	fflush(stdout);
}

static inline void tap_vdiag(const char *fmt, va_list ap)
{
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
}

static inline void __attribute__((format(printf, 1, 2)))
tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vdiag(fmt, ap);
	va_end(ap);
}

/* Report one check; returns @pass so callers can stop early. */
static inline bool __attribute__((format(printf, 2, 3)))
tap_ok(bool pass, const char *fmt, ...)
{
	va_list ap;

	tap.run++;
	if (!pass)
		tap.failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap.run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return pass;
}

static inline void __attribute__((format(printf, 1, 2)))
tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap.run++;
	tap.skipped++;
	printf("ok %d # SKIP ", tap.run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Nothing in this program can run here: one plan line, exit 4. */
static inline void __attribute__((noreturn, format(printf, 1, 2)))
tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	printf("TAP version 13\n1..0 # SKIP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(KSFT_SKIP);
}

/* Something the test needs broke: fail every remaining planned check. */
static inline void __attribute__((noreturn, format(printf, 1, 2)))
tap_bail(const char *fmt, ...)
{
	va_list ap;

	printf("Bail out! ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(KSFT_FAIL);
}

static inline int tap_finish(void)
{
	if (tap.run != tap.planned) {
		tap_diag("planned %d checks, ran %d", tap.planned, tap.run);
		return KSFT_FAIL;
	}
	if (tap.failed)
		return KSFT_FAIL;
	if (tap.skipped == tap.run)
		return KSFT_SKIP;
	return KSFT_PASS;
}

#endif /* RINGTRACE_SELFTEST_TAP_H */
