// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel lock contention names when contexts nest: the irqsrc module makes
 * a hard-IRQ timer contend on a heap rwlock (no symbol: named by its kind,
 * "rwlock:W") on the CPU where a task contends on a static one (named by
 * its symbol, "irqsrc_static_rw"). No record may carry a name starting
 * with "0x" (a raw kernel address, which Documentation/security.rst
 * promises never to expose), and each lock id must keep one name (before
 * the fix both contexts shared one per-CPU buffer, and an interrupt could
 * overwrite the task's name between its lookup and its copy).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "st_util.h"
#include "tap.h"

#define NAMES		"/sys/kernel/debug/ringtrace_irqsrc/names"
#define ROUNDS		"20000"
#define MAX_IDS		256

struct tally {
	unsigned long long records, hex, mixed, statics, heaps;
	unsigned int nr_ids;
	uint64_t ids[MAX_IDS];
	char names[MAX_IDS][RINGTRACE_LOCK_NAME_LEN];
};

static void count(const struct ringtrace_event_header *h, int cpu, void *arg)
{
	const struct ringtrace_lock_record *r = (const void *)h;
	struct tally *t = arg;
	unsigned int i;

	(void)cpu;
	if (h->type != RINGTRACE_RECORD_LOCK || !(r->flags & RINGTRACE_LOCK_KERNEL))
		return;
	t->records++;
	t->hex += !strncmp(r->name, "0x", 2);
	t->statics += !strcmp(r->name, "irqsrc_static_rw");
	t->heaps += !strcmp(r->name, "rwlock:W");
	for (i = 0; i < t->nr_ids; i++)
		if (t->ids[i] == r->lock_id)
			break;
	if (i == t->nr_ids) {
		if (i == MAX_IDS)
			return;
		t->ids[t->nr_ids++] = r->lock_id;
		memcpy(t->names[i], r->name, sizeof(r->name));
	} else if (memcmp(t->names[i], r->name, sizeof(r->name))) {
		if (t->mixed++ < 3)
			tap_diag("lock %#llx named \"%.32s\" and \"%.32s\"",
				 (unsigned long long)r->lock_id, t->names[i], r->name);
	}
}

static int run(void *arg)
{
	int fd, err = 0;

	(void)arg;
	fd = open(NAMES, O_WRONLY);
	if (fd < 0 || write(fd, ROUNDS, strlen(ROUNDS)) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	return err;
}

int main(void)
{
	struct ringtrace_info info = { .size = sizeof(info) };
	struct ringtrace_config cfg;
	struct tally *t = calloc(1, sizeof(*t));
	struct st_session s;
	struct st_child c;
	int err, rc;

	tap_plan(4);
	if (!t)
		tap_bail("out of memory");
	if (st_online_cpus() < 2)
		tap_skip_all("needs 2 CPUs");
	err = st_load_module("selftests/ringtrace/modules/ringtrace_irqsrc.ko",
			     "period_us=20");
	if (err && err != EEXIST)
		tap_bail("loading ringtrace_irqsrc.ko: %s", strerror(err));
	st_session_open(&s, NULL, 256);
	if (ioctl(s.fd, RINGTRACE_IOC_GET_INFO, &info) ||
	    !(info.features & RINGTRACE_FEAT_LOCK_CONTENTION)) {
		st_unload_module("ringtrace_irqsrc");
		tap_skip_all("no lock contention tracepoints");
	}
	cfg = st_config(RINGTRACE_EVENT_LOCK_CONTENTION, -1);
	if (ioctl(s.fd, RINGTRACE_IOC_SET_CONFIG, &cfg))
		tap_bail("SET_CONFIG: %s", strerror(errno));

	st_child_start(&c, run, NULL);
	if (st_enable(&s))
		tap_bail("ENABLE: %s", strerror(errno));
	st_child_go(&c);
	rc = st_child_wait(&c);
	st_disable(&s);
	if (rc == EOPNOTSUPP) {
		st_session_close(&s);
		st_unload_module("ringtrace_irqsrc");
		tap_skip_all("rwlock_t sleeps on PREEMPT_RT: no hard-IRQ rwlock");
	}
	if (st_drain(&s, count, t) < 0)
		tap_diag("malformed ring");
	st_session_close(&s);

	if (st_lock_nameable("irqsrc_static_rw", "ringtrace_irqsrc")) {
		tap_ok(rc == 0 && t->statics > 0 && t->heaps > 0,
		       "contention in both contexts: %llu irqsrc_static_rw, %llu rwlock:W of %llu records",
		       t->statics, t->heaps, t->records);
	} else {
		unsigned int i, rwlocks = 0;

		/*
		 * kallsyms has no name of its own for the static lock (no
		 * data symbols, or another symbol at its address): it is
		 * named by its kind too. Both still show up, as two lock ids.
		 */
		for (i = 0; i < t->nr_ids; i++)
			rwlocks += !strncmp(t->names[i], "rwlock:", 7);
		tap_ok(rc == 0 && rwlocks >= 2 && t->heaps > 0,
		       "contention in both contexts: %u rwlock ids, %llu rwlock:W of %llu records (the static one by kind too: kallsyms has no name of its own for it)",
		       rwlocks, t->heaps, t->records);
	}
	tap_ok(t->hex == 0, "no name is a raw address (%llu are)", t->hex);
	tap_ok(t->mixed == 0, "one name per lock id (%llu records differ)", t->mixed);
	err = st_unload_module("ringtrace_irqsrc");
	tap_ok(!err, "unload irqsrc: %s", err ? strerror(err) : "done");
	free(t);
	return tap_finish();
}
