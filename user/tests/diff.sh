#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/diff.sh RINGTRACE_CAT MKRAW: ringtrace-cat --diff on deterministic
# inputs, as TAP. A golden pair of folded files (tests/golden/diff_*.folded)
# gives an exact three-column diff, normalised and not, and a differential
# SVG whose frames have the colours' signs of their change; two raw files
# of mkraw whose vfs_read records are the same compare as all grey, for
# every weight; --hist and --summary of two recordings match their golden
# output; two function-graph recordings (mkraw --graph) compare by callee
# chain (--graph vfs_read: folded, SVG, the per-function table in text and
# JSON), each side equal to its own --graph --folded; options that do not
# apply are refused with the reason; the SVG's
# script shows the before/after hover line in Chromium.
set -u
cat_bin=$(realpath "$1")
mkraw=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=user/tests/preamble.sh
. "$here/preamble.sh"
golden=$here/golden
# shellcheck source=user/tests/golden.sh
. "$here/golden.sh"
check=$here/check_views.py
before=$golden/diff_before.folded
after=$golden/diff_after.folded

# golden NAME ARGS...: stdout of ringtrace-cat -q --diff ARGS is golden/NAME.txt
golden() {
	local name=$1
	shift
	# From $tmp: the file names the output quotes are the same every run.
	if ! (cd "$tmp" && "$cat_bin" -q --diff "$@") > "$tmp/$name.txt" 2> "$tmp/$name.err"; then
		not_ok "$name: exit status $? ($(head -c 300 "$tmp/$name.err"))"
		return
	fi
	golden_compare "$name"
}

# refused CODE MESSAGE-REGEX ARGS...: exit CODE, the reason on stderr.
refused() {
	local want=$1 msg=$2 got
	shift 2
	"$cat_bin" "$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	if [[ $got -eq $want ]] && grep -Eq -- "$msg" "$tmp/err"; then
		ok "refused: $* (exit $got)"
	else
		not_ok "$*: exit $got, expected $want and /$msg/: $(head -c 300 "$tmp/err")"
	fi
}

check() {
	local what=$1
	shift
	if "$@" > "$tmp/check" 2>&1; then
		ok "$what"
	else
		not_ok "$what: $(tail -c 300 "$tmp/check")"
	fi
}

if ! "$mkraw" "$tmp/t.raw" || ! "$mkraw" --v2 "$tmp/v2.raw"; then
	echo "not ok 1 - mkraw"
	exit 1
fi

# The golden folded pair: BEFORE 50, AFTER 100 (read 10 -> 40, write gone,
# idle new, compute 30 both).
golden diff_folded "$before" "$after" --folded
golden diff_folded_raw "$before" "$after" --folded --no-normalize
# Options may come before the files too.
golden diff_folded --folded "$before" --diff "$after"

# shellcheck disable=SC2317 # called through check
svg() {
	"$cat_bin" -q --diff "$before" "$after" --flamegraph "$tmp/$1.svg" "${@:5}" &&
		python3 "$check" diffsvg "$tmp/$1.svg" "$2" "$3" "$4"
}
# Normalised: BEFORE x2, so compute (60 -> 30) shrank and main too.
check "diff SVG normalised: AFTER's widths, signs per frame" \
	svg norm 100 100 'app=0,idle=+,main=-,compute=-,read=+'
check "diff SVG --no-normalize: raw counts, signs per frame" \
	svg raw 100 50 'app=+,idle=+,main=+,compute=0,read=+' --no-normalize
if ! grep -q '<title>write' "$tmp/norm.svg" &&
	grep -q 'data-b="100"><title>main (before 100, after 70 weight' "$tmp/norm.svg"; then
	ok "a stack only BEFORE had is not drawn but counts in its caller's BEFORE"
else
	not_ok "write drawn, or main's BEFORE without it"
fi

# The same vfs_read records (v2.raw adds samples and counters to t.raw):
# every frame grey, whatever the weight.
# shellcheck disable=SC2317 # called through check
same_reads() {
	"$cat_bin" -q --diff "$tmp/t.raw" "$tmp/v2.raw" --flame-weight "$1" \
		--flamegraph "$tmp/same-$1.svg" &&
		python3 "$check" diffsvg "$tmp/same-$1.svg" "$2" "$2" '*=0'
}
check "raw files with the same reads, by latency: every frame unchanged" \
	same_reads latency 2399500
check "raw files with the same reads, by bytes: every frame unchanged" \
	same_reads bytes 507904
# Samples: only v2.raw has them.
refused 2 'holds no samples' --diff "$tmp/t.raw" "$tmp/v2.raw" \
	--flamegraph "$tmp/x.svg" --flame-weight samples
# shellcheck disable=SC2317 # called through check
same_samples() {
	local total
	total=$(awk '{ s += $NF } END { print s }' "$golden/v2_folded.txt")
	"$cat_bin" -q --diff "$tmp/v2.raw" "$tmp/v2.raw" --flamegraph "$tmp/s.svg" &&
		grep -q "ringtrace differential flame graph (samples)" "$tmp/s.svg" &&
		python3 "$check" diffsvg "$tmp/s.svg" "$total" "$total" '*=0'
}
check "two files with samples: weighed by samples by default" same_samples

# Two recordings that differ: mkraw's and a VM's (tests/data).
ln -s "$here/data/vm-stacks.raw" "$tmp/vm.raw"
golden diff_hist t.raw vm.raw --hist
golden diff_summary t.raw vm.raw --summary -v
golden diff_folded_comm t.raw vm.raw --folded \
	--comm tar --no-normalize

# --folded and --flamegraph say the same totals: BEFORE's and AFTER's as
# read (the graph used to say the normalised 100 -> 100).
"$cat_bin" --diff "$before" "$after" --folded > /dev/null 2> "$tmp/f.err"
"$cat_bin" --diff "$before" "$after" --flamegraph "$tmp/t.svg" 2> "$tmp/g.err"
if grep -qx 'ringtrace-cat: 4 folded stacks: 50 -> 100 weight (BEFORE normalised to AFTER.s total)' "$tmp/f.err" &&
	grep -q 'stacks, [0-9]* frames: 50 -> 100 weight (BEFORE normalised to AFTER.s total)$' "$tmp/g.err"; then
	ok "--folded and --flamegraph say the same totals"
else
	not_ok "diff totals: $(cat "$tmp/f.err" "$tmp/g.err")"
fi
# Two runs read other pipes: --summary keys them by kind.
if (cd "$tmp" && "$cat_bin" -q --diff "$here/data/vm-stacks.raw" "$here/data/vm-syms.raw" --summary) |
	grep -Eq '^wc +27 +47 .* pipe:\[\*\]$'; then
	ok "--summary: a pipe in both runs is one row (pipe:[*])"
else
	not_ok "--summary pipes: $("$cat_bin" -q --diff "$here/data/vm-stacks.raw" "$here/data/vm-syms.raw" --summary | grep pipe)"
fi

# Two function-graph recordings (mkraw --graph: 10 reads of 4 KiB, then of
# 64 KiB, their functions' symbols appended as ringtrace-cat --raw does):
# the per-function table, text and JSON, and the folded pairs are golden.
for bytes in 4096 65536; do
	if ! "$mkraw" --graph $bytes "$tmp/g$bytes.raw" ||
		! "$mkraw" --ksyms "$tmp/g$bytes.raw" "$here/data/graph.kallsyms"; then
		not_ok "mkraw --graph $bytes"
	fi
done
golden diff_graph_summary g4096.raw g65536.raw --graph vfs_read --summary
golden diff_graph_json g4096.raw g65536.raw --graph vfs_read --summary --json
golden diff_graph_folded g4096.raw g65536.raw --graph vfs_read --folded \
	--no-normalize
golden diff_graph_depth g4096.raw g65536.raw --graph vfs_read --folded \
	--no-normalize --graph-depth 1
# Each column of the diff is its recording's own --graph --folded: the
# same stacks and weights, and the totals; the table's self times add up to
# them, its vfs_read total too. graph_totals BEFORE AFTER READS.
# shellcheck disable=SC2317 # called through check
graph_totals() {
	local a b
	a=$("$cat_bin" -q -i "$1" --graph vfs_read --folded) &&
	b=$("$cat_bin" -q -i "$2" --graph vfs_read --folded) &&
	"$cat_bin" -q --diff "$1" "$2" --graph vfs_read --folded --no-normalize \
		> "$tmp/gt.folded" &&
	"$cat_bin" -q --diff "$1" "$2" --graph vfs_read --summary --json \
		> "$tmp/gt.json" &&
	diff <(awk '$2 { print $1, $2 }' "$tmp/gt.folded") \
		<(echo "$a" | LC_ALL=C sort) &&
	diff <(awk '$3 { print $1, $3 }' "$tmp/gt.folded") \
		<(echo "$b" | LC_ALL=C sort) &&
	python3 - "$tmp/gt.json" "$3" \
		"$(awk '{ s += $NF } END { print s }' <<< "$a")" \
		"$(awk '{ s += $NF } END { print s }' <<< "$b")" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
reads, want = int(sys.argv[2]), [int(sys.argv[3]), int(sys.argv[4])]
for side in (0, 1):
    self = sum(f['self_ns'][side] for f in d['functions'])
    read = [f for f in d['functions'] if f['read']][0]
    assert self == want[side] == read['total_ns'][side], (side, self, want)
    assert read['calls'][side] == reads, read
for f in d['functions']:
    assert f['self_change_ns'] == f['self_ns'][1] - f['self_ns'][0], f
    assert f['total_change_ns'] == f['total_ns'][1] - f['total_ns'][0], f
PY
}
check "--graph: the diff's columns and the table's self times are each recording's --graph --folded" \
	graph_totals "$tmp/g4096.raw" "$tmp/g65536.raw" 10
# The same on two VM recordings (tests/data/record-vm-graph: dd's reads of
# 4 KiB, then 64 KiB; the dynamic loader's of libc too), and their table.
check "--graph on VM recordings: each column is its recording's --graph --folded" \
	graph_totals "$here/data/vm-graph-4k.raw" "$here/data/vm-graph-64k.raw" 21
ln -s "$here/data/vm-graph-4k.raw" "$here/data/vm-graph-64k.raw" "$tmp/"
golden diff_vm_graph_summary vm-graph-4k.raw vm-graph-64k.raw --graph vfs_read \
	--summary
# shellcheck disable=SC2317 # called through check
graph_svg() {
	"$cat_bin" -q --diff "$tmp/g4096.raw" "$tmp/g65536.raw" --graph vfs_read \
		--flamegraph "$tmp/graph.svg" --no-normalize &&
		grep -q 'ringtrace differential function graph of vfs_read (ns in vfs_read)' "$tmp/graph.svg" &&
		python3 "$check" diffsvg "$tmp/graph.svg" 182340 28740 \
			'filemap_read_[k]=+,copy_page_to_iter_[k]=+,rw_verify_area_[k]=0,touch_atime_[k]=0'
}
check "--graph --flamegraph: AFTER's tree, grown where 64 KiB reads spend more" graph_svg
# What each graph lacks is said, per file.
"$cat_bin" --diff "$tmp/g4096.raw" "$tmp/g65536.raw" --graph vfs_read --summary \
	> /dev/null 2> "$tmp/graph.err"
if grep -qx "ringtrace-cat: $tmp/g4096.raw: graph: 10 reads, 50 spans shown, 1 outside a read (dropped)" "$tmp/graph.err" &&
	grep -qx "ringtrace-cat: $tmp/g65536.raw: missing: 3 func calls missed by the probe (no record)" "$tmp/graph.err"; then
	ok "--graph: each recording's spans outside a read and missed calls are said"
else
	not_ok "--graph notes: $(cat "$tmp/graph.err")"
fi
# A recording whose session held its calls until their reads returned
# (--min-latency, a module that offers it) ends with a FUNC_FAST_READ
# chunk: its replay's last line says how many calls of faster reads were
# left out (not as missing), text and JSON, as the live run did, and so
# does the replay of its -i F --raw -o G copy. A recording without the
# chunk says nothing of them.
# shellcheck disable=SC2317 # called through check
fast_read() {
	local line="graph: 10 reads, 50 spans shown, 1 outside a read (dropped), 40 calls of faster reads left out (--min-latency)"
	cp "$tmp/g4096.raw" "$tmp/held.raw" &&
	"$mkraw" --fast-read 40 "$tmp/held.raw" &&
	"$cat_bin" -q -i "$tmp/held.raw" --graph vfs_read > "$tmp/held.txt" &&
	[[ $(grep '^graph: ' "$tmp/held.txt") == "$line" ]] &&
	"$cat_bin" -q -i "$tmp/held.raw" --graph vfs_read --json > "$tmp/held.json" &&
	tail -n 1 "$tmp/held.json" | grep -q '"outside":1,"fast_read_calls":40,' &&
	! grep -q 'fast_read' <(tail -n 1 "$tmp/held.json" | grep -o '"missing":{[^}]*}') &&
	"$cat_bin" -q -i "$tmp/held.raw" --raw -o "$tmp/held-copy.raw" &&
	"$cat_bin" -q -i "$tmp/held-copy.raw" --graph vfs_read > "$tmp/copy.txt" &&
	[[ $(grep '^graph: ' "$tmp/copy.txt") == "$line" ]] &&
	"$cat_bin" -q -i "$tmp/g4096.raw" --graph vfs_read --json > "$tmp/plain.json" &&
	! grep -q 'fast_read\|faster reads' "$tmp/plain.json" <(
		"$cat_bin" -q -i "$tmp/g4096.raw" --graph vfs_read)
}
check "--graph: a recording's calls of faster reads, left out by --min-latency, said on replay and kept by a copy" \
	fast_read
refused 2 'not with --graph' --diff "$tmp/g4096.raw" "$tmp/g65536.raw" \
	--graph vfs_read --hist
refused 2 '--flame-weight latency, or none' --diff "$tmp/g4096.raw" \
	"$tmp/g65536.raw" --graph vfs_read --folded --flame-weight bytes
refused 2 "only vfs_read's callees" --diff "$tmp/g4096.raw" "$tmp/g65536.raw" \
	--graph filemap_read --folded
refused 2 '--graph reads recordings' --diff "$before" "$after" --graph vfs_read \
	--folded
refused 2 'holds no func .callee. records' --diff "$tmp/g4096.raw" "$tmp/t.raw" \
	--graph vfs_read --summary
refused 2 '--graph-depth shapes --graph vfs_read' --diff "$tmp/t.raw" \
	"$tmp/t.raw" --folded --graph-depth 2
refused 2 "only --graph's --summary has a JSON form" --diff "$tmp/g4096.raw" \
	"$tmp/g65536.raw" --graph vfs_read --folded --json
refused 2 "--no-normalize applies to the stacks .*--graph's --summary" \
	--diff "$tmp/g4096.raw" "$tmp/g65536.raw" --graph vfs_read --summary \
	--no-normalize

# What does not apply is refused, with the reason.
refused 2 "--json: only --graph vfs_read's --summary has a JSON form" --diff "$before" "$after" --folded --json
refused 2 '-p does not apply to --diff' --diff "$before" "$after" --folded -p 1
refused 2 'unknown option --colour' --diff "$before" "$after" --folded --colour
refused 2 'compares two files' --diff "$before" --folded
refused 2 'needs a view' --diff "$before" "$after"
refused 2 'not with --hist' --diff "$tmp/t.raw" "$tmp/t.raw" --folded --hist
refused 2 '--hist reads recordings' --diff "$before" "$after" --hist
refused 2 '--flame-weight reads recordings' --diff "$before" "$after" --folded \
	--flame-weight bytes
refused 2 'files of one kind' --diff "$before" "$tmp/t.raw" --folded
refused 2 "is not a weight" --diff "$tmp/t.raw" "$tmp/t.raw" --folded \
	--flame-weight colour
refused 3 'neither a ringtrace raw file nor folded stacks' --diff "$before" \
	"$here/views.sh" --folded
# Options that would do nothing are refused, never ignored.
refused 2 '--no-normalize applies to the stacks of --flamegraph and --folded' \
	--diff "$tmp/t.raw" "$tmp/t.raw" --hist --no-normalize
refused 2 '--flame-weight applies to the stacks' --diff "$tmp/t.raw" \
	"$tmp/t.raw" --summary --flame-weight bytes
refused 2 'nothing would be written there: --flamegraph names its own file' --diff "$tmp/t.raw" \
	"$tmp/t.raw" --flamegraph "$tmp/o.svg" -o "$tmp/out.txt"
cp "$after" "$tmp/a.folded"
refused 1 'is the input' --diff "$before" "$tmp/a.folded" --flamegraph "$tmp/a.folded"
if cmp -s "$after" "$tmp/a.folded"; then ok "AFTER left intact"; else not_ok "AFTER overwritten"; fi

# The script in a real browser: hovering a frame puts its before/after line
# in the status bar. Not again under the sanitizers (BROWSER_TESTS empty):
# what it tests is the browser's reading. install-deps installs chromium, so
# a missing one fails.
if [[ -n ${BROWSER_TESTS-1} ]] && command -v chromium > /dev/null; then
	sed 's|</svg>|<script type="text/ecmascript"><![CDATA[\
window.addEventListener("load", function () { setTimeout(function () {\
  frames.filter(function (f) { return f.name === "read"; })[0].g.onmouseover();\
  }, 50); });\
]]></script></svg>|' "$tmp/norm.svg" > "$tmp/js.svg"
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--virtual-time-budget=2000 --dump-dom "file://$tmp/js.svg" \
		> "$tmp/dom" 2> /dev/null
	if grep -q 'id="status"[^>]*>read (before 20, after 40 weight; 20.00% -&gt; 40.00% of all; change +20, +100.00%)<' "$tmp/dom"; then
		ok "diff SVG script: the hover line gives before, after and the change in Chromium"
	else
		not_ok "diff SVG hover in Chromium: $(grep -E 'id="status"' "$tmp/dom" | head -c 300)"
	fi
elif [[ -n ${BROWSER_TESTS-1} ]]; then
	not_ok "diff SVG script in a browser: chromium is not installed (scripts/install-deps installs it)"
fi

tap_end
