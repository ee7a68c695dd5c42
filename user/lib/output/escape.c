// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* String escaping for JSON and text output (rules in escape.h). */
#include <stdint.h>

#include "ringtrace/escape.h"

static const char hex_digits[] = "0123456789abcdef";

size_t rt_utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;	/* allowed range of byte 2 */

	if (c < 0x80)
		return 1;
	if (c < 0xc2)			/* continuation byte or overlong 2-byte */
		return 0;
	if (c < 0xe0) {
		len = 2;
	} else if (c < 0xf0) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* UTF-16 surrogates */
	} else if (c < 0xf5) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

static size_t bounded_len(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

char *rt_json_escape(char *out, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = bounded_len(str, max);

	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len;

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			*out++ = (char)c;
			i++;
			continue;
		}
		*out++ = '\\';
		switch (c) {
		case '"':  *out++ = '"';  i++; continue;
		case '\\': *out++ = '\\'; i++; continue;
		case '\b': *out++ = 'b';  i++; continue;
		case '\f': *out++ = 'f';  i++; continue;
		case '\n': *out++ = 'n';  i++; continue;
		case '\r': *out++ = 'r';  i++; continue;
		case '\t': *out++ = 't';  i++; continue;
		}
		if (c < 0x80) {			/* other controls and DEL */
			*out++ = 'u';
			*out++ = '0';
			*out++ = '0';
			*out++ = hex_digits[c >> 4];
			*out++ = hex_digits[c & 0xf];
			i++;
			continue;
		}
		len = rt_utf8_seq_len(s + i, n - i);
		if (!len) {
			for (const char *r = "ufffd"; *r; r++)
				*out++ = *r;
			i++;
			continue;
		}
		out--;				/* valid UTF-8: no backslash */
		for (size_t k = 0; k < len; k++)
			*out++ = (char)s[i + k];
		i += len;
	}
	return out;
}

char *rt_text_escape(char *out, const char *str, size_t max, size_t *columns)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = bounded_len(str, max), cols = 0;

	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len = 1;

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			*out++ = (char)c;
		} else if (c == '\\') {
			*out++ = '\\';
			*out++ = '\\';
			cols++;
		} else if (c >= 0x80 && (len = rt_utf8_seq_len(s + i, n - i))) {
			for (size_t k = 0; k < len; k++)
				*out++ = (char)s[i + k];
		} else {
			len = 1;
			*out++ = '\\';
			*out++ = 'x';
			*out++ = hex_digits[c >> 4];
			*out++ = hex_digits[c & 0xf];
			cols += 3;
		}
		cols++;
		i += len;
	}
	if (columns)
		*columns = cols;
	return out;
}
