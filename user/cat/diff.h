/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ringtrace-cat --diff BEFORE AFTER: two recordings (raw files) or two
 * folded-stack files compared, a mode of its own with its own options
 * and checks: --flamegraph FILE (differential SVG), --folded (stack,
 * before, after), --hist (both latency distributions side by side) and
 * --summary (process x file, before, after, change).
 *
 * Raw files go through the same views as -i FILE (views.c), so
 * every flame weight the tool knows compares the same way.
 */
#ifndef RINGTRACE_CAT_DIFF_H
#define RINGTRACE_CAT_DIFF_H

#include <stdbool.h>

/* Whether argv asks for --diff (before any "--"). */
bool cat_diff_requested(int argc, char **argv);

/* The whole --diff run; returns the exit status (options.h). */
int cat_diff_main(int argc, char **argv);

#endif /* RINGTRACE_CAT_DIFF_H */
