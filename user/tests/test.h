/* SPDX-License-Identifier: GPL-2.0-only */
/* What every cmocka test file needs, in the order cmocka.h requires. */
#ifndef RINGTRACE_TESTS_TEST_H
#define RINGTRACE_TESTS_TEST_H

#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define RUN(...)							\
	do {								\
		const struct CMUnitTest tests_[] = { __VA_ARGS__ };	\
		return cmocka_run_group_tests(tests_, NULL, NULL);	\
	} while (0)

#endif /* RINGTRACE_TESTS_TEST_H */
