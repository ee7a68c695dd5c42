// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat --snapshot: the tool runs as a flight recorder
 * on a process pinned to CPU 0, with one-page rings. A first SIGUSR2 (once
 * the tool catches it) gives an empty snapshot, which also says tracing is
 * on; then the process makes 5000 preads whose offsets are sequence
 * numbers, and another process sends SIGUSR2. That snapshot must hold
 * exactly the newest records: as many reads as a page holds, consecutive,
 * ending with the last one, nothing else; its header must count them and
 * the records overwritten meanwhile (5000 - kept, plus the path record
 * naming /dev/zero where the module writes them). SIGTERM then ends the
 * tool with status 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_snapshot.h"
#include "st_util.h"
#include "tap.h"

#define NR_READS	5000

static int app(void *arg)
{
	char buf[64];
	int fd = open("/dev/zero", O_RDONLY);

	(void)arg;
	if (fd < 0 || !st_pin(0))
		return 2;
	for (long i = 0; i < NR_READS; i++)
		if (pread(fd, buf, 1 + i % 64, i) != 1 + i % 64)
			return 1;
	return 0;
}

int main(void)
{
	char dir[] = "/tmp/rt_snapshot_XXXXXX", out[96], arg_pid[16], line[1024];
	long long kept = 0, last = -1, hdr_records = -1, hdr_overwritten = -1;
	long long empty_records = -1, others = 0, gaps = 0;
	unsigned long long fit = (unsigned long long)sysconf(_SC_PAGESIZE) /
				 st_cat_read_size();
	struct st_child child;
	int snap = 0, status, rc;
	long long names;
	pid_t cat;
	FILE *f;

	tap_plan(6);
	if (access(ST_CAT, X_OK))
		tap_skip_all("%s not built (make -C user)", ST_CAT);
	if (!mkdtemp(dir))
		tap_bail("mkdtemp: %s", strerror(errno));
	snprintf(out, sizeof(out), "%s/snap.json", dir);
	st_child_start(&child, app, NULL);
	snprintf(arg_pid, sizeof(arg_pid), "%d", child.pid);
	cat = st_cat_start((const char *const[]){ "--snapshot", "--json", "-q",
		"-p", arg_pid, "--buffer-size", "4K", "-o", out, NULL }, NULL);
	tap_ok(st_snapshot_ask(cat, out, 1),
	       "a first SIGUSR2 gives a snapshot (tracing is on)");

	st_child_go(&child);
	rc = st_child_wait(&child);
	tap_ok(rc == 0 && st_snapshot_signal_from_other(cat) &&
	       st_snapshot_wait(out, 2),
	       "the app's %d reads done (exit %d); another process's SIGUSR2 gives snapshot 2",
	       NR_READS, rc);
	kill(cat, SIGTERM);
	waitpid(cat, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "SIGTERM ends the tool cleanly (status %#x)", status);

	f = fopen(out, "r");
	if (!f)
		tap_bail("%s: %s", out, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "{\"snapshot\":", 12)) {
			snap = (int)st_json_field(line, "{\"snapshot\":");
			if (snap == 1)
				empty_records = st_json_field(line, "\"records\":");
			if (snap == 2) {
				hdr_records = st_json_field(line, "\"records\":");
				hdr_overwritten = st_json_field(line, "\"overwritten\":");
			}
			continue;
		}
		if (!strncmp(line, "{\"snapshot_end\":", 16) || snap != 2)
			continue;
		if (!strstr(line, "\"type\":\"vfs_read\"") ||
		    st_json_field(line, "\"pid\":") != child.pid) {
			others++;
			continue;
		}
		if (last >= 0 && st_json_field(line, "\"pos\":") != last + 1)
			gaps++;
		last = st_json_field(line, "\"pos\":");
		kept++;
	}
	fclose(f);
	tap_ok(empty_records == 0, "snapshot 1 is empty (%lld records)",
	       empty_records);
	tap_ok(kept == (long long)fit && last == NR_READS - 1 && gaps == 0 &&
	       others == 0,
	       "snapshot 2: the newest %lld reads (a page holds %llu), in a row, ending at %lld; %lld other lines",
	       kept, fit, last, others);
	/*
	 * The tool asks for path and cgroup records: /dev/zero and the
	 * app's cgroup named first.
	 */
	names = st_cat_name_records();
	tap_ok(hdr_records == kept && hdr_overwritten == NR_READS - kept + names,
	       "its header: %lld records, %lld overwritten since snapshot 1 (%lld expected)",
	       hdr_records, hdr_overwritten, NR_READS - kept + names);
	unlink(out);
	rmdir(dir);
	return tap_finish();
}
