// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CTF writer (ctf.h), read back byte by byte: packets rotate before
 * packet_max and each is whole (magic, the trace's UUID, content_size ==
 * packet_size == its length, begin <= end, timestamps within it); a LOST
 * record closes the packet and the next one carries the running
 * events_discarded; a loss after the last event gets an empty packet of
 * its own; one stream file per CPU and one for per-process counter rows;
 * the metadata names the environment and the clock offset; the trace
 * appears only at close, never over an existing directory, and an abort
 * leaves nothing; offcpu events and the off-CPU and cgroup fields of
 * vfs_read and lock events are laid out as the metadata declares, zero
 * (and an empty cgroup) where a record lacks them; func events carry the
 * function's name (the session's, else hex), address, ret, latency and
 * raw arguments as the metadata declares; a func record whose arguments
 * are described is an event of its function's own class ("func:NAME",
 * "tp:SUBSYS:EVENT"), the generic fields then each argument by its key
 * in its size and signedness (a pointer in hex), and one whose count of
 * arguments differs from its class's, or undescribed, of the generic
 * class. (babeltrace2 reading real
 * recordings: tests/ctf.sh, func events: selftests' func_cli.sh.)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/ctf.h"
#include "ringtrace/output.h"
#include "ringtrace/perf_counters.h"

#include "signal_generate_args.h"

#define HDR		(4 + 16 + 4)
#define CTX		(5 * 8 + 4)

struct packet {
	uint64_t	begin, end, content, size, discarded;
	uint32_t	cpu;
	size_t		off;		/* in the file */
};

static char dir[256];

static void fresh_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/rt-test-ctf-%d", (int)getpid());
}

static void rm_trace(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[512];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static unsigned char *slurp(const char *name, size_t *len)
{
	static unsigned char buf[1 << 20];
	char p[512];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = 0;
	*len = (size_t)n;
	return buf;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Parse the packets of a stream file; returns how many. */
static int packets(const unsigned char *b, size_t len, const uint8_t *uuid,
		   struct packet *out, int max)
{
	size_t off = 0;
	int n = 0;

	while (off < len) {
		struct packet *p = &out[n];
		uint32_t magic;

		assert_true(n < max);
		memcpy(&magic, b + off, 4);
		assert_int_equal(magic, 0xc1fc1fc1u);
		assert_memory_equal(b + off + 4, uuid, 16);
		p->begin = get64(b + off + HDR);
		p->end = get64(b + off + HDR + 8);
		p->content = get64(b + off + HDR + 16);
		p->size = get64(b + off + HDR + 24);
		p->discarded = get64(b + off + HDR + 32);
		memcpy(&p->cpu, b + off + HDR + 40, 4);
		p->off = off;
		assert_int_equal(p->content, p->size);
		assert_true(p->size % 8 == 0 && p->size / 8 >= HDR + CTX);
		assert_true(p->begin <= p->end);
		off += p->size / 8;
		assert_true(off <= len);
		n++;
	}
	return n;
}

static struct rt_event read_ev(uint32_t cpu, uint64_t ts)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_VFS_READ;
	ev.cpu = cpu;
	ev.ts_ns = ts;
	ev.pid = ev.tid = 42;
	strcpy(ev.comm, "cat");
	ev.u.vfs_read.ino = 7;
	ev.u.vfs_read.count = 4096;
	ev.u.vfs_read.ret = 100;
	ev.u.vfs_read.lat_ns = 1000;
	ev.u.vfs_read.path = "/etc/services";
	return ev;
}

static struct rt_event lost_ev(uint32_t cpu, uint64_t ts, uint64_t count)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_LOST;
	ev.cpu = cpu;
	ev.ts_ns = ts;
	ev.u.lost.count = count;
	return ev;
}

static void test_rotation_and_losses(void **state)
{
	struct rt_ctf_env env = { .hostname = "box", .kernel = "6.1.0-test",
				  .module_version = "0.1.0",
				  .wall_offset_ns = 1700000000123456789ll };
	struct packet p[64];
	struct rt_ctf c;
	struct stat st;
	unsigned char *b;
	char *meta;
	size_t len;
	int n, i;

	(void)state;
	fresh_dir();
	rm_trace();
	assert_int_equal(rt_ctf_open(&c, dir, RT_CTF_PACKET_MIN, &env), 0);
	/* Nothing under the final name until it is complete. */
	assert_int_not_equal(stat(dir, &st), 0);
	for (i = 0; i < 100; i++) {
		struct rt_event ev = read_ev(1, 1000 + (uint64_t)i * 10);

		rt_ctf_add(&c, &ev);
		if (i == 49) {
			struct rt_event l = lost_ev(1, 1495, 7);

			rt_ctf_add(&c, &l);
		}
	}
	{
		/* After the last event: an empty packet carries it. */
		struct rt_event l = lost_ev(1, 5000, 3);
		struct rt_event e0 = read_ev(0, 10);

		rt_ctf_add(&c, &l);
		rt_ctf_add(&c, &e0);
	}
	assert_int_equal(c.events, 101);
	assert_int_equal(c.discarded, 10);
	assert_int_equal(rt_ctf_close(&c), 0);
	assert_int_equal(stat(dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));

	b = slurp("stream_cpu1", &len);
	n = packets(b, len, c.uuid, p, 64);
	/* 512-byte packets hold a few events each: it rotated. */
	assert_true(n > 10);
	for (i = 0; i < n; i++) {
		assert_int_equal(p[i].cpu, 1);
		assert_true(p[i].size / 8 <= RT_CTF_PACKET_MIN);
		if (i)
			assert_true(p[i].begin >= p[i - 1].end);
	}
	/* The loss after event 49 (ts 1490): the packet holding it ends
	 * there, and every later one counts the 7. */
	for (i = 0; i < n && p[i].end <= 1490; i++)
		assert_int_equal(p[i].discarded, 0);
	assert_true(i > 0 && p[i - 1].end == 1490);
	for (; i < n - 1; i++)
		assert_int_equal(p[i].discarded, 7);
	/* The last packet: empty, at the loss, with the running 10. */
	assert_int_equal(p[n - 1].size / 8, HDR + CTX);
	assert_int_equal(p[n - 1].discarded, 10);
	assert_int_equal(p[n - 1].begin, 5000);

	b = slurp("stream_cpu0", &len);
	assert_int_equal(packets(b, len, c.uuid, p, 64), 1);
	assert_int_equal(p[0].cpu, 0);
	assert_int_equal(p[0].begin, 10);
	/* The event: id 0, its time, pid, tid, comm, ..., the path. */
	assert_true(memmem(b, len, "cat", 4) != NULL);
	assert_true(memmem(b, len, "/etc/services", 14) != NULL);

	meta = (char *)slurp("metadata", &len);
	assert_non_null(strstr(meta, "/* CTF 1.8 */"));
	assert_non_null(strstr(meta, "hostname = \"box\";"));
	assert_non_null(strstr(meta, "kernel_release = \"6.1.0-test\";"));
	assert_non_null(strstr(meta, "offset_s = 1700000000;"));
	assert_non_null(strstr(meta, "offset = 123456789;"));
	assert_non_null(strstr(meta, "events_discarded;"));
	assert_non_null(strstr(meta, "name = \"vfs_read\";"));
	assert_non_null(strstr(meta, "string path;"));
	rm_trace();
}

static void test_counters_row_stream(void **state)
{
	static const char *const names[] = { "task-clock" };
	struct rt_counter_value v;
	struct rt_event ev;
	struct rt_ctf c;
	unsigned char *b;
	size_t len;

	(void)state;
	fresh_dir();
	rm_trace();
	memset(&v, 0, sizeof(v));
	v.value = 12345;
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_COUNTERS;
	ev.cpu = RT_EVENT_CPU_ANY;
	ev.ts_ns = 99;
	ev.u.counters.target_pid = 42;
	ev.u.counters.nr = 1;
	ev.u.counters.names = names;
	ev.u.counters.values = &v;
	assert_int_equal(rt_ctf_open(&c, dir, RT_CTF_PACKET_DEFAULT, NULL), 0);
	rt_ctf_add(&c, &ev);
	assert_int_equal(rt_ctf_close(&c), 0);
	b = slurp("stream_task", &len);
	assert_non_null(memmem(b, len, "task-clock", 11));
	rm_trace();
}

/* A reader of one event's fields, in the metadata's order. */
struct cursor {
	const unsigned char	*p;
};

static uint64_t take(struct cursor *c, size_t n)
{
	uint64_t v = 0;

	memcpy(&v, c->p, n);	/* little-endian hosts only, like the rest */
	c->p += n;
	return v;
}

static const char *take_str(struct cursor *c)
{
	const char *s = (const char *)c->p;

	c->p += strlen(s) + 1;
	return s;
}

/* id, ts, pid, tid, comm: the start of every event but counters. */
static void take_head(struct cursor *c, uint16_t id, uint64_t ts)
{
	assert_int_equal(take(c, 2), id);
	assert_int_equal(take(c, 8), ts);
	assert_int_equal(take(c, 4), 42);
	assert_int_equal(take(c, 4), 42);
	assert_string_equal(take_str(c), "cat");
}

/* task_ext: host_pid, host_tid, cgroup_id, cgroup. */
static void take_ext(struct cursor *c, uint32_t hp, uint32_t ht, uint64_t id,
		     const char *cgroup)
{
	assert_int_equal(take(c, 4), hp);
	assert_int_equal(take(c, 4), ht);
	assert_int_equal(take(c, 8), id);
	assert_string_equal(take_str(c), cgroup);
}

/* A vfs_read event from dev to path; @off 0: no off-CPU time. */
static void take_read(struct cursor *c, uint64_t off, const char *path)
{
	assert_int_equal(take(c, 4), 0);		/* dev_major */
	assert_int_equal(take(c, 4), 0);		/* dev_minor */
	assert_int_equal(take(c, 8), 7);		/* ino */
	assert_int_equal(take(c, 8), 0);		/* pos */
	assert_int_equal(take(c, 8), 4096);		/* count */
	assert_int_equal(take(c, 8), 100);		/* ret */
	assert_int_equal(take(c, 8), 1000);		/* lat_ns */
	assert_int_equal(take(c, 8), off);		/* offcpu_ns */
	assert_int_equal(take(c, 8), off / 2);		/* offcpu_max_ns */
	assert_int_equal(take(c, 8), off ? 950 : 0);	/* offcpu_max_ts */
	assert_string_equal(take_str(c), path);
}

static void test_offcpu_and_cgroup(void **state)
{
	static const unsigned char kframes[16] = { 0x10, 0, 0, 0x81, 0xff, 0xff,
						   0xff, 0xff, 0x20, 0, 0,
						   0x81, 0xff, 0xff, 0xff,
						   0xff };
	struct rt_event off, rd, old, lk;
	struct cursor cur;
	struct rt_ctf c;
	unsigned char *b;
	size_t len;
	char *meta;

	(void)state;
	fresh_dir();
	rm_trace();
	memset(&off, 0, sizeof(off));
	off.kind = RT_EVENT_OFFCPU;
	off.cpu = 0;
	off.ts_ns = 900;
	off.pid = off.tid = 42;
	strcpy(off.comm, "cat");
	off.u.offcpu.offcpu_ns = 5000;
	off.u.offcpu.cpu_out = 3;
	off.u.offcpu.state = RINGTRACE_OFFCPU_DISK;
	off.stack.kernel = kframes;
	off.stack.nr_kernel = 2;
	off.ext.present = true;
	off.ext.host_pid = 4242;
	off.ext.host_tid = 4244;
	off.ext.cgroup_id = 77;
	off.ext.cgroup = "/system.slice/x.service";
	rd = read_ev(0, 1000);
	rd.u.vfs_read.offcpu_known = true;
	rd.u.vfs_read.offcpu_ns = 60;
	rd.u.vfs_read.offcpu_max_ns = 30;
	rd.u.vfs_read.offcpu_max_ts = 950;
	rd.ext.present = true;
	rd.ext.host_pid = 4242;
	rd.ext.host_tid = 4243;
	rd.ext.cgroup_id = 77;
	rd.ext.cgroup = "/system.slice/x.service";
	/* An older recording's read: no off-CPU time, no task_ext. */
	old = read_ev(0, 1100);
	old.u.vfs_read.offcpu_ns = 99;		/* not measured: not written */
	old.ext.cgroup_id = 99;			/* not present: not written */
	memset(&lk, 0, sizeof(lk));
	lk.kind = RT_EVENT_LOCK;
	lk.cpu = 0;
	lk.ts_ns = 1200;
	lk.pid = lk.tid = 42;
	strcpy(lk.comm, "cat");
	strcpy(lk.u.lock.name, "l");
	lk.u.lock.lock_id = 5;
	/* A cgroup no record named (and no path table): empty path. */
	lk.ext.present = true;
	lk.ext.host_pid = 1;
	lk.ext.host_tid = 2;
	lk.ext.cgroup_id = 88;

	assert_int_equal(rt_ctf_open(&c, dir, RT_CTF_PACKET_DEFAULT, NULL), 0);
	rt_ctf_add(&c, &off);
	rt_ctf_add(&c, &rd);
	rt_ctf_add(&c, &old);
	rt_ctf_add(&c, &lk);
	assert_int_equal(c.events, 4);
	assert_int_equal(rt_ctf_close(&c), 0);
	b = slurp("stream_cpu0", &len);
	cur.p = b + HDR + CTX;

	take_head(&cur, 4, 900);			/* offcpu */
	assert_int_equal(take(&cur, 8), 5000);
	assert_string_equal(take_str(&cur), "D");
	assert_int_equal(take(&cur, 4), 3);		/* cpu_out */
	assert_int_equal(take(&cur, 4), 0);		/* cpu_in */
	take_ext(&cur, 4242, 4244, 77, "/system.slice/x.service");
	assert_int_equal(take(&cur, 2), 2);
	assert_memory_equal(cur.p, kframes, 16);
	cur.p += 16;
	assert_int_equal(take(&cur, 2), 0);

	take_head(&cur, 0, 1000);			/* vfs_read */
	take_read(&cur, 60, "/etc/services");
	take_ext(&cur, 4242, 4243, 77, "/system.slice/x.service");
	assert_int_equal(take(&cur, 2), 0);
	assert_int_equal(take(&cur, 2), 0);

	take_head(&cur, 0, 1100);			/* the older read */
	take_read(&cur, 0, "/etc/services");
	take_ext(&cur, 0, 0, 0, "");
	assert_int_equal(take(&cur, 2), 0);
	assert_int_equal(take(&cur, 2), 0);

	take_head(&cur, 1, 1200);			/* lock */
	assert_string_equal(take_str(&cur), "l");
	assert_int_equal(take(&cur, 8), 5);
	cur.p += 8 + 8 + 3;				/* wait, hold, flags */
	take_ext(&cur, 1, 2, 88, "");
	assert_int_equal(take(&cur, 2), 0);
	assert_int_equal(take(&cur, 2), 0);
	assert_true(cur.p == b + len);

	meta = (char *)slurp("metadata", &len);
	assert_non_null(strstr(meta, "name = \"offcpu\";\n\tid = 4;"));
	assert_non_null(strstr(meta, "string state;"));
	assert_non_null(strstr(meta, "uint64_t offcpu_max_ts;"));
	assert_non_null(strstr(meta, "string cgroup;"));
	rm_trace();
}

static void test_func_event(void **state)
{
	static const char names[1][RINGTRACE_FUNC_NAME_LEN] = { "vfs_write" };
	struct rt_event ev, unnamed;
	struct cursor cur;
	struct rt_ctf c;
	unsigned char *b;
	size_t len;
	char *meta;

	(void)state;
	fresh_dir();
	rm_trace();
	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_FUNC;
	ev.cpu = 0;
	ev.ts_ns = 2000;
	ev.pid = ev.tid = 42;
	strcpy(ev.comm, "cat");
	ev.u.func.ip = 0xffffffff81400004ull;
	ev.u.func.ret = -4;
	ev.u.func.lat_ns = 1500;
	ev.u.func.nr_args = 2;
	ev.u.func.args[0] = 3;
	ev.u.func.args[1] = 0x1234;
	ev.ext.present = true;
	ev.ext.host_pid = 1;
	ev.ext.host_tid = 2;
	ev.ext.cgroup_id = 9;
	/* A replay without symbols: the function in hex. */
	unnamed = ev;
	unnamed.ts_ns = 2100;
	unnamed.u.func.idx = 3;
	unnamed.u.func.nr_args = 0;
	unnamed.ext.present = false;

	rt_output_set_func_names(names, 1);
	assert_int_equal(rt_ctf_open(&c, dir, RT_CTF_PACKET_DEFAULT, NULL), 0);
	rt_ctf_add(&c, &ev);
	rt_ctf_add(&c, &unnamed);
	assert_int_equal(c.events, 2);
	assert_int_equal(rt_ctf_close(&c), 0);
	rt_output_set_func_names(NULL, 0);
	b = slurp("stream_cpu0", &len);
	cur.p = b + HDR + CTX;

	take_head(&cur, 5, 2000);
	assert_string_equal(take_str(&cur), "vfs_write");
	assert_true(take(&cur, 8) == 0xffffffff81400004ull);
	assert_true(take(&cur, 8) == (uint64_t)-4);	/* ret */
	assert_int_equal(take(&cur, 8), 1500);		/* lat_ns */
	assert_int_equal(take(&cur, 4), 2);		/* nr_args */
	assert_int_equal(take(&cur, 8), 3);
	assert_int_equal(take(&cur, 8), 0x1234);
	take_ext(&cur, 1, 2, 9, "");
	assert_int_equal(take(&cur, 2), 0);
	assert_int_equal(take(&cur, 2), 0);

	take_head(&cur, 5, 2100);
	assert_string_equal(take_str(&cur), "0xffffffff81400004");
	cur.p += 8 + 8 + 8;				/* ip, ret, lat */
	assert_int_equal(take(&cur, 4), 0);		/* nr_args */
	take_ext(&cur, 0, 0, 0, "");
	assert_int_equal(take(&cur, 2), 0);
	assert_int_equal(take(&cur, 2), 0);
	assert_true(cur.p == b + len);

	meta = (char *)slurp("metadata", &len);
	assert_non_null(strstr(meta, "name = \"func\";\n\tid = 5;"));
	assert_non_null(strstr(meta, "\t\tstring func;\n\t\thex64_t func_ip;\n"
				     "\t\tint64_t ret;\n\t\tuint64_t lat_ns;\n"
				     "\t\tuint32_t nr_args;\n"
				     "\t\thex64_t args[nr_args];\n"));
	rm_trace();
}

static struct rt_event func_rec(uint32_t idx, uint64_t ts, uint32_t nr)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_FUNC;
	ev.ts_ns = ts;
	ev.pid = ev.tid = 42;
	strcpy(ev.comm, "cat");	/* as take_head() has it */
	ev.u.func.idx = idx;
	ev.u.func.ip = 0xffffffff81400004ull;
	ev.u.func.nr_args = nr;
	return ev;
}

/* After the generic fields of an event with @nr raw arguments. */
static void skip_func(struct cursor *cur, uint16_t id, uint64_t ts,
		      const char *name, uint32_t nr)
{
	take_head(cur, id, ts);
	assert_string_equal(take_str(cur), name);
	cur->p += 8 + 8 + 8;				/* ip, ret, lat */
	assert_int_equal(take(cur, 4), nr);
	cur->p += 8 * nr;
	take_ext(cur, 0, 0, 0, "");
	assert_int_equal(take(cur, 2), 0);
	assert_int_equal(take(cur, 2), 0);
}

static void test_func_classes(void **state)
{
	static const char names[3][RINGTRACE_FUNC_NAME_LEN] = {
		"tp:signal:signal_generate", "do_thing", "other",
	};
	static const struct rt_func_arg_descs descs[3] = {
		SIGNAL_GENERATE_ARGS,
		{ .nr_args = 2, .arg = {
			{ .name = "ret", .size = 2, .is_signed = 1 },
			{ .name = "size", .size = 8 },
		} },
		{ .nr_args = 0 },
	};
	struct rt_event tp = func_rec(0, 1000, 5);
	struct rt_event fn = func_rec(1, 1100, 2);
	struct rt_event other = func_rec(2, 1200, 1);
	struct rt_event fewer = func_rec(1, 1300, 1);
	struct cursor cur;
	struct rt_ctf c;
	unsigned char *b;
	size_t len;
	char *meta;

	(void)state;
	fresh_dir();
	rm_trace();
	tp.u.func.args[0] = 0xfffffffffffffff9ull;	/* int -7 */
	tp.u.func.args[1] = 0xffff888000001000ull;
	tp.u.func.args[2] = 0xffff888000002000ull;
	tp.u.func.args[3] = 0x100000000ull;		/* int 0 */
	tp.u.func.args[4] = 2;
	fn.u.func.args[0] = 0x1fffe;			/* s16 -2 */
	fn.u.func.args[1] = 4096;
	rt_output_set_func_names(names, 3);
	rt_output_set_func_args(descs, 3);
	assert_int_equal(rt_ctf_open(&c, dir, RT_CTF_PACKET_DEFAULT, NULL), 0);
	rt_ctf_add(&c, &tp);
	rt_ctf_add(&c, &fn);
	rt_ctf_add(&c, &other);
	rt_ctf_add(&c, &fewer);
	assert_int_equal(rt_ctf_close(&c), 0);
	rt_output_set_func_names(NULL, 0);
	rt_output_set_func_args(NULL, 0);

	b = slurp("stream_cpu0", &len);
	cur.p = b + HDR + CTX;
	skip_func(&cur, 6, 1000, "tp:signal:signal_generate", 5);
	assert_int_equal(take(&cur, 4), (uint32_t)-7);	/* sig, 4 bytes */
	assert_true(take(&cur, 8) == 0xffff888000001000ull);
	assert_true(take(&cur, 8) == 0xffff888000002000ull);
	assert_int_equal(take(&cur, 4), 0);		/* group */
	assert_int_equal(take(&cur, 4), 2);		/* result */
	skip_func(&cur, 7, 1100, "do_thing", 2);
	assert_int_equal(take(&cur, 2), 0xfffe);	/* ret: s16 -2 */
	assert_int_equal(take(&cur, 8), 4096);
	skip_func(&cur, 5, 1200, "other", 1);		/* undescribed */
	skip_func(&cur, 5, 1300, "do_thing", 1);	/* not its class's */
	assert_true(cur.p == b + len);

	meta = (char *)slurp("metadata", &len);
	assert_non_null(strstr(meta, "name = \"func\";\n\tid = 5;"));
	assert_non_null(strstr(meta, "name = \"tp:signal:signal_generate\";\n"
				     "\tid = 6;"));
	assert_non_null(strstr(meta, "\t\thex64_t ustack[nr_ustack];\n"
				     "\t\tinteger { size = 32; align = 8; "
				     "signed = true; } _sig;\n"
				     "\t\thex64_t _info;\n\t\thex64_t _task;\n"
				     "\t\tinteger { size = 32; align = 8; "
				     "signed = true; } _group;\n"));
	assert_non_null(strstr(meta, "name = \"func:do_thing\";\n\tid = 7;"));
	assert_non_null(strstr(meta, "\t\tinteger { size = 16; align = 8; "
				     "signed = true; } _arg0_ret;\n"
				     "\t\tinteger { size = 64; align = 8; "
				     "signed = false; } _size;\n\t};\n};\n"));
	assert_null(strstr(meta, "func:other"));
	rm_trace();
}

static void test_atomic(void **state)
{
	struct rt_event ev = read_ev(0, 1);
	struct rt_ctf c;
	struct stat st;
	DIR *d;
	struct dirent *e;
	int hidden = 0;

	(void)state;
	fresh_dir();
	rm_trace();
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(rt_ctf_open(&c, dir, 0, NULL), -EEXIST);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(rt_ctf_open(&c, dir, 0, NULL), 0);
	rt_ctf_add(&c, &ev);
	rt_ctf_abort(&c);
	assert_int_not_equal(stat(dir, &st), 0);
	/* Neither the trace nor its hidden working directory is left. */
	d = opendir("/tmp");
	assert_non_null(d);
	while ((e = readdir(d)))
		hidden += strstr(e->d_name, strrchr(dir, '/') + 1) &&
			  strstr(e->d_name, ".ctf-");
	closedir(d);
	assert_int_equal(hidden, 0);
}

int main(void)
{
	RUN(cmocka_unit_test(test_rotation_and_losses),
	    cmocka_unit_test(test_counters_row_stream),
	    cmocka_unit_test(test_offcpu_and_cgroup),
	    cmocka_unit_test(test_func_event),
	    cmocka_unit_test(test_func_classes),
	    cmocka_unit_test(test_atomic));
}
