/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ringtrace-cat's error messages. Each goes to standard error as
 * "ringtrace-cat: MESSAGE"; with --json also to standard output as one
 * JSON object, {"error":"MESSAGE"}, so that a program reading the JSON
 * learns why it ended (bpftool's habit). Notes and summaries are not
 * errors: they stay text on standard error.
 */
#ifndef RINGTRACE_CAT_ERRORS_H
#define RINGTRACE_CAT_ERRORS_H

#include <stdbool.h>

/* Whether errors are also JSON (argv holds --json), decided before parsing. */
void cat_errors_from_argv(int argc, char **argv);

void __attribute__((format(printf, 1, 2))) cat_error(const char *fmt, ...);

/* The same, for a message that is already formatted. */
void cat_error_str(const char *msg);

#endif /* RINGTRACE_CAT_ERRORS_H */
