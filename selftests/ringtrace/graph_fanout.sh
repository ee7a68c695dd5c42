#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# As many functions as one session may trace (RINGTRACE_MAX_FUNCS, 1024):
# every read() of the ringtrace_fanout test module's file calls
# ringtrace_fan_0000 ... ringtrace_fan_1023 once each, in order, and dd
# makes exactly N reads of it.
# - --graph vfs_read --graph-funcs GLOB gives each of dd's N reads exactly
#   the functions the glob names, in that order, each at depth 1 inside
#   the read; the module made N reads.
# - -e with the functions named one by one (func:NAME,...) records
#   exactly N calls of each, named after it, from dd; its end line counts
#   them all, none lost, none missed.
# - One function more than the limit is refused, saying the limit, before
#   anything is traced.
# Where the module attaches one fprobe per session (a batch, one ftrace
# update), the sessions trace all 1024. Where it attaches a kretprobe per
# function (Debian 6.1: about 50 ms each under QEMU TCG, to attach and
# again to detach), they trace 120, past the 64 older modules took.
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
tap_plan 4

n=3
size=512
limit=$(st_max_funcs)
dir=/sys/kernel/debug/ringtrace_fanout
if st_kernel_has_fprobe; then
	max=$limit
	glob='ringtrace_fan_*'
else
	max=120
	glob='ringtrace_fan_00*,ringtrace_fan_010*,ringtrace_fan_011*'
fi
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
if ! insmod "$ko/selftests/ringtrace/modules/ringtrace_fanout.ko"; then
	echo "Bail out! cannot load ringtrace_fanout.ko"
	exit 1
fi
trap 'rmmod ringtrace_fanout; rm -rf "$work"' EXIT

before=$(cat "$dir/calls")
"$cat" --graph vfs_read --graph-funcs "$glob" --json -- \
	dd if="$dir/fan" of=/dev/null bs="$size" count="$n" status=none \
	>"$work/g.json" 2>"$work/g.err"
rc=$?
after=$(cat "$dir/calls")
why=$(python3 - "$work/g.json" "$dir/fan" "$size" "$n" "$max" <<'PY'
import json, sys

path, size, n, nf = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
want = ["ringtrace_fan_%04d" % i for i in range(nf)]
reads = [e for e in map(json.loads, open(sys.argv[1]))
         if e.get("type") == "vfs_read" and e.get("comm") == "dd" and
         e.get("path") == path and e.get("count") == size]
if len(reads) != n:
    raise SystemExit("%d reads of %s by dd, not %d" % (len(reads), path, n))
for r in reads:
    # The function spans; off-CPU intervals (a preemption) are nodes too.
    g = [s for s in r["graph"] if s["kind"] == "func"]
    start = r["ts_ns"] - r["lat_ns"]
    if [s["func"] for s in g] != want:
        raise SystemExit("spans %s" % [s["func"] for s in g])
    for s in g:
        if s["depth"] != 1 or s["entry_ns"] < start or \
                s["entry_ns"] + s["dur_ns"] > r["ts_ns"]:
            raise SystemExit("span not at depth 1 inside its read: %s" % s)
print("%d ok" % n)
PY
)
[[ $rc -eq 0 && $why == "$n ok" ]]
tap_ok $? "--graph-funcs '$glob': $n reads, each exactly the $max functions in order inside it ($why, exit $rc)" ||
	{ tap_diag <"$work/g.err"; head -c 2000 "$work/g.json" | tap_diag; }

[[ $((after - before)) -eq $n ]]
tap_ok $? "the module made $n reads ($((after - before)))"

events=$(for i in $(seq 0 $((max - 1))); do printf 'func:ringtrace_fan_%04d,' "$i"; done)
"$cat" --json -e "${events%,}" -- \
	dd if="$dir/fan" of=/dev/null bs="$size" count="$n" status=none \
	>"$work/f.json" 2>"$work/f.err"
rc=$?
why=$(python3 - "$work/f.json" "$n" "$max" <<'PY'
import collections, json, sys

n, nf = int(sys.argv[2]), int(sys.argv[3])
calls = collections.Counter()
for e in map(json.loads, open(sys.argv[1])):
    if e.get("type") == "func" and e.get("comm") == "dd":
        calls[e.get("func")] += 1
    elif e.get("type") == "lost":
        raise SystemExit("lost: %s" % e)
want = {"ringtrace_fan_%04d" % i: n for i in range(nf)}
if calls != want:
    raise SystemExit("calls %s" % dict(calls))
print("%d ok" % nf)
PY
)
# The end line counts them: every one of them, none lost, none missed.
grep -q "^ringtrace-cat: $((n * max)) records, .* 0 lost," "$work/f.err" &&
	! grep -q "missed" "$work/f.err"
end=$?
[[ $rc -eq 0 && $why == "$max ok" && $end -eq 0 ]]
tap_ok $? "-e with $max func:NAME: exactly $n calls of each, nothing lost ($why, exit $rc)" ||
	{ tap_diag <"$work/f.err"; head -c 2000 "$work/f.json" | tap_diag; }

"$cat" --graph vfs_read --graph-funcs 'ringtrace_fan_*,vfs_write' -- true \
	>/dev/null 2>"$work/over.err"
rc=$?
[[ $rc -eq 2 ]] && grep -q "at most $limit" "$work/over.err"
tap_ok $? "$((limit + 1)) functions are refused with the limit (exit $rc)" ||
	tap_diag <"$work/over.err"
