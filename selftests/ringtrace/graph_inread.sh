#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat --graph vfs_read records its callees only inside the
# traced reads (RINGTRACE_CFG_FUNC_IN_READ): the traced command writes a
# file W times (vfs_write calls rw_verify_area, outside any read), then
# reads it back R times, on a ramfs. With --graph --graph-funcs
# rw_verify_area the raw recording, replayed with --graph, holds no span
# outside a read (the graph's "outside a read" count is 0) and exactly R
# reads of the file by dd, each with one rw_verify_area; the same
# workload traced with -e vfs_read,func:rw_verify_area (no flag:
# every call) replays with at least W spans outside a read, and the same
# R reads. Then the flagged run again with each vfs_read mechanism the
# module offers (--attach kretprobe, fprobe, direct): the depth is kept
# by the same entry and exit whichever calls them. Prints both sessions'
# func record counts (the figure the filter saves). Needs root (mount)
# and ringtrace.ko loaded. Last, two sessions at once: one without the
# flag records every call of its task (W or more outside a read) while
# one with the flag is enabled, which records none outside a read.
#
# The probes are attached while the command is held (ringtrace-cat starts
# it stopped until ENABLE): under TCG attaching a probe on a function
# another vCPU runs can crash the guest.
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

[[ -x $cat ]] || tap_skip_all "tools not built (make -C user)"
"$ctl" info 2>/dev/null | grep -qE '^features( .*)? func_in_read( |$)' ||
	tap_skip_all "the module does not record calls inside reads only"
tap_plan 9

w=23
r=17
size=1234
st_ramfs
file=$fs/f

# The graph of a replay as "SHOWN OUTSIDE READS", READS the reads of
# $file by dd of $size bytes each with exactly one rw_verify_area span.
cat >"$work/check.py" <<'PY'
import json, sys

path, size = sys.argv[2], int(sys.argv[3])
reads, summ = 0, None
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") == "graph_summary":
        summ = e
    elif e.get("type") == "vfs_read" and e.get("comm") == "dd" and \
         e.get("path") == path and e.get("count") == size:
        # Function spans only: off-CPU intervals are graph nodes too.
        if [s["func"] for s in e["graph"]
            if s["kind"] == "func"] == ["rw_verify_area"]:
            reads += 1
if summ is None:
    raise SystemExit("no graph_summary")
print(summ["shown"], summ["outside"], reads)
PY

# Trace the workload with "$@" into $1.raw; its replay's figures.
run() {
	local out=$1 cmd
	shift
	cmd="dd if=/dev/zero of=$file bs=$size count=$w status=none &&
	     dd if=$file of=/dev/null bs=$size count=$r status=none"
	if [[ $# -ge 2 && ${*: -2:1} == -c ]]; then
		cmd=${*: -1}
		set -- "${@:1:$#-2}"
	fi
	"$cat" "$@" --raw -o "$work/$out.raw" -- sh -c "$cmd" \
		2>"$work/$out.err" || return 1
	"$cat" -q -i "$work/$out.raw" --graph vfs_read --json \
		>"$work/$out.json" 2>>"$work/$out.err" || return 1
	python3 "$work/check.py" "$work/$out.json" "$file" "$size" \
		2>>"$work/$out.err"
}

fig=$(run in --graph vfs_read --graph-funcs rw_verify_area)
rc=$?
read -r in_shown in_outside in_reads <<<"${fig:-x x x}"
[[ $rc -eq 0 && $in_outside == 0 ]]
tap_ok $? "--graph: no rw_verify_area recorded outside a read ($fig, exit $rc)" ||
	tap_diag <"$work/in.err"
[[ $rc -eq 0 && $in_reads == "$r" ]]
tap_ok $? "--graph: the $r reads of the file, each with its rw_verify_area ($fig)" ||
	tap_diag <"$work/in.err"

fig=$(run all -e vfs_read,func:rw_verify_area)
rc=$?
read -r all_shown all_outside all_reads <<<"${fig:-x x x}"
[[ $rc -eq 0 && $all_outside =~ ^[0-9]+$ && $all_outside -ge $w ]]
tap_ok $? "-e func: every call recorded, $w writes' or more outside a read ($fig, exit $rc)" ||
	tap_diag <"$work/all.err"
[[ $rc -eq 0 && $all_reads == "$r" ]]
tap_ok $? "-e func: the same $r reads ($fig)" || tap_diag <"$work/all.err"

# Every mechanism vfs_read can be attached with here.
mask=$("$ctl" info 2>/dev/null | sed -n 's/^attach offered *//p')
for mech in kretprobe fprobe direct; do
	if [[ " $mask " != *" $mech "* ]]; then
		tap_skip "--attach $mech" "not offered here ($mask)"
		continue
	fi
	fig=$(run "$mech" --attach "$mech" --graph vfs_read \
		--graph-funcs rw_verify_area)
	rc=$?
	read -r _ m_outside m_reads <<<"${fig:-x x x}"
	[[ $rc -eq 0 && $m_outside == 0 && $m_reads == "$r" ]]
	tap_ok $? "--attach $mech: none outside a read, the $r reads ($fig, exit $rc)" ||
		tap_diag <"$work/$mech.err"
done

# Two sessions at once. B (no flag) starts first and its command waits
# on a FIFO, parked outside rw_verify_area, until A (the flag) is enabled
# and its command opens the FIFO; A's command then waits until B's work
# is done, so that A is enabled throughout.
mkfifo "$work/go" "$work/done"
"$cat" -e vfs_read,func:rw_verify_area --raw -o "$work/b.raw" -- sh -c \
	"read -r x <$work/go &&
	 dd if=/dev/zero of=$file bs=$size count=$w status=none &&
	 dd if=$file of=/dev/null bs=$size count=$r status=none;
	 echo done >$work/done" 2>"$work/b.err" &
bpid=$!
# B's command parked: blocked opening the FIFO (fs/pipe.c's
# wait_for_partner), so that A attaches while it runs nothing.
parked=
for _ in $(seq 300); do
	for p in $(pgrep -f "read -r x <$work/go"); do
		[[ $(cat "/proc/$p/wchan" 2>/dev/null) == wait_for_partner ]] &&
			parked=$p
	done
	[[ -n $parked ]] && break
	sleep 0.1
done
[[ -n $parked ]] || tap_diag <<<"B's command not seen parked: going on"
fig_a=$(run a --graph vfs_read --graph-funcs rw_verify_area -c \
	"echo go >$work/go && read -r x <$work/done")
rc_a=$?
wait "$bpid"
rc_b=$?
fig_b=$("$cat" -q -i "$work/b.raw" --graph vfs_read --json \
	>"$work/b.json" 2>>"$work/b.err" &&
	python3 "$work/check.py" "$work/b.json" "$file" "$size" 2>>"$work/b.err")
read -r _ b_outside b_reads <<<"${fig_b:-x x x}"
[[ $rc_b -eq 0 && $b_outside =~ ^[0-9]+$ && $b_outside -ge $w && $b_reads == "$r" ]]
tap_ok $? "beside a session with the flag, one without records every call ($fig_b, exit $rc_b)" ||
	tap_diag <"$work/b.err"
read -r _ a_outside _ <<<"${fig_a:-x x x}"
[[ $rc_a -eq 0 && $a_outside == 0 ]]
tap_ok $? "and the one with the flag none outside a read ($fig_a, exit $rc_a)" ||
	tap_diag <"$work/a.err"

nums="$in_shown $in_outside $all_shown $all_outside"
[[ $nums =~ ^[0-9]+\ [0-9]+\ [0-9]+\ [0-9]+$ ]] &&
	echo "func records: $((in_shown + in_outside)) inside reads only," \
		"$((all_shown + all_outside)) every call ($all_outside outside a read)" |
	tap_diag
tap_done
