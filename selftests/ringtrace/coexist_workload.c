// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload for func_coexist.sh, not a test: phases of exactly N write()
 * or read() calls of SIZE bytes on FILE, each phase under a command name
 * of its own, every one held at a gate until the test opens it. The tools
 * counting beside ringtrace select the calls by that name, so a phase is
 * named only once this process has loaded (no loader's reads under it),
 * and between the calls it makes no other read or write: it waits in
 * open() of a FIFO, never in read() or write(), so that a probe attached
 * or detached meanwhile on vfs_read, vfs_write or their callees never
 * patches a function it is running (Documentation/testing.rst, TCG).
 *
 *	coexist_workload write|read FILE SIZE N DIR NAME...
 *
 * For each NAME: set the command name, create the FIFO DIR/NAME.go and
 * then the file DIR/NAME.ready, wait until the test opens the FIFO for
 * writing, then make the N calls of SIZE bytes (read: FILE from its
 * start, which must hold N * SIZE bytes; write: FILE created or
 * truncated). Exits 0, or 2 when a call did not move exactly SIZE bytes,
 * 1 on a usage error. It prints nothing (printing is a write).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[1 << 16];

/* Creates @dir/@name@suffix as a FIFO or an empty file: 0 or -1. */
static int make(const char *dir, const char *name, const char *suffix,
		bool fifo)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s%s", dir, name, suffix);
	if (fifo)
		return mkfifo(path, 0600);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return -1;
	return close(fd);
}

/* Blocks in open() until the test opens @dir/@name.go for writing. */
static int gate(const char *dir, const char *name)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s.go", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	return close(fd);
}

static int phase(bool wr, const char *file, size_t size, unsigned long n)
{
	int fd = open(file, wr ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY, 0600);
	unsigned long i;
	ssize_t got;

	if (fd < 0)
		return -1;
	for (i = 0; i < n; i++) {
		got = wr ? write(fd, buf, size) : read(fd, buf, size);
		if (got != (ssize_t)size)
			break;
	}
	close(fd);
	return i == n ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned long size, n;
	const char *dir;
	bool wr;
	int i;

	if (argc < 7 || (strcmp(argv[1], "write") && strcmp(argv[1], "read")))
		return 1;
	wr = !strcmp(argv[1], "write");
	size = strtoul(argv[3], NULL, 10);
	n = strtoul(argv[4], NULL, 10);
	dir = argv[5];
	if (!size || size > sizeof(buf) || !n)
		return 1;
	for (i = 6; i < argc; i++) {
		if (prctl(PR_SET_NAME, argv[i], 0, 0, 0) ||
		    make(dir, argv[i], ".go", true) ||
		    make(dir, argv[i], ".ready", false) || gate(dir, argv[i]))
			_exit(1);
		if (phase(wr, argv[2], size, n))
			_exit(2);
	}
	/* No stdio buffer to flush: nothing written at exit either. */
	_exit(0);
}
