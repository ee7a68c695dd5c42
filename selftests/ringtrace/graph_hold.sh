#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat --graph vfs_read --min-latency: the module holds each
# read's callees until the read returns and drops those of the fast ones
# (RINGTRACE_CFG_FUNC_HOLD), and the tool says how many it left out.
# The traced command reads the fanout test module's file F times (3
# traced callees each, nothing slept: fast) and the calltree module's S
# times (4 callees, 5 ms asleep: slow), --min-latency 2ms:
#
#  - ringtrace-ctl info names the func_hold feature;
#  - live, the JSON holds the S slow reads, each with its whole tree, and
#    every fanout read shown (one that took 2 ms after all, under an
#    emulator) has its 3 callees; the summary's fast_read_calls plus
#    the shown fanout reads' callees is 3 * F exactly, and some were
#    left out;
#  - the text view's last line says the same count;
#  - recorded raw and replayed, the same accounting holds and the
#    replay's count equals the recording's own FUNC_FAST_READ figure as
#    the replay's text says it.
#
# The probes attach while the command is held (ringtrace-cat starts it
# stopped until ENABLE) and nothing else runs the modules' functions.
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

[[ -x $cat ]] || tap_skip_all "tools not built (make -C user)"
"$ctl" info 2>/dev/null | grep -qE '^features( .*)? func_hold( |$)' ||
	tap_skip_all "the module does not hold calls until the read returns"
ko=${RINGTRACE_KO_ROOT:-$top}	# modules built for the running kernel
tap_plan 5

fast=40
slow=6
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
for m in ringtrace_fanout ringtrace_calltree; do
	if ! insmod "$ko/selftests/ringtrace/modules/$m.ko"; then
		echo "Bail out! cannot load $m.ko"
		exit 1
	fi
done
trap 'rmmod ringtrace_calltree ringtrace_fanout; rm -rf "$work"' EXIT
fan=/sys/kernel/debug/ringtrace_fanout/fan
tree=/sys/kernel/debug/ringtrace_calltree/tree
funcs='ringtrace_fan_0000,ringtrace_fan_0001,ringtrace_fan_0002,ringtrace_ct_*'
cmd=(sh -c "dd if=$fan of=/dev/null bs=512 count=$fast status=none &&
	    dd if=$tree of=/dev/null bs=512 count=$slow status=none")

"$ctl" info | grep -qE '^features( .*)? func_hold( |$)'
tap_ok $? "ringtrace-ctl info names func_hold"

# "SHOWN_FAN LEFT_OUT" if the JSON's reads add up, else why not.
cat >"$work/check.py" <<'PY'
import json, sys

fan, tree, fast, slow = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
summ, fan_reads, tree_reads = None, 0, 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") == "graph_summary":
        summ = e
    if e.get("type") != "vfs_read" or e.get("comm") != "dd":
        continue
    g = [s["func"] for s in e["graph"] if s["kind"] == "func"]
    if e.get("path") == fan:
        if g != ["ringtrace_fan_%04d" % i for i in range(3)]:
            raise SystemExit("a fanout read with %s" % g)
        fan_reads += 1
    elif e.get("path") == tree:
        if g != ["ringtrace_ct_outer", "ringtrace_ct_first",
                 "ringtrace_ct_middle", "ringtrace_ct_inner"]:
            raise SystemExit("a calltree read with %s" % g)
        tree_reads += 1
if summ is None or "fast_read_calls" not in summ:
    raise SystemExit("no graph_summary with fast_read_calls: %s" % summ)
left = summ["fast_read_calls"]
if tree_reads != slow:
    raise SystemExit("%d calltree reads, not %d" % (tree_reads, slow))
if left + 3 * fan_reads != 3 * fast or left == 0:
    raise SystemExit("left out %d + 3 * %d shown fanout reads != %d" % (
        left, fan_reads, 3 * fast))
print(fan_reads, left)
PY

"$cat" --graph vfs_read --graph-funcs "$funcs" --min-latency 2ms --json -- \
	"${cmd[@]}" >"$work/live.json" 2>"$work/live.err"
rc=$?
live=$(python3 "$work/check.py" "$work/live.json" "$fan" "$tree" "$fast" "$slow" 2>&1)
[[ $rc -eq 0 && $live =~ ^[0-9]+\ [0-9]+$ ]]
tap_ok $? "live: the $slow slow reads whole; left out + the shown fast reads' callees == $((3 * fast)) ($live, exit $rc)" ||
	{ tap_diag <"$work/live.err"; tail -c 1500 "$work/live.json" | tap_diag; }

"$cat" --graph vfs_read --graph-funcs "$funcs" --min-latency 2ms -- \
	"${cmd[@]}" >"$work/live.txt" 2>"$work/live.err"
rc=$?
left=$(grep -oE '[0-9]+ calls? of faster reads left out' "$work/live.txt" |
	grep -oE '^[0-9]+')
[[ $rc -eq 0 && -n $left && $left -gt 0 ]]
tap_ok $? "text: the last line says $left calls of faster reads left out (exit $rc)" ||
	{ tap_diag <"$work/live.err"; tail -5 "$work/live.txt" | tap_diag; }

"$cat" --graph vfs_read --graph-funcs "$funcs" --min-latency 2ms --raw \
	-o "$work/rec.raw" -- "${cmd[@]}" 2>"$work/rec.err"
rc=$?
"$cat" -i "$work/rec.raw" --graph vfs_read --json >"$work/rep.json" 2>"$work/rep.err"
rc2=$?
rep=$(python3 "$work/check.py" "$work/rep.json" "$fan" "$tree" "$fast" "$slow" 2>&1)
[[ $rc -eq 0 && $rc2 -eq 0 && $rep =~ ^[0-9]+\ [0-9]+$ ]]
tap_ok $? "recorded and replayed: the same accounting ($rep, exit $rc/$rc2)" ||
	{ tap_diag <"$work/rec.err"; tap_diag <"$work/rep.err"; }

"$cat" -i "$work/rec.raw" --graph vfs_read >"$work/rep.txt" 2>&1
rtext=$(grep -oE '[0-9]+ calls? of faster reads left out' "$work/rep.txt" |
	grep -oE '^[0-9]+')
[[ -n $rtext && $rtext == "${rep#* }" ]]
tap_ok $? "the replay's text and JSON say the same count (${rtext:-none} and ${rep#* })"
