// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the raw-file reader end to end, as `ringtrace-cat -i`
 * runs it. The input is the file (written to a memfd and opened through
 * /proc/self/fd, so the reader maps it as it maps a real file); it is
 * indexed (rt_raw_open()) and, when accepted, streamed through the ring
 * cursor, the merge, the decoder and the text printer (rt_stream_file()).
 * Refusals and "corrupt" verdicts are fine; crashes, sanitizer reports and
 * leaks are not.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static volatile sig_atomic_t never;
	struct rt_stream st = { .format = RT_FORMAT_TEXT, .stop = &never };
	struct rt_raw_file f;
	char path[64];
	int fd = memfd_create("ringtrace-fuzz", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!rt_raw_open(&f, path)) {
		st.out = fuzz_out();
		(void)rt_stream_file(&st, &f);
	}
	rt_raw_close(&f);
	close(fd);
	return 0;
}
