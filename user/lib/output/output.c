// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Choosing a printer by format (see output.h). */
#include "ringtrace/output.h"

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
