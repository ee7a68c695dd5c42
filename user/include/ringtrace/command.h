/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Running the command given after "--" so that its very first read is
 * traced: it is forked first (its pid is what the session filters on),
 * then held before exec until the session is enabled.
 *
 * The child waits in poll() on a pipe and never read()s it: a read would
 * itself be a vfs_read of the traced pid. The parent releases it by
 * writing a byte (POLLIN) or aborts it by closing the pipe (POLLHUP only:
 * the child exits 127 without running anything; this also happens if the
 * parent dies). An exec failure comes back as an errno through a second,
 * close-on-exec pipe.
 */
#ifndef RINGTRACE_COMMAND_H
#define RINGTRACE_COMMAND_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct rt_command {
	pid_t		pid;
	int		gate_fd;	/* write end: release or abort */
	int		exec_err_fd;	/* read end: errno if exec failed */
	bool		reaped;
	int		status;		/* waitpid status once reaped */
};

/*
 * Fork the held child. @child_mask is the signal mask and @reset_signals
 * the signals whose disposition goes back to default in the child (the
 * parent's handlers and ignores must not leak into the command).
 */
int rt_command_spawn(struct rt_command *c, char *const argv[],
		     const sigset_t *child_mask, const int *reset_signals,
		     size_t nr_reset, char *err, size_t errlen);

/*
 * The same, with the command's standard output on @stdout_fd (-1: ours):
 * when ours carries a recording (ringtrace-cat --raw to standard output),
 * the command's output must not be mixed into it.
 */
int rt_command_spawn_stdout(struct rt_command *c, char *const argv[],
			    const sigset_t *child_mask,
			    const int *reset_signals, size_t nr_reset,
			    int stdout_fd, char *err, size_t errlen);

/* Let it exec. 0, or -errno (exec failed, message in @err). */
int rt_command_release(struct rt_command *c, char *err, size_t errlen);

/* Make it exit without running, and reap it. */
void rt_command_abort(struct rt_command *c);

/* Reap it (blocking unless @nohang). 1: reaped, 0: still running. */
int rt_command_reap(struct rt_command *c, bool nohang);

/* Shell convention: exit code, or 128 + signal number. */
int rt_command_exit_code(const struct rt_command *c);

#endif /* RINGTRACE_COMMAND_H */
