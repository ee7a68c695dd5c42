/* SPDX-License-Identifier: GPL-2.0 */
/* The tracepoint of the ringtrace_tpmod test module (ringtrace_tpmod.c). */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ringtrace_tpmod

#if !defined(_RINGTRACE_TPMOD_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RINGTRACE_TPMOD_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(ringtrace_tpmod_hit,
	TP_PROTO(int seq, unsigned long cookie),
	TP_ARGS(seq, cookie),
	TP_STRUCT__entry(
		__field(int, seq)
		__field(unsigned long, cookie)
	),
	TP_fast_assign(
		__entry->seq = seq;
		__entry->cookie = cookie;
	),
	TP_printk("seq=%d cookie=%#lx", __entry->seq, __entry->cookie)
);

#endif /* _RINGTRACE_TPMOD_TRACE_H */

/* Out of the kernel's tree: the header is beside the module's source. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ringtrace_tpmod_trace
#include <trace/define_trace.h>
