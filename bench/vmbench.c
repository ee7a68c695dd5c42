// SPDX-License-Identifier: GPL-2.0-only
/*
 * The in-VM half of `make bench`: one boot, one workload (bench/readloop),
 * every tracer configuration, one results file.
 *
 *   vmbench -o OUTDIR [-n CALLS] [-r REPS] [-k ROUNDS] [-O CONFIG,...]
 *
 * Run as root from the checkout's top directory, inside scripts/vm-run.
 * Writes OUTDIR/results.txt (one "key=value ..." line per measurement, in
 * the order taken; scripts/bench turns it into the table) and the tools'
 * own output in OUTDIR/logs/.
 *
 * The rule everything here is built around: under QEMU TCG, attaching or
 * detaching a probe on vfs_read while another vCPU executes vfs_read
 * crashes the guest. So for every configuration:
 *
 *   1. attach, with nothing else running: this program only forks, execs,
 *      waitpid()s, stat()s and nanosleep()s meanwhile - never read();
 *   2. know that the tracer is really tracing (a file that appears only
 *      after its attach, or the tracer itself starting the workload after
 *      attaching: perf record -a -- CMD, bpftrace -c CMD);
 *   3. run the workload in the foreground, to completion;
 *   4. stop any reader we started, then detach.
 *
 * Every traced configuration is immediately preceded by a baseline run of
 * the same shape, so the report can subtract the baseline measured seconds
 * earlier rather than minutes earlier (TCG timing drifts with host load).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfdata.h"

#define TRACEFS		"/sys/kernel/tracing"
#define READLOOP	"build/bench/readloop"
#define PINGPONG	"build/bench/pingpong"
#define RINGTRACE_CAT	"user/ringtrace-cat"
#define RTDRAIN		"build/bench/rtdrain"
#define RINGTRACE_KO	"kmod/ringtrace.ko"
#define DIRECT_KO	"kmod/ringtrace_direct.ko"
#define FLOOR_KO	"selftests/ringtrace/modules/ringtrace_floor.ko"
#define FLOOR_FPROBE_KO	"selftests/ringtrace/modules/ringtrace_floor_fprobe.ko"
#define FLOOR_DIRECT_KO	"selftests/ringtrace/modules/ringtrace_floor_direct.ko"

/*
 * A module's path: under $RINGTRACE_KO_ROOT where scripts/build-modules
 * built them for the booted kernel (sid's, whose headers only the sid
 * chroot has), else in this checkout.
 */
static char *ko(const char *rel)
{
	static char paths[4][512];
	static unsigned int next;
	const char *root = getenv("RINGTRACE_KO_ROOT");
	char *p;

	if (!root || !*root)
		return (char *)rel;
	p = paths[next++ % 4];
	snprintf(p, sizeof(paths[0]), "%s/%s", root, rel);
	return p;
}
#define ATTACH_PARAM	"/sys/module/ringtrace/parameters/vfs_read_attach"
#define LOOP_OUT	"/tmp/rtbench-loop.txt"
#define TRACE_OUT	"/tmp/rtbench-trace"
#define KPROBE_GROUP	"rtbench"
#define MAX_CPUS	64

static long calls = 50000;
static int reps = 3;
static int rounds = 5;
static const char *outdir;
static const char *only;
static FILE *results;
static int seq;
static int nr_cpus;
/*
 * the workload is bench/pingpong (ns per context switch) instead
 * of readloop (ns per read), for the pp_* configurations.
 */
static bool pingpong;
static long pp_calls = 20000;	/* round trips per repetition */
/*
 * the workload unpinned (readloop -u), so that a reader shares
 * its CPUs as on a busy machine; every configuration's name then ends in
 * this suffix, its baseline's too ("baseline_unpinned").
 */
static bool unpinned;
#define UNPINNED	"_unpinned"
static const char *suffix = "";
/*
 * The function graph's workload (graph_configs()): readloop -f reads
 * this file, and the configurations are named with this prefix ("gt_"
 * for tmpfs, "g9_" for the 9p root), their baseline too.
 */
static const char *graph_file;
static const char *graph_prefix = "";

/* ---- small helpers ---- */

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "vmbench: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("vmbench: ");
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Only ever called while no probe is being attached or detached. */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((got = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t)got;
		if (n == cap) {
			char *bigger = realloc(buf, cap * 2 + 1);

			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static int write_str(const char *path, const char *s, bool append)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

static bool wanted(const char *bare)
{
	char name[96];
	const char *p;
	size_t len;

	snprintf(name, sizeof(name), "%s%s", bare, suffix);
	len = strlen(name);
	if (!only)
		return !unpinned;	/* unpinned rows only when named */
	for (p = only; (p = strstr(p, name)); p += len)
		if ((p == only || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

/* "N" after the first occurrence of @key in @text, or -1. */
static long long number_after(const char *text, const char *key)
{
	const char *p = text ? strstr(text, key) : NULL;

	if (!p)
		return -1;
	p += strlen(key);
	while (*p == ' ' || *p == ':' || *p == '=')
		p++;
	return isdigit((unsigned char)*p) ? strtoll(p, NULL, 10) : -1;
}

/* ---- processes ---- */

struct proc {
	pid_t		pid;
	int		status;
	struct rusage	ru;
};

/*
 * fork + exec @argv with stdout and stderr to files (NULL: /dev/null).
 * The child gets SIGINT back to its default disposition: a non-interactive
 * shell may have started us with it ignored, and that is inherited.
 */
static void spawn(struct proc *p, char *const argv[], const char *out,
		  const char *err)
{
	p->pid = fork();
	if (p->pid < 0)
		die("fork: %s", strerror(errno));
	if (p->pid == 0) {
		int o = open(out ? out : "/dev/null",
			     O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err ? err : "/dev/null",
			     O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int in = open("/dev/null", O_RDONLY);

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (o < 0 || e < 0 || in < 0)
			_exit(126);
		dup2(in, 0);
		dup2(o, 1);
		dup2(e, 2);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
}

static int reap(struct proc *p)
{
	while (wait4(p->pid, &p->status, 0, &p->ru) < 0)
		if (errno != EINTR)
			die("wait4: %s", strerror(errno));
	return WIFEXITED(p->status) ? WEXITSTATUS(p->status) :
				      128 + WTERMSIG(p->status);
}

static int run(char *const argv[], const char *out, const char *err)
{
	struct proc p;

	spawn(&p, argv, out, err);
	return reap(&p);
}

static double ms(const struct timeval *tv)
{
	return (double)tv->tv_sec * 1e3 + (double)tv->tv_usec / 1e3;
}

/* Wait (stat + nanosleep: no read) until @path is non-empty or @p died. */
static bool wait_nonempty(const char *path, struct proc *p, int timeout_s)
{
	uint64_t end = now_ns() + (uint64_t)timeout_s * 1000000000ull;
	struct stat st;

	while (now_ns() < end) {
		if (!stat(path, &st) && st.st_size > 0)
			return true;
		if (p && waitpid(p->pid, &p->status, WNOHANG) == p->pid) {
			p->pid = -1;
			return false;
		}
		sleep_ms(20);
	}
	return false;
}

/* ---- the workload ---- */

struct loop {
	double		median;		/* ns per call */
	double		user_ms;	/* the workload's own CPU time */
	double		sys_ms;
	char		samples[512];	/* every repetition, comma-separated */
	int		ok;
};

static void loop_argv(char **argv, char *buf, size_t len, int ncpu)
{
	char *n = buf, *r = buf + 32, *c = buf + 64;

	snprintf(n, 32, "%ld", pingpong ? pp_calls : calls);
	snprintf(r, 32, "%d", reps);
	snprintf(c, len - 64, ncpu == 1 ? "0" : "0,1");
	argv[0] = pingpong ? PINGPONG : READLOOP;
	argv[1] = "-n";
	argv[2] = n;
	argv[3] = "-r";
	argv[4] = r;
	argv[5] = "-c";
	argv[6] = c;
	argv[7] = "-o";
	argv[8] = LOOP_OUT;
	argv[9] = unpinned ? "-u" : NULL;
	argv[10] = NULL;
	if (graph_file) {
		argv[9] = "-f";
		argv[10] = (char *)graph_file;
		argv[11] = NULL;
	}
}

/* The workload as one shell-free string, for bpftrace -c. */
static void loop_cmdline(char *buf, size_t len, int ncpu)
{
	snprintf(buf, len, "%s -n %ld -r %d -c %s -o %s%s%s%s",
		 pingpong ? PINGPONG : READLOOP, pingpong ? pp_calls : calls,
		 reps, ncpu == 1 ? "0" : "0,1", LOOP_OUT,
		 unpinned ? " -u" : "", graph_file ? " -f " : "",
		 graph_file ? graph_file : "");
}

/* Read what the last readloop wrote (it has exited: nothing is attaching). */
static void loop_collect(struct loop *l)
{
	char *text = slurp(LOOP_OUT, NULL), *line, *save = NULL;
	size_t used = 0;

	memset(l, 0, sizeof(*l));
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *v = strstr(line, "ns_per_call=");

		if (!strncmp(line, "median_ns_per_call=", 19)) {
			const char *u = strstr(line, "user_ms=");
			const char *k = strstr(line, "sys_ms=");

			l->median = strtod(line + 19, NULL);
			l->ok = strstr(line, "failed=0") != NULL;
			l->user_ms = u ? strtod(u + 8, NULL) : 0;
			l->sys_ms = k ? strtod(k + 7, NULL) : 0;
		} else if (v && used + 16 < sizeof(l->samples)) {
			used += (size_t)snprintf(l->samples + used,
						 sizeof(l->samples) - used,
						 "%s%.1f", used ? "," : "",
						 strtod(v + 12, NULL));
		}
	}
	free(text);
	unlink(LOOP_OUT);
}

static void loop_run(struct loop *l, int ncpu)
{
	char *argv[12], buf[128];

	loop_argv(argv, buf, sizeof(buf), ncpu);
	if (run(argv, NULL, NULL))
		say("readloop failed");
	loop_collect(l);
}

/* ---- results ---- */

struct result {
	char		config[96];	/* with the suffix */
	int		round;
	int		ncpu;
	struct loop	loop;
	long long	records;	/* the tool's own count; -1: none */
	long long	lost;		/* the tool's own count; -1: none */
	double		user_ms;	/* the reader's CPU time; -1: none */
	double		sys_ms;
	char		extra[512];	/* more key=value pairs */
};

static void result_init(struct result *r, const char *config, int round,
			int ncpu)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->config, sizeof(r->config), "%s%s", config, suffix);
	r->round = round;
	r->ncpu = ncpu;
	r->records = -1;
	r->lost = -1;
	r->user_ms = -1;
	r->sys_ms = -1;
}

static void extra(struct result *r, const char *fmt, ...)
{
	size_t used = strlen(r->extra);
	va_list ap;

	if (used)
		r->extra[used++] = ' ';
	va_start(ap, fmt);
	vsnprintf(r->extra + used, sizeof(r->extra) - used, fmt, ap);
	va_end(ap);
}

static void emit(const struct result *r)
{
	fprintf(results, "seq=%d config=%s round=%d cpus=%d calls=%ld reps=%d "
		"ns_per_call=%.2f ok=%d records=%lld lost=%lld "
		"reader_user_ms=%.1f reader_sys_ms=%.1f samples=%s%s%s\n", seq++,
		r->config, r->round, r->ncpu, pingpong ? pp_calls : calls, reps,
		r->loop.median,
		r->loop.ok, r->records, r->lost, r->user_ms, r->sys_ms,
		r->loop.samples[0] ? r->loop.samples : "-",
		r->extra[0] ? " " : "", r->extra);
	fflush(results);
	say("%-22s round %d, %d CPU: %8.1f ns/call  records %lld  lost %lld%s%s",
	    r->config, r->round, r->ncpu, r->loop.median, r->records, r->lost,
	    r->extra[0] ? "  " : "", r->extra);
}

static void baseline(int round, int ncpu)
{
	struct result r;

	char name[32];

	snprintf(name, sizeof(name), "%sbaseline", graph_prefix);
	result_init(&r, pingpong ? "pp_baseline" : graph_file ? name :
		    ncpu == 1 ? "baseline" : "baseline_2cpu", round, ncpu);
	loop_run(&r.loop, ncpu);
	emit(&r);
}

/* ---- the floor: empty kprobe (+ kretprobe) taking timestamps ---- */

/*
 * The floor module's exit line: "... N ns inside vfs_read, M missed" (or
 * "inside vfs_read and K more functions, M missed" with funcs=).
 */
static long long floor_missed(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	long long missed = -1;
	char rec[2048];
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE) {
		const char *p;

		if (n <= 0)
			continue;
		rec[n] = '\0';
		p = strstr(rec, " ns inside ");
		if (p)
			p = strstr(p, ", ");
		if (p)
			missed = strtoll(p + 2, NULL, 10);
	}
	close(fd);
	return missed;
}

/*
 * @split -1: the fprobe floor (kernels with fprobe only); -2: the direct
 * trampoline's floor (x86-64 kernels with ftrace direct calls).
 * @funcs: the functions hooked (funcs=, comma-separated; NULL: the
 * module's default, vfs_read); not for the direct floor.
 */
static void floor_config_funcs(const char *config, int split, int round,
			       int ncpu, const char *funcs)
{
	char param[16], fparam[512], log[256];
	char *ins[] = { "insmod", ko(FLOOR_KO), param, NULL, NULL };
	char *rm[] = { "rmmod", "ringtrace_floor", NULL };
	char **next = &ins[3];
	struct result r;

	if (split == -1) {
		ins[1] = ko(FLOOR_FPROBE_KO);
		next = &ins[2];
		rm[1] = "ringtrace_floor_fprobe";
	} else if (split == -2) {
		ins[1] = ko(FLOOR_DIRECT_KO);
		next = &ins[2];
		rm[1] = "ringtrace_floor_direct";
	}
	*next = NULL;
	if (funcs) {
		snprintf(fparam, sizeof(fparam), "funcs=%s", funcs);
		*next = fparam;
	}
	baseline(round, ncpu);
	result_init(&r, config, round, ncpu);
	snprintf(param, sizeof(param), "split=%d", split);
	snprintf(log, sizeof(log), "%s/logs/%s.log", outdir, r.config);
	if (run(ins, NULL, log)) {
		say("%s: insmod failed (see %s)", config, log);
		return;
	}
	loop_run(&r.loop, ncpu);
	if (run(rm, NULL, NULL))
		say("%s: rmmod failed", config);
	r.lost = floor_missed();
	emit(&r);
}

static void floor_config(const char *config, int split, int round, int ncpu)
{
	floor_config_funcs(config, split, round, ncpu, NULL);
}

/* ---- ringtrace ---- */

/* Force ringtrace's vfs_read mechanism (or "auto"); false: not offered. */
static bool set_attach(const char *mech)
{
	int fd = open(ATTACH_PARAM, O_WRONLY);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, mech, strlen(mech)) == (ssize_t)strlen(mech);
	close(fd);
	return ok;
}

static const char *const mechanisms[] = { "kretprobe", "fprobe", "direct" };

/*
 * What the plain "ringtrace" rows attach with ("auto: direct (next
 * attach)"): the report compares them with that mechanism's floor.
 */
static void record_auto_attach(void)
{
	char line[128] = "", name[32];
	FILE *f = fopen(ATTACH_PARAM, "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	if (sscanf(line, "auto: %31s", name) == 1) {
		fprintf(results, "auto_attach=%s\n", name);
		say("ringtrace's automatic vfs_read mechanism: %s", name);
	}
}

static bool attach_offered(const char *mech)
{
	static int offered[3] = { -1, -1, -1 };
	int i = 0;

	while (i < 2 && strcmp(mech, mechanisms[i]))
		i++;

	if (offered[i] < 0) {
		offered[i] = set_attach(mech);
		set_attach("auto");
		if (!offered[i])
			say("vfs_read_attach=%s: not offered by this kernel", mech);
	}
	return offered[i];
}

/* "ringtrace-cat: N records, L lost, B bytes in T s" and the -v lines. */
static void ringtrace_summary(struct result *r, const char *errlog)
{
	char *text = slurp(errlog, NULL);
	const char *p = text ? strstr(text, "ringtrace-cat: ") : NULL;
	size_t skip = strlen("ringtrace-cat: ");
	const char *lost;
	long long missed;

	/* The summary starts with a number; notes (the direct call's) do not. */
	while (p && !isdigit((unsigned char)p[skip]))
		p = strstr(p + skip, "ringtrace-cat: ");

	/* rtdrain's line has the same shape. */
	if (!p && text && (p = strstr(text, "rtdrain: ")))
		skip = strlen("rtdrain: ");
	if (!p) {
		say("%s: no summary in %s", r->config, errlog);
		free(text);
		return;
	}
	r->records = strtoll(p + skip, NULL, 10);
	/*
	 * "N records, [P path records, C cgroup records, ]L lost, B bytes":
	 * the number right before " lost,".
	 */
	lost = strstr(p, " lost,");
	while (lost && lost > p && isdigit((unsigned char)lost[-1]))
		lost--;
	r->lost = lost ? strtoll(lost, NULL, 10) : -1;
	extra(r, "bytes=%lld", number_after(p, "lost,"));
	missed = number_after(text, "calls seen,");
	if (missed >= 0)
		extra(r, "vfs_read_missed=%lld", missed);
	/*
	 * -v: the fullest any ring got, and where the reader ran ("reader:
	 * rings it fell behind on drained on their own CPU (N moves), nice
	 * M").
	 */
	if (number_after(text, "peak fill") >= 0)
		extra(r, "peak_fill=%lld", number_after(text, "peak fill"));
	p = text ? strstr(text, "  reader: ") : NULL;
	if (p && strstr(p, "--reader plain"))
		extra(r, "reader=plain");
	else if (p && strstr(p, " nice "))
		extra(r, "reader=follow reader_moves=%lld reader_nice=%ld",
		      number_after(p, "CPU ("),
		      strtol(strstr(p, " nice ") + 6, NULL, 10));
	free(text);
}

/*
 * A system-wide reader started before the workload: @argv, whose output
 * file TRACE_OUT turns non-empty once it is tracing (ringtrace-cat -a
 * writes the raw file's header in its first loop iteration, after ENABLE
 * returned; rtdrain writes it after ENABLE), stopped with SIGINT after.
 */
static void reader_config(const char *config, int round, int ncpu,
			  char *const *argv)
{
	char errlog[256];
	struct result r;
	struct proc p;

	baseline(round, ncpu);
	result_init(&r, config, round, ncpu);
	snprintf(errlog, sizeof(errlog), "%s/logs/%s.log", outdir, r.config);
	unlink(TRACE_OUT);
	spawn(&p, argv, NULL, errlog);
	if (!wait_nonempty(TRACE_OUT, &p, 60)) {
		say("%s: %s did not start (see %s)", config, argv[0], errlog);
		if (p.pid > 0) {
			kill(p.pid, SIGKILL);
			reap(&p);
		}
		return;
	}
	loop_run(&r.loop, ncpu);
	kill(p.pid, SIGINT);
	if (reap(&p))
		say("%s: %s exited with %d", config, argv[0],
		    WEXITSTATUS(p.status));
	r.user_ms = ms(&p.ru.ru_utime);
	r.sys_ms = ms(&p.ru.ru_stime);
	ringtrace_summary(&r, errlog);
	unlink(TRACE_OUT);
	emit(&r);
}

/* ringtrace-cat -a --raw, plus @more options. */
static void ringtrace_config(const char *config, int round, int ncpu,
			     char *const *more)
{
	char *argv[24] = { RINGTRACE_CAT, "-a", "-v", "--raw", "-o", TRACE_OUT };
	int i = 6;

	for (; more && *more; more++)
		argv[i++] = *more;
	argv[i] = NULL;
	reader_config(config, round, ncpu, argv);
}

/*
 * ABI 2's options (path records, stack trailers) through rtdrain, the
 * smallest reader (bench/rtdrain.c), system-wide like "ringtrace": every
 * drain_* configuration uses the same reader, so they compare with each
 * other; "drain" is the one with no option.
 */
static void rtdrain_config(const char *config, int round, int ncpu,
			   char *const *more)
{
	char *argv[16] = { RTDRAIN, "-o", TRACE_OUT };
	int i = 3;

	for (; more && *more; more++)
		argv[i++] = *more;
	argv[i] = NULL;
	reader_config(config, round, ncpu, argv);
}

/*
 * Consumer cost of each output format: ringtrace-cat runs the workload
 * itself (-- COMMAND: the command starts only once tracing is enabled, and
 * the run ends when it exits), writing to /dev/null; wait4() gives the CPU
 * time the consumer used for the records it handled.
 */
static void consumer_config(const char *config, const char *format, int round,
			    bool tiny)
{
	char *argv[24] = { RINGTRACE_CAT, "-v", "-o", "/dev/null" };
	char errlog[256], buf[128];
	struct result r;
	struct proc p;
	int i = 4;

	if (format)
		argv[i++] = (char *)format;
	argv[i++] = "--";
	loop_argv(argv + i, buf, sizeof(buf), 1);
	if (tiny) {
		/* The fixed cost: start, map, enable, 100 calls, stop. */
		argv[i + 2] = "1";
		argv[i + 4] = "1";
	}
	baseline(round, 1);
	result_init(&r, config, round, 1);
	snprintf(errlog, sizeof(errlog), "%s/logs/%s.log", outdir, r.config);
	spawn(&p, argv, NULL, errlog);
	if (reap(&p))
		say("%s: ringtrace-cat exited with %d", config,
		    WEXITSTATUS(p.status));
	loop_collect(&r.loop);
	/* wait4() counted the workload too: ringtrace-cat reaped it. */
	r.user_ms = ms(&p.ru.ru_utime) - r.loop.user_ms;
	r.sys_ms = ms(&p.ru.ru_stime) - r.loop.sys_ms;
	ringtrace_summary(&r, errlog);
	emit(&r);
}

/* ---- ftrace kprobe events, and perf on the same events ---- */

struct ftrace_counts {
	long long lost;		/* overrun + commit overrun + dropped events */
	long long read;		/* read events */
	long long entries;	/* still in the buffer */
	long long hits;		/* kprobe_profile: hits of both events */
	long long misses;	/* kprobe_profile: misses of both events */
};

static void ftrace_counts(struct ftrace_counts *c)
{
	char path[128], *text;

	memset(c, 0, sizeof(*c));
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats", cpu);
		text = slurp(path, NULL);
		if (!text)
			continue;
		c->entries += number_after(text, "entries:");
		c->lost += number_after(text, "\noverrun:") +
			   number_after(text, "commit overrun:") +
			   number_after(text, "dropped events:");
		c->read += number_after(text, "read events:");
		free(text);
	}
	text = slurp(TRACEFS "/kprobe_profile", NULL);
	for (char *line = text, *next; line && *line; line = next) {
		char name[128];
		long long hits, misses;

		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (sscanf(line, "%127s %lld %lld", name, &hits, &misses) == 3 &&
		    !strncmp(name, "vfs_read_", 9)) {
			c->hits += hits;
			c->misses += misses;
		}
	}
	free(text);
}

static bool kprobe_events_create(void)
{
	/* Same two events for ftrace and perf: entry, and return with $retval. */
	write_str(TRACEFS "/kprobe_events", "-:" KPROBE_GROUP "/vfs_read_entry\n", true);
	write_str(TRACEFS "/kprobe_events", "-:" KPROBE_GROUP "/vfs_read_return\n", true);
	return !write_str(TRACEFS "/kprobe_events",
			  "p:" KPROBE_GROUP "/vfs_read_entry vfs_read\n", true) &&
	       !write_str(TRACEFS "/kprobe_events",
			  "r:" KPROBE_GROUP "/vfs_read_return vfs_read ret=$retval\n",
			  true);
}

static void kprobe_events_remove(void)
{
	write_str(TRACEFS "/kprobe_events", "-:" KPROBE_GROUP "/vfs_read_entry\n", true);
	write_str(TRACEFS "/kprobe_events", "-:" KPROBE_GROUP "/vfs_read_return\n", true);
}

/*
 * One reader per CPU on per_cpu/cpuN/trace_pipe_raw, started only after
 * the events are enabled and stopped before they are disabled. It waits
 * in poll() (never inside read()): woken when the buffer is half full
 * (tracefs' buffer_percent) or after 100 ms, it reads pages without
 * blocking until it gets one that is not full (what trace-cmd's splice of
 * full pages amounts to), and at most a buffer's worth: its own reads are
 * traced vfs_read calls, so "read until empty" could go on for ever.
 * SIGTERM: one last bounded drain, then exit.
 */
static bool page_full(const char *page, ssize_t n)
{
	uint64_t commit;

	/* struct buffer_data_page { u64 time_stamp; local_t commit; data } */
	if (n < 16)
		return false;
	memcpy(&commit, page + 8, sizeof(commit));
	return (commit & 0xfffff) + 16 + 128 >= (uint64_t)n;
}

static volatile sig_atomic_t reader_stop;

static void on_reader_term(int sig)
{
	(void)sig;
	reader_stop = 1;
}

static void ftrace_reader(int cpu, int ready_fd, long max_pages,
			  uint64_t *bytes_out)
{
	char path[128], page[4096];
	struct sigaction sa = { .sa_handler = on_reader_term };
	struct pollfd pfd;
	uint64_t bytes = 0;
	ssize_t n;

	sigaction(SIGTERM, &sa, NULL);
	snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/trace_pipe_raw", cpu);
	pfd.fd = open(path, O_RDONLY | O_NONBLOCK);
	pfd.events = POLLIN;
	if (pfd.fd < 0)
		_exit(1);
	if (write(ready_fd, "r", 1) != 1)
		_exit(1);
	close(ready_fd);
	for (;;) {
		bool last = reader_stop;

		if (!last)
			poll(&pfd, 1, 100);
		for (long i = 0; i < max_pages &&
		     (n = read(pfd.fd, page, sizeof(page))) > 0; i++) {
			bytes += (uint64_t)n;
			if (!last && !page_full(page, n))
				break;
		}
		if (last)
			break;
	}
	*bytes_out = bytes;
	_exit(0);
}

static void ftrace_config(const char *config, bool with_reader, int round,
			  int ncpu)
{
	uint64_t *bytes = mmap(NULL, sizeof(uint64_t) * MAX_CPUS,
			       PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct ftrace_counts before, after;
	pid_t readers[MAX_CPUS];
	uint64_t total = 0;
	struct result r;
	char *kb = slurp(TRACEFS "/buffer_size_kb", NULL);
	long max_pages = kb ? atol(kb) / 4 + 1 : 1024;
	int ready[2];

	if (bytes == MAP_FAILED || pipe(ready))
		die("ftrace: %s", strerror(errno));
	baseline(round, ncpu);
	result_init(&r, config, round, ncpu);
	if (!kprobe_events_create()) {
		say("%s: cannot create kprobe events", config);
		return;
	}
	write_str(TRACEFS "/trace", "", false);		/* empty the buffers */
	write_str(TRACEFS "/tracing_on", "1", false);
	ftrace_counts(&before);
	if (write_str(TRACEFS "/events/" KPROBE_GROUP "/enable", "1", false)) {
		say("%s: cannot enable the kprobe events", config);
		kprobe_events_remove();
		return;
	}
	/* Attached. Readers start now, and we wait for them in poll(). */
	for (int cpu = 0; with_reader && cpu < nr_cpus; cpu++) {
		struct pollfd pfd = { .fd = ready[0], .events = POLLIN };
		char c;

		readers[cpu] = fork();
		if (readers[cpu] == 0)
			ftrace_reader(cpu, ready[1], max_pages, &bytes[cpu]);
		if (poll(&pfd, 1, 30000) != 1 || read(ready[0], &c, 1) != 1)
			die("ftrace reader %d did not start", cpu);
	}
	loop_run(&r.loop, ncpu);
	for (int cpu = 0; with_reader && cpu < nr_cpus; cpu++)
		kill(readers[cpu], SIGTERM);
	for (int cpu = 0; with_reader && cpu < nr_cpus; cpu++) {
		waitpid(readers[cpu], NULL, 0);
		total += bytes[cpu];
	}
	/* Nobody reads any more: detach. */
	write_str(TRACEFS "/events/" KPROBE_GROUP "/enable", "0", false);
	ftrace_counts(&after);
	kprobe_events_remove();
	write_str(TRACEFS "/trace", "", false);
	r.lost = after.lost - before.lost;
	r.records = after.hits - before.hits;	/* events written */
	free(kb);
	extra(&r, "read_events=%lld left_in_buffer=%lld kprobe_misses=%lld "
	      "reader_bytes=%" PRIu64, after.read - before.read, after.entries,
	      after.misses - before.misses, total);
	close(ready[0]);
	close(ready[1]);
	munmap(bytes, sizeof(uint64_t) * MAX_CPUS);
	emit(&r);
}

/*
 * perf record -a of the two kprobe events. perf starts the workload itself
 * once its events are open and enabled (its synthesis of existing tasks,
 * tens of seconds under TCG, comes before), and stops when it exits.
 */
static void perf_config(const char *config, int round, int ncpu)
{
	char *argv[32] = { "perf", "record", "-a", "-B", "-N",
			   "-e", KPROBE_GROUP ":vfs_read_entry",
			   "-e", KPROBE_GROUP ":vfs_read_return",
			   "-o", TRACE_OUT, "--" };
	char errlog[256], buf[128], *text;
	struct perfdata_counts pc;
	struct ftrace_counts before, after;
	struct result r;
	uint64_t t0;

	loop_argv(argv + 12, buf, sizeof(buf), ncpu);
	baseline(round, ncpu);
	result_init(&r, config, round, ncpu);
	if (!kprobe_events_create()) {
		say("%s: cannot create kprobe events", config);
		return;
	}
	ftrace_counts(&before);
	snprintf(errlog, sizeof(errlog), "%s/logs/%s.log", outdir, r.config);
	t0 = now_ns();
	if (run(argv, NULL, errlog))
		say("%s: perf record failed (see %s)", config, errlog);
	ftrace_counts(&after);
	kprobe_events_remove();
	loop_collect(&r.loop);
	if (perfdata_count(TRACE_OUT, &pc))
		say("%s: cannot parse %s", config, TRACE_OUT);
	r.records = (long long)pc.samples;
	r.lost = (long long)(pc.lost + pc.lost_samples);
	extra(&r, "lost_records=%" PRIu64 " data_bytes=%" PRIu64
	      " kprobe_misses=%lld perf_wall_s=%.1f", pc.lost_records,
	      pc.data_bytes, after.misses - before.misses,
	      (double)(now_ns() - t0) / 1e9);
	text = slurp(errlog, NULL);
	if (text && strstr(text, "samples)"))
		extra(&r, "perf_says_samples=%lld",
		      number_after(strstr(text, "MB"), "("));
	free(text);
	unlink(TRACE_OUT);
	emit(&r);
}

/*
 * Where the time goes: ringtrace-cat -a as in the "ringtrace" run, and
 * perf sampling cpu-clock (no PMU here) system-wide with call graphs
 * while perf runs the workload. perf's per-symbol shares of the
 * workload's samples, times its ns/call, give ns/call per function.
 * Nothing is attached to vfs_read by perf here, so only the ringtrace-cat
 * start and stop follow the attach rule.
 */
static void profile_config(const char *config, int round)
{
	char *cat[] = { RINGTRACE_CAT, "-a", "--raw", "-o", TRACE_OUT, NULL };
	char *argv[32] = { "perf", "record", "-e", "cpu-clock", "-F", "2000",
			   "-a", "-g", "-B", "-N", "-o", "/tmp/rtbench-prof.data",
			   "--" };
	char *report[] = { "perf", "report", "-i", "/tmp/rtbench-prof.data",
			   "--no-children", "--sort", "comm,sym", "--stdio",
			   "-g", "none", "--percent-limit", "0.02", NULL };
	char errlog[256], replog[256], buf[128];
	struct result r;
	struct proc p;

	loop_argv(argv + 13, buf, sizeof(buf), 1);
	baseline(round, 1);
	result_init(&r, config, round, 1);
	snprintf(errlog, sizeof(errlog), "%s/logs/%s.log", outdir, r.config);
	snprintf(replog, sizeof(replog), "%s/logs/%s.txt", outdir, r.config);
	unlink(TRACE_OUT);
	spawn(&p, cat, NULL, NULL);
	if (!wait_nonempty(TRACE_OUT, &p, 60)) {
		say("%s: ringtrace-cat did not start", config);
		if (p.pid > 0) {
			kill(p.pid, SIGKILL);
			reap(&p);
		}
		return;
	}
	if (run(argv, NULL, errlog))
		say("%s: perf record failed (see %s)", config, errlog);
	kill(p.pid, SIGINT);
	reap(&p);
	loop_collect(&r.loop);
	if (run(report, replog, NULL))
		say("%s: perf report failed", config);
	unlink(TRACE_OUT);
	unlink("/tmp/rtbench-prof.data");
	extra(&r, "profile=logs/%s.txt", r.config);
	emit(&r);
}

/* ---- bpftrace ---- */

static const char bt_printf[] =
	"kprobe:vfs_read { @start[tid] = nsecs; }\n"
	"kretprobe:vfs_read /@start[tid]/ {\n"
	"  printf(\"%d %d %lld\\n\", tid, retval, nsecs - @start[tid]);\n"
	"  delete(@start[tid]);\n"
	"}\n"
	"END { clear(@start); }\n";

/* BPF's cheapest attach: an fentry/fexit trampoline that only counts. */
static const char bt_fentry_count[] =
	"kfunc:vfs_read { @entries = count(); }\n"
	"kretfunc:vfs_read { @calls = count(); }\n";

/* the trampoline and two empty programs, no map. */
static const char bt_fentry_empty[] =
	"kfunc:vfs_read { }\n"
	"kretfunc:vfs_read { }\n";

static const char bt_fentry_printf[] =
	"kfunc:vfs_read { @start[tid] = nsecs; }\n"
	"kretfunc:vfs_read /@start[tid]/ {\n"
	"  printf(\"%d %d %lld\\n\", tid, retval, nsecs - @start[tid]);\n"
	"  delete(@start[tid]);\n"
	"}\n"
	"END { clear(@start); }\n";

static const char bt_hist[] =
	"kprobe:vfs_read { @start[tid] = nsecs; }\n"
	"kretprobe:vfs_read /@start[tid]/ {\n"
	"  @lat = hist(nsecs - @start[tid]);\n"
	"  delete(@start[tid]);\n"
	"}\n"
	"END { clear(@start); }\n";

/* Lines of printf output, "Lost N events", and histogram counts. */
static void bpftrace_count(struct result *r, const char *path)
{
	char *text = slurp(path, NULL), *line, *save = NULL;
	long long lines = 0, lost = 0, hist = 0;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		long long a, b, c;
		char *p;

		if (!strncmp(line, "Lost ", 5))
			lost += strtoll(line + 5, NULL, 10);
		else if (!strncmp(line, "@calls: ", 8))
			lines += strtoll(line + 8, NULL, 10);
		else if (line[0] == '[' && (p = strchr(line, ')')))
			hist += strtoll(p + 1, NULL, 10);
		else if (sscanf(line, "%lld %lld %lld", &a, &b, &c) == 3)
			lines++;
	}
	free(text);
	r->records = hist ? hist : lines;
	r->lost = lost;
}

static void bpftrace_config(const char *config, const char *prog, int round,
			    int ncpu)
{
	char cmd[256], errlog[256];
	char *argv[] = { "bpftrace", "-o", TRACE_OUT, "-c", cmd, "-e",
			 (char *)prog, NULL };
	struct result r;
	uint64_t t0;

	loop_cmdline(cmd, sizeof(cmd), ncpu);
	baseline(round, ncpu);
	result_init(&r, config, round, ncpu);
	snprintf(errlog, sizeof(errlog), "%s/logs/%s.log", outdir, r.config);
	t0 = now_ns();
	if (run(argv, errlog, errlog))
		say("%s: bpftrace failed (see %s)", config, errlog);
	loop_collect(&r.loop);
	bpftrace_count(&r, TRACE_OUT);
	extra(&r, "bpftrace_wall_s=%.1f", (double)(now_ns() - t0) / 1e9);
	unlink(TRACE_OUT);
	emit(&r);
}

/*
 * bpftrace's offcputime-style program on the same tracepoint:
 * when a task leaves, its time and kernel stack; when it comes back, the
 * time it was away summed per stack.
 */
static const char bt_offcpu[] =
	"tracepoint:sched:sched_switch {\n"
	"  @start[args->prev_pid] = nsecs;\n"
	"  @stk[args->prev_pid] = kstack;\n"
	"  $t = @start[args->next_pid];\n"
	"  if ($t) {\n"
	"    @off[@stk[args->next_pid]] = sum(nsecs - $t);\n"
	"    delete(@start[args->next_pid]);\n"
	"  }\n"
	"}\n"
	"END { clear(@start); clear(@stk); }\n";

/* perf record -a -g of sched:sched_switch (the seed's off-CPU recipe). */
static void pp_perf_config(const char *config, int round)
{
	char *argv[32] = { "perf", "record", "-a", "-g", "-e",
			   "sched:sched_switch", "-o", TRACE_OUT, "--" };
	char errlog[256], buf[128];
	struct perfdata_counts pc;
	struct result r;

	loop_argv(argv + 9, buf, sizeof(buf), 1);
	baseline(round, 1);
	result_init(&r, config, round, 1);
	snprintf(errlog, sizeof(errlog), "%s/logs/%s.log", outdir, r.config);
	if (run(argv, NULL, errlog))
		say("%s: perf record failed (see %s)", config, errlog);
	loop_collect(&r.loop);
	if (perfdata_count(TRACE_OUT, &pc))
		say("%s: cannot parse %s", config, TRACE_OUT);
	r.records = (long long)pc.samples;
	r.lost = (long long)(pc.lost + pc.lost_samples);
	unlink(TRACE_OUT);
	emit(&r);
}

/*
 * the cost per context switch, pingpong's two processes on CPU
 * 0. pp_rt_lock: a session that does not ask for offcpu (sched_switch is
 * not hooked: should cost nothing per switch); pp_rt_offcpu_1ms: the hook
 * and the table, almost no record (every interval is shorter); pp_rt_offcpu
 * and _stack: a record per switch (--min-offcpu 0), without and with
 * stacks; then bpftrace's offcputime-style program and perf record.
 */
static void pingpong_configs(void)
{
	char *lock[] = { "-e", "lock", NULL };
	char *off1ms[] = { "-e", "offcpu", NULL };
	char *off[] = { "-e", "offcpu", "--min-offcpu", "0", NULL };
	char *offstack[] = { "-e", "offcpu", "--min-offcpu", "0", "--stack",
			     NULL };

	pingpong = true;
	for (int k = 0; k < rounds; k++) {
		if (wanted("pp_rt_lock"))
			ringtrace_config("pp_rt_lock", k, 1, lock);
		if (wanted("pp_rt_offcpu_1ms"))
			ringtrace_config("pp_rt_offcpu_1ms", k, 1, off1ms);
		if (wanted("pp_rt_offcpu"))
			ringtrace_config("pp_rt_offcpu", k, 1, off);
		if (wanted("pp_rt_offcpu_stack"))
			ringtrace_config("pp_rt_offcpu_stack", k, 1, offstack);
	}
	reps *= 3;
	if (wanted("pp_bpftrace_offcpu"))
		bpftrace_config("pp_bpftrace_offcpu", bt_offcpu, 0, 1);
	if (wanted("pp_perf_switch"))
		pp_perf_config("pp_perf_switch", 0);
	reps /= 3;
	if (wanted("pp_baseline") || wanted("pp_rt_offcpu") ||
	    wanted("pp_bpftrace_offcpu"))
		baseline(rounds, 1);
	pingpong = false;
}

/* ringtrace_idle's ring and watermark: the whole run fits (main()). */
static char idle_ring[32], idle_mark[32];
/* The same for the graph's 5 records per read (g?_ringtrace_idle). */
static char graph_ring[32], graph_mark[32];

/* ---- the function graph: vfs_read and its callees ---- */

/*
 * What each tracer records per read: vfs_read's span and its callees'
 * on this file's path (tmpfs: shmem's read_iter and page lookup; both
 * kernels of the range have them, and traceable). One list for all
 * three tracers, so that they record the same spans.
 */
static const char *const graph_funcs_tmpfs[] = {
	"rw_verify_area", "shmem_file_read_iter", "shmem_get_folio_gfp",
	"touch_atime", NULL,
};
static const char *const graph_funcs_9p[] = {
	"rw_verify_area", "v9fs_file_read_iter", "filemap_read",
	"touch_atime", NULL,
};

/* trace-cmd's function_graph, its filter the same spans, under vfs_read. */
static void tracecmd_graph_config(const char *config,
				  const char *const *funcs, int round)
{
	char *argv[48] = { "trace-cmd", "record", "-p", "function_graph",
			   "-g", "vfs_read", "-l", "vfs_read", "-o", TRACE_OUT };
	char *stat[] = { "trace-cmd", "report", "--stat", "-i", TRACE_OUT,
			 NULL };
	char errlog[256], statlog[256], buf[128], *text;
	struct result r;
	int i = 10;

	for (; *funcs; funcs++) {
		argv[i++] = "-l";
		argv[i++] = (char *)*funcs;
	}
	loop_argv(argv + i, buf, sizeof(buf), 1);
	baseline(round, 1);
	result_init(&r, config, round, 1);
	snprintf(errlog, sizeof(errlog), "%s/logs/%s.log", outdir, r.config);
	if (run(argv, errlog, errlog))
		say("%s: trace-cmd record failed (see %s)", config, errlog);
	loop_collect(&r.loop);
	/*
	 * The kernel buffer's counts, kept in the file (report --stat), per
	 * CPU: "read events" (an entry and a return event per span),
	 * "overrun", "commit overrun" and "dropped events" (lost).
	 */
	snprintf(statlog, sizeof(statlog), "%s/logs/%s.stat", outdir, r.config);
	if (run(stat, statlog, statlog))
		say("%s: trace-cmd report --stat failed (see %s)", config,
		    statlog);
	text = slurp(statlog, NULL);
	r.records = 0;
	r.lost = 0;
	for (char *p = text; p && (p = strstr(p, "read events: ")); p += 13)
		r.records += strtoll(p + 13, NULL, 10);
	for (char *p = text; p && (p = strstr(p, "overrun: ")); p += 9)
		r.lost += strtoll(p + 9, NULL, 10);
	for (char *p = text; p && (p = strstr(p, "dropped events: ")); p += 16)
		r.lost += strtoll(p + 16, NULL, 10);
	free(text);
	unlink(TRACE_OUT);
	emit(&r);
}

/* bpftrace: a kprobe and a kretprobe per function, a line per span. */
/* Function @fn's kprobe/kretprobe pair (map @s@i), at @used in @prog. */
static size_t bt_span(char *prog, size_t size, size_t used, const char *fn,
		      int i)
{
	if (used >= size)
		return used;
	return used + (size_t)snprintf(prog + used, size - used,
		"kprobe:%s { @s%d[tid] = nsecs; }\n"
		"kretprobe:%s /@s%d[tid]/ {\n"
		"  printf(\"%%d %%d %%lld\\n\", tid, retval, nsecs - @s%d[tid]);\n"
		"  delete(@s%d[tid]);\n}\n", fn, i, fn, i, i, i);
}

static void bpftrace_graph_config(const char *config,
				  const char *const *funcs)
{
	static char prog[4096];
	size_t used = bt_span(prog, sizeof(prog), 0, "vfs_read", 0);

	for (int i = 1; *funcs; funcs++, i++)
		used = bt_span(prog, sizeof(prog), used, *funcs, i);
	bpftrace_config(config, prog, 0, 1);
}

/*
 * The floor of the same spans: the hooks ringtrace's func events use on
 * this kernel (fprobe where offered, else a kretprobe per function), on
 * vfs_read and @funcs, two timestamps per call and no record.
 */
static void graph_floor_config(const char *config, int round,
			       const char *const *funcs)
{
	char list[512];
	size_t used;

	used = (size_t)snprintf(list, sizeof(list), "vfs_read");
	for (; *funcs; funcs++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 ",%s", *funcs);
	floor_config_funcs(config, attach_offered("fprobe") ? -1 : 0, round, 1,
			   list);
}

/*
 * Per file system: the floor and ringtrace (vfs_read and the callees as
 * func events, the records --graph vfs_read ties together) in each round,
 * then trace-cmd and bpftrace once each with more repetitions, slow to start.
 */
static void graph_configs_on(const char *prefix, const char *file,
			     const char *const *funcs)
{
	char events[512], gfuncs[512], name[64];
	char *rt[] = { "-e", events, NULL };
	/* --graph itself: the callees only inside a traced read. */
	char *rt_graph[] = { "--graph", "vfs_read", "--graph-funcs", gfuncs,
			     NULL };
	/*
	 * Only the slow reads' callees: every read here is faster than 1 ms,
	 * so a module that holds the calls until the read returns writes none.
	 */
	char *rt_slow[] = { "--graph", "vfs_read", "--graph-funcs", gfuncs,
			    "--min-latency", "1ms", NULL };
	/* The producer's cost alone: the reader never wakes. */
	char *rt_idle[] = { "-e", events, "--buffer-size", graph_ring,
			    "--watermark", graph_mark, NULL };
	/* The reader where the scheduler puts it, as trace-cmd's are. */
	char *rt_plain[] = { "-e", events, "--reader", "plain", NULL };
	size_t used;

	used = (size_t)snprintf(events, sizeof(events), "vfs_read");
	for (const char *const *f = funcs; *f; f++)
		used += (size_t)snprintf(events + used, sizeof(events) - used,
					 ",func:%s", *f);
	used = 0;
	for (const char *const *f = funcs; *f; f++)
		used += (size_t)snprintf(gfuncs + used, sizeof(gfuncs) - used,
					 "%s%s", used ? "," : "", *f);
	graph_file = file;
	graph_prefix = prefix;
#define GRAPH_NAME(what) (snprintf(name, sizeof(name), "%s%s", prefix, what), name)
	for (int k = 0; k < rounds; k++) {
		if (wanted(GRAPH_NAME("floor")))
			graph_floor_config(name, k, funcs);
		if (wanted(GRAPH_NAME("ringtrace")))
			ringtrace_config(name, k, 1, rt);
		if (wanted(GRAPH_NAME("ringtrace_idle")))
			ringtrace_config(name, k, 1, rt_idle);
		if (wanted(GRAPH_NAME("ringtrace_plain")))
			ringtrace_config(name, k, 1, rt_plain);
		if (wanted(GRAPH_NAME("ringtrace_graph")))
			ringtrace_config(name, k, 1, rt_graph);
		if (wanted(GRAPH_NAME("ringtrace_slow")))
			ringtrace_config(name, k, 1, rt_slow);
	}
	reps *= 3;
	if (wanted(GRAPH_NAME("tracecmd")))
		tracecmd_graph_config(name, funcs, 0);
	if (wanted(GRAPH_NAME("bpftrace")))
		bpftrace_graph_config(name, funcs);
	reps /= 3;
	if (wanted(GRAPH_NAME("floor")) || wanted(GRAPH_NAME("ringtrace")) ||
	    wanted(GRAPH_NAME("ringtrace_idle")) ||
	    wanted(GRAPH_NAME("ringtrace_plain")) ||
	    wanted(GRAPH_NAME("ringtrace_graph")) ||
	    wanted(GRAPH_NAME("ringtrace_slow")) ||
	    wanted(GRAPH_NAME("tracecmd")) || wanted(GRAPH_NAME("bpftrace")))
		baseline(rounds, 1);
#undef GRAPH_NAME
	graph_file = NULL;
	graph_prefix = "";
}

#define GRAPH_TMPFS_FILE	"/tmp/rtbench-graph"

static void graph_configs(void)
{
	static char buf[4096];
	int fd = open(GRAPH_TMPFS_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
		say("cannot write %s: no function graph rows",
		    GRAPH_TMPFS_FILE);
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	graph_configs_on("gt_", GRAPH_TMPFS_FILE, graph_funcs_tmpfs);
	/* The checkout is on the guest's 9p root: a file of it. */
	graph_configs_on("g9_", "bench/readloop.c", graph_funcs_9p);
	unlink(GRAPH_TMPFS_FILE);
}

/* ---- main ---- */

static void usage(void)
{
	fprintf(stderr, "usage: vmbench -o OUTDIR [-n CALLS] [-r REPS] "
		"[-k ROUNDS] [-O CONFIG,...]\n");
	exit(2);
}

/*
 * bpftrace's tracepoint arguments (args->prev_pid) make it parse the
 * kernel's headers, which it looks for under /lib/modules/REL/build: the
 * VM's modules directory has none. Debian splits them in two directories
 * under /usr/src (REL and REL's "-common"), which the host shares.
 */
static void bpftrace_headers(void)
{
	char build[320], source[320];
	struct utsname u;
	struct stat st;
	char *dash;

	if (uname(&u) || getenv("BPFTRACE_KERNEL_SOURCE"))
		return;
	snprintf(build, sizeof(build), "/usr/src/linux-headers-%s", u.release);
	dash = strrchr(u.release, '-');
	if (!dash)
		return;
	*dash = '\0';
	snprintf(source, sizeof(source), "/usr/src/linux-headers-%s-common",
		 u.release);
	if (stat(build, &st) || stat(source, &st))
		return;
	setenv("BPFTRACE_KERNEL_BUILD", build, 1);
	setenv("BPFTRACE_KERNEL_SOURCE", source, 1);
}

static void load_ringtrace(void)
{
	/* Rings up to 256 MiB, for ringtrace_idle; the others keep the default. */
	char *ins[] = { "insmod", ko(RINGTRACE_KO), "max_ring_pages=65536",
			NULL };
	/* First: the direct call is offered while it is loaded. */
	char *ins_direct[] = { "insmod", ko(DIRECT_KO), NULL };
	struct stat st;

	if (stat("/dev/ringtrace", &st)) {
		if (stat("/sys/module/ringtrace_direct", &st) &&
		    run(ins_direct, NULL, NULL))
			say("cannot load %s: no direct call", ins_direct[1]);
		if (run(ins, NULL, NULL))
			die("cannot load %s", ins[1]);
	}
}

/*
 * a cgroup v2 the workload is not in, for --cgroup: what the
 * filter costs the tasks it rejects. cgroup2 is mounted if the guest has
 * not. NULL if there is none to be had.
 */
#define OTHER_CGROUP	"rt_bench_other"
static const char *other_cgroup(void)
{
	struct stat st;

	if (stat("/sys/fs/cgroup/cgroup.procs", &st) &&
	    mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL))
		return NULL;
	if (mkdir("/sys/fs/cgroup/" OTHER_CGROUP, 0755) && errno != EEXIST)
		return NULL;
	return OTHER_CGROUP;
}


/*
 * One round of the quick-to-attach configurations: each runs once, right
 * after its own baseline, so slow drifts of the host's load hit a
 * configuration and its baseline alike.
 */
static void read_round(int k)
{
	char *minlat[] = { "--min-latency", "1ms", NULL };
	char *cgroup[] = { "--cgroup", OTHER_CGROUP, NULL };
	char *big[] = { "--buffer-size", "8M", NULL };
	/* each read's off-CPU time (the switch hook on too). */
	char *readoff[] = { "-e", "vfs_read,offcpu", NULL };
	/* The reader left where the scheduler puts it, at its nice. */
	char *plain[] = { "--reader", "plain", NULL };
	/* no path or cgroup records, the cheapest records. */
	char *bare[] = { "--no-paths", "--no-cgroup-names", NULL };
	/* ABI 2 options, through rtdrain (path records, stack trailers). */
	char *paths[] = { "-p", NULL };
	char *kstack[] = { "-k", "16", NULL };
	char *ustack[] = { "-u", "16", NULL };
	char *kustack[] = { "-p", "-k", "16", "-u", "16", NULL };
	/*
	 * the cgroup id (a task_ext) on every record, next to
	 * "drain" in each round; then with the filter on the root cgroup
	 * (--cgroup /sys/fs/cgroup), which every task passes.
	 */
	char *cgroupid[] = { "-c", NULL };
	char *cgroup_all[] = { "-c", "-g", "/sys/fs/cgroup", NULL };
	/* Room for every record of the run, and no wake-up before the end. */
	char *idle[] = { "--buffer-size", idle_ring, "--watermark", idle_mark,
			 "--flush-interval", "60s", NULL };

	if (wanted("floor_split1"))
		floor_config("floor_split1", 1, k, 1);
	if (wanted("floor_split0"))
		floor_config("floor_split0", 0, k, 1);
	if (wanted("ringtrace"))
		ringtrace_config("ringtrace", k, 1, NULL);
	/* The reader where the scheduler puts it, as before --reader. */
	if (wanted("ringtrace_plain"))
		ringtrace_config("ringtrace_plain", k, 1, plain);
	if (wanted("ringtrace_bare"))
		ringtrace_config("ringtrace_bare", k, 1, bare);
	if (wanted("ringtrace_minlat"))
		ringtrace_config("ringtrace_minlat", k, 1, minlat);
	if (wanted("ringtrace_idle"))
		ringtrace_config("ringtrace_idle", k, 1, idle);
	if (wanted("ringtrace_cgroup") && other_cgroup())
		ringtrace_config("ringtrace_cgroup", k, 1, cgroup);
	if (wanted("ringtrace_8m"))
		ringtrace_config("ringtrace_8m", k, 1, big);
	if (wanted("ringtrace_offcpu"))
		ringtrace_config("ringtrace_offcpu", k, 1, readoff);
	if (wanted("drain"))
		rtdrain_config("drain", k, 1, NULL);
	if (wanted("drain_paths"))
		rtdrain_config("drain_paths", k, 1, paths);
	if (wanted("drain_kstack"))
		rtdrain_config("drain_kstack", k, 1, kstack);
	if (wanted("drain_ustack"))
		rtdrain_config("drain_ustack", k, 1, ustack);
	if (wanted("drain_all"))
		rtdrain_config("drain_all", k, 1, kustack);
	if (wanted("drain_cgroupid"))
		rtdrain_config("drain_cgroupid", k, 1, cgroupid);
	if (wanted("drain_cgroup_all") && other_cgroup())
		rtdrain_config("drain_cgroup_all", k, 1, cgroup_all);
	/* Each mechanism forced, with its floor. */
	if (wanted("floor_fprobe") && attach_offered("fprobe"))
		floor_config("floor_fprobe", -1, k, 1);
	if (wanted("floor_direct") && attach_offered("direct"))
		floor_config("floor_direct", -2, k, 1);
	for (int m = 0; m < 3; m++) {
		const char *mech = mechanisms[m];
		char name[64];

		if (!attach_offered(mech))
			continue;
		set_attach(mech);
		snprintf(name, sizeof(name), "rt_%s", mech);
		if (wanted(name))
			ringtrace_config(name, k, 1, NULL);
		snprintf(name, sizeof(name), "rt_%s_bare", mech);
		if (wanted(name))
			ringtrace_config(name, k, 1, bare);
		snprintf(name, sizeof(name), "rt_%s_idle", mech);
		if (wanted(name))
			ringtrace_config(name, k, 1, idle);
		snprintf(name, sizeof(name), "rt_%s_2cpu", mech);
		if (wanted(name))
			ringtrace_config(name, k, 2, NULL);
		set_attach("auto");
	}
	/*
	 * The yardstick, so in every round despite its slow
	 * start: BPF's cheapest attach, recording nothing.
	 */
	if (wanted("bpftrace_fentry_count"))
		bpftrace_config("bpftrace_fentry_count", bt_fentry_count,
				k, 1);
	/* what a BPF trampoline costs with nothing to run. */
	if (wanted("bpftrace_fentry_empty"))
		bpftrace_config("bpftrace_fentry_empty", bt_fentry_empty,
				k, 1);
	if (wanted("ftrace_noreader"))
		ftrace_config("ftrace_noreader", false, k, 1);
	if (wanted("ftrace_reader"))
		ftrace_config("ftrace_reader", true, k, 1);
	/* Both CPUs busy: the reader has no CPU of its own. */
	if (wanted("floor_split1_2cpu"))
		floor_config("floor_split1_2cpu", 1, k, 2);
	if (wanted("ringtrace_2cpu"))
		ringtrace_config("ringtrace_2cpu", k, 2, NULL);
	if (wanted("ringtrace_plain_2cpu"))
		ringtrace_config("ringtrace_plain_2cpu", k, 2, plain);
	/* Consumer CPU time per output format. */
	if (wanted("cat_fixed"))
		consumer_config("cat_fixed", "--raw", k, true);
	if (wanted("cat_raw"))
		consumer_config("cat_raw", "--raw", k, false);
	if (wanted("cat_text"))
		consumer_config("cat_text", NULL, k, false);
	if (wanted("cat_json"))
		consumer_config("cat_json", "--json", k, false);
}

int main(int argc, char **argv)
{
	char path[512];
	uint64_t t0 = now_ns(), need, size = 1u << 20;
	int c;

	while ((c = getopt(argc, argv, "o:n:r:k:O:")) != -1) {
		switch (c) {
		case 'o': outdir = optarg; break;
		case 'n': calls = strtol(optarg, NULL, 10); break;
		case 'r': reps = atoi(optarg); break;
		case 'k': rounds = atoi(optarg); break;
		case 'O': only = optarg; break;
		default: usage();
		}
	}
	if (!outdir || calls <= 0 || reps <= 0 || rounds <= 0 || optind != argc)
		usage();
	signal(SIGPIPE, SIG_IGN);
	/*
	 * 136-byte records (120 since the off-CPU fields, and
	 * ringtrace-cat's task_ext): every timed and warm-up
	 * call, and some slack.
	 */
	need = (uint64_t)calls * ((uint64_t)reps + 1) * 136 + (1u << 20);
	while (size < need && size < (256u << 20))
		size <<= 1;
	snprintf(idle_ring, sizeof(idle_ring), "%" PRIu64 "K", size >> 10);
	snprintf(idle_mark, sizeof(idle_mark), "%" PRIu64 "K", (size >> 10) - 4);
	/* The graph: 5 records per read (vfs_read and 4 callees). */
	need = (need - (1u << 20)) * 5 + (1u << 20);
	while (size < need && size < (256u << 20))
		size <<= 1;
	snprintf(graph_ring, sizeof(graph_ring), "%" PRIu64 "K", size >> 10);
	snprintf(graph_mark, sizeof(graph_mark), "%" PRIu64 "K",
		 (size >> 10) - 4);
	nr_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (nr_cpus < 2)
		die("needs 2 CPUs (scripts/vm-run --smp 2)");
	if (nr_cpus > MAX_CPUS)
		nr_cpus = MAX_CPUS;
	mkdir(outdir, 0755);
	snprintf(path, sizeof(path), "%s/logs", outdir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/results.txt", outdir);
	results = fopen(path, "w");
	if (!results)
		die("%s: %s", path, strerror(errno));
	load_ringtrace();
	record_auto_attach();
	bpftrace_headers();	/* the sched_switch program */
	say("%d CPUs, %ld calls x %d repetitions per run, %d rounds",
	    nr_cpus, calls, reps, rounds);

	/* Warm the page cache and TCG's translations for every binary. */
	for (int i = 0; i < 2; i++) {
		struct loop l;

		loop_run(&l, 1);
	}

	for (int k = 0; k < rounds; k++) {
		read_round(k);
		/*
		 * the same round with the workload unpinned, for
		 * the configurations named with the suffix, interleaved with
		 * the pinned ones so both see the same host.
		 */
		if (only && strstr(only, UNPINNED)) {
			unpinned = true;
			suffix = UNPINNED;
			read_round(k);
			unpinned = false;
			suffix = "";
		}
	}
	/*
	 * Slow to start (tens of seconds under TCG): once each, with more
	 * repetitions to make up for having a single round.
	 */
	reps *= 3;
	if (wanted("bpftrace_fentry_printf"))
		bpftrace_config("bpftrace_fentry_printf", bt_fentry_printf, 0, 1);
	if (wanted("bpftrace_hist"))
		bpftrace_config("bpftrace_hist", bt_hist, 0, 1);
	if (wanted("bpftrace_printf"))
		bpftrace_config("bpftrace_printf", bt_printf, 0, 1);
	if (wanted("perf"))
		perf_config("perf", 0, 1);
	if (wanted("profile"))
		profile_config("profile", 0);
	reps /= 3;
	baseline(rounds, 1);
	pingpong_configs();
	graph_configs();

	fprintf(results, "done=1 wall_s=%.1f\n", (double)(now_ns() - t0) / 1e9);
	fclose(results);
	say("done in %.0f s", (double)(now_ns() - t0) / 1e9);
	return 0;
}
