#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat --diff on two real recordings: one cat process reads file A
# N times (BEFORE), then A N times and file B M times (AFTER: the extra,
# known work). Weighed by bytes and compared raw (--no-normalize), the
# differential flame graph shows exactly B's bytes red (a frame new in
# AFTER), A's and every other file's frames grey (the same bytes), and
# only the callers of B's frame (all, cat) red by exactly B's bytes;
# by latency, normalised, B's frame is red; --summary and --hist see M
# more calls; --folded gives both columns. Needs root and ringtrace.ko
# loaded (the runner does it); ringtrace-cat holds the command until
# tracing is on, so attaching never races the workload (testing.rst).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"
check_views=$top/user/tests/check_views.py

st_need_cat
tap_plan 8

N=5
M=7
head -c 40000 /dev/urandom >"$work/A"
head -c 30000 /dev/urandom >"$work/B"
a_list=()
for ((i = 0; i < N; i++)); do a_list+=("$work/A"); done
b_list=()
for ((i = 0; i < M; i++)); do b_list+=("$work/B"); done

# One process each time: cat's own loading (libc, locale) reads the same
# bytes in both runs; only B's reads are new.
"$cat" --raw -o "$work/before.raw" -- cat "${a_list[@]}" \
	>/dev/null 2>"$work/before.err"
rc1=$?
"$cat" --raw -o "$work/after.raw" -- cat "${a_list[@]}" "${b_list[@]}" \
	>/dev/null 2>"$work/after.err"
rc2=$?
[[ $rc1 -eq 0 && $rc2 -eq 0 ]]
tap_ok $? "two recordings of cat: BEFORE reads A x$N, AFTER also B x$M" ||
	cat "$work/before.err" "$work/after.err" | tap_diag

# The frame of a file (it may hold brackets: compare it as a fixed string):
# its path when the module names it; where it names
# it relative to the mount (PATH_MOUNT_RELATIVE: "[0:31]/tmp.X/B" on kernels
# whose probe cannot walk to the root, e.g. 7.2-rt), that name; else dev:ino.
frame_of() {
	local ino two name
	ino=$(stat -c %i "$1")
	two=$(basename "$(dirname "$1")")/$(basename "$1")
	if grep -q "<title>$1 (" "$work/bytes.svg"; then
		echo "$1"
		return
	fi
	name=$(sed -n "s|.*<title>\(\[[0-9]*:[0-9]*\][^ ]*/$two\) (.*|\1|p" \
		"$work/bytes.svg" | head -1)
	if [[ -n $name ]]; then
		echo "$name"
	else
		sed -n "s/.*<title>\([0-9]*:[0-9]*[ _]ino[ _]$ino\) (.*/\1/p" \
			"$work/bytes.svg" | head -1
	fi
}

"$cat" -q --diff "$work/before.raw" "$work/after.raw" --flamegraph \
	"$work/bytes.svg" --flame-weight bytes --no-normalize 2>"$work/svg.err"
rc=$?
total_b=$("$cat" -q -i "$work/before.raw" --summary -v | awk '$3 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ { s += $4 } END { print s + 0 }')
total_a=$((total_b + M * 30000))
[[ $rc -eq 0 ]] &&
	python3 "$check_views" diffsvg "$work/bytes.svg" "$total_a" "$total_b" \
		'' >"$work/check" 2>&1
tap_ok $? "differential flame graph by bytes, raw counts (BEFORE $total_b, AFTER $total_a bytes): AFTER's widths, colours' signs" ||
	cat "$work/svg.err" "$work/check" | tap_diag

fa=$(frame_of "$work/A")
fb=$(frame_of "$work/B")
signs="$fb=+,$fa=0"
# Every frame but all, cat and B's has the same bytes: grey. (The pipe
# the held command waits on before its exec is a new one each run.)
others=$(sed -n 's/.*<title>\([^<]*\) (before \([0-9]*\), after \([0-9]*\) .*/\1|\2|\3/p' \
	"$work/bytes.svg" | awk -F'|' -v b="$fb" '$1 != "all" && $1 != "cat" &&
		$1 != b && $1 !~ /^pipe:/ && $2 != $3')
[[ -n $fa && -n $fb && -z $others ]] &&
	python3 "$check_views" diffsvg "$work/bytes.svg" "$total_a" "$total_b" \
		"$signs,cat=+,all=+" >"$work/check" 2>&1
tap_ok $? "B's reads red, A's and every other frame grey (${fb:-B not found})" ||
	{ cat "$work/check"; echo "changed: $others"; grep '<title>' "$work/bytes.svg" | head -20; } | tap_diag

grep -qF "data-b=\"0\"><title>$fb (before 0, after $((M * 30000)) bytes read;" "$work/bytes.svg" &&
	grep -qF "data-b=\"$((N * 40000))\"><title>$fa (before $((N * 40000)), after $((N * 40000)) bytes read;" "$work/bytes.svg"
tap_ok $? "B: 0 -> $M x 30000 bytes; A: $N x 40000 bytes both" ||
	grep -F -e "<title>$fa " -e "<title>$fb " "$work/bytes.svg" | tap_diag

# By latency, normalised (the default): B's frame is new, so red.
"$cat" -q --diff "$work/before.raw" "$work/after.raw" --flamegraph \
	"$work/lat.svg" 2>"$work/lat.err" &&
	grep -q 'ringtrace differential flame graph (ns in vfs_read)' "$work/lat.svg" &&
	python3 "$check_views" diffsvg "$work/lat.svg" \
		"$(sed -n 's/.*data-d="0" data-b="[0-9]*"><title>all (before [0-9]*, after \([0-9]*\) .*/\1/p' "$work/lat.svg")" \
		"$(sed -n 's/.*data-d="0" data-b="\([0-9]*\)".*/\1/p' "$work/lat.svg")" \
		"$fb=+" >"$work/check" 2>&1
tap_ok $? "by latency, normalised: B's frame red" ||
	cat "$work/lat.err" "$work/check" | tap_diag

"$cat" -q --diff "$work/before.raw" "$work/after.raw" --summary \
	>"$work/summary" 2>&1
# (Each pass over a file is a read of it all and one at its end.)
awk -v a="$fa" -v b="$fb" -v m="$M" -v n="$N" '
	index($0, b) && $2 == 0 && $3 >= m && $5 == m * 30000 && $9 == "new" { okb = 1 }
	index($0, a) && $2 == $3 && $2 >= n && $4 == n * 40000 && $5 == $4 { oka = 1 }
	END { exit !(oka && okb) }' "$work/summary"
tap_ok $? "--summary: B's row new with $((M * 30000)) bytes; A's the same calls and bytes" ||
	tap_diag <"$work/summary"

"$cat" -q --diff "$work/before.raw" "$work/after.raw" --hist \
	>"$work/hist" 2>&1
cb=$(awk '$1 == "count" { print $2 }' "$work/hist")
ca=$(awk '$1 == "count" { print $3 }' "$work/hist")
[[ -n $cb && -n $ca && $ca -ge $((cb + M)) ]] && grep -q '^  p99 ' "$work/hist"
tap_ok $? "--hist: both distributions, AFTER $ca calls >= BEFORE $cb + $M" ||
	tap_diag <"$work/hist"

"$cat" -q --diff "$work/before.raw" "$work/after.raw" --folded \
	--flame-weight bytes --no-normalize >"$work/folded" 2>&1
grep -qxF "cat;$fb 0 $((M * 30000))" "$work/folded" &&
	grep -qxF "cat;$fa $((N * 40000)) $((N * 40000))" "$work/folded"
tap_ok $? "--folded: stack, BEFORE's and AFTER's bytes" ||
	tap_diag <"$work/folded"

tap_done
