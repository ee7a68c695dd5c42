// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The live reader's CPU and priority (see placement.h for why). Every
 * call goes through the syscall seam; a failure only leaves things as
 * they were.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/placement.h"
#include "ringtrace/sys.h"

static void raise_priority(struct rt_placement *p, int nice)
{
	int now = rt_sys.get_nice();

	if (now == -1 && errno) {
		p->nice_errno = errno;
		return;
	}
	p->nice = now;
	/* Someone chose it (nice(1), a service's Nice=): keep theirs. */
	if (now != 0 || nice >= 0)
		return;
	if (rt_sys.set_nice(nice)) {
		p->nice_errno = errno;	/* EACCES without CAP_SYS_NICE */
		return;
	}
	p->nice_before = now;
	p->niced = true;
	p->nice = nice;
}

void rt_placement_start(struct rt_placement *p, bool follow,
			uint32_t nr_cpu_ids, int nice)
{
	size_t cpus = nr_cpu_ids ? nr_cpu_ids : 1;

	memset(p, 0, sizeof(*p));
	p->pinned = -1;
	if (!follow)
		return;
	raise_priority(p, nice);
	/* Room for the kernel's whole mask, or sched_getaffinity() fails. */
	p->setsize = CPU_ALLOC_SIZE(cpus);
	p->allowed = CPU_ALLOC(cpus);
	p->one = CPU_ALLOC(cpus);
	if (!p->allowed || !p->one ||
	    rt_sys.get_affinity(p->setsize, p->allowed)) {
		CPU_FREE(p->allowed);
		CPU_FREE(p->one);
		p->allowed = p->one = NULL;
		return;
	}
	p->active = true;
}

void rt_placement_busy(struct rt_placement *p, uint32_t cpu)
{
	if (!p->active || (int)cpu == p->pinned ||
	    cpu >= p->setsize * 8 || !CPU_ISSET_S(cpu, p->setsize, p->allowed))
		return;
	CPU_ZERO_S(p->setsize, p->one);
	CPU_SET_S(cpu, p->setsize, p->one);
	/*
	 * The kernel moves us before the call returns (a task changing its
	 * own mask off its CPU is migrated at once): what follows runs on
	 * @cpu. A CPU going offline meanwhile makes it fail: stay.
	 */
	if (rt_sys.set_affinity(p->setsize, p->one))
		return;
	p->pinned = (int)cpu;
	p->moves++;
}

void rt_placement_idle(struct rt_placement *p)
{
	if (!p->active || p->pinned < 0)
		return;
	if (!rt_sys.set_affinity(p->setsize, p->allowed))
		p->pinned = -1;
}

void rt_placement_stop(struct rt_placement *p)
{
	rt_placement_idle(p);
	if (p->niced && !rt_sys.set_nice(p->nice_before))
		p->niced = false;
	CPU_FREE(p->allowed);
	CPU_FREE(p->one);
	p->allowed = p->one = NULL;
	p->active = false;
}
