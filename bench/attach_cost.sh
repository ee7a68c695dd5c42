#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What attaching many functions costs: one ringtrace-cat session per count
# N (1, 64, 256, 1024) tracing the first N of the ringtrace_fanout test
# module's functions around `true`, timed from start to exit (the probes
# attach before the command runs and detach after it exits). One fprobe
# per session where the kernel has fprobe, a kretprobe per function
# elsewhere (ringtrace-ctl info says which). Run in a guest:
#
#   scripts/vm-run -- bench/attach_cost.sh
#   ko=$(scripts/build-modules 7.2.13+deb14-amd64 | tail -1)
#   scripts/vm-run --kernel 7.2.13+deb14-amd64 -- \
#       env RINGTRACE_KO_ROOT=$ko bench/attach_cost.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd -P)
ko=${RINGTRACE_KO_ROOT:-$top}
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
lsmod | grep -qw ringtrace || insmod "$ko/kmod/ringtrace.ko"
insmod "$ko/selftests/ringtrace/modules/ringtrace_fanout.ko"
trap 'rmmod ringtrace_fanout' EXIT
echo "kernel $(uname -r)"
for n in 1 64 256 1024; do
	events=$(for i in $(seq 0 $((n - 1))); do
		printf 'func:ringtrace_fan_%04d,' "$i"
	done)
	start=$(date +%s%N)
	"$top/user/ringtrace-cat" -e "${events%,}" -- true >/dev/null
	end=$(date +%s%N)
	echo "functions $n: attach + detach $(((end - start) / 1000000)) ms"
done
