// SPDX-License-Identifier: GPL-2.0-only
/*
 * RINGTRACE_THREAD_EXITED is the last word about a per-thread ring: the
 * uapi says nothing more is written once it is set. A thread still runs
 * kernel code after its exit state is set (exit_notify()): it releases
 * itself (release_task() write-locks tasklist_lock: a contention record
 * if other exiting threads hold it) and can be preempted or block there
 * (an off-CPU record when it runs again), then switches out for the last
 * time. A flag set at exit_state would come before those records.
 *
 * THREADS threads of one process, each in a per-thread session with lock
 * contention and off-CPU records, sleep once after ENABLE and then exit
 * together, their tasklist_lock sections contending. The test polls every
 * ring's thread_flags while they do: once it sees a ring's flag it notes
 * that ring's data_head (read after the flag, with acquire), and after
 * the process is gone and the session disabled, the ring's data_head must
 * be that same value: no byte written after the flag was seen. ROUNDS
 * times over. Then: every ring was flagged while enabled, records were
 * written, and no ring got a record after its flag.
 *
 * With the flag set at exit_state instead, the late records were off-CPU
 * ones (a thread scheduled out after its exit state, running again),
 * some with a lock record after them: 2-8 rings a run on 7.2 (3 runs)
 * and 4-9 on 7.2-rt (2 runs), every run failing (20 rounds, 2 vCPUs
 * under TCG). 6.1 preempts only where the kernel may sleep: with 2 vCPUs
 * (this test's busy poller on one) no late record was seen in 6 runs;
 * with 4 (vm-run --smp 4), a tasklist_lock contention record came after
 * the flag.
 *
 * With the flag also set once the thread's pid had no task (the thread
 * released), one off-CPU record came after it in one CI run of 20
 * rounds: release_task() unlinks the task from its pid before it clears
 * task->thread_pid, and under PREEMPT_RT's sleeping tasklist_lock the
 * thread can be preempted in between and switched back in, matched by its
 * pid still. The module now follows the task itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define THREADS		64
#define ROUNDS		20
#define PAGES		8	/* per ring: a thread writes a few records */
#define FLUSH_MS	1	/* the timer that sets the flag: every jiffy */
#define WAIT_MS		30000	/* liveness bound, not a timing check */

/* What the traced process shares with the test. */
struct shared {
	pid_t tids[THREADS];
	int ready;
};

static struct shared *shared;

/* One traced thread: say who it is, wait for the gate, sleep once, exit. */
static void *worker(void *arg)
{
	int gate = (int)(intptr_t)arg;
	struct timespec ts = { 0, 100000 };
	char c;

	shared->tids[__atomic_fetch_add(&shared->ready, 1, __ATOMIC_SEQ_CST)] =
		(pid_t)syscall(SYS_gettid);
	/* Lowest weight: the polling test keeps its CPU. */
	setpriority(PRIO_PROCESS, 0, 19);
	if (read(gate, &c, 1) != 1)
		return NULL;
	/* Off CPU once while traced: an off-CPU record when it wakes. */
	nanosleep(&ts, NULL);
	return NULL;
}

static void traced_process(int gate)
{
	pthread_t th[THREADS];
	int i;

	for (i = 0; i < THREADS; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(intptr_t)gate))
			_exit(1);
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	_exit(0);
}

struct totals {
	unsigned int flagged;		/* rings flagged while enabled */
	unsigned long records;		/* records in all rings */
	unsigned int late_rings;	/* rings written after their flag */
	unsigned long late_records;	/* records written after the flag */
};

/*
 * Records in @pg's ring from byte @from to @to (no wrap at this size);
 * the types seen there as bits in *@types if not NULL.
 */
static unsigned long count_records(const struct ringtrace_mmap_page *pg,
				   uint64_t from, uint64_t to,
				   unsigned int *types)
{
	const char *data = (const char *)pg + pg->data_offset;
	const struct ringtrace_event_header *h;
	unsigned long n = 0;
	uint64_t off = 0;

	if (to > pg->data_size)
		return 0;
	while (off < to) {
		h = (const void *)(data + off);
		if (h->size < sizeof(*h) || off + h->size > to)
			break;
		if (off >= from) {
			n++;
			if (types && h->type < 32)
				*types |= 1U << h->type;
		}
		off += h->size;
	}
	return n;
}

static void one_round(struct totals *tot)
{
	struct ringtrace_mmap_page *pg[THREADS];
	uint64_t head_at_flag[THREADS];
	bool seen[THREADS] = { false };
	struct ringtrace_config cfg;
	size_t len = (1 + PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	unsigned int nseen = 0, types;
	int gate[2], fd, i, status;
	uint64_t start, head;
	char buf[THREADS];
	pid_t pid;

	memset(shared, 0, sizeof(*shared));
	if (pipe(gate))
		tap_bail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (!pid) {
		close(gate[1]);
		traced_process(gate[0]);
	}
	close(gate[0]);
	while (__atomic_load_n(&shared->ready, __ATOMIC_SEQ_CST) < THREADS)
		usleep(1000);

	cfg = st_config(RINGTRACE_EVENT_LOCK_CONTENTION | RINGTRACE_EVENT_OFFCPU,
			-1);
	cfg.flags = RINGTRACE_CFG_PER_THREAD;
	cfg.nr_tids = THREADS;
	cfg.tids_ptr = (uintptr_t)shared->tids;
	cfg.flush_ms = FLUSH_MS;
	fd = st_open();
	if (ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg))
		tap_bail("SET_CONFIG per-thread: %s", strerror(errno));
	for (i = 0; i < THREADS; i++) {
		pg[i] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			     RINGTRACE_MMAP_OFFSET(i));
		if (pg[i] == MAP_FAILED)
			tap_bail("mmap thread ring %d: %s", i, strerror(errno));
	}
	if (ioctl(fd, RINGTRACE_IOC_ENABLE))
		tap_bail("ENABLE: %s", strerror(errno));

	memset(buf, 0, sizeof(buf));
	if (write(gate[1], buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		tap_bail("gate: %s", strerror(errno));
	close(gate[1]);
	/*
	 * The flag first, with acquire, then data_head: what the ring held
	 * when the flag was seen, and all it may ever hold.
	 */
	start = st_now_ns();
	while (nseen < THREADS &&
	       st_now_ns() - start < WAIT_MS * 1000000ULL) {
		for (i = 0; i < THREADS; i++) {
			if (seen[i] ||
			    !(__atomic_load_n(&pg[i]->thread_flags,
					      __ATOMIC_ACQUIRE) &
			      RINGTRACE_THREAD_EXITED))
				continue;
			head_at_flag[i] = __atomic_load_n(&pg[i]->data_head,
							  __ATOMIC_ACQUIRE);
			seen[i] = true;
			nseen++;
		}
	}
	if (waitpid(pid, &status, 0) != pid)
		tap_bail("waitpid: %s", strerror(errno));
	/* Flush periods past the last exit, then what DISABLE adds. */
	usleep(50000);
	if (ioctl(fd, RINGTRACE_IOC_DISABLE))
		tap_bail("DISABLE: %s", strerror(errno));

	tot->flagged += nseen;
	for (i = 0; i < THREADS; i++) {
		head = __atomic_load_n(&pg[i]->data_head, __ATOMIC_ACQUIRE);
		tot->records += count_records(pg[i], 0, head, NULL);
		if (seen[i] && head != head_at_flag[i]) {
			types = 0;
			tot->late_rings++;
			tot->late_records += count_records(pg[i],
							   head_at_flag[i],
							   head, &types);
			tap_diag("tid %d: flag seen at byte %llu, ring ends at %llu, record types %#x after it",
				 shared->tids[i],
				 (unsigned long long)head_at_flag[i],
				 (unsigned long long)head, types);
		}
		munmap(pg[i], len);
	}
	close(fd);
}

int main(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	struct totals tot = { 0 };
	int fd, r;

	st_require_features(RINGTRACE_FEAT_PER_THREAD |
			    RINGTRACE_FEAT_LOCK_CONTENTION,
			    "per-thread rings and lock contention");
	fd = st_open();
	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	close(fd);
	if (!(info.events & RINGTRACE_EVENT_OFFCPU))
		tap_skip_all("the module has no offcpu event");
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		tap_bail("mmap: %s", strerror(errno));

	tap_plan(3);
	for (r = 0; r < ROUNDS; r++)
		one_round(&tot);
	tap_ok(tot.flagged == ROUNDS * THREADS,
	       "%u of %u exited threads' rings flagged while enabled",
	       tot.flagged, ROUNDS * THREADS);
	tap_ok(tot.records > 0, "the threads wrote %lu records",
	       tot.records);
	tap_ok(!tot.late_rings,
	       "no ring written after its flag was seen (%u rings, %lu records late)",
	       tot.late_rings, tot.late_records);
	return tap_finish();
}
