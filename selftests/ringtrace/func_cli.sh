#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat -e func:NAME: dd makes exactly N writes of a size nothing
# else writes to /dev/null; the text lines, the JSON objects and a raw
# recording replayed each show exactly N vfs_write calls of that size
# from dd with its return value, and --args 3 gives the count argument.
# The recording (and a --snapshot --raw file) keeps the names traced:
# --header lists them, a --no-symbols replay names the calls from them.
# --hist and --summary (text and JSON) count exactly N calls of
# vfs_write, in its own histogram and row named after it, and a replay
# of a raw recording counts and names them the same. --filter selects
# them by function and return value among another dd's writes, and
# --min-latency past any call's latency leaves none, live and on
# replay. --perfetto draws each of dd's N calls as a vfs_write slice on
# its thread's track, and --folded weighs the recording's calls by their
# latency under dd with vfs_write the leaf: the sum of their lat_ns.
# --ctf declares func events: babeltrace2's Python bindings read back the
# N calls with their return value and arguments, raw and (vfs_write's
# BTF prototype, --args) by name, in the class of its own func:vfs_write.
# A function that cannot be probed is refused with its reason. The calls
# the probe missed (func_missed's 100 threads asleep in eventfd_read at
# once) are said at the end, the same count live and on replay, and with
# the records make every call; a --snapshot --raw file of the same
# workload carries them too (FUNC_MISSED), and its replay says them so
# that with its records they make every call again. Needs root and
# ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

[[ -x $cat ]] || tap_skip_all "tools not built (make -C user)"
tap_plan 21

n=23
size=1234

"$cat" -e func:vfs_write --args 3 -- dd if=/dev/zero of=/dev/null \
	bs="$size" count="$n" status=none >"$work/t.txt" 2>"$work/t.err"
rc=$?
got=$(grep -cE "^ *dd .*func: name=vfs_write ret=$size lat=[0-9.]+us args=file=0x[0-9a-f]+,buf=0x[0-9a-f]+,count=$size( |\$)" "$work/t.txt")
[[ $rc -eq 0 && $got -eq $n ]]
tap_ok $? "text: exactly $n vfs_write lines of $size bytes from dd with 3 args, named from BTF ($got, exit $rc)" ||
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
got=$(grep -cE "^ *dd .*func: name=[^ ]+ ret=$size .*args=file=0x[0-9a-f]+,buf=0x[0-9a-f]+,count=$size( |\$)" "$work/r.txt")
[[ $rc -eq 0 && $replay -eq 0 && $got -eq $n ]]
tap_ok $? "raw: recorded and replayed, $n calls, the arguments named as live ($got, exit $rc, replay $replay)" ||
	{ tap_diag <"$work/r.err"; tap_diag <"$work/r.replay"; head -3 "$work/r.txt" | tap_diag; }

# The recording keeps the names the session traced (its FUNC_NAMES
# chunk): --header lists them, and the replay names the calls from them,
# --no-symbols too, as the live run does.
"$cat" -i "$work/r.raw" --header >"$work/r.hdr" 2>&1
got=$("$cat" -q -i "$work/r.raw" --no-symbols 2>&1 | grep -c " func: name=vfs_write ret=$size ")
grep -qx 'functions:      vfs_write' "$work/r.hdr" && [[ $got -eq $n ]]
tap_ok $? "raw: keeps the traced names: --header lists vfs_write, --no-symbols replay names $got of $n calls" ||
	tap_diag <"$work/r.hdr"

# The JSON views' numbers for vfs_write: the histogram's count, the
# summary row's calls, the histogram's and the row's total, and dd's
# key of --hist-by comm: "COUNT CALLS SUM TOTAL DD_COUNT".
json_counts() {
	python3 -c '
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
h = o["hist"]["all"]["funcs"]["vfs_write"]
rows = [r for r in o["summary"]["funcs"] if r["func"] == "vfs_write"]
dd = [k for k in o["hist"]["keys"] if k["comm"] == "dd"]
print(h["count"], rows[0]["calls"] if rows else -1, h["sum_ns"],
      rows[0]["total_ns"] if rows else -1,
      dd[0]["funcs"]["vfs_write"]["count"] if dd else -1)' "$1" 2>&1
}

# Text: the histogram's count line, its rows summed, the summary row's
# calls: "COUNT ROWS CALLS".
text_counts() {
	awk '/^ func vfs_write latency$/ { h = 1; next }
	     h && $2 == "->" && $4 == ":" { rows += $5; next }
	     h && $1 == "count" { n = $2; sub(",", "", n); h = 0 }
	     /^FUNCTION / { t = 1; next }
	     t && $1 == "vfs_write" { c = $2 }
	     END { print n + 0, rows + 0, c + 0 }' "$1"
}

"$cat" -e func:vfs_write --hist --summary -- dd if=/dev/zero of=/dev/null \
	bs="$size" count="$n" status=none >"$work/h.txt" 2>"$work/h.err"
rc=$?
got=$(text_counts "$work/h.txt")
[[ $rc -eq 0 && $got == "$n $n $n" ]]
tap_ok $? "--hist --summary text: vfs_write's histogram and row count $n calls ($got, exit $rc)" ||
	{ tap_diag <"$work/h.err"; tap_diag <"$work/h.txt"; }

"$cat" --json -e func:vfs_write --hist --hist-by comm --summary -- dd \
	if=/dev/zero of=/dev/null bs="$size" count="$n" status=none \
	>"$work/hj.json" 2>"$work/hj.err"
rc=$?
read -r hc rc_calls hsum rsum ddc <<<"$(json_counts "$work/hj.json")"
[[ $rc -eq 0 && $hc == "$n" && $rc_calls == "$n" && $ddc == "$n" && $hsum == "$rsum" ]]
tap_ok $? "--hist --summary JSON: $n calls in the histogram, the row and dd's key, one total ($hc $rc_calls $ddc, $hsum $rsum, exit $rc)" ||
	{ tap_diag <"$work/hj.err"; tap_diag <"$work/hj.json"; }

# A replay of the recording: the same calls under the same name.
"$cat" -i "$work/r.raw" --hist --summary >"$work/rh.txt" 2>"$work/rh.err"
replay=$?
got=$(text_counts "$work/rh.txt")
[[ $replay -eq 0 && $got == "$n $n $n" ]]
tap_ok $? "replay --hist --summary text: vfs_write named, $n calls ($got, exit $replay)" ||
	{ tap_diag <"$work/rh.err"; tap_diag <"$work/rh.txt"; }

"$cat" -i "$work/r.raw" --json --hist --hist-by comm --summary \
	>"$work/rhj.json" 2>"$work/rhj.err"
replay=$?
read -r hc rc_calls hsum rsum ddc <<<"$(json_counts "$work/rhj.json")"
[[ $replay -eq 0 && $hc == "$n" && $rc_calls == "$n" && $ddc == "$n" && $hsum == "$rsum" ]]
tap_ok $? "replay --hist --summary JSON: $n calls, as live ($hc $rc_calls $ddc, exit $replay)" ||
	{ tap_diag <"$work/rhj.err"; tap_diag <"$work/rhj.json"; }

# The summary's calls of vfs_write in a JSON view (0: no row).
json_calls() {
	python3 -c '
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
print(sum(r["calls"] for r in o["summary"].get("funcs", [])
          if r["func"] == "vfs_write"))' "$1" 2>&1
}

# Two dd's: the filter keeps the first one's writes only.
two_dds="dd if=/dev/zero of=/dev/null bs=$size count=$n status=none;
	 dd if=/dev/zero of=/dev/null bs=777 count=5 status=none"
"$cat" --json -e func:vfs_write --summary \
	--filter "func == \"vfs_write\" && ret == $size && comm == \"dd\"" \
	-- sh -c "$two_dds" >"$work/f.json" 2>"$work/f.err"
rc=$?
got=$(json_calls "$work/f.json")
[[ $rc -eq 0 && $got == "$n" ]]
tap_ok $? "--filter on func and ret: $n of dd's writes ($got, exit $rc)" ||
	{ tap_diag <"$work/f.err"; tap_diag <"$work/f.json"; }

"$cat" -i "$work/r.raw" --json --summary \
	--filter "func == \"vfs_write\" && ret == $size && lat > 0" \
	>"$work/rf.json" 2>"$work/rf.err"
replay=$?
got=$(json_calls "$work/rf.json")
[[ $replay -eq 0 && $got == "$n" ]]
tap_ok $? "replay --filter on func, ret and lat: $n calls ($got, exit $replay)" ||
	{ tap_diag <"$work/rf.err"; tap_diag <"$work/rf.json"; }

# No call takes an hour: --min-latency leaves none, live and on replay.
"$cat" --json -e func:vfs_write --summary --min-latency 1h -- dd \
	if=/dev/zero of=/dev/null bs="$size" count="$n" status=none \
	>"$work/m1.json" 2>"$work/m1.err"
rc=$?
got=$(json_calls "$work/m1.json")
"$cat" -i "$work/r.raw" --json --summary --min-latency 1h \
	>"$work/m2.json" 2>"$work/m2.err"
replay=$?
got2=$(json_calls "$work/m2.json")
[[ $rc -eq 0 && $replay -eq 0 && $got == 0 && $got2 == 0 ]] &&
	grep -qE "^ringtrace-cat: [0-9]+ events filtered out" "$work/m2.err"
tap_ok $? "--min-latency 1h: no func call left, live ($got) or replayed ($got2, exit $rc, $replay)" ||
	{ tap_diag <"$work/m1.err"; tap_diag <"$work/m2.err"; }

"$cat" -e func:vfs_write --perfetto "$work/p.json" -- dd if=/dev/zero \
	of=/dev/null bs="$size" count="$n" status=none >/dev/null 2>"$work/p.err"
rc=$?
got=$(python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
         if e.get("ph") == "M" and e.get("name") == "thread_name"}
print(sum(1 for e in ev if e.get("ph") == "X" and e["name"] == "vfs_write"
          and e["cat"] == "func" and e["dur"] > 0 and
          e["args"]["ret"] == int(sys.argv[2]) and
          names.get((e["pid"], e["tid"])) == "dd"))' "$work/p.json" "$size" 2>&1)
[[ $rc -eq 0 && $got == "$n" ]]
tap_ok $? "--perfetto: $n vfs_write slices on dd's track ($got, exit $rc)" ||
	{ tap_diag <"$work/p.err"; head -c 2000 "$work/p.json" | tap_diag; }

"$cat" -i "$work/r.raw" --folded >"$work/r.folded" 2>"$work/rfo.err"
replay=$?
folded=$(awk '$1 ~ /^dd;/ && $1 ~ /;vfs_write_\[k\]$/ { w += $2 }
	      $1 ~ /^dd;/ && $1 !~ /;vfs_write_\[k\]$/ { bad++ }
	      END { print w + 0, bad + 0 }' "$work/r.folded")
"$cat" -i "$work/r.raw" --json >"$work/r.json" 2>/dev/null
lat=$(python3 -c '
import json, sys
print(sum(e["lat_ns"] for e in map(json.loads, open(sys.argv[1]))
          if e.get("type") == "func" and e.get("comm") == "dd"))' "$work/r.json" 2>&1)
[[ $replay -eq 0 && $folded == "$lat 0" && $lat -gt 0 ]]
tap_ok $? "--folded: dd's calls weigh their latency, vfs_write the leaf ($folded, lat_ns $lat, exit $replay)" ||
	{ tap_diag <"$work/rfo.err"; head -5 "$work/r.folded" | tap_diag; }

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

# A flight-recorder snapshot's file carries them too: asked for once the
# workload is done (its shell then sleeps), it ends with a FUNC_MISSED
# chunk, and its replay says them as the live recording's replay does.
mkfifo "$work/sdone"
"$cat" --snapshot --raw -o "$work/s" -e func:eventfd_read -- sh -c \
	"'$here/func_missed' --workload; echo done >'$work/sdone'; sleep 30" \
	2>"$work/s.err" &
spid=$!
read -r _ <"$work/sdone"
kill -USR2 "$spid"
for ((i = 0; i < 600; i++)); do
	grep -q '^ringtrace-cat: snapshot 1: ' "$work/s.err" && break
	sleep 0.1
done
kill -TERM "$spid"
wait "$spid"
"$cat" -i "$work/s.1" >"$work/s.txt" 2>"$work/s.replay"
replay=$?
snap_n=$(missed_line "$work/s.replay")
got=$(grep -cE "^ *func_missed .*func: name=eventfd_read[^ ]* ret=8 " "$work/s.txt")
# Where the live run missed calls (a fixed number of return instances),
# the snapshot's run missed some too.
[[ -s $work/s.1 && $replay -eq 0 && $((got + ${snap_n:-0})) -eq 100 &&
	(${live_n:-0} -eq 0 || ${snap_n:-0} -gt 0) ]]
tap_ok $? "--snapshot --raw: ${snap_n:-0} func calls missed, said on replay, + $got records = 100 (replay $replay)" ||
	{ tap_diag <"$work/s.err"; tap_diag <"$work/s.replay"; }
"$cat" -i "$work/s.1" --header >"$work/s.hdr" 2>&1
grep -qx 'functions:      eventfd_read' "$work/s.hdr"
tap_ok $? "--snapshot --raw: the file keeps the traced names (--header lists eventfd_read)" ||
	tap_diag <"$work/s.hdr"

# The views say them too: under the text, in the JSON object.
"$cat" -q -i "$work/x.raw" --hist >"$work/h.txt" 2>&1
rc=$?
"$cat" -q -i "$work/x.raw" --hist --json >"$work/h.json" 2>"$work/h.jerr"
jrc=$?
m=${live_n:-0}
if [[ $m -gt 0 ]]; then
	grep -q "^  $m func calls\{0,1\} missed by the probe (no record)" "$work/h.txt"
else
	! grep -q "missed by the probe" "$work/h.txt"
fi
text=$?
grep -q "\"func_missed\":${m}[,}]" "$work/h.json"
json=$?
[[ $rc -eq 0 && $jrc -eq 0 && $text -eq 0 && $json -eq 0 ]]
tap_ok $? "--hist on replay: $m func calls missed, in its text and its JSON (exit $rc, $jrc)" ||
	{ tail -5 "$work/h.txt" | tap_diag; tail -c 600 "$work/h.json" | tap_diag; tap_diag <"$work/h.jerr"; }

"$cat" -e func:vfs_write --args 3 --ctf "$work/c.ctf" -- dd if=/dev/zero \
	of=/dev/null bs="$size" count="$n" status=none >/dev/null 2>"$work/c.err"
rc=$?
got=$(/usr/bin/python3 - "$work/c.ctf" "$size" 2>&1 <<'EOF'
import sys
import bt2
n, size = 0, int(sys.argv[2])
for m in bt2.TraceCollectionMessageIterator(sys.argv[1]):
    if type(m) is bt2._EventMessageConst and \
       m.event.name == 'func:vfs_write':
        f = m.event.payload_field
        if str(f['func']) == 'vfs_write' and str(f['comm']) == 'dd' and \
           int(f['ret']) == size and int(f['lat_ns']) > 0 and \
           int(f['nr_args']) == 3 and int(f['args'][2]) == size and \
           int(f['count']) == size:
            n += 1
print(n)
EOF
)
[[ $rc -eq 0 && $got == "$n" ]]
tap_ok $? "--ctf: babeltrace2 reads $n func:vfs_write events of dd's writes with ret, args and count by name ($got, exit $rc)" ||
	{ tap_diag <"$work/c.err"; echo "$got" | tap_diag; }

"$cat" -e func:ringtrace_no_such_function -- true >/dev/null 2>"$work/n.err"
rc=$?
[[ $rc -ne 0 ]] && grep -q "cannot trace ringtrace_no_such_function" "$work/n.err"
tap_ok $? "a function that does not exist is refused with its reason (exit $rc)" ||
	tap_diag <"$work/n.err"

# Among others, the one the kernel refuses is named in its log, whether
# the module attaches them one by one (kretprobe) or in one batch (one
# fprobe: the refused name found by bisecting the batch).
"$cat" -e func:vfs_write,func:ksys_read,func:ringtrace_no_such_function,func:vfs_fsync -- \
	true >/dev/null 2>"$work/b.err"
rc=$?
[[ $rc -ne 0 ]] && grep -q "the kernel log names which" "$work/b.err" &&
	dmesg | tail -n 20 | grep -Eq "cannot trace ringtrace_no_such_function with (fprobe|kretprobe): no such function"
tap_ok $? "in a list of four, the one that does not exist is named in the kernel log (exit $rc)" ||
	{ tap_diag <"$work/b.err"; dmesg | tail -n 5 | tap_diag; }

# One more than RINGTRACE_MAX_FUNCS: refused before anything attaches.
limit=$(st_max_funcs)
many=$(for i in $(seq $((limit + 1))); do printf 'func:f%d,' "$i"; done)
"$cat" -e "${many%,}" -- true >/dev/null 2>"$work/m.err"
rc=$?
[[ $rc -eq 2 ]] && grep -q "at most $limit func: and tp: events" "$work/m.err"
tap_ok $? "more than $limit functions: a usage error (exit $rc)" || tap_diag <"$work/m.err"
