#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# One vocabulary for counts, live and on replay: a recording of
# a command with stacks and perf samples says "N records, P path records,
# S samples" when it is made, the replay of the file says the same, and
# the replay's JSON has exactly that many record and sample lines (plus one
# per LOST record); the -v table names ringtrace's rings and perf's.
# With offcpu records and samples (-e vfs_read,offcpu,sample --sample, user
# stacks), the live summary's every count (records, path and cgroup
# records, samples, user stacks cut) is the replay's, and the samples it
# counts are perf's summary's.
# Live --hist with records lost (the reader stopped while its one-page
# ring overflows) says under the histogram how many were lost, -q or not:
# the number the summary gives.
# --hist --interval numbers its blocks, the one printed at the end
# included, and the percentile footnote follows only printed percentiles.
# Needs root and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
tap_plan 10

head -c 200000 /dev/urandom >"$work/data"
"$cat" --raw -o "$work/r.raw" --stack --sample cpu-clock:997 -g -v -- \
	sh -c "for i in 1 2 3; do cat '$work/data' | wc -c; done >/dev/null" \
	2>"$work/live.err"
rc=$?
live=$(grep -m1 '^ringtrace-cat: [0-9]* records' "$work/live.err" | sed 's/, [0-9]* lost.*//')
[[ $rc -eq 0 && -n $live ]]
tap_ok $? "recorded (exit $rc): $live" || tap_diag <"$work/live.err"

"$cat" -i "$work/r.raw" --json -v >"$work/r.json" 2>"$work/replay.err"
rc=$?
replay=$(grep -m1 '^ringtrace-cat: [0-9]* records' "$work/replay.err" | sed 's/, [0-9]* lost.*//')
[[ $rc -eq 0 && $replay == "$live" ]]
tap_ok $? "the replay says the same (exit $rc): $replay" || tap_diag <"$work/replay.err"

python3 - "$work/r.json" "$work/replay.err" <<'PY'
import json, re, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
err = open(sys.argv[2]).read()
m = re.search(r'^ringtrace-cat: (\d+) records?(?:, (\d+) path records?)?'
              r'(?:, (\d+) cgroup records?)?(?:, (\d+) samples?)?', err, re.M)
records, paths, cgroups, samples = (int(g or 0) for g in m.groups())
kinds = {}
for l in lines:
    kinds[l["type"]] = kinds.get(l["type"], 0) + 1
assert kinds.get("sample", 0) == samples, (kinds, m.group(0))
assert len(lines) - kinds.get("sample", 0) - kinds.get("lost", 0) == records, (kinds, m.group(0))
assert samples > 0 and paths > 0, m.group(0)
PY
tap_ok $? "its JSON lines are those records and samples (path and cgroup records apart)" ||
	tap_diag <"$work/replay.err"

grep -Eq '^  cpu [0-9]+ ' "$work/live.err" && grep -Eq '^  perf cpu [0-9]+ ' "$work/live.err" &&
	grep -Eq '^  perf cpu [0-9]+ ' "$work/replay.err"
tap_ok $? "-v names ringtrace's rings and perf's, live and on replay" ||
	{ tap_diag <"$work/live.err"; tap_diag <"$work/replay.err"; }
# Offcpu records (sleeps), samples, user stacks: the raw walk counts each
# kind as the replay's decoder does.
"$cat" --raw -o "$work/o.raw" -e vfs_read,offcpu,sample --min-offcpu 100us --stack \
	--sample cpu-clock:997 -g -- \
	sh -c "for i in 1 2 3 4 5 6; do cat '$work/data' | wc -c; sleep 0.05; done >/dev/null" \
	2>"$work/olive.err"
"$cat" -i "$work/o.raw" -v >/dev/null 2>"$work/oreplay.err"
counts() {
	grep -E -e '^ringtrace-cat: [0-9]* records' -e 'user stacks? cut' "$1" |
		sed 's/, [0-9]* lost.*//'
}
olive=$(counts "$work/olive.err")
oreplay=$(counts "$work/oreplay.err")
"$cat" -i "$work/o.raw" >"$work/o.txt" 2>/dev/null
[[ -n $olive && $olive == "$oreplay" ]] && grep -q ': offcpu: ' "$work/o.txt"
tap_ok $? "with offcpu records and samples, live counts = replay counts: ${olive//$'\n'/ }" ||
	{ tap_diag <"$work/olive.err"; tap_diag <"$work/oreplay.err"; }
main=$(sed -n 's/^ringtrace-cat: [0-9]* records.*, \([0-9]*\) samples\?,.*/\1/p' "$work/olive.err")
perf=$(sed -n 's/^ringtrace-cat: perf .*: \([0-9]*\) samples,.*/\1/p' "$work/olive.err")
[[ -n $main && $main == "$perf" ]]
tap_ok $? "live: the summary's samples are perf's ($main, $perf)" || tap_diag <"$work/olive.err"

# The command stops ringtrace-cat (its parent) while it reads, then lets
# it go on: the 4 KiB rings overflow, whatever the machine's speed.
# shellcheck disable=SC2016 # expanded by the command's shell
lossy='kill -STOP $PPID; dd if=/dev/zero of=/dev/null bs=512 count=20000 2>/dev/null; kill -CONT $PPID'
"$cat" --hist --buffer-size 4K -- sh -c "$lossy" >"$work/lh" 2>"$work/lh.err"
said=$(sed -n 's/^  \([0-9]*\) records lost (.*/\1/p' "$work/lh")
sum=$(sed -n 's/^ringtrace-cat: .*, \([0-9]*\) lost, .*/\1/p' "$work/lh.err")
[[ -n $said && $said -gt 0 && $said == "$sum" ]]
tap_ok $? "live --hist: the records lost are said under it, as the summary counts them ($said, $sum)" ||
	{ tap_diag <"$work/lh"; tap_diag <"$work/lh.err"; }
"$cat" -q --hist --buffer-size 4K -- sh -c "$lossy" >"$work/lq" 2>"$work/lq.err"
grep -q '^missing from this view:' "$work/lq" && grep -Eq '^  [1-9][0-9]* records lost \(' "$work/lq"
tap_ok $? "live --hist -q: the losses are still said" || { tap_diag <"$work/lq"; tap_diag <"$work/lq.err"; }

"$cat" -q --hist --interval 300ms -- \
	sh -c "cat '$work/data' >/dev/null; sleep 1; cat '$work/data' >/dev/null" \
	>"$work/hist" 2>"$work/hist.err"
rc=$?
n=$(grep -c '^=== interval [0-9]*: ' "$work/hist")
last=$(grep '^=== interval' "$work/hist" | tail -1)
[[ $rc -eq 0 && $n -ge 2 && $last == "=== interval $n: from "*" to the end of the run (CLOCK_MONOTONIC) ===" ]] &&
	[[ $(grep '^=== interval' "$work/hist" | sed 's/^=== interval \([0-9]*\):.*/\1/' | tr '\n' ' ') == "$(seq -s ' ' 1 "$n") " ]]
tap_ok $? "--hist --interval: $n blocks numbered 1..$n, the last one to the end of the run" ||
	{ tap_diag <"$work/hist"; tap_diag <"$work/hist.err"; }
python3 - "$work/hist" <<'PY'
import sys
blocks = open(sys.argv[1]).read().split("\n=== interval")
for b in blocks:
    if "(no vfs_read, lock or offcpu events)" in b:
        assert "percentiles are" not in b, b
    elif "@[all]" in b:
        assert "percentiles are" in b, b
PY
tap_ok $? "the percentile footnote only under percentiles" || tap_diag <"$work/hist"
tap_done
