#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat --ctf DIR live, read back by babeltrace2 (the host's, seen
# read-only in the VM) and its Python bindings: the trace names this
# kernel and the module; a COMMAND's reads of a
# file are there with their results and the file's path, and (-e
# vfs_read,func:vfs_write --args 3) its writes of a copy as func events
# in the same trace, each with its return value, latency and raw count
# argument; stopped by
# SIGINT, the trace is complete (babeltrace2 reads every event the tool
# counted); killed (SIGKILL) while writing, DIR is absent, never partial.
# Needs root and ringtrace.ko loaded (the runner does it); babeltrace2
# and python3-bt2 from scripts/install-deps.
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
tap_plan 5

head -c 10000 /dev/zero >"$work/file"

# events DIR: how many events babeltrace2 decodes from DIR (-1: it failed).
events() {
	local n
	n=$(babeltrace2 "$1" 2>"$work/bt.err" | wc -l) && [[ ! -s $work/bt.err ]] ||
		n=-1
	echo "$n"
}

# counted ERRFILE: the events ringtrace-cat said it wrote.
counted() {
	sed -n 's/.*CTF trace of \([0-9]*\) events.*/\1/p' "$1"
}

"$cat" -e vfs_read,func:vfs_write --args 3 --ctf "$work/cmd.ctf" -- \
	dd if="$work/file" of="$work/copy" bs=4096 status=none 2>"$work/cmd.err"
rc=$?
n=$(events "$work/cmd.ctf")
[[ $rc -eq 0 && $n -gt 0 && $n -eq $(counted "$work/cmd.err") ]] &&
	grep -q "kernel_release = \"$(uname -r)\";" "$work/cmd.ctf/metadata" &&
	grep -q 'module_version = "[0-9]' "$work/cmd.ctf/metadata"
tap_ok $? "--ctf -- COMMAND: exit $rc, babeltrace2 decodes all $n events; kernel and module named" ||
	cat "$work/cmd.err" "$work/bt.err" | tap_diag

/usr/bin/python3 - "$work/cmd.ctf" "$work/file" >"$work/py.out" 2>&1 <<'EOF'
import sys
import bt2
reads = []
writes = []
for m in bt2.TraceCollectionMessageIterator(sys.argv[1]):
    if type(m) is not bt2._EventMessageConst:
        continue
    f = m.event.payload_field
    if m.event.name == 'vfs_read':
        path = str(f['path'])
        # Named in full on PREEMPT_RT too (behind the mount's point).
        if path == sys.argv[2]:
            reads.append((str(f['comm']), int(f['ret']), int(f['pos'])))
    # "func:vfs_write" where the kernel's BTF describes its arguments
    elif m.event.name in ('func', 'func:vfs_write') and \
            str(f['func']) == 'vfs_write':
        # count, the third argument, is what each write asked for
        writes.append((str(f['comm']), int(f['ret']), int(f['lat_ns']) > 0,
                       len(f['args']), int(f['args'][2])))
assert reads == [('dd', 4096, 0), ('dd', 4096, 4096), ('dd', 1808, 8192),
                 ('dd', 0, 10000)], reads
assert writes == [('dd', 4096, True, 3, 4096), ('dd', 4096, True, 3, 4096),
                  ('dd', 1808, True, 3, 1808)], writes
EOF
tap_ok $? "python3-bt2 reads dd's 4 reads of the file back (comm, ret, pos, path) and its 3 writes (func events: ret, lat_ns, args)" ||
	tap_diag <"$work/py.out"

# System-wide until a signal; the reads come once tracing runs (never
# attach while another vCPU runs the probed function: TCG, testing.rst).
# start NAME: ringtrace-cat -a --ctf $work/NAME.ctf in the background.
start() {
	set -m
	"$cat" -a --ctf "$work/$1.ctf" 2>"$work/$1.err" &
	pid=$!
	set +m
	sleep 2
	dd if="$work/file" of=/dev/null bs=1000 status=none
}

start int
kill -INT "$pid"
wait "$pid"
rc=$?
n=$(events "$work/int.ctf")
[[ $rc -eq 0 && $n -ge 11 && $n -eq $(counted "$work/int.err") ]]
tap_ok $? "SIGINT: exit $rc, the trace is complete ($n events decoded, $(counted "$work/int.err") written)" ||
	cat "$work/int.err" "$work/bt.err" | tap_diag

start kill
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[[ ! -e $work/kill.ctf ]]
tap_ok $? "SIGKILL while tracing: no kill.ctf at all (not a partial trace)" ||
	find "$work" -maxdepth 1 | tap_diag

# The hidden working directories: the killed one only.
hidden=$(find "$work" -maxdepth 1 -name '.*.ctf-*' -printf '%f\n')
[[ $hidden == .kill.ctf.ctf-* && $(wc -l <<<"$hidden") -eq 1 ]]
tap_ok $? "only the killed run left its hidden working directory ($hidden)"

tap_done
