#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat -e tp:SUBSYS:EVENT: a kernel tracepoint, each hit one
# record with the tracepoint's arguments. A shell sends itself SIGUSR1
# exactly N times: signal:signal_generate gives exactly N hits from it
# whose first argument is the signal's number, in the text lines (by
# name from the kernel's BTF: args=sig=10), the JSON objects (lat_ns 0,
# args, named_args), --summary's row and a raw recording's replay (named
# as live: the recording keeps the names and the arguments' names), and
# the exports: --perfetto's instants (args "sig":10 beside the raw "args")
# and --ctf's events of the tracepoint's own class, whose field sig
# babeltrace2 reads as 10. A process
# calling getsid(2) N times gives exactly N raw_syscalls:sys_enter hits
# with its number as the second argument: the syscall tracepoint runs
# its probes preemptible on 6.13 and later (7.x: all of them, under
# SRCU-fast). ftrace's own event on the same tracepoint, enabled in a
# tracefs instance before ringtrace attaches, counts the same N, and
# still counts once ringtrace has detached (shared, not taken). Refused
# with their reasons: a tracepoint the kernel does not have, a name of
# the wrong shape, one under another subsystem. ringtrace-ctl info says the module offers it. Needs
# root and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
tap_plan 11

n=37
ev=tp:signal:signal_generate
# The shell that signals itself $n times: one kill(2), one hit, each.
sigs=(bash -c "trap : USR1; i=0; while ((i < $n)); do kill -USR1 \$\$; i=\$((i + 1)); done")

"$ctl" info >"$work/info" 2>&1
grep -qE '^features .* func_tracepoint( |$)' "$work/info"
tap_ok $? "ringtrace-ctl info: the module offers func_tracepoint" ||
	tap_diag <"$work/info"

"$cat" -e "$ev" --args 1 -- "${sigs[@]}" >"$work/t.txt" 2>"$work/t.err"
rc=$?
got=$(grep -cE '^ *bash .* tp: name=signal:signal_generate args=sig=10( |$)' "$work/t.txt")
[[ $rc -eq 0 && $got -eq $n ]]
tap_ok $? "text: exactly $n signal_generate hits of SIGUSR1 from bash ($got, exit $rc)" ||
	{ tap_diag <"$work/t.err"; head -5 "$work/t.txt" | tap_diag; }

"$cat" --json -e "$ev" --args 2 -- "${sigs[@]}" >"$work/j.json" 2>"$work/j.err"
rc=$?
got=$(python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") == "func" and e.get("func") == "tp:signal:signal_generate" \
       and e.get("comm") == "bash" and e.get("lat_ns") == 0 and \
       e.get("ret") == 0 and len(e.get("args", [])) == 2 and \
       e["args"][0] == "0xa" and e.get("named_args", {}).get("sig") == 10 \
       and e["named_args"]["info"].startswith("0x"):
        n += 1
print(n)' "$work/j.json")
[[ $rc -eq 0 && $got -eq $n ]]
tap_ok $? "JSON: exactly $n hits with 2 arguments, the first SIGUSR1, named sig and info ($got, exit $rc)" ||
	{ tap_diag <"$work/j.err"; head -3 "$work/j.json" | tap_diag; }

"$cat" --raw -o "$work/r.raw" -e "$ev" --args 1 -- "${sigs[@]}" 2>"$work/r.err"
rc=$?
"$cat" -i "$work/r.raw" >"$work/r.txt" 2>"$work/r.replay"
replay=$?
got=$(grep -cE '^ *bash .* tp: name=signal:signal_generate args=sig=10( |$)' "$work/r.txt")
[[ $rc -eq 0 && $replay -eq 0 && $got -eq $n ]]
tap_ok $? "raw: recorded and replayed under its name, $n hits ($got, exit $rc, replay $replay)" ||
	{ tap_diag <"$work/r.err"; tap_diag <"$work/r.replay"; head -3 "$work/r.txt" | tap_diag; }

# Every argument by name, live and from a recording's replay (its
# FUNC_ARGS chunk): the same line, but for the pointers' values.
args_lines() {
	grep -E '^ *bash .* tp: name=signal:signal_generate ' "$1" |
		grep -oE 'args=[^ ]*' | sed -E 's/0x[0-9a-f]+/PTR/g' | sort | uniq -c
}
"$cat" -e "$ev" --args 5 -- "${sigs[@]}" >"$work/a.txt" 2>"$work/a.err"
rc=$?
"$cat" --raw -o "$work/a.raw" -e "$ev" --args 5 -- "${sigs[@]}" 2>"$work/ar.err" &&
	"$cat" -i "$work/a.raw" >"$work/ar.txt" 2>>"$work/ar.err"
replay=$?
live=$(args_lines "$work/a.txt")
again=$(args_lines "$work/ar.txt")
[[ $rc -eq 0 && $replay -eq 0 && $live == "$again" ]] &&
	grep -qE "^ *$n args=sig=10,info=PTR,task=PTR,group=[0-9]+,result=-?[0-9]+\$" <<<"$live"
tap_ok $? "named arguments: a live run and its recording's replay print the same line (${live//$'\n'/;})" ||
	{ tap_diag <"$work/a.err"; tap_diag <"$work/ar.err"; tap_diag <<<"$live"; tap_diag <<<"$again"; }

# The exports carry the arguments by name too: --perfetto in the
# instants' args, --ctf in fields of the tracepoint's own event class.
"$cat" -e "$ev" --args 2 --perfetto "$work/p.json" --ctf "$work/p.ctf" \
	-- "${sigs[@]}" >/dev/null 2>"$work/p.err"
rc=$?
got=$(/usr/bin/python3 - "$work/p.json" "$work/p.ctf" 2>&1 <<'EOF'
import json, sys
import bt2
p = c = 0
for e in json.load(open(sys.argv[1])):
    a = e.get("args", {})
    if e.get("name") == "tp:signal:signal_generate" and \
       a.get("sig") == 10 and a.get("args", [""])[0] == "0xa" and \
       a.get("info", "").startswith("0x"):
        p += 1
for m in bt2.TraceCollectionMessageIterator(sys.argv[2]):
    if type(m) is bt2._EventMessageConst and \
       m.event.name == "tp:signal:signal_generate":
        f = m.event.payload_field
        if str(f["comm"]) == "bash" and int(f["sig"]) == 10 and \
           int(f["args"][0]) == 10:
            c += 1
print(p, c)
EOF
)
[[ $rc -eq 0 && $got == "$n $n" ]]
tap_ok $? "--perfetto and --ctf: $n hits with sig 10 by name, each (perfetto, ctf: $got, exit $rc)" ||
	{ tap_diag <"$work/p.err"; echo "$got" | tap_diag; }

# --summary's row for the tracepoint: its calls column, live and replayed.
row_calls() {
	awk '/^FUNCTION / { t = 1; next }
	     t && $1 == "tp:signal:signal_generate" { c = $2 }
	     END { print c + 0 }' "$1"
}
"$cat" -e "$ev" --summary -- "${sigs[@]}" >"$work/s.txt" 2>"$work/s.err"
rc=$?
"$cat" -i "$work/r.raw" --summary >"$work/rs.txt" 2>"$work/rs.err"
replay=$?
live=$(row_calls "$work/s.txt")
again=$(row_calls "$work/rs.txt")
# SIGCHLD of the shell's own exit, to its parent, is one hit more.
[[ $rc -eq 0 && $replay -eq 0 && $live -eq $((n + 1)) && $live -eq $again ]]
tap_ok $? "--summary: the tracepoint's row counts $n + 1 hits, the same live and replayed ($live, $again)" ||
	{ tap_diag <"$work/s.err"; tap_diag <"$work/s.txt"; tap_diag <"$work/rs.txt"; }

# getsid(2): nothing else calls it; the syscall's number by architecture.
case $(uname -m) in
aarch64) nr=156 ;;
*) nr=124 ;;
esac
"$cat" -e tp:raw_syscalls:sys_enter --args 2 -- python3 -c "
import os
for _ in range($n):
    os.getsid(0)" >"$work/y.txt" 2>"$work/y.err"
rc=$?
got=$(grep -cE "^ *python3 .* tp: name=raw_syscalls:sys_enter args=regs=0x[0-9a-f]+,id=$nr( |\$)" "$work/y.txt")
[[ $rc -eq 0 && $got -eq $n ]]
tap_ok $? "raw_syscalls:sys_enter: exactly $n getsid calls from python3 ($got, exit $rc)" ||
	{ tap_diag <"$work/y.err"; head -5 "$work/y.txt" | tap_diag; }

# ftrace's event on the same tracepoint, in an instance of its own.
tracefs=/sys/kernel/tracing
[[ -e $tracefs/instances ]] || tracefs=/sys/kernel/debug/tracing
inst=$tracefs/instances/rttp
if mkdir "$inst" 2>/dev/null; then
	trap 'rmdir "$inst" 2>/dev/null; rm -rf "$work"' EXIT
	echo 1 >"$inst/events/signal/signal_generate/enable"
	"$cat" -e "$ev" --args 1 -- "${sigs[@]}" >"$work/c.txt" 2>"$work/c.err"
	rc=$?
	ours=$(grep -cE '^ *bash .* tp: name=signal:signal_generate args=sig=10( |$)' "$work/c.txt")
	theirs=$(grep -c 'signal_generate: sig=10 ' "$inst/trace")
	[[ $rc -eq 0 && $ours -eq $n && $theirs -eq $n ]]
	tap_ok $? "beside ftrace's signal_generate event: both count $n ($ours, $theirs, exit $rc)" ||
		tap_diag <"$work/c.err"
	"${sigs[@]}"
	theirs=$(grep -c 'signal_generate: sig=10 ' "$inst/trace")
	[[ $theirs -eq $((2 * n)) ]]
	tap_ok $? "ftrace's event still counts after ringtrace detached ($theirs of $((2 * n)))"
	echo 0 >"$inst/events/signal/signal_generate/enable"
else
	tap_skip "beside ftrace's signal_generate event" "no tracefs instances"
	tap_skip "ftrace's event after ringtrace detached" "no tracefs instances"
fi

"$cat" -e tp:sched:no_such_tracepoint -- true >"$work/n.txt" 2>"$work/n.err"
rc=$?
"$cat" -e tp:a:b:c -- true >"$work/b.txt" 2>"$work/b.err"
rc2=$?
"$cat" -e tp:signal:sched_switch -- true >"$work/w.txt" 2>"$work/w.err"
rc3=$?
[[ $rc -ne 0 && $rc2 -ne 0 && $rc3 -ne 0 ]] &&
	grep -q 'no such tracepoint' "$work/n.err" &&
	grep -q "'tp:a:b:c' is not tp:SUBSYS:EVENT" "$work/b.err" &&
	grep -q 'tracefs has no event signal:sched_switch' "$work/w.err"
tap_ok $? "refused with the reason: no such tracepoint (exit $rc), a bad name (exit $rc2), another subsystem's (exit $rc3)" ||
	{ tap_diag <"$work/n.err"; tap_diag <"$work/b.err"; tap_diag <"$work/w.err"; }

tap_done
