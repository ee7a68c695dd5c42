#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat -e func:NAME: dd makes exactly N writes of a size nothing
# else writes to /dev/null; the text lines, the JSON objects and a raw
# recording replayed each show exactly N vfs_write calls of that size
# from dd with its return value, and --args 3 gives the count argument.
# A function that cannot be probed is refused with its reason. The calls
# the probe missed (func_missed's 100 threads asleep in eventfd_read at
# once) are said at the end, the same count live and on replay, and with
# the records make every call. Needs root and ringtrace.ko loaded (the
# runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

[[ -x $cat ]] || tap_skip_all "tools not built (make -C user)"
tap_plan 7

n=23
size=1234
hex=$(printf '0x%x' "$size")

"$cat" -e func:vfs_write --args 3 -- dd if=/dev/zero of=/dev/null \
	bs="$size" count="$n" status=none >"$work/t.txt" 2>"$work/t.err"
rc=$?
got=$(grep -cE "^ *dd .*func: name=vfs_write ret=$size lat=[0-9.]+us args=0x[0-9a-f]+,0x[0-9a-f]+,$hex( |\$)" "$work/t.txt")
[[ $rc -eq 0 && $got -eq $n ]]
tap_ok $? "text: exactly $n vfs_write lines of $size bytes from dd with 3 args ($got, exit $rc)" ||
	{ tap_diag <"$work/t.err"; head -5 "$work/t.txt" | tap_diag; }

"$cat" --json -e func:vfs_write -- dd if=/dev/zero of=/dev/null \
	bs="$size" count="$n" status=none >"$work/j.json" 2>"$work/j.err"
rc=$?
got=$(python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") == "func" and e.get("func") == "vfs_write" and \
       e.get("comm") == "dd" and e.get("ret") == int(sys.argv[2]) and \
       e.get("lat_ns", 0) > 0 and e.get("args") == []:
        n += 1
print(n)' "$work/j.json" "$size")
[[ $rc -eq 0 && $got -eq $n ]]
tap_ok $? "JSON: exactly $n func objects for dd's writes ($got, exit $rc)" ||
	{ tap_diag <"$work/j.err"; head -3 "$work/j.json" | tap_diag; }

"$cat" --raw -o "$work/r.raw" -e func:vfs_write --args 3 -- dd if=/dev/zero \
	of=/dev/null bs="$size" count="$n" status=none 2>"$work/r.err"
rc=$?
"$cat" -i "$work/r.raw" >"$work/r.txt" 2>"$work/r.replay"
replay=$?
got=$(grep -cE "^ *dd .*func: name=[^ ]+ ret=$size .*args=0x[0-9a-f]+,0x[0-9a-f]+,$hex( |\$)" "$work/r.txt")
[[ $rc -eq 0 && $replay -eq 0 && $got -eq $n ]]
tap_ok $? "raw: recorded and replayed, $n calls ($got, exit $rc, replay $replay)" ||
	{ tap_diag <"$work/r.err"; tap_diag <"$work/r.replay"; head -3 "$work/r.txt" | tap_diag; }

# func_missed --workload: 100 threads in eventfd_read at once.
missed_line() {
	sed -n 's/^ringtrace-cat: \([0-9]*\) func calls\{0,1\} missed by the probe .*/\1/p' "$1"
}
"$cat" --raw -o "$work/x.raw" -e func:eventfd_read -- "$here/func_missed" \
	--workload 2>"$work/x.err"
rc=$?
"$cat" -i "$work/x.raw" >"$work/x.txt" 2>"$work/x.replay"
replay=$?
live_n=$(missed_line "$work/x.err")
replay_n=$(missed_line "$work/x.replay")
got=$(grep -cE "^ *func_missed .*func: name=eventfd_read[^ ]* ret=8 " "$work/x.txt")
[[ $rc -eq 0 && $replay -eq 0 && ${live_n:-0} == "${replay_n:-0}" &&
	$((got + ${live_n:-0})) -eq 100 ]]
tap_ok $? "func calls missed by the probe: ${live_n:-0} live, ${replay_n:-0} on replay, + $got records = 100 (exit $rc, replay $replay)" ||
	{ tap_diag <"$work/x.err"; tap_diag <"$work/x.replay"; head -3 "$work/x.txt" | tap_diag; }

# The views say them too: under the text, in the JSON object.
"$cat" -q -i "$work/x.raw" --hist >"$work/h.txt" 2>&1
rc=$?
"$cat" -q -i "$work/x.raw" --hist --json >"$work/h.json" 2>"$work/h.jerr"
jrc=$?
n=${live_n:-0}
if [[ $n -gt 0 ]]; then
	grep -q "^  $n func calls\{0,1\} missed by the probe (no record)" "$work/h.txt"
else
	! grep -q "missed by the probe" "$work/h.txt"
fi
text=$?
grep -q "\"func_missed\":${n}[,}]" "$work/h.json"
json=$?
[[ $rc -eq 0 && $jrc -eq 0 && $text -eq 0 && $json -eq 0 ]]
tap_ok $? "--hist on replay: $n func calls missed, in its text and its JSON (exit $rc, $jrc)" ||
	{ tail -5 "$work/h.txt" | tap_diag; tail -c 600 "$work/h.json" | tap_diag; tap_diag <"$work/h.jerr"; }

"$cat" -e func:ringtrace_no_such_function -- true >/dev/null 2>"$work/n.err"
rc=$?
[[ $rc -ne 0 ]] && grep -q "cannot trace ringtrace_no_such_function" "$work/n.err"
tap_ok $? "a function that does not exist is refused with its reason (exit $rc)" ||
	tap_diag <"$work/n.err"

"$cat" -e func:a,func:b,func:c,func:d,func:e,func:f,func:g,func:h,func:i \
	-- true >/dev/null 2>"$work/m.err"
rc=$?
[[ $rc -ne 0 ]] && grep -q "at most 8 func: events" "$work/m.err"
tap_ok $? "more than 8 functions: a usage error (exit $rc)" || tap_diag <"$work/m.err"
