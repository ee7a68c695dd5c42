#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `ringtrace-ctl info` names every feature the loaded module offers: the
# ones every module of this ABI has (overwrite, ring statistics,
# per-thread rings, vfs_read value ranges, file names, kernel stacks), and
# never a bare bit number, which would mean a feature bit the module has
# and the tool cannot name (it printed only four names before). Likewise
# every event, by the name -e takes (func printed as 0x10 before). Its
# functions line says the module's limit (RINGTRACE_MAX_FUNCS, from
# GET_INFO) and how this kernel's module attaches them: one fprobe where
# the kernel has register_fprobe_syms(), else a kretprobe per function.
# Needs ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

[[ -x $ctl ]] || tap_skip_all "ringtrace-ctl not built (make -C user)"
always=(overwrite ring_stats per_thread vfs_read_values paths stack_kernel func
	func_in_read)
events=(vfs_read lock offcpu func)
tap_plan $((${#always[@]} + ${#events[@]} + 5))

# A line of `ringtrace-ctl info`: printed, naming each of the names
# after the first three arguments, and no bit left bare (a number shaped
# as the second argument says).
check_line() {
	local label=$1 bare=$2 what=$3 name line
	shift 3
	line=$("$ctl" info | grep "^$label ")
	tap_ok $? "ringtrace-ctl info prints its $label line" || tap_diag "$line"
	for name; do
		[[ " ${line#"$label"} " == *" $name "* ]]
		tap_ok $? "$label name $name" || tap_diag "$line"
	done
	! grep -qE "$bare" <<<"$line"
	tap_ok $? "no $what bit left unnamed" || tap_diag "$line"
}

check_line features ' bit[0-9]+( |$)' feature "${always[@]}"
check_line events '0x[0-9a-f]+' event "${events[@]}"

limit=$(st_max_funcs)
if st_kernel_has_fprobe; then
	how='fprobe (one batch)'
else
	how='kretprobe (one per function)'
fi
line=$("$ctl" info | grep '^functions ')
[[ $line =~ ^functions\ +$limit\ a\ session,\ ${how//[ ()]/.}$ ]]
tap_ok $? "functions line: $limit a session, $how" || tap_diag "$line"
