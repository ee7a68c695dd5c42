// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The traced command, held until the session is enabled (see command.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ringtrace/command.h"

/* In the child, between fork and exec: async-signal-safe calls only. */
static void __attribute__((noreturn))
child(int gate_rd, int err_wr, char *const argv[], const sigset_t *mask,
      const int *reset, size_t nr_reset, int stdout_fd)
{
	struct pollfd p = { .fd = gate_rd, .events = POLLIN };
	int err;

	if (stdout_fd >= 0 && dup2(stdout_fd, STDOUT_FILENO) < 0)
		_exit(127);

	for (size_t i = 0; i < nr_reset; i++)
		signal(reset[i], SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);

	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	if (!(p.revents & POLLIN))
		_exit(127);		/* aborted: never run the command */
	close(gate_rd);

	execvp(argv[0], argv);
	err = errno;
	if (write(err_wr, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

int rt_command_spawn(struct rt_command *c, char *const argv[],
		     const sigset_t *child_mask, const int *reset_signals,
		     size_t nr_reset, char *err, size_t errlen)
{
	return rt_command_spawn_stdout(c, argv, child_mask, reset_signals,
				       nr_reset, -1, err, errlen);
}

int rt_command_spawn_stdout(struct rt_command *c, char *const argv[],
			    const sigset_t *child_mask,
			    const int *reset_signals, size_t nr_reset,
			    int stdout_fd, char *err, size_t errlen)
{
	int gate[2], exec_err[2];

	memset(c, 0, sizeof(*c));
	c->pid = -1;
	if (pipe2(gate, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -errno;
	}
	if (pipe2(exec_err, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		close(gate[0]);
		close(gate[1]);
		return -errno;
	}
	c->pid = fork();
	if (c->pid < 0) {
		int e = errno;

		snprintf(err, errlen, "fork: %s", strerror(e));
		close(gate[0]);
		close(gate[1]);
		close(exec_err[0]);
		close(exec_err[1]);
		return -e;
	}
	if (c->pid == 0) {
		close(gate[1]);
		close(exec_err[0]);
		child(gate[0], exec_err[1], argv, child_mask, reset_signals,
		      nr_reset, stdout_fd);
	}
	close(gate[0]);
	close(exec_err[1]);
	c->gate_fd = gate[1];
	c->exec_err_fd = exec_err[0];
	return 0;
}

int rt_command_release(struct rt_command *c, char *err, size_t errlen)
{
	int child_errno = 0;
	ssize_t n;

	if (write(c->gate_fd, "", 1) != 1) {
		int e = errno;

		snprintf(err, errlen, "cannot start the command: %s",
			 strerror(e));
		return -e;
	}
	close(c->gate_fd);
	c->gate_fd = -1;
	/* EOF: exec succeeded (the pipe was close-on-exec). */
	do {
		n = read(c->exec_err_fd, &child_errno, sizeof(child_errno));
	} while (n < 0 && errno == EINTR);
	close(c->exec_err_fd);
	c->exec_err_fd = -1;
	if (n == (ssize_t)sizeof(child_errno)) {
		snprintf(err, errlen, "%s", strerror(child_errno));
		return -child_errno;
	}
	return 0;
}

void rt_command_abort(struct rt_command *c)
{
	if (c->gate_fd >= 0)
		close(c->gate_fd);
	if (c->exec_err_fd >= 0)
		close(c->exec_err_fd);
	c->gate_fd = -1;
	c->exec_err_fd = -1;
	if (c->pid > 0)
		rt_command_reap(c, false);
}

int rt_command_reap(struct rt_command *c, bool nohang)
{
	pid_t r;

	if (c->reaped || c->pid <= 0)
		return 1;
	do {
		r = waitpid(c->pid, &c->status, nohang ? WNOHANG : 0);
	} while (r < 0 && errno == EINTR);
	if (r == c->pid || (r < 0 && errno == ECHILD)) {
		c->reaped = true;
		return 1;
	}
	return 0;
}

int rt_command_exit_code(const struct rt_command *c)
{
	if (WIFEXITED(c->status))
		return WEXITSTATUS(c->status);
	if (WIFSIGNALED(c->status))
		return 128 + WTERMSIG(c->status);
	return 1;
}
