#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The tools as a user runs them, against the real module: ringtrace-cat
# (-- COMMAND with its exit status, exact JSON keys, raw file round trip,
# SIGINT/SIGTERM stop cleanly with a summary, -p PID stops when PID has
# exited, bad options and values out of
# range, a corrupt raw file named with the offset, --per-thread (one thread's
# ring, nothing of another), a CPU brought online while tracing,
# --snapshot --raw, module missing, --load,
# unload when not loaded), lock records in JSON and ringtrace-lockstat (the
# table, what happened during a COMMAND, JSON, reset). Needs root and
# ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"
ko=${RINGTRACE_KO_ROOT:-$top}	# modules built for the running kernel

[[ -x $cat && -x $lockstat ]] || tap_skip_all "tools not built (make -C user)"
tap_plan 36

head -c 10000 /dev/zero >"$work/file"
# Records carry the task_ext (host_pid, host_tid, cgroup_id)
# only where the module offers cgroup records: not on a kernel without
# CONFIG_CGROUPS (scripts/debug-kernel's), where the JSON keys end before
# them.
ext=",host_pid,host_tid,cgroup_id,cgroup"
ext_why="with the task_ext"
if ! "$ctl" info 2>/dev/null | grep -qE '^features( .*)? cgroup( |$)'; then
	ext=
	ext_why="no task_ext: the module has no cgroup records"
fi

# --- ringtrace-cat ------------------------------------------------------
"$cat" --json -- dd if="$work/file" of=/dev/null bs=4096 status=none \
	>"$work/json" 2>"$work/json.err"
tap_ok $? "-- COMMAND: exits with the command's status (0)"

ino=$(stat -c %i "$work/file")
grep "\"ino\":$ino," "$work/json" >"$work/file.json"
[[ $(wc -l <"$work/file.json") -eq 4 ]]
tap_ok $? "dd's 4 reads of the file are there ($(wc -l <"$work/file.json"))"

keys=$(head -n1 "$work/file.json" | python3 -c 'import json,sys; print(",".join(json.loads(sys.stdin.read()).keys()))')
path=$(head -n1 "$work/file.json" | python3 -c 'import json,sys; print(json.loads(sys.stdin.read()).get("path", ""))')
# "path": the module names the file (ABI 2 path records); on PREEMPT_RT
# relative to its mount (Documentation/abi.rst), which the tool puts
# behind the mount's point from the reader's mount table: the same full
# path on every kernel. Then the task_ext's keys and the cgroup's path,
# where offered.
[[ $keys == "type,ts_ns,cpu,pid,tid,comm,dev,ino,pos,count,ret,lat_ns,path$ext" ]] &&
	[[ $path == "$work/file" ]]
tap_ok $? "vfs_read JSON keys, exactly and in order, the file named ($keys; $path; $ext_why)"

python3 - "$work/file.json" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert [r["ret"] for r in recs] == [4096, 4096, 1808, 0], recs
assert [r["pos"] for r in recs] == [0, 4096, 8192, 10000], recs
assert all(r["type"] == "vfs_read" and r["comm"] == "dd" and r["lat_ns"] > 0 for r in recs)
ts = [r["ts_ns"] for r in recs]
assert ts == sorted(ts)
EOF
tap_ok $? "their positions, results, comm and timestamps"

"$cat" -- sh -c 'exit 3' >/dev/null 2>&1
tap_ok $(($? == 3 ? 0 : 1)) "-- COMMAND: exit status 3 passed through"

grep -q -E 'ringtrace-cat: [0-9]+ records?(, [0-9]+ path records?)?(, [0-9]+ cgroup records?)?, 0 lost' "$work/json.err"
tap_ok $? "summary on stderr: $(head -n1 "$work/json.err")"

"$cat" --raw -o "$work/raw" -- dd if="$work/file" of=/dev/null bs=4096 status=none 2>/dev/null &&
	"$cat" -i "$work/raw" --json >"$work/replay" 2>/dev/null
[[ $(grep -c "\"ino\":$ino," "$work/replay") -eq 4 ]]
tap_ok $? "--raw -o FILE, then -i FILE decodes the same 4 reads"

# A corrupt record: the message names the file and the record's offset.
# The first record of the first RECORDS chunk (kind 1): its size field is
# the u16 at byte 6 of its header; chunks (u32 kind, u32 cpu, u64 size)
# follow the file header (header_size, u32 at byte 8).
rec=$(python3 - "$work/raw" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
off = struct.unpack_from('<I', data, 8)[0]
while struct.unpack_from('<I', data, off)[0] != 1:
    off += 16 + struct.unpack_from('<IIQ', data, off)[2]
print(off + 16)
PY
)
cp "$work/raw" "$work/bad.raw"
printf '\0\0' | dd of="$work/bad.raw" bs=1 seek=$((rec + 6)) conv=notrunc status=none
"$cat" -i "$work/bad.raw" >/dev/null 2>"$work/bad.raw.err"
rc=$?
[[ $rc -eq 3 ]] && grep -q "corrupt raw file $work/bad.raw: record of CPU [0-9]* at offset $rec: " "$work/bad.raw.err"
tap_ok $? "corrupt raw file: exit 3, file and offset named (exit $rc: $(head -n1 "$work/bad.raw.err"))"

# Values near 2^64 ns used to wrap: refused, naming the bound.
"$cat" -d 18446744073709551615ns >/dev/null 2>"$work/range.err"
rc=$?
[[ $rc -eq 2 ]] && grep -q -- "-d 18446744073709551615ns: must be at most" "$work/range.err"
tap_ok $? "-d near 2^64 ns: exit 2, the bound named ($(head -n1 "$work/range.err"))"

# --attach. The direct call, asked for, traces and says whom it
# locks out; a mechanism that is not offered is refused, naming why.
mask=$("$ctl" info 2>/dev/null | sed -n 's/^attach offered *//p')
if [[ " $mask " == *" direct "* ]]; then
	"$cat" --attach direct --json -- dd if="$work/file" of=/dev/null \
		bs=4096 status=none >"$work/direct.json" 2>"$work/direct.err"
	rc=$?
	[[ $rc -eq 0 ]] && [[ $(grep -c "\"ino\":$ino," "$work/direct.json") -eq 4 ]] &&
		grep -q "vfs_read is attached with direct: .*BPF fentry/fexit/LSM programs" \
			"$work/direct.err"
	tap_ok $? "--attach direct: dd's 4 reads, and what it excludes on stderr (exit $rc: $(head -n1 "$work/direct.err"))"
else
	tap_skip "--attach direct" "the direct call is not offered here ($mask)"
fi
if [[ " $mask " != *" fprobe "* ]]; then
	"$cat" --attach fprobe -- true >/dev/null 2>"$work/fprobe.err"
	rc=$?
	[[ $rc -eq 1 ]] && grep -q "cannot be attached with fprobe here" "$work/fprobe.err"
	tap_ok $? "--attach fprobe where fprobe is not offered: exit 1, said why ($(head -n1 "$work/fprobe.err"))"
else
	"$cat" --attach fprobe --json -- dd if="$work/file" of=/dev/null \
		bs=4096 status=none >"$work/fprobe.json" 2>"$work/fprobe.err"
	rc=$?
	[[ $rc -eq 0 && $(grep -c "\"ino\":$ino," "$work/fprobe.json") -eq 4 ]] &&
		! grep -q "vfs_read is attached with" "$work/fprobe.err"
	tap_ok $? "--attach fprobe: dd's 4 reads, no exclusion note (exit $rc)"
fi
"$cat" --flush-interval 5000000s >/dev/null 2>"$work/range.err"
rc=$?
[[ $rc -eq 2 ]] && grep -q "must be at most 60s" "$work/range.err"
tap_ok $? "--flush-interval 5000000s: exit 2, at most 60s ($(head -n1 "$work/range.err"))"

# A live trace stopped by a signal: disable, drain, summary, exit 0.
for sig in INT TERM; do
	set -m
	"$cat" -a -o "$work/live.$sig" 2>"$work/live.$sig.err" &
	pid=$!
	set +m
	sleep 1
	dd if="$work/file" of=/dev/null bs=1000 status=none
	sleep 0.5
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	[[ $rc -eq 0 ]] && grep -q "$ino" "$work/live.$sig" &&
		grep -q -E '[0-9]+ records?\b' "$work/live.$sig.err"
	tap_ok $? "SIG$sig stops a live trace cleanly (exit $rc, records and summary)"
done

# -p PID: the trace ends once PID has exited, as perf record -p does (it
# ran on to the end of -d). PID waits at a FIFO until tracing is on.
mkfifo "$work/pgate"
(read -r _ <"$work/pgate" && exec dd if="$work/file" of=/dev/null bs=1000 status=none) &
w=$!
set -m
"$cat" -p "$w" -d 600 -o "$work/p.txt" 2>"$work/p.err" &
pid=$!
set +m
sleep 2
echo go >"$work/pgate"
wait "$w"
# It stops by itself: a minute at most (a bound, not a timing; -d is 600 s).
for ((i = 0; i < 600; i++)); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
stopped=yes
if kill -0 "$pid" 2>/dev/null; then
	stopped=no
	kill -INT "$pid"
fi
wait "$pid"
rc=$?
[[ $stopped == yes && $rc -eq 0 ]] && grep -q "ino=$ino .*count=1000 " "$work/p.txt" &&
	grep -q -E '[0-9]+ records?\b' "$work/p.err"
tap_ok $? "-p PID stops once PID has exited, its reads traced (exit $rc, by itself: $stopped)" ||
	{ tap_diag <"$work/p.err"; tail -n 3 "$work/p.txt" | tap_diag; }
"$cat" -p 4194311 -d 5 >/dev/null 2>"$work/nopid.err"
rc=$?
[[ $rc -eq 1 ]] && grep -q "no process with pid 4194311" "$work/nopid.err"
tap_ok $? "-p with no such process: exit 1 ($(head -n1 "$work/nopid.err"))"

# --per-thread: one ring for the selected thread, nothing of another
# reader running at the same time. Both wait at a FIFO (a read begun
# before tracing is not seen) until ringtrace-cat is tracing.
mkfifo "$work/gate1" "$work/gate2"
(read -r _ <"$work/gate1" && exec dd if="$work/file" of=/dev/null bs=1000 status=none) &
w1=$!
(read -r _ <"$work/gate2" && exec dd if="$work/file" of=/dev/null bs=500 status=none) &
w2=$!
set -m
"$cat" --per-thread -t "$w1" --json -v -o "$work/thread.json" 2>"$work/thread.err" &
pid=$!
set +m
sleep 2
echo go >"$work/gate1"
echo go >"$work/gate2"
wait "$w1" "$w2"
kill -INT "$pid"
wait "$pid"
rc=$?
mine=$(grep -c "\"ino\":$ino,.*\"count\":1000," "$work/thread.json")
others=$(grep -c -v "\"tid\":$w1," "$work/thread.json")
[[ $rc -eq 0 && $mine -eq 11 && $others -eq 0 ]] &&
	grep -q -E "^ +thread $w1 +[0-9]+" "$work/thread.err"
tap_ok $? "--per-thread -t: the thread's 11 reads (10 + EOF), nothing of another (exit $rc, $mine, $others foreign)"

"$cat" --per-thread -t 999999 -d 1 >/dev/null 2>"$work/notid.err"
rc=$?
[[ $rc -eq 1 ]] && grep -q "no thread" "$work/notid.err"
tap_ok $? "--per-thread -t with no such thread: exit 1 ($(head -n1 "$work/notid.err"))"

# A CPU offline when tracing starts and brought back while it runs: the
# rings of present CPUs are mapped, so its reads are traced once it is
# back (with online CPUs only, they went to no ring at all).
cpu1=/sys/devices/system/cpu/cpu1/online
if [[ -w $cpu1 ]] && echo 0 >"$cpu1"; then
	set -m
	"$cat" -a --json -o "$work/hot.json" 2>"$work/hot.err" &
	pid=$!
	set +m
	sleep 2
	echo 1 >"$cpu1"
	taskset -c 1 dd if="$work/file" of=/dev/null bs=2000 status=none
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	n=$(grep "\"ino\":$ino,.*\"count\":2000," "$work/hot.json" | grep -c '"cpu":1,')
	[[ $rc -eq 0 && $n -eq 6 && $(cat "$cpu1") -eq 1 ]]
	tap_ok $? "a CPU brought online while tracing is traced: dd's 6 reads on CPU 1 (exit $rc, $n)"
else
	tap_skip "a CPU brought online while tracing is traced" "CPU 1 cannot go offline"
fi

"$cat" --no-such-option >/dev/null 2>"$work/bad.err"
rc=$?
[[ $rc -eq 2 ]] && grep -q -i "usage\|--help" "$work/bad.err"
tap_ok $? "a bad option: exit 2 and a pointer to --help (exit $rc)"

# --- ringtrace-lockstat ---------------------------------------------------
storm=/sys/kernel/debug/ringtrace_lockstorm/run
insmod "$ko/selftests/ringtrace/modules/ringtrace_lockstorm.ko" threads=2 iterations=1000 hold_ns=1000 2>/dev/null
"$lockstat" -- sh -c "echo 1 > $storm" >"$work/delta"
rc=$?
acq=$(awk '$1 == "lockstorm-0" { print $2 }' "$work/delta")
[[ $rc -eq 0 && $acq -eq 2000 ]]
tap_ok $? "lockstat -- COMMAND: the storm's 2000 acquisitions of lockstorm-0 ($acq)"

head -n1 "$work/delta" | grep -q "acquisitions.*contended.*wait-total-us.*hold-max-us"
tap_ok $? "the table's header"

"$lockstat" --json | python3 -c '
import json, sys
locks = {r["lock"]: r for r in map(json.loads, sys.stdin)}
assert locks["lockstorm-0"]["acquisitions"] >= 2000, locks
assert locks["lockstorm-0"]["type"] == "lockstat"
'
tap_ok $? "--json: one object per lock"

"$lockstat" --reset >/dev/null && "$lockstat" --json |
	python3 -c 'import json,sys; assert all(json.loads(l)["acquisitions"] == 0 for l in sys.stdin if "lockstorm" in l)'
tap_ok $? "--reset zeroes them"

# Lock records in JSON: the flags text shows, lock_id exact as a string.
# The storm runs in kthreads (not a COMMAND's children): trace everything,
# enabled before the storm starts, and stop it once the storm is over.
# How long ringtrace-cat takes to enable its session is the machine's
# business (over 1 s on the KCSAN kernel): storm again until a record of
# it is out, for at most a minute (liveness only, not a timing check).
set -m
"$cat" -a --json -e lock --flush-interval 10ms -o "$work/locks.json" 2>/dev/null &
pid=$!
set +m
for ((i = 0; i < 120; i++)); do
	echo 1 >"$storm"
	grep -q '"lock":"lockstorm-0"' "$work/locks.json" 2>/dev/null && break
	sleep 0.5
done
kill -INT "$pid"
wait "$pid"
grep '"lock":"lockstorm-0"' "$work/locks.json" | head -n 1 >"$work/lock.json"
python3 - "$work/lock.json" "$ext" <<'EOF'
import json, re, sys
r = json.loads(open(sys.argv[1]).read())
keys = ["type", "ts_ns", "cpu", "pid", "tid", "comm", "lock", "lock_id",
        "wait_ns", "hold_ns", "contended", "kernel", "hashed"]
if sys.argv[2]:
    # The task_ext; the cgroup's path only where lock records name
    # cgroups (6.15 on: Documentation/protocol.rst, "Cgroup records").
    keys += ["host_pid", "host_tid", "cgroup_id"]
    assert list(r) in (keys, keys + ["cgroup"]), list(r)
else:
    assert list(r) == keys, list(r)
assert re.fullmatch(r"0x[0-9a-f]+", r["lock_id"]), r
assert r["kernel"] is False and r["hashed"] is True, r
EOF
tap_ok $? "lock JSON: keys in order, lock_id a hex string, kernel and hashed flags ($ext_why)"
rmmod ringtrace_lockstorm

# --- --snapshot --raw: a raw file per SIGUSR2 ---------------------
# The traced command signals ringtrace-cat (its parent) after its reads.
"$cat" --snapshot --raw -o "$work/snap" -- sh -c \
	"dd if='$work/file' of=/dev/null bs=4096 status=none; kill -USR2 \$PPID; sleep 2" \
	2>"$work/snap.err"
rc=$?
n=$("$cat" -q --json -i "$work/snap.1" 2>/dev/null | grep -c "\"ino\":$ino,")
[[ $rc -eq 0 && $n -eq 4 && ! -e $work/snap.2 ]] &&
	grep -q "^ringtrace-cat: snapshot 1: $work/snap.1 (" "$work/snap.err"
tap_ok $? "--snapshot --raw: SIGUSR2 writes snap.1, which -i decodes (exit $rc, dd's $n reads)" ||
	tap_diag <"$work/snap.err"
# The snapshot file started when tracing did, before its records
# (it said the time it was written), and --header has no trailing space.
started=$("$cat" -i "$work/snap.1" --header 2>/dev/null | sed -n 's/^started: .*(CLOCK_MONOTONIC \([0-9]*\) ns)$/\1/p')
first=$("$cat" -q --json -i "$work/snap.1" 2>/dev/null | head -n1 | sed -n 's/.*"ts_ns":\([0-9]*\),.*/\1/p')
[[ -n $started && -n $first && $started -le $first ]] &&
	! "$cat" -i "$work/snap.1" --header 2>/dev/null | grep -q ' $'
tap_ok $? "a snapshot's header: started ($started) before its first record ($first), no trailing space"

# --header shows the command line the file was recorded with,
# arguments quoted as a shell needs them.
"$cat" -q --raw -o "$work/cl.raw" -e vfs_read -- sh -c "dd if='$work/file' of=/dev/null status=none" 2>/dev/null
want="command line:   ringtrace-cat -q --raw -o $work/cl.raw -e vfs_read -- sh -c 'dd if='\\''$work/file'\\'' of=/dev/null status=none'"
got=$("$cat" -i "$work/cl.raw" --header 2>&1 | grep '^command line:')
[[ $got == "$want" ]]
tap_ok $? "--header: the recorded command line ($got)" || tap_diag <<<"want: $want"

# --- the module missing ---------------------------------------------------
"$ctl" unload >/dev/null 2>&1
"$cat" -d 1 >/dev/null 2>"$work/nomod.err"
rc=$?
[[ $rc -eq 1 ]] && grep -q "module not loaded.*sudo ringtrace-ctl load. (or ringtrace-cat --load)" "$work/nomod.err"
tap_ok $? "module missing: a clear message, exit 1 ($(head -n1 "$work/nomod.err"))"
# --load takes the module next to the binary: only when it is this kernel's.
if [[ $ko == "$top" ]]; then
	"$cat" --load -- dd if="$work/file" of=/dev/null bs=4096 status=none \
		>"$work/load.out" 2>"$work/load.err"
	rc=$?
	n=$(grep -c " ino=$ino pos=" "$work/load.out")
	[[ $rc -eq 0 && $n -eq 4 ]] && grep -q '^ringtrace-cat: loaded ' "$work/load.err" &&
		grep -q '^ringtrace ' /proc/modules
	tap_ok $? "--load loads the missing module, then traces (exit $rc, $n reads)" ||
		tap_diag <"$work/load.err"
	"$ctl" unload >/dev/null
else
	tap_skip "--load loads the missing module, then traces" "modules built for another kernel"
fi
"$ctl" unload >"$work/unload.out" 2>"$work/unload.err"
rc=$?
[[ $rc -eq 1 && ! -s $work/unload.out ]] &&
	[[ $(cat "$work/unload.err") == "ringtrace-ctl: ringtrace is not loaded" ]]
tap_ok $? "unload when not loaded: that one line, exit 1 ($(tr '\n' '|' <"$work/unload.err"))"
"$ctl" load "$ko/kmod/ringtrace.ko" bogus_param=1 >/dev/null 2>"$work/bogus.err"
rc=$?
[[ $rc -eq 1 ]] && ! grep -q '^ringtrace ' /proc/modules &&
	grep -q "has no parameter 'bogus_param=1' (its parameters: .*mlock_kb" "$work/bogus.err"
tap_ok $? "load with an unknown parameter: refused, nothing loaded (exit $rc: $(head -n1 "$work/bogus.err"))"
# vfs_read_attach is a module_param_cb(), as --help and the man page show it.
"$ctl" load "$ko/kmod/ringtrace.ko" vfs_read_attach=kretprobe >/dev/null 2>"$work/attach.err"
rc=$?
[[ $rc -eq 0 ]] &&
	grep -q '^kretprobe' /sys/module/ringtrace/parameters/vfs_read_attach
tap_ok $? "load vfs_read_attach=kretprobe: loaded with it (exit $rc: $(head -n1 "$work/attach.err"))"
"$ctl" unload >/dev/null 2>&1
"$ctl" load "$ko/kmod/ringtrace.ko" >/dev/null
tap_ok $? "ringtrace-ctl loads it back"
# Loaded, a writable parameter is applied, a read-only one refused.
param=/sys/module/ringtrace/parameters
old=$(cat "$param/mlock_kb")
"$ctl" load "$ko/kmod/ringtrace.ko" mlock_kb=$((old + 4)) >"$work/set.out" 2>"$work/set.err"
rc=$?
[[ $rc -eq 0 && $(cat "$param/mlock_kb") -eq $((old + 4)) ]] &&
	grep -q "already loaded: set mlock_kb=" "$work/set.out"
tap_ok $? "load while loaded sets a writable parameter (exit $rc, mlock_kb $old -> $(cat "$param/mlock_kb"))" ||
	tap_diag <"$work/set.err"
echo "$old" >"$param/mlock_kb"
pages=$(cat "$param/max_ring_pages")
"$ctl" load "$ko/kmod/ringtrace.ko" max_ring_pages=8 >"$work/ro.out" 2>"$work/ro.err"
rc=$?
[[ $rc -eq 1 && $(cat "$param/max_ring_pages") == "$pages" ]] &&
	grep -q "max_ring_pages cannot change while it is (read-only)" "$work/ro.err"
tap_ok $? "load while loaded refuses a read-only parameter (exit $rc: $(head -n1 "$work/ro.err"))"
tap_done
