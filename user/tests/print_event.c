// SPDX-License-Identifier: GPL-2.0-only
/* One event as a printer writes it (print_event.h). */
#include "test.h"

#include "print_event.h"

const char *print_event(rt_print_fn print, const struct rt_event *ev)
{
	static char text[RT_OUTBUF_MAX_RECORD + 1];
	struct rt_outbuf ob;

	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	print(&ob, ev);
	assert_true(ob.len < sizeof(text));
	memcpy(text, ob.buf, ob.len);
	text[ob.len] = '\0';
	rt_outbuf_fini(&ob);
	return text;
}
