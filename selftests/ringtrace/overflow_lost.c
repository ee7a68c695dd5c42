// SPDX-License-Identifier: GPL-2.0-only
/*
 * Overflow: with nobody reading, a one-page ring takes as many records as
 * fit and drops (and counts) the rest. Once the reader frees space, the
 * next record is preceded by a LOST record carrying the exact count, and
 * records produced == records consumed + records lost, exactly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define PHASE1_READS	1000
#define PHASE2_READS	10

struct tally {
	long vfs_read;
	long lost_records;
	unsigned long long lost;
	bool lost_first;	/* the first record seen was a LOST one */
	long seen;
};

struct sync {
	int done[2];	/* child -> parent: phase 1 over */
	int go2[2];	/* parent -> child: start phase 2 */
};

static void reads(int n)
{
	if (st_zero_reads(n, 64))
		_exit(10);
}

static int workload(void *arg)
{
	struct sync *sy = arg;
	char b;

	/* One ring only: every record competes for the same space. */
	st_pin(0);
	reads(PHASE1_READS);
	if (write(sy->done[1], "d", 1) != 1)
		return 2;
	/* This read is traced too: it is the first record of phase 2. */
	if (read(sy->go2[0], &b, 1) != 1)
		return 3;
	reads(PHASE2_READS);
	return 0;
}

static void tally(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	struct tally *t = arg;

	(void)cpu;
	if (t->seen++ == 0)
		t->lost_first = h->type == RINGTRACE_RECORD_LOST;
	if (h->type == RINGTRACE_RECORD_LOST) {
		t->lost_records++;
		t->lost += ((const struct ringtrace_lost_record *)h)->lost;
	} else if (h->type == RINGTRACE_RECORD_VFS_READ) {
		t->vfs_read++;
	}
}

int main(void)
{
	const long fit_expected = 4096 / sizeof(struct ringtrace_vfs_read_record);
	struct ringtrace_mmap_page *pg;
	struct ringtrace_config cfg;
	struct ringtrace_stats st;
	struct tally t1 = { 0 }, t2 = { 0 };
	struct st_session sess;
	struct st_child child;
	struct sync sy;
	char b;
	int rc;

	tap_plan(9);
	if (sysconf(_SC_PAGESIZE) != 4096)
		tap_skip_all("the expected counts assume 4 KiB pages");
	if (pipe(sy.done) || pipe(sy.go2))
		tap_bail("pipe: %s", strerror(errno));

	st_child_start(&child, workload, &sy);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	st_session_open(&sess, &cfg, 1);
	pg = sess.rings[0].page;
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&child);
	if (read(sy.done[0], &b, 1) != 1)
		tap_bail("child died in phase 1");

	tap_ok(pg->records == (unsigned long long)fit_expected &&
	       pg->lost == PHASE1_READS - fit_expected &&
	       pg->lost_pending == pg->lost,
	       "full ring: %llu written, %llu lost, %llu not yet reported",
	       (unsigned long long)pg->records,
	       (unsigned long long)pg->lost,
	       (unsigned long long)pg->lost_pending);
	tap_ok(st_drain(&sess, tally, &t1) == fit_expected &&
	       t1.vfs_read == fit_expected && t1.lost_records == 0,
	       "the reader finds the %ld records that fit and no LOST record yet",
	       fit_expected);

	if (write(sy.go2[1], "g", 1) != 1)
		tap_bail("cannot start phase 2");
	rc = st_child_wait(&child);
	tap_ok(rc == 0, "workload ran (exit %d)", rc);
	st_disable(&sess);

	tap_ok(st_drain(&sess, tally, &t2) > 0 && t2.lost_first,
	       "after space was freed, the next record is a LOST record");
	tap_ok(t2.lost_records == 1 && t2.lost == PHASE1_READS - fit_expected,
	       "it reports exactly the %ld dropped records (%llu in %ld LOST)",
	       PHASE1_READS - fit_expected, t2.lost, t2.lost_records);
	tap_ok(t2.vfs_read == PHASE2_READS + 1,
	       "then the %d phase-2 records (got %ld)", PHASE2_READS + 1,
	       t2.vfs_read);

	tap_ok(st_stats(&sess, &st) == 0, "GET_STATS");
	tap_ok(st.produced == (unsigned long long)(t1.vfs_read + t2.vfs_read) +
			      t1.lost + t2.lost,
	       "produced %llu == consumed %ld + lost %llu",
	       (unsigned long long)st.produced, t1.vfs_read + t2.vfs_read,
	       t1.lost + t2.lost);
	tap_ok(st.lost == t1.lost + t2.lost && pg->lost_pending == 0 &&
	       st.produced == PHASE1_READS + PHASE2_READS + 1,
	       "kernel lost count %llu matches the LOST records, none pending",
	       (unsigned long long)st.lost);
	st_session_close(&sess);
	return tap_finish();
}
