#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/outputs.sh RINGTRACE_CAT MKRAW: no output is ever mixed into
# another, as TAP. Two outputs on standard output, a directory named '-',
# folded stacks sharing their file with a text view, -o where nothing is
# written, and data on standard output with standard error on the same
# file are refused before any work (exit 2), and nothing is written. (A
# COMMAND's own output beside JSON on standard output needs the module:
# selftests/ringtrace/raw_stdout.sh.)
set -u
cat_bin=$(realpath "$1")
mkraw=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=user/tests/preamble.sh
. "$here/preamble.sh"

"$mkraw" "$tmp/t.raw" || { echo "not ok 1 - mkraw"; exit 1; }
raw=$here/data/vm-syms.raw
cd "$tmp" || exit 1

# refused WHAT MESSAGE ARGS...: exit 2, MESSAGE on standard error, nothing
# on standard output.
refused() {
	local what=$1 says=$2
	shift 2
	"$cat_bin" "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	if [[ $rc -eq 2 && ! -s $tmp/out ]] && grep -qF -- "$says" "$tmp/err"; then
		ok "$what: refused"
	else
		not_ok "$what: exit $rc, $(wc -c < "$tmp/out") bytes out, $(head -c 300 "$tmp/err")"
	fi
}

refused "--flamegraph - --perfetto -" \
	"--flamegraph - and --perfetto - both write to standard output" \
	-i "$raw" --flamegraph - --perfetto -
refused "--hist with --flamegraph -" \
	"the text views and --flamegraph - both write to standard output" \
	-i "$raw" --hist --flamegraph -

refused "--ctf -" "--ctf writes a directory of files" -i "$raw" --ctf -
if [[ ! -e $tmp/- ]]; then ok "--ctf - made no directory named '-'"; else not_ok "--ctf - made $tmp/-"; fi

rm -f out.folded
refused "--folded --hist -o F" "--folded writes stacks for other tools" \
	-i "$raw" --folded --hist -o out.folded
refused "--folded --report" "not with --report on the same output" \
	-i "$raw" --folded --report
if [[ ! -e out.folded ]]; then ok "-o out.folded was not created"; else not_ok "out.folded was written"; fi

refused "-o FILE with only --flamegraph" "-o out.txt: nothing would be written there" \
	-i "$raw" --flamegraph x.svg -o out.txt
if [[ ! -e out.txt && ! -e x.svg ]]; then ok "neither file was created"; else not_ok "files were created"; fi

# Data on standard output, standard error the same file: the messages
# would be in the JSON.
"$cat_bin" -i "$raw" --json > both 2>&1
rc=$?
if [[ $rc -eq 2 ]] && grep -q 'the JSON stream goes to standard output: standard error is the same file' both &&
	! grep -q '^{' both; then
	ok "--json > F 2>&1 is refused"
else
	not_ok "--json > F 2>&1: exit $rc, $(head -c 300 both)"
fi
"$cat_bin" -i "$raw" --folded > both 2>&1
rc=$?
if [[ $rc -eq 2 ]] && grep -q 'the folded output goes to standard output' both; then
	ok "--folded > F 2>&1 is refused"
else
	not_ok "--folded > F 2>&1: exit $rc, $(head -c 300 both)"
fi
# Text is for people: its messages may share the file.
if "$cat_bin" -i "$raw" --hist > both 2>&1 && grep -q '^@\[all\]' both && grep -q '^ringtrace-cat: ' both; then
	ok "--hist > F 2>&1 prints both"
else
	not_ok "--hist > F 2>&1: $(head -c 300 both)"
fi

# Still allowed: one view on standard output, the others in files.
if "$cat_bin" -q -i "$raw" --flamegraph - --perfetto p.json > f.svg 2> err &&
	grep -q '<svg' f.svg && [[ -s p.json ]]; then
	ok "--flamegraph - with --perfetto FILE"
else
	not_ok "--flamegraph - --perfetto FILE: $(head -c 300 err)"
fi

tap_end
