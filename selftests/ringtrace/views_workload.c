// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload for views_replay.sh, not a test: for SECONDS of wall-clock
 * time, alternate a CPU burst in user space (views_spin) and reads of
 * /dev/zero (views_read: time in the kernel), both under views_round.
 * Built with frame pointers and symbols, so that samples' user stacks
 * unwind and name these functions; noinline keeps each a frame.
 *
 *	views_workload SECONDS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;
static char buf[1 << 16];

__attribute__((noinline)) static void views_spin(void)
{
	for (unsigned long i = 0; i < 200000; i++)
		sink += i * i;
}

__attribute__((noinline)) static void views_read(int fd)
{
	for (int i = 0; i < 16; i++)
		if (read(fd, buf, sizeof(buf)) < 0)
			exit(1);
}

__attribute__((noinline)) static void views_round(int fd)
{
	views_spin();
	views_read(fd);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 1.0);
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		return 1;
	while (now() < end)
		views_round(fd);
	close(fd);
	return 0;
}
