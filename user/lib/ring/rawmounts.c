// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The raw file's MOUNTS chunk (see rawfile.h): the reader's mount table
 * when recording starts, so that a replay names mount-relative paths as
 * the live run did. Read back when the file is opened (rawfile.c).
 */
#include <string.h>

#include "ringtrace/mounts.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/rawfile.h"

void rt_raw_write_mounts(struct rt_outbuf *ob, const struct rt_mounts *m)
{
	static const char pad[8];
	struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_MOUNTS };

	if (!m || !m->len)
		return;
	c.size = (m->len + 7) & ~(uint64_t)7;
	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, m->text, m->len);
	rt_outbuf_append(ob, pad, c.size - m->len);
}
