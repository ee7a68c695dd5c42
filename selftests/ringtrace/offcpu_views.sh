#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Off-CPU time through ringtrace-cat, as a person would use it: record
# `-e vfs_read,offcpu --stack --raw -- sh -c 'sleep 0.2 | cat; sleep 0.05'`
# and replay it into every view. The sleeps block in nanosleep for at least
# 50 ms; cat's reads wait on the pipe. Checked: JSON offcpu records and
# every vfs_read's offcpu_ns (no larger than its latency); --folded and
# --flamegraph --flame-weight offcpu weigh exactly the off-CPU time of the
# records, name do_nanosleep under sleep, use the io palette and say the
# weight; --hist and --hist-by show the off-CPU histogram; --summary the
# OFFCPU column; Perfetto one "blocked S" slice per S record, nested with
# the reads; the replay filters -e and --min-offcpu. Live, the flame
# weight follows -e as on replay: -e offcpu --stack --flamegraph weighs
# time off CPU (it drew 0 ns of vfs_read), and --stack --folded weighs
# vfs_read latency without --sample (it was refused). Needs root and
# ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"
check_views=$top/user/tests/check_views.py

st_need_cat
# No process substitution: the guest has no /dev/fd.
"$top/user/ringtrace-ctl" info 2>/dev/null | grep -q '^events .* offcpu' ||
	tap_skip_all "the module has no offcpu event"
tap_plan 12

"$cat" -q -e vfs_read,offcpu --stack --raw -o "$work/o.raw" -- \
	sh -c 'sleep 0.2 | cat; sleep 0.05' 2>"$work/rec.err"
rc=$?
tap_ok $rc "recorded -e vfs_read,offcpu --stack (exit $rc)" ||
	tap_diag <"$work/rec.err"

"$cat" -q -i "$work/o.raw" --json >"$work/o.json" 2>"$work/json.err"
# The off-CPU total, S records, and reads: all, measured, consistent.
counts=$(awk '
	/"type":"offcpu"/ {
		match($0, /"offcpu_ns":[0-9]+/)
		t += substr($0, RSTART + 12, RLENGTH - 12)
		if ($0 ~ /"state":"S"/) s++
	}
	/"type":"vfs_read"/ {
		r++
		if (match($0, /"offcpu_ns":[0-9]+/)) {
			m++
			off = substr($0, RSTART + 12, RLENGTH - 12)
			match($0, /"lat_ns":[0-9]+/)
			if (off + 0 > substr($0, RSTART + 9, RLENGTH - 9) + 0) b++
		}
	}
	END { printf "%.0f %d %d %d %d\n", t, s, r, m, b }' "$work/o.json")
read -r total nS reads measured bad <<<"$counts"
[[ $total -ge 100000000 && $nS -ge 2 && $reads -ge 1 && $measured == "$reads" &&
   $bad == 0 ]]
tap_ok $? "JSON: $nS S records, $total ns off CPU; $measured of $reads reads measured, $bad with offcpu > lat" ||
	tap_diag <"$work/json.err"

"$cat" -i "$work/o.raw" --folded --flame-weight offcpu \
	--kallsyms /proc/kallsyms >"$work/o.folded" 2>"$work/folded.err"
# printf: mawk prints sums past 2^31 as 2.3e+09.
summed=$(awk '{ s += $NF } END { printf "%.0f\n", s }' "$work/o.folded")
[[ $summed == "$total" ]]
tap_ok $? "--folded --flame-weight offcpu: lines sum to the records' $total ns ($summed)" ||
	tap_diag <"$work/folded.err"

if awk '$1 != "0000000000000000" { found = 1; exit } END { exit !found }' /proc/kallsyms; then
	awk '/^sleep;.*do_nanosleep_\[k\]/ && $NF >= 50000000 { f = 1 } END { exit !f }' \
		"$work/o.folded"
	tap_ok $? "sleep's 50 ms are under do_nanosleep" ||
		head -5 "$work/o.folded" | tap_diag
else
	tap_skip "do_nanosleep named" "kallsyms shows no addresses (kptr_restrict)"
fi

"$cat" -q -i "$work/o.raw" --flamegraph "$work/o.svg" --flame-weight offcpu \
	--kallsyms /proc/kallsyms 2>"$work/svg.err" &&
	python3 "$check_views" svg "$work/o.svg" "$total" >"$work/svg.check" 2>&1 &&
	grep -q '(ns off CPU)' "$work/o.svg" &&
	grep -q 'ns off CPU, ' "$work/o.svg" &&
	! grep -o 'fill="rgb([0-9]*,[0-9]*,[0-9]*)"' "$work/o.svg" |
		awk -F'[(,)]' '$2 != $3 { bad = 1 } END { exit !bad }'
tap_ok $? "--flamegraph --flame-weight offcpu: weighs $total ns, says so, io colours" ||
	cat "$work/svg.err" "$work/svg.check" | tap_diag

"$cat" -q -i "$work/o.raw" --hist --hist-by comm >"$work/hist" 2>&1
grep -q '^ off CPU$' "$work/hist" && grep -q '^@\[sleep\]$' "$work/hist"
tap_ok $? "--hist --hist-by comm: off-CPU histograms, one for sleep" ||
	head -20 "$work/hist" | tap_diag

"$cat" -q -i "$work/o.raw" --summary >"$work/summary" 2>&1
grep -Eq '^COMM .* OFFCPU  (CGROUP +)?FILE$' "$work/summary"
tap_ok $? "--summary has the OFFCPU column" || tap_diag <"$work/summary"

"$cat" -q -i "$work/o.raw" --perfetto "$work/o.trace" 2>"$work/pf.err" &&
	python3 "$check_views" perfetto "$work/o.trace" "blocked S=$nS" \
		>"$work/pf.check" 2>&1
tap_ok $? "--perfetto: $nS 'blocked S' slices, nested with the reads" ||
	cat "$work/pf.err" "$work/pf.check" | tap_diag

n=$("$cat" -q -i "$work/o.raw" -e vfs_read --json | grep -c '"type":"offcpu"')
[[ $n == 0 ]]
tap_ok $? "replay -e vfs_read leaves the offcpu records out ($n)"

long=$(awk '/"type":"offcpu"/ { match($0, /"offcpu_ns":[0-9]+/)
	if (substr($0, RSTART + 12, RLENGTH - 12) + 0 >= 40000000) n++ }
	END { print n + 0 }' "$work/o.json")
n=$("$cat" -q -i "$work/o.raw" --min-offcpu 40ms --json | grep -c '"type":"offcpu"')
[[ $n == "$long" && $n -ge 1 ]]
tap_ok $? "replay --min-offcpu 40ms keeps the $long intervals of 40 ms or more ($n)"

# Live: -e offcpu alone weighs time off CPU by default.
"$cat" -q -e offcpu --stack --flamegraph "$work/live.svg" -- sleep 0.05 \
	2>"$work/live.err"
rc=$?
live_total=$(sed -n 's/.*data-d="0"[^>]*><title>all (\([0-9]*\) ns off CPU.*/\1/p' "$work/live.svg")
[[ $rc -eq 0 && ${live_total:-0} -ge 50000000 ]]
tap_ok $? "live -e offcpu --stack --flamegraph: ${live_total:-no} ns off CPU (exit $rc)" ||
	{ tap_diag <"$work/live.err"; grep -m3 '<title>' "$work/live.svg" | tap_diag; }

# Live --folded of vfs_read stacks, by latency, without --sample.
head -c 10000 /dev/zero >"$work/ten"
"$cat" --stack --folded --flame-weight latency -- \
	dd if="$work/ten" of=/dev/null bs=4096 status=none \
	>"$work/live.folded" 2>"$work/live.ferr"
rc=$?
lines=$(grep -c '^dd;' "$work/live.folded")
[[ $rc -eq 0 && $lines -ge 1 ]] &&
	grep -q 'folded stacks from [0-9]* vfs_read calls' "$work/live.ferr"
tap_ok $? "live --stack --folded --flame-weight latency: $lines stacks of dd (exit $rc)" ||
	{ tap_diag <"$work/live.ferr"; head -3 "$work/live.folded" | tap_diag; }

tap_done
