#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat's function probes share the functions they probe with
# other tools, in both orders. Two ways of probing: -e func:vfs_write,
# counting a workload's N write()s, and --graph vfs_read --graph-funcs
# filemap_read, counting its N read()s of a ramfs file, each one
# filemap_read (the module's func probes: a kretprobe on 6.1, an fprobe
# where the kernel has one). Beside each, on the same function: bpftrace
# kprobe + kretprobe, a tracefs kprobe event pair (p: and r:), bpftrace
# kfunc + kretfunc (fentry/fexit: a BPF trampoline, an ftrace direct
# call) where the kernel has direct calls, and a tracefs fprobe event
# pair (f: and f:%return: fgraph, as ringtrace's fprobes) where it has
# fprobe events. Every tool counts the workload's calls by its command
# name, which names one phase of N calls (coexist_workload: set once
# loaded, so no loader's read is counted).
#
#   ringtrace first: ringtrace-cat starts the workload, the other tool
#     attaches, phase 1 (both count N), the other tool detaches, phase 2:
#     ringtrace counts N in each phase and the other tool N entries and
#     N returns of SIZE in phase 1, none in phase 2.
#   the other tool first: it attaches, ringtrace-cat runs phase 1 and
#     detaches, then phase 2 runs without ringtrace: ringtrace counts N,
#     the other tool N entries and returns in each phase.
#
# Each run of ringtrace-cat loses nothing and misses no call (its summary
# and the kernel's GET_STATS totals, -v), and when every tool has gone no
# probe is left on the function. The runner fails the test on a kernel
# splat. Needs root, ringtrace.ko loaded (the runner does it) and
# bpftrace: on x86-64 a missing bpftrace fails its checks; elsewhere they
# skip, saying so.
#
# Under TCG, a probe attached or detached on a function another vCPU runs
# can crash the guest (Documentation/testing.rst): every attach and
# detach happens while the workload waits in open() of a FIFO and
# ringtrace-cat is stopped (SIGSTOP) or not yet started, and this script
# waits without reading or writing (bash's read -t times out in
# pselect(), [[ -e ]] is a stat, and an error message of a builtin in a
# waiting loop goes to a closed stderr: not even a write to /dev/null).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
helper=$here/coexist_workload
[[ -x $helper ]] || tap_skip_all "coexist_workload not built (make -C selftests/ringtrace)"

n=23
size=1234
st_ramfs
rfile=$fs/r	# read by --graph's workload
wfile=$fs/w	# written by -e func's
dd if=/dev/zero of="$rfile" bs="$size" count="$n" status=none

tracefs=/sys/kernel/tracing
[[ -e $tracefs/kprobe_events ]] || tracefs=/sys/kernel/debug/tracing
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
kplist=/sys/kernel/debug/kprobes/list

mkfifo "$work/nap"
exec {nap_fd}<>"$work/nap"
# Sleep $1 seconds without a read() or write(): pselect() times out.
nap() {
	read -r -t "$1" -u "$nap_fd"
}

# Why the kernel cannot run bpftrace's kfunc probes, in $kfunc_why: it
# needs BTF, and ftrace direct calls for the trampoline (6.1 has the
# _multi names; arm64 has them from 6.4).
kfunc_why=
if [[ ! -r /sys/kernel/btf/vmlinux ]]; then
	kfunc_why="no kernel BTF in $(uname -r) for bpftrace's kfunc probes"
elif ! grep -qE ' (register_ftrace_direct|register_ftrace_direct_multi)$' /proc/kallsyms; then
	kfunc_why="no ftrace direct calls in $(uname -r): no BPF trampoline"
fi

# bpftrace is installed; on x86-64 it must be (every part runs there).
have_bpftrace=1
command -v bpftrace >/dev/null || have_bpftrace=

# Fprobe events (CONFIG_FPROBE_EVENTS: not Debian's 6.1) say so in the
# README of tracefs.
fevent_why=
grep -q 'f\[:\[<group>/\]' "$tracefs/README" 2>/dev/null ||
	fevent_why="no fprobe events (CONFIG_FPROBE_EVENTS) in $(uname -r)"
tap_plan $((2 * 4 * 2 * 2 + 2))

# ---- waiting without touching the probed functions ------------------------

# Wait until file $1 exists while process $2 lives (liveness bound, 600 s).
wait_file() {
	local i
	for ((i = 0; i < 6000; i++)); do
		[[ -e $1 ]] && return 0
		kill -0 "$2" 2>&- || break
		nap 0.1
	done
	[[ -e $1 ]]
}

# Wait until process $1 is stopped (SIGSTOP): state T in its stat.
wait_stopped() {
	local i stat
	for ((i = 0; i < 600; i++)); do
		read -r stat <"/proc/$1/stat" || return 1
		stat=${stat##*) }
		[[ ${stat:0:1} == T ]] && return 0
		nap 0.1
	done
	return 1
}

# Wait until process $1 has exited (it is our child): its status in $?.
wait_exit() {
	wait "$1"
}

# Opens phase $1's gate in $2: the workload makes its N calls.
release() {
	: >"$2/$1.go"
}

# ---- the other tools --------------------------------------------------------
#
# nb_start TOOL FUNC and nb_stop TOOL OUT: attach, then detach writing
# "COMM ENTRIES RETURNS_OF_SIZE RETURNS" lines to OUT, one per command
# name starting rtfc. Both return non-zero with the reason in $nb_why.

nb_why=
bt_pid=

# Armed kprobes on $1 (kprobes/list, which names each probe), in $kp_n:
# at $1+0x0, or past its ENDBR64 (+0x4) where the kernel has IBT.
armed_kprobes() {
	local line
	kp_n=0
	while read -r line; do
		[[ $line == *" $1+0x"* && $line != *DISABLED* ]] && kp_n=$((kp_n + 1))
	done <"$kplist"
}

# bpftrace $bt_pid's BPF tracing links (its fentry and fexit), in $link_n.
tracing_links() {
	local f k v
	link_n=0
	for f in /proc/"$bt_pid"/fdinfo/*; do
		while read -r k v; do
			[[ $k == link_type: && $v == tracing ]] && link_n=$((link_n + 1))
		done 2>&- <"$f"
	done
}

# bpftrace attached both probes and waits for events (epoll).
bt_ready() {
	local w
	read -r w 2>&- <"/proc/$bt_pid/wchan"
	[[ $w == *epoll* || $w == ep_poll* ]] || return 1
	if [[ $1 == kprobe ]]; then
		armed_kprobes "$2"
		((kp_n >= kp_base + 2))
	else
		tracing_links
		((link_n == 2))
	fi
}

bt_start() {
	local kind=$1 fn=$2 ret=kretprobe i
	local sel='/strncmp(comm, "rtfc", 4) == 0/'

	[[ $kind == kfunc ]] && ret=kretfunc
	armed_kprobes "$fn"
	kp_base=$kp_n
	bpftrace -e "$kind:$fn $sel { @e[comm] = count(); }
		     $ret:$fn $sel { @r[comm, retval] = count(); }" \
		>"$work/bt.out" 2>&1 &
	bt_pid=$!
	# Liveness bound, not timing: it compiles its program first.
	for ((i = 0; i < 3000; i++)); do
		bt_ready "$kind" "$fn" && return 0
		if ! kill -0 "$bt_pid" 2>&-; then
			wait "$bt_pid"
			nb_why="bpftrace exited ($?): $(tail -3 "$work/bt.out")"
			return 1
		fi
		nap 0.1
	done
	if [[ $kind == kprobe ]]; then
		nb_why="bpftrace did not attach in 300 s ($kp_n armed kprobes on $fn, $kp_base before)"
	else
		nb_why="bpftrace did not attach in 300 s ($link_n tracing links)"
	fi
	tap_diag <"$kplist"
	kill -KILL "$bt_pid"
	wait "$bt_pid"
	return 1
}

# SIGINT again each second until it exits: bpftrace 0.17 can miss one
# (Documentation/testing.rst).
bt_stop() {
	local i rc
	for ((i = 0; i < 300; i++)); do
		kill -INT "$bt_pid" 2>&-
		nap 1
		kill -0 "$bt_pid" 2>&- || break
	done
	if kill -0 "$bt_pid" 2>/dev/null; then
		kill -KILL "$bt_pid"
		wait "$bt_pid"
		nb_why="bpftrace did not exit within 300 s of SIGINT"
		return 1
	fi
	wait "$bt_pid"
	rc=$?
	python3 - "$work/bt.out" "$size" >"$1" <<'PY'
import re, sys
e, r, rs = {}, {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"@e\[(\S+)\]: (\d+)$", line)
    if m:
        e[m[1]] = int(m[2])
    m = re.match(r"@r\[(\S+), (-?\d+)\]: (\d+)$", line)
    if m:
        r[m[1]] = r.get(m[1], 0) + int(m[3])
        if int(m[2]) == int(sys.argv[2]):
            rs[m[1]] = rs.get(m[1], 0) + int(m[3])
for c in sorted(set(e) | set(r)):
    print(c, e.get(c, 0), rs.get(c, 0), r.get(c, 0))
PY
	[[ $rc -eq 0 ]] || nb_why="bpftrace exited $rc: $(tail -3 "$work/bt.out")"
	return "$rc"
}

ev_inst=$tracefs/instances/rtfc
ev_defs=$tracefs/kprobe_events

# Whatever a failed ev_start left.
ev_cleanup() {
	{
		echo 0 >"$ev_inst/events/rtfc/enable"
		rmdir "$ev_inst"
		echo "-:rtfc/rtfc_entry" >>"$ev_defs"
		echo "-:rtfc/rtfc_return" >>"$ev_defs"
	} 2>/dev/null
}

# A pair of events in tracefs instance rtfc, on entry and return of
# function $2: kprobe events p: and r: ($1 event), or fprobe events f:
# and f:%return ($1 fevent, which share fgraph with ringtrace's fprobes).
ev_start() {
	local fn=$2 ev entry=p ret=r suffix=
	ev_defs=$tracefs/kprobe_events
	if [[ $1 == fevent ]]; then
		ev_defs=$tracefs/dynamic_events
		entry=f
		ret=f
		suffix=%return
	fi
	if ! { echo "$entry:rtfc/rtfc_entry $fn c=\$comm" >>"$ev_defs" &&
	       echo "$ret:rtfc/rtfc_return $fn$suffix c=\$comm ret=\$retval:s64" >>"$ev_defs" &&
	       mkdir "$ev_inst"; } 2>"$work/ev.err"; then
		nb_why="${ev_defs##*/}: $(cat "$work/ev.err")"
		ev_cleanup
		return 1
	fi
	for ev in rtfc_entry rtfc_return; do
		if ! echo 'comm ~ "rtfc*"' 2>"$work/ev.err" \
			>"$ev_inst/events/rtfc/$ev/filter"; then
			nb_why="filter: $(cat "$work/ev.err")"
			ev_cleanup
			return 1
		fi
	done
	echo 1 >"$ev_inst/events/rtfc/enable"
}

# The command name is the event's own field (c=$comm, the name at the
# call): the trace's task column names a pid by its latest name, which
# is already the next phase's.
ev_stop() {
	local rc=0
	echo 0 >"$ev_inst/events/rtfc/enable" || rc=1
	awk -v size="$size" '
	$0 !~ /^#/ && / rtfc_(entry|return): / &&
	match($0, / c="[^"]*"/) {
		c = substr($0, RSTART + 4, RLENGTH - 5)
		seen[c] = 1
		if ($0 ~ / rtfc_entry: /) {
			e[c]++
		} else {
			r[c]++
			if ($0 ~ (" ret=" size "$"))
				rs[c]++
		}
	}
	END { for (c in seen) print c, e[c] + 0, rs[c] + 0, r[c] + 0 }' \
		"$ev_inst/trace" | sort >"$1"
	rmdir "$ev_inst" || rc=1
	{ echo "-:rtfc/rtfc_entry" >>"$ev_defs" &&
	  echo "-:rtfc/rtfc_return" >>"$ev_defs"; } || rc=1
	[[ $rc -eq 0 ]] || nb_why="the events did not go cleanly"
	return "$rc"
}

nb_start() {
	nb_why=
	case $1 in
	event | fevent) ev_start "$1" "$2" ;;
	*) bt_start "$1" "$2" ;;
	esac
}

nb_stop() {
	case $1 in
	event | fevent) ev_stop "$2" ;;
	*) bt_stop "$2" ;;
	esac
}

nb_name() {
	case $1 in
	kprobe) echo "bpftrace kprobe/kretprobe" ;;
	event) echo "kprobe events p:/r:" ;;
	kfunc) echo "bpftrace kfunc/kretfunc" ;;
	fevent) echo "fprobe events f:/f:%return" ;;
	esac
}

# ---- ringtrace-cat ----------------------------------------------------------

# Counts in ringtrace-cat's JSON $2 (mode $1): "COMM CALLS BAD" per
# command name starting rtfc: func records of vfs_write returning SIZE,
# or reads of the ramfs file of SIZE each holding exactly one
# filemap_read span; BAD, the others of that name.
rt_counts() {
	python3 - "$1" "$2" "$size" "$rfile" <<'PY'
import json, sys
mode, out, size, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
good, bad = {}, {}
for line in open(out):
    e = json.loads(line)
    c = e.get("comm", "")
    if not c.startswith("rtfc"):
        continue
    if mode == "func" and e.get("type") == "func":
        ok = e.get("func") == "vfs_write" and e.get("ret") == size
    elif mode == "graph" and e.get("type") == "vfs_read":
        # The spans; off-CPU intervals inside the read are nodes too.
        g = [s for s in e.get("graph", []) if s.get("kind", "func") == "func"]
        ok = (e.get("path") == path and e.get("count") == size and
              e.get("ret") == size and len(g) == 1 and
              g[0].get("func") == "filemap_read" and g[0].get("depth") == 1)
    else:
        continue
    d = good if ok else bad
    d[c] = d.get(c, 0) + 1
for c in sorted(set(good) | set(bad)):
    print(c, good.get(c, 0), bad.get(c, 0))
PY
}

# What ringtrace-cat's -v summary $1 says went wrong: records lost, func
# calls missed, the kernel's produced != written + 0 lost; "" if nothing.
rt_losses() {
	local why=
	grep -qE '^ringtrace-cat: [0-9]+ records?, .*\b0 lost, ' "$1" ||
		why+=" records lost;"
	grep -q 'missed by the probe' "$1" && why+=" func calls missed;"
	grep -qE '^  kernel: ([0-9]+) produced = \1 written \+ 0 lost;' "$1" ||
		why+=" $(grep -m1 -o 'kernel: [^;]*' "$1");"
	echo "$why"
}

rt_args() {
	case $1 in
	func) echo "-e func:vfs_write" ;;
	graph) echo "--graph vfs_read --graph-funcs filemap_read" ;;
	esac
}

# Starts ringtrace-cat (mode $1) on the workload's phases $3... in dir $2,
# output in $2/rt.json and $2/rt.err; $rt_pid. Returns once the workload
# waits at its first gate, i.e. ringtrace is enabled.
rt_start() {
	local mode=$1 dir=$2 wl
	shift 2
	wl=(read "$rfile")
	[[ $mode == func ]] && wl=(write "$wfile")
	# shellcheck disable=SC2046 # the options are words
	"$cat" $(rt_args "$mode") --json -v -- "$helper" "${wl[@]}" "$size" \
		"$n" "$dir" "$@" >"$dir/rt.json" 2>"$dir/rt.err" &
	rt_pid=$!
	wait_file "$dir/$1.ready" "$rt_pid"
}

# ---- one scenario -----------------------------------------------------------

fn_of() {
	[[ $1 == func ]] && echo vfs_write || echo filemap_read
}

# "COMM E RS R" line of $2 for command name $1, or "COMM 0 0 0".
nb_line() {
	local l
	l=$(grep -m1 "^$1 " "$2")
	echo "${l:-$1 0 0 0}"
}

rt_line() {
	local l
	l=$(grep -m1 "^$1 " "$2")
	echo "${l:-$1 0 0}"
}

# ringtrace first: ringtrace-cat starts phases 1 and 2; the other tool is
# there for phase 1 only.
rt_first() {
	local mode=$1 tool=$2 fn dir tag p1 p2 rt_rc why name
	fn=$(fn_of "$mode")
	name=$(nb_name "$tool")
	tag=rtfc_${mode:0:1}${tool:0:2}r
	p1=${tag}1
	p2=${tag}2
	dir=$work/$tag
	mkdir "$dir"
	why=
	if ! rt_start "$mode" "$dir" "$p1" "$p2"; then
		why="ringtrace-cat did not start the workload: $(tail -3 "$dir/rt.err")"
	else
		kill -STOP "$rt_pid"
		wait_stopped "$rt_pid"
		nb_start "$tool" "$fn" || why=$nb_why
		kill -CONT "$rt_pid"
		# The workload is the other tool's alone to wait on: it runs
		# phase 1 with both attached, whether the tool is or not.
		release "$p1" "$dir"
		wait_file "$dir/$p2.ready" "$rt_pid"
		kill -STOP "$rt_pid"
		wait_stopped "$rt_pid"
		if [[ -z $why ]]; then
			nb_stop "$tool" "$dir/nb.txt" || why=$nb_why
		fi
		kill -CONT "$rt_pid"
		release "$p2" "$dir"
	fi
	wait_exit "$rt_pid"
	rt_rc=$?
	[[ -e $dir/nb.txt ]] || : >"$dir/nb.txt"
	rt_counts "$mode" "$dir/rt.json" >"$dir/rt.txt" 2>&1
	local r1 r2 lost
	r1=$(rt_line "$p1" "$dir/rt.txt")
	r2=$(rt_line "$p2" "$dir/rt.txt")
	lost=$(rt_losses "$dir/rt.err")
	[[ $rt_rc -eq 0 && $r1 == "$p1 $n 0" && $r2 == "$p2 $n 0" && -z $lost &&
		$(wc -l <"$dir/rt.txt") -eq 2 ]]
	tap_ok $? "$mode:$fn, ringtrace first: ringtrace counts $n calls beside $name, then $n after it detached, nothing lost ($r1; $r2; exit $rt_rc;$lost)" ||
		{ tap_diag <"$dir/rt.err"; tap_diag <"$dir/rt.txt"; }
	local b1 b2
	b1=$(nb_line "$p1" "$dir/nb.txt")
	b2=$(nb_line "$p2" "$dir/nb.txt")
	[[ -z $why && $b1 == "$p1 $n $n $n" && $b2 == "$p2 0 0 0" ]]
	tap_ok $? "$mode:$fn, ringtrace first: $name counts $n entries and $n returns of $size beside ringtrace, and detaches (${why:-$b1; $b2})" ||
		{ tap_diag <"$dir/nb.txt"; [[ -e $work/bt.out ]] && tap_diag <"$work/bt.out"; }
	rm -f "$work/bt.out"
}

# The other tool first: ringtrace-cat runs phase 1 and detaches; phase 2
# runs with the other tool alone.
nb_first() {
	local mode=$1 tool=$2 fn dir tag p1 p2 rt_rc why wl_pid name
	fn=$(fn_of "$mode")
	name=$(nb_name "$tool")
	tag=rtfc_${mode:0:1}${tool:0:2}o
	p1=${tag}1
	p2=${tag}2
	dir=$work/$tag
	mkdir "$dir"
	why=
	nb_start "$tool" "$fn" || why=$nb_why
	if rt_start "$mode" "$dir" "$p1"; then
		release "$p1" "$dir"
	fi
	wait_exit "$rt_pid"
	rt_rc=$?
	# Phase 2: the same workload without ringtrace.
	local wl=(read "$rfile")
	[[ $mode == func ]] && wl=(write "$wfile")
	"$helper" "${wl[@]}" "$size" "$n" "$dir" "$p2" &
	wl_pid=$!
	wait_file "$dir/$p2.ready" "$wl_pid" && release "$p2" "$dir"
	wait_exit "$wl_pid" || why+=" the workload failed ($?)"
	if [[ -z $nb_why ]]; then
		nb_stop "$tool" "$dir/nb.txt" || why+=" $nb_why"
	fi
	[[ -e $dir/nb.txt ]] || : >"$dir/nb.txt"
	rt_counts "$mode" "$dir/rt.json" >"$dir/rt.txt" 2>&1
	local r1 lost
	r1=$(rt_line "$p1" "$dir/rt.txt")
	lost=$(rt_losses "$dir/rt.err")
	[[ $rt_rc -eq 0 && $r1 == "$p1 $n 0" && -z $lost &&
		$(wc -l <"$dir/rt.txt") -eq 1 ]]
	tap_ok $? "$mode:$fn, $name first: ringtrace counts $n calls beside it, nothing lost ($r1; exit $rt_rc;$lost)" ||
		{ tap_diag <"$dir/rt.err"; tap_diag <"$dir/rt.txt"; }
	local b1 b2
	b1=$(nb_line "$p1" "$dir/nb.txt")
	b2=$(nb_line "$p2" "$dir/nb.txt")
	[[ -z $why && $b1 == "$p1 $n $n $n" && $b2 == "$p2 $n $n $n" ]]
	tap_ok $? "$mode:$fn, $name first: it counts $n entries and $n returns of $size beside ringtrace, and $n after ringtrace detached (${why:-$b1; $b2})" ||
		{ tap_diag <"$dir/nb.txt"; [[ -e $work/bt.out ]] && tap_diag <"$work/bt.out"; }
	rm -f "$work/bt.out"
}

# Lines of kprobes/list and enabled_functions naming function $1.
probes_left() {
	{ grep -h " $1+0x" "$kplist" 2>/dev/null
	  grep -h "^$1 " "$tracefs/enabled_functions" 2>/dev/null; } || true
}

for mode in func graph; do
	fn=$(fn_of "$mode")
	for tool in kprobe event kfunc fevent; do
		name=$(nb_name "$tool")
		why=
		[[ $tool == kfunc ]] && why=$kfunc_why
		[[ $tool == fevent ]] && why=$fevent_why
		if [[ -n $why ]]; then
			for o in "ringtrace first" "$name first"; do
				tap_skip "$mode:$fn, $o: ringtrace's count" "$why"
				tap_skip "$mode:$fn, $o: $name's count" "$why"
			done
			continue
		fi
		if [[ $tool != event && -z $have_bpftrace ]]; then
			for o in "ringtrace first" "$name first"; do
				if [[ $(uname -m) == x86_64 ]]; then
					tap_ok 1 "$mode:$fn, $o: bpftrace is not installed"
					tap_ok 1 "$mode:$fn, $o: bpftrace is not installed"
				else
					tap_skip "$mode:$fn, $o: ringtrace's count" "no bpftrace in this root"
					tap_skip "$mode:$fn, $o: $name's count" "no bpftrace in this root"
				fi
			done
			continue
		fi
		rt_first "$mode" "$tool"
		nb_first "$mode" "$tool"
	done
	left=$(probes_left "$fn")
	[[ -z $left ]]
	tap_ok $? "$mode: no probe left on $fn once every tool has gone" ||
		tap_diag <<<"$left"
done
tap_done
