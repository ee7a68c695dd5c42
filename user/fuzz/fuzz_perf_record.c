// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer harness: the perf record decoder (rt_perf_format_init(),
 * rt_decode_perf(), rt_perf_record_ts()). The first 9 bytes choose the
 * format (a sample_type, masked to the bits the decoder claims to parse so
 * that most inputs get past the format check, and sample_id_all); the
 * rest is one perf record exactly as long as the input. Decoded events
 * are printed as text and JSON (samples with their callchain).
 */
#include <stdint.h>
#include <string.h>

#include <linux/perf_event.h>

#include "fuzz_common.h"

#define PARSED_BITS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
		     PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
		     PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
		     PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_perf_format f;
	struct rt_event ev;
	uint64_t sample_type;
	uint8_t *rec;
	int ret;

	if (size < 9)
		return 0;
	memcpy(&sample_type, data, sizeof(sample_type));
	/* Bit 63 keeps the unparsed bits: the refusal is tested too. */
	if (!(sample_type >> 63))
		sample_type &= PARSED_BITS;
	if (rt_perf_format_init(&f, sample_type, data[8] & 1, "cpu-clock"))
		return 0;
	data += 9;
	size -= 9;
	rec = malloc(size ? size : 1);
	if (!rec)
		return 0;
	memcpy(rec, data, size);
	(void)rt_perf_record_ts(&f, rec, size);
	memset(&ev, 0xa5, sizeof(ev));
	ret = rt_decode_perf(&f, rec, size, 3, &ev);
	/* The mapping's name must end inside the record (ASan checks it). */
	if (ret == RT_DECODE_OK && ev.kind == RT_EVENT_MMAP)
		(void)strlen(ev.u.mmap.path);
	else if (ret == RT_DECODE_OK && ev.kind != RT_EVENT_COMM)
		fuzz_print(&ev);
	free(rec);
	return 0;
}
