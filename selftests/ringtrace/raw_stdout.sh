#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A recording on standard output holds nothing else: with
# `ringtrace-cat --raw -- COMMAND > FILE` and `--raw -o - -- COMMAND | ...
# -i -`, the command's output goes to ringtrace-cat's standard error (as
# perf record -o - does), which says so once, and the file replays; with
# standard error on the same file as the recording (2>&1) the run is
# refused before it starts. The same for JSON (| jq): `--json -- COMMAND`
# sends the command's output to standard error and standard output is JSON
# alone. A command that cannot run is named and gives 127, in
# ringtrace-cat and ringtrace-lockstat alike. Needs root and
# ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

[[ -x $cat && -x $lockstat ]] || tap_skip_all "tools not built (make -C user)"
tap_plan 11

printf 'the command said this\n' >"$work/msg"

# --raw to a redirected standard output.
# dd, not cat: cat copies a file to a file with copy_file_range(), no read.
"$cat" --raw -- dd if="$work/msg" bs=4096 status=none >"$work/x.raw" 2>"$work/x.err"
rc=$?
"$cat" -q -i "$work/x.raw" >"$work/x.txt" 2>"$work/x.replay"
replay=$?
# dd's read of the 22-byte file (named by path, or by its size on kernels
# whose path records name it relative to its mount).
[[ $rc -eq 0 && $replay -eq 0 ]] && grep -Eq '^ *dd .* ret=22 ' "$work/x.txt"
tap_ok $? "--raw -- dd if=FILE > x.raw: the file replays (exit $rc, replay $replay) and holds dd's read" ||
	{ tap_diag <"$work/x.err"; tap_diag <"$work/x.replay"; tap_diag <"$work/x.txt"; }
! grep -aq 'the command said this' "$work/x.raw"
tap_ok $? "the recording holds none of dd's output"
[[ $(grep -c '^the command said this$' "$work/x.err") -eq 1 ]]
tap_ok $? "dd's output went to standard error" || tap_diag <"$work/x.err"
[[ $(grep -c "goes to standard output: dd's standard output goes to standard error" "$work/x.err") -eq 1 ]]
tap_ok $? "ringtrace-cat said so, once" || tap_diag <"$work/x.err"

# --raw -o - into a pipe, replayed from standard input.
set -o pipefail
"$cat" --raw -o - -- cat "$work/msg" 2>"$work/p.err" |
	"$cat" -q -i - >"$work/p.txt" 2>"$work/p.replay"
rc=$?
set +o pipefail
[[ $rc -eq 0 && -s $work/p.txt ]] && grep -q '^the command said this$' "$work/p.err"
tap_ok $? "--raw -o - -- cat FILE | ringtrace-cat -i -: replayed (exit $rc, $(wc -l <"$work/p.txt") lines)" ||
	{ tap_diag <"$work/p.err"; tap_diag <"$work/p.replay"; }

# --json -- COMMAND: every line of standard output is JSON, the command's
# went to standard error.
"$cat" --json -- dd if="$work/msg" bs=4096 status=none >"$work/j.json" 2>"$work/j.err"
rc=$?
python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    json.loads(line)
    n += 1
assert n > 0
print(n)' "$work/j.json" >"$work/j.n" 2>&1
tap_ok $? "--json -- dd: standard output is JSON alone ($(cat "$work/j.n") lines, exit $rc)" ||
	{ tap_diag <"$work/j.n"; head -n 3 "$work/j.json" | tap_diag; }
[[ $(grep -c '^the command said this$' "$work/j.err") -eq 1 ]] &&
	grep -q "the JSON stream goes to standard output: dd's standard output goes to standard error" "$work/j.err"
tap_ok $? "dd's output went to standard error, and ringtrace-cat said so" || tap_diag <"$work/j.err"

# Standard error on the recording: refused, nothing run.
"$cat" --raw -- touch "$work/ran" >"$work/y.raw" 2>&1
rc=$?
[[ $rc -eq 2 && ! -e $work/ran ]] && grep -q 'standard error is the same file' "$work/y.raw"
tap_ok $? "--raw > FILE 2>&1 is refused before the command runs (exit $rc)" ||
	tap_diag <"$work/y.raw"

# A command that cannot run: named, 127.
"$cat" -q -- /nonexistent/cmd >/dev/null 2>"$work/c.err"
rc=$?
[[ $rc -eq 127 ]] && grep -q '/nonexistent/cmd' "$work/c.err"
tap_ok $? "ringtrace-cat -- /nonexistent/cmd: exit $rc, named" || tap_diag <"$work/c.err"
"$lockstat" -- /nonexistent/cmd >"$work/l.out" 2>"$work/l.err"
rc=$?
[[ $rc -eq 127 ]] && grep -q 'cannot run /nonexistent/cmd' "$work/l.err"
tap_ok $? "ringtrace-lockstat -- /nonexistent/cmd: exit $rc, named" || tap_diag <"$work/l.err"
[[ ! -s $work/l.out ]]
tap_ok $? "and no lock table for a command that never ran" || tap_diag <"$work/l.out"
tap_done
