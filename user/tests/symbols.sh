#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/symbols.sh RINGTRACE_CAT MKRAW: what perf users reach for, on
# a VM recording with stacks, samples and offcpu (data/vm-syms.raw, and
# the kallsyms lines of its boot: data/record-vm-syms says how):
#  - kernel frames named sym+0xoff (and [module]) in text and JSON on
#    replay with --kallsyms; JSON keeps the addresses and adds *_sym;
#    --no-symbols keeps hex; an unusable --kallsyms fails;
#  - --report / --report-by: self and children as the folded stacks
#    imply (tests/check_views.py report), by sym, comm and dso, weighted
#    by samples, vfs_read latency and time off CPU; the text table by
#    comm byte for byte (golden/vm_syms_report_comm.txt);
#  - the KSYMS chunk (mkraw --ksyms appends it as ringtrace-cat --raw
#    does when it ends): replay names kernel frames without --kallsyms
#    exactly as with it, --header counts them, -i F --raw -o G keeps them,
#    a cut chunk names what it holds (nothing wrongly) and says where it
#    stopped, --kallsyms overrides it;
#  - a --kallsyms FILE of another architecture or boot names nothing
#    wrongly and is warned about (the machine, _text, the symbols moved,
#    or frames in no function).
# User frames are named only where this machine's binaries are the
# recorded ones (build-ids): that is tests/test_frame_names.c's and the VM
# selftest's, not asserted here.
set -u
cat_bin=$(realpath "$1")
mkraw=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=user/tests/preamble.sh
. "$here/preamble.sh"
golden=$here/golden
# shellcheck source=user/tests/golden.sh
. "$here/golden.sh"

raw=$here/data/vm-syms.raw
ks=$here/data/vm-syms.kallsyms
rc() { "$cat_bin" -q -i "$raw" "$@"; }

# check NAME COMMAND...: ok when COMMAND succeeds.
check() {
	local name=$1
	shift
	if "$@" > "$tmp/c" 2>&1; then
		ok "$name"
	else
		not_ok "$name: $(tail -3 "$tmp/c")"
	fi
}

rc --kallsyms "$ks" > "$tmp/text" 2> "$tmp/err" || not_ok "text: $(cat "$tmp/err")"
rc --kallsyms "$ks" --json > "$tmp/json" || not_ok "json"
rc --no-symbols --json > "$tmp/hex.json" || not_ok "json --no-symbols"
rc --no-symbols > "$tmp/hex.text" || not_ok "text --no-symbols"
# Both at once would ignore one of them: refused.
if ! rc --no-symbols --kallsyms "$ks" > /dev/null 2> "$tmp/err" &&
	grep -q -- '--kallsyms names kernel frames and --no-symbols keeps every frame hex' "$tmp/err"; then
	ok "--no-symbols --kallsyms is refused"
else
	not_ok "--no-symbols --kallsyms: $(cat "$tmp/err")"
fi

# Text: every kernel frame named, none left hex (the file holds the lines).
# shellcheck disable=SC2317  # called through check
text_named() {
	local lines
	lines=$(grep -c 'kstack=' "$tmp/text")
	[[ $lines -gt 100 ]] || { echo "$lines lines with kstack"; return 1; }
	! grep -Eo 'kstack=[^ ]*' "$tmp/text" | grep -q '0xffff' &&
		grep -q 'vfs_read: .* kstack=ksys_read+0x6b,do_syscall_64+0x5d,entry_SYSCALL_64_after_hwframe+0x6e ' "$tmp/text" &&
		grep -q 'sample: event=cpu-clock ip=0xffffffff[0-9a-f]* sym=[a-z_]' "$tmp/text" &&
		grep -q 'callchain=.*p9_client_rpc+0x[0-9a-f]*\[9pnet\]' "$tmp/text" &&
		grep -q 'offcpu: state=.* kstack=__schedule+0x' "$tmp/text"
}
check "text names kernel frames sym+0xoff (modules [mod]) on replay with --kallsyms" text_named

# shellcheck disable=SC2317  # called through check
json_named() {
	python3 - "$tmp/json" "$tmp/hex.json" <<'PY'
import json, sys
named = [json.loads(x) for x in open(sys.argv[1])]
hexed = [json.loads(x) for x in open(sys.argv[2])]
assert len(named) == len(hexed), (len(named), len(hexed))
kframes = 0
for a, b in zip(named, hexed):
    for key in ('kstack', 'ustack', 'callchain'):
        if key in a:
            names = a.get(key + '_sym')
            if names is not None:
                assert len(names) == len(a[key]), a
    if 'kstack' in a:
        assert all(s is not None and '+0x' in s for s in a['kstack_sym']), a
        kframes += len(a['kstack'])
    if a['type'] == 'sample' and int(a['ip'], 16) >= 1 << 63:
        assert '+0x' in a['sym'], a
    # The addresses and every other key as without names.
    stripped = {k: v for k, v in a.items() if k != 'sym' and not k.endswith('_sym')}
    assert stripped == b, (stripped, b)
assert kframes > 300, kframes
print('%d records, %d kernel frames named' % (len(named), kframes))
PY
}
check "JSON adds kstack_sym/callchain_sym beside unchanged addresses" json_named

# shellcheck disable=SC2317  # called through check
hex_kept() {
	! grep -q '_sym"' "$tmp/hex.json" && grep -q 'kstack=0xffffffff' "$tmp/hex.text" &&
		! grep -q 'sym=' "$tmp/hex.text"
}
check "--no-symbols keeps every frame hex" hex_kept

# Without --kallsyms, replay's kernel frames stay hex, and it says how to name them.
"$cat_bin" -i "$raw" > "$tmp/nok" 2> "$tmp/nok.err"
if grep -q 'kstack=0xffffffff' "$tmp/nok" && grep -q 'give the recording machine.s symbols with --kallsyms FILE' "$tmp/nok.err"; then
	ok "replay without --kallsyms: kernel frames hex, and a hint"
else
	not_ok "replay without --kallsyms: $(head -c 300 "$tmp/nok.err")"
fi
printf 'root:x:0:0:root:/root:/bin/bash\n' > "$tmp/passwd"
"$cat_bin" -i "$raw" --kallsyms "$tmp/passwd" > "$tmp/out" 2> "$tmp/err"
st=$?
if [[ $st -eq 1 ]] && grep -q -- "--kallsyms: $tmp/passwd holds no kernel symbols" "$tmp/err" &&
	[[ ! -s $tmp/out ]]; then
	ok "the stream with a --kallsyms that is no kallsyms copy fails first, naming it"
else
	not_ok "--kallsyms passwd with the stream: exit $st, $(cat "$tmp/err")"
fi

# --report: as the folded output implies, by every key and weight.
# shellcheck disable=SC2317  # called through check
report_check() {
	local by=$1
	shift
	rc --kallsyms "$ks" -v --report-by "$by" --json "$@" > "$tmp/r.json" 2> /dev/null &&
		rc --kallsyms "$ks" --folded "$@" > "$tmp/f.txt" &&
		python3 "$here/check_views.py" report "$tmp/r.json" "$tmp/f.txt"
}
for by in sym comm dso; do
	check "--report-by $by (samples) sums as --folded implies" report_check "$by"
done
check "--report (vfs_read latency) sums as --folded implies" report_check sym --flame-weight latency
check "--report (time off CPU) sums as --folded implies" report_check sym --flame-weight offcpu
rc --report-by comm > "$tmp/vm_syms_report_comm.txt" 2>&1 || not_ok "--report-by comm"
golden_compare vm_syms_report_comm
# shellcheck disable=SC2317  # called through check
report_text() {
	rc --kallsyms "$ks" --report > "$tmp/r.txt" &&
		grep -q '^# 197 samples in [0-9]* stacks, by sym$' "$tmp/r.txt" &&
		grep -Eq '^ +[0-9.]+% +[0-9.]+% +[0-9]+ +[0-9]+  finish_task_switch' "$tmp/r.txt" &&
		rc --kallsyms "$ks" --report-by dso | grep -q ' \[9pnet\]$'
}
check "--report's text table names symbols and modules" report_text
if rc --kallsyms "$ks" --report --json --hist > "$tmp/both.json" &&
	python3 -c 'import json, sys; b = [json.loads(l) for l in open(sys.argv[1])]; assert len(b) == 2 and "hist" in b[0] and b[1]["report"] == "sym", b' "$tmp/both.json"; then
	ok "--report --json --hist: the histograms' JSON block, then the report's"
else
	not_ok "--report --json --hist: $(head -c 300 "$tmp/both.json")"
fi
"$cat_bin" -q -i "$raw" --json --flamegraph "$tmp/j.svg" > /dev/null 2> "$tmp/err"
if [[ $? -eq 2 ]] && grep -q -- '--flamegraph, --perfetto and --ctf write files of their own' "$tmp/err"; then
	ok "--json with only a view that writes its own file is refused"
else
	not_ok "--json --flamegraph: $(cat "$tmp/err")"
fi
if rc --kallsyms "$ks" --report-by comm --summary > "$tmp/both" &&
	grep -q '^# 197 samples in [0-9]* stacks, by comm$' "$tmp/both"; then
	ok "--report with another view prints both"
else
	not_ok "--report --summary: $(head -5 "$tmp/both")"
fi
"$cat_bin" -q -i "$raw" --report-by file > /dev/null 2> "$tmp/err"
if [[ $? -eq 2 ]] && grep -q "not sym, comm or dso" "$tmp/err"; then
	ok "--report-by an unknown key is refused"
else
	not_ok "--report-by file: $(cat "$tmp/err")"
fi

# The KSYMS chunk: the symbols of the recorded kernel frames, in the file.
cp "$raw" "$tmp/ks.raw"
"$mkraw" --ksyms "$tmp/ks.raw" "$ks" || not_ok "mkraw --ksyms"
rc --kallsyms "$ks" > "$tmp/ks.text"
# shellcheck disable=SC2317  # called through check
ksyms_named() {
	"$cat_bin" -q -i "$tmp/ks.raw" > "$tmp/own.text" &&
		"$cat_bin" -q -i "$tmp/ks.raw" --json > "$tmp/own.json" &&
		cmp "$tmp/own.text" "$tmp/ks.text" && cmp "$tmp/own.json" "$tmp/json" &&
		grep -q 'kstack=ksys_read+0x6b,' "$tmp/own.text" &&
		"$cat_bin" -i "$tmp/ks.raw" --header | grep -q '^kernel symbols: 193 stored (of 6.1.0-57-amd64)$' &&
		"$cat_bin" -i "$raw" --header | grep -q '^kernel symbols: none stored$'
}
check "KSYMS chunk: replay without --kallsyms names frames exactly as with it" ksyms_named
# shellcheck disable=SC2317  # called through check
ksyms_small() {
	local added=$(($(stat -c %s "$tmp/ks.raw") - $(stat -c %s "$raw")))
	# Only the frames' symbols: fewer than the 13 KB kallsyms excerpt.
	[[ $added -gt 0 && $added -lt 10000 ]] || { echo "$added bytes"; return 1; }
}
check "KSYMS chunk holds only the symbols the frames fall in" ksyms_small
# shellcheck disable=SC2317  # called through check
ksyms_rewrite() {
	"$cat_bin" -q -i "$tmp/ks.raw" --raw -o "$tmp/copy.raw" &&
		"$cat_bin" -q -i "$tmp/copy.raw" | cmp - "$tmp/ks.text" &&
		"$cat_bin" -q -i "$tmp/ks.raw" --filter 'comm == "tar"' --raw -o "$tmp/tar.raw" &&
		"$cat_bin" -q -i "$tmp/tar.raw" | grep -q 'kstack=ksys_read+0x6b,'
}
check "-i F --raw -o G carries the KSYMS chunk over" ksyms_rewrite
# A --kallsyms FILE overrides the chunk: a one-line file (ksys_read's
# line, renamed) names the frames in that one function, and no other
# frame: those stay hex, never named after it.
sed -n 's/ ksys_read$/ one_symbol/p' "$ks" > "$tmp/one.ks"
# shellcheck disable=SC2317  # called through check
ksyms_override() {
	"$cat_bin" -q -i "$tmp/ks.raw" --kallsyms "$tmp/one.ks" > "$tmp/one.text" 2>/dev/null &&
		grep -q 'kstack=[^ ]*one_symbol+0x' "$tmp/one.text" &&
		! grep -q 'ksys_read' "$tmp/one.text" &&
		! grep -Eq 'one_symbol\+0x[0-9a-f]{4}' "$tmp/one.text" &&
		grep -q 'kstack=0xffffffff' "$tmp/one.text"
}
check "--kallsyms FILE overrides the KSYMS chunk" ksyms_override
# Cut inside the chunk: entries before the cut name their frames, the
# others stay hex (never named after a wrong symbol), and it says where.
chunk_at=$(stat -c %s "$raw")
head -c $((chunk_at + 16 + 72 + 24 * 40 + 500)) "$tmp/ks.raw" > "$tmp/cut.raw"
"$cat_bin" -q -i "$tmp/cut.raw" > "$tmp/cut.text" 2> "$tmp/cut.err"
st=$?
# shellcheck disable=SC2317  # called through check
ksyms_cut() {
	[[ $st -eq 3 ]] || { echo "exit $st"; return 1; }
	grep -q "corrupt raw file $tmp/cut.raw: kernel symbols chunk at offset $chunk_at: entry 32 of 193 at offset [0-9]*: cut; the 31 before it were read" "$tmp/cut.err" &&
		[[ $(wc -l < "$tmp/cut.text") -eq $(wc -l < "$tmp/ks.text") ]] &&
		grep -Eo '[a-z_][a-z_0-9.]*\+0x[0-9a-f]+(\[[a-z0-9_]+\])?' "$tmp/cut.text" | sort -u > "$tmp/cut.names" &&
		grep -Eo '[a-z_][a-z_0-9.]*\+0x[0-9a-f]+(\[[a-z0-9_]+\])?' "$tmp/ks.text" | sort -u > "$tmp/ks.names" &&
		[[ -s $tmp/cut.names ]] && ! comm -23 "$tmp/cut.names" "$tmp/ks.names" | grep -q . &&
		grep -q 'kstack=0xffffffff' "$tmp/cut.text" &&
		grep -q "truncated raw file $tmp/cut.raw: .*; it holds kernel symbols, not records$" "$tmp/cut.err" &&
		! grep -q 'partial record' "$tmp/cut.err"
}
check "a cut KSYMS chunk names what it holds and says where it stopped" ksyms_cut

# A --kallsyms FILE that is not the recording's: its frames are never
# named after a symbol they are not in, and it is said, -q or not.
# Another architecture's (the arm64 VM's symbols for this x86-64
# recording; the file records no machine: its frames say it).
# shellcheck disable=SC2317  # called through check
ksyms_other_arch() {
	rc --kallsyms "$here/data/vm-arm64.kallsyms" > "$tmp/oa.text" 2> "$tmp/oa.err"
	awk '{ print $3 "+0x" }' "$here/data/vm-arm64.kallsyms" > "$tmp/oa.names"
	! grep -Fq -f "$tmp/oa.names" "$tmp/oa.text" && grep -q 'kstack=0xffffffff' "$tmp/oa.text" &&
		grep -q "warning: --kallsyms $here/data/vm-arm64.kallsyms names no function for [0-9]* of the [0-9]* kernel addresses" "$tmp/oa.err"
}
check "--kallsyms of another architecture: frames hex, and a warning" ksyms_other_arch
# The recording says its machine (vm-arm64.raw): that is checked first.
# shellcheck disable=SC2317  # called through check
ksyms_machine() {
	"$cat_bin" -q -i "$here/data/vm-arm64.raw" --kallsyms "$ks" --folded > /dev/null 2> "$tmp/om.err"
	grep -q "warning: --kallsyms $ks is an x86_64 kernel's, the recording is of aarch64" "$tmp/om.err"
}
check "--kallsyms of x86-64 for an arm64 recording: a warning naming both" ksyms_machine
# Another boot: the same kernel's symbols, KASLR 2 MiB further. The KSYMS
# chunk keeps _text and the frames' symbols, which say where they were.
{ echo 'ffffffff81000000 T _text'; cat "$ks"; } > "$tmp/text.ks"
cp "$raw" "$tmp/kt.raw"
"$mkraw" --ksyms "$tmp/kt.raw" "$tmp/text.ks" || not_ok "mkraw --ksyms with _text"
python3 -c '
import sys
for line in open(sys.argv[1]):
    addr, rest = line.split(" ", 1)
    sys.stdout.write("%016x %s" % (int(addr, 16) + 0x200000, rest))
' "$tmp/text.ks" > "$tmp/moved.ks"
# shellcheck disable=SC2317  # called through check
ksyms_other_boot() {
	"$cat_bin" -q -i "$tmp/kt.raw" --kallsyms "$tmp/moved.ks" > /dev/null 2> "$tmp/ob.err"
	grep -q "warning: --kallsyms $tmp/moved.ks is not of the recording's boot: _text is at 0xffffffff81200000 in it, at 0xffffffff81000000 in the recording" "$tmp/ob.err"
}
check "--kallsyms of another boot: _text moved, said" ksyms_other_boot
sed '/ _text$/d' "$tmp/moved.ks" > "$tmp/moved-no-text.ks"
# shellcheck disable=SC2317  # called through check
ksyms_moved() {
	"$cat_bin" -q -i "$tmp/kt.raw" --kallsyms "$tmp/moved-no-text.ks" --folded > /dev/null 2> "$tmp/mv.err"
	grep -q "warning: --kallsyms $tmp/moved-no-text.ks does not match the recording: [0-9]* of the [0-9]* symbols its frames fall in are not where it puts them" "$tmp/mv.err"
}
check "--kallsyms without _text whose symbols moved: said" ksyms_moved
# shellcheck disable=SC2317  # called through check
ksyms_own() {
	"$cat_bin" -q -i "$tmp/kt.raw" --kallsyms "$tmp/text.ks" > /dev/null 2> "$tmp/own.err" &&
		"$cat_bin" -q -i "$tmp/kt.raw" --kallsyms "$tmp/text.ks" --folded > /dev/null 2>> "$tmp/own.err" &&
		! grep -q warning "$tmp/own.err"
}
check "the recording's own --kallsyms: no warning" ksyms_own

tap_end
