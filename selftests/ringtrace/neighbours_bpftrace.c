// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace and bpftrace's kfunc:vfs_read (a BPF fentry program, run by
 * the kernel's BPF trampoline, the way libbpf tools and BPF security
 * agents attach), in both orders, with every mechanism this kernel
 * offers. fprobe and the kretprobe share vfs_read with the trampoline:
 * both count the workload's reads exactly. The direct call cannot (ftrace
 * keeps one direct call per function): whichever comes second is refused
 * with an error, and the first still counts exactly. A kernel without
 * ftrace direct calls attaches no fentry program to vfs_read at all,
 * ringtrace or not (the BPF trampoline of a function ftrace manages is a
 * direct call): Debian's arm64 6.1 (arm64 has them from 6.4) skips.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_neighbour.h"
#include "st_util.h"
#include "tap.h"

static pid_t bt_pid = -1;
static int bt_out = -1;		/* its stdout and stderr */
static char bt_text[8192];
static size_t bt_len;

/* Everything bpftrace printed so far, without blocking. */
static void bt_drain(bool to_eof)
{
	ssize_t n;

	fcntl(bt_out, F_SETFL, to_eof ? 0 : O_NONBLOCK);
	while (bt_len < sizeof(bt_text) - 1 &&
	       (n = read(bt_out, bt_text + bt_len,
			 sizeof(bt_text) - 1 - bt_len)) > 0)
		bt_len += (size_t)n;
	bt_text[bt_len] = '\0';
}

/* Its BPF link exists: the fentry program is attached. */
static bool bt_attached(void)
{
	char dir[64], path[320], target[64];
	struct dirent *d;
	bool found = false;
	ssize_t n;
	DIR *fds;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)bt_pid);
	fds = opendir(dir);
	if (!fds)
		return false;
	while (!found && (d = readdir(fds))) {
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			found = !strcmp(target, "anon_inode:bpf_link");
		}
	}
	closedir(fds);
	return found;
}

/* The last line bpftrace printed, for a refusal's message. */
static void bt_why(char *why, size_t len)
{
	char *end = bt_text + bt_len, *start;

	while (end > bt_text && end[-1] == '\n')
		end--;
	start = end;
	while (start > bt_text && start[-1] != '\n')
		start--;
	snprintf(why, len, "bpftrace: %.*s", (int)(end - start), start);
}

static int bt_start(pid_t pid, char *why, size_t len)
{
	char prog[128];
	int pfd[2], status;
	unsigned int i;

	snprintf(prog, sizeof(prog),
		 "kfunc:vfs_read /pid == %d/ { @n = count(); }", (int)pid);
	if (pipe2(pfd, O_CLOEXEC))
		tap_bail("pipe: %s", strerror(errno));
	bt_len = 0;
	bt_pid = fork();
	if (bt_pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (bt_pid == 0) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execlp("bpftrace", "bpftrace", "-e", prog, (char *)NULL);
		fprintf(stderr, "cannot run bpftrace: %s\n", strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	bt_out = pfd[0];
	/* Liveness bound (ten minutes), not timing: it compiles first. */
	for (i = 0; i < 6000; i++) {
		if (waitpid(bt_pid, &status, WNOHANG) == bt_pid) {
			bt_drain(true);
			close(bt_out);
			bt_pid = -1;
			bt_why(why, len);
			return ECANCELED;
		}
		if (bt_attached())
			return 0;
		bt_drain(false);
		usleep(100000);
	}
	bt_drain(false);
	tap_diag("bpftrace printed: %s", bt_text);
	st_nb_diag_tasks(bt_pid);
	st_nb_diag_livepatch();
	tap_bail("bpftrace neither attached nor exited");
}

static long bt_stop(char *why, size_t len)
{
	const char *at;
	unsigned int i;
	int status;

	/*
	 * It detaches, prints its map and exits; SIGINT again each second
	 * until it does. bpftrace's handler only sets a flag, which its
	 * event loop (epoll_wait() with a 100 ms timeout, again and again)
	 * looks at only when a wait ends with EINTR: a SIGINT that lands
	 * outside the wait (while it is still attaching, or between two
	 * waits) is lost, and bpftrace then polls forever (seen
	 * on 6.12-rt in "direct, bpftrace first", where ringtrace's enable
	 * fails at once and the SIGINT follows the attach closely; the
	 * test then blocked in its read of bpftrace's output). A liveness
	 * bound (five minutes), not timing: a bpftrace stuck in its detach
	 * says where rather than holding the test until the runner's
	 * timeout.
	 */
	for (i = 0; i < 3000; i++) {
		if (i % 10 == 0)
			kill(bt_pid, SIGINT);
		bt_drain(false);
		if (waitpid(bt_pid, &status, WNOHANG) == bt_pid)
			break;
		usleep(100000);
	}
	if (i == 3000) {
		tap_diag("bpftrace did not exit within 300 s of SIGINT");
		st_nb_diag_tasks(bt_pid);
		st_nb_diag_livepatch();
		kill(bt_pid, SIGKILL);
		waitpid(bt_pid, &status, 0);
		snprintf(why, len, "bpftrace hung after SIGINT");
		close(bt_out);
		bt_pid = -1;
		return -1;
	}
	bt_drain(true);
	close(bt_out);
	bt_pid = -1;
	at = strstr(bt_text, "@n: ");
	if (!at) {
		/* No call seen prints no map at all. */
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			return 0;
		bt_why(why, len);
		return -1;
	}
	return strtol(at + 4, NULL, 10);
}

static bool bt_shares(unsigned int mech)
{
	return mech != RINGTRACE_ATTACH_DIRECT;
}

int main(void)
{
	static const struct st_neighbour nb = {
		.name		= "bpftrace",
		.start		= bt_start,
		.stop		= bt_stop,
		.shares_with	= bt_shares,
	};

	if (access("/sys/kernel/btf/vmlinux", R_OK))
		tap_skip_all("no kernel BTF: bpftrace's kfunc probes need it");
	/* 6.1 has the _multi names, 6.5+ the plain ones. */
	if (!st_ksym_exists("register_ftrace_direct") &&
	    !st_ksym_exists("register_ftrace_direct_multi"))
		tap_skip_all("no ftrace direct calls in this kernel: no BPF "
			     "trampoline (kfunc probe) on vfs_read");
	return st_neighbour_main(&nb);
}
