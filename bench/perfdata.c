// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data, as tools/perf/Documentation/perf.data-file-format.txt
 * describes it: a header whose "data" section holds perf_event_header
 * records back to back. We only count records; nothing is decoded.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "perfdata.h"

#define PERF_MAGIC2	0x32454c4946524550ULL	/* "PERFILE2" */

struct section {
	uint64_t	offset;
	uint64_t	size;
};

struct file_header {
	uint64_t	magic;
	uint64_t	size;
	uint64_t	attr_size;
	struct section	attrs;
	struct section	data;
	struct section	event_types;
};

int perfdata_count(const char *path, struct perfdata_counts *c)
{
	const struct file_header *h;
	const unsigned char *map, *p, *end;
	struct stat st;
	int fd, ret = -1;

	memset(c, 0, sizeof(*c));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*h)) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	h = (const void *)map;
	if (h->magic != PERF_MAGIC2 || h->data.offset > (uint64_t)st.st_size ||
	    h->data.size > (uint64_t)st.st_size - h->data.offset)
		goto out;
	c->data_bytes = h->data.size;
	p = map + h->data.offset;
	end = p + h->data.size;
	while (p + sizeof(struct perf_event_header) <= end) {
		struct perf_event_header eh;
		uint64_t v[2];

		memcpy(&eh, p, sizeof(eh));
		if (eh.size < sizeof(eh) || eh.size > (size_t)(end - p))
			goto out;
		switch (eh.type) {
		case PERF_RECORD_SAMPLE:
			c->samples++;
			break;
		case PERF_RECORD_LOST:		/* u64 id, u64 lost */
			if (eh.size >= sizeof(eh) + 16) {
				memcpy(v, p + sizeof(eh), 16);
				c->lost += v[1];
				c->lost_records++;
			}
			break;
		case PERF_RECORD_LOST_SAMPLES:	/* u64 lost */
			if (eh.size >= sizeof(eh) + 8) {
				memcpy(v, p + sizeof(eh), 8);
				c->lost_samples += v[0];
			}
			break;
		}
		p += eh.size;
	}
	ret = p == end ? 0 : -1;
out:
	munmap((void *)map, (size_t)st.st_size);
	return ret;
}
