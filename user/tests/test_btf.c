// SPDX-License-Identifier: GPL-2.0-only
/*
 * A tracepoint's prototype from raw BTF: small BTF blobs built here, one
 * type at a time, written to a temporary file and read back. Arguments
 * through typedef/const/volatile/restrict/type_tag chains, names from
 * __bpf_trace_NAME, __probestub_NAME or arg0.., a tracepoint that is not
 * there, arguments a generic probe cannot take, and broken files: cut at
 * every length, every byte of a valid one changed, wrong magic, loops;
 * none may be read out of bounds (make test-asan). One handle reads its
 * file once, whatever it is asked after. Then the check of -e tp: names
 * built on it (tracepoints.c), against a blob and a tracefs events folder
 * of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/btf.h"
#include "ringtrace/sys.h"
#include "ringtrace/tracepoints.h"

/* The raw format (Documentation/bpf/btf.rst). */
enum {
	INT = 1, PTR, ARRAY, STRUCT, UNION, ENUM, FWD, TYPEDEF, VOLATILE,
	CONST, RESTRICT, FUNC, FUNC_PROTO, VAR, DATASEC, FLOAT, DECL_TAG,
	TYPE_TAG, ENUM64,
};

#define INT_SIGNED	1u
#define INT_BOOL	4u
#define HDR_LEN		24

struct blob {
	uint8_t		types[8192];
	uint32_t	tlen;
	char		strs[4096];
	uint32_t	slen;
	uint32_t	nr;		/* the last id given */
	uint32_t	str_base;	/* a split BTF's: its base's slen */
};

static void put32(struct blob *b, uint32_t v)
{
	assert_true(b->tlen + 4 <= sizeof(b->types));
	memcpy(b->types + b->tlen, &v, 4);
	b->tlen += 4;
}

static uint32_t str(struct blob *b, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t off = b->slen;

	if (!*s)
		return 0;
	assert_true(b->slen + n <= sizeof(b->strs));
	memcpy(b->strs + b->slen, s, n);
	b->slen += (uint32_t)n;
	return b->str_base + off;
}

static void blob_init(struct blob *b)
{
	memset(b, 0, sizeof(*b));
	b->slen = 1;		/* the empty string at offset 0 */
}

/* A module's split BTF on @base: ids and strings go on from the base's. */
static void blob_init_split(struct blob *b, const struct blob *base)
{
	memset(b, 0, sizeof(*b));
	b->nr = base->nr;
	b->str_base = base->slen;
}

/* A type's 12 bytes; what follows is put32()'s. Returns its id. */
static uint32_t type(struct blob *b, const char *name, uint32_t kind,
		     uint32_t vlen, bool kflag, uint32_t size_type)
{
	put32(b, str(b, name));
	put32(b, kind << 24 | vlen | (uint32_t)kflag << 31);
	put32(b, size_type);
	return ++b->nr;
}

static uint32_t int_type(struct blob *b, const char *name, uint32_t size,
			 uint32_t enc)
{
	uint32_t id = type(b, name, INT, 0, false, size);

	put32(b, enc << 24 | size * 8);
	return id;
}

/* A FUNC_PROTO returning void; names NULL: unnamed parameters. */
static uint32_t proto(struct blob *b, uint32_t n, const uint32_t *types,
		      const char *const *names)
{
	uint32_t id = type(b, "", FUNC_PROTO, n, false, 0);

	for (uint32_t i = 0; i < n; i++) {
		put32(b, names ? str(b, names[i]) : 0);
		put32(b, types[i]);
	}
	return id;
}

/* typedef void (*btf_trace_NAME)(void *__data, args...). */
static uint32_t tracepoint(struct blob *b, const char *name, uint32_t voidp,
			   uint32_t n, const uint32_t *args)
{
	uint32_t types[24], p;
	char tname[64];

	assert_true(n < 24);
	types[0] = voidp;
	memcpy(types + 1, args, n * sizeof(*args));
	p = proto(b, n + 1, types, NULL);
	p = type(b, "", PTR, 0, false, p);
	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	return type(b, tname, TYPEDEF, 0, false, p);
}

/* FUNC PREFIX NAME(void *__data, args...) with named parameters. */
static void named_func(struct blob *b, const char *prefix, const char *name,
		       uint32_t voidp, uint32_t n, const uint32_t *args,
		       const char *const *names)
{
	uint32_t types[24], p;
	const char *all[24];
	char fname[64];

	assert_true(n < 24);
	types[0] = voidp;
	all[0] = "__data";
	memcpy(types + 1, args, n * sizeof(*args));
	memcpy(all + 1, names, n * sizeof(*names));
	p = proto(b, n + 1, types, all);
	snprintf(fname, sizeof(fname), "%s%s", prefix, name);
	type(b, fname, FUNC, 0, false, p);
}

#define bpf_trace(b, ...)	named_func(b, "__bpf_trace_", __VA_ARGS__)
#define probestub(b, ...)	named_func(b, "__probestub_", __VA_ARGS__)

/* Header, types, strings: the file's bytes into @out; returns the size. */
static size_t blob_bytes(const struct blob *b, uint8_t *out, size_t cap)
{
	uint32_t hdr[6] = { 0, HDR_LEN, 0, b->tlen, b->tlen, b->slen };
	uint16_t magic = 0xeb9f;
	size_t len = HDR_LEN + b->tlen + b->slen;

	assert_true(len <= cap);
	memcpy(hdr, &magic, 2);
	((uint8_t *)hdr)[2] = 1;	/* version */
	memcpy(out, hdr, HDR_LEN);
	memcpy(out + HDR_LEN, b->types, b->tlen);
	memcpy(out + HDR_LEN + b->tlen, b->strs, b->slen);
	return len;
}

static char path[64];

static void touch(const char *at)
{
	int fd = creat(at, 0644);

	assert_true(fd >= 0);
	close(fd);
}

static void write_file(const uint8_t *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static int setup(void **state)
{
	int fd;

	(void)state;
	strcpy(path, "/tmp/test_btf.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static struct rt_func_arg_descs tp;
static char err[512];

/* @name looked up in the file at @at, by a handle of its own. */
static int lookup_in(const char *at, const char *name)
{
	struct rt_btf *btf = rt_btf_open(at);
	int ret;

	assert_non_null(btf);
	memset(&tp, 0xa5, sizeof(tp));
	memset(err, 0, sizeof(err));
	ret = rt_btf_tracepoint(btf, name, &tp, err, sizeof(err));
	rt_btf_close(btf);
	return ret;
}

static int lookup(const char *name)
{
	return lookup_in(path, name);
}

static uint8_t file[16384];

/*
 * The blob most tests read: tracepoint "demo" with int, bool, u64 (a
 * typedef under const), const struct pointer, enum (typedef), signed
 * enum64 and volatile/restrict/type_tag chains; FUNC __bpf_trace_demo
 * names them. "nonames" has no such FUNC, "mismatch" one with another
 * count; "bystruct", "byunion", "byfloat", "wide" and "late" are refused.
 * Kinds no tracepoint uses (ARRAY, VAR, DATASEC, FWD, DECL_TAG) sit
 * between them, so that each kind's data is skipped by its own size.
 */
static size_t demo_blob(void)
{
	uint32_t i32, b8, u64, cu64, task, ptask, st, voidp, e64, vol, x, un;
	uint32_t arr, fl, wide;
	struct blob b;

	blob_init(&b);
	i32 = int_type(&b, "int", 4, INT_SIGNED);
	b8 = int_type(&b, "_Bool", 1, INT_BOOL);
	u64 = int_type(&b, "long long unsigned int", 8, 0);
	u64 = type(&b, "u64", TYPEDEF, 0, false, u64);
	cu64 = type(&b, "", CONST, 0, false, u64);
	task = type(&b, "task_struct", STRUCT, 2, false, 16);
	put32(&b, str(&b, "pid")), put32(&b, i32), put32(&b, 0);
	put32(&b, str(&b, "prio")), put32(&b, i32), put32(&b, 32);
	arr = type(&b, "", ARRAY, 0, false, 0);
	put32(&b, i32), put32(&b, i32), put32(&b, 16);
	x = type(&b, "", CONST, 0, false, task);
	ptask = type(&b, "", PTR, 0, false, x);
	st = type(&b, "demo_state", ENUM, 2, false, 4);
	put32(&b, str(&b, "DEMO_A")), put32(&b, 0);
	put32(&b, str(&b, "DEMO_B")), put32(&b, 1);
	st = type(&b, "demo_state_t", TYPEDEF, 0, false, st);
	voidp = type(&b, "", PTR, 0, false, 0);
	type(&b, "demo_var", VAR, 0, false, i32);
	put32(&b, 1);
	type(&b, ".data", DATASEC, 1, false, 4);
	put32(&b, b.nr), put32(&b, 0), put32(&b, 4);
	e64 = type(&b, "demo_big", ENUM64, 1, true, 8);
	put32(&b, str(&b, "DEMO_BIG")), put32(&b, 1), put32(&b, 0x80000000);
	type(&b, "demo_fwd", FWD, 0, false, 0);
	vol = type(&b, "", VOLATILE, 0, false, i32);
	vol = type(&b, "", RESTRICT, 0, false, vol);
	vol = type(&b, "user", TYPE_TAG, 0, false, vol);
	un = type(&b, "demo_union", UNION, 1, false, 8);
	put32(&b, str(&b, "u")), put32(&b, u64), put32(&b, 0);
	type(&b, "demo_tag", DECL_TAG, 0, false, task);
	put32(&b, (uint32_t)-1);
	fl = type(&b, "double", FLOAT, 0, false, 8);
	wide = int_type(&b, "__int128", 16, INT_SIGNED);

	static const char *const names[] = {
		"cpu", "preempt", "delay", "prev", "state", "big", "flags",
	};
	uint32_t args[] = { i32, b8, cu64, ptask, st, e64, vol };

	tracepoint(&b, "demo", voidp, 7, args);
	bpf_trace(&b, "demo", voidp, 7, args, names);
	tracepoint(&b, "nonames", voidp, 2, args);
	tracepoint(&b, "mismatch", voidp, 2, args);
	bpf_trace(&b, "mismatch", voidp, 1, args, names);
	/* A FUNC of that name with no typedef is no tracepoint. */
	bpf_trace(&b, "orphan", voidp, 1, args, names);
	/* An event of a class: its own __probestub_NAME (6.4 on). */
	tracepoint(&b, "stubbed", voidp, 2, args);
	probestub(&b, "stubbed", voidp, 2, args, names + 1);
	tracepoint(&b, "both", voidp, 2, args);
	bpf_trace(&b, "both", voidp, 1, args, names);
	probestub(&b, "both", voidp, 2, args, (const char *const[]){
		"ok", "not an identifier" });

	tracepoint(&b, "bystruct", voidp, 2, (uint32_t[]){ i32, task });
	bpf_trace(&b, "bystruct", voidp, 2, (uint32_t[]){ i32, task },
		  (const char *const[]){ "cpu", "task" });
	tracepoint(&b, "byunion", voidp, 1, (uint32_t[]){ un });
	tracepoint(&b, "byfloat", voidp, 1, (uint32_t[]){ fl });
	tracepoint(&b, "byarray", voidp, 1, (uint32_t[]){ arr });
	tracepoint(&b, "wide", voidp, 1, (uint32_t[]){ wide });
	/* More than a description keeps; "late"'s last by value. */
	uint32_t many[RT_FUNC_ARG_DESCS + 2];
	for (size_t i = 0; i < RT_FUNC_ARG_DESCS + 2; i++)
		many[i] = i32;
	tracepoint(&b, "many", voidp, RT_FUNC_ARG_DESCS + 2, many);
	many[RT_FUNC_ARG_DESCS + 1] = task;
	tracepoint(&b, "late", voidp, RT_FUNC_ARG_DESCS + 2, many);
	/* Two FUNCs of one name (static functions of two files). */
	named_func(&b, "", "twice", voidp, 1, args, names);
	named_func(&b, "", "twice", voidp, 2, args, names);
	return blob_bytes(&b, file, sizeof(file));
}

static void expect_arg(uint32_t i, const char *name, uint32_t size,
		       bool is_ptr, bool is_signed)
{
	assert_string_equal(tp.arg[i].name, name);
	assert_int_equal(tp.arg[i].size, size);
	assert_int_equal(tp.arg[i].is_ptr, is_ptr);
	assert_int_equal(tp.arg[i].is_signed, is_signed);
}

static void test_args_through_chains(void **state)
{
	(void)state;
	write_file(file, demo_blob());
	assert_int_equal(lookup("demo"), 0);
	assert_int_equal(tp.nr_args, 7);
	expect_arg(0, "cpu", 4, false, true);
	expect_arg(1, "preempt", 1, false, false);
	expect_arg(2, "delay", 8, false, false);
	expect_arg(3, "prev", 8, true, false);
	expect_arg(4, "state", 4, false, false);
	expect_arg(5, "big", 8, false, true);
	expect_arg(6, "flags", 4, false, true);
	/* Unused slots are zeroed, not left as they were. */
	assert_int_equal(tp.arg[7].size, 0);
	assert_string_equal(tp.arg[7].name, "");

	/* More arguments than a record shows: the first are described. */
	assert_int_equal(lookup("many"), 0);
	assert_int_equal(tp.nr_args, RT_FUNC_ARG_DESCS);
	expect_arg(RT_FUNC_ARG_DESCS - 1, "arg7", 4, false, true);
}

/*
 * No __bpf_trace_NAME (an event made from a class), or another count, and
 * no __probestub_NAME (before 6.4).
 */
static void test_names_without_bpf_trace(void **state)
{
	(void)state;
	write_file(file, demo_blob());
	assert_int_equal(lookup("nonames"), 0);
	assert_int_equal(tp.nr_args, 2);
	expect_arg(0, "arg0", 4, false, true);
	expect_arg(1, "arg1", 1, false, false);
	assert_int_equal(lookup("mismatch"), 0);
	assert_int_equal(tp.nr_args, 2);
	expect_arg(0, "arg0", 4, false, true);
	expect_arg(1, "arg1", 1, false, false);
}

/* __probestub_NAME's names, where __bpf_trace_NAME has none to give. */
static void test_names_from_probestub(void **state)
{
	(void)state;
	write_file(file, demo_blob());
	assert_int_equal(lookup("stubbed"), 0);
	assert_int_equal(tp.nr_args, 2);
	expect_arg(0, "preempt", 4, false, true);
	expect_arg(1, "delay", 1, false, false);
	/* __bpf_trace_both has one parameter too few; a name that is no C
	 * identifier is not taken. */
	assert_int_equal(lookup("both"), 0);
	expect_arg(0, "ok", 4, false, true);
	expect_arg(1, "arg1", 1, false, false);
}

static void test_not_found(void **state)
{
	(void)state;
	write_file(file, demo_blob());
	assert_int_equal(lookup("sched_switch"), -ENOENT);
	assert_non_null(strstr(err, "sched_switch"));
	assert_non_null(strstr(err, path));
	assert_null(strchr(err, '\n'));
	/* A prefix of a tracepoint's name, and a FUNC alone, are not one. */
	assert_int_equal(lookup("dem"), -ENOENT);
	assert_int_equal(lookup("demo_"), -ENOENT);
	assert_int_equal(lookup("orphan"), -ENOENT);
	assert_int_equal(lookup(""), -ENOENT);
	assert_int_equal(lookup("sched:sched_switch"), -ENOENT);
	assert_int_equal(lookup("demo\n"), -ENOENT);
	assert_null(strchr(err, '\n'));
	assert_int_equal(tp.nr_args, 0);
}

/* A register cannot hold these: refused, naming the argument. */
static void test_refused_arguments(void **state)
{
	(void)state;
	write_file(file, demo_blob());
	assert_int_equal(lookup("bystruct"), -EOPNOTSUPP);
	assert_non_null(strstr(err, "struct task_struct by value"));
	assert_non_null(strstr(err, "argument 1 (task)"));
	assert_int_equal(tp.nr_args, 0);
	assert_int_equal(lookup("byunion"), -EOPNOTSUPP);
	assert_non_null(strstr(err, "union demo_union"));
	assert_int_equal(lookup("byfloat"), -EOPNOTSUPP);
	assert_non_null(strstr(err, "floating-point"));
	assert_int_equal(lookup("byarray"), -EOPNOTSUPP);
	assert_non_null(strstr(err, "array"));
	assert_int_equal(lookup("wide"), -EOPNOTSUPP);
	assert_non_null(strstr(err, "16 bytes wide"));
	/* Past what a description keeps, every argument is still checked. */
	assert_int_equal(lookup("late"), -EOPNOTSUPP);
	assert_non_null(strstr(err, "argument 9 (arg9) is struct task_struct"));
	assert_int_equal(tp.nr_args, 0);
}

static void test_no_file(void **state)
{
	char missing[80];

	(void)state;
	snprintf(missing, sizeof(missing), "%s.missing", path);
	assert_int_equal(lookup_in(missing, "demo"), -ENODATA);
	assert_non_null(strstr(err, missing));
	/* A directory opens but cannot be read. */
	assert_int_equal(lookup_in("/tmp", "demo"), -ENODATA);
	/* Without room for a message it still fails the same. */
	struct rt_btf *btf = rt_btf_open(missing);

	assert_int_equal(rt_btf_tracepoint(btf, "demo", &tp, NULL, 0),
			 -ENODATA);
	rt_btf_close(btf);
}

static void test_wrong_magic(void **state)
{
	size_t len;

	(void)state;
	len = demo_blob();
	file[0] ^= 0xff;
	write_file(file, len);
	assert_int_equal(lookup("demo"), -EINVAL);
	assert_non_null(strstr(err, "magic"));

	len = demo_blob();
	uint8_t t = file[0];

	file[0] = file[1];
	file[1] = t;
	write_file(file, len);
	assert_int_equal(lookup("demo"), -EINVAL);
	assert_non_null(strstr(err, "byte order"));

	len = demo_blob();
	file[2] = 2;
	write_file(file, len);
	assert_int_equal(lookup("demo"), -EINVAL);
	assert_non_null(strstr(err, "version 2"));

	write_file(file, 0);
	assert_int_equal(lookup("demo"), -EINVAL);
	assert_non_null(strstr(err, "too short"));
}

/*
 * The demo blob cut at every length: always refused (the sections run
 * past the end), never read beyond what was read. The copy in a buffer
 * of its exact size lets ASan see a read past it; the library reads the
 * file into its own, which ASan sees the same way.
 */
static void test_truncated_every_length(void **state)
{
	size_t len;
	int ret;

	(void)state;
	len = demo_blob();
	for (size_t n = 0; n < len; n++) {
		write_file(file, n);
		ret = lookup("demo");
		if (ret != -EINVAL && ret != -ENOENT)
			fail_msg("cut at %zu of %zu bytes: %d (%s)", n, len,
				 ret, err);
		assert_true(err[0] != '\0');
		assert_null(strchr(err, '\n'));
	}
}

/*
 * The type section alone cut at every length, the header telling the
 * truth: the walk itself must find the type cut short, or a reference
 * past the last type, or no typedef; cut after demo's typedef, demo
 * reads whole (named or not).
 */
static void test_type_section_cut(void **state)
{
	uint32_t tlen, slen;
	size_t len;
	int ret;

	(void)state;
	len = demo_blob();
	memcpy(&tlen, file + 12, 4);
	memcpy(&slen, file + 20, 4);
	assert_int_equal(len, HDR_LEN + tlen + slen);
	for (uint32_t cut = 0; cut < tlen; cut++) {
		static uint8_t copy[sizeof(file)];

		memcpy(copy, file, HDR_LEN + cut);
		memcpy(copy + HDR_LEN + cut, file + HDR_LEN + tlen, slen);
		memcpy(copy + 12, &cut, 4);
		memcpy(copy + 16, &cut, 4);
		write_file(copy, HDR_LEN + cut + slen);
		ret = lookup("demo");
		if (!ret && tp.nr_args == 7 && tp.arg[3].is_ptr)
			continue;
		if (ret != -EINVAL && ret != -ENOENT)
			fail_msg("types cut at %u of %u: %d (%s)", cut, tlen,
				 ret, err);
	}
}

/*
 * Every byte of the blob set to a few values in turn: whatever it then
 * says, the answer is one of the documented ones and nothing is read out
 * of bounds (the test under ASan is the one that shows it).
 */
static void test_every_byte_changed(void **state)
{
	static const uint8_t values[] = { 0x00, 0xff, 0x7f, 0x80, 0x01 };
	static uint8_t copy[sizeof(file)];
	size_t len;
	int ret;

	(void)state;
	len = demo_blob();
	for (size_t i = 0; i < len; i++) {
		for (size_t v = 0; v < sizeof(values); v++) {
			memcpy(copy, file, len);
			if (copy[i] == values[v])
				continue;
			copy[i] = values[v];
			write_file(copy, len);
			ret = lookup("demo");
			if (ret && ret != -EINVAL && ret != -ENOENT &&
			    ret != -EOPNOTSUPP)
				fail_msg("byte %zu = 0x%02x: %d (%s)", i,
					 values[v], ret, err);
			if (ret)
				assert_true(err[0] != '\0');
			else
				assert_true(tp.nr_args <= RT_FUNC_ARG_DESCS);
		}
	}
}

/* A typedef that names itself, and a pointer to something not a function. */
static void test_loops_and_wrong_shapes(void **state)
{
	struct blob b;
	uint32_t t;

	(void)state;
	blob_init(&b);
	t = type(&b, "btf_trace_loop", TYPEDEF, 0, false, 2);
	type(&b, "", CONST, 0, false, t);
	write_file(file, blob_bytes(&b, file, sizeof(file)));
	assert_int_equal(lookup("loop"), -EINVAL);
	assert_non_null(strstr(err, "loop"));

	blob_init(&b);
	t = int_type(&b, "int", 4, INT_SIGNED);
	t = type(&b, "", PTR, 0, false, t);
	type(&b, "btf_trace_notfn", TYPEDEF, 0, false, t);
	type(&b, "btf_trace_far", TYPEDEF, 0, false, 99);
	write_file(file, blob_bytes(&b, file, sizeof(file)));
	assert_int_equal(lookup("notfn"), -EINVAL);
	assert_non_null(strstr(err, "not to a function"));
	assert_int_equal(lookup("far"), -EINVAL);
	assert_non_null(strstr(err, "type 99"));
}

/*
 * Counts and offsets that point past what is there, on the types read
 * last: the type section's last type (a FUNC_PROTO the tracepoint's
 * typedef points forward to) with more parameters than the section
 * holds, a name past the strings, a parameter's name past the strings.
 */
static void test_hostile_counts(void **state)
{
	static const uint16_t vlens[] = { 3, 100, 0xffff };
	uint32_t i32, voidp, at, tdef_at, info;
	struct blob b;
	size_t len;

	(void)state;
	blob_init(&b);
	i32 = int_type(&b, "int", 4, INT_SIGNED);
	voidp = type(&b, "", PTR, 0, false, 0);
	tdef_at = b.tlen;
	type(&b, "btf_trace_tail", TYPEDEF, 0, false, b.nr + 2);
	type(&b, "", PTR, 0, false, b.nr + 2);
	at = b.tlen;
	proto(&b, 2, (uint32_t[]){ voidp, i32 }, NULL);
	len = blob_bytes(&b, file, sizeof(file));
	write_file(file, len);
	assert_int_equal(lookup("tail"), 0);
	expect_arg(0, "arg0", 4, false, true);
	for (size_t v = 0; v < sizeof(vlens) / sizeof(vlens[0]); v++) {
		memcpy(&info, file + HDR_LEN + at + 4, 4);
		info = (info & ~0xffffu) | vlens[v];
		memcpy(file + HDR_LEN + at + 4, &info, 4);
		write_file(file, len);
		assert_int_equal(lookup("tail"), -EINVAL);
		assert_non_null(strstr(err, "past the section's end"));
	}

	/* The typedef's name offset one past the strings. */
	len = blob_bytes(&b, file, sizeof(file));
	memcpy(file + HDR_LEN + tdef_at, &b.slen, 4);
	write_file(file, len);
	assert_int_equal(lookup("tail"), -EINVAL);
	assert_non_null(strstr(err, "name offset"));

	/* __bpf_trace_tail's parameter's name past the strings. */
	bpf_trace(&b, "tail", voidp, 1, (uint32_t[]){ i32 },
		  (const char *const[]){ "cpu" });
	len = blob_bytes(&b, file, sizeof(file));
	write_file(file, len);
	assert_int_equal(lookup("tail"), 0);
	expect_arg(0, "cpu", 4, false, true);
	/* The FUNC_PROTO before the FUNC: its second parameter's name. */
	at = b.tlen - 12 - 2 * 8 + 8;
	memcpy(file + HDR_LEN + at, &b.slen, 4);
	write_file(file, len);
	assert_int_equal(lookup("tail"), -EINVAL);
	assert_non_null(strstr(err, "parameter 1's name offset"));
}

/*
 * A bonus, not the test: the kernel this runs on, where its BTF can be
 * read. The CI machine runs the same kind of kernel, but whether
 * /sys/kernel/btf/vmlinux is there and readable depends on the machine
 * (CONFIG_DEBUG_INFO_BTF, a container's /sys), so the synthetic blobs
 * above are what must pass; this only checks that a real kernel's BTF,
 * every kind in it, reads as they say. sched_switch is
 * (bool preempt, struct task_struct *prev, struct task_struct *next, ...)
 * since 5.18, (preempt, prev, next) before.
 */
static void test_running_kernel(void **state)
{
	int prev = -1, next = -1;

	(void)state;
	if (access(RT_BTF_VMLINUX, R_OK))
		skip();
	assert_int_equal(lookup_in(NULL, "sched_switch"), 0);
	assert_true(tp.nr_args >= 3);
	for (uint32_t i = 0; i < tp.nr_args; i++) {
		if (!strcmp(tp.arg[i].name, "prev"))
			prev = (int)i;
		if (!strcmp(tp.arg[i].name, "next"))
			next = (int)i;
	}
	/* Unnamed (no __bpf_trace_sched_switch): by their places. */
	if (prev < 0 && next < 0) {
		prev = 1;
		next = 2;
	}
	assert_true(prev >= 0 && next >= 0);
	assert_true(tp.arg[prev].is_ptr);
	assert_int_equal(tp.arg[prev].size, 8);
	assert_true(tp.arg[next].is_ptr);
	assert_int_equal(lookup_in(NULL, "no_such_tracepoint"), -ENOENT);
}

/*
 * -e func:NAME's prototypes (rt_btf_func()): every parameter an argument;
 * none where the BTF has no single FUNC of the name or registers cannot
 * carry a parameter. rt_functions_describe() gives them to the printers
 * by index, tracepoints left alone.
 */
static void test_funcs(void **state)
{
	static const char list[3][RINGTRACE_FUNC_NAME_LEN] = {
		"tp:sub:nonames", "__bpf_trace_orphan", "twice",
	};
	struct rt_func_arg_descs descs[3];
	struct rt_btf *btf;

	(void)state;
	write_file(file, demo_blob());
	btf = rt_btf_open(path);
	assert_non_null(btf);
	assert_int_equal(rt_btf_func(btf, "__bpf_trace_demo", &tp, err,
				     sizeof(err)), 0);
	assert_int_equal(tp.nr_args, 8);
	expect_arg(0, "__data", 8, true, false);
	expect_arg(1, "cpu", 4, false, true);
	expect_arg(2, "preempt", 1, false, false);
	expect_arg(4, "prev", 8, true, false);
	expect_arg(7, "flags", 4, false, true);
	/* A struct by value, two of that name, none. */
	assert_int_equal(rt_btf_func(btf, "__bpf_trace_bystruct", &tp, err,
				     sizeof(err)), -EOPNOTSUPP);
	assert_non_null(strstr(err, "function __bpf_trace_bystruct: argument "
				    "2 (task) is struct task_struct by value"));
	assert_int_equal(tp.nr_args, 0);
	assert_int_equal(rt_btf_func(btf, "twice", &tp, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "several"));
	assert_int_equal(rt_btf_func(btf, "absent", &tp, NULL, 0), -ENOENT);
	/* A typedef of that name is no function. */
	assert_int_equal(rt_btf_func(btf, "btf_trace_demo", &tp, NULL, 0),
			 -ENOENT);
	assert_int_equal(rt_btf_func(btf, "__bpf_trace_orphan", &tp, NULL, 0),
			 0);
	assert_int_equal(tp.nr_args, 2);
	assert_string_equal(tp.arg[1].name, "cpu");

	memset(descs, 0, sizeof(descs));
	rt_functions_describe(list, 3, btf, descs);
	assert_int_equal(descs[0].nr_args, 0);	/* a tracepoint: not here */
	assert_int_equal(descs[1].nr_args, 2);
	assert_string_equal(descs[1].arg[0].name, "__data");
	assert_int_equal(descs[1].arg[0].is_ptr, 1);
	assert_string_equal(descs[1].arg[1].name, "cpu");
	assert_int_equal(descs[1].arg[1].is_signed, 1);
	assert_int_equal(descs[2].nr_args, 0);
	rt_btf_close(btf);

	/* No BTF: nothing described, nothing touched. */
	btf = rt_btf_open("/nonexistent/btf");
	assert_int_equal(rt_btf_func(btf, "__bpf_trace_demo", &tp, err,
				     sizeof(err)), -ENODATA);
	assert_int_equal(tp.nr_args, 0);
	descs[1].nr_args = 3;
	rt_functions_describe(list, 3, btf, descs);
	assert_int_equal(descs[1].nr_args, 3);
	rt_btf_close(btf);
}

/*
 * One handle, one reading: the file is read at the first lookup and
 * never again, whatever becomes of it, and a file that could not be read
 * answers every lookup the same, with the same message.
 */
static void test_read_once(void **state)
{
	struct rt_btf *btf;
	char later[80];
	size_t len;
	int fd;

	(void)state;
	write_file(file, demo_blob());
	btf = rt_btf_open(path);
	assert_non_null(btf);
	assert_int_equal(rt_btf_tracepoint(btf, "demo", &tp, err,
					   sizeof(err)), 0);
	write_file(file, 0);		/* empty: unreadable as BTF */
	assert_int_equal(rt_btf_tracepoint(btf, "nonames", &tp, err,
					   sizeof(err)), 0);
	assert_int_equal(tp.nr_args, 2);
	assert_int_equal(rt_btf_func(btf, "__bpf_trace_orphan", &tp, err,
				     sizeof(err)), 0);
	assert_int_equal(lookup("demo"), -EINVAL);	/* a new handle sees it */
	rt_btf_close(btf);

	snprintf(later, sizeof(later), "%s.later", path);
	btf = rt_btf_open(later);
	assert_int_equal(rt_btf_tracepoint(btf, "demo", &tp, err,
					   sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, later));
	/* There now, and whole: still the first answer. */
	fd = open(later, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	len = demo_blob();
	assert_true(fd >= 0);
	assert_int_equal(write(fd, file, len), (ssize_t)len);
	close(fd);
	err[0] = '\0';
	assert_int_equal(rt_btf_tracepoint(btf, "demo", &tp, err,
					   sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "cannot open the BTF"));
	assert_int_equal(rt_btf_func(btf, "__bpf_trace_orphan", &tp, NULL, 0),
			 -ENODATA);
	rt_btf_close(btf);
	assert_int_equal(lookup_in(later, "demo"), 0);
	unlink(later);
}

/* tracefs' folders of the events @names ("tp:SUBSYS:EVENT") in @events. */
static void event_dirs(const char *events,
		       const char (*names)[RINGTRACE_FUNC_NAME_LEN], size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char sub[192], *colon;

		snprintf(sub, sizeof(sub), "%s/%s", events, names[i] + 3);
		colon = strchr(sub + strlen(events), ':');
		*colon = 0;
		mkdir(sub, 0755);
		*colon = '/';
		assert_int_equal(mkdir(sub, 0755), 0);
	}
}

/*
 * -e tp: names checked before anything attaches (tracepoints.c): the
 * functions of the list skipped, the most arguments one takes (capped at
 * a record's 6), one the BTF lacks (unless tracefs has its event: a loaded
 * module's, taken with its arguments unnamed) and one under another
 * subsystem of tracefs refused with the reason, no BTF at all left to the
 * module.
 */
/*
 * A module's tracepoint from its split BTF: the argument types of the
 * base (int, unsigned long) and of the module (a pointer to its own
 * struct), names from its __probestub_; the base's own tracepoint is not
 * the module's. Through the -e tp: check: the module named like the
 * subsystem, another found by looking at every module's file, past one
 * that is not BTF; one with no BTF for it left unnamed.
 */
static void test_module_split(void **state)
{
	static const char names[3][RINGTRACE_FUNC_NAME_LEN] = {
		"tp:modx:modtp", "tp:othersub:othertp", "tp:modx:nobtf",
	};
	static const char *const argn[] = { "seq", "cookie", "dev" };
	static uint8_t mod_file[4096];
	struct rt_func_arg_descs descs[3];
	char dir[32], at[64], events[64];
	struct rt_btf *base, *mod;
	uint32_t i32, ul, voidp, dev, max;
	char saved[sizeof(path)];
	struct blob b, m;
	size_t len;

	(void)state;
	memcpy(saved, path, sizeof(path));	/* the group's file */
	strcpy(dir, "/tmp/test_btf_mods.XXXXXX");
	assert_non_null(mkdtemp(dir));
	blob_init(&b);
	i32 = int_type(&b, "int", 4, INT_SIGNED);
	ul = int_type(&b, "long unsigned int", 8, 0);
	voidp = type(&b, "", PTR, 0, false, 0);
	tracepoint(&b, "basetp", voidp, 1, &i32);
	len = blob_bytes(&b, file, sizeof(file));
	snprintf(at, sizeof(at), "%s/vmlinux", dir);
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	touch(path);
	write_file(file, len);

	blob_init_split(&m, &b);
	dev = type(&m, "modx_dev", STRUCT, 0, false, 8);
	dev = type(&m, "", PTR, 0, false, dev);
	tracepoint(&m, "modtp", voidp, 3, (uint32_t[]){ i32, ul, dev });
	probestub(&m, "modtp", voidp, 3, (uint32_t[]){ i32, ul, dev }, argn);
	len = blob_bytes(&m, mod_file, sizeof(mod_file));
	snprintf(path, sizeof(path), "%s/modx", dir);
	touch(path);
	write_file(mod_file, len);

	base = rt_btf_open(at);
	mod = rt_btf_open_split(path, base);
	assert_non_null(mod);
	assert_int_equal(rt_btf_tracepoint(mod, "modtp", &tp, err, sizeof(err)),
			 0);
	assert_int_equal(tp.nr_args, 3);
	expect_arg(0, "seq", 4, false, true);
	expect_arg(1, "cookie", 8, false, false);
	expect_arg(2, "dev", 8, true, false);
	assert_int_equal(rt_btf_tracepoint(mod, "basetp", &tp, err,
					   sizeof(err)), -ENOENT);
	rt_btf_close(mod);

	/* Another module's, under another subsystem's name; a broken file. */
	blob_init_split(&m, &b);
	tracepoint(&m, "othertp", voidp, 1, &ul);
	probestub(&m, "othertp", voidp, 1, &ul, argn + 1);
	len = blob_bytes(&m, mod_file, sizeof(mod_file));
	snprintf(path, sizeof(path), "%s/othermod", dir);
	touch(path);
	write_file(mod_file, len);
	snprintf(path, sizeof(path), "%s/broken", dir);
	touch(path);
	write_file((const uint8_t *)"not BTF", 7);
	snprintf(events, sizeof(events), "%s/events", dir);
	assert_int_equal(mkdir(events, 0755), 0);
	event_dirs(events, names, 3);
	memset(descs, 0xff, sizeof(descs));
	assert_int_equal(rt_tracepoints_check(names, 3, base, events, &max,
					      descs, err, sizeof(err)), 0);
	assert_int_equal(max, RINGTRACE_FUNC_MAX_ARGS);	/* nobtf's: all */
	assert_int_equal(descs[0].nr_args, 3);
	assert_string_equal(descs[0].arg[2].name, "dev");
	assert_int_equal(descs[1].nr_args, 1);
	assert_string_equal(descs[1].arg[0].name, "cookie");
	assert_int_equal(descs[2].nr_args, 0);
	rt_btf_close(base);

	snprintf(at, sizeof(at), "rm -rf '%s'", dir);
	assert_int_equal(system(at), 0);
	memcpy(path, saved, sizeof(path));
}

/* Opens of the module files of mods_dir, by name, through the seam. */
static const char *const counted[] = { "modx", "othermod", "broken" };
static unsigned int opens[3];
static char mods_dir[32];
static int (*real_open)(const char *at, int flags, mode_t mode);

static int counting_open(const char *at, int flags, mode_t mode)
{
	size_t n = strlen(mods_dir);

	for (size_t i = 0; i < 3; i++)
		if (!strncmp(at, mods_dir, n) && at[n] == '/' &&
		    !strcmp(at + n + 1, counted[i]))
			opens[i]++;
	return real_open(at, flags, mode);
}

/* @len bytes of @data as the file @name of mods_dir. */
static void mod_file_write(const char *name, const uint8_t *data, size_t len)
{
	char saved[sizeof(path)];

	memcpy(saved, path, sizeof(path));
	snprintf(path, sizeof(path), "%s/%s", mods_dir, name);
	touch(path);
	write_file(data, len);
	memcpy(path, saved, sizeof(path));
}

/*
 * A module's BTF file is read once by a check, however many of its
 * names are looked up there: all 8 of modx's tracepoints read modx's
 * file once, and no other; names that no module has (left unnamed, their
 * modules built without BTF) look in every file, yet read each once in
 * all, with those found after. The files are the check's own: the next
 * one reads them again.
 */
static void test_module_read_once(void **state)
{
	static const char own[8][RINGTRACE_FUNC_NAME_LEN] = {
		"tp:modx:modtp0", "tp:modx:modtp1", "tp:modx:modtp2",
		"tp:modx:modtp3", "tp:modx:modtp4", "tp:modx:modtp5",
		"tp:modx:modtp6", "tp:modx:modtp7",
	};
	static const char scan[6][RINGTRACE_FUNC_NAME_LEN] = {
		"tp:ghost:gone0", "tp:ghost:gone1", "tp:ghost:gone2",
		"tp:phantom:gone3", "tp:othersub:othertp", "tp:modx:modtp3",
	};
	static uint8_t mod_file[4096];
	struct rt_func_arg_descs descs[8];
	char at[64], events[64];
	uint32_t i32, ul, voidp, max;
	struct rt_btf *base;
	struct blob b, m;
	size_t len;

	(void)state;
	strcpy(mods_dir, "/tmp/test_btf_once.XXXXXX");
	assert_non_null(mkdtemp(mods_dir));
	blob_init(&b);
	i32 = int_type(&b, "int", 4, INT_SIGNED);
	ul = int_type(&b, "long unsigned int", 8, 0);
	voidp = type(&b, "", PTR, 0, false, 0);
	tracepoint(&b, "basetp", voidp, 1, &i32);
	mod_file_write("vmlinux", file, blob_bytes(&b, file, sizeof(file)));

	blob_init_split(&m, &b);
	for (int i = 0; i < 8; i++)
		tracepoint(&m, own[i] + 8, voidp, 3,
			   (uint32_t[]){ i32, ul, ul });
	len = blob_bytes(&m, mod_file, sizeof(mod_file));
	mod_file_write("modx", mod_file, len);
	blob_init_split(&m, &b);
	tracepoint(&m, "othertp", voidp, 1, &ul);
	len = blob_bytes(&m, mod_file, sizeof(mod_file));
	mod_file_write("othermod", mod_file, len);
	mod_file_write("broken", (const uint8_t *)"not BTF", 7);
	snprintf(events, sizeof(events), "%s/events", mods_dir);
	assert_int_equal(mkdir(events, 0755), 0);
	event_dirs(events, own, 8);
	event_dirs(events, scan, 5);

	snprintf(at, sizeof(at), "%s/vmlinux", mods_dir);
	base = rt_btf_open(at);
	assert_non_null(base);
	real_open = rt_sys.open;
	rt_sys.open = counting_open;

	assert_int_equal(rt_tracepoints_check(own, 8, base, events, &max,
					      descs, err, sizeof(err)), 0);
	assert_int_equal(max, 3);
	for (int i = 0; i < 8; i++)
		assert_int_equal(descs[i].nr_args, 3);
	assert_int_equal(opens[0], 1);
	assert_int_equal(opens[1], 0);
	assert_int_equal(opens[2], 0);

	/* modx's file read again: the first check's are gone. */
	memset(opens, 0, sizeof(opens));
	assert_int_equal(rt_tracepoints_check(scan, 6, base, events, &max,
					      descs, err, sizeof(err)), 0);
	assert_int_equal(max, RINGTRACE_FUNC_MAX_ARGS);	/* gone's: all */
	for (int i = 0; i < 4; i++)
		assert_int_equal(descs[i].nr_args, 0);
	assert_int_equal(descs[4].nr_args, 1);
	assert_int_equal(descs[5].nr_args, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(opens[i], 1);

	rt_sys_reset();
	rt_btf_close(base);
	snprintf(at, sizeof(at), "rm -rf '%s'", mods_dir);
	assert_int_equal(system(at), 0);
}

static void test_tracepoints_check(void **state)
{
	static const char ok[3][RINGTRACE_FUNC_NAME_LEN] = {
		"tp:sub:nonames", "vfs_read", "tp:demo",
	};
	static const char two[1][RINGTRACE_FUNC_NAME_LEN] = { "tp:sub:nonames" };
	static const char other[1][RINGTRACE_FUNC_NAME_LEN] = { "tp:other:nonames" };
	static const char none[1][RINGTRACE_FUNC_NAME_LEN] = { "tp:sub:absent" };
	static const char bad[1][RINGTRACE_FUNC_NAME_LEN] = { "tp:sub:bystruct" };
	struct rt_func_arg_descs descs[3];
	struct rt_btf *btf, *no_btf;
	char events[64], dir[128];
	uint32_t max;

	(void)state;
	write_file(file, demo_blob());
	btf = rt_btf_open(path);
	no_btf = rt_btf_open("/nonexistent/btf");
	assert_true(btf && no_btf);
	strcpy(events, "/tmp/test_btf_ev.XXXXXX");
	assert_non_null(mkdtemp(events));
	snprintf(dir, sizeof(dir), "%s/sub", events);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/sub/nonames", events);
	assert_int_equal(mkdir(dir, 0755), 0);

	memset(descs, 0xff, sizeof(descs));
	assert_int_equal(rt_tracepoints_check(ok, 3, btf, events, &max, descs,
					      err, sizeof(err)), 0);
	assert_int_equal(max, RINGTRACE_FUNC_MAX_ARGS);	/* demo's 7, capped */
	/* What the printers get, by index: a function's not known. */
	assert_int_equal(descs[0].nr_args, 2);
	assert_string_equal(descs[0].arg[0].name, "arg0");
	assert_int_equal(descs[0].arg[0].size, 4);
	assert_int_equal(descs[0].arg[0].is_signed, 1);
	assert_int_equal(descs[1].nr_args, 0);
	assert_int_equal(descs[2].nr_args, 7);
	assert_string_equal(descs[2].arg[3].name, "prev");
	assert_int_equal(descs[2].arg[3].is_ptr, 1);
	assert_int_equal(descs[2].arg[3].size, 8);
	assert_string_equal(descs[2].arg[6].name, "flags");
	assert_int_equal(rt_tracepoints_check(two, 1, btf, events, &max, NULL, err,
					      sizeof(err)), 0);
	assert_int_equal(max, 2);
	assert_int_equal(rt_tracepoints_check(other, 1, btf, events, &max, NULL,
					      err, sizeof(err)), -1);
	assert_non_null(strstr(err, "tracefs has no event other:nonames"));
	assert_int_equal(rt_tracepoints_check(none, 1, btf, events, &max, NULL, err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "no such tracepoint"));
	assert_non_null(strstr(err, "no loaded module's event"));
	/* Not in the BTF but in tracefs: a module's, arguments unnamed. */
	snprintf(dir, sizeof(dir), "%s/sub/absent", events);
	assert_int_equal(mkdir(dir, 0755), 0);
	memset(descs, 0xff, sizeof(descs));
	assert_int_equal(rt_tracepoints_check(none, 1, btf, events, &max, descs,
					      err, sizeof(err)), 0);
	assert_int_equal(max, RINGTRACE_FUNC_MAX_ARGS);
	assert_int_equal(descs[0].nr_args, 0);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(rt_tracepoints_check(bad, 1, btf, events, &max, NULL, err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot trace tp:sub:bystruct"));
	/* No BTF: the module decides; every argument a record can carry. */
	assert_int_equal(rt_tracepoints_check(two, 1, no_btf,
					      events, &max, NULL, err, sizeof(err)), 0);
	assert_int_equal(max, RINGTRACE_FUNC_MAX_ARGS);
	/* tracefs absent (a container): the subsystem is not checked. */
	assert_int_equal(rt_tracepoints_check(other, 1, btf, "/nonexistent",
					      &max, NULL, err, sizeof(err)), 0);
	assert_int_equal(max, 2);

	rt_btf_close(no_btf);
	rt_btf_close(btf);

	snprintf(dir, sizeof(dir), "%s/sub/nonames", events);
	rmdir(dir);
	snprintf(dir, sizeof(dir), "%s/sub", events);
	rmdir(dir);
	rmdir(events);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args_through_chains),
		cmocka_unit_test(test_names_without_bpf_trace),
		cmocka_unit_test(test_names_from_probestub),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_refused_arguments),
		cmocka_unit_test(test_no_file),
		cmocka_unit_test(test_wrong_magic),
		cmocka_unit_test(test_truncated_every_length),
		cmocka_unit_test(test_type_section_cut),
		cmocka_unit_test(test_every_byte_changed),
		cmocka_unit_test(test_loops_and_wrong_shapes),
		cmocka_unit_test(test_hostile_counts),
		cmocka_unit_test(test_running_kernel),
		cmocka_unit_test(test_tracepoints_check),
		cmocka_unit_test(test_module_split),
		cmocka_unit_test(test_module_read_once),
		cmocka_unit_test(test_funcs),
		cmocka_unit_test(test_read_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
