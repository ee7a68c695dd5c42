#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Frames named in flight-recorder snapshots, as in the live stream
# (stream_symbols.sh): `ringtrace-cat --snapshot --stack -- sh -c ...`
# where the shell reads a file, then says so through a FIFO and sleeps;
# SIGUSR2 then asks for a snapshot while the shell still lives. Its reads
# of the file name their innermost kernel frame vfs_read+0x.. or
# ksys_read+0x.. and their user frame libc's, in text and in JSON
# (kstack_sym); --no-symbols keeps them hex. With --raw -o PREFIX the
# snapshot's file keeps the symbols of its kernel frames (KSYMS chunk,
# --header counts them), so that a replay where /proc/kallsyms cannot be
# read names them as the snapshot did, with as many records as the
# snapshot's line on standard error counted, and the mappings of the
# processes alive then (MAPS chunk) name the user frames too. With -p PID
# of a shell that exits before the snapshot is asked for, its user frames
# are still named: its mappings were read when tracing started.
# Needs root and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
tap_plan 8

printf 'one line\n' >"$work/msg"
mkfifo "$work/done"
# dash's read builtin reads its input a byte at a time, from sh itself.
workload="read -r line < '$work/msg'; echo read > '$work/done'; sleep 30"
kframe='(vfs_read|ksys_read|__[a-z0-9]+_sys_read)\+0x[0-9a-f]+'

# Whether FILE holds snapshot 1's end line, waiting up to a minute for it.
wait_end() {
	local i
	for ((i = 0; i < 600; i++)); do
		grep -Eq '^(# end of snapshot 1$|\{"snapshot_end":1\})' "$1" \
			2>/dev/null && return 0
		[[ -n ${2:-} ]] && grep -q '^ringtrace-cat: snapshot 1: ' "$2" \
			2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# snap OUT ERR ARGS...: run the tool on the workload, ask for one
# snapshot once the shell has read the file, then stop the tool.
snap() {
	local out=$1 err=$2 pid rc
	shift 2
	"$cat" --snapshot --stack "$@" -- sh -c "$workload" >"$out" 2>"$err" &
	pid=$!
	# The command is held until tracing is on, and SIGUSR2 is caught
	# before it starts: its line in the FIFO comes after both.
	read -r _ <"$work/done"
	kill -USR2 "$pid"
	wait_end "$out" "$err"
	rc=$?
	kill -TERM "$pid"
	wait "$pid"
	# 143: the tool's status is the command's, which SIGTERM ended
	case $? in 0 | 143) return $rc ;; esac
	return 1
}

snap "$work/t.txt" "$work/t.err"
rc=$?
grep ' vfs_read: .* file=.*/msg$' "$work/t.txt" >"$work/reads.txt"
[[ $rc -eq 0 && -s $work/reads.txt ]] &&
	! grep -Ev " kstack=$kframe," "$work/reads.txt" | grep -q .
tap_ok $? "--snapshot --stack: $(wc -l <"$work/reads.txt") reads of the file, each innermost kernel frame named (exit $rc)" ||
	{ tap_diag <"$work/t.err"; tap_diag <"$work/t.txt"; }
grep -Eq ' ustack=[^ ,]+\+0x[0-9a-f]+\(libc\.so\.6\)' "$work/reads.txt"
tap_ok $? "--snapshot: the user stack's innermost frame is libc's, named" ||
	tap_diag <"$work/reads.txt"

snap "$work/t.json" "$work/j.err" --json
python3 - "$work/t.json" "$work/msg" "$kframe" >"$work/j.out" 2>&1 <<'PY'
import json, re, sys
tail = "/" + "/".join(sys.argv[2].split("/")[-2:])
reads = [j for j in map(json.loads, open(sys.argv[1]))
         if j.get("type") == "vfs_read" and j.get("path", "").endswith(tail)]
assert reads, "no read of the file"
for j in reads:
    assert len(j["kstack_sym"]) == len(j["kstack"]), j
    assert re.fullmatch(sys.argv[3], j["kstack_sym"][0]), j
    assert j["kstack"][0].startswith("0xffff"), j
print("%d reads, kstack_sym[0] %s" % (len(reads), reads[0]["kstack_sym"][0]))
PY
tap_ok $? "--snapshot --json: kstack_sym beside the addresses ($(tail -1 "$work/j.out"))" ||
	{ tap_diag <"$work/j.out"; tap_diag <"$work/j.err"; }

snap "$work/h.txt" "$work/h.err" --no-symbols
grep ' vfs_read: .* file=.*/msg$' "$work/h.txt" | grep -q ' kstack=0xffff' &&
	! grep -q 'stack=[a-z_]' "$work/h.txt"
tap_ok $? "--snapshot --no-symbols keeps the frames hex" || tap_diag <"$work/h.txt"

# --raw: the snapshot's file keeps its kernel frames' symbols.
snap /dev/null "$work/raw.err" --raw -o "$work/s"
rc=$?
"$cat" -i "$work/s.1" --header >"$work/hdr.txt" 2>&1
line=$(grep -E '^kernel symbols: [1-9][0-9]* stored \(of ' "$work/hdr.txt")
# No perf ring: a snapshot's file holds the rings' copies, nothing to drain.
[[ $rc -eq 0 && $line == *"(of $(uname -r))" ]] &&
	grep -q '^format version: 1$' "$work/hdr.txt" &&
	! grep -q '^perf samples' "$work/hdr.txt"
tap_ok $? "--snapshot --raw --stack saves the kernel symbols ($(grep '^kernel symbols' "$work/hdr.txt")), format version 1, no perf event" ||
	{ tap_diag <"$work/raw.err"; tap_diag <"$work/hdr.txt"; }
# shellcheck disable=SC2016 # the inner shell expands them
unshare -m sh -c 'mount --bind /dev/null /proc/kallsyms &&
	! grep -q . /proc/kallsyms && exec "$0" -i "$1"' "$cat" "$work/s.1" \
	>"$work/replay.txt" 2>"$work/replay.err"
rc=$?
grep ' vfs_read: .* file=.*/msg$' "$work/replay.txt" >"$work/rreads.txt"
[[ $rc -eq 0 && -s $work/rreads.txt ]] &&
	! grep -Ev " kstack=$kframe," "$work/rreads.txt" | grep -q . &&
	! grep -Ev ' ustack=[^ ,]+\+0x[0-9a-f]+\(libc\.so\.6\)' "$work/rreads.txt" | grep -q .
tap_ok $? "its replay without /proc/kallsyms names the reads' kernel frames from the file, their user frames from its mappings (exit $rc)" ||
	{ tap_diag <"$work/replay.err"; tap_diag <"$work/replay.txt"; }
# The snapshot's count, its replay's summary and the lines printed agree.
kept=$(sed -n 's/^ringtrace-cat: snapshot 1: .* (\([0-9]*\) records,.*/\1/p' "$work/raw.err")
replayed=$(sed -n 's/^ringtrace-cat: \([0-9]*\) records.*/\1/p' "$work/replay.err")
lines=$(grep -c ': vfs_read: ' "$work/replay.txt")
[[ -n $kept && $kept == "$replayed" && $kept == "$lines" ]]
tap_ok $? "the snapshot kept $kept records; its replay counts $replayed and prints $lines" ||
	{ tap_diag <"$work/raw.err"; tap_diag <"$work/replay.err"; }

# -p PID: the shell is gone when the snapshot is printed.
mkfifo "$work/go"
sh -c "read -r _ < '$work/go'; read -r line < '$work/msg'" &
shell=$!
"$cat" --snapshot --stack -p "$shell" --stats 20ms >"$work/p.txt" \
	2>"$work/p.err" &
pid=$!
# Its first --stats line: tracing is on.
for ((i = 0; i < 600; i++)); do
	grep -q 's] ' "$work/p.err" && break
	sleep 0.1
done
echo go >"$work/go"
wait "$shell"
kill -USR2 "$pid"
wait_end "$work/p.txt"
rc=$?
kill -TERM "$pid"
wait "$pid"
grep ' vfs_read: .* file=.*/msg$' "$work/p.txt" >"$work/preads.txt"
[[ $rc -eq 0 && -s $work/preads.txt && ! -d /proc/$shell ]] &&
	! grep -Ev ' ustack=[^ ,]+\+0x[0-9a-f]+\(libc\.so\.6\)' "$work/preads.txt" | grep -q .
tap_ok $? "-p PID exited before the snapshot: $(wc -l <"$work/preads.txt") reads, user frames still named from its mappings at the start" ||
	{ grep -v 's] ' "$work/p.err" | tap_diag; tap_diag <"$work/p.txt"; }
