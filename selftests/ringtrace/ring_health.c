// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buffer health: a child pinned to CPU 0 makes 2000 reads into
 * a one-page ring nobody drains. The ring holds exactly as many 96-byte
 * vfs_read records as fit, the rest are lost, and GET_STATS' per-ring
 * entry (and the control page, refreshed at DISABLE) must say so: records,
 * lost, bytes, high-water fill (the bytes the records took: data_tail
 * never moved; DISABLE's LOST record does not count as fill)
 * and wake-ups (one per watermark crossed, computed here from the rule the
 * kernel applies). Other rings stay empty; an ABI 2 sized GET_STATS still
 * works and a too small ring entry size is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define NR_READS	2000
#define WATERMARK	1024
#define REC_SIZE	sizeof(struct ringtrace_vfs_read_record)

static int workload(void *arg)
{
	(void)arg;
	if (!st_pin(0))
		return 3;
	return st_zero_reads(NR_READS, 8) ? 2 : 0;
}

/* Wake-ups the kernel sends while @records records land in the ring. */
static unsigned long long expected_wakeups(unsigned long long records)
{
	unsigned long long head = 0, woken = 0, n = 0;

	for (unsigned long long i = 0; i < records; i++) {
		head += REC_SIZE;
		if (head - woken >= WATERMARK) {
			woken = head;
			n++;
		}
	}
	return n;
}

int main(void)
{
	struct ringtrace_ring_stats rs[256];
	const struct ringtrace_ring_stats *r0 = NULL;
	struct ringtrace_config cfg;
	struct ringtrace_stats st;
	struct st_session sess;
	struct st_child child;
	unsigned long long fit, end, others = 0;
	struct ringtrace_mmap_page *pg;
	int rc, ret;

	tap_plan(9);
	st_child_start(&child, workload, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	cfg.watermark_bytes = WATERMARK;
	st_session_open(&sess, &cfg, 1);
	pg = sess.rings[0].page;
	if (!pg)
		tap_bail("CPU 0 has no ring");
	fit = pg->data_size / REC_SIZE;
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&child);
	rc = st_child_wait(&child);
	st_disable(&sess);
	tap_ok(rc == 0, "workload ran on CPU 0 (exit %d)", rc);

	memset(&st, 0, sizeof(st));
	memset(rs, 0xff, sizeof(rs));
	st.size = sizeof(st);
	st.rings_ptr = (unsigned long)rs;
	st.ring_entry_size = sizeof(rs[0]);
	st.nr_ring_entries = sizeof(rs) / sizeof(rs[0]);
	ret = ioctl(sess.fd, RINGTRACE_IOC_GET_STATS, &st);
	tap_ok(ret == 0 && st.size == sizeof(st) && st.nr_ring_entries >= 1,
	       "GET_STATS with ring entries: %d, size %u, %u entries",
	       ret, st.size, st.nr_ring_entries);
	for (unsigned int i = 0; ret == 0 && i < st.nr_ring_entries; i++) {
		if (rs[i].cpu == 0)
			r0 = &rs[i];
		else
			others += rs[i].records + rs[i].lost + rs[i].high_water;
	}
	if (!r0)
		tap_bail("no entry for CPU 0");
	/* DISABLE reports the losses in a LOST record where one fits. */
	end = fit * REC_SIZE;
	if (pg->data_size - end >= sizeof(struct ringtrace_lost_record))
		end += sizeof(struct ringtrace_lost_record);
	tap_ok(r0->records == fit && r0->lost == NR_READS - fit &&
	       r0->bytes == end,
	       "CPU 0: %llu records (%llu fit), %llu lost (%llu expected), %llu bytes",
	       (unsigned long long)r0->records, fit,
	       (unsigned long long)r0->lost, NR_READS - fit,
	       (unsigned long long)r0->bytes);
	tap_ok(r0->high_water == fit * REC_SIZE &&
	       r0->data_size == pg->data_size && r0->data_head == end,
	       "high-water %llu == bytes held %llu (head %llu, size %llu)",
	       (unsigned long long)r0->high_water, fit * REC_SIZE,
	       (unsigned long long)r0->data_head,
	       (unsigned long long)r0->data_size);
	tap_ok(r0->wakeups == expected_wakeups(fit) && st.wakeups == r0->wakeups,
	       "wake-ups %llu == watermarks crossed %llu (session %llu)",
	       (unsigned long long)r0->wakeups, expected_wakeups(fit),
	       (unsigned long long)st.wakeups);
	tap_ok(others == 0 && r0->flags == 0 && r0->overwritten == 0,
	       "other rings empty (%llu), no overwrite flag or count", others);
	tap_ok(pg->records == r0->records && pg->lost == r0->lost &&
	       pg->high_water == r0->high_water && pg->wakeups == r0->wakeups,
	       "the control page agrees after DISABLE (hw %llu, wakeups %llu)",
	       (unsigned long long)pg->high_water,
	       (unsigned long long)pg->wakeups);

	/* An ABI 2 caller: no ring entries read or written. */
	memset(&st, 0, sizeof(st));
	st.size = RINGTRACE_STATS_SIZE_VER1;
	st.rings_ptr = 1;	/* beyond its size: must be ignored */
	ret = ioctl(sess.fd, RINGTRACE_IOC_GET_STATS, &st);
	tap_ok(ret == 0 && st.size == RINGTRACE_STATS_SIZE_VER1 &&
	       st.records == r0->records && st.rings_ptr == 1,
	       "ABI 2 sized GET_STATS: %d, size %u", ret, st.size);

	memset(&st, 0, sizeof(st));
	st.size = sizeof(st);
	st.rings_ptr = (unsigned long)rs;
	st.ring_entry_size = RINGTRACE_RING_STATS_SIZE_VER0 - 8;
	st.nr_ring_entries = 1;
	ret = ioctl(sess.fd, RINGTRACE_IOC_GET_STATS, &st);
	tap_ok(ret == -1 && errno == EINVAL,
	       "ring_entry_size below the first size: EINVAL (%d, %s)", ret,
	       strerror(errno));
	st_session_close(&sess);
	return tap_finish();
}
