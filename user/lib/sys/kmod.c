// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ringtrace.ko loading through libkmod (see kmod.h). Like session.c, most
 * of this is turning errnos into advice.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ringtrace/kmod.h"
#include "ringtrace/sys_kmod.h"

const char *rt_kmod_checkout_path(const char *exe, char *buf, size_t len)
{
	const char *slash = strrchr(exe, '/');
	size_t dir;

	if (!slash)
		return NULL;
	dir = (size_t)(slash - exe);		/* <checkout>/user */
	if ((size_t)snprintf(buf, len, "%.*s/../kmod/%s.ko", (int)dir, exe,
			     RT_KMOD_NAME) >= len)
		return NULL;
	return access(buf, R_OK) == 0 ? buf : NULL;
}

const char *rt_kmod_params_dir = "/sys/module/" RT_KMOD_NAME "/parameters";

/* Whether the @n bytes at @name are one of the words of @list ("a b "). */
static bool has_word(const char *list, const char *name, size_t n)
{
	for (const char *w = list; *w; w += strcspn(w, " "), w += strspn(w, " "))
		if (strcspn(w, " ") == n && !strncmp(w, name, n))
			return true;
	return false;
}

/* The next "NAME=VALUE" of @p: its name's length; @p moves past it. */
static size_t next_param(const char **p, const char **name,
			 const char **value, size_t *value_len)
{
	size_t n, all;

	*p += strspn(*p, " ");
	*name = *p;
	all = strcspn(*p, " ");
	n = strcspn(*p, "= ");
	*value = *p + n + (n < all);
	*value_len = all - n - (n < all);
	*p += all;
	return n;
}

/*
 * Each parameter in @options must be one @mod declares: the kernel loads
 * a module with an unknown one and only says so in dmesg.
 */
static int check_params(const struct kmod_module *mod, const char *what,
			const char *options, char *msg, size_t len)
{
	const char *p = options, *name, *value;
	size_t n, vlen;
	char known[1024];
	int ret;

	if (!options || !*options)
		return 0;
	ret = rt_sys_kmod.params(mod, known, sizeof(known));
	if (ret < 0) {
		snprintf(msg, len, "cannot read the parameters of %s: %s", what,
			 strerror(-ret));
		return ret;
	}
	while (*(p += strspn(p, " "))) {
		n = next_param(&p, &name, &value, &vlen);
		if (!has_word(known, name, n)) {
			n = strlen(known);
			snprintf(msg, len, "%s has no parameter '%.*s' (its "
				 "parameters: %.*s)", what,
				 (int)(p - name), name,
				 (int)(n ? n - 1 : 0), known);
			return -EINVAL;
		}
	}
	return 0;
}

/* The sysfs file of parameter @name (@n bytes) of the loaded module. */
static void param_path(char *buf, size_t len, const char *name, size_t n)
{
	snprintf(buf, len, "%s/%.*s", rt_kmod_params_dir, (int)n, name);
}

/*
 * ringtrace is loaded: write @options to its parameters, all or none (each
 * is checked writable first). 0, or -errno with the reason in @msg.
 */
static int apply_loaded(const char *options, char *msg, size_t len)
{
	const char *p, *name, *value;
	char path[512];
	struct stat st;
	size_t n, vlen;

	for (p = options; *(p += strspn(p, " "));) {
		n = next_param(&p, &name, &value, &vlen);
		param_path(path, sizeof(path), name, n);
		if (stat(path, &st) || !(st.st_mode & S_IWUSR)) {
			snprintf(msg, len, "ringtrace is already loaded and %.*s "
				 "cannot change while it is (%s): unload it "
				 "and load it again with %.*s", (int)n, name,
				 stat(path, &st) ? "not in sysfs" : "read-only",
				 (int)(p - name), name);
			return -EBUSY;
		}
	}
	for (p = options; *(p += strspn(p, " "));) {
		ssize_t w;
		int fd;

		n = next_param(&p, &name, &value, &vlen);
		param_path(path, sizeof(path), name, n);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			snprintf(msg, len, "cannot set %.*s: %s: %s", (int)n,
				 name, path, strerror(errno));
			return -errno;
		}
		w = write(fd, value, vlen);
		if (w < 0 || close(fd)) {
			int err = w < 0 ? errno : EIO;

			snprintf(msg, len, "the loaded ringtrace refused %.*s: %s",
				 (int)(p - name), name, strerror(err));
			return -err;
		}
	}
	snprintf(msg, len, "ringtrace is already loaded: set %s", options);
	return 0;
}

static int load_error(int err, const char *what, char *msg, size_t len)
{
	switch (err) {
	case EEXIST:
		snprintf(msg, len, "ringtrace is already loaded");
		return 0;
	case EPERM:
	case EACCES:
		snprintf(msg, len, "permission denied loading %s: loading "
			 "modules needs root: run it with sudo", what);
		break;
	case ENOEXEC:
		snprintf(msg, len, "%s is not a module this kernel can load "
			 "(built for another kernel version?)", what);
		break;
	case EKEYREJECTED:
		snprintf(msg, len, "the kernel rejected the signature of %s "
			 "(module signing is enforced)", what);
		break;
	case EINVAL:
		snprintf(msg, len, "the kernel refused %s: invalid module or "
			 "parameter (see dmesg)", what);
		break;
	case ENOENT:
		snprintf(msg, len, "%s: no such module file", what);
		break;
	default:
		snprintf(msg, len, "cannot load %s: %s", what, strerror(err));
		break;
	}
	return -err;
}

/*
 * ringtrace_direct.ko from beside @path, when it is there; @note says
 * what happened, for the message.
 */
static void load_direct_beside(struct kmod_ctx *ctx, const char *path,
			       char *note, size_t len)
{
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path + 1) : 0;
	struct kmod_module *mod;
	char direct[4096];
	int ret;

	note[0] = '\0';
	if ((size_t)snprintf(direct, sizeof(direct), "%.*s%s.ko", dir, path,
			     RT_KMOD_DIRECT_NAME) >= sizeof(direct) ||
	    access(direct, R_OK))
		return;
	ret = rt_sys_kmod.new_from_path(ctx, direct, &mod);
	if (ret == 0) {
		ret = rt_sys_kmod.insert(mod, 0, "");
		rt_sys_kmod.unref(mod);
	}
	if (ret == 0)
		snprintf(note, len, " and %s", direct);
	else if (ret != -EEXIST)
		snprintf(note, len, " (not %s: %s; vfs_read is attached "
			 "without the direct call)", direct, strerror(-ret));
}

static int load_path(struct kmod_ctx *ctx, const char *path,
		     const char *options, char *msg, size_t len)
{
	struct kmod_module *mod;
	char note[4200];
	int ret;

	ret = rt_sys_kmod.new_from_path(ctx, path, &mod);
	if (ret < 0)
		return load_error(-ret, path, msg, len);
	ret = check_params(mod, path, options, msg, len);
	if (ret < 0) {
		rt_sys_kmod.unref(mod);
		return ret;
	}
	load_direct_beside(ctx, path, note, sizeof(note));
	ret = rt_sys_kmod.insert(mod, 0, options);
	rt_sys_kmod.unref(mod);
	if (ret == -EEXIST && options && *options)
		return apply_loaded(options, msg, len);
	if (ret < 0)
		return load_error(-ret, path, msg, len);
	snprintf(msg, len, "loaded %s%s", path, note);
	return 0;
}

static int load_installed(struct kmod_ctx *ctx, const char *options,
			  char *msg, size_t len)
{
	struct kmod_list *list = NULL;
	struct kmod_module *mod;
	int ret = rt_sys_kmod.new_from_lookup(ctx, RT_KMOD_NAME, &list);

	if (ret < 0 || !list) {
		snprintf(msg, len, "ringtrace.ko is not installed for this kernel: "
			 "build it (make) and give its path, or install it "
			 "(make install)");
		return -ENOENT;
	}
	mod = rt_sys_kmod.list_module(list);
	rt_sys_kmod.unref_list(list);
	ret = check_params(mod, "the installed ringtrace module", options, msg,
			   len);
	if (ret < 0) {
		rt_sys_kmod.unref(mod);
		return ret;
	}
	ret = rt_sys_kmod.probe_insert(mod, options);
	rt_sys_kmod.unref(mod);
	if (ret == -EEXIST && options && *options)
		return apply_loaded(options, msg, len);
	if (ret < 0)
		return load_error(-ret, "the installed ringtrace module", msg,
				  len);
	snprintf(msg, len, "loaded the installed ringtrace module");
	return 0;
}

int rt_kmod_load(const char *path, const char *options, char *msg, size_t len)
{
	struct kmod_ctx *ctx = rt_sys_kmod.new_ctx(NULL, NULL);
	int ret;

	if (!ctx) {
		snprintf(msg, len, "cannot initialise libkmod");
		return -ENOMEM;
	}
	ret = path ? load_path(ctx, path, options, msg, len) :
		     load_installed(ctx, options, msg, len);
	rt_sys_kmod.unref_ctx(ctx);
	return ret;
}

/*
 * After ringtrace.ko: ringtrace_direct.ko, if it is loaded. Returns the
 * sentence to add to the message ("" if there was nothing to say).
 */
static const char *unload_direct(struct kmod_ctx *ctx)
{
	struct kmod_module *mod;
	const char *said = "";
	int ret;

	if (rt_sys_kmod.new_from_name(ctx, RT_KMOD_DIRECT_NAME, &mod) < 0)
		return said;
	if (rt_sys_kmod.initstate(mod) == KMOD_MODULE_LIVE) {
		ret = rt_sys_kmod.remove(mod, 0);
		if (ret == 0)
			said = " and " RT_KMOD_DIRECT_NAME;
		else if (ret == -EBUSY || ret == -EAGAIN)
			said = "; " RT_KMOD_DIRECT_NAME " stays loaded until "
			       "the reads traced before the detach, still "
			       "asleep, return";
	}
	rt_sys_kmod.unref(mod);
	return said;
}

/* A libkmod context and module @name in it; 0 or -errno + @msg. */
static int lookup_module(const char *name, struct kmod_ctx **ctx,
			 struct kmod_module **mod, char *msg, size_t len)
{
	int ret;

	*ctx = rt_sys_kmod.new_ctx(NULL, NULL);
	if (!*ctx) {
		snprintf(msg, len, "cannot initialise libkmod");
		return -ENOMEM;
	}
	ret = rt_sys_kmod.new_from_name(*ctx, name, mod);
	if (ret < 0) {
		rt_sys_kmod.unref_ctx(*ctx);
		snprintf(msg, len, "cannot look up %s: %s", name, strerror(-ret));
	}
	return ret;
}

int rt_kmod_unload(char *msg, size_t len)
{
	struct kmod_ctx *ctx;
	struct kmod_module *mod;
	int ret, refs, state;

	ret = lookup_module(RT_KMOD_NAME, &ctx, &mod, msg, len);
	if (ret < 0)
		return ret;
	/*
	 * The state first: removing a module that is not there fails with
	 * whatever the kernel checks first (EPERM for a user, ENOSYS in a
	 * container), which is not the reason.
	 */
	state = rt_sys_kmod.initstate(mod);
	if (state < 0 || state == KMOD_MODULE_BUILTIN) {
		rt_sys_kmod.unref(mod);
		rt_sys_kmod.unref_ctx(ctx);
		if (state < 0) {
			snprintf(msg, len, "ringtrace is not loaded");
			return -ENOENT;
		}
		snprintf(msg, len, "ringtrace is built into the kernel: it "
			 "cannot be unloaded");
		return -EPERM;
	}
	refs = rt_sys_kmod.refcnt(mod);
	ret = rt_sys_kmod.remove(mod, 0);
	rt_sys_kmod.unref(mod);
	if (ret == 0)
		snprintf(msg, len, "unloaded ringtrace%s", unload_direct(ctx));
	rt_sys_kmod.unref_ctx(ctx);
	switch (-ret) {
	case 0:
		return 0;
	case ENOENT:
		snprintf(msg, len, "ringtrace is not loaded");
		return ret;
	case EBUSY:
	case EAGAIN:
		snprintf(msg, len, "ringtrace is in use (%d references): stop "
			 "the tools that have /dev/ringtrace open or mapped "
			 "first", refs);
		return ret;
	case EPERM:
	case EACCES:
		snprintf(msg, len, "permission denied unloading ringtrace: "
			 "run it with sudo");
		return ret;
	}
	snprintf(msg, len, "cannot unload ringtrace: %s", strerror(-ret));
	return ret;
}

int rt_kmod_status(const char *name, struct rt_kmod_status *st, char *msg,
		   size_t len)
{
	struct kmod_ctx *ctx;
	struct kmod_module *mod;
	int state, ret;

	memset(st, 0, sizeof(*st));
	st->refcnt = -1;
	ret = lookup_module(name, &ctx, &mod, msg, len);
	if (ret < 0)
		return ret;
	state = rt_sys_kmod.initstate(mod);
	if (state >= 0) {
		st->loaded = true;
		st->refcnt = rt_sys_kmod.refcnt(mod);
		snprintf(st->state, sizeof(st->state), "%s",
			 kmod_module_initstate_str(state));
	}
	rt_sys_kmod.unref(mod);
	rt_sys_kmod.unref_ctx(ctx);
	if (st->loaded)
		snprintf(msg, len, "%s is loaded (%s, %d references)", name,
			 st->state, st->refcnt);
	else
		snprintf(msg, len, "%s is not loaded", name);
	return 0;
}
