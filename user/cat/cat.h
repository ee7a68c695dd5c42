/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ringtrace-cat's wiring between its modes: main.c parses the command
 * line and hands the run to one mode, the live trace (trace.c) or the
 * replay of -i FILE (replay.c); --diff (diff.c) takes its own options.
 * What more than one of them needs is here: the signals main.c
 * installs, the output they all write, and the raw header a live
 * recording starts with (recording.c).
 */
#ifndef RINGTRACE_CAT_CAT_H
#define RINGTRACE_CAT_CAT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "flight.h"
#include "options.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/perf_session.h"
#include "ringtrace/session.h"
#include "ringtrace/stream.h"

/* ---- signals (main.c): handlers set flags only, the loops do the work */

/* Ctrl-C, SIGTERM or the COMMAND's exit: the stream stops. */
extern volatile sig_atomic_t cat_stop_requested;
/* Which of SIGINT and SIGTERM asked (0 for the COMMAND's exit). */
extern volatile sig_atomic_t cat_stop_signal;
/* --snapshot's SIGUSR2 asks for a snapshot. */
extern volatile sig_atomic_t cat_snapshot_requested;
/* The signals we catch: a COMMAND is started with them reset. */
#define CAT_NR_HANDLED_SIGNALS	4
extern const int cat_handled_signals[CAT_NR_HANDLED_SIGNALS];

/* ---- the output every mode writes (main.c) ---- */

/* -o FILE or standard output, buffered in @ob. 0, or -1 said why. */
int cat_open_output(const struct options *o, struct rt_outbuf *ob);
void cat_close_output(const struct options *o, struct rt_outbuf *ob);
/* Map a stream status to an exit code, printing what went wrong. */
int cat_stream_exit_code(const struct rt_stream *st, int status,
			 const struct rt_outbuf *ob);

/* ---- the modes ---- */

/* -i FILE: decode, rewrite (--raw) or describe (--header) it (replay.c). */
int cat_replay(struct options *o);
/*
 * Trace the kernel live: the stream, views or --snapshot, and a COMMAND
 * if given (trace.c). @stop_set: the signals that stop the run;
 * @original_mask: the mask a COMMAND starts with.
 */
int cat_trace(struct options *o, const sigset_t *stop_set,
	      const sigset_t *original_mask);

/* ---- a live recording's raw file (recording.c) ---- */

/* Keep the command line for the raw header (--header shows it). */
void cat_note_cmdline(int argc, char **argv);
/* Tracing is enabled now: the "started" of the files written later. */
void cat_note_trace_start(void);
/* The header of a --raw recording, then its perf, mounts and maps chunks. */
void cat_write_raw_header(struct rt_outbuf *ob, const struct rt_session *s,
			  uint64_t events, const struct rt_perf_session *ps,
			  bool maps);
/* --snapshot --raw: how each snapshot's file is started (flight.c). */
struct cat_raw_header cat_snapshot_raw_header(const struct rt_session *s,
					      const struct rt_perf_session *ps,
					      bool maps);
/* The recording's kernel symbols, once its file is whole (@code: exit). */
void cat_record_ksyms(const struct options *o, int code);

#endif /* RINGTRACE_CAT_CAT_H */
