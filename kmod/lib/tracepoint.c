// SPDX-License-Identifier: GPL-2.0
/* Finding a kernel tracepoint by name (tracepoint.h). */
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "tracepoint.h"

struct rt_tracepoint_lookup {
	const char		*name;
	struct tracepoint	*found;
};

static void rt_tracepoint_match(struct tracepoint *tp, void *priv)
{
	struct rt_tracepoint_lookup *l = priv;

	if (!strcmp(tp->name, l->name))
		l->found = tp;
}

struct tracepoint *rt_tracepoint_find(const char *name)
{
	struct rt_tracepoint_lookup l = { .name = name };

	for_each_kernel_tracepoint(rt_tracepoint_match, &l);
	return l.found;
}
