// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trigger's looks at the flight recorder's rings (trigger.h), on rings
 * in memory written the way the kernel writes in overwrite mode: each
 * record is checked exactly once however the looks fall, the path records
 * name the files for "path ~", and what the kernel overwrote before a look
 * is counted in bytes and never checked.
 */
#include "test.h"

#include "ringtrace/barrier.h"
#include "ringtrace/filter_expr.h"
#include "ringtrace/trigger.h"
#include "fake_ring.h"

#define REC	sizeof(struct ringtrace_vfs_read_record)

/* Overwrite mode: the tail moves over whole records before each write. */
static void ow_put(struct fake_ring *fr, const void *rec, size_t len)
{
	uint64_t tail = fr->page->overwrite_tail;

	while (fr->head + len - tail > fr->size) {
		struct ringtrace_event_header h;

		for (size_t i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] =
				fr->data[(tail + i) & (fr->size - 1)];
		tail += h.size;
	}
	rt_producer_publish_head(&fr->page->overwrite_tail, tail);
	fake_ring_poke(fr, fr->head, rec, len);
	fr->head += len;
	rt_producer_publish_head(&fr->page->data_head, fr->head);
}

/* A read of (0:5, @ino) taking @lat_ns; @seq in pos. */
static void ow_read(struct fake_ring *fr, int64_t seq, uint64_t ino,
		    uint64_t lat_ns)
{
	struct ringtrace_vfs_read_record r;

	make_vfs_read(&r, 1000 + (uint64_t)seq, fr->page->cpu, 100, 100, "app");
	r.pos = seq;
	r.dev_major = 0;
	r.dev_minor = 5;
	r.ino = ino;
	r.lat_ns = lat_ns;
	ow_put(fr, &r, REC);
}

/* A path record naming (0:5, @ino). */
static void ow_path(struct fake_ring *fr, uint64_t ino, const char *path)
{
	unsigned char buf[256];
	struct ringtrace_path_record *p = (void *)buf;
	size_t len = strlen(path);
	size_t size = (sizeof(*p) + len + 1 + 7) & ~(size_t)7;

	memset(buf, 0, sizeof(buf));
	p->header.type = RINGTRACE_RECORD_PATH;
	p->header.size = (uint16_t)size;
	p->ts_ns = 999;
	p->dev_minor = 5;
	p->ino = ino;
	p->path_len = (uint16_t)len;
	memcpy(buf + sizeof(*p), path, len);
	ow_put(fr, buf, size);
}

struct seen {
	struct rt_expr	expr;
	int64_t		next;		/* the pos the next check must see */
	uint64_t	checked;
	uint64_t	matched;
	int64_t		match_pos;
};

static void check(void *arg, const struct rt_event *ev)
{
	struct seen *s = arg;

	assert_int_equal(ev->kind, RT_EVENT_VFS_READ);
	/* in order, never twice, none skipped */
	assert_int_equal(ev->u.vfs_read.pos, s->next);
	s->next++;
	s->checked++;
	if (rt_expr_eval(&s->expr, ev)) {
		s->matched++;
		s->match_pos = ev->u.vfs_read.pos;
	}
}

/* A session of one ring in memory, as rt_session_setup() leaves it. */
static void one_ring(struct rt_session *s, struct rt_session_ring *sr,
		     struct rt_source *src, struct fake_ring *fr)
{
	memset(s, 0, sizeof(*s));
	memset(sr, 0, sizeof(*sr));
	memset(src, 0, sizeof(*src));
	sr->page = fr->page;
	src->ring.data = fr->data;
	src->ring.size = fr->size;
	src->cpu = 0;
	s->nr_rings = 1;
	s->rings = sr;
	s->srcs = src;
}

static void test_each_record_once(void **state)
{
	struct fake_ring fr;
	struct rt_session s;
	struct rt_session_ring sr;
	struct rt_source src;
	struct rt_trigger_scan sc;
	struct rt_paths paths;
	struct seen seen = { .next = 0 };
	char err[128];
	int64_t seq = 0, pipe_seq = -1;

	(void)state;
	fake_ring_init(&fr, 8192, 0);
	fr.page->flags = RINGTRACE_PAGE_OVERWRITE;
	one_ring(&s, &sr, &src, &fr);
	assert_int_equal(rt_expr_parse(&seen.expr,
				       "lat > 100ms && path ~ \"pipe:*\"", err,
				       sizeof(err)), 0);
	assert_int_equal(rt_paths_init(&paths), 0);
	assert_int_equal(rt_trigger_scan_init(&sc, &s, &paths), 0);
	ow_path(&fr, 1, "/dev/zero");
	ow_path(&fr, 2, "pipe:[2]");
	/* Looks between runs of 0 to 40 records: none seen twice. */
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < round % 41; i++, seq++)
			ow_read(&fr, seq, 1, 1000);
		rt_trigger_scan_look(&sc, &s, check, &seen);
		if (round == 30) {
			/* one slow read of the pipe, one slow of the file */
			pipe_seq = seq;
			ow_read(&fr, seq++, 2, 200000000);
			ow_read(&fr, seq++, 1, 200000000);
		}
	}
	assert_int_equal(seen.checked, (uint64_t)seq);
	assert_int_equal(sc.records, (uint64_t)seq);
	assert_int_equal(sc.missed_bytes, 0);
	assert_int_equal(seen.matched, 1);
	assert_int_equal(seen.match_pos, pipe_seq);
	rt_trigger_scan_fini(&sc);
	rt_paths_fini(&paths);
	fake_ring_free(&fr);
}

static void test_overwritten_counted(void **state)
{
	struct fake_ring fr;
	struct rt_session s;
	struct rt_session_ring sr;
	struct rt_source src;
	struct rt_trigger_scan sc;
	struct rt_paths paths;
	struct seen seen = { .next = 0 };
	uint64_t fit = 4096 / REC;
	char err[128];

	(void)state;
	fake_ring_init(&fr, 4096, 0);
	fr.page->flags = RINGTRACE_PAGE_OVERWRITE;
	one_ring(&s, &sr, &src, &fr);
	assert_int_equal(rt_expr_parse(&seen.expr, "ret < 0", err,
				       sizeof(err)), 0);
	assert_int_equal(rt_paths_init(&paths), 0);
	assert_int_equal(rt_trigger_scan_init(&sc, &s, &paths), 0);
	/* Three rings' worth before the first look: only the newest fit. */
	for (int64_t i = 0; i < (int64_t)(3 * fit); i++)
		ow_read(&fr, i, 1, 1000);
	seen.next = (int64_t)(3 * fit - fit);
	rt_trigger_scan_look(&sc, &s, check, &seen);
	assert_int_equal(seen.checked, fit);
	assert_int_equal(sc.missed_bytes, 2 * fit * REC);
	assert_int_equal(sc.missed_rings, 1);
	/* Nothing new: nothing checked, nothing missed. */
	rt_trigger_scan_look(&sc, &s, check, &seen);
	assert_int_equal(seen.checked, fit);
	assert_int_equal(sc.missed_rings, 1);
	rt_trigger_scan_fini(&sc);
	rt_paths_fini(&paths);
	fake_ring_free(&fr);
}

int main(void)
{
	RUN(cmocka_unit_test(test_each_record_once),
	    cmocka_unit_test(test_overwritten_counted));
}
