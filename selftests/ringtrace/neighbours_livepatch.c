// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace and a livepatch of vfs_read (modules/ringtrace_livepatch.c:
 * a copy of vfs_read that counts one process's calls), in both orders,
 * with every mechanism this kernel offers: the replacement is what runs
 * for every one of the workload's reads, and ringtrace records each one.
 * The livepatch is an IPMODIFY ftrace user: the direct call shares
 * vfs_read with it through its ops_func and calls the replacement.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "st_neighbour.h"
#include "st_util.h"
#include "tap.h"

#define LP_NAME		"ringtrace_livepatch"
#define LP_KO		"selftests/ringtrace/modules/" LP_NAME ".ko"
#define LP_SYSFS	"/sys/kernel/livepatch/" LP_NAME
#define LP_CALLS	"/sys/module/" LP_NAME "/parameters/calls"

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * Wait for the patch's transition to end: tasks switch to the new state
 * as they leave the kernel or sleep outside vfs_read. A liveness bound
 * (five minutes), not a timing check: livepatch signals stragglers after
 * 15 s.
 */
static bool lp_settled(void)
{
	unsigned int i;

	for (i = 0; i < 3000; i++) {
		long t = read_long(LP_SYSFS "/transition");

		if (t == 0 || (t < 0 && access(LP_SYSFS, F_OK)))
			return true;
		usleep(100000);
	}
	return false;
}

static int lp_start(pid_t pid, char *why, size_t len)
{
	char params[32];
	int err;

	snprintf(params, sizeof(params), "pid=%d", (int)pid);
	err = st_load_module(LP_KO, params);
	if (err)
		snprintf(why, len, "loading the livepatch: %s", strerror(err));
	return err;
}

static long lp_stop(char *why, size_t len)
{
	long n = read_long(LP_CALLS);
	int err;

	if (!lp_settled()) {
		tap_diag("the livepatch's transition did not end");
		st_nb_diag_livepatch();
	}
	err = st_write_file(LP_SYSFS "/enabled", "0\n", false);
	if (err)
		snprintf(why, len, "disabling the livepatch: %s", strerror(err));
	if (!lp_settled()) {
		tap_diag("the livepatch's disabling did not end");
		st_nb_diag_livepatch();
	}
	/* Its sysfs directory goes once the patch is freed. */
	for (unsigned int i = 0; i < 600 && !access(LP_SYSFS, F_OK); i++)
		usleep(100000);
	err = st_unload_module(LP_NAME);
	if (err) {
		st_nb_diag_livepatch();
		tap_bail("cannot unload %s: %s", LP_NAME, strerror(err));
	}
	return n;
}

int main(void)
{
	static const struct st_neighbour nb = {
		.name		= "the livepatch",
		.start		= lp_start,
		.stop		= lp_stop,
	};

	if (access("/sys/kernel/livepatch", F_OK))
		tap_skip_all("this kernel has no livepatch support");
	return st_neighbour_main(&nb);
}
