/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Printers: one per output format, each printing a decoded struct rt_event
 * into an rt_outbuf. The exact formats are defined in
 * Documentation/tools.rst; the unit tests hold them to it byte for byte.
 *
 * text   one line per record, perf-script-like stable columns:
 *        COMM PID/TID [CPU] SECS.NSECS: EVENT: key=value ...
 * json   one JSON object per line
 * raw    a file: header, then the ring bytes verbatim (rawfile.h); it does
 *        not use rt_event at all, which is what makes it the cheap path
 */
#ifndef RINGTRACE_OUTPUT_H
#define RINGTRACE_OUTPUT_H

#include <stdbool.h>

#include "ringtrace/outbuf.h"
#include "ringtrace/record.h"

enum rt_format {
	RT_FORMAT_TEXT,
	RT_FORMAT_JSON,
	RT_FORMAT_RAW,
};

/*
 * A sample's callchain prints at most this many frames (perf's default
 * kernel.perf_event_max_stack is 127), so a record always fits in
 * RT_OUTBUF_MAX_RECORD whatever a ring claims.
 */
#define RT_SAMPLE_MAX_PRINTED_FRAMES	128u

typedef void (*rt_print_fn)(struct rt_outbuf *ob, const struct rt_event *ev);

/* Events of unknown kind print nothing (the caller counts them). */
void rt_print_text(struct rt_outbuf *ob, const struct rt_event *ev);
void rt_print_json(struct rt_outbuf *ob, const struct rt_event *ev);

/*
 * The @nr frames of a stack trailer part (@f, innermost first) as hex,
 * comma-separated, each between @quote characters unless @quote is 0
 * (text: 0x1,0x2; JSON: "0x1","0x2"). Returns the end.
 */
char *rt_fmt_stack_frames(char *p, const unsigned char *f, uint32_t nr,
			  char quote);

/*
 * Names for stack frames: text prints a name in place of each
 * address it knows, JSON adds a parallel array of names (null where none)
 * after each array of addresses. @fn returns NULL for a frame to print as
 * hex; @fn NULL (the default): every frame hex, as before. The tool sets
 * it (ringtrace-cat: frame_names.h's rt_frame_name_cb) before printing.
 */
typedef const char *(*rt_frame_name_fn)(void *arg, bool kernel, uint32_t pid,
					const char *comm, uint64_t ip);
void rt_output_set_frame_names(rt_frame_name_fn fn, void *arg);
/* The name of frame @ip of @ev's task (printers' use); NULL: hex. */
const char *rt_output_frame_name(const struct rt_event *ev, bool kernel,
				 uint64_t ip);

/*
 * The names of the functions a live session traces (-e func:NAME), by
 * func_idx; set once before the stream, kept by the caller. Without them
 * (a replay) a func record is named by the namer given to
 * rt_output_set_func_namer() (ringtrace-cat: the symbol at that address
 * in the recording's symbols, bare, as the live run named it), else
 * through the frame names, or not at all.
 */
void rt_output_set_func_names(const char (*names)[RINGTRACE_FUNC_NAME_LEN],
			      uint32_t nr);
/*
 * What the traced functions' arguments are, by func_idx (@nr entries,
 * kept by the caller; nr_args 0: not known): a live session's from the
 * kernel's BTF, a replay's from the recording's FUNC_ARGS chunk. A func
 * record whose description is known prints its arguments by name and
 * type (rt_output_fmt_arg()); the others as the registers they are, in
 * hex.
 */
void rt_output_set_func_args(const struct rt_func_arg_descs *descs,
			     uint32_t nr);
/* @ev's description, or NULL: its arguments print in hex. */
const struct rt_func_arg_descs *rt_output_func_args(const struct rt_event *ev);
/*
 * Argument value @v as @d says: a pointer in hex ("0xffff8880..."), an
 * integer in decimal, cut to its size and, signed, sign-extended (an
 * int's 0xffffffff is -1, a u32's 4294967295). At most 21 bytes.
 */
char *rt_output_fmt_arg(char *p, const struct rt_func_arg_desc *d,
			uint64_t v);
/* Whether rt_output_fmt_arg() prints @d's value in hex (JSON: a string). */
static inline bool rt_output_arg_is_hex(const struct rt_func_arg_desc *d)
{
	return d->is_ptr || !rt_func_arg_size_ok(d->size);
}
/*
 * The keys of @d's arguments in an export whose func records have keys of
 * their own (--perfetto's args object, --ctf's event fields): each
 * argument's name, or where that is one of the record's own keys (pid,
 * tid, comm, cpu, func, func_ip, ret, lat_ns, nr_args, args, host_pid,
 * host_tid, cgroup_id, cgroup, nr_kstack, kstack, nr_ustack, ustack) or
 * an earlier argument's key, "arg<i>_" before it (argument i from 0),
 * again until it is none of those. @keys[i] for i < @nr, @nr at most
 * RT_FUNC_ARG_DESCS; the same keys in every export.
 */
#define RT_OUTPUT_ARG_KEY_MAX	(RT_FUNC_ARG_NAME_LEN + 5 * RT_FUNC_ARG_DESCS)
void rt_output_arg_keys(const struct rt_func_arg_descs *d, uint32_t nr,
			char keys[][RT_OUTPUT_ARG_KEY_MAX]);
typedef const char *(*rt_func_name_fn)(void *arg, uint64_t ip);
void rt_output_set_func_namer(rt_func_name_fn fn, void *arg);
const char *rt_output_func_name(const struct rt_event *ev);
/* The same for a function known by its index and address (the views). */
const char *rt_output_func_name_at(uint32_t idx, uint64_t ip);
/*
 * The views' label of a function: its name, else its address in hex in
 * @buf (RT_FUNC_LABEL_MAX bytes, at least 19). Never NULL.
 */
#define RT_FUNC_LABEL_MAX	RINGTRACE_FUNC_NAME_LEN
const char *rt_output_func_label(uint32_t idx, uint64_t ip, char *buf);
/* Whether names are asked for at all. */
bool rt_output_names_on(void);

/* The printer of a per-event format; NULL for RT_FORMAT_RAW. */
rt_print_fn rt_printer(enum rt_format format);

#endif /* RINGTRACE_OUTPUT_H */
