/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What several selftests need: raw access to a session (the tests exercise
 * the ABI itself, so they make the syscalls directly), gated child
 * processes that start their workload only once tracing is on, and a record
 * walk built on libringtrace's ring cursor.
 */
#ifndef RINGTRACE_SELFTEST_UTIL_H
#define RINGTRACE_SELFTEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/ringtrace.h>

/* A mapped CPU ring. */
struct st_ring {
	struct ringtrace_mmap_page *page;
	size_t len;
	int cpu;
};

/* A session with one ring per online CPU. */
struct st_session {
	int fd;
	int nr_cpus;			/* nr_cpu_ids */
	size_t page_size;
	struct st_ring *rings;		/* [nr_cpus], page NULL where unmapped */
};

/* open() /dev/ringtrace; bails out (TAP) if it cannot. */
int st_open(void);
/* Open, configure, map every online CPU with @data_pages pages. */
void st_session_open(struct st_session *s, const struct ringtrace_config *cfg,
		     unsigned int data_pages);
void st_session_close(struct st_session *s);
int st_enable(struct st_session *s);
int st_disable(struct st_session *s);
int st_stats(struct st_session *s, struct ringtrace_stats *st);

/* Skip the whole test (TAP) unless GET_INFO offers every bit of @features. */
void st_require_features(uint64_t features, const char *what);

/* A config for @events with the size field set and everything else 0. */
struct ringtrace_config st_config(uint64_t events, pid_t pid);

/* mmap a CPU ring; MAP_FAILED with errno on failure. */
void *st_map(int fd, int cpu, unsigned int data_pages, int prot, int flags);

/*
 * Gated child: runs @fn(@arg) once st_child_go() is called, then exits with
 * its return value. Lets a test enable tracing on the child's pid before
 * the child does anything worth tracing.
 */
struct st_child {
	pid_t pid;
	int go_fd;
};

void st_child_start(struct st_child *c, int (*fn)(void *), void *arg);

/*
 * Gated threads (per-thread sessions need their ids before tracing starts):
 * a child process starts @nr threads, reports their ids in @tids, and
 * holds them until st_child_go(); then thread i runs @fn(i, @arg) while the
 * main thread runs @main_fn(@arg) if not NULL. The child exits with the
 * number of threads (main included) that returned non-zero. Neither the
 * gate nor the thread start makes a read system call once released.
 */
#define ST_MAX_THREADS	8
void st_threads_start(struct st_child *c, int nr, int (*fn)(int, void *),
		      int (*main_fn)(void *), void *arg,
		      pid_t tids[ST_MAX_THREADS]);
void st_child_go(struct st_child *c);
int st_child_wait(struct st_child *c);	/* exit status, or -1 if killed */

/*
 * Walk every record in every ring of @s from data_tail to data_head,
 * calling @fn for each; moves data_tail. Returns the number of records
 * walked, or -1 if a ring is malformed (reported as a TAP diagnostic).
 */
typedef void (*st_record_fn)(const struct ringtrace_event_header *h,
			     int cpu, void *arg);
long st_drain(struct st_session *s, st_record_fn fn, void *arg);

/*
 * An st_drain() callback: the vfs_read records, how many and the result
 * and count of the first four (@arg: a zeroed struct st_reads).
 */
struct st_reads {
	int n;
	long long ret[4];
	unsigned long long count[4];
};
void st_collect_reads(const struct ringtrace_event_header *h, int cpu,
		      void *arg);

/*
 * One traced run of a held child, the shape most selftests share: start
 * @child held, set cfg.pid to its pid, open a session of ring_pages data
 * pages per ring, enable, release the child, wait for it, disable, drain
 * every record into @record, read the session's statistics, close.
 * Set-up failures bail out (TAP).
 */
struct st_run {
	int (*child)(void *arg);
	void *child_arg;
	struct ringtrace_config cfg;	/* .pid is set to the child's */
	unsigned int ring_pages;
	st_record_fn record;
	void *record_arg;
	int status;			/* out: the child's, -1 if killed */
	long drained;			/* out: st_drain()'s result */
	struct ringtrace_stats stats;	/* out: after the drain... */
	int stats_rc;			/* ...if this is 0 (st_stats()) */
};
void st_traced_run(struct st_run *r);

/*
 * @n reads of @size bytes (at most 256) from /dev/zero: a workload whose
 * every call is one vfs_read record. 0, or -1 if a read failed.
 */
int st_zero_reads(int n, size_t size);

/*
 * Tagged reads, for the per-thread tests: 8-byte preads of /dev/zero at
 * offset @idx << ST_TAG_SHIFT | @seq, so that each record says whose read
 * it is and which. st_tagged_read(): one on @fd, true if it read 8 bytes.
 * st_tagged_reads(): @n of them (seq 0 to @n - 1) on a /dev/zero it
 * opens; 0, 3 if it could not open it, 4 if a read failed (usable as a
 * thread's exit code).
 */
#define ST_TAG_SHIFT	32
bool st_tagged_read(int fd, unsigned int idx, unsigned int seq);
int st_tagged_reads(unsigned int idx, int n);

/*
 * On @cpu, write @text to @path (a debugfs control file): 0, 1 if the
 * write failed, 2 if the thread could not be pinned. Usable as the body
 * of a st_child_start() function.
 */
int st_pinned_write(int cpu, const char *path, const char *text);

/* Online CPUs as a count, from sysconf. */
int st_online_cpus(void);
/* Pin the calling thread to @cpu; false if not possible. */
bool st_pin(int cpu);

/*
 * Path of a module built for the running kernel: $RINGTRACE_KO_ROOT/@rel
 * (scripts/build-modules builds other kernels' there), else the checkout's
 * (the tests run in selftests/ringtrace). Static buffer.
 */
const char *st_ko(const char *rel);

/* This process's CPU time (CLOCK_PROCESS_CPUTIME_ID), in ns. */
uint64_t st_cputime_ns(void);
/* Spin for @ms of CPU time; returns 0 (usable as a st_child_start() fn body). */
int st_burn_cpu(long ms);

/* CLOCK_MONOTONIC in ns: the clock records are stamped with. */
uint64_t st_now_ns(void);

/*
 * Load a module built for the running kernel (st_ko(@rel)) with @params;
 * 0 or an errno (EEXIST: already loaded). Unload by name: 0 or an errno.
 */
int st_load_module(const char *rel, const char *params);
int st_unload_module(const char *name);

/*
 * RINGTRACE_IOC_LOCK_STATS for up to @room entries, with @flags: the number
 * of tracked locks, or -errno; *@filled says how many entries came back.
 */
int st_lock_table(int fd, struct ringtrace_lock_stat *e, unsigned int room,
		  unsigned int flags, unsigned int *filled);
/* The entry named @name among @n, or NULL. */
const struct ringtrace_lock_stat *st_lock_find(const struct ringtrace_lock_stat *e,
					       unsigned int n, const char *name);

/* A text symbol of the kernel or a module, from /proc/kallsyms. */
struct st_ksym {
	unsigned long long addr;
	char name[64];
	char module[64];	/* "" for the kernel itself */
};

/* Load /proc/kallsyms; false if it hides addresses (kptr_restrict). */
bool st_ksyms_load(void);
/* Whether the kernel (not a module) has symbol @name; names only. */
bool st_ksym_exists(const char *name);
/*
 * Whether kallsyms names data as well as code (CONFIG_KALLSYMS_ALL):
 * without it (Debian's arm64 6.1) the kernel cannot name a static lock,
 * and kernel contention records carry the lock's kind ("mutex").
 */
bool st_ksyms_name_data(void);
/*
 * Whether the kernel can name module @module's static lock @sym in its
 * contention records: kallsyms names data, lists @sym, and gives its
 * address to no other symbol (a zero-sized lockdep key beside it would
 * be named first; the module then names the lock by its kind).
 */
bool st_lock_nameable(const char *sym, const char *module);
/*
 * Whether ringtrace can attach vfs_read with a direct call here: x86-64,
 * and ftrace's direct-call API is built in.
 */
bool st_kernel_has_direct_calls(void);
/* The symbol an address is in (the closest start below it), or NULL. */
const struct st_ksym *st_ksym_lookup(unsigned long long ip);

/*
 * Hooks on kernel function @sym: kprobes (debugfs' kprobes/list) plus
 * ftrace users such as fprobes (tracefs' enabled_functions). The module
 * attaches vfs_read with whichever the kernel offers.
 */
int st_probes_on(const char *sym);

/*
 * True while @pid sleeps in read(@fd) asking for @count bytes (0: any
 * count): /proc/PID/syscall shows read's number and its arguments.
 */
bool st_in_read(pid_t pid, int fd, unsigned long count);
/* Wait (5 s at most: liveness, not timing) until st_in_read() says so. */
bool st_wait_in_read(pid_t pid, int fd, unsigned long count);

/* Write @text to @path (appending or truncating): 0 or an errno. */
int st_write_file(const char *path, const char *text, bool append);
/*
 * The same for @file under tracefs (/sys/kernel/tracing, or debugfs'
 * tracing where that is missing).
 */
int st_tracefs_write(const char *file, const char *text, bool append);
/* Hits of kprobe event @name from tracefs' kprobe_profile, or -1. */
long long st_kprobe_hits(const char *name);

/* The module's vfs_read_attach parameter, one line ("" if unreadable). */
#define ST_ATTACH_PARAM "/sys/module/ringtrace/parameters/vfs_read_attach"
void st_attach_param(char *buf, size_t len);

#endif /* RINGTRACE_SELFTEST_UTIL_H */
