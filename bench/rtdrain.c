// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtdrain: the smallest system-wide ringtrace reader, for measuring what
 * ABI 2's options cost in the probe (path records, kernel and user stack
 * trailers) before ringtrace-cat has options for them. It configures
 * vfs_read on every CPU, maps every online CPU's ring, drains and counts
 * records until SIGINT or SIGTERM, and prints the line vmbench parses:
 *
 *	rtdrain: N records, L lost, B bytes in T s
 *
 *   rtdrain -o STARTED [-p] [-k DEPTH] [-u DEPTH] [-b DATA_PAGES]
 *           [-c] [-g CGROUP]
 *
 * -c: RINGTRACE_CFG_CGROUPS (a task_ext on every record, each
 * cgroup named once); -g: only tasks in CGROUP (as ringtrace-cat --cgroup:
 * a directory under /sys/fs/cgroup or relative to it; /sys/fs/cgroup
 * itself for every task), the module's cgroup filter.
 *
 * STARTED is written once tracing is on (vmbench waits for it). Every
 * configuration uses this same reader, so ratios between them are the
 * options' cost alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/ringtrace.h>
#include <ringtrace/cgroup.h>
#include <ringtrace/ring.h>

#define MAX_CPUS	64

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void die(const char *what)
{
	fprintf(stderr, "rtdrain: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned long long drain(struct rt_ring *rings, int nr)
{
	unsigned long long n = 0;
	struct rt_record rec;
	int cpu;

	for (cpu = 0; cpu < nr; cpu++) {
		if (rt_ring_refresh(&rings[cpu], NULL) != RT_RING_OK)
			continue;
		while (rt_ring_peek(&rings[cpu], &rec) == RT_RING_OK) {
			n++;
			rt_ring_advance(&rings[cpu]);
		}
		rt_ring_release(&rings[cpu]);
	}
	return n;
}

int main(int argc, char **argv)
{
	struct ringtrace_config cfg = {
		.size = sizeof(cfg), .events = RINGTRACE_EVENT_VFS_READ,
		.pid = -1,
	};
	struct ringtrace_stats st = { .size = sizeof(st) };
	static struct rt_ring rings[MAX_CPUS];
	unsigned int pages = 1024;
	const char *started = NULL;
	uint64_t cgroup_id = 0;
	char err[256];
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len;
	unsigned long long n = 0;
	int fd, cpu, nr, opt;
	struct pollfd pfd;
	double t0;
	void *map;
	FILE *f;

	while ((opt = getopt(argc, argv, "o:pk:u:b:cg:")) != -1) {
		switch (opt) {
		case 'o': started = optarg; break;
		case 'p': cfg.flags |= RINGTRACE_CFG_PATHS; break;
		case 'k': cfg.stack_kernel_depth = (__u8)atoi(optarg); break;
		case 'u': cfg.stack_user_depth = (__u8)atoi(optarg); break;
		case 'b': pages = (unsigned int)atoi(optarg); break;
		case 'c': cfg.flags |= RINGTRACE_CFG_CGROUPS; break;
		case 'g':
			if (rt_cgroup_id(RT_CGROUP_ROOT, optarg, &cgroup_id, err,
					 sizeof(err))) {
				fprintf(stderr, "rtdrain: -g: %s\n", err);
				return 2;
			}
			cfg.nr_cgroups = 1;
			cfg.cgroup_ids_ptr = (uintptr_t)&cgroup_id;
			break;
		default:
			fprintf(stderr, "usage: rtdrain -o STARTED [-p] [-k N] [-u N] "
				"[-b PAGES] [-c] [-g CGROUP]\n");
			return 2;
		}
	}
	if (!started)
		return 2;
	if (cfg.stack_kernel_depth || cfg.stack_user_depth)
		cfg.stack_events = RINGTRACE_EVENT_VFS_READ;
	nr = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (nr > MAX_CPUS)
		nr = MAX_CPUS;

	fd = open(RINGTRACE_DEVICE_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die(RINGTRACE_DEVICE_PATH);
	if (ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg))
		die("SET_CONFIG");
	len = (1 + (size_t)pages) * page;
	for (cpu = 0; cpu < nr; cpu++) {
		map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			   RINGTRACE_MMAP_OFFSET(cpu));
		if (map == MAP_FAILED)
			die("mmap");
		if (rt_ring_init_mmap(&rings[cpu], map, len, page, NULL, 0))
			die("ring layout");
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (ioctl(fd, RINGTRACE_IOC_ENABLE))
		die("ENABLE");
	t0 = now_s();
	f = fopen(started, "w");
	if (!f || fputs("started\n", f) < 0 || fclose(f))
		die(started);

	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	while (!stop) {
		poll(&pfd, 1, 100);
		n += drain(rings, nr);
	}
	if (ioctl(fd, RINGTRACE_IOC_DISABLE))
		die("DISABLE");
	n += drain(rings, nr);
	if (ioctl(fd, RINGTRACE_IOC_GET_STATS, &st))
		die("GET_STATS");
	fprintf(stderr, "rtdrain: %llu records, %llu lost, %llu bytes in %.2f s\n",
		n, (unsigned long long)st.lost, (unsigned long long)st.bytes,
		now_s() - t0);
	fprintf(stderr, "rtdrain: %llu path records, %llu stacks missed\n",
		(unsigned long long)st.path_records,
		(unsigned long long)st.stack_missed);
	close(fd);
	return 0;
}
