/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Escaping the strings a record carries (comm, lock names: arbitrary bytes
 * chosen by whoever named the task or lock) for the two text outputs.
 *
 * JSON: '"' and '\' are backslash-escaped; control characters use \b \f
 * \n \r \t or \u00XX; DEL is \u007f; valid UTF-8 is copied as is; each
 * byte that is not part of a valid UTF-8 sequence (stray continuation,
 * truncated sequence, overlong form, surrogate, above U+10FFFF) becomes
 * \ufffd, the replacement character. We do not map such bytes to \u00XX:
 * that would silently turn byte 0xE9 into the valid character "é" and make
 * two different byte strings print the same. Exact bytes remain available
 * in the raw format.
 *
 * Text: the line must stay one line and unambiguous, so control
 * characters, DEL, '\' and bytes of invalid UTF-8 become \xNN (and '\'
 * becomes \\); valid UTF-8 is copied as is.
 */
#ifndef RINGTRACE_ESCAPE_H
#define RINGTRACE_ESCAPE_H

#include <stddef.h>

/* Worst-case output bytes per input byte, for reserving buffer space. */
#define RT_JSON_ESCAPE_MAX	6
#define RT_TEXT_ESCAPE_MAX	4

/*
 * Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0 if
 * the byte at @s does not start one. ASCII counts as a sequence of 1.
 */
size_t rt_utf8_seq_len(const unsigned char *s, size_t n);

/* Escape the NUL-terminated @s (at most @max bytes) into @out; returns end. */
char *rt_json_escape(char *out, const char *s, size_t max);

/*
 * Escape for text output; *columns (may be NULL) receives the display
 * width (one column per character or escape byte), for alignment.
 */
char *rt_text_escape(char *out, const char *s, size_t max, size_t *columns);

#endif /* RINGTRACE_ESCAPE_H */
