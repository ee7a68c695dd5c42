// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark workload: a tight loop of read(fd, buf, 64) on /dev/zero.
 *
 *   readloop [-n CALLS] [-r REPS] [-c CPU[,CPU...]] [-u] [-s BYTES] [-f FILE]
 *            [-o FILE]
 *
 * One process per CPU given (pinned there); with -u (unpinned) the list
 * only says how many processes, and the scheduler places them, as it
 * places every task of a busy machine: a tracer's reader then shares the
 * workload's CPUs instead of having one of its own. All of them start each
 * repetition together (a barrier in shared memory), so "-c 0,1" keeps both
 * CPUs busy at once. Each repetition is CALLS reads, timed with
 * CLOCK_MONOTONIC; a short untimed warm-up comes first (under QEMU TCG the
 * first pass also pays for translating the code). Output, one line per
 * repetition and CPU, then the median over all of them:
 *
 *   rep=0 cpu=0 calls=100000 ns=85012345 ns_per_call=850.12
 *   ...         (cpu=-1: unpinned)
 *   median_ns_per_call=850.12 calls_total=700000 cpus=1 reps=7 failed=0
 *   user_ms=... sys_ms=...
 *
 * (user_ms, sys_ms: CPU time of all the processes, warm-up included, so
 * that a tool that runs us as its child can subtract it from its own.)
 * written to FILE (-o) once everything is done, else to stdout. Nothing is
 * read() but /dev/zero: the only vfs_read calls this program makes during
 * the timed loop are the ones it measures.
 *
 * -f FILE reads FILE instead, each call a pread() of its first BYTES
 * (a vfs_read too): a file in the page cache (tmpfs) or on the guest's
 * 9p root, whose reads call into a filesystem, for the function graph's
 * benchmark (the callees of vfs_read traced beside it).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS	64
#define MAX_REPS	1000

struct shared {
	unsigned int	arrived;	/* barrier: processes at the start line */
	unsigned int	generation;	/* bumped when all have arrived */
	int		failed;
	uint64_t	ns[MAX_CPUS][MAX_REPS];
};

static struct shared *sh;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* All @n processes leave together; spins briefly, then yields. */
static void barrier(unsigned int n)
{
	unsigned int gen = __atomic_load_n(&sh->generation, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(&sh->arrived, 1, __ATOMIC_ACQ_REL) == n) {
		__atomic_store_n(&sh->arrived, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sh->generation, gen + 1, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&sh->generation, __ATOMIC_ACQUIRE) == gen)
		sched_yield();
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void usage(void)
{
	fprintf(stderr, "usage: readloop [-n CALLS] [-r REPS] [-c CPU[,CPU...]] "
		"[-u] [-s BYTES] [-f FILE] [-o FILE]\n");
	exit(2);
}

/* One timed call: a read of /dev/zero, or a pread() of -f's file. */
static bool read_once(int fd, char *buf, size_t bytes, bool file)
{
	ssize_t n = file ? pread(fd, buf, bytes, 0) : read(fd, buf, bytes);

	return n == (ssize_t)bytes;
}

static void worker(int idx, int cpu, unsigned int nproc, long calls, int reps,
		   size_t bytes, const char *path)
{
	bool file = path != NULL;
	char buf[4096];
	cpu_set_t set;
	int fd;

	CPU_ZERO(&set);
	if (cpu >= 0)
		CPU_SET(cpu, &set);
	if (cpu >= 0 && sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "readloop: cannot run on CPU %d: %s\n", cpu,
			strerror(errno));
		sh->failed = 1;
	}
	if (!path)
		path = "/dev/zero";
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "readloop: %s: %s\n", path, strerror(errno));
		sh->failed = 1;
	}
	/* Warm-up: fault in, translate, settle. */
	for (long i = 0; fd >= 0 && i < calls / 10 + 100; i++)
		if (!read_once(fd, buf, bytes, file))
			sh->failed = 1;
	for (int r = 0; r < reps; r++) {
		uint64_t t0;

		barrier(nproc);
		t0 = now_ns();
		for (long i = 0; fd >= 0 && i < calls; i++)
			if (!read_once(fd, buf, bytes, file))
				sh->failed = 1;
		sh->ns[idx][r] = now_ns() - t0;
	}
	_exit(sh->failed);
}

int main(int argc, char **argv)
{
	int cpus[MAX_CPUS], ncpu = 0, reps = 7, c;
	long calls = 100000;
	size_t bytes = 64;
	const char *out_path = NULL, *in_path = NULL;
	char *s, *end;
	FILE *out;
	double *v, user, sys;
	struct rusage self, children;
	int status, failed = 0;
	int unpinned = 0;

	while ((c = getopt(argc, argv, "n:r:c:us:f:o:")) != -1) {
		switch (c) {
		case 'n':
			calls = strtol(optarg, &end, 10);
			if (*end || calls <= 0)
				usage();
			break;
		case 'r':
			reps = (int)strtol(optarg, &end, 10);
			if (*end || reps <= 0 || reps > MAX_REPS)
				usage();
			break;
		case 'c':
			for (s = optarg; *s; s = end + (*end == ',')) {
				if (ncpu == MAX_CPUS)
					usage();
				cpus[ncpu++] = (int)strtol(s, &end, 10);
				if (end == s || (*end && *end != ','))
					usage();
			}
			break;
		case 'u':
			unpinned = 1;
			break;
		case 's':
			bytes = (size_t)strtoul(optarg, &end, 10);
			if (*end || !bytes || bytes > 4096)
				usage();
			break;
		case 'f':
			in_path = optarg;
			break;
		case 'o':
			out_path = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	if (!ncpu)
		cpus[ncpu++] = 0;
	for (int i = 0; unpinned && i < ncpu; i++)
		cpus[i] = -1;	/* where the scheduler likes */

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("readloop: mmap");
		return 1;
	}
	for (int i = 0; i < ncpu; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("readloop: fork");
			return 1;
		}
		if (pid == 0)
			worker(i, cpus[i], (unsigned int)ncpu, calls, reps, bytes,
			       in_path);
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;

	out = out_path ? fopen(out_path, "w") : stdout;
	if (!out) {
		perror(out_path);
		return 1;
	}
	v = calloc((size_t)ncpu * (size_t)reps, sizeof(*v));
	if (!v)
		return 1;
	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < ncpu; i++) {
			double per = (double)sh->ns[i][r] / (double)calls;

			v[r * ncpu + i] = per;
			fprintf(out, "rep=%d cpu=%d calls=%ld ns=%llu ns_per_call=%.2f\n",
				r, cpus[i], calls,
				(unsigned long long)sh->ns[i][r], per);
		}
	}
	qsort(v, (size_t)ncpu * (size_t)reps, sizeof(*v), cmp_double);
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	user = (double)(self.ru_utime.tv_sec + children.ru_utime.tv_sec) * 1e3 +
	       (double)(self.ru_utime.tv_usec + children.ru_utime.tv_usec) / 1e3;
	sys = (double)(self.ru_stime.tv_sec + children.ru_stime.tv_sec) * 1e3 +
	      (double)(self.ru_stime.tv_usec + children.ru_stime.tv_usec) / 1e3;
	fprintf(out, "median_ns_per_call=%.2f calls_total=%ld cpus=%d reps=%d "
		"failed=%d user_ms=%.1f sys_ms=%.1f\n", v[ncpu * reps / 2],
		calls * reps * ncpu, ncpu, reps, failed, user, sys);
	if (out != stdout && fclose(out))
		failed = 1;
	return failed;
}
