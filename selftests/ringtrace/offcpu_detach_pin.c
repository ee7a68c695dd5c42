// SPDX-License-Identifier: GPL-2.0-only
/*
 * A vfs_read that entered before vfs_read was detached never runs its
 * exit (every mechanism drops the calls of a past attachment), so the
 * read it counted in its task's off-CPU entry is never uncounted. With
 * another OFFCPU session keeping the table, that entry must still be
 * released once the task runs outside the read, not pinned until the
 * task dies.
 *
 * The module is loaded with a 16-entry table. Session A (vfs_read and
 * offcpu) follows READERS processes into a pipe read each; session B
 * (offcpu only) keeps the table. A goes while they sleep in the read;
 * they are woken and park in pause(). Then SLEEPERS processes that only
 * B follows sleep and wake many times over: they fit in the table only if
 * the readers' entries were released (offcpu_missed stays 0); pinned,
 * READERS + SLEEPERS > 16 and switches go missed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define TABLE		16
#define READERS		8
#define SLEEPERS	12	/* > TABLE - READERS, <= TABLE */
#define NAPS		200

/* The sleepers: this one and SLEEPERS - 1 children, NAPS naps each. */
static int sleepers(void *arg)
{
	pid_t pid[SLEEPERS];
	int i, j, n = 0, bad = 0, status;

	(void)arg;
	for (i = 1; i < SLEEPERS; i++) {
		pid[n] = fork();
		if (pid[n] == 0) {
			for (j = 0; j < NAPS; j++)
				usleep(1000);
			_exit(0);
		}
		if (pid[n] > 0)
			n++;
	}
	for (j = 0; j < NAPS; j++)
		usleep(1000);
	for (i = 0; i < n; i++)
		if (waitpid(pid[i], &status, 0) != pid[i] || status)
			bad++;
	return bad || n != SLEEPERS - 1;
}

static void forced_param(char *buf, size_t len)
{
	char param[128], name[32] = "";

	st_attach_param(param, sizeof(param));
	snprintf(buf, len, "offcpu_tasks=%d", TABLE);
	if (strncmp(param, "auto: ", 6) && sscanf(param, "%31s", name) == 1)
		snprintf(buf, len, "offcpu_tasks=%d vfs_read_attach=%s", TABLE,
			 name);
}

static __u64 missed(struct st_session *s)
{
	struct ringtrace_stats st;

	if (st_stats(s, &st))
		tap_bail("STATS: %s", strerror(errno));
	return st.offcpu_missed;
}

int main(void)
{
	struct st_session a, b;
	struct ringtrace_config cfg;
	struct st_child sl;
	pid_t reader[READERS];
	int data[2], ack[2], i, err, ok;
	char params[96], buf[READERS];
	__u64 before, after;

	tap_plan(3);
	forced_param(params, sizeof(params));
	err = st_unload_module("ringtrace");
	if (err)
		tap_bail("unloading ringtrace.ko: %s", strerror(err));
	err = st_load_module("kmod/ringtrace.ko", params);
	if (err)
		tap_bail("loading ringtrace.ko (%s): %s", params, strerror(err));
	tap_diag("loaded with %s", params);
	if (pipe(data) || pipe(ack))
		tap_bail("pipe: %s", strerror(errno));

	st_child_start(&sl, sleepers, NULL);
	cfg = st_config(RINGTRACE_EVENT_OFFCPU, sl.pid);
	cfg.flags |= RINGTRACE_CFG_INHERIT;
	st_session_open(&b, &cfg, 16);
	if (st_enable(&b))
		tap_bail("ENABLE B: %s", strerror(errno));
	cfg = st_config(RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_OFFCPU,
			getpid());
	cfg.flags |= RINGTRACE_CFG_INHERIT;
	st_session_open(&a, &cfg, 16);
	if (st_enable(&a))
		tap_bail("ENABLE A: %s", strerror(errno));

	for (i = 0; i < READERS; i++) {
		reader[i] = fork();
		if (reader[i] < 0)
			tap_bail("fork: %s", strerror(errno));
		if (reader[i] == 0) {
			char c;

			if (read(data[0], &c, 1) != 1 ||
			    write(ack[1], "r", 1) != 1)
				_exit(1);
			for (;;)
				pause();
		}
	}
	ok = 1;
	for (i = 0; i < READERS; i++)
		ok &= st_wait_in_read(reader[i], data[0], 1);
	tap_ok(ok, "%d readers sleep in a traced vfs_read", READERS);

	/* A goes: vfs_read is detached under the sleeping reads. */
	st_disable(&a);
	st_session_close(&a);
	memset(buf, 'x', sizeof(buf));
	if (write(data[1], buf, READERS) != READERS)
		tap_bail("cannot wake the readers");
	for (i = 0; i < READERS; i++)
		if (read(ack[0], buf, 1) != 1)
			tap_bail("a reader did not come back");

	before = missed(&b);
	st_child_go(&sl);
	tap_ok(st_child_wait(&sl) == 0, "%d sleepers napped %d times each",
	       SLEEPERS, NAPS);
	after = missed(&b);
	tap_ok(after == before,
	       "the readers' entries were released after the detach: %llu switches missed (%d-entry table, %d sleepers)",
	       (unsigned long long)(after - before), TABLE, SLEEPERS);

	st_disable(&b);
	st_session_close(&b);
	for (i = 0; i < READERS; i++) {
		kill(reader[i], SIGKILL);
		waitpid(reader[i], NULL, 0);
	}
	params[0] = '\0';
	forced_param(params, sizeof(params));
	/* Back to the default table for the tests after this one. */
	err = st_unload_module("ringtrace");
	if (!err) {
		char *p = strstr(params, "vfs_read_attach=");

		err = st_load_module("kmod/ringtrace.ko", p ? p : "");
	}
	if (err)
		tap_diag("reloading ringtrace.ko: %s", strerror(err));
	return tap_finish();
}
