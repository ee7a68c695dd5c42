#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/func_names.sh RINGTRACE_CAT MKRAW [RINGTRACE_EXPORTER]: a
# recording's func records are named on replay as the live run named them,
# from its FUNC_NAMES chunk (the names the session traced, by func_idx),
# not from its kernel symbols: mkraw --tp records touch_atime and the
# sched_switch tracepoint, whose func_ip (its struct tracepoint, data) no
# symbol of its KSYMS chunk names.
#  - text and JSON name the tracepoint's records tp:sched:sched_switch,
#    --no-symbols too (live names them so), --header lists the names;
#  - -i F --raw -o G copies the chunk: G replays the same;
#  - ringtrace-exporter's replay labels the tracepoint's calls with it;
#  - a recording without the chunk (mkraw --tp-old, an older writer's)
#    replays as before: touch_atime from its symbols, the tracepoint hex;
#  - a damaged chunk (an unterminated name) is said as damage (exit 3),
#    and the records are read and named as without it.
#  - mkraw --tp-args adds a FUNC_ARGS chunk: the tracepoint's arguments
#    print by name and type in text and JSON ("args" kept), --perfetto
#    adds them by name to the instants' args, a copy keeps them, and
#    without the chunk (--tp) nothing but the names changes.
set -u
cat_bin=$(realpath "$1")
mkraw=$(realpath "$2")
exporter=${3:+$(realpath "$3")}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=user/tests/preamble.sh
. "$here/preamble.sh"

tp=$tmp/tp.raw
old=$tmp/tp-old.raw
for f in tp tp-old; do
	if ! "$mkraw" --$f "$tmp/$f.raw" ||
		! "$mkraw" --ksyms "$tmp/$f.raw" "$here/data/graph.kallsyms"; then
		not_ok "mkraw --$f"
		tap_end
	fi
done

# The tracepoint's two records and touch_atime's two, in text.
# named FILE NAME: FILE's text has 2 lines of NAME's records (a
# tracepoint's hit "tp: name=SUBSYS:EVENT", a call "func: name=NAME ret=").
named() {
	case $2 in
	tp:*) [[ $(grep -cE "tp: name=${2#tp:}( |\$)" "$1") -eq 2 ]] ;;
	*) [[ $(grep -c "func: name=$2 ret=" "$1") -eq 2 ]] ;;
	esac
}

"$cat_bin" -q -i "$tp" > "$tmp/tp.txt" 2> "$tmp/tp.err"
if named "$tmp/tp.txt" 'tp:sched:sched_switch' &&
	named "$tmp/tp.txt" touch_atime && ! [[ -s $tmp/tp.err ]]; then
	ok "text names the tracepoint's records from the FUNC_NAMES chunk"
else
	not_ok "text: $(cat "$tmp/tp.txt" "$tmp/tp.err")"
fi

# jsonfuncs FILE: the func records' "func" names, one a line ("-": none).
jsonfuncs() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "func":
        print(r.get("func", "-"), r["func_ip"])
' "$1"
}

"$cat_bin" -q -i "$tp" --json > "$tmp/tp.json" 2> "$tmp/tp.err"
if [[ $(jsonfuncs "$tmp/tp.json") == "touch_atime 0xffffffff81330004
tp:sched:sched_switch 0xffffffff82a3c5c0
touch_atime 0xffffffff81330004
tp:sched:sched_switch 0xffffffff82a3c5c0" ]]; then
	ok "JSON names the tracepoint's records from the FUNC_NAMES chunk, func_ip kept"
else
	not_ok "JSON: $(jsonfuncs "$tmp/tp.json") $(cat "$tmp/tp.err")"
fi

"$cat_bin" -q -i "$tp" --no-symbols > "$tmp/nosym.txt" 2>&1
if named "$tmp/nosym.txt" 'tp:sched:sched_switch' &&
	named "$tmp/nosym.txt" touch_atime; then
	ok "--no-symbols: func records still named from the chunk, as live"
else
	not_ok "--no-symbols: $(cat "$tmp/nosym.txt")"
fi

if "$cat_bin" -i "$tp" --header | grep -qx 'functions:      touch_atime tp:sched:sched_switch' &&
	! "$cat_bin" -i "$old" --header | grep -q '^functions:'; then
	ok "--header lists the traced names, only when the file has them"
else
	not_ok "--header: $("$cat_bin" -i "$tp" --header 2>&1 | tail -2)"
fi

# A copy keeps the chunk: the copy is named the same.
if "$cat_bin" -q -i "$tp" --raw -o "$tmp/copy.raw" &&
	"$cat_bin" -q -i "$tmp/copy.raw" > "$tmp/copy.txt" 2>&1 &&
	named "$tmp/copy.txt" 'tp:sched:sched_switch' &&
	cmp -s "$tmp/tp.txt" "$tmp/copy.txt"; then
	ok "-i F --raw -o G copies the FUNC_NAMES chunk: G replays the same"
else
	not_ok "copy: $(cat "$tmp/copy.txt")"
fi

# The exporter's replay labels each function's calls by the same names.
if [[ -n $exporter ]]; then
	if "$exporter" -q -i "$tp" --listen none --textfile "$tmp/tp.prom" &&
		grep -q 'function="tp:sched:sched_switch"' "$tmp/tp.prom" &&
		grep -q 'function="touch_atime"' "$tmp/tp.prom"; then
		ok "ringtrace-exporter's replay names the tracepoint's calls from the chunk"
	else
		not_ok "exporter: $(grep "function=" "$tmp/tp.prom" | head -3)"
	fi
fi

# An older recording (no chunk): named from its symbols, as before.
"$cat_bin" -q -i "$old" > "$tmp/old.txt" 2> "$tmp/old.err"
code=$?
if [[ $code -eq 0 ]] && named "$tmp/old.txt" touch_atime &&
	named "$tmp/old.txt" 0xffffffff82a3c5c0 &&
	! grep -q 'tp:sched' "$tmp/old.txt" && ! [[ -s $tmp/old.err ]]; then
	ok "a recording without the chunk replays as before (symbols' names, else hex)"
else
	not_ok "old recording: exit $code $(cat "$tmp/old.txt" "$tmp/old.err")"
fi

# Damage: name 1's 64 bytes all non-NUL. The chunk follows the 744-byte
# header (after its 16-byte chunk header); name 1 is its second.
cp "$tp" "$tmp/bad.raw"
printf '%064d' 0 | dd of="$tmp/bad.raw" bs=1 seek=$((744 + 16 + 64)) conv=notrunc status=none
"$cat_bin" -q -i "$tmp/bad.raw" > "$tmp/bad.txt" 2> "$tmp/bad.err"
code=$?
if [[ $code -eq 3 ]] &&
	grep -q 'corrupt raw file .*: function names chunk at offset 744: name 1 is not NUL-terminated; skipped 144 bytes, read on from the chunk at offset 888' "$tmp/bad.err" &&
	cmp -s "$tmp/old.txt" "$tmp/bad.txt"; then
	ok "a damaged FUNC_NAMES chunk is said (exit 3); records named as without it"
else
	not_ok "damaged chunk: exit $code $(cat "$tmp/bad.err" "$tmp/bad.txt")"
fi

# The arguments' names and types (FUNC_ARGS): a u8 cut from 0x100, two
# pointers, a u32 cut from 0xffffffff00000402; the fifth register is no
# argument of sched_switch.
args=$tmp/tp-args.raw
"$mkraw" --tp-args "$args" && "$mkraw" --ksyms "$args" "$here/data/graph.kallsyms"
want='tp: name=sched:sched_switch args=preempt=0,prev=0xffff888006ff6500,next=0xffff888006ff7a00,prev_state=1026'
"$cat_bin" -q -i "$args" > "$tmp/args.txt" 2> "$tmp/args.err"
if [[ $(grep -c -- "$want\$" "$tmp/args.txt") -eq 2 ]] &&
	named "$tmp/args.txt" touch_atime && ! [[ -s $tmp/args.err ]]; then
	ok "FUNC_ARGS: the tracepoint's arguments print by name and type"
else
	not_ok "FUNC_ARGS text: $(cat "$tmp/args.txt" "$tmp/args.err")"
fi

"$cat_bin" -q -i "$args" --json > "$tmp/args.json" 2> "$tmp/args.err"
if python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("func") == "tp:sched:sched_switch":
        assert r["args"] == ["0x100", "0xffff888006ff6500",
                             "0xffff888006ff7a00", "0xffffffff00000402",
                             "0xdead"], r
        assert r["named_args"] == {"preempt": 0,
                                   "prev": "0xffff888006ff6500",
                                   "next": "0xffff888006ff7a00",
                                   "prev_state": 1026}, r
        n += 1
    elif r.get("type") == "func":
        assert "named_args" not in r, r
sys.exit(n != 2)' "$tmp/args.json"; then
	ok "FUNC_ARGS: JSON keeps \"args\" and adds \"named_args\""
else
	not_ok "FUNC_ARGS JSON: $(head -3 "$tmp/args.json")"
fi

# --perfetto: the tracepoint's instants keep "args" (the registers) and
# add the arguments by name beside it, the values named_args has.
if "$cat_bin" -q -i "$args" --perfetto "$tmp/args.trace.json" 2> "$tmp/args.err" &&
	python3 -c '
import json, sys
n = 0
for e in json.load(open(sys.argv[1])):
    a = e.get("args", {})
    if e.get("name") == "tp:sched:sched_switch":
        assert a["args"] == ["0x100", "0xffff888006ff6500",
                             "0xffff888006ff7a00", "0xffffffff00000402",
                             "0xdead"], e
        assert (a["preempt"], a["prev"], a["next"], a["prev_state"]) == \
            (0, "0xffff888006ff6500", "0xffff888006ff7a00", 1026), e
        n += 1
    elif e.get("name") == "touch_atime":
        assert set(a) == {"ret", "cpu"}, e
sys.exit(n != 2)' "$tmp/args.trace.json"; then
	ok "FUNC_ARGS: --perfetto adds the arguments by name beside \"args\""
else
	not_ok "FUNC_ARGS --perfetto: $(head -c 600 "$tmp/args.trace.json") $(cat "$tmp/args.err")"
fi

if "$cat_bin" -q -i "$args" --raw -o "$tmp/args-copy.raw" &&
	"$cat_bin" -q -i "$tmp/args-copy.raw" > "$tmp/args-copy.txt" 2>&1 &&
	cmp -s "$tmp/args.txt" "$tmp/args-copy.txt"; then
	ok "-i F --raw -o G copies the FUNC_ARGS chunk: G prints the same"
else
	not_ok "FUNC_ARGS copy: $(cat "$tmp/args-copy.txt")"
fi

tap_end
