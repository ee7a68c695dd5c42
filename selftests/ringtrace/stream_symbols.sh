#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Frames named in the live stream (perf script's sym+off):
# `ringtrace-cat --stack -- sh -c 'read ...'` prints each vfs_read's kernel
# stack from /proc/kallsyms, innermost first, as vfs_read+0x.. or
# ksys_read+0x.. (where the probe's own frame is skipped), in text and
# JSON (kstack_sym beside the addresses), and its user stack from the
# shell's mappings (libc's read, "(libc.so.6)"); --no-symbols keeps hex;
# --report-by comm totals samples per command. A --raw --stack recording
# saves the symbols of its kernel frames (KSYMS chunk): replayed where
# /proc/kallsyms cannot be read (an empty file bound over it in a mount
# namespace of its own) its reads still name ksys_read+0x.., exactly as a
# replay with --kallsyms /proc/kallsyms does. The shell sleeps after
# reading so that its maps are still there when the stream names them.
# Needs root and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
tap_plan 9

printf 'one line\n' >"$work/msg"
# dash's read builtin reads its input a byte at a time, from sh itself.
workload="read -r line < '$work/msg'; sleep 0.3"

"$cat" --stack -- sh -c "$workload" >"$work/t.txt" 2>"$work/t.err"
rc=$?
grep ' vfs_read: .* file=.*/msg$' "$work/t.txt" >"$work/reads.txt"
[[ $rc -eq 0 && -s $work/reads.txt ]]
tap_ok $? "--stack -- sh -c 'read < FILE': $(wc -l <"$work/reads.txt") reads of the file (exit $rc)" ||
	{ tap_diag <"$work/t.err"; tap_diag <"$work/t.txt"; }
# vfs_read's caller: ksys_read, or the arch's entry where ksys_read is
# inlined into it (__arm64_sys_read on arm64 7.2).
! grep -Ev ' kstack=(vfs_read|ksys_read|__[a-z0-9]+_sys_read)\+0x[0-9a-f]+,' "$work/reads.txt" | grep -q .
tap_ok $? "text: every read's innermost kernel frame is vfs_read+0x.., ksys_read+0x.. or the arch's sys_read" ||
	tap_diag <"$work/reads.txt"
grep -Eq ' ustack=[^ ,]+\+0x[0-9a-f]+\(libc\.so\.6\)' "$work/reads.txt"
tap_ok $? "text: the user stack's innermost frame is libc's, named" ||
	tap_diag <"$work/reads.txt"

"$cat" --json --stack -- sh -c "$workload" >"$work/t.json" 2>"$work/j.err"
python3 - "$work/t.json" "$work/msg" >"$work/j.out" 2>&1 <<'PY'
import json, re, sys
# The file's directory and name: where the module names a file relative to
# its mount ("[0:31]/tmp.X/msg" for /tmp/tmp.X/msg, 7.2-rt) the rest differs.
tail = "/" + "/".join(sys.argv[2].split("/")[-2:])
reads = [j for j in map(json.loads, open(sys.argv[1]))
         if j["type"] == "vfs_read" and j.get("path", "").endswith(tail)]
assert reads, "no read of the file"
for j in reads:
    assert len(j["kstack_sym"]) == len(j["kstack"]), j
    assert re.fullmatch(r"(vfs_read|ksys_read|__[a-z0-9]+_sys_read)\+0x[0-9a-f]+",
                        j["kstack_sym"][0]), j
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

# Recorded with --raw --stack: the file keeps its kernel frames' symbols.
"$cat" --raw -o "$work/r.raw" --stack -- sh -c "$workload" 2>"$work/raw.err"
rc=$?
"$cat" -i "$work/r.raw" --header >"$work/hdr.txt" 2>&1
# The release compared as a string, not a regex: 7.2.13+deb14 has a '+'.
line=$(grep -E '^kernel symbols: [1-9][0-9]* stored \(of ' "$work/hdr.txt")
[[ $rc -eq 0 && $line == *"(of $(uname -r))" ]]
tap_ok $? "--raw --stack saves the kernel symbols: $(grep '^kernel symbols' "$work/hdr.txt")" ||
	{ tap_diag <"$work/raw.err"; tap_diag <"$work/hdr.txt"; }
# Replay where /proc/kallsyms cannot be read: named from the file alone.
# shellcheck disable=SC2016 # the inner shell expands them
unshare -m sh -c 'mount --bind /dev/null /proc/kallsyms &&
	! grep -q . /proc/kallsyms && exec "$0" -q -i "$1"' "$cat" "$work/r.raw" \
	>"$work/replay.txt" 2>"$work/replay.err"
rc=$?
grep ' vfs_read: .* file=.*/msg$' "$work/replay.txt" >"$work/rreads.txt"
[[ $rc -eq 0 && -s $work/rreads.txt ]] &&
	! grep -Ev ' kstack=(vfs_read|ksys_read|__[a-z0-9]+_sys_read)\+0x[0-9a-f]+,' "$work/rreads.txt" | grep -q .
tap_ok $? "replay without /proc/kallsyms names reads' frames ksys_read+0x.. from the file (exit $rc)" ||
	{ tap_diag <"$work/replay.err"; tap_diag <"$work/replay.txt"; }
"$cat" -q -i "$work/r.raw" --kallsyms /proc/kallsyms >"$work/ks.txt" 2>"$work/ks.err"
cmp -s "$work/replay.txt" "$work/ks.txt"
tap_ok $? "the replay from the file's symbols equals the one with --kallsyms /proc/kallsyms" ||
	{ diff "$work/replay.txt" "$work/ks.txt" | head -20 | tap_diag; tap_diag <"$work/ks.err"; }
