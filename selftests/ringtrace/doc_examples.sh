#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The examples of README.md and Documentation/ that trace live (marked
# "doc-example: vm"), run against the real module: each command exits 0
# and prints lines of the shape the documentation shows
# (scripts/doc-examples --vm; the host checks the replays, --help and the
# options of every other example in make -C user test). The examples
# were recorded on Debian's x86-64 kernels: an arm64 guest prints other
# libraries' paths and a PMU's counts, so they are checked on x86-64
# kernels, PREEMPT_RT's included (its files are named in full too: the
# tools put the mount's point before a mount-relative name). Needs root
# and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
[[ $(uname -m) == x86_64 ]] ||
	tap_skip_all "the examples show x86-64 output ($(uname -m) here)"
echo "TAP version 13"
python3 "$top/scripts/doc-examples" --vm --bin "$top/user"
