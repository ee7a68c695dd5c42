/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the libFuzzer harnesses share: an output buffer on /dev/null, so
 * that every decoded event also goes through the text and JSON printers
 * (a decoder that hands out a bad pointer or length shows up there).
 */
#ifndef RINGTRACE_FUZZ_COMMON_H
#define RINGTRACE_FUZZ_COMMON_H

#include <fcntl.h>
#include <stdlib.h>

#include "ringtrace/outbuf.h"
#include "ringtrace/output.h"
#include "ringtrace/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline struct rt_outbuf *fuzz_out(void)
{
	static struct rt_outbuf ob;
	static int ready;

	if (!ready) {
		int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (fd < 0 || rt_outbuf_init(&ob, fd, 0))
			abort();
		ready = 1;
	}
	return &ob;
}

/* Print @ev both ways, then drop the text (it went to /dev/null). */
static inline void fuzz_print(const struct rt_event *ev)
{
	struct rt_outbuf *ob = fuzz_out();

	rt_print_text(ob, ev);
	rt_print_json(ob, ev);
	if (rt_outbuf_flush(ob))
		abort();
}

#endif /* RINGTRACE_FUZZ_COMMON_H */
