/* SPDX-License-Identifier: GPL-2.0-only */
/* One event as a printer writes it, for tests that compare lines. */
#ifndef RINGTRACE_TESTS_PRINT_EVENT_H
#define RINGTRACE_TESTS_PRINT_EVENT_H

#include <stdbool.h>

#include "ringtrace/output.h"

/*
 * What @print writes for @ev, NUL-terminated, in a static buffer that the
 * next call reuses (a record's line is at most RT_OUTBUF_MAX_RECORD).
 */
const char *print_event(rt_print_fn print, const struct rt_event *ev);

/* The text line (@json false) or the JSON object of @ev. */
static inline const char *print_event_as(const struct rt_event *ev, bool json)
{
	return print_event(json ? rt_print_json : rt_print_text, ev);
}

#endif /* RINGTRACE_TESTS_PRINT_EVENT_H */
