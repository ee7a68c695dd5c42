// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers of the flight-recorder selftests; see st_snapshot.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_snapshot.h"
#include "st_util.h"
#include "tap.h"

static uint64_t cat_features(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	int fd = st_open();

	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	close(fd);
	return info.features;
}

size_t st_cat_read_size(void)
{
	return sizeof(struct ringtrace_vfs_read_record) +
	       (cat_features() & RINGTRACE_FEAT_CGROUP ?
		sizeof(struct ringtrace_task_ext) : 0);
}

int st_cat_name_records(void)
{
	uint64_t f = cat_features();

	return !!(f & RINGTRACE_FEAT_PATHS) + !!(f & RINGTRACE_FEAT_CGROUP);
}

/* Whether @pid has a handler for @sig (SigCgt in /proc/PID/status). */
static bool catches(pid_t pid, int sig)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigCgt: %llx", &mask) == 1)
			found = true;
	fclose(f);
	return found && (mask & (1ull << (sig - 1)));
}

/* Start ST_CAT with @args, its standard error to @err_file (NULL: ours). */
static pid_t cat_spawn(const char *const *args, const char *err_file)
{
	const char *argv[32] = { ST_CAT };
	pid_t pid;
	int n = 1, fd;

	while (args[n - 1]) {
		if (n == 31)
			tap_bail("st_cat_start: too many arguments");
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	pid = fork();
	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (pid == 0) {
		if (err_file) {
			fd = open(err_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
				_exit(126);
			close(fd);
		}
		execv(ST_CAT, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

pid_t st_cat_start(const char *const *args, const char *err_file)
{
	pid_t pid = cat_spawn(args, err_file);

	for (int i = 0; i < 6000 && !catches(pid, SIGUSR2); i++)
		usleep(10000);
	if (!catches(pid, SIGUSR2))
		tap_bail("%s never caught SIGUSR2 (did it start?)", ST_CAT);
	return pid;
}

/* @file's contents, NUL-terminated, in a static buffer; NULL if unreadable. */
static const char *slurp(const char *file)
{
	static char buf[4 << 20];
	size_t len = 0;
	ssize_t n;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return NULL;
	while (len < sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

int st_cat_run(const char *const *args, const char *err_file)
{
	pid_t pid = cat_spawn(args, err_file);
	int status;

	if (waitpid(pid, &status, 0) != pid)
		tap_bail("waitpid: %s", strerror(errno));
	return status;
}

bool st_file_wait(const char *file, const char *needle)
{
	const char *text;

	for (int i = 0; i < 6000; i++) {
		text = slurp(file);
		if (text && strstr(text, needle))
			return true;
		usleep(10000);
	}
	return false;
}

bool st_snapshot_wait(const char *file, int n)
{
	char needle[64];

	snprintf(needle, sizeof(needle), "{\"snapshot_end\":%d}\n", n);
	return st_file_wait(file, needle);
}

bool st_snapshot_ask(pid_t cat, const char *file, int n)
{
	return !kill(cat, SIGUSR2) && st_snapshot_wait(file, n);
}

bool st_snapshot_signal_from_other(pid_t cat)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(kill(cat, SIGUSR2) ? 1 : 0);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status);
}

long long st_cat_summary_records(const char *file)
{
	char line[1024];
	long long n = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "ringtrace-cat: %lld records", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* The first number @pick finds in @file's lines (>= 0); -1: none. */
static long long scan_lines(const char *file,
			    long long (*pick)(const char *line, const char *key),
			    const char *key)
{
	char line[1024];
	long long n = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (n < 0 && fgets(line, sizeof(line), f))
		n = pick(line, key);
	fclose(f);
	return n;
}

long long st_file_number_after(const char *file, const char *key)
{
	/* st_json_field(): the number after @key in one line. */
	return scan_lines(file, st_json_field, key);
}

/* "ringtrace-cat: ... N @what": N. */
static long long summary_number_before(const char *line, const char *what)
{
	const char *p;

	if (strncmp(line, "ringtrace-cat: ", 15))
		return -1;
	p = strstr(line, what);
	if (!p || p == line || p[-1] != ' ')
		return -1;
	p--;
	while (p > line && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return *p >= '0' && *p <= '9' ? strtoll(p, NULL, 10) : -1;
}

long long st_cat_summary_count(const char *file, const char *what)
{
	return scan_lines(file, summary_number_before, what);
}

long long st_json_field(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

static void add_read(struct st_snap *sn, const char *line, size_t *cap)
{
	struct st_snap_read *r;

	if (sn->nr_reads == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		r = realloc(sn->reads, *cap * sizeof(*r));
		if (!r)
			tap_bail("out of memory");
		sn->reads = r;
	}
	sn->reads[sn->nr_reads++] = (struct st_snap_read){
		.ts_ns	= st_json_field(line, "\"ts_ns\":"),
		.cpu	= st_json_field(line, "\"cpu\":"),
		.pid	= st_json_field(line, "\"pid\":"),
		.tid	= st_json_field(line, "\"tid\":"),
		.pos	= st_json_field(line, "\"pos\":"),
	};
}

int st_snap_read(const char *file, int n, struct st_snap *sn)
{
	char line[4096];
	size_t cap = 0;
	int cur = 0, last = 0;
	FILE *f;

	memset(sn, 0, sizeof(*sn));
	sn->records = sn->not_shown = sn->overwritten = sn->busy_rings = -1;
	f = fopen(file, "r");
	if (!f)
		tap_bail("%s: %s", file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "{\"snapshot\":", 12)) {
			cur = last = (int)st_json_field(line, "{\"snapshot\":");
			if (cur != n)
				continue;
			sn->found = true;
			sn->ts_ns = st_json_field(line, "\"ts_ns\":");
			sn->records = st_json_field(line, "\"records\":");
			sn->not_shown = st_json_field(line, "\"not_shown\":");
			sn->overwritten = st_json_field(line, "\"overwritten\":");
			sn->busy_rings = st_json_field(line, "\"busy_rings\":");
			continue;
		}
		if (!strncmp(line, "{\"snapshot_end\":", 16)) {
			if (cur == n)
				sn->ended = true;
			cur = 0;
			continue;
		}
		if (cur != n)
			continue;
		if (strstr(line, "\"type\":\"vfs_read\""))
			add_read(sn, line, &cap);
		else
			sn->others++;
	}
	fclose(f);
	return last;
}

void st_snap_free(struct st_snap *sn)
{
	free(sn->reads);
	sn->reads = NULL;
	sn->nr_reads = 0;
}
