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
# children's and its own off-CPU intervals'; first and inner each hold
# off-CPU intervals (where they slept: the stack names
# wait_for_completion), at least as long as their sleeps (the module's
# waker starts counting once it saw the sleeper off CPU), and no longer
# than they are; every
# interval lies in its span, outside its children, and they add up to
# the read's own offcpu_ns (the module's count); and the module ran
# the tree N times. The text view draws the same tree, an [off-cpu]
# line under first and under inner. Recorded raw and replayed, the
# graph counts every offcpu record the file holds (in a read or outside
# one), and --folded puts the tree's wall time under vfs_read: exactly
# the tree's chains, each span's time on CPU on its own, its off-CPU
# intervals on [off-cpu] chains under it, adding up to the reads'
# latency to the nanosecond, the [off-cpu] chains to the replayed
# JSON's intervals; and --report says first and inner spent at least
# their sleeps. A function of the module that does not exist is
# refused.
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
tap_plan 8

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
# The module wakes a sleeper only after it saw it off CPU and slept the
# whole time itself: its off-CPU time is at least the sleep. Some slack
# for the two clocks' reads on different CPUs.
ON_CPU_NS = 50000
want = [("ringtrace_ct_outer", 1), ("ringtrace_ct_first", 2),
        ("ringtrace_ct_middle", 2), ("ringtrace_ct_inner", 3)]

def inside(s, start, end):
    return start <= s["entry_ns"] and s["entry_ns"] + s["dur_ns"] <= end

def offcpu_under(r):
    """Each span's off-CPU intervals, and those of the read itself."""
    under, stack = {}, []
    for s in r["graph"]:
        del stack[s["depth"] - 1:]
        parent = stack[-1]["func"] if stack else "vfs_read"
        if s["kind"] == "offcpu":
            under.setdefault(parent, []).append(s)
        else:
            stack.append(s)
    return under

def why_not_offcpu(r):
    g = [s for s in r["graph"] if s["kind"] == "func"]
    outer, first, middle, inner = g
    under = offcpu_under(r)
    # Every interval (--min-offcpu 0): the module's own count agrees.
    total = sum(s["dur_ns"] for s in r["graph"] if s["kind"] == "offcpu")
    if total != r["offcpu_ns"]:
        return "intervals of %d ns, the read says %d off CPU" % (
            total, r["offcpu_ns"])
    for span, sleep, child in ((first, FIRST_NS, None), (inner, INNER_NS, None),
                               (middle, 0, inner), (outer, 0, None)):
        offs = under.get(span["func"], [])
        off = sum(o["dur_ns"] for o in offs)
        kids = sum(s["dur_ns"] for s in (child,) if s) if span is middle \
            else (first["dur_ns"] + middle["dur_ns"] if span is outer else 0)
        if off != span["offcpu_ns"] or \
                span["self_ns"] + off + kids != span["dur_ns"]:
            return "%s: self %d + off %d + children %d != %d" % (
                span["func"], span["self_ns"], off, kids, span["dur_ns"])
        if sleep and (not offs or off < sleep - ON_CPU_NS or off > span["dur_ns"]):
            return "%s off CPU %d ns in %d intervals, slept %d ns in %d" % (
                span["func"], off, len(offs), sleep, span["dur_ns"])
        if sleep and not any("wait_for_" in f for o in offs
                             for f in o["frames"]):
            return "%s: no interval blocked in wait_for_completion: %s" % (
                span["func"], offs)
        for o in offs:
            if not inside(o, span["entry_ns"], span["entry_ns"] + span["dur_ns"]):
                return "an interval outside %s: %s" % (span["func"], o)
            for c in (first, middle) if span is outer else \
                    (inner,) if span is middle else ():
                if o["entry_ns"] < c["entry_ns"] + c["dur_ns"] and \
                        c["entry_ns"] < o["entry_ns"] + o["dur_ns"]:
                    return "an interval of %s overlaps %s" % (
                        span["func"], c["func"])
    return None

def why_not(r):
    g = [s for s in r["graph"] if s["kind"] == "func"]
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
    return why_not_offcpu(r)

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

grep -q '"offcpu_outside":' "$work/t.json"
tap_ok $? "JSON: the summary counts the off-CPU intervals" ||
	tail -1 "$work/t.json" | tap_diag

[[ $((after - before)) -eq $n ]]
tap_ok $? "the module ran the tree $n times ($((after - before)))"

"$cat" --graph vfs_read --graph-funcs "$funcs" -- \
	dd if="$dir/tree" of=/dev/null bs="$size" count="$n" status=none \
	>"$work/t.txt" 2>"$work/t2.err"
rc=$?
# Each read's block, as drawn: the tree's lines in order, a span's
# sleep as one [off-cpu] line (preemptions, R, may come anywhere: left
# out; a sleep cut in two is one line).
blocks=$(awk '
	on && !/^  \|/ { if (s != "") print s; on = 0; s = "" }
	/vfs_read: .* file=\/sys\/kernel\/debug\/ringtrace_calltree\/tree/ { on = 1; next }
	on && /\[off-cpu R\]/ { next }
	on { sub(/[0-9.]+us.*/, ""); sub(/\[off-cpu [A-Za-z]+\] /, "[off-cpu]")
	     if ($0 != last || $0 !~ /off-cpu/) s = s $0 ";"; last = $0 }
	END { if (on && s != "") print s }' "$work/t.txt" | sort | uniq -c)
want="      $n   |  ringtrace_ct_outer() {;  |    ringtrace_ct_first() {;  |      [off-cpu];  |    } ;  |    ringtrace_ct_middle() {;  |      ringtrace_ct_inner() {;  |        [off-cpu];  |      } ;  |    } ;  |  } ;"
[[ $rc -eq 0 && $blocks == "$want" ]]
tap_ok $? "text: $n reads drawn as the same indented tree, first's and inner's sleeps as [off-cpu] lines (exit $rc)" ||
	{ tap_diag <<<"$blocks"; tap_diag <"$work/t2.err"; }

"$cat" --graph vfs_read --graph-funcs "$funcs" --raw -o "$work/g.raw" -- \
	dd if="$dir/tree" of=/dev/null bs="$size" count="$n" status=none \
	2>"$work/g.err"
rc=$?
"$cat" -i "$work/g.raw" --graph vfs_read --folded >"$work/g.folded" 2>"$work/gf.err"
rcf=$?
"$cat" -i "$work/g.raw" --graph vfs_read --json >"$work/g.json" 2>/dev/null
# Every offcpu record of the file, in a read or outside one: counted.
counts=$("$cat" -i "$work/g.raw" --json 2>/dev/null | python3 -c 'import json, sys
ev = [json.loads(l) for l in sys.stdin]
g = [json.loads(l) for l in open(sys.argv[1])]
s = g[-1]
print(sum(e["lat_ns"] for e in ev if e.get("type") == "vfs_read"),
      sum(e.get("type") == "offcpu" for e in ev),
      s["offcpu_shown"] + s["offcpu_outside"],
      sum(n["dur_ns"] for r in g if r.get("type") == "vfs_read"
          for n in r["graph"] if n["kind"] == "offcpu"))' "$work/g.json")
read -r lat records counted off <<<"$counts"
[[ $rc -eq 0 && ${records:-0} -gt 0 && $records -eq $counted ]]
tap_ok $? "replay: the graph counts all ${records:-0} offcpu records of the recording (${counted:-none} shown or outside a read)" ||
	{ tap_diag <"$work/g.err"; tail -1 "$work/g.json" | tap_diag; }
weight=$(awk '{ s += $NF } END { print s + 0 }' "$work/g.folded")
offw=$(awk '/\[off-cpu\]/ { s += $NF } END { print s + 0 }' "$work/g.folded")
# The chains as callers only: an [off-cpu] chain's frames after it cut.
chains=$(sed 's/_\[k\]//g; s/ [0-9]*$//; s/;\[off-cpu\].*/;[off-cpu]/' \
	"$work/g.folded" | sort -u | tr '\n' ' ')
o=dd\;vfs_read\;ringtrace_ct_outer
want="$o;ringtrace_ct_first;[off-cpu] $o;ringtrace_ct_middle;ringtrace_ct_inner;[off-cpu] "
func=$(sed 's/_\[k\]//g; s/ [0-9]*$//' "$work/g.folded" | grep -v "off-cpu" |
	sort | tr '\n' ' ')
wantf="dd;vfs_read $o $o;ringtrace_ct_first $o;ringtrace_ct_middle $o;ringtrace_ct_middle;ringtrace_ct_inner "
[[ $rc -eq 0 && $rcf -eq 0 && $func == "$wantf" && $weight -eq $lat &&
   $lat -gt 0 && $offw -eq $off && $off -ge $((n * 4000000)) ]] &&
	for c in $want; do [[ " $chains " == *" $c "* ]] || false; done
tap_ok $? "--folded: the tree's chains under vfs_read, first's and inner's [off-cpu] under them, weighing the reads' $lat ns exactly ($weight; off CPU $offw = $off)" ||
	{ tap_diag <"$work/g.folded"; tap_diag <"$work/gf.err"; tap_diag <"$work/g.err"; }

"$cat" -i "$work/g.raw" --graph vfs_read --report >"$work/g.report" 2>/dev/null
rc=$?
# "Children% Self% Children(w) Self(w) Symbol": the children weight (on
# and off CPU), in ns.
first=$(awk '$5 ~ /^ringtrace_ct_first/ { print $3 }' "$work/g.report")
inner=$(awk '$5 ~ /^ringtrace_ct_inner/ { print $3 }' "$work/g.report")
[[ $rc -eq 0 && ${first:-0} -ge $((n * 3000000)) && ${inner:-0} -ge $((n * 2000000)) ]]
tap_ok $? "--report: first and inner spent at least their sleeps ($first, $inner ns)" ||
	tap_diag <"$work/g.report"

"$cat" --graph vfs_read --graph-funcs ringtrace_ct_nosuch -- true \
	>/dev/null 2>"$work/bad.err"
rc=$?
[[ $rc -ne 0 ]] && grep -q "ringtrace_ct_nosuch" "$work/bad.err"
tap_ok $? "a function that does not exist is refused by name (exit $rc)" ||
	tap_diag <"$work/bad.err"
