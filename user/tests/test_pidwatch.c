// SPDX-License-Identifier: GPL-2.0-only
/*
 * ringtrace-cat -p PID stops when PID has exited (pidwatch.h), as perf
 * record -p does: a watched process that runs is not done, one that
 * exited is, and its exit wakes an epoll set; several are done only when
 * all have exited; a pid that does not exist is named; a thread that
 * leads no process is not watched (EINVAL, ENOENT since Linux 6.9: the
 * run goes on as before).
 * Real processes (fork), real pidfds.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/pidwatch.h"

/* A child that waits until its end of @pipefd is closed. */
static pid_t child(int pipefd[2])
{
	pid_t pid;
	char c;

	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* Other children's write ends too: only ours keeps it. */
		for (int fd = 3; fd < 1024; fd++)
			if (fd != pipefd[0])
				close(fd);
		while (read(pipefd[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(pipefd[0]);
	return pid;
}

/* Let it go, and wait until it has exited (a zombie is exited too). */
static void end(pid_t pid, int pipefd[2])
{
	siginfo_t si;

	close(pipefd[1]);
	assert_int_equal(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT), 0);
}

static void test_one_process(void **state)
{
	struct rt_pidwatch w;
	struct epoll_event ev;
	uint32_t pid, missing = 0;
	int p[2], ep = epoll_create1(EPOLL_CLOEXEC);

	(void)state;
	assert_true(ep >= 0);
	pid = (uint32_t)child(p);
	assert_int_equal(rt_pidwatch_open(&w, &pid, 1, ep, &missing), 0);
	assert_false(rt_pidwatch_all_exited(&w));
	assert_int_equal(epoll_wait(ep, &ev, 1, 0), 0);
	end((pid_t)pid, p);
	/* The exit wakes the reader (a generous bound, not a timing). */
	assert_int_equal(epoll_wait(ep, &ev, 1, 60000), 1);
	assert_true(rt_pidwatch_all_exited(&w));
	/* Seen, it left the set: no wake-up forever after. */
	assert_int_equal(epoll_wait(ep, &ev, 1, 0), 0);
	rt_pidwatch_close(&w);
	waitpid((pid_t)pid, NULL, 0);
	close(ep);
}

static void test_all_of_several(void **state)
{
	struct rt_pidwatch w;
	uint32_t pids[2], missing = 0;
	int a[2], b[2];

	(void)state;
	pids[0] = (uint32_t)child(a);
	pids[1] = (uint32_t)child(b);
	assert_int_equal(rt_pidwatch_open(&w, pids, 2, -1, &missing), 0);
	end((pid_t)pids[0], a);
	assert_false(rt_pidwatch_all_exited(&w));
	end((pid_t)pids[1], b);
	assert_true(rt_pidwatch_all_exited(&w));
	rt_pidwatch_close(&w);
	waitpid((pid_t)pids[0], NULL, 0);
	waitpid((pid_t)pids[1], NULL, 0);
}

static void test_no_such_process(void **state)
{
	struct rt_pidwatch w;
	/* Above PID_MAX_LIMIT (4194304): no process has it. */
	uint32_t pids[2] = { (uint32_t)getpid(), 4194305 + 7 }, missing = 0;

	(void)state;
	assert_int_equal(rt_pidwatch_open(&w, pids, 2, -1, &missing), -ESRCH);
	assert_int_equal(missing, pids[1]);
	assert_int_equal(w.nr, 0);
	assert_false(rt_pidwatch_all_exited(&w));	/* nothing watched */
}

static pid_t thread_tid;
static int up[2], down[2];	/* thread to test, test to thread */

static void *thread_main(void *arg)
{
	char c;

	(void)arg;
	thread_tid = gettid();
	if (write(up[1], "t", 1) != 1 || read(down[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

static void test_thread_is_not_a_process(void **state)
{
	struct rt_pidwatch w;
	pthread_t t;
	uint32_t tid, missing = 0;
	int ret;
	char c;

	(void)state;
	assert_int_equal(pipe(up), 0);
	assert_int_equal(pipe(down), 0);
	assert_int_equal(pthread_create(&t, NULL, thread_main, NULL), 0);
	assert_int_equal(read(up[0], &c, 1), 1);
	tid = (uint32_t)thread_tid;
	ret = rt_pidwatch_open(&w, &tid, 1, -1, &missing);
	assert_true(ret == -EINVAL || ret == -ENOENT);
	assert_int_equal(w.nr, 0);
	assert_int_equal(write(down[1], "x", 1), 1);
	pthread_join(t, NULL);
	for (int i = 0; i < 2; i++) {
		close(up[i]);
		close(down[i]);
	}
}

int main(void)
{
	RUN(cmocka_unit_test(test_one_process),
	    cmocka_unit_test(test_all_of_several),
	    cmocka_unit_test(test_no_such_process),
	    cmocka_unit_test(test_thread_is_not_a_process));
}
