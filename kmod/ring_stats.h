/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RINGTRACE_RING_STATS_H
#define _RINGTRACE_RING_STATS_H

#include <linux/compiler_types.h>
#include <linux/ringtrace.h>

struct rt_session;

/*
 * GET_STATS' per-ring entries, for a caller that asks for them
 * (ring_stats.c): copied out, and their totals added to @st.
 */
int rt_ring_stats_request(struct rt_session *s, void __user *uarg,
			  struct ringtrace_stats *st);

#endif /* _RINGTRACE_RING_STATS_H */
