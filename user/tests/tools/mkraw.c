// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkraw FILE: write a deterministic raw file for the view tests
 * (tests/views.sh), with the library's writer: two CPUs; on CPU 0 "cat"
 * (pid 100) reads two files fast and "tar" (pid 200, thread 201) reads one
 * file slowly, some calls failing; on CPU 1 "locker" (pid 300) waits for
 * and holds a tracked lock, a second "cat" thread (102) reads once, slowly,
 * and 3 records were lost.
 * Each thread's calls follow one another (no overlap), as real ones do.
 * ABI 2 records too: path records name ino 11 (a name with a space) and
 * ino 22 before their first reads (ino 12 stays unnamed), and tar's reads
 * carry stack trailers (3 kernel frames, 2 user frames; one call path for
 * even calls, another for odd ones).
 *
 * mkraw --v2 FILE: the same, plus what raw format version 2 adds: perf
 * cpu-clock samples with call chains on both CPUs (cat, named by the COMMS
 * chunk, and tar), and two rounds of counter snapshots per CPU; cat forks
 * a child (104) sampled once as "cat", before it execs, and once as "wc".
 *
 * mkraw --ext FILE: the default file, plus what off-CPU time and cgroup
 * records add
 * (tests/ctf.sh): after the other records, on CPU 0 cat reads with its
 * off-CPU time measured and a task_ext (host pid and tid, a cgroup that a
 * cgroup record names, one read with stacks, one in a cgroup never named)
 * and is off CPU twice (asleep, with a task_ext in that named cgroup and
 * stacks, having left CPU 1; preempted, without either); on CPU 1 locker's acquisition carries a task_ext of the root
 * cgroup.
 *
 * mkraw --names FILE: the default file, plus names that would break a
 * line: on CPU 1 a thread named "two\nlines" reads a file whose path holds
 * a newline, a tab and a backslash, in a cgroup whose path holds a
 * newline (tests/views.sh: every view keeps one row a line).
 *
 * mkraw --graph BYTES FILE: what ringtrace-cat --graph vfs_read --raw
 * records (tests/diff.sh, tests/views.sh): "dd" (pid 500) reads BYTES at a
 * time, 10 times, on CPU 0; inside each read the func records of its
 * callees, returned before it: rw_verify_area, then filemap_read holding
 * filemap_get_pages and copy_page_to_iter (longer the more bytes), then
 * touch_atime; before the first read a touch_atime outside any read. The
 * file ends with a FUNC_MISSED chunk of 3 calls. Its functions' addresses
 * are those of tests/data/graph.kallsyms, which mkraw --ksyms appends.
 *
 * mkraw --tp FILE: what ringtrace-cat -e func:touch_atime
 * -e tp:sched:sched_switch --raw records (tests/func_names.sh): on CPU 0
 * "dd" (pid 500) calls touch_atime (func_idx 0, at its
 * tests/data/graph.kallsyms address) and then passes the sched_switch
 * tracepoint (func_idx 1, func_ip the address of its struct tracepoint:
 * data, in no function of graph.kallsyms), twice each; a FUNC_NAMES chunk
 * after the header names both. mkraw --tp-old FILE: the same records
 * without the FUNC_NAMES chunk, as an older ringtrace-cat recorded them.
 * mkraw --tp-args FILE: as --tp, the tracepoint's hits with its four
 * arguments and a fifth register, and a FUNC_ARGS chunk after FUNC_NAMES
 * that says what sched_switch's arguments are.
 *
 * mkraw --funcs FILE: the func records of every shape, for --ctf and
 * --json to agree on (tests/ctf.sh): a FUNC_NAMES chunk names vfs_write,
 * schedule, the signal_generate tracepoint, kill_pid_info, ksys_lseek and
 * a name no kernel symbol has ("odd\"name\\<TAB>x": a quote, a backslash,
 * a tab); a FUNC_ARGS chunk describes all but vfs_write and schedule
 * (kill_pid_info's "pid" argument has a record field's name). On CPU 0
 * "dd" (pid 500) calls vfs_write with its 3 raw arguments, returning
 * 4096, then -9 with a task_ext and stacks; ksys_lseek returns -22 for
 * an offset of -4096; kill_pid_info returns -3 for signal 9 (a register
 * with bits past the int set); the odd name returns 1; a function past
 * the named ones, unnamed (no KSYMS), returns 0 with 2 arguments. On
 * CPU 1 "sleeper" (pid 600) calls schedule with no arguments, twice, and
 * passes signal_generate (lat_ns 0) with its 5 arguments and a task_ext.
 *
 * mkraw --fast-read N FILE: append to a recording the FUNC_FAST_READ chunk
 * of N calls that ringtrace-cat --raw writes when its session held the
 * calls until their reads returned (--graph vfs_read --min-latency with a
 * module that offers it; tests/diff.sh).
 *
 * mkraw --ksyms FILE KALLSYMS: see main().
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <linux/ringtrace.h>

#include "ringtrace/counter_source.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/rawfile.h"
#include "../signal_generate_args.h"

#define BASE_NS	1000000000ull

static unsigned char cpu0[8192], cpu1[8192];
static size_t len0, len1;

static void task(struct ringtrace_task_ctx *t, uint64_t ts, uint32_t cpu,
		 uint32_t pid, uint32_t tid, const char *comm)
{
	t->ts_ns = ts;
	t->cpu = cpu;
	t->pid = pid;
	t->tid = tid;
	/* Bounded, NUL-padded (comm is not NUL-terminated when it is full). */
	memset(t->comm, 0, sizeof(t->comm));
	for (size_t i = 0; i < sizeof(t->comm) && comm[i]; i++)
		t->comm[i] = comm[i];
}

/*
 * A path or cgroup record: its @fixed part (header.size set here), then
 * @name, NUL-terminated and zero-padded to 8 bytes.
 */
static void named(unsigned char *buf, size_t *len, void *fixed, size_t flen,
		  const char *name)
{
	size_t n = strlen(name), size = (flen + n + 1 + 7) / 8 * 8;
	struct ringtrace_event_header h;

	memcpy(&h, fixed, sizeof(h));
	h.size = (uint16_t)size;
	memcpy(fixed, &h, sizeof(h));
	memset(buf + *len, 0, size);
	memcpy(buf + *len, fixed, flen);
	memcpy(buf + *len + flen, name, n);
	*len += size;
}

static void path(unsigned char *buf, size_t *len, uint64_t ts, uint64_t ino,
		 const char *name)
{
	struct ringtrace_path_record r;

	memset(&r, 0, sizeof(r));
	r.header.type = RINGTRACE_RECORD_PATH;
	r.ts_ns = ts;
	r.dev_major = 8;
	r.dev_minor = 1;
	r.ino = ino;
	r.path_len = (uint16_t)strlen(name);
	named(buf, len, &r, sizeof(r), name);
}

/* Append a stack trailer to the record just written at @rec. */
static void stack(unsigned char *buf, size_t *len, size_t rec, int variant)
{
	uint64_t kern[3] = { 0xffffffff81200010ull, 0xffffffff81100020ull,
			     0xffffffff81000030ull };
	uint64_t user[2] = { 0x401000ull + (uint64_t)variant * 0x100,
			     0x400500ull };
	struct ringtrace_stack_trailer t = { .nr_kernel = 3, .nr_user = 2 };
	struct ringtrace_event_header h;

	memcpy(buf + *len, kern, sizeof(kern));
	memcpy(buf + *len + sizeof(kern), user, sizeof(user));
	memcpy(buf + *len + sizeof(kern) + sizeof(user), &t, sizeof(t));
	*len += sizeof(kern) + sizeof(user) + sizeof(t);
	memcpy(&h, buf + rec, sizeof(h));
	h.misc |= RINGTRACE_MISC_STACK;
	h.size = (uint16_t)(*len - rec);
	memcpy(buf + rec, &h, sizeof(h));
}

static void vfs(unsigned char *buf, size_t *len, uint64_t ts, uint32_t cpu,
		uint32_t pid, uint32_t tid, const char *comm, uint64_t ino,
		uint64_t count, int64_t ret, uint64_t lat)
{
	struct ringtrace_vfs_read_record r;

	memset(&r, 0, sizeof(r));
	r.header.type = RINGTRACE_RECORD_VFS_READ;
	r.header.size = sizeof(r);
	task(&r.task, ts, cpu, pid, tid, comm);
	r.dev_major = 8;
	r.dev_minor = 1;
	r.ino = ino;
	r.pos = 0;
	r.count = count;
	r.ret = ret;
	r.lat_ns = lat;
	memcpy(buf + *len, &r, sizeof(r));
	*len += sizeof(r);
}

static void lock(uint64_t ts, uint64_t wait, uint64_t hold)
{
	struct ringtrace_lock_record r;

	memset(&r, 0, sizeof(r));
	r.header.type = RINGTRACE_RECORD_LOCK;
	r.header.size = sizeof(r);
	task(&r.task, ts, 1, 300, 300, "locker");
	r.lock_id = 0x1234;
	r.wait_ns = wait;
	r.hold_ns = hold;
	r.flags = wait ? RINGTRACE_LOCK_CONTENDED : 0;
	strcpy(r.name, "demo_lock");
	memcpy(cpu1 + len1, &r, sizeof(r));
	len1 += sizeof(r);
}

/* the record just written at @rec gets a task_ext. */
static void task_ext(unsigned char *buf, size_t *len, size_t rec,
		     uint64_t cgroup_id, uint32_t host_pid, uint32_t host_tid)
{
	struct ringtrace_task_ext x = { .cgroup_id = cgroup_id,
					.host_pid = host_pid,
					.host_tid = host_tid };
	struct ringtrace_event_header h;

	memcpy(buf + *len, &x, sizeof(x));
	*len += sizeof(x);
	memcpy(&h, buf + rec, sizeof(h));
	h.misc |= RINGTRACE_MISC_TASK_EXT;
	h.size = (uint16_t)(*len - rec);
	memcpy(buf + rec, &h, sizeof(h));
}

static void cgroup(unsigned char *buf, size_t *len, uint64_t ts, uint64_t id,
		   const char *name)
{
	struct ringtrace_cgroup_record r;

	memset(&r, 0, sizeof(r));
	r.header.type = RINGTRACE_RECORD_CGROUP;
	r.ts_ns = ts;
	r.cgroup_id = id;
	r.path_len = (uint16_t)strlen(name);
	named(buf, len, &r, sizeof(r), name);
}

/* A vfs_read by cat at @ts on CPU 0 whose off-CPU time was measured. */
static size_t vfs_offcpu(uint64_t ts, uint64_t off, uint64_t max)
{
	size_t rec = len0;
	struct ringtrace_vfs_read_record r;

	vfs(cpu0, &len0, ts, 0, 100, 100, "cat", 11, 4096, 4096, off + 9000);
	memcpy(&r, cpu0 + rec, sizeof(r));
	r.header.misc |= RINGTRACE_MISC_OFFCPU;
	r.offcpu_ns = off;
	r.offcpu_max_ns = max;
	r.offcpu_max_ts = max ? ts - 1000 : 0;
	memcpy(cpu0 + rec, &r, sizeof(r));
	return rec;
}

static size_t offcpu(uint64_t ts, uint64_t ns, uint32_t cpu_out,
		     uint32_t state)
{
	struct ringtrace_offcpu_record r;
	size_t rec = len0;

	memset(&r, 0, sizeof(r));
	r.header.type = RINGTRACE_RECORD_OFFCPU;
	r.header.size = sizeof(r);
	task(&r.task, ts, 0, 100, 100, "cat");
	r.offcpu_ns = ns;
	r.cpu_out = cpu_out;
	r.state = state;
	memcpy(cpu0 + len0, &r, sizeof(r));
	len0 += sizeof(r);
	return rec;
}

/*
 * Off-CPU time and cgroup records (mkraw --ext), after CPU 0's @t and
 * CPU 1's @t1.
 */
static void ext_records(uint64_t t, uint64_t t1)
{
	struct ringtrace_lock_record l;
	size_t rec;

	cgroup(cpu0, &len0, t + 1000, 0x1001, "/system.slice/a \"b\".service");
	rec = vfs_offcpu(t + 1000, 30000, 20000);
	task_ext(cpu0, &len0, rec, 0x1001, 5100, 5100);
	stack(cpu0, &len0, rec, 0);
	rec = offcpu(t + 2000, 20000, 1, RINGTRACE_OFFCPU_SLEEP);
	task_ext(cpu0, &len0, rec, 0x1001, 5100, 5100);	/* then the frames */
	stack(cpu0, &len0, rec, 1);
	offcpu(t + 3000, 700, 0, RINGTRACE_OFFCPU_PREEMPTED);
	rec = vfs_offcpu(t + 4000, 0, 0);
	task_ext(cpu0, &len0, rec, 0x2002, 5100, 5100);

	cgroup(cpu1, &len1, t1 + 5000, 1, "/");
	memset(&l, 0, sizeof(l));
	l.header.type = RINGTRACE_RECORD_LOCK;
	l.header.size = sizeof(l);
	task(&l.task, t1 + 5000, 1, 300, 300, "locker");
	l.lock_id = 0x1234;
	l.hold_ns = 12000;
	strcpy(l.name, "demo_lock");
	rec = len1;
	memcpy(cpu1 + len1, &l, sizeof(l));
	len1 += sizeof(l);
	task_ext(cpu1, &len1, rec, 1, 7300, 7301);
}

/* mkraw --names: names with a newline, after CPU 1's @t1. */
static void odd_names(uint64_t t1)
{
	size_t rec;

	path(cpu1, &len1, t1 + 6000, 33, "/tmp/new\nline\tand\\back");
	cgroup(cpu1, &len1, t1 + 6000, 0x3003, "/odd\ncgroup");
	rec = len1;
	vfs(cpu1, &len1, t1 + 6000, 1, 400, 400, "two\nlines", 33, 100, 100,
	    7000);
	task_ext(cpu1, &len1, rec, 0x3003, 400, 400);
}

static void lost(uint64_t ts, uint64_t n)
{
	struct ringtrace_lost_record r;

	memset(&r, 0, sizeof(r));
	r.header.type = RINGTRACE_RECORD_LOST;
	r.header.size = sizeof(r);
	r.ts_ns = ts;
	r.lost = n;
	memcpy(cpu1 + len1, &r, sizeof(r));
	len1 += sizeof(r);
}

static void chunk(struct rt_outbuf *ob, uint32_t cpu, const void *p, size_t n)
{
	struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_RECORDS, .cpu = cpu,
				  .size = n };

	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, p, n);
}

/* TID | TIME | CPU | IP | CALLCHAIN, the fields are in that ABI order. */
struct sample {
	struct perf_event_header	h;
	uint64_t			ip;
	uint32_t			pid, tid;
	uint64_t			time;
	uint32_t			cpu, res;
	uint64_t			nr;
	uint64_t			ips[3];
};

static void perf_chunk(struct rt_outbuf *ob, uint32_t cpu, uint64_t t,
		       uint32_t pid, uint32_t tid, int n)
{
	struct sample s[4];
	struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_PERF_RECORDS, .cpu = cpu,
				  .size = (uint64_t)n * sizeof(s[0]) };

	memset(s, 0, sizeof(s));
	for (int i = 0; i < n; i++) {
		s[i].h.type = PERF_RECORD_SAMPLE;
		s[i].h.misc = PERF_RECORD_MISC_USER;
		s[i].h.size = sizeof(s[i]);
		s[i].ip = 0x401000 + 0x10 * (uint64_t)(i & 1);
		s[i].pid = pid;
		s[i].tid = tid;
		s[i].time = t + 100000 * (uint64_t)i;
		s[i].cpu = cpu;
		s[i].nr = 3;
		s[i].ips[0] = PERF_CONTEXT_USER;
		s[i].ips[1] = s[i].ip;
		s[i].ips[2] = 0x400800;
	}
	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, s, c.size);
}

/* FORK of 104 by cat (100), a sample, COMM "wc" (exec), a sample: CPU 1. */
static void fork_chunk(struct rt_outbuf *ob, uint64_t t)
{
	struct {
		struct perf_event_header	h;
		uint32_t			pid, ppid, tid, ptid;
		uint64_t			time;
		uint32_t			id_pid, id_tid;
		uint64_t			id_time;
		uint32_t			id_cpu, id_res;
	} fork;
	struct {
		struct perf_event_header	h;
		uint32_t			pid, tid;
		char				comm[8];
		uint32_t			id_pid, id_tid;
		uint64_t			id_time;
		uint32_t			id_cpu, id_res;
	} comm;
	struct sample s[2];
	struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_PERF_RECORDS, .cpu = 1,
				  .size = sizeof(fork) + sizeof(comm) +
					  sizeof(s) };

	memset(&fork, 0, sizeof(fork));
	memset(&comm, 0, sizeof(comm));
	memset(s, 0, sizeof(s));
	fork.h.type = PERF_RECORD_FORK;
	fork.h.size = sizeof(fork);
	fork.pid = fork.tid = fork.id_pid = fork.id_tid = 104;
	fork.ppid = fork.ptid = 100;
	fork.time = fork.id_time = t;
	fork.id_cpu = 1;
	comm.h.type = PERF_RECORD_COMM;
	comm.h.misc = PERF_RECORD_MISC_COMM_EXEC;
	comm.h.size = sizeof(comm);
	comm.pid = comm.tid = comm.id_pid = comm.id_tid = 104;
	strcpy(comm.comm, "wc");
	comm.id_time = t + 200000;
	comm.id_cpu = 1;
	for (int i = 0; i < 2; i++) {
		s[i].h.type = PERF_RECORD_SAMPLE;
		s[i].h.misc = PERF_RECORD_MISC_USER;
		s[i].h.size = sizeof(s[i]);
		s[i].ip = 0x401000;
		s[i].pid = s[i].tid = 104;
		s[i].time = t + 100000 + 200000 * (uint64_t)i;
		s[i].cpu = 1;
		s[i].nr = 3;
		s[i].ips[0] = PERF_CONTEXT_USER;
		s[i].ips[1] = s[i].ip;
		s[i].ips[2] = 0x400800;
	}
	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, &fork, sizeof(fork));
	rt_outbuf_append(ob, &s[0], sizeof(s[0]));
	rt_outbuf_append(ob, &comm, sizeof(comm));
	rt_outbuf_append(ob, &s[1], sizeof(s[1]));
}

static void counters_chunk(struct rt_outbuf *ob, uint64_t t)
{
	struct {
		struct rt_counters_record	r;
		struct rt_counter_value		v[2];
	} rec[4];
	struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_COUNTERS,
				  .size = sizeof(rec) };

	memset(rec, 0, sizeof(rec));
	for (int i = 0; i < 4; i++) {
		rec[i].r.header.type = RT_COUNTERS_RECORD;
		rec[i].r.header.size = sizeof(rec[i]);
		rec[i].r.ts_ns = t + 1000000 * (uint64_t)(i / 2);
		rec[i].r.interval_ns = 1000000;
		rec[i].r.cpu = i & 1;
		rec[i].r.pid = -1;
		rec[i].r.nr = 2;
		rec[i].v[0].value = rec[i].v[0].raw = 900000 + (uint64_t)i;
		rec[i].v[1].value = rec[i].v[1].raw = 7 * (uint64_t)(i + 1);
		for (int k = 0; k < 2; k++)
			rec[i].v[k].enabled_ns = rec[i].v[k].running_ns = 1000000;
	}
	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, rec, sizeof(rec));
}

/* --graph: the functions, at tests/data/graph.kallsyms's addresses. */
enum { G_VERIFY, G_READ, G_PAGES, G_COPY, G_ATIME };
static const uint64_t graph_ip[] = {
	0xffffffff81301000ull, 0xffffffff81310000ull, 0xffffffff81311000ull,
	0xffffffff81320000ull, 0xffffffff81330000ull,
};

/* A func record of @idx at @ip returning at @entry + @dur, on CPU 0. */
static void func_at(uint32_t idx, uint64_t ip, uint64_t entry, uint64_t dur)
{
	struct ringtrace_func_record r;

	memset(&r, 0, sizeof(r));
	r.header.type = RINGTRACE_RECORD_FUNC;
	r.header.size = sizeof(r);
	task(&r.task, entry + dur, 0, 500, 500, "dd");
	/* The probed address: past x86's ENDBR64, as kprobes put it. */
	r.func_ip = ip;
	r.func_idx = idx;
	r.ret = 0;
	r.lat_ns = dur;
	memcpy(cpu0 + len0, &r, sizeof(r));
	len0 += sizeof(r);
}

static void func(uint32_t idx, uint64_t entry, uint64_t dur)
{
	func_at(idx, graph_ip[idx] + 4, entry, dur);
}

/*
 * --tp: touch_atime (func_idx 0) and the sched_switch tracepoint
 * (func_idx 1: lat_ns 0, as the module writes a tracepoint's hit; its
 * func_ip past every function of graph.kallsyms, as __tracepoint_* are,
 * in .data), named by a FUNC_NAMES chunk unless @old.
 */
static void tp_records(struct rt_outbuf *ob, bool old, bool args)
{
	static const char names[2][RINGTRACE_FUNC_NAME_LEN] = {
		"touch_atime", "tp:sched:sched_switch",
	};
	static const struct rt_func_arg_descs descs[2] = {
		{ 0 },
		{
			.nr_args = 4,
			.arg = {
				{ .name = "preempt", .size = 1 },
				{ .name = "prev", .size = 8, .is_ptr = 1 },
				{ .name = "next", .size = 8, .is_ptr = 1 },
				{ .name = "prev_state", .size = 4 },
			},
		},
	};
	static const uint64_t regs[5] = {
		0x100, 0xffff888006ff6500ull, 0xffff888006ff7a00ull,
		0xffffffff00000402ull, 0xdead,
	};
	struct ringtrace_func_record r;
	uint64_t t = BASE_NS;

	if (!old)
		rt_raw_write_func_names(ob, names, 2);
	if (args)
		rt_raw_write_func_args(ob, descs, 2);
	for (int i = 0; i < 2; i++) {
		t += 10000;
		func_at(0, graph_ip[G_ATIME] + 4, t, 150);
		t += 1000;
		if (!args) {
			func_at(1, 0xffffffff82a3c5c0ull, t, 0);
			continue;
		}
		func_at(1, 0xffffffff82a3c5c0ull, t, 0);
		/* the same record, grown by its five registers */
		memcpy(&r, cpu0 + len0 - sizeof(r), sizeof(r));
		r.header.size = sizeof(r) + sizeof(regs);
		r.nr_args = 5;
		memcpy(cpu0 + len0 - sizeof(r), &r, sizeof(r));
		memcpy(cpu0 + len0, regs, sizeof(regs));
		len0 += sizeof(regs);
	}
}

/*
 * A func record of @idx at @ip by @pid on @cpu (in @buf at *@len), its
 * call returning @ret at @ts after @lat ns, with @nr raw arguments
 * @args; where it starts in @buf, for a task_ext and a stack after it.
 */
static size_t func_rec(unsigned char *buf, size_t *len, uint32_t cpu,
		       uint32_t pid, const char *comm, uint64_t ts,
		       uint32_t idx, uint64_t ip, int64_t ret, uint64_t lat,
		       uint32_t nr, const uint64_t *args)
{
	struct ringtrace_func_record r;
	size_t rec = *len;

	memset(&r, 0, sizeof(r));
	r.header.type = RINGTRACE_RECORD_FUNC;
	r.header.size = (uint16_t)(sizeof(r) + nr * sizeof(*args));
	task(&r.task, ts, cpu, pid, pid, comm);
	r.func_ip = ip;
	r.func_idx = idx;
	r.nr_args = nr;
	r.ret = ret;
	r.lat_ns = lat;
	memcpy(buf + *len, &r, sizeof(r));
	*len += sizeof(r);
	if (nr)
		memcpy(buf + *len, args, nr * sizeof(*args));
	*len += nr * sizeof(*args);
	return rec;
}

/* --funcs: see the top of the file. */
enum { F_WRITE, F_SCHED, F_SIGNAL, F_KILL, F_LSEEK, F_ODD, F_NAMED };
static void func_records(struct rt_outbuf *ob)
{
	static const char names[F_NAMED][RINGTRACE_FUNC_NAME_LEN] = {
		"vfs_write", "schedule", "tp:signal:signal_generate",
		"kill_pid_info", "ksys_lseek", "odd\"name\\\tx",
	};
	static const struct rt_func_arg_descs descs[F_NAMED] = {
		[F_SIGNAL] = SIGNAL_GENERATE_ARGS,
		[F_KILL] = {
			.nr_args = 3,
			.arg = {
				{ .name = "sig", .size = 4, .is_signed = 1 },
				{ .name = "info", .size = 8, .is_ptr = 1 },
				{ .name = "pid", .size = 8, .is_ptr = 1 },
			},
		},
		[F_LSEEK] = {
			.nr_args = 3,
			.arg = {
				{ .name = "fd", .size = 4 },
				{ .name = "offset", .size = 8, .is_signed = 1 },
				{ .name = "whence", .size = 4 },
			},
		},
		[F_ODD] = {
			.nr_args = 1,
			.arg = { { .name = "x", .size = 8 } },
		},
	};
	static const uint64_t write_args[3] = { 3, 0x7ffd1000ull, 4096 };
	static const uint64_t signal_args[5] = {
		0xffffffff00000009ull, 0xffffc90000a3fd30ull,
		0xffff888006ff6500ull, 0, 0,
	};
	static const uint64_t kill_args[3] = {
		0xffffffff00000009ull, 0, 0xffff888004a1c200ull,
	};
	static const uint64_t lseek_args[3] = { 3, (uint64_t)-4096, 0 };
	static const uint64_t odd_args[1] = { 42 };
	static const uint64_t unnamed_args[2] = { 1, 2 };
	uint64_t t = BASE_NS;
	size_t rec;

	rt_raw_write_func_names(ob, names, F_NAMED);
	rt_raw_write_func_args(ob, descs, F_NAMED);
	/* CPU 0: dd */
	func_rec(cpu0, &len0, 0, 500, "dd", t += 10000, F_WRITE,
		 0xffffffff81350004ull, 4096, 2500, 3, write_args);
	rec = func_rec(cpu0, &len0, 0, 500, "dd", t += 10000, F_WRITE,
		       0xffffffff81350004ull, -9, 300, 3, write_args);
	task_ext(cpu0, &len0, rec, 0x1001, 5500, 5500);
	stack(cpu0, &len0, rec, 0);
	func_rec(cpu0, &len0, 0, 500, "dd", t += 10000, F_LSEEK,
		 0xffffffff81340004ull, -22, 400, 3, lseek_args);
	func_rec(cpu0, &len0, 0, 500, "dd", t += 10000, F_KILL,
		 0xffffffff810a0004ull, -3, 900, 3, kill_args);
	func_rec(cpu0, &len0, 0, 500, "dd", t += 10000, F_ODD,
		 0xffffffff81900004ull, 1, 100, 1, odd_args);
	func_rec(cpu0, &len0, 0, 500, "dd", t += 10000, F_NAMED,
		 0xffffffff81a00004ull, 0, 100, 2, unnamed_args);
	/* CPU 1: sleeper, interleaved in time with CPU 0's records */
	t = BASE_NS + 5000;
	func_rec(cpu1, &len1, 1, 600, "sleeper", t += 10000, F_SCHED,
		 0xffffffff81b00004ull, 0, 8000, 0, NULL);
	rec = func_rec(cpu1, &len1, 1, 600, "sleeper", t += 10000, F_SIGNAL,
		       0xffffffff82a3c700ull, 0, 0, 5, signal_args);
	task_ext(cpu1, &len1, rec, 1, 7600, 7600);
	func_rec(cpu1, &len1, 1, 600, "sleeper", t += 10000, F_SCHED,
		 0xffffffff81b00004ull, 0, 12000, 0, NULL);
}

/*
 * 10 reads of @bytes, each [t, end]: rw_verify_area 200 ns; filemap_read
 * 1000 + bytes/4 ns holding get_pages 300 + bytes/64 and copy 200 +
 * bytes/16; touch_atime 150; the read's own time around them.
 */
static void graph_reads(uint64_t bytes)
{
	uint64_t t = BASE_NS;

	func(G_ATIME, t, 100);		/* outside any read */
	for (int i = 0; i < 10; i++) {
		uint64_t pages = 300 + bytes / 64, copy = 200 + bytes / 16;
		uint64_t fread = 1000 + bytes / 4, v, f, a, end;

		t += 10000;
		v = t + 100;
		f = v + 300;
		a = f + fread + 100;
		end = a + 150 + 200;
		func(G_VERIFY, v, 200);
		func(G_PAGES, f + 100, pages);
		func(G_COPY, f + 100 + pages + 100, copy);
		func(G_READ, f, fread);
		func(G_ATIME, a, 150);
		vfs(cpu0, &len0, end, 0, 500, 500, "dd", 33, bytes,
		    (int64_t)bytes, end - t);
		t = end;
	}
}

static void write_v2(struct rt_outbuf *ob)
{
	struct rt_raw_perf_format pf = {
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CPU | PERF_SAMPLE_IP |
			       PERF_SAMPLE_CALLCHAIN,
		.sample_id_all = 1,
		.event = "cpu-clock",
	};
	struct rt_raw_counter_names cn = { .nr = 2 };
	struct rt_raw_comm comm = { .tid = 100, .comm = "cat" };
	struct rt_raw_chunk c = { .kind = RT_RAW_CHUNK_COMMS,
				  .size = sizeof(comm) };

	strcpy(cn.name[0], "task-clock");
	strcpy(cn.name[1], "page-faults");
	rt_raw_write_perf_format(ob, &pf);
	rt_outbuf_append(ob, &c, sizeof(c));
	rt_outbuf_append(ob, &comm, sizeof(comm));
	rt_raw_write_counter_names(ob, &cn);
	perf_chunk(ob, 0, BASE_NS + 5000, 100, 100, 4);
	perf_chunk(ob, 1, BASE_NS + 55000, 200, 201, 3);
	fork_chunk(ob, BASE_NS + 400000);
	counters_chunk(ob, BASE_NS + 1000000);
}

int main(int argc, char **argv)
{
	bool v2 = argc == 3 && !strcmp(argv[1], "--v2");
	bool ext = argc == 3 && !strcmp(argv[1], "--ext");
	bool names = argc == 3 && !strcmp(argv[1], "--names");
	bool graph = argc == 4 && !strcmp(argv[1], "--graph");
	bool tp = argc == 3 && !strcmp(argv[1], "--tp");
	bool tp_old = argc == 3 && !strcmp(argv[1], "--tp-old");
	bool tp_args = argc == 3 && !strcmp(argv[1], "--tp-args");
	bool funcs = argc == 3 && !strcmp(argv[1], "--funcs");
	uint64_t graph_bytes = graph ? strtoull(argv[2], NULL, 0) : 0;
	struct rt_raw_header h;
	struct rt_outbuf ob;
	uint64_t t = BASE_NS, t0;
	int fd;

	/*
	 * mkraw --ksyms FILE KALLSYMS: append to a recording the KSYMS
	 * chunk that ringtrace-cat --raw writes when it ends, from a copy of
	 * the recording boot's kallsyms (tests/symbols.sh).
	 */
	if (argc == 4 && !strcmp(argv[1], "--ksyms")) {
		char err[512];
		int n = rt_raw_append_ksyms(argv[2], argv[3], err, sizeof(err));

		if (n < 0)
			fprintf(stderr, "mkraw: %s\n", err);
		return n < 0;
	}
	/* mkraw --fast-read N FILE: see above. */
	if (argc == 4 && !strcmp(argv[1], "--fast-read")) {
		fd = open(argv[3], O_WRONLY | O_APPEND);
		if (fd < 0 || rt_outbuf_init(&ob, fd, 0)) {
			perror(argv[3]);
			return 1;
		}
		rt_raw_write_func_fast_read(&ob, strtoull(argv[2], NULL, 0));
		if (rt_outbuf_flush(&ob)) {
			perror(argv[3]);
			return 1;
		}
		rt_outbuf_fini(&ob);
		return close(fd) != 0;
	}
	if (v2 || ext || names || tp || tp_old || tp_args || funcs) {
		argc--;
		argv++;
	}
	if (graph) {
		argc -= 2;
		argv += 2;
	}
	if (argc != 2 || (graph && (!graph_bytes || graph_bytes > 1 << 20))) {
		fprintf(stderr, "usage: mkraw [--v2|--ext|--names|--tp|--tp-old|"
			"--tp-args|--funcs] "
			"FILE | --graph BYTES FILE | --ksyms FILE KALLSYMS\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || rt_outbuf_init(&ob, fd, 0))
		return 1;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, RT_RAW_MAGIC, sizeof(h.magic));
	h.header_size = sizeof(h);
	snprintf(h.cmdline, sizeof(h.cmdline), "ringtrace-cat --raw -o 'a file.raw' "
		 "--stack -- sh -c 'cat it'\\''s'");
	h.format_version = v2 ? RT_RAW_FORMAT_SOURCES : RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	h.abi_version = 1;
	h.page_size = 4096;
	h.nr_cpu_ids = 2;
	h.events = 1 | 2;	/* vfs_read, lock */
	if (ext)
		h.events |= RINGTRACE_EVENT_OFFCPU;
	h.start_mono_ns = BASE_NS;
	h.start_real_ns = 1764460800ull * 1000000000ull;	/* 2025-11-30 */
	strcpy(h.module_version, "0.1.0-test");
	strcpy(h.host, "testhost");
	strcpy(h.kernel, "6.1.0-test-amd64");
	strcpy(h.machine, "x86_64");
	if (graph) {
		snprintf(h.cmdline, sizeof(h.cmdline), "ringtrace-cat --graph "
			 "vfs_read --raw -o g.raw -- dd bs=%llu count=10",
			 (unsigned long long)graph_bytes);
		h.nr_cpu_ids = 1;
		h.events = RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_FUNC;
		rt_raw_write_header(&ob, &h);
		graph_reads(graph_bytes);
		chunk(&ob, 0, cpu0, len0);
		rt_raw_write_func_missed(&ob, 3);
		if (rt_outbuf_flush(&ob))
			return 1;
		close(fd);
		rt_outbuf_fini(&ob);
		return 0;
	}
	if (tp || tp_old || tp_args) {
		snprintf(h.cmdline, sizeof(h.cmdline), "ringtrace-cat -e "
			 "func:touch_atime -e tp:sched:sched_switch --raw -o "
			 "tp.raw -- dd count=2");
		h.nr_cpu_ids = 1;
		h.events = RINGTRACE_EVENT_FUNC;
		rt_raw_write_header(&ob, &h);
		tp_records(&ob, tp_old, tp_args);
		chunk(&ob, 0, cpu0, len0);
		if (rt_outbuf_flush(&ob))
			return 1;
		close(fd);
		rt_outbuf_fini(&ob);
		return 0;
	}
	if (funcs) {
		snprintf(h.cmdline, sizeof(h.cmdline), "ringtrace-cat --args "
			 "-e func:vfs_write -e func:schedule -e "
			 "tp:signal:signal_generate --raw -o funcs.raw");
		h.events = RINGTRACE_EVENT_FUNC;
		rt_raw_write_header(&ob, &h);
		func_records(&ob);
		chunk(&ob, 0, cpu0, len0);
		chunk(&ob, 1, cpu1, len1);
		if (rt_outbuf_flush(&ob))
			return 1;
		close(fd);
		rt_outbuf_fini(&ob);
		return 0;
	}
	rt_raw_write_header(&ob, &h);

	/* CPU 0: cat reads ino 11 and 12 fast, tar's thread reads ino 22 slowly. */
	for (int i = 0; i < 12; i++) {
		uint64_t lat = 800 + 150 * (uint64_t)i;

		t += 10000;
		if (!i)
			path(cpu0, &len0, t, 11, "/usr/share/doc/a file");
		vfs(cpu0, &len0, t, 0, 100, 100, "cat", 11 + (i & 1), 4096,
		    i == 11 ? 0 : 4096, lat);
	}
	for (int i = 0; i < 8; i++) {
		uint64_t lat = 40000 + 20000 * (uint64_t)i;

		size_t rec;

		t += lat + 5000;
		if (!i)
			path(cpu0, &len0, t, 22, "/usr/share/doc/tar/NEWS.gz");
		rec = len0;
		vfs(cpu0, &len0, t, 0, 200, 201, "tar", 22, 65536,
		    i == 3 ? -5 : 65536, lat);
		stack(cpu0, &len0, rec, i & 1);
	}
	/* CPU 1, interleaved in time with CPU 0's records. */
	t0 = t;
	t = BASE_NS + 50000;
	for (int i = 0; i < 5; i++) {
		t += 30000;
		lock(t, i ? 2000 * (uint64_t)i : 0, 10000 + 1000 * (uint64_t)i);
	}
	lost(t + 1000, 3);
	/* cat's second thread: one slow read */
	vfs(cpu1, &len1, t + 2000, 1, 100, 102, "cat", 11, 4096, 4096, 1500000);
	if (ext)
		ext_records(t0, t + 2000);
	if (names)
		odd_names(t + 2000);
	if (v2)
		write_v2(&ob);
	chunk(&ob, 0, cpu0, len0);
	chunk(&ob, 1, cpu1, len1);
	if (rt_outbuf_flush(&ob))
		return 1;
	close(fd);
	rt_outbuf_fini(&ob);
	return 0;
}
