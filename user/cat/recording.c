// SPDX-License-Identifier: GPL-2.0-only
/*
 * A live recording's raw file (--raw): the header it starts with (where,
 * when and how it was recorded, the command line, perf's description,
 * the mounts and the mappings) and the kernel symbols appended once it
 * is whole. A --snapshot --raw file starts the same way (flight.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include <linux/ringtrace.h>

#include "cat.h"
#include "flight.h"
#include "ringtrace/mounts.h"
#include "ringtrace/rawfile.h"
#include "ringtrace/sys.h"

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * When tracing was enabled: a raw file's "started". A snapshot's file is
 * written later than its records were (its header said it
 * started after them), so it takes this time, not the time it is written.
 */
static uint64_t trace_start_mono, trace_start_real;

void cat_note_trace_start(void)
{
	trace_start_mono = rt_sys.now_ns();
	trace_start_real = realtime_ns();
}

/* The command line a raw file's header keeps (--header shows it). */
static char recorded_cmdline[sizeof(((struct rt_raw_header *)0)->cmdline)];

/* Append @s to @buf (@len bytes, *@used so far), keeping room for the NUL. */
static void put_str(char *buf, size_t len, size_t *used, const char *s,
		    size_t n)
{
	if (*used + n >= len)
		n = *used + 1 < len ? len - 1 - *used : 0;
	memcpy(buf + *used, s, n);
	*used += n;
	buf[*used] = '\0';
}

/*
 * PROG and its arguments, each as a shell would need it typed: as it is
 * when made of safe characters, else in single quotes. Cut with "...".
 */
void cat_note_cmdline(int argc, char **argv)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				   "-_=+,.:/@%^";
	char buf[4096];
	size_t used = 0;

	buf[0] = '\0';
	put_str(buf, sizeof(buf), &used, PROG, strlen(PROG));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		put_str(buf, sizeof(buf), &used, " ", 1);
		if (*a && strspn(a, safe) == strlen(a)) {
			put_str(buf, sizeof(buf), &used, a, strlen(a));
			continue;
		}
		put_str(buf, sizeof(buf), &used, "'", 1);
		for (const char *q; (q = strchr(a, '\'')); a = q + 1) {
			put_str(buf, sizeof(buf), &used, a, (size_t)(q - a));
			put_str(buf, sizeof(buf), &used, "'\\''", 4);
		}
		put_str(buf, sizeof(buf), &used, a, strlen(a));
		put_str(buf, sizeof(buf), &used, "'", 1);
	}
	if (used < sizeof(recorded_cmdline)) {
		memcpy(recorded_cmdline, buf, used + 1);
	} else {
		memcpy(recorded_cmdline, buf, sizeof(recorded_cmdline) - 4);
		memcpy(recorded_cmdline + sizeof(recorded_cmdline) - 4, "...", 4);
	}
}

/* Also each --snapshot --raw file's, through write_snapshot_header(). */
void cat_write_raw_header(struct rt_outbuf *ob, const struct rt_session *s,
			  uint64_t events, const struct rt_perf_session *ps,
			  bool maps)
{
	struct rt_raw_header h;
	struct utsname u;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, RT_RAW_MAGIC, sizeof(h.magic));
	h.header_size = sizeof(h);
	/*
	 * Files of ringtrace's per-CPU rings alone stay readable by older
	 * tools; per-thread rings need a reader that knows them.
	 */
	h.format_version = s->nr_rings && s->srcs[0].tid ?
			   RT_RAW_FORMAT_THREADS :
			   ps->has_sampler || ps->has_snapshots ?
			   RT_RAW_FORMAT_SOURCES : RT_RAW_FORMAT_VERSION;
	h.endian = RT_RAW_ENDIAN;
	h.abi_version = s->info.abi_version;
	h.page_size = s->info.page_size;
	h.nr_cpu_ids = s->info.nr_cpu_ids;
	h.events = events;
	h.start_mono_ns = trace_start_mono ? trace_start_mono : rt_sys.now_ns();
	h.start_real_ns = trace_start_real ? trace_start_real : realtime_ns();
	memcpy(h.cmdline, recorded_cmdline, sizeof(h.cmdline));
	memcpy(h.module_version, s->info.module_version,
	       sizeof(h.module_version));
	if (!uname(&u)) {
		/* cut to the field; the header is zeroed, so NUL-terminated */
		memcpy(h.host, u.nodename, strnlen(u.nodename, sizeof(h.host) - 1));
		memcpy(h.kernel, u.release, strnlen(u.release, sizeof(h.kernel) - 1));
		memcpy(h.machine, u.machine,
		       strnlen(u.machine, sizeof(h.machine) - 1));
	}
	rt_raw_write_header(ob, &h);
	rt_perf_session_write_raw(ps, ob);
	/* Mount points, for the paths PREEMPT_RT names inside their mount. */
	rt_raw_write_mounts(ob, rt_mounts_self(true));
	/* -e func:NAME, -e tp:...: their records are named on replay as live. */
	rt_raw_write_func_names(ob, s->funcs, s->nr_funcs);
	/* ...and their arguments printed by name, as live (tracepoints). */
	rt_raw_write_func_args(ob, s->func_arg_descs, s->nr_funcs);
	/* User stacks are named on replay from what was mapped at the start. */
	if (maps)
		rt_raw_write_maps(ob);
}

/* --raw with no -o (or -o -): the recording is standard output. */
static bool raw_on_stdout(const struct options *o)
{
	return o->raw && !o->snapshot && (!o->output || !strcmp(o->output, "-"));
}

/*
 * A raw file of kernel frames keeps the symbols they fall in
 * (KSYMS chunk), so that a replay elsewhere or after a reboot names them.
 * Done once the file is whole: it is read back (the writer copies ring
 * bytes and looks at no record). Standard output cannot be read back;
 * each --snapshot --raw file is done when written (flight.c).
 */
void cat_record_ksyms(const struct options *o, int code)
{
	if (!o->raw || o->snapshot || raw_on_stdout(o) || code == EXIT_FAIL)
		return;
	cat_save_ksyms(o, o->output);
}

/* --snapshot --raw: the header of each snapshot's file (flight.c). */
static void write_snapshot_header(struct rt_outbuf *ob, const void *s,
				  const void *ps, uint64_t events, bool maps)
{
	/*
	 * With user stacks, the mappings of the processes alive when the
	 * snapshot is written: those of its records' processes that still run.
	 */
	cat_write_raw_header(ob, s, events, ps, maps);
}

/* --snapshot --raw: each file is started when it is written (flight.c). */
struct cat_raw_header cat_snapshot_raw_header(const struct rt_session *s,
					      const struct rt_perf_session *ps,
					      bool maps)
{
	struct cat_raw_header rh = {
		write_snapshot_header, s, ps, maps,
		trace_start_mono, trace_start_real,
	};

	return rh;
}
