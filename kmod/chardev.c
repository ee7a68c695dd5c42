// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/ringtrace: one session per open(). This file turns syscalls into
 * session operations; everything userspace passes in is copied and checked
 * here, before any session lock is taken (copy_from_user() may fault and
 * take mmap_lock, which mmap() holds while it takes the session lock).
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "attach/attach.h"
#include "chardev.h"
#include "enable.h"
#include "ioctl_struct.h"
#include "lib/version.h"
#include "lock_stats.h"
#include "mmap.h"
#include "ring_stats.h"
#include "session/producer.h"
#include "session/session.h"

#define RT_CFG_FLAGS		(RINGTRACE_CFG_INHERIT | RINGTRACE_CFG_INCLUDE_SELF | \
				 RINGTRACE_CFG_PATHS | RINGTRACE_CFG_PER_THREAD | \
				 RINGTRACE_CFG_OVERWRITE | RINGTRACE_CFG_CGROUPS | \
				 RINGTRACE_CFG_NO_CGROUP_NAMES | \
				 RINGTRACE_CFG_FUNC_IN_READ | \
				 RINGTRACE_CFG_FUNC_HOLD)
#define RT_MAX_FLUSH_MS		60000
/* Enough for NR_CPUS=8192, Debian's and most distributions' maximum. */
#define RT_MAX_CPU_MASK_BYTES	1024

/*
 * Who may open the device is the file mode's business (root only by
 * default; a udev rule may give it to a group). Tracing every process's
 * reads is perf -a territory: an opener without CAP_PERFMON (or
 * CAP_SYS_ADMIN) gets no session, only RINGTRACE_IOC_GET_INFO, so that
 * tools can say what is loaded and why they cannot trace. Checked once,
 * at open, against the opener's credentials, as perf_event_open() does:
 * a descriptor handed to another process keeps what its opener had.
 */
static int rt_open(struct inode *inode, struct file *file)
{
	struct rt_session *s;

	if (!perfmon_capable()) {
		file->private_data = NULL;
		return nonseekable_open(inode, file);
	}

	s = rt_session_create();
	if (IS_ERR(s))
		return PTR_ERR(s);
	file->private_data = s;
	return nonseekable_open(inode, file);
}

static int rt_release(struct inode *inode, struct file *file)
{
	struct rt_session *s = file->private_data;

	if (s) {
		rt_session_disable(s);
		rt_session_destroy(s);
	}
	return 0;
}

static long rt_ioctl_get_info(void __user *uarg)
{
	struct ringtrace_info info = {
		.abi_version	= RINGTRACE_ABI_VERSION,
		.compat_version	= RINGTRACE_ABI_COMPAT_VERSION,
		.page_size	= PAGE_SIZE,
		.nr_cpu_ids	= nr_cpu_ids,
		.events		= rt_producers_events(),
		.features	= rt_producers_features() |
				  rt_extras_features() |
				  RINGTRACE_FEAT_PER_THREAD |
				  /* flight recorder, ring health */
				  RINGTRACE_FEAT_OVERWRITE |
				  RINGTRACE_FEAT_RING_STATS |
				  rt_cgroup_features() |
				  /* ret and count ranges */
				  RINGTRACE_FEAT_VFS_READ_VALUES,
		.max_ring_pages	= rt_max_ring_pages,
		.vfs_read_attach	= rt_vfs_read_attach_id(),
		.vfs_read_attach_mask	= rt_vfs_read_attach_mask(),
		.max_funcs		= RINGTRACE_MAX_FUNCS,
		.func_attach		= rt_func_attach_id(),
	};

	strscpy(info.module_version, RINGTRACE_VERSION,
		sizeof(info.module_version));
	return rt_copy_struct_out(uarg, &info, sizeof(info),
				  RINGTRACE_INFO_SIZE_VER0);
}

static long rt_ioctl_get_stats(struct rt_session *s, void __user *uarg)
{
	struct ringtrace_stats st = {};
	int err;

	/* per-ring entries, if the caller asks (ring_stats.c). */
	err = rt_ring_stats_request(s, uarg, &st);
	if (err)
		return err;
	rt_session_stats(s, &st);
	return rt_copy_struct_out(uarg, &st, sizeof(st),
				  RINGTRACE_STATS_SIZE_VER0);
}

/* The CPU bitmap of a config, or every possible CPU if there is none. */
static int rt_copy_cpu_mask(const struct ringtrace_config *cfg,
			    struct cpumask *mask)
{
	u32 bytes = cfg->cpu_mask_bytes;
	unsigned int bit;
	u8 *buf;
	int err = 0;

	if (!cfg->cpu_mask_ptr) {
		if (bytes)
			return -EINVAL;
		cpumask_copy(mask, cpu_possible_mask);
		return 0;
	}
	if (!bytes || bytes > RT_MAX_CPU_MASK_BYTES)
		return -EINVAL;

	buf = memdup_user(u64_to_user_ptr(cfg->cpu_mask_ptr), bytes);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	cpumask_clear(mask);
	for (bit = 0; bit < bytes * BITS_PER_BYTE; bit++) {
		if (!(buf[bit / BITS_PER_BYTE] & BIT(bit % BITS_PER_BYTE)))
			continue;
		if (bit >= nr_cpu_ids || !cpu_possible(bit)) {
			err = -EINVAL;
			goto out;
		}
		cpumask_set_cpu(bit, mask);
	}
	if (cpumask_empty(mask))
		err = -EINVAL;
out:
	kfree(buf);
	return err;
}

static int rt_check_config(const struct ringtrace_config *cfg)
{
	int err;

	if (cfg->flags & ~RT_CFG_FLAGS)
		return -EINVAL;
	if (!cfg->events)
		return -EINVAL;
	if (cfg->events & ~rt_producers_events())
		return -EOPNOTSUPP;
	if (cfg->pid < -1 || cfg->pid == 0)
		return -EINVAL;
	if (cfg->flush_ms > RT_MAX_FLUSH_MS)
		return -EINVAL;
	/* Calls inside reads: the session's reads and its functions. */
	if ((cfg->flags & RINGTRACE_CFG_FUNC_IN_READ) &&
	    (~cfg->events & (RINGTRACE_EVENT_VFS_READ | RINGTRACE_EVENT_FUNC)))
		return -EINVAL;
	/* Calls held for the slow reads: inside reads, with a latency. */
	if ((cfg->flags & RINGTRACE_CFG_FUNC_HOLD) &&
	    (!(cfg->flags & RINGTRACE_CFG_FUNC_IN_READ) || !cfg->min_latency_ns))
		return -EINVAL;
	/* a thread list with the per-thread flag, and only then. */
	if (cfg->__pad_threads || cfg->__pad_attach)
		return -EINVAL;
	/* a mechanism by name; offered or not is for ENABLE. */
	if (cfg->vfs_read_attach > RINGTRACE_ATTACH_DIRECT)
		return -EINVAL;
	if (cfg->flags & RINGTRACE_CFG_PER_THREAD) {
		if (cfg->pid != -1 || (cfg->flags & RINGTRACE_CFG_INHERIT) ||
		    !cfg->nr_tids || cfg->nr_tids > RINGTRACE_MAX_THREADS ||
		    !cfg->tids_ptr)
			return -EINVAL;
	} else if (cfg->nr_tids || cfg->tids_ptr) {
		return -EINVAL;
	}
	/* vfs_read's value ranges, each non-empty when asked. */
	if (cfg->__pad_values ||
	    (cfg->vfs_read_values & ~(RINGTRACE_VFS_READ_RET |
				      RINGTRACE_VFS_READ_COUNT)))
		return -EINVAL;
	if ((cfg->vfs_read_values & RINGTRACE_VFS_READ_RET) &&
	    cfg->vfs_read_ret_min > cfg->vfs_read_ret_max)
		return -EINVAL;
	if ((cfg->vfs_read_values & RINGTRACE_VFS_READ_COUNT) &&
	    cfg->vfs_read_count_min > cfg->vfs_read_count_max)
		return -EINVAL;
	/* A range not asked for is zero, so that a later ABI can reuse it. */
	if (!(cfg->vfs_read_values & RINGTRACE_VFS_READ_RET) &&
	    (cfg->vfs_read_ret_min || cfg->vfs_read_ret_max))
		return -EINVAL;
	if (!(cfg->vfs_read_values & RINGTRACE_VFS_READ_COUNT) &&
	    (cfg->vfs_read_count_min || cfg->vfs_read_count_max))
		return -EINVAL;
	err = rt_cgroups_check(cfg);
	if (err)
		return err;
	err = rt_funcs_check(cfg);	/* any kernel function */
	if (err)
		return err;
	return rt_session_extras_check(cfg);	/* ABI 2 */
}

static long rt_ioctl_set_config(struct rt_session *s, void __user *uarg)
{
	struct ringtrace_config __user *ucfg = uarg;
	struct ringtrace_config cfg;
	struct rt_threads threads;
	struct rt_cgroups cgroups;
	struct rt_func_names *funcs;
	cpumask_var_t cpus;
	u32 usize;
	int err;

	err = rt_get_struct_size(ucfg, RINGTRACE_CONFIG_SIZE_VER0, &usize);
	if (err)
		return err;
	/* Zero-fills what an older caller does not know; E2BIG for newer. */
	err = copy_struct_from_user(&cfg, sizeof(cfg), ucfg, usize);
	if (err)
		return err;
	err = rt_check_config(&cfg);
	if (err)
		return err;

	/* the thread ids, copied and resolved before any lock. */
	err = rt_threads_from_user(&cfg, &threads);
	if (err)
		return err;
	/* the cgroups, resolved before any lock too. */
	err = rt_cgroups_from_user(&cfg, &cgroups);
	if (err)
		goto out_threads;
	/* The functions' names, copied before any lock too. */
	err = rt_funcs_from_user(&cfg, &funcs);
	if (err)
		goto out_cgroups;
	if (!alloc_cpumask_var(&cpus, GFP_KERNEL)) {
		err = -ENOMEM;
		goto out_funcs;
	}
	err = rt_copy_cpu_mask(&cfg, cpus);
	if (!err)
		err = rt_session_configure(s, &cfg, cpus, &threads, &cgroups,
					   &funcs);
	free_cpumask_var(cpus);
out_funcs:
	rt_funcs_free(funcs);	/* not taken, or the names it replaced */
out_cgroups:
	/* What the session did not take, or the selection it replaced. */
	rt_cgroups_release(&cgroups);
out_threads:
	rt_threads_release(&threads);
	return err;
}

/*
 * Commands are told apart by type and number only. The size (and
 * direction) bits _IOR()/_IOW() put in a command number come from the
 * caller's header: a binary built when a structure was smaller passes
 * another number for the same command. The structure's own size field
 * says how much the caller knows (Documentation/abi.rst).
 */
static long rt_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct rt_session *s = file->private_data;
	void __user *uarg = (void __user *)arg;

	if (_IOC_TYPE(cmd) != RINGTRACE_IOC_MAGIC)
		return -ENOTTY;
	if (_IOC_NR(cmd) == _IOC_NR(RINGTRACE_IOC_GET_INFO))
		return rt_ioctl_get_info(uarg);
	/* Opened without CAP_PERFMON: nothing else (see rt_open()). */
	if (!s)
		return -EPERM;

	switch (_IOC_NR(cmd)) {
	case _IOC_NR(RINGTRACE_IOC_SET_CONFIG):
		return rt_ioctl_set_config(s, uarg);
	case _IOC_NR(RINGTRACE_IOC_ENABLE):
		return rt_session_enable(s);
	case _IOC_NR(RINGTRACE_IOC_DISABLE):
		return rt_session_disable(s);
	case _IOC_NR(RINGTRACE_IOC_GET_STATS):
		return rt_ioctl_get_stats(s, uarg);
	case _IOC_NR(RINGTRACE_IOC_LOCK_STATS):
		return rt_ioctl_lock_stats(uarg);
	default:
		return -ENOTTY;
	}
}

static __poll_t rt_poll(struct file *file, poll_table *wait)
{
	struct rt_session *s = file->private_data;

	if (!s)
		return EPOLLERR;
	poll_wait(file, &s->readers.wq, wait);
	return rt_session_poll_mask(s);
}

static int rt_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (!file->private_data)
		return -EPERM;
	return rt_mmap_ring(file->private_data, vma);
}

static const struct file_operations rt_fops = {
	.owner		= THIS_MODULE,
	.open		= rt_open,
	.release	= rt_release,
	.unlocked_ioctl	= rt_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.poll		= rt_poll,
	.mmap		= rt_mmap,
};

static struct miscdevice rt_miscdev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= RINGTRACE_DEVICE_NAME,
	.fops	= &rt_fops,
	.mode	= 0600,
};

int rt_chardev_register(void)
{
	return misc_register(&rt_miscdev);
}

void rt_chardev_unregister(void)
{
	misc_deregister(&rt_miscdev);
}
