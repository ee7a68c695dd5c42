#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/browser.sh RINGTRACE_CAT MKRAW: ringtrace-cat's outputs in a real
# browser (Debian's chromium, driven by puppeteer-core: scripts/browser/),
# as TAP. Both come from scripts/install-deps; without them every test
# here fails (never skips): make check runs install-deps first.
#   - the --flamegraph SVG, used with the mouse: hovering a frame shows its
#     share, clicking it zooms it to the full width, Search highlights the
#     matching frames and prints their share;
#   - speedscope (npm, pinned) opens the --folded stacks and the
#     --perfetto trace events of a VM recording (data/vm-outputs.raw), and
#     the totals it shows equal ringtrace's: samples per frame (Sandwich
#     view), slices and their total duration per thread (vfs_read; lock
#     waits and holds from mkraw's file);
#   - a file speedscope cannot read ends with its alert's text, not a hang.
# RINGTRACE_SCREENSHOTS=DIR keeps the screenshots (flamegraph.png,
# speedscope-folded.png, speedscope-trace.png, speedscope-locks.png).
set -u
cat_bin=$(realpath "$1")
mkraw=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=user/tests/preamble.sh
. "$here/preamble.sh"
browser=$(cd "$here/../../scripts/browser" && pwd)
shots=${RINGTRACE_SCREENSHOTS:-$tmp}
mkdir -p "$shots"
export NODE_PATH=${RINGTRACE_CACHE:-/var/cache/ringtrace}/browser/node_modules

missing=
command -v chromium > /dev/null || missing+=" chromium"
command -v node > /dev/null || missing+=" node"
[[ -d $NODE_PATH/puppeteer-core && -d $NODE_PATH/speedscope ]] ||
	missing+=" $NODE_PATH/{puppeteer-core,speedscope}"
if [[ -n $missing ]]; then
	not_ok "browser tests: missing$missing (run scripts/install-deps)"
	echo "1..$n"
	exit 1
fi

"$mkraw" "$tmp/t.raw" || { echo "not ok 1 - mkraw"; exit 1; }

# The flame graph weighted by latency: tar read for 880000 of 2399500 ns
# (36.67%), all of it under 0x400500 (tests/tools/mkraw).
"$cat_bin" -q -i "$tmp/t.raw" --flamegraph "$tmp/lat.svg"
if timeout 120 node "$browser/flamegraph.js" "$tmp/lat.svg" tar '^0x4005' \
	"$shots/flamegraph.png" > "$tmp/fg.json" 2> "$tmp/fg.err"; then
	python3 - "$tmp/fg.json" > "$tmp/fg.out" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
checks = [
    ('hover shows the frame\'s share', r['hover'] == 'tar: 880000 ns in vfs_read (36.67%)'),
    ('click zooms it to the full width', r['zoomed'] == r['full'] == 1180),
    ('search prompts and highlights the matches',
     r['prompted'] == 1 and r['highlighted'] == ['0x400500']),
    ('search prints the matched share', r['matched'] == 'Matched: 36.67%'),
]
for what, good in checks:
    print(('ok' if good else 'not ok'), 'flame graph in chromium:', what,
          '' if good else json.dumps(r))
EOF
	while read -r line; do
		if [[ $line == ok* ]]; then ok "${line#ok }"; else not_ok "${line#not ok }"; fi
	done < "$tmp/fg.out"
else
	not_ok "flame graph in chromium: $(head -c 500 "$tmp/fg.err")"
fi

# speedscope NAME FILE CHECK REFERENCE: FILE through speedscope, then
# check_speedscope.py CHECK against REFERENCE.
speedscope() {
	local name=$1 file=$2 check=$3 ref=$4
	if timeout 120 node "$browser/speedscope.js" "$file" "$tmp/$name.json" \
		"$shots/speedscope-$name.png" > /dev/null 2> "$tmp/$name.err" &&
		python3 "$here/check_speedscope.py" "$check" "$tmp/$name.json" \
			"$ref" > "$tmp/$name.out" 2>&1; then
		ok "$(tail -1 "$tmp/$name.out" | sed 's/^ok - //')"
	else
		not_ok "speedscope $name: $(head -c 300 "$tmp/$name.err") $(tail -2 "$tmp/$name.out" 2> /dev/null)"
	fi
}

vm=$here/data/vm-outputs.raw
"$cat_bin" -q -i "$vm" --folded > "$tmp/vm.folded"
"$cat_bin" -q -i "$vm" --perfetto "$tmp/vm.trace.json"
"$cat_bin" -q -i "$vm" --json > "$tmp/vm.jsonl"
if [[ -s $tmp/vm.folded && -s $tmp/vm.trace.json ]]; then
	speedscope folded "$tmp/vm.folded" folded "$tmp/vm.folded"
	speedscope trace "$tmp/vm.trace.json" trace "$tmp/vm.jsonl"
else
	not_ok "--folded or --perfetto of $vm is empty"
fi
# mkraw's file has lock records: their wait and hold slices too.
"$cat_bin" -q -i "$tmp/t.raw" --perfetto "$tmp/t.trace.json"
"$cat_bin" -q -i "$tmp/t.raw" --json > "$tmp/t.jsonl"
speedscope locks "$tmp/t.trace.json" trace "$tmp/t.jsonl"

# speedscope's alert() on a file it cannot import is answered and reported.
echo 'not a profile' > "$tmp/bad.txt"
timeout 120 node "$browser/speedscope.js" "$tmp/bad.txt" "$tmp/bad.json" \
	> /dev/null 2> "$tmp/bad.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q 'Unrecognized format' "$tmp/bad.err"; then
	ok "a file speedscope cannot read: its alert is reported (exit 2), no hang"
else
	not_ok "unreadable file: exit $rc, $(head -c 300 "$tmp/bad.err")"
fi

tap_end
