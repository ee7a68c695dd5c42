// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU hotplug while tracing: a child pinned to CPU 1 makes N reads, then
 * CPU 1 goes offline with its records still unread. The reader must drain
 * all N from the offline CPU's ring, in order; reads made while it is
 * offline land on other CPUs only; once CPU 1 is back, a child pinned to
 * it is traced into the same ring again. Each read carries its phase and
 * sequence number in its pread() offset, so every record says where it
 * belongs. Needs at least 2 CPUs and a hot-pluggable CPU 1 (the VM runs
 * it with 4 vCPUs); the runner fails the test on any kernel splat.
 *
 * The session stays enabled throughout. The workload is held at ENABLE
 * and has exited at DISABLE (under TCG, patching text another vCPU runs
 * can crash the guest), and it waits on a pipe, off CPU 1, while CPU 1
 * goes and comes back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define CPU		1
#define OTHER_CPU	0
#define CALLS		300
#define PHASE_SHIFT	32
#define ONLINE_PATH	"/sys/devices/system/cpu/cpu1/online"

/* The child runs phase n when it reads byte n from go[0], then answers. */
static int go[2], done[2];

/* Phase 1 pinned to CPU 1, phase 2 anywhere, phase 3 on CPU 1 again. */
static bool pin_for(unsigned int phase)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	if (phase == 2) {
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
			CPU_SET(cpu, &set);
	} else {
		CPU_SET(phase ? CPU : OTHER_CPU, &set);
	}
	return sched_setaffinity(0, sizeof(set), &set) == 0;
}

static int phases(void *arg)
{
	char buf[8], phase;
	int fd, i;

	(void)arg;
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0)
		return 3;
	/* st_child_go() let us in: phase 1 starts now. */
	phase = 1;
	for (;;) {
		if (!pin_for((unsigned int)phase))
			return 2;
		for (i = 0; i < CALLS; i++)
			if (pread(fd, buf, sizeof(buf),
				  (off_t)((unsigned long long)phase << PHASE_SHIFT |
					  (unsigned int)i)) != sizeof(buf))
				return 4;
		/* Off CPU 1 before it may go: nothing forced to migrate. */
		if (!pin_for(0))
			return 2;
		/* The pipe read is traced too: on_record() counts it. */
		if (write(done[1], &phase, 1) != 1)
			return 5;
		if (phase == 3 || read(go[0], &phase, 1) != 1)
			break;
	}
	close(fd);
	return 0;
}

static bool run_phase(char phase)
{
	char ack;

	if (phase > 1 && write(go[1], &phase, 1) != 1)
		return false;
	return read(done[0], &ack, 1) == 1 && ack == phase;
}

static int set_online(int on)
{
	FILE *f = fopen(ONLINE_PATH, "w");
	int err;

	if (!f)
		return -errno;
	err = fprintf(f, "%d\n", on) < 0;
	err |= fclose(f) != 0;
	return err ? -errno : 0;
}

static int is_online(void)
{
	FILE *f = fopen(ONLINE_PATH, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

struct seen {
	long count[4];		/* per phase, records on CPU 1's ring */
	long elsewhere[4];	/* per phase, records on other rings */
	long out_of_order;	/* per phase, sequence not next on its ring */
	long next[4];
	long other;		/* records of no phase (must be none) */
	long gates;		/* the child's pipe reads: one per later phase */
	unsigned long long lost;
};

static void on_record(const struct ringtrace_event_header *h, int cpu,
		      void *arg)
{
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	struct seen *s = arg;
	unsigned long long ph, n;

	if (h->type == RINGTRACE_RECORD_LOST) {
		s->lost += ((const struct ringtrace_lost_record *)h)->lost;
		return;
	}
	if (h->type != RINGTRACE_RECORD_VFS_READ) {
		s->other++;
		return;
	}
	if (r->pos == -1 && r->count == 1) {
		s->gates++;	/* the child's read(go[0]) between phases */
		return;
	}
	ph = (unsigned long long)r->pos >> PHASE_SHIFT;
	n = (unsigned long long)r->pos & 0xffffffffull;
	if (ph < 1 || ph > 3 || r->count != 8) {
		s->other++;
		return;
	}
	if (cpu != CPU || r->task.cpu != CPU) {
		s->elsewhere[ph]++;
		return;
	}
	if ((long)n != s->next[ph])
		s->out_of_order++;
	s->next[ph] = (long)n + 1;
	s->count[ph]++;
}

static void restore_cpu(void)
{
	if (is_online() == 0)
		set_online(1);
}

int main(void)
{
	struct ringtrace_config cfg;
	struct ringtrace_stats st;
	struct st_session sess;
	struct seen seen = { .lost = 0 };
	struct st_child child;
	bool ok;
	int rc, err;
	long n;

	if (st_online_cpus() < 2)
		tap_skip_all("needs at least 2 online CPUs");
	if (access(ONLINE_PATH, W_OK))
		tap_skip_all("CPU %d cannot be taken offline (%s)", CPU,
			     strerror(errno));
	tap_plan(11);
	atexit(restore_cpu);
	if (pipe(go) || pipe(done))
		tap_bail("pipe: %s", strerror(errno));

	/*
	 * Every online CPU gets a ring, CPU 1's included, and the session
	 * stays enabled from the first phase to the last: the hotplug
	 * happens while tracing.
	 */
	st_child_start(&child, phases, NULL);
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, child.pid);
	st_session_open(&sess, &cfg, 16);
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&child);

	ok = run_phase(1);
	tap_ok(ok, "phase 1: %d reads on CPU %d", CALLS, CPU);

	err = set_online(0);
	tap_ok(!err && is_online() == 0, "CPU %d offline while tracing, its "
	       "ring unread (%s)", CPU, err ? strerror(-err) : "ok");
	tap_ok(sess.rings[CPU].page->flags & RINGTRACE_PAGE_ENABLED,
	       "its ring still says the session is producing");

	n = st_drain(&sess, on_record, &seen);
	tap_ok(n >= 0 && seen.count[1] == CALLS && !seen.out_of_order &&
	       !seen.elsewhere[1],
	       "drained all %d phase-1 records from the offline CPU's ring, in "
	       "order (%ld, %ld out of order, %ld elsewhere)", CALLS,
	       seen.count[1], seen.out_of_order, seen.elsewhere[1]);

	ok = run_phase(2);
	n = st_drain(&sess, on_record, &seen);
	tap_ok(ok && n >= 0 && seen.elsewhere[2] == CALLS && !seen.count[2],
	       "phase 2 while CPU %d is offline: %ld records on other CPUs, "
	       "%ld on its ring", CPU, seen.elsewhere[2], seen.count[2]);

	err = set_online(1);
	tap_ok(!err && is_online() == 1, "CPU %d back online (%s)", CPU,
	       err ? strerror(-err) : "ok");

	ok = run_phase(3);
	rc = st_child_wait(&child);
	tap_ok(ok && rc == 0, "phase 3: %d reads on CPU %d again (exit %d)",
	       CALLS, CPU, rc);
	/* The child has exited: nothing runs what DISABLE unpatches. */
	st_disable(&sess);
	n = st_drain(&sess, on_record, &seen);
	tap_ok(n >= 0 && seen.count[3] == CALLS && !seen.out_of_order &&
	       !seen.elsewhere[3],
	       "tracing resumed on CPU %d: %ld of %d records in its ring, in "
	       "order (%ld out of order)", CPU, seen.count[3], CALLS,
	       seen.out_of_order);

	tap_ok(seen.other == 0 && seen.gates == 2,
	       "nothing from outside the phases (%ld; %ld gate reads)",
	       seen.other, seen.gates);
	tap_ok(seen.lost == 0 && sess.rings[CPU].page->lost == 0,
	       "nothing lost (%llu reported, %llu on CPU %d's page)", seen.lost,
	       (unsigned long long)sess.rings[CPU].page->lost, CPU);
	rc = st_stats(&sess, &st);
	tap_ok(rc == 0 && st.produced == 3 * CALLS + 2 && st.no_ring == 0,
	       "stats: produced %llu == %d, no_ring %llu",
	       (unsigned long long)st.produced, 3 * CALLS + 2,
	       (unsigned long long)st.no_ring);
	st_session_close(&sess);
	return tap_finish();
}
