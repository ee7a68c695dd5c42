#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/doc_examples.sh BINDIR: the examples of README.md, Documentation/
# and the man pages against the tools built in BINDIR
# (scripts/doc-examples: replays and --help run and compared, every other
# command given to the option parser; the live ones run in the VM,
# selftests/ringtrace/doc_examples.sh), as TAP. Then the checker itself,
# on drifted copies of README.md: an output that is not the tool's, an
# option the tool does not have and an example without its marker must
# each fail, naming the line. Last, the matching rule itself
# (scripts/doc-examples --self-test).
set -u
bindir=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
check=$top/scripts/doc-examples

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One TAP stream: the checker's points, then the drifted copies', one plan.
"$check" --bin "$bindir" > "$tmp/docs"
status=$?
grep -v '^1\.\.' "$tmp/docs"
n=$(grep -c -E '^(not )?ok ' "$tmp/docs")
failed=0

# drifted NAME SED-EXPRESSION WANT: a copy of README.md edited by
# SED-EXPRESSION fails the check, with WANT in its output.
drifted() {
	n=$((n + 1))
	sed "$2" "$top/README.md" > "$tmp/README.md"
	if cmp -s "$top/README.md" "$tmp/README.md"; then
		echo "not ok $n - drifted copy ($1): the edit changed nothing"
		failed=$((failed + 1))
	elif ! "$check" --bin "$bindir" "$tmp/README.md" > "$tmp/out" 2>&1 &&
		grep -q "^not ok .*$3" "$tmp/out"; then
		echo "ok $n - a drifted copy fails: $1"
	else
		echo "not ok $n - a drifted copy passed: $1"
		sed 's/^/# /' "$tmp/out" | grep -v '^# ok' | head -10
		failed=$((failed + 1))
	fi
}
drifted "an output line that is not the tool's" \
	's/508 records, 3 path records, 19497 lost/511 records, 19497 lost/' \
	'README.md:[0-9]*: \$ ringtrace-cat -i user/tests/data/vm-lost.raw --ctf lost.ctf'
drifted "an option the tool does not have" \
	's/-p 1234 --min-latency 1ms --json/-p 1234 --min-latancy 1ms --json/' \
	'README.md:[0-9]*: ringtrace-cat -p 1234 --min-latancy 1ms --json'
drifted "an example without its marker" \
	'/<!-- doc-example: run -->/d' \
	'README.md:[0-9]*: an example without a doc-example marker'
# The rule a shown line is matched by, on lines it must take and refuse.
"$check" --self-test > "$tmp/self" || failed=$((failed + 1))
while IFS= read -r line; do
	if [[ $line =~ ^(not\ )?ok\ [0-9]+\ (.*)$ ]]; then
		n=$((n + 1))
		echo "${BASH_REMATCH[1]}ok $n ${BASH_REMATCH[2]}"
	fi
done < "$tmp/self"
echo "1..$n"
[[ $status -eq 0 && $failed -eq 0 ]]
