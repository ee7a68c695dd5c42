/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the flight-recorder selftests (snapshot_*) share: ringtrace-cat
 * --snapshot --json started as a child writing to a file, asked for
 * snapshots with SIGUSR2, and its output read back one snapshot at a time.
 * The tool flushes each snapshot when it is complete, so a test waits for
 * the snapshot's end line before reading it.
 */
#ifndef RINGTRACE_SELFTEST_SNAPSHOT_H
#define RINGTRACE_SELFTEST_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define ST_CAT		"../../user/ringtrace-cat"

/*
 * Run ST_CAT with @args (NULL-terminated, program name excluded), its
 * standard error to @err_file (NULL: inherited); return once it catches
 * SIGUSR2 (SigCgt in /proc/PID/status), so that a SIGUSR2 sent from then on
 * asks for a snapshot instead of killing it. Bails out (TAP) if it never
 * does within a minute (liveness only, not a timing check).
 */
pid_t st_cat_start(const char *const *args, const char *err_file);

/* Run ST_CAT with @args to its end (a replay), standard error to @err_file. */
int st_cat_run(const char *const *args, const char *err_file);

/* Whether @file holds @needle, waiting up to a minute for it (liveness). */
bool st_file_wait(const char *file, const char *needle);

/*
 * Whether @file holds the end line of snapshot @n ({"snapshot_end":N}),
 * waiting up to a minute for it (liveness only).
 */
bool st_snapshot_wait(const char *file, int n);

/* SIGUSR2 to @cat, then st_snapshot_wait(@file, @n). */
bool st_snapshot_ask(pid_t cat, const char *file, int n);

/*
 * SIGUSR2 to @cat from another process (a child made for it), as seed 1's
 * shell loop sends it: true if that process could send it.
 */
bool st_snapshot_signal_from_other(pid_t cat);

/*
 * N of the first "ringtrace-cat: N records" line in @file (the summary
 * ST_CAT writes on standard error), or -1.
 */
long long st_cat_summary_records(const char *file);
/* The number right after @key on @file's first line holding it; -1: none. */
long long st_file_number_after(const char *file, const char *key);
/*
 * The number just before @what on ringtrace-cat's summary line in @file
 * ("ringtrace-cat: ... 3 counter snapshots ..."); -1: none.
 */
long long st_cat_summary_count(const char *file, const char *what);

/* The value after "key": in a JSON line (e.g. "\"pos\":"), or -1. */
long long st_json_field(const char *line, const char *key);

/* A vfs_read line of a snapshot. */
struct st_snap_read {
	long long	ts_ns;
	long long	cpu;
	long long	pid;
	long long	tid;
	long long	pos;
};

/* One snapshot of a --json output file, as printed. */
struct st_snap {
	bool		found;		/* its header line was there */
	bool		ended;		/* and its end line */
	/* the header's counts */
	long long	ts_ns;
	long long	records;
	long long	not_shown;
	long long	overwritten;
	long long	busy_rings;
	/* the lines between header and end */
	struct st_snap_read *reads;	/* vfs_read lines, in output order */
	size_t		nr_reads;
	long long	others;		/* any other line */
};

/*
 * Read snapshot @n of @file into @sn (free it with st_snap_free()).
 * Returns the number of the last snapshot header in the file (0: none).
 */
int st_snap_read(const char *file, int n, struct st_snap *sn);
void st_snap_free(struct st_snap *sn);

/*
 * The bytes of each vfs_read record ringtrace-cat's session writes: with
 * a task_ext when the module offers cgroup records, which the
 * tool always asks for.
 */
size_t st_cat_read_size(void);
/*
 * Name records ringtrace-cat's session writes before the first read of
 * one file by one task: a path record and a cgroup record, as offered.
 */
int st_cat_name_records(void);

#endif /* RINGTRACE_SELFTEST_SNAPSHOT_H */
