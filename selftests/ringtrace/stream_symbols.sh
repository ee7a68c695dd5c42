#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Frames named in the live stream (issue 21, perf script's sym+off):
# `ringtrace-cat --stack -- sh -c 'read ...'` prints each vfs_read's kernel
# stack from /proc/kallsyms, innermost first, as vfs_read+0x.. or
# ksys_read+0x.. (where the probe's own frame is skipped), in text and
# JSON (kstack_sym beside the addresses), and its user stack from the
# shell's mappings (libc's read, "(libc.so.6)"); --no-symbols keeps hex;
# --report-by comm totals samples per command. The shell sleeps after
# reading so that its maps are still there when the stream names them.
# Needs root and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
top=$(cd "$here/../.." && pwd -P)
# shellcheck source=scripts/lib/tap.sh
. "$top/scripts/lib/tap.sh"
cat=$top/user/ringtrace-cat
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[[ -x $cat ]] || tap_skip_all "ringtrace-cat not built (make -C user)"
tap_plan 6

printf 'one line\n' >"$work/msg"
# dash's read builtin reads its input a byte at a time, from sh itself.
workload="read -r line < '$work/msg'; sleep 0.3"

"$cat" --stack -- sh -c "$workload" >"$work/t.txt" 2>"$work/t.err"
rc=$?
grep ' vfs_read: .* file=.*/msg$' "$work/t.txt" >"$work/reads.txt"
[[ $rc -eq 0 && -s $work/reads.txt ]]
tap_ok $? "--stack -- sh -c 'read < FILE': $(wc -l <"$work/reads.txt") reads of the file (exit $rc)" ||
	{ tap_diag <"$work/t.err"; tap_diag <"$work/t.txt"; }
! grep -Ev ' kstack=(vfs_read|ksys_read)\+0x[0-9a-f]+,' "$work/reads.txt" | grep -q .
tap_ok $? "text: every read's innermost kernel frame is vfs_read+0x.. or ksys_read+0x.." ||
	tap_diag <"$work/reads.txt"
grep -Eq ' ustack=[^ ,]+\+0x[0-9a-f]+\(libc\.so\.6\)' "$work/reads.txt"
tap_ok $? "text: the user stack's innermost frame is libc's, named" ||
	tap_diag <"$work/reads.txt"

"$cat" --json --stack -- sh -c "$workload" >"$work/t.json" 2>"$work/j.err"
python3 - "$work/t.json" "$work/msg" >"$work/j.out" 2>&1 <<'PY'
import json, re, sys
reads = [j for j in map(json.loads, open(sys.argv[1]))
         if j["type"] == "vfs_read" and j.get("path", "").endswith(sys.argv[2])]
assert reads, "no read of the file"
for j in reads:
    assert len(j["kstack_sym"]) == len(j["kstack"]), j
    assert re.fullmatch(r"(vfs_read|ksys_read)\+0x[0-9a-f]+", j["kstack_sym"][0]), j
    assert j["kstack"][0].startswith("0xffff"), j
print("%d reads, kstack_sym[0] %s" % (len(reads), reads[0]["kstack_sym"][0]))
PY
tap_ok $? "JSON: kstack_sym names vfs_read/ksys_read beside the addresses ($(tail -1 "$work/j.out"))" ||
	{ tap_diag <"$work/j.out"; tap_diag <"$work/j.err"; }

"$cat" --no-symbols --stack -- sh -c "$workload" >"$work/h.txt" 2>"$work/h.err"
grep ' vfs_read: .* file=.*/msg$' "$work/h.txt" | grep -q ' kstack=0xffff' &&
	! grep -q 'kstack=[a-z_]' "$work/h.txt"
tap_ok $? "--no-symbols keeps the frames hex" || tap_diag <"$work/h.txt"

# Samples of a spinning shell: the report's comm rows sum to the total.
# shellcheck disable=SC2016 # the inner shell expands it
spin='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
"$cat" --sample cpu-clock:997 -g --report-by comm --json -- \
	sh -c "$spin" >"$work/r.json" 2>"$work/r.err"
python3 - "$work/r.json" >"$work/r.out" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["report"] == "comm" and r["total"] > 0, r
assert sum(x["self"] for x in r["rows"]) == r["total"], r
assert any(x["key"] == "sh" for x in r["rows"]), r
print("%d samples, %d rows" % (r["total"], len(r["rows"])))
PY
tap_ok $? "--report-by comm live: $(tail -1 "$work/r.out")" ||
	{ tap_diag <"$work/r.out"; tap_diag <"$work/r.err"; }
