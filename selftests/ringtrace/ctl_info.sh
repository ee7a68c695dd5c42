#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `ringtrace-ctl info` names every feature the loaded module offers: the
# ones every module of this ABI has (overwrite, ring statistics,
# per-thread rings, vfs_read value ranges, file names, kernel stacks), and
# never a bare bit number, which would mean a feature bit the module has
# and the tool cannot name (it printed only four names before). Likewise
# every event, by the name -e takes (func printed as 0x10 before). Needs
# ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

[[ -x $ctl ]] || tap_skip_all "ringtrace-ctl not built (make -C user)"
always=(overwrite ring_stats per_thread vfs_read_values paths stack_kernel func)
events=(vfs_read lock offcpu func)
tap_plan $((${#always[@]} + ${#events[@]} + 4))

line=$("$ctl" info | grep '^features ')
tap_ok $? "ringtrace-ctl info prints a features line" || tap_diag "$line"
for f in "${always[@]}"; do
	[[ " ${line#features} " == *" $f "* ]]
	tap_ok $? "features name $f" || tap_diag "$line"
done
! grep -qE ' bit[0-9]+( |$)' <<<"$line"
tap_ok $? "no feature bit left unnamed" || tap_diag "$line"

line=$("$ctl" info | grep '^events ')
tap_ok $? "ringtrace-ctl info prints an events line" || tap_diag "$line"
for e in "${events[@]}"; do
	[[ " ${line#events} " == *" $e "* ]]
	tap_ok $? "events name $e" || tap_diag "$line"
done
! grep -qE '0x[0-9a-f]+' <<<"$line"
tap_ok $? "no event bit left unnamed" || tap_diag "$line"
