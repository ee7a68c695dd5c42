/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ringtrace-cat's flight recorder (--snapshot: sleep, print the
 * newest records on each SIGUSR2) and buffer health (--stats lines, the
 * end-of-run advice on --buffer-size).
 */
#ifndef RINGTRACE_CAT_FLIGHT_H
#define RINGTRACE_CAT_FLIGHT_H

#include <signal.h>
#include <stdint.h>

#include "options.h"
#include "ringtrace/health.h"
#include "ringtrace/output.h"
#include "ringtrace/paths.h"
#include "ringtrace/session.h"
#include "ringtrace/summary.h"

/* --stats: one line per ring on standard error every interval. */
struct cat_stats {
	struct rt_session	*s;
	struct rt_health	h;
	uint64_t		start_ns;
	bool			failed;		/* said so once; quiet since */
};

int cat_stats_init(struct cat_stats *cs, struct rt_session *s,
		   uint64_t now_ns);
void cat_stats_fini(struct cat_stats *cs);
/* rt_stream.on_stats */
void cat_stats_print(void *arg, uint64_t now_ns);

/* --snapshot --raw: how to start each snapshot's raw file (recording.c). */
struct cat_raw_header {
	void		(*write)(struct rt_outbuf *ob, const void *session,
				 const void *perf, uint64_t events, bool maps);
	const void	*session;
	const void	*perf;
	bool		maps;	/* with the processes' mappings (MAPS) */
	/* When tracing started: names a triggered dump by its time. */
	uint64_t	start_mono_ns;
	uint64_t	start_real_ns;
};

/*
 * A raw file of snapshots being written: SIGUSR2's PREFIX.N, or a
 * triggered dump, which gets the records after its trigger too.
 */
struct cat_raw_dump {
	char			path[4096];
	int			fd;
	struct rt_outbuf	ob;
};

/*
 * Create @path (an existing one kept as PATH.old) and write the header,
 * started by @raw. 0, or -1 with the reason printed.
 */
int cat_raw_dump_open(struct cat_raw_dump *d, const struct options *o,
		      const char *path, const struct cat_raw_header *raw);
/* Write what is buffered, close, append the kernel symbols. 0 or -1. */
int cat_raw_dump_close(struct cat_raw_dump *d, const struct options *o);

/*
 * a raw file of kernel frames (--stack, --sample) keeps the
 * symbols they fall in (KSYMS chunk), so that a replay elsewhere or after
 * a reboot names them: appended to the whole file at @path, read back.
 * Said on standard error when it could not be (not an error).
 */
void cat_save_ksyms(const struct options *o, const char *path);

/*
 * --snapshot: the session is enabled in overwrite mode. Sleep until
 * *@snap (SIGUSR2) or *@stop (or -d) is set; print a snapshot for each
 * request: text or JSON to @ob, or with --raw a raw file OUTPUT.N per
 * snapshot, started by @raw. @wait_signals are blocked around the checks
 * and unblocked while sleeping. Returns an exit code; the session is
 * disabled on return.
 */
int cat_snapshot_run(const struct options *o, struct rt_session *s,
		     struct rt_outbuf *ob, struct rt_paths *paths,
		     volatile sig_atomic_t *snap, volatile sig_atomic_t *stop,
		     const sigset_t *wait_signals, struct cat_stats *stats,
		     const struct cat_raw_header *raw, uint64_t *snapshots);

/*
 * Per-ring stats for the summary (sum->rings), if the module has them:
 * *@rings is allocated (free it), NULL otherwise.
 */
void cat_summary_rings(struct rt_session *s, struct rt_summary *sum,
		       struct ringtrace_ring_stats **rings);

#endif /* RINGTRACE_CAT_FLIGHT_H */
