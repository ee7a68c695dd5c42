// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup filter (ringtrace_config.nr_cgroups): a session
 * records only tasks in one of its cgroups (cgroup v2) or below. The ids
 * userspace passes are turned into cgroup references here, at SET_CONFIG,
 * so that the probes compare pointers only: task_dfl_cgroup() of the task
 * and cgroup_is_descendant(), which reads the task's cgroup's ancestor
 * array (no lock, nothing that sleeps; the task's css_set is RCU-protected
 * and the probes run with preemption disabled, an RCU-sched read side).
 *
 * The references keep the selected cgroups' structures alive while the
 * session may use them: a cgroup removed while traced (rmdir needs it
 * empty) simply has no task left to match, and is freed when the session
 * lets go of it.
 */
#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "lib/compat.h"
#include "path_cache.h"
#include "session.h"

/* Cgroups a session remembers having named (RINGTRACE_CFG_CGROUPS). */
#define RT_CGROUP_NAMES		256

u64 rt_cgroup_features(void)
{
	return RT_HAVE_CGROUPS ?
	       RINGTRACE_FEAT_CGROUP | RINGTRACE_FEAT_CGROUP_IDS : 0;
}

void rt_cgroups_release(struct rt_cgroups *c)
{
	unsigned int i;

	for (i = 0; c->cgrps && i < c->nr; i++)
		rt_cgroup_put(c->cgrps[i]);
	kfree(c->cgrps);
	rt_path_cache_free(c->names);
	c->cgrps = NULL;
	c->names = NULL;
	c->nr = 0;
	c->ext = false;
}

int rt_cgroups_check(const struct ringtrace_config *cfg)
{
	if (cfg->__pad_cgroup || !cfg->nr_cgroups != !cfg->cgroup_ids_ptr ||
	    cfg->nr_cgroups > RINGTRACE_MAX_CGROUPS)
		return -EINVAL;
	/* ids without names, of records that carry ids. */
	if ((cfg->flags & RINGTRACE_CFG_NO_CGROUP_NAMES) &&
	    !(cfg->flags & RINGTRACE_CFG_CGROUPS))
		return -EINVAL;
	if ((cfg->nr_cgroups || (cfg->flags & RINGTRACE_CFG_CGROUPS)) &&
	    !rt_cgroup_features())
		return -EOPNOTSUPP;
	return 0;
}

/*
 * Copy and resolve the config's cgroup ids (no lock held: the copy may
 * fault, cgroup_get_from_id() takes cgroup locks). Each id must name a
 * cgroup of the default hierarchy (ENOENT) and appear once (EINVAL).
 * With RINGTRACE_CFG_CGROUPS, also the table of named cgroups.
 */
int rt_cgroups_from_user(const struct ringtrace_config *cfg,
			 struct rt_cgroups *c)
{
	struct cgroup *cgrp;
	unsigned int i, j;
	u64 *ids;
	int err = 0;

	memset(c, 0, sizeof(*c));
	c->ext = cfg->flags & RINGTRACE_CFG_CGROUPS;
	if (c->ext && !(cfg->flags & RINGTRACE_CFG_NO_CGROUP_NAMES)) {
		c->names = rt_path_cache_alloc(RT_CGROUP_NAMES);
		if (!c->names)
			return -ENOMEM;
	}
	if (!cfg->nr_cgroups)
		return 0;
	ids = memdup_user(u64_to_user_ptr(cfg->cgroup_ids_ptr),
			  (size_t)cfg->nr_cgroups * sizeof(*ids));
	if (IS_ERR(ids)) {
		rt_cgroups_release(c);
		return PTR_ERR(ids);
	}
	c->cgrps = kcalloc(cfg->nr_cgroups, sizeof(*c->cgrps),
			   GFP_KERNEL_ACCOUNT);
	if (!c->cgrps) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < cfg->nr_cgroups; i++) {
		for (j = 0; j < i; j++)
			if (ids[j] == ids[i])
				err = -EINVAL;
		if (err)
			goto out;
		/* Looks in the default hierarchy only: a v1 id is ENOENT. */
		cgrp = rt_cgroup_get_from_id(ids[i]);
		if (IS_ERR(cgrp)) {
			err = PTR_ERR(cgrp);
			goto out;
		}
		c->cgrps[c->nr++] = cgrp;
	}
out:
	kfree(ids);
	if (err)
		rt_cgroups_release(c);
	return err;
}
