#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat -e tp:SUBSYS:EVENT on a loaded module's tracepoint (ext4,
# kvm and 9p have theirs in modules on Debian). The test module
# ringtrace_tpmod fires ringtrace_tpmod:ringtrace_tpmod_hit(seq, cookie)
# N times on demand: exactly N records, seq 0 to N - 1 and the cookie as
# their arguments, in order, named from the module's own (split) BTF
# where it has one. While a session is attached
# the module cannot be unloaded (its tracepoint would go under the
# probe); once it ended it can. ftrace's own event on the same
# tracepoint, in an instance, counts the same N beside it. A name no
# loaded module has is refused with the reason. Needs root and
# ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
ko=${RINGTRACE_KO_ROOT:-$top}	# modules built for the running kernel
"$ctl" info >"$work/info" 2>&1
grep -qE '^features .* func_tracepoint( |$)' "$work/info" ||
	tap_skip_all "the module offers no tracepoints here"
tap_plan 7

if ! insmod "$ko/selftests/ringtrace/modules/ringtrace_tpmod.ko"; then
	echo "Bail out! cannot load ringtrace_tpmod.ko"
	exit 1
fi
trap 'rmmod ringtrace_tpmod 2>/dev/null; rm -rf "$work"' EXIT
fire=/sys/kernel/debug/ringtrace_tpmod/fire
ev=tp:ringtrace_tpmod:ringtrace_tpmod_hit
n=41

# hits FILE: "COUNT OUT-OF-ORDER" of the hit lines of FILE with the cookie.
hits() {
	python3 - "$1" "tp: name=${ev#tp:} " <<'PY'
import re, sys
count = bad = 0
for line in open(sys.argv[1], errors='replace'):
    m = re.search(r'args=(\S+)', line)
    if sys.argv[2] not in line or not m:
        continue
    # By name from the module's BTF (seq=0,cookie=24301), or hex.
    a = [x.rpartition('=')[2] for x in m.group(1).split(',')]
    if len(a) < 2 or int(a[1], 0) != 0x5eed:
        continue
    bad += int(a[0], 0) != count
    count += 1
print(count, bad)
PY
}

"$cat" -e "$ev" --args 2 -- sh -c "echo $n > $fire" >"$work/t.txt" 2>"$work/t.err"
rc=$?
read -r got bad <<<"$(hits "$work/t.txt")"
[[ $rc -eq 0 && $got -eq $n && $bad -eq 0 ]]
tap_ok $? "a module's tracepoint: exactly $n hits, seq 0 to $((n - 1)) in order and the cookie ($got, $bad out of order, exit $rc)" ||
	{ tap_diag <"$work/t.err"; head -5 "$work/t.txt" | tap_diag; }

# Its arguments by name where the module was built with BTF (headers
# that ship vmlinux: 7.2's; not Debian's 6.1).
if [[ -e /sys/kernel/btf/ringtrace_tpmod ]]; then
	got=$(grep -cE " tp: name=${ev#tp:} args=seq=[0-9]+,cookie=24301( |\$)" "$work/t.txt")
	[[ $got -eq $n ]]
	tap_ok $? "named from the module's own BTF: args=seq=N,cookie=24301 ($got of $n)" ||
		head -3 "$work/t.txt" | tap_diag
else
	tap_skip "named from the module's own BTF" "the test module has no BTF on this kernel"
fi

# The summary counts what was printed, as for any record.
grep -qE "^ringtrace-cat: $n records?," "$work/t.err"
tap_ok $? "the summary counts the same $n" || tap_diag <"$work/t.err"

# Unloading it while traced: refused; the hits after still recorded.
"$cat" -e "$ev" --args 2 -- sh -c "rmmod ringtrace_tpmod 2>$work/rm.err; echo \$? > $work/rm.rc; echo 3 > $fire" \
	>"$work/u.txt" 2>"$work/u.err"
rc=$?
read -r got bad <<<"$(hits "$work/u.txt")"
rmrc=$(cat "$work/rm.rc" 2>/dev/null)
[[ $rc -eq 0 && ${rmrc:-0} -ne 0 && $got -eq 3 && -e $fire ]]
tap_ok $? "while traced the module stays: rmmod refused (exit ${rmrc:-none}), the 3 hits after it recorded ($got)" ||
	{ tap_diag <"$work/rm.err"; tap_diag <"$work/u.err"; }

rmmod ringtrace_tpmod && ! [[ -e $fire ]] &&
	insmod "$ko/selftests/ringtrace/modules/ringtrace_tpmod.ko"
tap_ok $? "once the session ended it unloads (and loads again)"

# ftrace's event on the same tracepoint, in an instance of its own.
tracefs=/sys/kernel/tracing
[[ -e $tracefs/instances ]] || tracefs=/sys/kernel/debug/tracing
inst=$tracefs/instances/rttpmod
if mkdir "$inst" 2>/dev/null; then
	trap 'rmdir "$inst" 2>/dev/null; rmmod ringtrace_tpmod 2>/dev/null; rm -rf "$work"' EXIT
	echo 1 >"$inst/events/ringtrace_tpmod/ringtrace_tpmod_hit/enable"
	"$cat" -e "$ev" --args 2 -- sh -c "echo $n > $fire" >"$work/c.txt" 2>"$work/c.err"
	rc=$?
	read -r ours bad <<<"$(hits "$work/c.txt")"
	theirs=$(grep -c 'ringtrace_tpmod_hit: seq=' "$inst/trace")
	echo 0 >"$inst/events/ringtrace_tpmod/ringtrace_tpmod_hit/enable"
	[[ $rc -eq 0 && $ours -eq $n && $theirs -eq $n ]]
	tap_ok $? "beside ftrace's event on it: both count $n ($ours, $theirs, exit $rc)" ||
		tap_diag <"$work/c.err"
else
	tap_skip "beside ftrace's event on it" "no tracefs instances"
fi

"$cat" -e tp:ringtrace_tpmod:no_such_hit -- true >"$work/n.txt" 2>"$work/n.err"
rc=$?
[[ $rc -eq 1 ]] && grep -q 'no such tracepoint' "$work/n.err"
tap_ok $? "a name no loaded module has: refused with the reason (exit $rc)" ||
	tap_diag <"$work/n.err"

tap_done
