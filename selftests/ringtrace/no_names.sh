#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat --no-paths and --no-cgroup-names: a recording
# made with them holds no path record (or no cgroup record), and its
# replay still shows every read, files as dev= ino= without file=, and
# the cgroup as cgroup=#ID; each option leaves the other's names alone,
# and without them both are there. Needs root and ringtrace.ko loaded
# (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"
st_need_cat
tap_plan 4

printf 'twenty-two bytes here\n' >"$work/msg"

# Record dd's read of the 22-byte file with options $@, replay it: the
# replay's text in NAME.txt, its summary (standard error) in NAME.sum.
# dd, not cat: cat copies a file to a file with copy_file_range(), no read.
record() {
	local name=$1
	shift
	"$cat" -q --raw -o "$work/$name.raw" "$@" -- \
		dd if="$work/msg" of=/dev/null bs=4096 status=none &&
		"$cat" -i "$work/$name.raw" >"$work/$name.txt" 2>"$work/$name.sum"
}

# The read's line, and what the summary counts.
line() { grep -E '^ *dd .* ret=22 ' "$work/$1.txt" | head -n 1; }
has() { grep -q "$2" "$work/$1.sum"; }

show() {
	tap_diag <"$work/$1.sum"
	line "$1" | tap_diag
}

record all
l=$(line all)
[[ -n $l ]] && has all 'path record' && has all 'cgroup record' &&
	[[ $l == *' file='* && $l == *' cgroup=/'* ]]
tap_ok $? "default: path and cgroup records, the read names both" || show all

record bare --no-paths --no-cgroup-names
l=$(line bare)
[[ -n $l ]] && ! has bare 'path record' && ! has bare 'cgroup record' &&
	[[ $l == *' dev='*' ino='* && $l != *' file='* ]] &&
	[[ $l =~ \ cgroup=#[0-9]+ ]]
tap_ok $? "--no-paths --no-cgroup-names: no path or cgroup record; dev:ino and cgroup=#ID shown" ||
	show bare

record nopaths --no-paths
l=$(line nopaths)
[[ -n $l ]] && ! has nopaths 'path record' && has nopaths 'cgroup record' &&
	[[ $l != *' file='* && $l == *' cgroup=/'* ]]
tap_ok $? "--no-paths alone: cgroups still named" || show nopaths

record nocg --no-cgroup-names
l=$(line nocg)
[[ -n $l ]] && has nocg 'path record' && ! has nocg 'cgroup record' &&
	[[ $l == *' file='* && $l =~ \ cgroup=#[0-9]+ ]]
tap_ok $? "--no-cgroup-names alone: files still named, cgroup=#ID" || show nocg

tap_done
