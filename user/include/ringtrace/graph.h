/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * --graph vfs_read: where the time of each read went, as ftrace's
 * function_graph shows it. The stream holds vfs_read records and func
 * records (-e func:NAME) of the functions a read calls, both stamped at
 * their return with their latency, merged by time: a thread's func
 * records come before the record of the read they returned inside.
 *
 * Per thread, the spans of its func records wait in a ring until that
 * thread's next vfs_read record:
 * the spans whose [entry, return] lies inside the read's
 * [ts - lat_ns, ts] are its callees, printed under the read's line in
 * entry order, one deeper for each span of the same read they lie in:
 *
 *   dd 4242/4242 ... vfs_read ... lat=41.200us
 *     |  rw_verify_area() 0.410us
 *     |  filemap_read() {
 *     |    filemap_get_pages() 6.000us
 *     |    copy_page_to_iter() 4.100us
 *     |  } 30.700us (self 20.600us)
 *
 * Off-CPU intervals of the same threads (offcpu records, stamped when the
 * task ran again) wait in the same ring: an interval that ends inside a
 * read is the read's, clipped to it, and goes under the innermost span it
 * began in (graph_offcpu.c), as a line of its own, with the kernel
 * frames where the task blocked (the scheduler's own left out, cut at
 * that span's function):
 *
 *     |  msleep() {
 *     |    [off-cpu S] 3012.345us schedule_timeout
 *     |  } 3100.000us (self 87.655us on-cpu, 3012.345us off-cpu)
 *
 * A span's self time is then its time on CPU: its duration less its
 * children's and its own intervals', so that on-CPU and off-CPU time
 * still add up to the read's latency.
 *
 * A thread's ring starts at RT_GRAPH_RING_FIRST spans, made when the
 * thread first has one to keep, and doubles when full, up to per_thread
 * spans (RT_GRAPH_PER_THREAD) and while all the rings together stay
 * within budget bytes (RT_GRAPH_BUDGET, 256 MiB): a read that calls
 * thousands of traced functions gets them all, and a thread that never
 * had many keeps a small ring. A ring stays with its slot of the table
 * (the next thread there reuses it), so a thread's reads allocate nothing
 * once its ring has grown to them. The arrays a read is drawn in
 * (scratch, offs, nodes, open, func_chain) grow with the largest ring:
 * about 3 x 120 bytes a span of it, 24 MiB at the 65536 spans a thread.
 *
 * Nothing is silent: spans not inside any read (the function was called
 * elsewhere, or inside a read the kernel did not record, faster than
 * --min-latency) are dropped and counted as outside (a module that held
 * the calls until their read returned wrote none of a faster read's:
 * the summary says how many, held and fast_read); spans a full ring
 * pushed out (at per_thread, at the budget, or when memory ran out) are
 * counted as missing, and a read that may have lost some says so; spans
 * deeper than max_depth are counted as hidden; a thread the table had no
 * room for loses its spans, counted too. A read sorts its own spans in
 * place.
 */
#ifndef RINGTRACE_GRAPH_H
#define RINGTRACE_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "ringtrace/folded.h"
#include "ringtrace/outbuf.h"
#include "ringtrace/output.h"
#include "ringtrace/record.h"

#define RT_GRAPH_THREADS	1024u	/* a power of two */
#define RT_GRAPH_PER_THREAD	65536u	/* spans waiting per thread, at most */
#define RT_GRAPH_RING_FIRST	64u	/* a thread's ring at first */
/* Bytes of spans waiting in all the threads' rings together, at most. */
#define RT_GRAPH_BUDGET		(256ull << 20)
#define RT_GRAPH_PROBE		16u	/* slots a thread may sit in */

/* Frames kept of where an off-CPU interval blocked. */
#define RT_GRAPH_BLOCK_FRAMES	8u

/*
 * A func record's span, or an offcpu record's interval (@offcpu),
 * waiting for its thread's read.
 */
struct rt_graph_span {
	uint64_t	entry_ns;	/* off CPU: when it left */
	uint64_t	dur_ns;
	uint64_t	ip;
	uint32_t	idx;		/* func_idx */
	uint32_t	depth;		/* 1: called by the read itself */
	/* dur_ns less its children's and its own off-CPU time: on CPU */
	uint64_t	self_ns;
	uint64_t	offcpu_ns;	/* its own intervals' (graph_offcpu.c) */
	bool		children;	/* the next span is one deeper */
	bool		offcpu;		/* an off-CPU interval, not a call */
	uint8_t		state;		/* off CPU: RINGTRACE_OFFCPU_* */
	uint8_t		nr_frames;	/* off CPU: frames[] used */
	/*
	 * off CPU: the kernel frames where it blocked, innermost first,
	 * the scheduler's own left out (when symbols name them); at the
	 * read, cut where the span it lies in begins.
	 */
	uint64_t	frames[RT_GRAPH_BLOCK_FRAMES];
};

struct rt_ksyms;

struct rt_graph_thread;

/*
 * Per function, over every read: its calls (spans shown), its self time
 * (what its shown children leave of it, spans deeper than max_depth
 * included; on CPU or off: the folded table's [off-cpu] chains under
 * it count here) and its total (its spans' time,
 * a span inside another of the same function not counted twice). The
 * read itself is one more row, ip 0 and is_read: its calls are the reads,
 * its total their latency, its self what no callee took. The self times
 * add up to the reads' latencies, the folded table's total.
 */
struct rt_graph_func {
	uint64_t	ip;
	uint32_t	idx;
	bool		is_read;
	uint64_t	calls;
	uint64_t	self_ns;
	uint64_t	total_ns;
};

/* Rows of the table: vfs_read's, then as many functions as 2 sessions. */
#define RT_GRAPH_FUNCS		(1 + 2 * RINGTRACE_MAX_FUNCS)
/* Their index by address: a power of two, about twice as many. */
#define RT_GRAPH_FUNC_SLOTS	(4 * RINGTRACE_MAX_FUNCS)

struct rt_graph {
	/* set before rt_graph_init(); zero: the default */
	struct rt_outbuf	*out;
	enum rt_format		format;
	uint32_t		max_depth;	/* deeper spans hidden; 0: none */
	uint32_t		per_thread;	/* RT_GRAPH_PER_THREAD */
	uint32_t		threads;	/* RT_GRAPH_THREADS, power of 2 */
	uint64_t		budget;		/* RT_GRAPH_BUDGET */
	/*
	 * Names the frames where off-CPU intervals blocked, and tells the
	 * scheduler's and the span's own among them; NULL: hex, all kept.
	 */
	const struct rt_ksyms	*ksyms;
	bool			no_offcpu;	/* offcpu records ignored */
	/*
	 * Before the summary: the session held its calls until their read
	 * returned (RINGTRACE_CFG_FUNC_HOLD; a recording's FUNC_FAST_READ
	 * chunk), and fast_read of them, made inside reads faster than
	 * --min-latency, the module left out (ringtrace_stats.func_fast_read):
	 * not a loss, said only when held.
	 */
	bool			held;
	uint64_t		fast_read;
	/*
	 * Or, instead of printing: each read's tree into this table, by
	 * wall time (a flame graph of where reads spent it): every span's
	 * self time on its chain of callers, the read's own on its frame
	 * at @read_ip (vfs_read's address), so that a read's stacks add
	 * up to its latency exactly; spans deeper than max_depth count in
	 * their deepest shown caller.
	 */
	struct rt_folded	*fold;
	uint64_t		read_ip;

	/*
	 * the per-function table (--diff --graph --summary), in first-seen
	 * order: RT_GRAPH_FUNCS rows, allocated by init, found by address
	 * in func_index (RT_GRAPH_FUNC_SLOTS: row + 1, 0 free)
	 */
	struct rt_graph_func	*funcs;
	uint32_t		*func_index;
	uint32_t		nr_funcs;
	uint64_t		funcs_full;	/* spans of a function without a row */
	struct rt_graph_func	**func_chain;	/* one read's, room + 1 */

	struct rt_graph_thread	*table;		/* each slot with its ring */
	uint64_t		rings;		/* spans in all rings: budget */
	uint32_t		room;		/* the largest ring's spans */
	/* a read's, room spans each */
	struct rt_graph_span	*scratch;	/* its spans */
	struct rt_graph_span	*offs;		/* its intervals */
	struct rt_graph_span	*nodes;		/* both, in time order */
	const struct rt_graph_span **open;	/* nesting */

	/* counts */
	uint64_t		reads;		/* blocks printed */
	uint64_t		shown;		/* spans printed */
	uint64_t		outside;	/* in no read: dropped */
	uint64_t		hidden;		/* deeper than max_depth */
	uint64_t		missing;	/* pushed out of a ring at its room */
	uint64_t		no_room;	/* their thread had no slot */
	uint64_t		incomplete;	/* reads that may lack spans */
	/* the same for off-CPU intervals */
	uint64_t		offcpu_shown;
	uint64_t		offcpu_hidden;
	uint64_t		offcpu_outside;
	uint64_t		offcpu_missing;
	uint64_t		offcpu_ns;	/* time of those shown or hidden */
};

int rt_graph_init(struct rt_graph *g);
void rt_graph_fini(struct rt_graph *g);

/*
 * A stream event: a func or offcpu record waits, a vfs_read record
 * prints its block (the read's own line, then its callees and where it
 * was off CPU); other kinds are not the graph's. In time order per
 * thread, as the stream merges them.
 */
void rt_graph_add(struct rt_graph *g, const struct rt_event *ev);

/*
 * The run ended: the spans still waiting were in no read (counted
 * outside). Then the counts: one line of text, or a JSON object
 * {"type":"graph_summary",...} ending with @extra_json (may be "",
 * else ',"key":...' members). When the calls were held (@held), both
 * also say those of faster reads (@fast_read): "N calls of faster reads
 * left out (--min-latency)", "fast_read_calls":N.
 */
void rt_graph_end(struct rt_graph *g);
void rt_graph_print_summary(const struct rt_graph *g, struct rt_outbuf *ob);
void rt_graph_print_summary_json(const struct rt_graph *g,
				 struct rt_outbuf *ob, const char *extra_json);

/* Whether a summary would say anything beyond reads and spans shown. */
bool rt_graph_lacks(const struct rt_graph *g);

#endif /* RINGTRACE_GRAPH_H */
