// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat: stream ringtrace records as they arrive, or decode a raw
 * file. This file reads the command line, installs the signals and hands
 * the run to its mode: trace.c (live), replay.c (-i FILE), diff.c
 * (--diff). Option parsing is options.c's; the work is in libringtrace.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/ringtrace.h>

#include "cat.h"
#include "diff.h"
#include "errors.h"
#include "views.h"
#include "ringtrace/kmod.h"
#include "ringtrace/sys.h"

/* ---- signals: set flags only (the loops do the work; cat.h) ---- */

volatile sig_atomic_t cat_stop_requested;
volatile sig_atomic_t cat_stop_signal;

static void on_stop_signal(int sig)
{
	if (cat_stop_requested && cat_stop_signal) {
		/* Second Ctrl-C while draining: give up at once. */
		static const char msg[] = PROG ": interrupted again, exiting\n";

		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
			_exit(128 + sig);
		_exit(128 + sig);
	}
	cat_stop_signal = sig;
	cat_stop_requested = 1;
}

/* --snapshot's SIGUSR2 asks for a snapshot. */
volatile sig_atomic_t cat_snapshot_requested;

static void on_snapshot_signal(int sig)
{
	(void)sig;
	cat_snapshot_requested = 1;
}

static void on_child_exit(int sig)
{
	(void)sig;
	cat_stop_requested = 1;
}

const int cat_handled_signals[CAT_NR_HANDLED_SIGNALS] = {
	SIGINT, SIGTERM, SIGCHLD, SIGPIPE
};

/*
 * --snapshot: SIGUSR2 is ours from the start (its default action would
 * kill us), and a COMMAND must not inherit that disposition: exec resets
 * caught signals to the default, as for SIGINT.
 */
static void install_snapshot_signal(sigset_t *wait_set)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_snapshot_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR2, &sa, NULL);
	sigaddset(wait_set, SIGUSR2);
}

static void install_signals(sigset_t *stop_set)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child_exit;
	sa.sa_flags = SA_NOCLDSTOP | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;	/* a closed pipe shows up as EPIPE */
	sa.sa_flags = 0;
	sigaction(SIGPIPE, &sa, NULL);

	sigemptyset(stop_set);
	sigaddset(stop_set, SIGINT);
	sigaddset(stop_set, SIGTERM);
	sigaddset(stop_set, SIGCHLD);
}

/* ---- the output every mode writes (cat.h) ---- */

/* -o FILE, or standard output: what the modes print to. */
int cat_open_output(const struct options *o, struct rt_outbuf *ob)
{
	int fd = STDOUT_FILENO;

	/* --snapshot --raw: each snapshot makes its own file (flight.c). */
	if (o->output && !(o->snapshot && o->raw)) {
		fd = cat_create_file(o->output, o->input);
		if (fd < 0)
			return -1;
	}
	if (rt_outbuf_init(ob, fd, RT_OUTBUF_DEFAULT_SIZE)) {
		cat_error("out of memory");
		return -1;
	}
	return 0;
}

void cat_close_output(const struct options *o, struct rt_outbuf *ob)
{
	if (o->output && ob->fd >= 0 && ob->fd != STDOUT_FILENO)
		rt_sys.close(ob->fd);
	rt_outbuf_fini(ob);
}

int cat_stream_exit_code(const struct rt_stream *st, int status,
			 const struct rt_outbuf *ob)
{
	switch (status) {
	case RT_STREAM_OK:
		return EXIT_OK;
	case RT_STREAM_ERR_OUTPUT:
		if (ob->error == EPIPE)
			return EXIT_OK;		/* reader went away: stop quietly */
		cat_error("writing output: %s", strerror(ob->error));
		return EXIT_FAIL;
	case RT_STREAM_ERR_DATA:
		cat_error("%s", st->errmsg);
		return EXIT_DATA;
	}
	cat_error("%s", st->errmsg);
	return EXIT_FAIL;
}

/*
 * --load: insert ringtrace.ko through libkmod when /dev/ringtrace is
 * missing, the way ringtrace-ctl load does (the checkout's module next to
 * this binary, else the one installed for the running kernel).
 */
static int load_module(void)
{
	char path_buf[PATH_MAX], exe[PATH_MAX], msg[512];
	const char *path = NULL;
	ssize_t n;

	if (access(RINGTRACE_DEVICE_PATH, F_OK) == 0)
		return 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		path = rt_kmod_checkout_path(exe, path_buf, sizeof(path_buf));
	}
	if (rt_kmod_load(path, "", msg, sizeof(msg))) {
		cat_error("--load: %s", msg);
		return -1;
	}
	fprintf(stderr, PROG ": %s\n", msg);
	return 0;
}

/*
 * The mode argv asks for: --diff, a replay of -i FILE, else a live
 * trace (of the whole system, of -p PID or of a COMMAND).
 */
int main(int argc, char **argv)
{
	sigset_t stop_set, original_mask;
	struct options o;

	/* --diff BEFORE AFTER: a mode with options of its own (diff.c). */
	if (cat_diff_requested(argc, argv))
		return cat_diff_main(argc, argv);
	cat_errors_from_argv(argc, argv);
	cat_parse_options(argc, argv, &o);
	cat_note_cmdline(argc, argv);
	sigprocmask(SIG_SETMASK, NULL, &original_mask);
	install_signals(&stop_set);
	if (o.input)
		return cat_replay(&o);
	if (o.load && load_module())
		return EXIT_FAIL;
	if (o.snapshot)
		install_snapshot_signal(&stop_set);
	return cat_trace(&o, &stop_set, &original_mask);
}
