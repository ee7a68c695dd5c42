/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * --ctf DIR: the stream as a CTF 1.8 trace, which babeltrace2 and Trace
 * Compass open (Documentation/tools.rst, "CTF").
 *
 *   DIR/metadata     TSDL: the trace (UUID, byte order), its environment
 *                    (hostname, kernel_release, tracer_name/version,
 *                    module_version), the clock "monotonic" (CLOCK_MONOTONIC
 *                    in ns, offset to the wall clock), one stream class
 *                    and one event class per kind of event
 *   DIR/stream_cpuN  the events of CPU N's rings (ringtrace's and perf's)
 *   DIR/stream_task  counter rows of a process (not tied to one CPU)
 *
 * Each stream is a sequence of packets (packet header, then a context with
 * timestamp_begin/end, content_size, packet_size, events_discarded and
 * cpu_id); a packet is closed when the next event would take it past
 * packet_max bytes. A LOST record closes its stream's current packet and
 * raises events_discarded (a running count, as CTF defines it) from the
 * next packet on, so that readers report the loss between the events
 * around it. Events keep the fields of --json: vfs_read (with the file's
 * path, "" when unknown, and the stacks), lock, sample (with its call
 * chain), counters, offcpu, func. A func record whose arguments the
 * session knew by name and type (a tracepoint's, a function's --args with
 * BTF) is an event of its function's own class, "func:NAME" (or the
 * tracepoint's "tp:SUBSYS:EVENT"), declared in the metadata after the
 * generic ones: the func fields, then one field per argument by its key
 * (rt_output_arg_keys()), an integer of its size and signedness or a
 * pointer in hex, the values --json's named_args has.
 *
 * The trace is written into a hidden directory beside DIR and renamed to
 * DIR once complete: DIR is a whole trace or absent, never a partial one.
 * Memory: one packet buffer per stream, one table of function classes;
 * nothing is allocated per event.
 */
#ifndef RINGTRACE_CTF_H
#define RINGTRACE_CTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ringtrace/paths.h"
#include "ringtrace/record.h"

#define RT_CTF_PACKET_DEFAULT	(256u * 1024)	/* bytes */
#define RT_CTF_PACKET_MIN	512u
#define RT_CTF_CPU_ANY_SLOT	UINT32_MAX

struct rt_ctf_stream {
	int		fd;
	uint32_t	cpu_id;		/* RT_EVENT_CPU_ANY: stream_task */
	unsigned char	*buf;		/* the packet being filled */
	size_t		len;		/* bytes in buf; 0: no packet open */
	uint64_t	ts_begin;
	uint64_t	ts_last;
	uint64_t	discarded;	/* running count, this stream */
	uint64_t	discarded_written; /* as of the last packet written */
	uint32_t	seq;		/* packets written */
};

/* Where and what: the trace's environment block and clock offset. */
struct rt_ctf_env {
	char		hostname[65];
	char		kernel[65];
	char		module_version[33];
	int64_t		wall_offset_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC */
};

/*
 * The event class of a described function's records (one per func_idx
 * whose arguments the session knew, rt_output_func_args()): the generic
 * func fields, then its arguments by name and type. What its first record
 * said; a later record of it with another count of arguments takes the
 * generic class.
 */
struct rt_ctf_func_class {
	uint32_t		nr_args;	/* 0: no class (yet) */
	char			name[RINGTRACE_FUNC_NAME_LEN];
	struct rt_func_arg_desc	arg[RT_FUNC_ARG_DESCS];
};

struct rt_ctf {
	char			*dir;		/* the final name */
	char			*tmp;		/* where it is written */
	const struct rt_paths	*paths;		/* names vfs_read files; may be NULL */
	size_t			packet_max;
	struct rt_ctf_env	env;
	uint8_t			uuid[16];
	struct rt_ctf_stream	**cpus;		/* by CPU; NULL: none yet */
	uint32_t		nr_cpus;
	struct rt_ctf_stream	*task;		/* counter rows of a process */
	uint64_t		events;
	uint64_t		discarded;
	uint64_t		packets;
	uint64_t		reordered;	/* timestamps raised to keep a
						   stream monotonic */
	int			error;		/* first errno; then nothing more
						   is written */
	/* by func_idx (RINGTRACE_MAX_FUNCS), allocated at the first one */
	struct rt_ctf_func_class *funcs;
	uint32_t		nr_func_classes;	/* those made */
	uint32_t		func_classes_end;	/* highest func_idx + 1 */
};

/*
 * Start a trace that will be @dir (which must not exist). @env may be
 * NULL: this machine's, now. Returns 0 or -errno (the reason in errno
 * terms: EEXIST when @dir exists).
 */
int rt_ctf_open(struct rt_ctf *c, const char *dir, size_t packet_max,
		const struct rt_ctf_env *env);
/* This machine's environment (uname, the two clocks now). */
void rt_ctf_env_here(struct rt_ctf_env *env);
/* Add one event (streaming; LOST records raise events_discarded). */
void rt_ctf_add(struct rt_ctf *c, const struct rt_event *ev);
/*
 * Write the last packets and the metadata, sync, rename into place.
 * 0, or -errno with nothing left behind (the hidden directory removed).
 */
int rt_ctf_close(struct rt_ctf *c);
/* Give up: remove the hidden directory, free everything. */
void rt_ctf_abort(struct rt_ctf *c);

/* The TSDL text (for tests): NUL-terminated, in @buf; length or -1. */
int rt_ctf_metadata(const struct rt_ctf *c, char *buf, size_t size);

#endif /* RINGTRACE_CTF_H */
