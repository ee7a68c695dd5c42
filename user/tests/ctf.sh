#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/ctf.sh RINGTRACE_CAT MKRAW: ringtrace-cat --ctf read back by
# babeltrace2, the CTF reader of LTTng and Trace Compass users, as TAP.
# Recordings: the VM's (data/vm-outputs.raw: vfs_read with paths and
# samples with call chains; data/vm-lost.raw: a ring that overflowed;
# data/vm-graph-4k.raw: --graph's func records of vfs_read's callees) and
# mkraw's (lock records, LOST, counters; with --ext also off-CPU records,
# vfs_read records with their off-CPU time, and cgroup and host pid data
# on vfs_read and lock records; with --funcs func records of every shape:
# no arguments and raw ones, described ones in a class of their own, a
# tracepoint's hit, negative returns, an unnamed function and a name
# the metadata must escape). For each: `babeltrace2 DIR`
# decodes every event; its Python bindings (check_ctf.py) give back events
# equal to --json's field by field and count by count, and discarded
# events equal to the LOST counts per CPU; `babeltrace2 convert` writes it
# again as CTF, which reads back the same. Then: a trace is never written
# over an existing directory, and a failed one leaves nothing behind. A
# recording with its tracepoint's arguments described (mkraw --tp-args,
# a FUNC_ARGS chunk) gives the tracepoint an event class of its own,
# "tp:sched:sched_switch", whose fields babeltrace2 names: the raw args,
# then preempt, prev, next, prev_state as --json's named_args has them;
# the undescribed function's records stay of the class "func".
set -u
cat_bin=$(realpath "$1")
mkraw=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=user/tests/preamble.sh
. "$here/preamble.sh"
# Debian's python3: python3-bt2 puts bt2 there, not in other pythons.
py=/usr/bin/python3

if ! { "$mkraw" "$tmp/t.raw" && "$mkraw" --v2 "$tmp/v2.raw" &&
	"$mkraw" --ext "$tmp/ext.raw" && "$mkraw" --funcs "$tmp/funcs.raw"; }; then
	echo "not ok 1 - mkraw"
	exit 1
fi

# check NAME RAW: --ctf of RAW against --json of RAW, three ways.
check() {
	local name=$1 raw=$2 d=$tmp/$1 events lines
	if ! "$cat_bin" -i "$raw" --ctf "$d.ctf" 2> "$d.err" ||
		! "$cat_bin" -q -i "$raw" --json > "$d.json"; then
		not_ok "$name: --ctf or --json failed: $(head -c 300 "$d.err")"
		return
	fi
	events=$(sed -n 's/.*CTF trace of \([0-9]*\) events.*/\1/p' "$d.err")
	lines=$(grep -vc '"type":"lost"' "$d.json")
	if babeltrace2 "$d.ctf" > "$d.txt" 2> "$d.bt.err" &&
		[[ $(wc -l < "$d.txt") -eq $lines && $events -eq $lines ]]; then
		ok "$name: babeltrace2 decodes all $lines events"
	else
		not_ok "$name: babeltrace2: $(wc -l < "$d.txt") lines, --json $lines, --ctf said ${events:-?}: $(head -c 300 "$d.bt.err")"
	fi
	if "$py" "$here/check_ctf.py" "$d.ctf" "$d.json" > "$d.chk" 2>&1; then
		ok "$name: $(tail -1 "$d.chk" | sed 's/^ok - //')"
	else
		not_ok "$name: $(tail -3 "$d.chk")"
	fi
	mkdir "$d.conv"
	if babeltrace2 convert "$d.ctf" --output-format ctf --output "$d.conv" \
		> /dev/null 2> "$d.conv.err" &&
		"$py" "$here/check_ctf.py" "$d.conv"/* "$d.json" > "$d.chk2" 2>&1; then
		ok "$name: babeltrace2 convert round-trips it: $(tail -1 "$d.chk2" | sed 's/^ok - //')"
	else
		not_ok "$name: babeltrace2 convert: $(tail -3 "$d.chk2" "$d.conv.err")"
	fi
}

check vm-outputs "$here/data/vm-outputs.raw"
check vm-lost "$here/data/vm-lost.raw"
check mkraw "$tmp/t.raw"
check mkraw-v2 "$tmp/v2.raw"
check mkraw-ext "$tmp/ext.raw"
check vm-graph "$here/data/vm-graph-4k.raw"
check mkraw-funcs "$tmp/funcs.raw"

# Off-CPU time and cgroup records reach babeltrace2's text too: both
# off-CPU intervals
# (state, cpu_out, cpu_in), the measured off-CPU time of a read, a named
# cgroup, an unnamed one (empty path) and host pids. check_ctf.py above
# compared them with --json; this says the recording had them.
t=$tmp/mkraw-ext.txt
if [[ $(grep -c ' offcpu: ' "$t") -eq 2 &&
	$(grep -c '"type":"offcpu"' "$tmp/mkraw-ext.json") -eq 2 ]] &&
	grep -q 'offcpu_ns = 20000, state = "S", cpu_out = 1, cpu_in = 0, host_pid = 5100, host_tid = 5100, cgroup_id = 4097, cgroup = "/system.slice/a \\"b\\".service"' "$t" &&
	grep -q 'offcpu_ns = 700, state = "R", cpu_out = 0, cpu_in = 0, host_pid = 0, host_tid = 0, cgroup_id = 0, cgroup = ""' "$t" &&
	grep -q 'offcpu_ns = 30000, offcpu_max_ns = 20000, offcpu_max_ts = 1001040000' "$t" &&
	grep -q 'host_pid = 5100, host_tid = 5100, cgroup_id = 4097, cgroup = "/system.slice/a \\"b\\".service"' "$t" &&
	grep -q 'host_pid = 5100, host_tid = 5100, cgroup_id = 8194, cgroup = ""' "$t" &&
	grep -q 'host_pid = 7300, host_tid = 7301, cgroup_id = 1, cgroup = "/"' "$t"; then
	ok "mkraw-ext: offcpu events, off-CPU time, cgroups and host pids in babeltrace2's text"
else
	not_ok "mkraw-ext: babeltrace2's text lacks offcpu or cgroup fields: $(grep -m2 -e offcpu: -e 'cgroup_id = [1-9]' "$t" | head -c 400)"
fi

# The func records of every shape reach babeltrace2's text too (each
# compared with --json above; this says the recording had them): raw
# arguments and a negative return in the generic class, no arguments, a
# tracepoint's hit (lat_ns 0) and described functions in their own
# classes with their arguments by name (a signed one negative, a key with
# another field's name made argN_), a name with a quote, a backslash and a
# tab (the metadata's class name escapes the first two and has "?" for the
# tab) and an unnamed function by its address.
t=$tmp/mkraw-funcs.txt
if [[ $(grep -c ' func: ' "$t") -eq 5 &&
	$(grep -c ' tp:signal:signal_generate: .*lat_ns = 0, nr_args = 5, ' "$t") -eq 1 ]] &&
	grep -q ' func: .*func = "vfs_write", .*ret = -9, .*args = \[ \[0\] = 0x3, \[1\] = 0x7FFD1000, \[2\] = 0x1000 \], host_pid = 5500, .*nr_kstack = 3, ' "$t" &&
	grep -q ' func: .*func = "schedule", .*lat_ns = 8000, nr_args = 0, args = \[ \], ' "$t" &&
	grep -q 'sig = 9, info = 0xFFFFC90000A3FD30, task = 0xFFFF888006FF6500, group = 0, result = 0 }$' "$t" &&
	grep -q ' func:ksys_lseek: .*ret = -22, .*fd = 3, offset = -4096, whence = 0 }$' "$t" &&
	grep -q ' func:kill_pid_info: .*sig = 9, info = 0x0, arg2_pid = 0xFFFF888004A1C200 }$' "$t" &&
	grep -qF ' func:odd"name\?x: ' "$t" &&
	grep -qF 'func = "odd\"name\\\tx", ' "$t" &&
	grep -q ' func: .*func = "0xffffffff81a00004", .*args = \[ \[0\] = 0x1, \[1\] = 0x2 \]' "$t"; then
	ok "mkraw-funcs: func events, their classes and arguments in babeltrace2's text"
else
	not_ok "mkraw-funcs: babeltrace2's text lacks func events or fields: $(head -c 600 "$t")"
fi

# The losses sit where they happened: babeltrace2 reports them in the
# stream of the CPU that lost them, summing to the recording's count.
lost=$(grep '"type":"lost"' "$tmp/vm-lost.json" | sed 's/.*"count":\([0-9]*\).*/\1/' |
	awk '{ s += $1 } END { print s + 0 }')
warned=$(grep -o 'discarded [0-9]* events' "$tmp/vm-lost.bt.err" | awk '{ s += $2 } END { print s + 0 }')
if [[ $lost -gt 0 && $warned -eq $lost ]] &&
	! grep 'discarded' "$tmp/vm-lost.bt.err" | grep -vq 'stream_cpu1"'; then
	ok "babeltrace2 warns of the $lost lost records, on CPU 1's stream"
else
	not_ok "discarded events: babeltrace2 said $warned, the recording lost $lost"
fi

# The trace names the recording machine, its kernel and ringtrace.
if grep -q 'kernel_release = "6\.1\.' "$tmp/vm-outputs.ctf/metadata" &&
	grep -q 'tracer_name = "ringtrace"' "$tmp/vm-outputs.ctf/metadata" &&
	grep -q 'freq = 1000000000' "$tmp/vm-outputs.ctf/metadata"; then
	ok "metadata: kernel release, tracer name, the monotonic clock"
else
	not_ok "metadata lacks the environment or the clock"
fi

# Never over an existing directory; never a partial trace.
mkdir "$tmp/exists"
if "$mkraw" --tp-args "$tmp/args.raw" &&
	"$mkraw" --ksyms "$tmp/args.raw" "$here/data/graph.kallsyms" &&
	"$cat_bin" -q -i "$tmp/args.raw" --ctf "$tmp/args.ctf" 2> "$tmp/args.err" &&
	babeltrace2 "$tmp/args.ctf" > "$tmp/args.txt" 2>> "$tmp/args.err" &&
	[[ $(grep -c ' tp:sched:sched_switch: .*args = \[ \[0\] = 0x100, .*, \[4\] = 0xDEAD \], .*, preempt = 0, prev = 0xFFFF888006FF6500, next = 0xFFFF888006FF7A00, prev_state = 1026 }$' "$tmp/args.txt") -eq 2 ]] &&
	[[ $(grep -c ' func: .*func = "touch_atime"' "$tmp/args.txt") -eq 2 ]]; then
	ok "described tracepoint: its own event class, arguments by name (babeltrace2)"
else
	not_ok "described tracepoint: $(head -c 600 "$tmp/args.txt") $(cat "$tmp/args.err")"
fi

if ! "$cat_bin" -q -i "$tmp/t.raw" --ctf "$tmp/exists" 2> "$tmp/e.err" &&
	grep -q 'exists already' "$tmp/e.err" && [[ -z $(ls -A "$tmp/exists") ]]; then
	ok "--ctf refuses an existing directory and leaves it as it was"
else
	not_ok "--ctf over an existing directory: $(cat "$tmp/e.err")"
fi
mkdir "$tmp/ro"
chmod 0555 "$tmp/ro"
if [[ $EUID -eq 0 ]]; then
	# root writes anyway: a directory in a missing parent fails the same way.
	target=$tmp/missing/trace
else
	target=$tmp/ro/trace
fi
if ! "$cat_bin" -q -i "$tmp/t.raw" --ctf "$target" 2> /dev/null &&
	[[ ! -e $target && -z $(ls -A "$tmp/ro") ]]; then
	ok "a trace that cannot be written leaves nothing behind"
else
	not_ok "a failed --ctf left $(ls -A "${target%/*}" 2>&1)"
fi
if [[ -z $(find "$tmp" -maxdepth 1 -name '.*.ctf-*') ]]; then
	ok "no hidden partial trace left after the runs"
else
	not_ok "partial traces left: $(find "$tmp" -maxdepth 1 -name '.*.ctf-*')"
fi

tap_end
