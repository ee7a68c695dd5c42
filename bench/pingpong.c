// SPDX-License-Identifier: GPL-2.0-only
/*
 * The off-CPU benchmark's workload: two processes pinned to the
 * same CPU pass a byte back and forth over two pipes. Each round trip is
 * two context switches (each side blocks in read() until the other
 * writes, and only one of them can run), so the time per switch is the
 * time per round trip / 2, and a tracer's cost per context switch is the
 * difference with an untraced run.
 *
 *   pingpong -n ROUNDS -r REPS -c CPU -o FILE
 *
 * Writes to FILE, like readloop (vmbench reads both the same way):
 *   rep=I ns_per_call=X            (X: ns per context switch)
 *   median_ns_per_call=X failed=F user_ms=U sys_ms=S
 * -c takes one CPU (or "0,1": the first is used). A warm-up of ROUNDS/10
 * round trips comes first.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "pingpong: cannot pin to CPU %d: %s\n", cpu,
			strerror(errno));
}

/* @n round trips; -1 if a pipe broke. */
static int rounds(int out, int in, long n)
{
	char c = 0;

	for (long i = 0; i < n; i++)
		if (write(out, &c, 1) != 1 || read(in, &c, 1) != 1)
			return -1;
	return 0;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long n = 10000;
	int reps = 3, cpu = 0, failed = 0, c, ab[2], ba[2], status;
	const char *outpath = NULL;
	struct rusage ru;
	double *ns;
	FILE *out;
	pid_t pid;

	while ((c = getopt(argc, argv, "n:r:c:o:")) != -1) {
		switch (c) {
		case 'n': n = strtol(optarg, NULL, 10); break;
		case 'r': reps = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		case 'o': outpath = optarg; break;
		default: return 2;
		}
	}
	if (n <= 0 || reps <= 0 || !outpath)
		return 2;
	ns = calloc((size_t)reps, sizeof(*ns));
	if (!ns || pipe(ab) || pipe(ba))
		return 1;
	pin(cpu);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		/* The echo side: as many round trips as the other asks for. */
		char b;

		close(ab[1]);
		close(ba[0]);
		while (read(ab[0], &b, 1) == 1)
			if (write(ba[1], &b, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	failed |= rounds(ab[1], ba[0], n / 10 + 1);
	for (int i = 0; i < reps; i++) {
		unsigned long long t0 = now_ns();

		failed |= rounds(ab[1], ba[0], n);
		ns[i] = (double)(now_ns() - t0) / (2.0 * (double)n);
	}
	close(ab[1]);
	waitpid(pid, &status, 0);
	failed |= !WIFEXITED(status) || WEXITSTATUS(status);
	getrusage(RUSAGE_SELF, &ru);
	out = fopen(outpath, "w");
	if (!out)
		return 1;
	for (int i = 0; i < reps; i++)
		fprintf(out, "rep=%d ns_per_call=%.1f\n", i, ns[i]);
	qsort(ns, (size_t)reps, sizeof(*ns), by_double);
	fprintf(out, "median_ns_per_call=%.1f failed=%d user_ms=%.1f sys_ms=%.1f\n",
		ns[reps / 2], failed ? 1 : 0,
		(double)ru.ru_utime.tv_sec * 1e3 + (double)ru.ru_utime.tv_usec / 1e3,
		(double)ru.ru_stime.tv_sec * 1e3 + (double)ru.ru_stime.tv_usec / 1e3);
	fclose(out);
	free(ns);
	return failed ? 1 : 0;
}
