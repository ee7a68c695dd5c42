// SPDX-License-Identifier: GPL-2.0-only
/* ringtrace-cat's error messages, text and JSON (see errors.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errors.h"
#include "options.h"
#include "ringtrace/escape.h"

#define MSG_MAX	1024

static bool json_errors;

void cat_errors_from_argv(int argc, char **argv)
{
	/* "--" ends the options: a COMMAND's own --json is not ours. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			json_errors = true;
}

/*
 * Standard output and standard error one file (> F 2>&1): the text line
 * is in it already, a JSON copy would say it twice, mixed.
 */
static bool same_file_as_stderr(void)
{
	struct stat out, err;

	return !fstat(STDOUT_FILENO, &out) && !fstat(STDERR_FILENO, &err) &&
	       out.st_dev == err.st_dev && out.st_ino == err.st_ino;
}

void cat_error_str(const char *msg)
{
	char line[MSG_MAX * RT_JSON_ESCAPE_MAX + 16], *p = line;
	size_t left;
	ssize_t n;

	fprintf(stderr, PROG ": %s\n", msg);
	if (!json_errors || same_file_as_stderr())
		return;
	/* One write(2): the line is never split among other output. */
	p += sprintf(p, "{\"error\":\"");
	p = rt_json_escape(p, msg, MSG_MAX - 1);
	p += sprintf(p, "\"}\n");
	fflush(stdout);
	for (left = (size_t)(p - line), p = line; left; left -= (size_t)n,
	     p += n) {
		n = write(STDOUT_FILENO, p, left);
		if (n <= 0)
			break;
	}
}

void cat_error(const char *fmt, ...)
{
	char msg[MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cat_error_str(msg);
}
