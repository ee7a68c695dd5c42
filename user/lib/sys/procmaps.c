// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Executable file mappings from /proc/PID/maps (see procmaps.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ringtrace/procmaps.h"

int rt_procmaps_parse_line(char *line, struct rt_procmap *m)
{
	unsigned long long start, end, off;
	char perms[5], *path, *nl;
	int n = 0;

	/* "start-end perms offset dev inode   path" */
	if (sscanf(line, "%llx-%llx %4s %llx %*s %*u %n", &start, &end, perms,
		   &off, &n) < 4 || !n)
		return -EINVAL;
	path = line + n;
	nl = strchr(path, '\n');
	if (nl)
		*nl = '\0';
	if (perms[2] != 'x' || path[0] != '/' || end <= start)
		return -ENOENT;
	/* The file was replaced or removed: the name is still the best guess. */
	n = (int)strlen(path);
	if (n > 10 && !strcmp(path + n - 10, " (deleted)"))
		path[n - 10] = '\0';
	m->start = start;
	m->end = end;
	m->pgoff = off;
	m->path = path;
	return 0;
}

int rt_procmaps_read(uint32_t pid,
		     void (*fn)(void *arg, const struct rt_procmap *m),
		     void *arg)
{
	char name[64], *line = NULL;
	struct rt_procmap m;
	size_t cap = 0;
	FILE *f;

	snprintf(name, sizeof(name), "/proc/%" PRIu32 "/maps", pid);
	f = fopen(name, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0)
		if (!rt_procmaps_parse_line(line, &m))
			fn(arg, &m);
	free(line);
	fclose(f);
	return 0;
}
