/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The libkmod half of the syscall seam (see sys.h): module loading goes
 * through these pointers so unit tests can play the kernel. Kept apart
 * from rt_sys so that only programs that load modules link libkmod.
 */
#ifndef RINGTRACE_SYS_KMOD_H
#define RINGTRACE_SYS_KMOD_H

#include <libkmod.h>

struct rt_sys_kmod {
	struct kmod_ctx		*(*new_ctx)(const char *dirname,
					    const char * const *config_paths);
	struct kmod_ctx		*(*unref_ctx)(struct kmod_ctx *ctx);
	int			(*new_from_path)(struct kmod_ctx *ctx,
						 const char *path,
						 struct kmod_module **mod);
	int			(*new_from_name)(struct kmod_ctx *ctx,
						 const char *name,
						 struct kmod_module **mod);
	int			(*new_from_lookup)(struct kmod_ctx *ctx,
						   const char *alias,
						   struct kmod_list **list);
	struct kmod_module	*(*list_module)(const struct kmod_list *entry);
	int			(*unref_list)(struct kmod_list *list);
	struct kmod_module	*(*unref)(struct kmod_module *mod);
	int			(*insert)(struct kmod_module *mod,
					  unsigned int flags,
					  const char *options);
	/* kmod_module_probe_insert_module() without install commands. */
	int			(*probe_insert)(struct kmod_module *mod,
						const char *options);
	int			(*remove)(struct kmod_module *mod,
					  unsigned int flags);
	int			(*initstate)(const struct kmod_module *mod);
	int			(*refcnt)(const struct kmod_module *mod);
	const char		*(*path)(const struct kmod_module *mod);
	/*
	 * The names of @mod's parameters (modinfo's parmtype entries) into
	 * @buf, each followed by a space; 0 or -errno.
	 */
	int			(*params)(const struct kmod_module *mod,
					  char *buf, size_t len);
};

extern struct rt_sys_kmod rt_sys_kmod;

void rt_sys_kmod_reset(void);

#endif /* RINGTRACE_SYS_KMOD_H */
