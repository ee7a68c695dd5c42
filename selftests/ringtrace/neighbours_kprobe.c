// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace and an ftrace kprobe event on vfs_read, in both orders, with
 * every mechanism this kernel offers: both count the workload's reads
 * exactly (the event in a tracefs instance of its own, filtered on the
 * workload's pid, its lines counted). Kprobes share vfs_read with every
 * ringtrace mechanism, the direct call included.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "st_neighbour.h"
#include "st_util.h"
#include "tap.h"

#define GROUP		"rtneigh"
#define EVENT		GROUP "/vfs_read"

static char inst[128];

static int kp_start(pid_t pid, char *why, size_t len)
{
	char rel[256], filter[64];
	const char *step = "kprobe_events";
	int err;

	err = st_tracefs_write("kprobe_events", "p:" EVENT " vfs_read\n", true);
	if (!err && mkdir(inst, 0755) && errno != EEXIST) {
		err = errno;
		step = inst;
	}
	snprintf(filter, sizeof(filter), "common_pid == %d\n", (int)pid);
	snprintf(rel, sizeof(rel), "instances/rtneigh/events/%s/filter", EVENT);
	if (!err && (err = st_tracefs_write(rel, filter, false)))
		step = "filter";
	snprintf(rel, sizeof(rel), "instances/rtneigh/events/%s/enable", EVENT);
	if (!err && (err = st_tracefs_write(rel, "1\n", false)))
		step = "enable";
	if (err)
		snprintf(why, len, "kprobe event, %s: %s", step, strerror(err));
	return err;
}

static long kp_stop(char *why, size_t len)
{
	char path[256], line[512], rel[256];
	long n = 0;
	FILE *f;

	snprintf(rel, sizeof(rel), "instances/rtneigh/events/%s/enable", EVENT);
	st_tracefs_write(rel, "0\n", false);
	snprintf(path, sizeof(path), "%s/trace", inst);
	f = fopen(path, "r");
	if (!f) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		n = -1;
	} else {
		while (fgets(line, sizeof(line), f))
			if (line[0] != '#' && strstr(line, "vfs_read:"))
				n++;
		fclose(f);
	}
	if (rmdir(inst))
		tap_diag("rmdir %s: %s", inst, strerror(errno));
	st_tracefs_write("kprobe_events", "-:" EVENT "\n", true);
	return n;
}

int main(void)
{
	static const struct st_neighbour nb = {
		.name		= "the kprobe event",
		.start		= kp_start,
		.stop		= kp_stop,
	};

	snprintf(inst, sizeof(inst), "%s/instances/rtneigh",
		 access("/sys/kernel/tracing/kprobe_events", F_OK) ?
		 "/sys/kernel/debug/tracing" : "/sys/kernel/tracing");
	return st_neighbour_main(&nb);
}
