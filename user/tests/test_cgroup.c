// SPDX-License-Identifier: GPL-2.0-only
/*
 * --cgroup PATH to a cgroup id: the errors a path that is not a
 * cgroup v2 directory gets, each with a sentence that says why. A real
 * cgroup2 is only in the VM (selftests/ringtrace/cgroup_filter); here a
 * root that is not cgroup2 stands for a host with no v2 hierarchy.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "test.h"

#include "ringtrace/cgroup.h"

static void test_errors(void **state)
{
	char err[512];
	uint64_t id;

	(void)state;
	assert_int_equal(rt_cgroup_id("/nonexistent-root", "a/b", &id, err,
				      sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent-root/a/b"));
	assert_non_null(strstr(err, "no such cgroup"));

	assert_int_equal(rt_cgroup_id("/", "", &id, err, sizeof(err)), -EINVAL);

	/* A directory of another filesystem, the root not cgroup2 either. */
	assert_int_equal(rt_cgroup_id("/proc", "/proc", &id, err, sizeof(err)),
			 -EOPNOTSUPP);
	assert_non_null(strstr(err, "no cgroup v2 hierarchy at /proc"));
	assert_non_null(strstr(err, "cgroup v2 only"));
}

int main(void)
{
	RUN(cmocka_unit_test(test_errors));
}
