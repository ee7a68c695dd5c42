# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced first by the selftests' shell scripts, once they have set $here
# (this folder): what they all begin with. $top (the checkout), TAP
# (scripts/lib/tap.sh), the tools ($cat, $ctl, $lockstat), a $work folder
# removed on exit, st_need_cat: skip the test where ringtrace-cat is
# not built (as the C programs skip, tap_skip_all), st_ramfs,
# st_max_funcs and st_kernel_has_fprobe.
# shellcheck disable=SC2034 # the variables are the sourcing script's
# shellcheck disable=SC2154 # $here is the sourcing script's

top=$(cd "$here/../.." && pwd -P)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
cat=$top/user/ringtrace-cat
ctl=$top/user/ringtrace-ctl
lockstat=$top/user/ringtrace-lockstat
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

st_need_cat() {
	[[ -x $cat ]] || tap_skip_all "ringtrace-cat not built (make -C user)"
}

# A ramfs at $fs ($work/rf), unmounted on exit before $work goes: files
# in the page cache only, whose reads take filemap_read and nothing
# slower. Bails out when it cannot be mounted.
st_ramfs() {
	fs=$work/rf
	if ! { mkdir "$fs" && mount -t ramfs none "$fs"; }; then
		echo "Bail out! cannot mount a ramfs on $fs"
		exit 1
	fi
	trap 'umount "$work/rf"; rm -rf "$work"' EXIT
}

# Most functions a session may name: RINGTRACE_MAX_FUNCS, from the uapi
# header the module and the tools were built with.
st_max_funcs() {
	sed -n 's/^#define RINGTRACE_MAX_FUNCS[[:space:]]*\([0-9]*\).*/\1/p' \
		"$top/uapi/linux/ringtrace.h"
}

# Whether the running kernel has fprobe (the module then attaches a
# session's functions with one fprobe, else with a kretprobe each).
st_kernel_has_fprobe() {
	grep -qw register_fprobe_syms /proc/kallsyms
}
