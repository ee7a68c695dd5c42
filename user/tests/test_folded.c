// SPDX-License-Identifier: GPL-2.0-only
/*
 * Folded stacks: the same stack twice is one line with count 2; frames
 * root first, user then kernel, markers dropped, kernel frames named from
 * kallsyms with "_[k]" (hex when no symbol covers them), user frames hex;
 * without a chain the ip alone; names cannot break the format (';' and
 * ' ' replaced); lines sorted; a full table drops and counts; kallsyms
 * parsing keeps text symbols only, module ones too, each ending where its
 * owner's next function (or, for the last, its data or a short extent)
 * begins, so that another layout's addresses stay hex.
 */
#include <stdio.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "test.h"

#include "ringtrace/folded.h"
#include "ringtrace/usyms.h"

static const char kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 t do_syscall_64\n"
	"ffffffff81002000 T ksys_read\n"
	"ffffffff81003000 D some_data\n"
	"ffffffff81004000 W weak_fn\n"
	"ffffffffc0200000 t ringtrace_probe\t[ringtrace]\n";

static struct rt_event sample(const char *comm, uint64_t ip,
			      const uint64_t *chain, uint32_t nr)
{
	struct rt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RT_EVENT_SAMPLE;
	snprintf(ev.comm, sizeof(ev.comm), "%s", comm);
	ev.u.sample.ip = ip;
	ev.u.sample.frames = (const unsigned char *)chain;
	ev.u.sample.nr_frames = nr;
	return ev;
}

static char *written(const struct rt_folded *f, const struct rt_ksyms *k)
{
	static char text[1 << 16];
	struct rt_outbuf ob;

	assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
	rt_folded_write(f, k, &ob);
	assert_true(ob.len < sizeof(text));
	memcpy(text, ob.buf, ob.len);
	text[ob.len] = '\0';
	rt_outbuf_fini(&ob);
	return text;
}

static void test_ksyms(void **state)
{
	struct rt_ksyms k;

	(void)state;
	assert_int_equal(rt_ksyms_parse(&k, kallsyms), 0);
	assert_int_equal(k.nr, 5);		/* T t T W t: no A, no D */
	assert_null(rt_ksyms_find(&k, 0xffffffff80ffffffull));
	assert_string_equal(rt_ksyms_find(&k, 0xffffffff81000000ull), "_stext");
	assert_string_equal(rt_ksyms_find(&k, 0xffffffff81001234ull),
			    "do_syscall_64");
	/* Data symbols are not functions: the text before them covers it. */
	assert_string_equal(rt_ksyms_find(&k, 0xffffffff81003010ull), "ksys_read");
	assert_string_equal(rt_ksyms_find(&k, 0xffffffffc0200040ull),
			    "ringtrace_probe");
	rt_ksyms_free(&k);
	/* kptr_restrict: every address 0, nothing usable. */
	assert_int_equal(rt_ksyms_parse(&k, "0000000000000000 T _stext\n"), 0);
	assert_int_equal(k.nr, 0);
	rt_ksyms_free(&k);
}

/*
 * A function ends where the next one of its owner starts; the last one of
 * the kernel's text or of a module ends at its owner's next symbol (its
 * data) or RT_KSYM_LAST_EXTENT past it: an address beyond is not named
 * after it (another boot's or machine's addresses: "arch_prepare_kprobe
 * +0x3876f81998af", "cleanup_module+0xf2f6 [9p]").
 */
static void test_ksyms_extents(void **state)
{
	static const char text[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81001000 T last_fn\n"
		"ffffffff81001800 D after_text\n"
		"ffffffffc0100000 t p9_fn\t[9p]\n"
		"ffffffffc0100400 t cleanup_module\t[9p]\n"
		"ffffffffc0200000 t other_fn\t[other]\n";
	static const char arm64[] =
		"ffffc78888000000 T _text\n"
		"ffffc788890eaec0 T arch_prepare_kprobe\n";
	struct rt_ksyms k;

	(void)state;
	assert_int_equal(rt_ksyms_parse(&k, text), 0);
	assert_string_equal(rt_ksyms_find(&k, 0xffffffff81000ff0ull), "_stext");
	assert_string_equal(rt_ksyms_find(&k, 0xffffffff810017f8ull), "last_fn");
	/* Past the last function, its owner's data bounds it. */
	assert_null(rt_ksyms_find(&k, 0xffffffff81001800ull));
	assert_string_equal(rt_ksyms_find(&k, 0xffffffffc01003f0ull), "p9_fn");
	assert_string_equal(rt_ksyms_find(&k, 0xffffffffc0100410ull),
			    "cleanup_module");
	/* A module's last function: RT_KSYM_LAST_EXTENT, not up to the next module. */
	assert_null(rt_ksyms_find(&k, 0xffffffffc0100400ull + RT_KSYM_LAST_EXTENT));
	assert_null(rt_ksyms_find(&k, 0xffffffffc010f6f6ull));
	assert_null(rt_ksyms_find(&k, 0xffffffffffff0000ull));
	assert_int_equal(rt_ksyms_addr_of(&k, "_text"), 0xffffffff81000000ull);
	assert_int_equal(rt_ksyms_addr_of(&k, "no_such"), 0);
	assert_string_equal(rt_ksyms_arch(&k), "x86_64");
	rt_ksyms_free(&k);

	/* arm64's layout, asked for an x86-64 frame: not named at all. */
	assert_int_equal(rt_ksyms_parse(&k, arm64), 0);
	assert_string_equal(rt_ksyms_arch(&k), "aarch64");
	assert_null(rt_ksyms_find(&k, 0xffffffff81234567ull));
	assert_string_equal(rt_ksyms_find(&k, 0xffffc788890eaf00ull),
			    "arch_prepare_kprobe");
	rt_ksyms_free(&k);
}

static void test_stacks(void **state)
{
	static const uint64_t chain[] = {
		(uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81002010ull,
		0xffffffff81001010ull, (uint64_t)PERF_CONTEXT_USER,
		0x401234, 0x400100,
	};
	static const uint64_t other[] = { (uint64_t)PERF_CONTEXT_USER, 0x401234,
					  0x400200 };
	struct rt_folded f;
	struct rt_ksyms k;
	struct rt_event ev;

	(void)state;
	assert_int_equal(rt_folded_init(&f), 0);
	assert_int_equal(rt_ksyms_parse(&k, kallsyms), 0);
	ev = sample("sha256sum", 0xffffffff81002010ull, chain, 6);
	rt_folded_add(&f, &ev);
	rt_folded_add(&f, &ev);
	ev = sample("sha256sum", 0x401234, other, 3);
	rt_folded_add(&f, &ev);
	ev = sample("a;b c", 0xffffffff80000000ull, NULL, 0);	/* no symbol */
	rt_folded_add(&f, &ev);
	ev = sample("idle", 0x7f0000001000ull, NULL, 0);
	rt_folded_add(&f, &ev);
	ev.kind = RT_EVENT_VFS_READ;				/* ignored */
	rt_folded_add(&f, &ev);
	assert_int_equal(f.samples, 5);
	assert_int_equal(f.nr_stacks, 4);
	assert_string_equal(written(&f, &k),
		"a_b_c;0xffffffff80000000_[k] 1\n"
		"idle;0x7f0000001000 1\n"
		"sha256sum;0x400100;0x401234;do_syscall_64_[k];ksys_read_[k] 2\n"
		"sha256sum;0x400200;0x401234 1\n");
	/* Without symbols kernel frames stay hex, still marked. */
	assert_non_null(strstr(written(&f, NULL),
			       "sha256sum;0x400100;0x401234;0xffffffff81001010_[k];"
			       "0xffffffff81002010_[k] 2\n"));
	rt_ksyms_free(&k);
	rt_folded_fini(&f);
}

/*
 * With user symbols stacks are kept per process (each is named from its
 * own maps); the same text from two processes is still one line.
 */
static void test_same_stack_two_pids_one_line(void **state)
{
	static const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_USER,
					  0x401234, 0x400100 };
	struct rt_usyms u;
	struct rt_folded f;
	struct rt_event ev;

	(void)state;
	assert_int_equal(rt_folded_init(&f), 0);
	assert_int_equal(rt_usyms_init(&u, false), 0);
	f.usyms = &u;
	ev = sample("worker", 0x401234, chain, 3);
	ev.pid = 10;
	rt_folded_add(&f, &ev);
	rt_folded_add(&f, &ev);
	ev.pid = 11;
	rt_folded_add(&f, &ev);
	assert_int_equal(f.nr_stacks, 2);
	assert_string_equal(written(&f, NULL), "worker;0x400100;0x401234 3\n");
	/* The count said is the lines written, not nr_stacks. */
	{
		struct rt_outbuf ob;

		assert_int_equal(rt_outbuf_init(&ob, -1, 0), 0);
		assert_int_equal(rt_folded_write(&f, NULL, &ob), 1);
		rt_outbuf_fini(&ob);
	}
	rt_usyms_fini(&u);
	rt_folded_fini(&f);
}

static void test_full_table_drops(void **state)
{
	struct rt_folded f;
	struct rt_event ev;

	(void)state;
	assert_int_equal(rt_folded_init(&f), 0);
	for (uint64_t i = 0; i < RT_FOLDED_MAX_STACKS; i++) {
		ev = sample("x", 0x400000 + i, NULL, 0);
		rt_folded_add(&f, &ev);
	}
	assert_int_equal(f.nr_stacks, RT_FOLDED_MAX_STACKS / 4 * 3);
	assert_int_equal(f.dropped, RT_FOLDED_MAX_STACKS / 4);
	/* A known stack still counts. */
	ev = sample("x", 0x400000, NULL, 0);
	rt_folded_add(&f, &ev);
	assert_int_equal(f.dropped, RT_FOLDED_MAX_STACKS / 4);
	rt_folded_fini(&f);
}

static void test_load_through_seam(void **state)
{
	char path[] = "/tmp/rt-kallsyms-XXXXXX";
	struct rt_ksyms k;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, kallsyms, sizeof(kallsyms) - 1),
			 (ssize_t)sizeof(kallsyms) - 1);
	close(fd);
	assert_int_equal(rt_ksyms_load(&k, path), 0);
	assert_int_equal(k.nr, 5);
	rt_ksyms_free(&k);
	unlink(path);
	assert_true(rt_ksyms_load(&k, "/nonexistent/kallsyms") < 0);
}

int main(void)
{
	RUN(cmocka_unit_test(test_ksyms),
	    cmocka_unit_test(test_ksyms_extents),
	    cmocka_unit_test(test_stacks),
	    cmocka_unit_test(test_full_table_drops),
	    cmocka_unit_test(test_same_stack_two_pids_one_line),
	    cmocka_unit_test(test_load_through_seam));
}
