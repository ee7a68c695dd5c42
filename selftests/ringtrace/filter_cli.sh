#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat --filter EXPR live. A workload (value_filter
# --workload) makes 7 reads that fail (a directory: EISDIR), 5 of 8 KiB,
# 3 of 16 bytes and 4 of a file named big.*; --filter 'ret < 0' prints
# exactly the 7, 'count > 4096' exactly the 5, a path glob exactly the 4,
# and the summary says the module turned the rest away before any ring
# work (the ret and count parts; a glob is decided in user space). -v says
# which ranges the module got; the same filter on a replay of an
# unfiltered recording gives the same lines.
# Needs root and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"
wl=$here/value_filter

st_need_cat
[[ -x $wl ]] || tap_skip_all "value_filter not built (make -C selftests/ringtrace)"
tap_plan 6

head -c 1000 /dev/zero >"$work/big.dat"
workload=("$wl" --workload 7 5 3 "$work/big.dat" 4)

# filtered NAME EXPR WANT: the JSON lines of a --filter EXPR run
filtered() {
	local name=$1 expr=$2 want=$3 got rc
	"$cat" --json -v --filter "$expr" -- "${workload[@]}" \
		>"$work/$name.json" 2>"$work/$name.err"
	rc=$?
	got=$(grep -c '"type":"vfs_read"' "$work/$name.json")
	[[ $rc -eq 0 && $got -eq $want && $(wc -l <"$work/$name.json") -eq $want ]]
	tap_ok $? "--filter '$expr': exactly $want records ($got, exit $rc)" ||
		{ tap_diag <"$work/$name.err"; head -5 "$work/$name.json" | tap_diag; }
}

filtered ret 'ret < 0' 7
# The module dropped every other read of the workload (and its loader's).
dropped=$(sed -n 's/^ringtrace-cat: \([0-9]*\) vfs_read calls filtered in the kernel.*/\1/p' "$work/ret.err")
grep -q -- '--filter: the module drops vfs_read calls before any ring work unless -9223372036854775808 <= ret <= -1$' "$work/ret.err" &&
	[[ -n $dropped && $dropped -ge $((5 + 3 + 4)) ]]
tap_ok $? "the module filtered ${dropped:-no} reads before any ring work, and -v said its range" ||
	tap_diag <"$work/ret.err"

filtered count 'count > 4096' 5
filtered glob 'path ~ "*/big.*"' 4
! grep -q 'filtered in the kernel' "$work/glob.err"
tap_ok $? "a glob alone is user space's: nothing filtered in the kernel" ||
	tap_diag <"$work/glob.err"

# The same filter on a replay of everything: the same records.
"$cat" --raw -o "$work/all.raw" -- "${workload[@]}" 2>"$work/all.err" &&
	"$cat" -i "$work/all.raw" --json --filter 'ret < 0' >"$work/replay.json" 2>"$work/replay.err" &&
	python3 - "$work/ret.json" "$work/replay.json" <<'PY'
import json, sys
def key(path):
    return [(l["pid"], l["ret"], l["count"]) for l in map(json.loads, open(path))]
live, replay = key(sys.argv[1]), key(sys.argv[2])
assert live and [k[1:] for k in live] == [k[1:] for k in replay], (live, replay)
PY
tap_ok $? "-i F --filter 'ret < 0' prints what the live filter printed" ||
	{ tap_diag <"$work/all.err"; tap_diag <"$work/replay.err"; }
tap_done
