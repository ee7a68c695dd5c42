#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat --graph vfs_read against a known call tree: every read()
# of the ringtrace_calltree test module's file runs
#
#   ringtrace_ct_outer { ringtrace_ct_first (sleeps 3 ms),
#                        ringtrace_ct_middle { ringtrace_ct_inner (2 ms) } }
#
# dd makes exactly N reads of it. Traced with --graph-funcs naming the
# four, the JSON holds exactly N reads by dd of that file, each with
# exactly that tree: outer at depth 1 holding first and middle at depth 2
# in that order, inner at depth 3 inside middle; every span starts and
# ends inside its parent and the read; first and inner last at least the
# time they sleep; each parent's self time is its duration less its
# children's; and the module ran the tree N times. The text view draws
# the same tree. Recorded raw and replayed, --folded puts the tree's
# wall time under vfs_read: exactly the tree's chains, every span's self
# time on its own, adding up to the reads' latency to the nanosecond; and
# --report says first and inner spent at least their sleeps. A function
# of the module that does not exist is refused.
# Needs root and ringtrace.ko loaded (the runner does it).
#
# The probes attach while dd is held (ringtrace-cat starts the COMMAND
# stopped until ENABLE) and nothing else runs the module's functions.
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

[[ -x $cat ]] || tap_skip_all "tools not built (make -C user)"
ko=${RINGTRACE_KO_ROOT:-$top}	# modules built for the running kernel
tap_plan 6

n=7
size=512
dir=/sys/kernel/debug/ringtrace_calltree
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
if ! insmod "$ko/selftests/ringtrace/modules/ringtrace_calltree.ko"; then
	echo "Bail out! cannot load ringtrace_calltree.ko"
	exit 1
fi
trap 'rmmod ringtrace_calltree; rm -rf "$work"' EXIT
funcs=ringtrace_ct_outer,ringtrace_ct_first,ringtrace_ct_middle,ringtrace_ct_inner

cat >"$work/check.py" <<'PY'
import json, sys

path, size, n = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
FIRST_NS, INNER_NS = 3000000, 2000000
want = [("ringtrace_ct_outer", 1), ("ringtrace_ct_first", 2),
        ("ringtrace_ct_middle", 2), ("ringtrace_ct_inner", 3)]

def inside(s, start, end):
    return start <= s["entry_ns"] and s["entry_ns"] + s["dur_ns"] <= end

def why_not(r):
    g = r["graph"]
    shape = [(s["func"], s["depth"]) for s in g]
    if shape != want:
        return "tree %s, not %s" % (shape, want)
    outer, first, middle, inner = g
    start = r["ts_ns"] - r["lat_ns"]
    if not inside(outer, start, r["ts_ns"]):
        return "outer outside the read: %s" % outer
    for child in (first, middle):
        if not inside(child, outer["entry_ns"],
                      outer["entry_ns"] + outer["dur_ns"]):
            return "%s outside outer" % child["func"]
    if first["entry_ns"] + first["dur_ns"] > middle["entry_ns"]:
        return "first does not end before middle starts"
    if not inside(inner, middle["entry_ns"],
                  middle["entry_ns"] + middle["dur_ns"]):
        return "inner outside middle"
    if first["dur_ns"] < FIRST_NS or inner["dur_ns"] < INNER_NS:
        return "shorter than its sleep: first %d, inner %d ns" % (
            first["dur_ns"], inner["dur_ns"])
    if outer["self_ns"] != outer["dur_ns"] - first["dur_ns"] - middle["dur_ns"] \
            or middle["self_ns"] != middle["dur_ns"] - inner["dur_ns"] \
            or first["self_ns"] != first["dur_ns"] \
            or inner["self_ns"] != inner["dur_ns"]:
        return "self times: %s" % g
    return None

reads = []
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") == "vfs_read" and e.get("comm") == "dd" and \
            e.get("path") == path and e.get("count") == size:
        reads.append(e)
if len(reads) != n:
    raise SystemExit("%d reads of %s by dd, not %d" % (len(reads), path, n))
for r in reads:
    w = why_not(r)
    if w:
        raise SystemExit(w)
print("%d ok" % n)
PY

before=$(cat "$dir/calls")
"$cat" --graph vfs_read --graph-funcs "$funcs" --json -- \
	dd if="$dir/tree" of=/dev/null bs="$size" count="$n" status=none \
	>"$work/t.json" 2>"$work/t.err"
rc=$?
after=$(cat "$dir/calls")
why=$(python3 "$work/check.py" "$work/t.json" "$dir/tree" "$size" "$n" 2>&1)
[[ $rc -eq 0 && $why == "$n ok" ]]
tap_ok $? "JSON: $n reads, each exactly outer { first, middle { inner } } inside the read, sleeps covered, self times exact ($why, exit $rc)" ||
	{ tap_diag <"$work/t.err"; head -3 "$work/t.json" | tap_diag; }

[[ $((after - before)) -eq $n ]]
tap_ok $? "the module ran the tree $n times ($((after - before)))"

"$cat" --graph vfs_read --graph-funcs "$funcs" -- \
	dd if="$dir/tree" of=/dev/null bs="$size" count="$n" status=none \
	>"$work/t.txt" 2>"$work/t2.err"
rc=$?
# Each read's block, as drawn: the tree's four lines in order.
blocks=$(awk '
	on && !/^  \|/ { if (s != "") print s; on = 0; s = "" }
	/vfs_read: .* file=\/sys\/kernel\/debug\/ringtrace_calltree\/tree/ { on = 1; next }
	on { sub(/[0-9.]+us.*/, ""); s = s $0 ";" }
	END { if (on && s != "") print s }' "$work/t.txt" | sort | uniq -c)
want="      $n   |  ringtrace_ct_outer() {;  |    ringtrace_ct_first() ;  |    ringtrace_ct_middle() {;  |      ringtrace_ct_inner() ;  |    } ;  |  } ;"
[[ $rc -eq 0 && $blocks == "$want" ]]
tap_ok $? "text: $n reads drawn as the same indented tree (exit $rc)" ||
	{ tap_diag <<<"$blocks"; tap_diag <"$work/t2.err"; }

"$cat" --graph vfs_read --graph-funcs "$funcs" --raw -o "$work/g.raw" -- \
	dd if="$dir/tree" of=/dev/null bs="$size" count="$n" status=none \
	2>"$work/g.err"
rc=$?
"$cat" -i "$work/g.raw" --graph vfs_read --folded >"$work/g.folded" 2>"$work/gf.err"
rcf=$?
lat=$("$cat" -i "$work/g.raw" --json 2>/dev/null |
	python3 -c 'import json, sys
print(sum(e["lat_ns"] for e in map(json.loads, sys.stdin)
          if e.get("type") == "vfs_read"))')
weight=$(awk '{ s += $NF } END { print s + 0 }' "$work/g.folded")
chains=$(sed 's/_\[k\]//g; s/ [0-9]*$//' "$work/g.folded" | sort | tr '\n' ' ')
o=dd\;vfs_read\;ringtrace_ct_outer
want="dd;vfs_read $o $o;ringtrace_ct_first $o;ringtrace_ct_middle $o;ringtrace_ct_middle;ringtrace_ct_inner "
[[ $rc -eq 0 && $rcf -eq 0 && $chains == "$want" && $weight -eq $lat && $lat -gt 0 ]]
tap_ok $? "--folded: the tree's chains under vfs_read, weighing the reads' $lat ns exactly ($weight)" ||
	{ tap_diag <"$work/g.folded"; tap_diag <"$work/gf.err"; tap_diag <"$work/g.err"; }

"$cat" -i "$work/g.raw" --graph vfs_read --report >"$work/g.report" 2>/dev/null
rc=$?
# "Children% Self% Children(w) Self(w) Symbol": the self weight, in ns.
first=$(awk '$5 ~ /^ringtrace_ct_first/ { print $4 }' "$work/g.report")
inner=$(awk '$5 ~ /^ringtrace_ct_inner/ { print $4 }' "$work/g.report")
[[ $rc -eq 0 && ${first:-0} -ge $((n * 3000000)) && ${inner:-0} -ge $((n * 2000000)) ]]
tap_ok $? "--report: first and inner spent at least their sleeps ($first, $inner ns)" ||
	tap_diag <"$work/g.report"

"$cat" --graph vfs_read --graph-funcs ringtrace_ct_nosuch -- true \
	>/dev/null 2>"$work/bad.err"
rc=$?
[[ $rc -ne 0 ]] && grep -q "ringtrace_ct_nosuch" "$work/bad.err"
tap_ok $? "a function that does not exist is refused by name (exit $rc)" ||
	tap_diag <"$work/bad.err"
