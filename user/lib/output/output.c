// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Choosing a printer by format, and what printers share (see output.h). */
#include "ringtrace/output.h"
#include "ringtrace/record.h"

rt_print_fn rt_printer(enum rt_format format)
{
	switch (format) {
	case RT_FORMAT_TEXT:
		return rt_print_text;
	case RT_FORMAT_JSON:
		return rt_print_json;
	case RT_FORMAT_RAW:
		break;
	}
	return NULL;
}

char *rt_fmt_stack_frames(char *p, const unsigned char *f, uint32_t nr,
			  char quote)
{
	for (uint32_t i = 0; i < nr; i++) {
		if (i)
			*p++ = ',';
		if (quote)
			*p++ = quote;
		p = rt_fmt_hex(p, rt_stack_frame(f, i));
		if (quote)
			*p++ = quote;
	}
	return p;
}
