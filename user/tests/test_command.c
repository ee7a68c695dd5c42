// SPDX-License-Identifier: GPL-2.0-only
/*
 * The traced command: it does not run before it is released (so tracing
 * can be enabled first), runs once released with its exit status passed
 * through, never runs if aborted, and an exec failure comes back as a
 * message instead of a silent 127.
 */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/command.h"

static char marker[64];
static char sh[] = "sh", dash_c[] = "-c";

static void spawn(struct rt_command *c, char *const argv[])
{
	sigset_t none;
	char err[256];
	static const int reset[] = { SIGPIPE };

	sigemptyset(&none);
	assert_int_equal(rt_command_spawn(c, argv, &none, reset, 1, err,
					  sizeof(err)), 0);
}

static bool exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

static void test_held_until_released(void **state)
{
	char script[128];
	char *argv[] = { sh, dash_c, script, NULL };
	struct rt_command c;
	char err[256];

	(void)state;
	strcpy(marker, "/tmp/ringtrace-cmd-XXXXXX");
	close(mkstemp(marker));
	unlink(marker);
	snprintf(script, sizeof(script), "touch %s; exit 7", marker);
	spawn(&c, argv);
	usleep(200000);
	assert_false(exists(marker));		/* still held */
	assert_int_equal(rt_command_reap(&c, true), 0);
	assert_int_equal(rt_command_release(&c, err, sizeof(err)), 0);
	assert_int_equal(rt_command_reap(&c, false), 1);
	assert_true(exists(marker));
	assert_int_equal(rt_command_exit_code(&c), 7);
	unlink(marker);
}

static void test_abort_never_runs(void **state)
{
	char script[128];
	char *argv[] = { sh, dash_c, script, NULL };
	struct rt_command c;

	(void)state;
	strcpy(marker, "/tmp/ringtrace-cmd-XXXXXX");
	close(mkstemp(marker));
	unlink(marker);
	snprintf(script, sizeof(script), "touch %s", marker);
	spawn(&c, argv);
	rt_command_abort(&c);
	assert_true(c.reaped);
	assert_int_equal(rt_command_exit_code(&c), 127);
	assert_false(exists(marker));
}

static void test_exec_failure_reported(void **state)
{
	char missing[] = "/nonexistent/ringtrace-no-such-cmd";
	char *argv[] = { missing, NULL };
	struct rt_command c;
	char err[256];

	(void)state;
	spawn(&c, argv);
	assert_int_equal(rt_command_release(&c, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, strerror(ENOENT));
	rt_command_reap(&c, false);
	assert_int_equal(rt_command_exit_code(&c), 127);
}

static void test_signal_exit_code(void **state)
{
	char script[] = "kill -TERM $$";
	char *argv[] = { sh, dash_c, script, NULL };
	struct rt_command c;
	char err[256];

	(void)state;
	spawn(&c, argv);
	assert_int_equal(rt_command_release(&c, err, sizeof(err)), 0);
	rt_command_reap(&c, false);
	assert_int_equal(rt_command_exit_code(&c), 128 + SIGTERM);
}

/*
 * With ringtrace-cat's recording on standard output, the
 * command's standard output goes elsewhere (its standard error).
 */
static void test_stdout_redirected(void **state)
{
	char script[] = "echo to-stdout";
	char *argv[] = { sh, dash_c, script, NULL };
	struct rt_command c;
	sigset_t none;
	char err[256], buf[64] = "";
	int p[2];
	ssize_t n;

	(void)state;
	sigemptyset(&none);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(rt_command_spawn_stdout(&c, argv, &none, NULL, 0, p[1],
						 err, sizeof(err)), 0);
	close(p[1]);
	assert_int_equal(rt_command_release(&c, err, sizeof(err)), 0);
	n = read(p[0], buf, sizeof(buf) - 1);
	assert_true(n > 0);
	assert_string_equal(buf, "to-stdout\n");
	close(p[0]);
	assert_int_equal(rt_command_reap(&c, false), 1);
	assert_int_equal(rt_command_exit_code(&c), 0);
}

int main(void)
{
	RUN(cmocka_unit_test(test_held_until_released),
	    cmocka_unit_test(test_abort_never_runs),
	    cmocka_unit_test(test_exec_failure_reported),
	    cmocka_unit_test(test_signal_exit_code),
	    cmocka_unit_test(test_stdout_redirected));
}
