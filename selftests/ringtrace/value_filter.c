// SPDX-License-Identifier: GPL-2.0-only
/*
 * vfs_read's ret and count ranges (ringtrace_config's
 * vfs_read_values), decided at vfs_read's return before any ring work. A
 * workload makes N reads that fail (a directory: EISDIR), M reads of 8 KiB
 * and K reads of 16 bytes; each range records exactly its reads, the rest
 * is counted in ringtrace_stats.vfs_read_filtered and never reaches a ring
 * (stats.records is exactly what was kept). An older caller's config
 * (128 bytes) filters nothing; bad ranges, and ranges set without their
 * bit, are refused.
 *
 * "value_filter --workload N M K [FILE L]" is the workload alone (and L
 * reads of 100 bytes of FILE), for filter_cli.sh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define N	7	/* reads that fail */
#define M	5	/* 8 KiB reads */
#define K	3	/* 16-byte reads */

struct work {
	int n, m, k, l;
	const char *file;
};

static int reads(const char *path, int flags, int times, size_t count,
		 bool fail)
{
	static char buf[8192];
	int fd = open(path, flags);

	if (fd < 0)
		return 1;
	for (int i = 0; i < times; i++) {
		ssize_t r = read(fd, buf, count);

		if (fail ? (r >= 0 || errno != EISDIR) : r != (ssize_t)count)
			return 2;
		if (!fail)
			lseek(fd, 0, SEEK_SET);
	}
	close(fd);
	return 0;
}

static int workload(void *arg)
{
	const struct work *w = arg;

	return reads("/", O_RDONLY | O_DIRECTORY, w->n, 64, true) ||
	       reads("/dev/zero", O_RDONLY, w->m, 8192, false) ||
	       reads("/dev/zero", O_RDONLY, w->k, 16, false) ||
	       (w->file && reads(w->file, O_RDONLY, w->l, 100, false));
}

struct seen {
	long records, failed, big, small;
};

static void count(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	struct seen *s = arg;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_VFS_READ)
		return;
	s->records++;
	if (r->ret == -EISDIR)
		s->failed++;
	else if (r->count == 8192)
		s->big++;
	else if (r->count == 16)
		s->small++;
}

static struct seen run(struct ringtrace_config cfg, struct st_run *r)
{
	static struct work w = { N, M, K, 0, NULL };
	struct seen s = { 0 };

	memset(r, 0, sizeof(*r));
	r->child = workload;
	r->child_arg = &w;
	r->cfg = cfg;
	r->ring_pages = 16;
	r->record = count;
	r->record_arg = &s;
	st_traced_run(r);
	if (r->status || r->drained < 0 || r->stats_rc)
		tap_diag("workload %d, drain %ld, stats %d", r->status,
			 r->drained, r->stats_rc);
	return s;
}

static int config_errno(struct ringtrace_config cfg)
{
	int fd = st_open(), err;

	err = ioctl(fd, RINGTRACE_IOC_SET_CONFIG, &cfg) ? errno : 0;
	close(fd);
	return err;
}

int main(int argc, char **argv)
{
	struct ringtrace_config cfg, bad;
	struct st_run r;
	struct seen s;

	if (argc >= 5 && !strcmp(argv[1], "--workload")) {
		struct work w = { atoi(argv[2]), atoi(argv[3]), atoi(argv[4]),
				  argc >= 7 ? atoi(argv[6]) : 0,
				  argc >= 7 ? argv[5] : NULL };

		return workload(&w);
	}

	tap_plan(10);
	st_require_features(RINGTRACE_FEAT_VFS_READ_VALUES,
			    "vfs_read value ranges");
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
	tap_ok(offsetof(struct ringtrace_config, nr_funcs) ==
	       RINGTRACE_CONFIG_SIZE_VALUES &&
	       offsetof(struct ringtrace_stats, func_missed) ==
	       RINGTRACE_STATS_SIZE_VALUES,
	       "config %zu bytes, stats %zu",
	       offsetof(struct ringtrace_config, nr_funcs),
	       offsetof(struct ringtrace_stats, func_missed));

	s = run(cfg, &r);
	tap_ok(s.records == N + M + K && s.failed == N && s.big == M &&
	       s.small == K && r.stats.vfs_read_filtered == 0,
	       "no range: all %d reads (%ld: %ld failed, %ld of 8 KiB, %ld of "
	       "16 bytes), none filtered (%llu)", N + M + K, s.records,
	       s.failed, s.big, s.small,
	       (unsigned long long)r.stats.vfs_read_filtered);

	/* ret < 0 */
	cfg.vfs_read_values = RINGTRACE_VFS_READ_RET;
	cfg.vfs_read_ret_min = INT64_MIN;
	cfg.vfs_read_ret_max = -1;
	s = run(cfg, &r);
	tap_ok(s.records == N && s.failed == N && r.stats.records == N &&
	       r.stats.vfs_read_filtered == M + K,
	       "ret <= -1: exactly the %d failed reads (%ld, %llu written), "
	       "the other %d filtered before any ring work (%llu)", N,
	       s.failed, (unsigned long long)r.stats.records, M + K,
	       (unsigned long long)r.stats.vfs_read_filtered);

	/* count > 4096 (the ret range not asked for: zero) */
	cfg.vfs_read_values = RINGTRACE_VFS_READ_COUNT;
	cfg.vfs_read_ret_min = 0;
	cfg.vfs_read_ret_max = 0;
	cfg.vfs_read_count_min = 4097;
	cfg.vfs_read_count_max = UINT64_MAX;
	s = run(cfg, &r);
	tap_ok(s.records == M && s.big == M && r.stats.records == M &&
	       r.stats.vfs_read_filtered == N + K,
	       "count >= 4097: exactly the %d reads of 8 KiB (%ld, %llu "
	       "written), %d filtered (%llu)", M, s.big,
	       (unsigned long long)r.stats.records, N + K,
	       (unsigned long long)r.stats.vfs_read_filtered);

	/* Both: ret >= 0 and count <= 4096, ANDed. */
	cfg.vfs_read_values = RINGTRACE_VFS_READ_RET | RINGTRACE_VFS_READ_COUNT;
	cfg.vfs_read_ret_min = 0;
	cfg.vfs_read_ret_max = INT64_MAX;
	cfg.vfs_read_count_min = 0;
	cfg.vfs_read_count_max = 4096;
	s = run(cfg, &r);
	tap_ok(s.records == K && s.small == K &&
	       r.stats.vfs_read_filtered == N + M,
	       "ret >= 0 and count <= 4096: the %d small reads (%ld), %d "
	       "filtered (%llu)", K, s.small, N + M,
	       (unsigned long long)r.stats.vfs_read_filtered);

	/* An older caller's config stops before the ranges: no filter. */
	cfg = st_config(RINGTRACE_EVENT_VFS_READ, 0);
	cfg.size = RINGTRACE_CONFIG_SIZE_CGROUP;
	cfg.vfs_read_values = RINGTRACE_VFS_READ_RET;	/* not sent */
	s = run(cfg, &r);
	tap_ok(s.records == N + M + K && r.stats.vfs_read_filtered == 0,
	       "a %d-byte config (older caller) filters nothing (%ld of %d)",
	       RINGTRACE_CONFIG_SIZE_CGROUP, s.records, N + M + K);

	cfg = st_config(RINGTRACE_EVENT_VFS_READ, -1);
	bad = cfg;
	bad.vfs_read_values = RINGTRACE_VFS_READ_RET;
	bad.vfs_read_ret_min = 1;
	bad.vfs_read_ret_max = 0;
	tap_ok(config_errno(bad) == EINVAL, "ret_min > ret_max: EINVAL");
	bad = cfg;
	bad.vfs_read_values = RINGTRACE_VFS_READ_COUNT;
	bad.vfs_read_count_min = 2;
	bad.vfs_read_count_max = 1;
	tap_ok(config_errno(bad) == EINVAL, "count_min > count_max: EINVAL");
	bad = cfg;
	bad.vfs_read_values = 1u << 2;
	bad.vfs_read_ret_max = 0;
	tap_ok(config_errno(bad) == EINVAL && (bad.vfs_read_values = 0,
					      bad.__pad_values = 1,
					      config_errno(bad) == EINVAL),
	       "an unknown bit or padding: EINVAL");
	bad = cfg;
	bad.vfs_read_ret_min = -1;
	tap_ok(config_errno(bad) == EINVAL && (bad = cfg,
					      bad.vfs_read_count_max = 1,
					      config_errno(bad) == EINVAL),
	       "a range not asked for must be zero: EINVAL");
	return tap_finish();
}
