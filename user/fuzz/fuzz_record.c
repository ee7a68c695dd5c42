// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: ringtrace's record decoder (rt_decode(), rt_record_ts())
 * on any bytes of any length, each decoded event printed as text and JSON.
 * The first byte picks the ring's CPU; the rest is one record, header
 * included, exactly as long as the input (so a read past its end is an
 * ASan report, not a read of the next record).
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_event ev;
	uint8_t *rec;
	uint32_t cpu;
	int ret;

	if (!size)
		return 0;
	cpu = data[0];
	size--;
	/* An allocation of exactly @size bytes: ASan sees any overrun. */
	rec = malloc(size ? size : 1);
	if (!rec)
		return 0;
	memcpy(rec, data + 1, size);
	(void)rt_record_ts(rec, size);
	memset(&ev, 0xa5, sizeof(ev));
	ret = rt_decode(rec, size, cpu, &ev);
	if (ret == RT_DECODE_OK)
		fuzz_print(&ev);
	free(rec);
	return 0;
}
