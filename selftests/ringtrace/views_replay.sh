#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A recording replayed as a person would: ringtrace-cat --raw --sample -g
# --counters -- views_workload (and --raw --stack alone), then -i FILE
# gives the sample count the live run printed, folded stacks and a flame
# graph whose user frames are
# the workload's own function names (named from the process mappings the
# raw file keeps, with libdwfl) and whose kernel frames are named (from
# /proc/kallsyms, when readable), and the counter snapshots; a binary
# replaced since the recording (another build-id) keeps its frames hex and
# says so. Needs root and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"
check_views=$top/user/tests/check_views.py

st_need_cat
[[ -x $here/views_workload ]] || tap_skip_all "views_workload not built"
tap_plan 11

# A copy the test can replace later; the recording names it by this path.
cp "$here/views_workload" "$work/vw"

"$cat" --raw -o "$work/s.raw" --sample cpu-clock:1000 -g \
	--counters task-clock --interval 200 -- "$work/vw" 2 \
	2>"$work/live.err"
rc=$?
live=$(sed -n 's/.*perf cpu-clock at [0-9]* Hz: \([0-9]*\) samples.*/\1/p' "$work/live.err")
[[ $rc -eq 0 && ${live:-0} -gt 0 ]]
tap_ok $? "recorded: exit $rc, ${live:-no} samples in the live summary" ||
	tap_diag <"$work/live.err"

"$cat" -i "$work/s.raw" --folded --kallsyms /proc/kallsyms \
	>"$work/folded" 2>"$work/folded.err"
rc=$?
replayed=$(sed -n 's/.* stacks from \([0-9]*\) samples$/\1/p' "$work/folded.err")
summed=$(awk '{ s += $NF } END { print s + 0 }' "$work/folded")
[[ $rc -eq 0 && ${replayed:-x} == "${live:-y}" && $summed == "${live:-y}" ]]
tap_ok $? "replay: the live run's $live samples (folded: ${replayed:-none}, lines sum to $summed)" ||
	tap_diag <"$work/folded.err"

# Frame-pointer unwinding drops the caller of a leaf that has no frame
# (views_read under libc's read, views_round under a sample in views_spin).
grep -Eq '^vw;(.*;)?main;(views_round;)?views_spin ' "$work/folded" &&
	grep -Eq '^vw;(.*;)?main;views_round;' "$work/folded"
tap_ok $? "user frames named from the recorded mappings (main, views_round, views_spin)" ||
	{ grep vw "$work/folded" | head -5; cat "$work/folded.err"; } | tap_diag

if awk '$1 != "0000000000000000" { found = 1; exit } END { exit !found }' /proc/kallsyms; then
	grep -Eq '^vw;(.*;)?main;views_round;(.*;)?vfs_read_\[k\]' "$work/folded"
	tap_ok $? "kernel frames under the workload's reads named from kallsyms" ||
		grep views_round "$work/folded" | head -3 | tap_diag
else
	tap_skip "kernel frames named" "kallsyms shows no addresses (kptr_restrict)"
fi

"$cat" -q -i "$work/s.raw" --flamegraph "$work/s.svg" --kallsyms /proc/kallsyms \
	2>"$work/svg.err" &&
	python3 "$check_views" svg "$work/s.svg" "$live" >"$work/svg.check" 2>&1 &&
	grep -q '<title>views_spin (' "$work/s.svg"
tap_ok $? "--flamegraph from the file: frames sum to $live samples, views_spin named" ||
	cat "$work/svg.err" "$work/svg.check" | tap_diag

n=$("$cat" -q -i "$work/s.raw" --json | grep -c '"type":"counters"')
[[ $n -ge 1 ]]
tap_ok $? "the counter snapshots replay ($n)"

# Live, the same names come from /proc/PID/maps.
"$cat" --sample cpu-clock:1000 -g --folded -- "$work/vw" 1 \
	>"$work/live.folded" 2>"$work/live2.err"
grep -Eq '^vw;(.*;)?main;(views_round;)?views_spin ' "$work/live.folded"
tap_ok $? "live --folded names the same user frames" ||
	{ head -3 "$work/live.folded"; cat "$work/live2.err"; } | tap_diag

# ringtrace records with user stacks and no samples: the dummy perf
# event records the workload's exec (MMAP2), and the flame graph weighted
# by vfs_read latency names its frames on replay.
"$cat" --raw -o "$work/st.raw" --stack -- "$work/vw" 1 2>"$work/st.err"
rc=$?
"$cat" -i "$work/st.raw" --flamegraph "$work/st.svg" 2>"$work/st.svg.err"
[[ $rc -eq 0 ]] && ! grep -q 'perf dummy' "$work/st.err" &&
	grep -q '<title>views_round (' "$work/st.svg" &&
	grep -q 'ns in vfs_read' "$work/st.svg"
tap_ok $? "--raw --stack without --sample: replayed user stacks named (views_round)" ||
	cat "$work/st.err" "$work/st.svg.err" | tap_diag

# Without symbols the same file keeps user frames hex: the names above
# came from the mappings, not from somewhere else.
"$cat" -q -i "$work/s.raw" --folded --no-symbols >"$work/hex" 2>/dev/null
grep -q '^vw;0x' "$work/hex" && ! grep -q 'views_spin' "$work/hex"
tap_ok $? "--no-symbols: user frames stay hex" || head -3 "$work/hex" | tap_diag

# The binary replaced since (another build-id): hex, and said.
cp /bin/true "$work/vw"
"$cat" -i "$work/s.raw" --folded >"$work/changed" 2>"$work/changed.err"
! grep -q 'views_spin' "$work/changed" &&
	grep -q 'differ from the recorded ones (build-id)' "$work/changed.err"
tap_ok $? "a binary changed since the recording: frames hex, build-id mismatch said" ||
	tap_diag <"$work/changed.err"

# Gone from this machine: hex, and said.
rm -f "$work/vw"
"$cat" -i "$work/s.raw" --folded >"$work/gone" 2>"$work/gone.err"
! grep -q 'views_spin' "$work/gone" &&
	grep -q 'not found (or not ELF) on this machine' "$work/gone.err"
tap_ok $? "a binary gone since the recording: frames hex, said" ||
	tap_diag <"$work/gone.err"

tap_done
