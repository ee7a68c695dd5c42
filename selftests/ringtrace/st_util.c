// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers shared by the selftests; see st_util.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ringtrace/ring.h>

#include "st_util.h"
#include "tap.h"

int st_open(void)
{
	int fd = open(RINGTRACE_DEVICE_PATH, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		tap_bail("open %s: %s (is ringtrace.ko loaded?)",
			 RINGTRACE_DEVICE_PATH, strerror(errno));
	return fd;
}

void st_require_features(uint64_t features, const char *what)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	int fd = st_open();

	if (ioctl(fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	close(fd);
	if ((info.features & features) != features)
		tap_skip_all("the module has no %s", what);
}

struct ringtrace_config st_config(uint64_t events, pid_t pid)
{
	struct ringtrace_config cfg = {
		.size	= sizeof(cfg),
		.events	= events,
		.pid	= pid,
	};

	return cfg;
}

void *st_map(int fd, int cpu, unsigned int data_pages, int prot, int flags)
{
	size_t len = (1 + (size_t)data_pages) * (size_t)sysconf(_SC_PAGESIZE);

	return mmap(NULL, len, prot, flags, fd, RINGTRACE_MMAP_OFFSET(cpu));
}

int st_zero_reads(int n, size_t size)
{
	char buf[256];
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0 || size > sizeof(buf))
		return -1;
	while (n-- > 0 && !err)
		if (read(fd, buf, size) != (ssize_t)size)
			err = -1;
	close(fd);
	return err;
}

bool st_tagged_read(int fd, unsigned int idx, unsigned int seq)
{
	char buf[8];

	return pread(fd, buf, sizeof(buf),
		     (off_t)((unsigned long long)idx << ST_TAG_SHIFT | seq)) ==
	       sizeof(buf);
}

int st_tagged_reads(unsigned int idx, int n)
{
	int fd = open("/dev/zero", O_RDONLY), i;

	if (fd < 0)
		return 3;
	for (i = 0; i < n; i++)
		if (!st_tagged_read(fd, idx, (unsigned int)i)) {
			close(fd);
			return 4;
		}
	close(fd);
	return 0;
}

int st_online_cpus(void)
{
	return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

void st_session_open(struct st_session *s, const struct ringtrace_config *cfg,
		     unsigned int data_pages)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	int cpu;

	s->fd = st_open();
	if (ioctl(s->fd, RINGTRACE_IOC_GET_INFO, &info))
		tap_bail("GET_INFO: %s", strerror(errno));
	s->nr_cpus = (int)info.nr_cpu_ids;
	s->page_size = info.page_size;
	if (cfg && ioctl(s->fd, RINGTRACE_IOC_SET_CONFIG, cfg))
		tap_bail("SET_CONFIG: %s", strerror(errno));

	s->rings = calloc((size_t)s->nr_cpus, sizeof(*s->rings));
	if (!s->rings)
		tap_bail("out of memory");
	for (cpu = 0; cpu < s->nr_cpus && cpu < st_online_cpus(); cpu++) {
		void *p = st_map(s->fd, cpu, data_pages,
				 PROT_READ | PROT_WRITE, MAP_SHARED);

		if (p == MAP_FAILED)
			tap_bail("mmap cpu %d: %s", cpu, strerror(errno));
		s->rings[cpu].page = p;
		s->rings[cpu].len = (1 + (size_t)data_pages) * s->page_size;
		s->rings[cpu].cpu = cpu;
	}
}

void st_session_close(struct st_session *s)
{
	int cpu;

	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		if (s->rings[cpu].page)
			munmap(s->rings[cpu].page, s->rings[cpu].len);
	free(s->rings);
	close(s->fd);
	s->fd = -1;
}

int st_enable(struct st_session *s)
{
	return ioctl(s->fd, RINGTRACE_IOC_ENABLE) ? -errno : 0;
}

int st_disable(struct st_session *s)
{
	return ioctl(s->fd, RINGTRACE_IOC_DISABLE) ? -errno : 0;
}

int st_stats(struct st_session *s, struct ringtrace_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->size = sizeof(*st);
	return ioctl(s->fd, RINGTRACE_IOC_GET_STATS, st) ? -errno : 0;
}

bool st_in_read(pid_t pid, int fd, unsigned long count)
{
	char path[64], buf[256];
	unsigned long arg0, arg1, arg2;
	long nr;
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return false;
	n = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return sscanf(buf, "%ld 0x%lx 0x%lx 0x%lx", &nr, &arg0, &arg1,
		      &arg2) == 4 &&
	       nr == SYS_read && arg0 == (unsigned long)fd &&
	       (!count || arg2 == count);
}

bool st_wait_in_read(pid_t pid, int fd, unsigned long count)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (st_in_read(pid, fd, count))
			return true;
		usleep(1000);
	}
	return false;
}

int st_write_file(const char *path, const char *text, bool append)
{
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) < 0)
		err = errno;
	close(fd);
	return err;
}

static const char *st_tracefs(void)
{
	return access("/sys/kernel/tracing/kprobe_events", F_OK) ?
	       "/sys/kernel/debug/tracing" : "/sys/kernel/tracing";
}

int st_tracefs_write(const char *file, const char *text, bool append)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", st_tracefs(), file);
	return st_write_file(path, text, append);
}

long long st_kprobe_hits(const char *name)
{
	char path[256], line[256], event[128];
	long long hits = -1, h, m;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kprobe_profile", st_tracefs());
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %lld %lld", event, &h, &m) == 3 &&
		    !strcmp(event, name))
			hits = h;
	fclose(f);
	return hits;
}

void st_attach_param(char *buf, size_t len)
{
	FILE *f = fopen(ST_ATTACH_PARAM, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Wait (a minute at most: liveness, not timing) until @pid sleeps in read(@fd). */
static void st_wait_gate(pid_t pid, int fd)
{
	unsigned int tries;

	for (tries = 0; !st_in_read(pid, fd, 0); tries++) {
		if (tries == 60000)
			tap_bail("child %d never reached its gate", pid);
		usleep(1000);
	}
}

void st_child_start(struct st_child *c, int (*fn)(void *), void *arg)
{
	int go[2];
	char b;

	if (pipe2(go, O_CLOEXEC))
		tap_bail("pipe: %s", strerror(errno));
	c->pid = fork();
	if (c->pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (c->pid == 0) {
		close(go[1]);
		/* The gate: this read starts before tracing and is not seen. */
		if (read(go[0], &b, 1) != 1)
			_exit(99);
		close(go[0]);
		_exit(fn(arg));
	}
	/*
	 * Return only once the child sleeps in the gate's read: entered
	 * before tracing starts, that call is never recorded, and no vCPU
	 * runs into vfs_read while the caller attaches (under TCG that
	 * crashes the guest, Documentation/testing.rst). Under a loaded
	 * host the child may not even have run yet. The bound is for
	 * liveness only (a minute), not a timing check.
	 */
	st_wait_gate(c->pid, go[0]);
	close(go[0]);
	c->go_fd = go[1];
}

struct st_gated {
	int idx;
	int (*fn)(int, void *);
	void *arg;
	pthread_barrier_t *barrier;
	int ret;
	int tid_fd;
};

static void *st_gated_thread(void *p)
{
	struct st_gated *g = p;
	pid_t msg[2] = { g->idx, gettid() };

	/* Atomic: a pipe write of less than PIPE_BUF bytes. */
	if (write(g->tid_fd, msg, sizeof(msg)) != sizeof(msg))
		g->ret = 98;
	/* A futex wait, not a read: nothing traced before the work. */
	pthread_barrier_wait(g->barrier);
	if (!g->ret)
		g->ret = g->fn(g->idx, g->arg);
	return NULL;
}

void st_threads_start(struct st_child *c, int nr, int (*fn)(int, void *),
		      int (*main_fn)(void *), void *arg,
		      pid_t tids[ST_MAX_THREADS])
{
	struct st_gated g[ST_MAX_THREADS];
	pthread_barrier_t barrier;
	pthread_t th[ST_MAX_THREADS];
	int go[2], ids[2], i, bad;
	char b;

	if (nr < 1 || nr > ST_MAX_THREADS)
		tap_bail("st_threads_start: %d threads", nr);
	if (pipe2(go, O_CLOEXEC) || pipe2(ids, O_CLOEXEC))
		tap_bail("pipe: %s", strerror(errno));
	c->pid = fork();
	if (c->pid < 0)
		tap_bail("fork: %s", strerror(errno));
	if (c->pid == 0) {
		close(go[1]);
		close(ids[0]);
		pthread_barrier_init(&barrier, NULL, (unsigned int)nr + 1);
		for (i = 0; i < nr; i++) {
			g[i] = (struct st_gated){ .idx = i, .fn = fn, .arg = arg,
						  .barrier = &barrier,
						  .tid_fd = ids[1] };
			if (pthread_create(&th[i], NULL, st_gated_thread, &g[i]))
				_exit(97);
		}
		/* The gate: this read starts before tracing and is not seen. */
		if (read(go[0], &b, 1) != 1)
			_exit(99);
		close(go[0]);
		pthread_barrier_wait(&barrier);
		bad = main_fn ? main_fn(arg) != 0 : 0;
		for (i = 0; i < nr; i++) {
			pthread_join(th[i], NULL);
			bad += g[i].ret != 0;
		}
		_exit(bad);
	}
	close(ids[1]);
	for (i = 0; i < nr; i++) {
		pid_t msg[2];

		if (read(ids[0], msg, sizeof(msg)) != sizeof(msg) ||
		    msg[0] < 0 || msg[0] >= nr)
			tap_bail("no thread id from the child");
		tids[msg[0]] = msg[1];
	}
	close(ids[0]);
	/* As st_child_start(): back once the main thread sleeps in its gate. */
	st_wait_gate(c->pid, go[0]);
	close(go[0]);
	c->go_fd = go[1];
}

void st_child_go(struct st_child *c)
{
	if (write(c->go_fd, "g", 1) != 1)
		tap_bail("cannot release child: %s", strerror(errno));
	close(c->go_fd);
	c->go_fd = -1;
}

int st_child_wait(struct st_child *c)
{
	int status;

	if (c->go_fd >= 0)
		close(c->go_fd);
	if (waitpid(c->pid, &status, 0) != c->pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void st_collect_reads(const struct ringtrace_event_header *h, int cpu,
		      void *arg)
{
	const struct ringtrace_vfs_read_record *r = (const void *)h;
	struct st_reads *s = arg;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_VFS_READ)
		return;
	if (s->n < 4) {
		s->ret[s->n] = r->ret;
		s->count[s->n] = r->count;
	}
	s->n++;
}

long st_drain(struct st_session *s, st_record_fn fn, void *arg)
{
	struct rt_record rec;
	struct rt_ring r;
	long n = 0;
	int cpu, err;

	for (cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!s->rings[cpu].page)
			continue;
		err = rt_ring_init_mmap(&r, s->rings[cpu].page,
					s->rings[cpu].len, s->page_size,
					NULL, 0);
		if (err) {
			tap_diag("cpu %d: bad ring layout (%d)", cpu, err);
			return -1;
		}
		err = rt_ring_refresh(&r, NULL);
		while (err == RT_RING_OK &&
		       (err = rt_ring_peek(&r, &rec)) == RT_RING_OK) {
			if (fn)
				fn(rec.data, cpu, arg);
			n++;
			rt_ring_advance(&r);
		}
		rt_ring_release(&r);
		rt_ring_fini(&r);
		if (err != RT_RING_EMPTY) {
			tap_diag("cpu %d: malformed ring (%d)", cpu, err);
			return -1;
		}
	}
	return n;
}

bool st_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0;
}

uint64_t st_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *st_ko(const char *rel)
{
	static char path[4096];
	const char *root = getenv("RINGTRACE_KO_ROOT");

	snprintf(path, sizeof(path), "%s/%s", root && *root ? root : "../..", rel);
	return path;
}

uint64_t st_cputime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int st_burn_cpu(long ms)
{
	uint64_t end = st_cputime_ns() + (uint64_t)ms * 1000000;
	volatile uint64_t x = 0;

	while (st_cputime_ns() < end)
		for (int i = 0; i < 10000; i++)
			x += (uint64_t)i;
	return 0;
}

int st_load_module(const char *rel, const char *params)
{
	int fd = open(st_ko(rel), O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (syscall(SYS_finit_module, fd, params, 0))
		err = errno;
	close(fd);
	return err;
}

int st_unload_module(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? errno : 0;
}

int st_lock_table(int fd, struct ringtrace_lock_stat *e, unsigned int room,
		  unsigned int flags, unsigned int *filled)
{
	struct ringtrace_lock_stats_query q = {
		.size = sizeof(q),
		.entry_size = sizeof(*e),
		.nr_entries = room,
		.entries = (uintptr_t)e,
		.flags = flags,
	};

	if (ioctl(fd, RINGTRACE_IOC_LOCK_STATS, &q))
		return -errno;
	*filled = q.nr_entries;
	return (int)q.nr_locks;
}

const struct ringtrace_lock_stat *st_lock_find(const struct ringtrace_lock_stat *e,
					       unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			return &e[i];
	return NULL;
}

/* ---- kernel symbols, for the stack tests ---- */

static struct st_ksym *ksyms;
static size_t nr_ksyms;

static int ksym_by_addr(const void *a, const void *b)
{
	const struct st_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

bool st_ksyms_load(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], type, name[256], mod[128];
	unsigned long long addr;
	size_t cap = 0;
	int n;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		mod[0] = '\0';
		n = sscanf(line, "%llx %c %255s %127s", &addr, &type, name, mod);
		if (n < 3 || !addr || (type != 't' && type != 'T'))
			continue;
		if (nr_ksyms == cap) {
			cap = cap ? cap * 2 : 65536;
			ksyms = realloc(ksyms, cap * sizeof(*ksyms));
			if (!ksyms)
				tap_bail("out of memory");
		}
		ksyms[nr_ksyms].addr = addr;
		snprintf(ksyms[nr_ksyms].name, sizeof(ksyms[0].name), "%.63s",
			 name);
		/* "[module]" without the brackets; "" for the kernel. */
		snprintf(ksyms[nr_ksyms].module, sizeof(ksyms[0].module),
			 "%.*s", mod[0] == '[' ? (int)strcspn(mod + 1, "]") : 0,
			 mod + 1);
		nr_ksyms++;
	}
	fclose(f);
	qsort(ksyms, nr_ksyms, sizeof(*ksyms), ksym_by_addr);
	return nr_ksyms > 0;
}

bool st_ksym_exists(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256];
	bool found = false;

	if (!f)
		return false;
	/* "ADDR TYPE NAME", and " [MODULE]" after the name of a module's. */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*c %255s", sym) == 1 &&
			!strcmp(sym, name) && !strchr(line, '[');
	fclose(f);
	return found;
}

bool st_ksyms_name_data(void)
{
	static int known = -1;

	/* init_task: data every kernel has, listed only with KALLSYMS_ALL. */
	if (known < 0)
		known = st_ksym_exists("init_task");
	return known;
}

bool st_lock_nameable(const char *sym, const char *module)
{
	char line[512], name[256], mod[128], want[130];
	unsigned long long addr, at = 0;
	int others = 0, found = 0;
	FILE *f;

	if (!st_ksyms_name_data())
		return false;
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return false;
	snprintf(want, sizeof(want), "[%s]", module);
	/* Twice: find @sym's address, then what else sits there. */
	for (int pass = 0; pass < 2; pass++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%llx %*c %255s %127s", &addr, name, mod) != 3 ||
			    strcmp(mod, want) || name[0] == '$')
				continue;
			if (!pass && !strcmp(name, sym)) {
				at = addr;
				found = 1;
			} else if (pass && found && addr == at && strcmp(name, sym)) {
				others++;
			}
		}
	}
	fclose(f);
	return found && !others;
}

bool st_kernel_has_direct_calls(void)
{
#ifdef __x86_64__
	/* 6.1 has the _multi names, 6.5+ the plain ones. */
	return st_ksym_exists("register_ftrace_direct") ||
	       st_ksym_exists("register_ftrace_direct_multi");
#else
	return false;
#endif
}

const struct st_ksym *st_ksym_lookup(unsigned long long ip)
{
	size_t lo = 0, hi = nr_ksyms;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (ksyms[mid].addr <= ip)
			lo = mid;
		else
			hi = mid;
	}
	return nr_ksyms && ksyms[lo].addr <= ip ? &ksyms[lo] : NULL;
}

/* Lines of @path naming @sym: anywhere, or (@first) as the first word. */
static int count_lines(const char *path, const char *sym, bool first)
{
	size_t len = strlen(sym);
	char line[512];
	int n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n += first ? !strncmp(line, sym, len) &&
			     (line[len] == ' ' || line[len] == '\t') :
			     strstr(line, sym) != NULL;
	fclose(f);
	return n;
}

int st_probes_on(const char *sym)
{
	int n = count_lines("/sys/kernel/debug/kprobes/list", sym, false);

	if (!access("/sys/kernel/tracing/enabled_functions", F_OK))
		return n + count_lines("/sys/kernel/tracing/enabled_functions",
				       sym, true);
	return n + count_lines("/sys/kernel/debug/tracing/enabled_functions",
			       sym, true);
}

void st_traced_run(struct st_run *r)
{
	struct st_session sess;
	struct st_child child;

	st_child_start(&child, r->child, r->child_arg);
	r->cfg.pid = child.pid;
	st_session_open(&sess, &r->cfg, r->ring_pages);
	if (st_enable(&sess))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&child);
	r->status = st_child_wait(&child);
	st_disable(&sess);
	r->drained = st_drain(&sess, r->record, r->record_arg);
	r->stats_rc = st_stats(&sess, &r->stats);
	st_session_close(&sess);
}

int st_pinned_write(int cpu, const char *path, const char *text)
{
	int fd, err = 0;

	if (!st_pin(cpu))
		return 2;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		err = 1;
	if (fd >= 0)
		close(fd);
	return err;
}
