// SPDX-License-Identifier: GPL-2.0-only
/*
 * Nested writers: records written from hard interrupts on a CPU whose task
 * is writing its own. The irqsrc module's pinned hrtimer takes a tracked
 * lock on every expiry (one lock record each, in hard-IRQ context) on
 * CPU 0, while a process on CPU 0 reads /dev/zero (one vfs_read record
 * each) into a one-page ring the test drains from CPU 1: the ring keeps
 * overflowing, so LOST records are written by both kinds of writer.
 * Every LOST record must report at least one lost record (before the fix
 * a nested writer could take the pending count between an outer writer's
 * check and its take, leaving a LOST record of 0); the losses reported
 * plus those still pending after DISABLE add up to the session's count,
 * and the ring stays well formed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define RUN		"/sys/kernel/debug/ringtrace_irqsrc/run"
#define EXPIRIES	"20000"
#define READS		40000

struct tally {
	unsigned long long lost_records, lost_zero, lost_sum;
	unsigned long long irq_locks, reads;
};

static void count(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	struct tally *t = arg;

	(void)cpu;
	if (h->type == RINGTRACE_RECORD_LOST) {
		const struct ringtrace_lost_record *l = (const void *)h;

		t->lost_records++;
		t->lost_zero += l->lost == 0;
		t->lost_sum += l->lost;
	} else if (h->type == RINGTRACE_RECORD_LOCK) {
		const struct ringtrace_lock_record *r = (const void *)h;

		t->irq_locks += !strcmp(r->name, "irqsrc_lock");
	} else if (h->type == RINGTRACE_RECORD_VFS_READ) {
		t->reads++;
	}
}

static int fire_timer(void *arg)
{
	(void)arg;
	return st_pinned_write(0, RUN, EXPIRIES);
}

static int read_zero(void *arg)
{
	(void)arg;
	if (!st_pin(0))
		return 2;
	return st_zero_reads(READS, 64) ? 1 : 0;
}

int main(void)
{
	struct ringtrace_config cfg;
	struct ringtrace_stats st;
	struct st_child timer, reader;
	struct tally t = {};
	struct st_session s;
	unsigned long long pending = 0;
	int err, rt = -1, rr = -1, cpu, status;
	bool malformed = false;

	tap_plan(5);
	if (st_online_cpus() < 2)
		tap_skip_all("needs 2 CPUs (the drain runs beside the writers)");
	err = st_load_module("selftests/ringtrace/modules/ringtrace_irqsrc.ko",
			     "period_us=20");
	if (err && err != EEXIST)
		tap_bail("loading ringtrace_irqsrc.ko: %s", strerror(err));
	if (!st_pin(1))
		tap_bail("cannot run on CPU 1");

	cfg = st_config(RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_LOCK, -1);
	st_session_open(&s, &cfg, 1);
	st_child_start(&timer, fire_timer, NULL);
	st_child_start(&reader, read_zero, NULL);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&reader);
	st_child_go(&timer);
	/* Drain while either runs. */
	while (rt < 0 || rr < 0) {
		malformed |= st_drain(&s, count, &t) < 0;
		if (rt < 0 && waitpid(timer.pid, &status, WNOHANG) == timer.pid)
			rt = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
		if (rr < 0 && waitpid(reader.pid, &status, WNOHANG) == reader.pid)
			rr = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	}
	st_disable(&s);
	malformed |= st_drain(&s, count, &t) < 0;
	st_stats(&s, &st);
	for (cpu = 0; cpu < s.nr_cpus; cpu++)
		if (s.rings[cpu].page)
			pending += s.rings[cpu].page->lost_pending;

	tap_diag("%llu LOST records (%llu lost), %llu irqsrc_lock records, %llu reads; session: %llu records, %llu lost",
		 t.lost_records, t.lost_sum, t.irq_locks, t.reads,
		 (unsigned long long)st.records, (unsigned long long)st.lost);
	tap_ok(!malformed && !rt && !rr && t.irq_locks > 0 && t.reads > 0,
	       "records from hard IRQ and from the task on one ring (timer %d, reader %d)",
	       rt, rr);
	tap_ok(t.lost_records > 0, "the ring overflowed: LOST records written");
	tap_ok(t.lost_zero == 0, "every LOST record reports a loss (%llu of 0)",
	       t.lost_zero);
	tap_ok(t.lost_sum + pending == st.lost,
	       "LOST records %llu + still pending %llu = lost %llu",
	       t.lost_sum, pending, (unsigned long long)st.lost);
	st_session_close(&s);
	err = st_unload_module("ringtrace_irqsrc");
	tap_ok(!err, "unload irqsrc: %s", err ? strerror(err) : "done");
	return tap_finish();
}
