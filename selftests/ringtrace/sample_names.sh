#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Perf samples name children from fork, as perf does: a shell's
# subshell never execs, and its samples must bear the shell's name, not
# ":TID"; a child that execs bears its new name; --comm selects by it, live
# and on replay of a raw file (FORK and COMM records kept in it).
# Needs root and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
tap_plan 5

# The subshell spins without exec; md5sum is a child that execs.
head -c 3000000 /dev/urandom >"$work/data"
workload="( i=0; while [ \$i -lt 30000 ]; do i=\$((i+1)); done ); md5sum '$work/data' >/dev/null"

check() {	# check FILE: samples of more than one thread, none named ":TID"
	python3 - "$1" <<'PY'
import json, re, sys
s = [j for j in map(json.loads, open(sys.argv[1])) if j["type"] == "sample"]
unnamed = sorted({(j["tid"], j["comm"]) for j in s if re.fullmatch(r":\d+", j["comm"])})
assert not unnamed, unnamed
tids = {j["comm"]: set() for j in s}
for j in s:
    tids[j["comm"]].add(j["tid"])
assert len(tids.get("sh", ())) >= 2, tids	# the shell and its subshell
assert "md5sum" in tids, tids
print({c: len(t) for c, t in tids.items()})
PY
}

"$cat" --json --sample cpu-clock:997 -- sh -c "$workload" >"$work/live.json" 2>"$work/live.err"
rc=$?
out=$(check "$work/live.json" 2>&1)
tap_ok $? "live: the subshell's samples are named sh, md5sum's md5sum (exit $rc): $out" ||
	{ tap_diag <<<"$out"; tap_diag <"$work/live.err"; }

"$cat" --raw -o "$work/r.raw" --sample cpu-clock:997 -- sh -c "$workload" 2>"$work/rec.err"
rc=$?
"$cat" -q -i "$work/r.raw" --json >"$work/replay.json" 2>"$work/replay.err"
out=$(check "$work/replay.json" 2>&1)
tap_ok $? "replay: the same names from the file's FORK and COMM records (exit $rc): $out" ||
	{ tap_diag <<<"$out"; tap_diag <"$work/rec.err"; tap_diag <"$work/replay.err"; }

"$cat" -q -i "$work/r.raw" --json --comm md5sum >"$work/comm.json" 2>"$work/comm.err"
n=$(grep -c '"type":"sample"' "$work/comm.json")
others=$(grep '"type":"sample"' "$work/comm.json" | grep -vc '"comm":"md5sum"')
[[ $n -gt 0 && $others -eq 0 ]]
tap_ok $? "--comm md5sum selects its $n samples, and only them" || tap_diag <"$work/comm.err"

# -i F --raw -o G: the copy keeps FORK and COMM records, so its samples
# bear the same names as the original's.
"$cat" -q -i "$work/r.raw" --raw -o "$work/c.raw" -e sample --time 0s, 2>"$work/c.err" &&
	"$cat" -q -i "$work/c.raw" --json >"$work/c.json" 2>>"$work/c.err" &&
	"$cat" -q -i "$work/r.raw" --json -e sample >"$work/s.json" 2>>"$work/c.err" &&
	cmp -s "$work/c.json" "$work/s.json" && out=$(check "$work/c.json" 2>&1)
tap_ok $? "a filtered copy (-i F --raw -o G -e sample) names its samples alike: ${out:-}" ||
	{ tap_diag <"$work/c.err"; tap_diag <<<"${out:-}"; }

"$cat" -q -i "$work/r.raw" --perfetto "$work/p.json" 2>"$work/p.err"
python3 - "$work/p.json" "$work/replay.json" <<'PY'
import json, sys
last = {}
for e in json.load(open(sys.argv[1])):
    if e["ph"] == "M" and e["name"] == "thread_name":
        last[e["tid"]] = e["args"]["name"]
for j in map(json.loads, open(sys.argv[2])):
    if j["type"] == "sample" and j["comm"] == "md5sum":
        assert last[j["tid"]] == "md5sum", (j["tid"], last)
assert not any(n.startswith(":") or n == "ringtrace-cat" for n in last.values()), last
PY
tap_ok $? "Perfetto names threads after the records (md5sum, no ':TID', no ringtrace-cat)" ||
	tap_diag <"$work/p.err"
tap_done
