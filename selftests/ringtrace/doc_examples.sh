#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The examples of README.md and Documentation/ that trace live (marked
# "doc-example: vm"), run against the real module: each command exits 0
# and prints lines of the shape the documentation shows
# (scripts/doc-examples --vm; the host checks the replays, --help and the
# options of every other example in make -C user test). The examples
# were recorded on Debian's x86-64 kernels: an arm64 guest prints other
# libraries' paths and a PMU's counts, a PREEMPT_RT one files relative to
# their mount, so they are checked on x86-64 non-RT kernels. Needs root
# and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
[[ $(uname -m) == x86_64 ]] ||
	tap_skip_all "the examples show x86-64 output ($(uname -m) here)"
! uname -v | grep -q PREEMPT_RT ||
	tap_skip_all "the examples show a kernel whose path records are absolute (PREEMPT_RT names files relative to their mount)"
echo "TAP version 13"
python3 "$top/scripts/doc-examples" --vm --bin "$top/user"
