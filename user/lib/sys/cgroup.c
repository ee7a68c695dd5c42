// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* cgroup v2 paths to cgroup ids (cgroup.h). */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <linux/magic.h>

#include "ringtrace/cgroup.h"

#define HINT_V2	"ringtrace follows cgroup v2 only (boot with " \
		"systemd.unified_cgroup_hierarchy=1, or mount -t cgroup2)"

/* Why @path, which is on a filesystem of type @type, is not a cgroup. */
static int not_v2(const char *root, const char *path, long type,
		  char *err, size_t len)
{
	struct statfs rfs;

	if (type == CGROUP_SUPER_MAGIC) {
		snprintf(err, len, "%s is in a cgroup v1 hierarchy: " HINT_V2,
			 path);
		return -EOPNOTSUPP;
	}
	if (statfs(root, &rfs) || rfs.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(err, len, "%s is not a cgroup, and this host has no "
			 "cgroup v2 hierarchy at %s (cgroup v1 only?): "
			 HINT_V2, path, root);
		return -EOPNOTSUPP;
	}
	snprintf(err, len, "%s is not a cgroup v2 directory (they are under "
		 "%s)", path, root);
	return -EINVAL;
}

/* Is @path a directory on a cgroup v2 hierarchy? */
static bool on_cgroup2(const char *path)
{
	struct statfs fs;
	struct stat st;

	return !statfs(path, &fs) && fs.f_type == CGROUP2_SUPER_MAGIC &&
	       !stat(path, &st) && S_ISDIR(st.st_mode);
}

int rt_cgroup_id(const char *root, const char *arg, uint64_t *id,
		 char *err, size_t err_len)
{
	struct {
		struct file_handle	fh;
		unsigned char		bytes[sizeof(uint64_t)];
	} h;
	char path[4096], alt[4096];
	struct statfs fs;
	struct stat st;
	int mount_id;

	if (!*arg) {
		snprintf(err, err_len, "an empty cgroup path");
		return -EINVAL;
	}
	if (snprintf(path, sizeof(path), "%s%s%s", arg[0] == '/' ? "" : root,
		     arg[0] == '/' ? "" : "/", arg) >= (int)sizeof(path)) {
		snprintf(err, err_len, "%.64s...: path too long", arg);
		return -ENAMETOOLONG;
	}
	/*
	 * Records name a cgroup as a path from the hierarchy's root
	 * ("cgroup=/system.slice/x.service", "/" for the root), so an
	 * absolute path that is no cgroup2 directory is tried once more
	 * below @root: what the stream printed can be given back as it is.
	 * Errors are still about the path as given when that fails too.
	 */
	if (arg[0] == '/' && !on_cgroup2(path) &&
	    snprintf(alt, sizeof(alt), "%s%s", root, arg) < (int)sizeof(alt) &&
	    on_cgroup2(alt))
		memcpy(path, alt, sizeof(path));
	if (statfs(path, &fs) || stat(path, &st)) {
		int e = errno;

		snprintf(err, err_len, "%s: %s%s", path, strerror(e),
			 e == ENOENT ? " (no such cgroup)" : "");
		return -e;
	}
	if (fs.f_type != CGROUP2_SUPER_MAGIC)
		return not_v2(root, path, (long)fs.f_type, err, err_len);
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, err_len, "%s is a file of a cgroup, not a cgroup "
			 "(a cgroup is a directory)", path);
		return -ENOTDIR;
	}
	/* cgroup2 answers with the kernfs node id: 8 bytes, the cgroup id. */
	h.fh.handle_bytes = sizeof(h.bytes);
	errno = 0;
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) ||
	    h.fh.handle_bytes != sizeof(*id)) {
		int e = errno ? errno : EINVAL;

		snprintf(err, err_len, "%s: cannot get its cgroup id: %s",
			 path, strerror(e));
		return -e;
	}
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}
