# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced first by the shell tests here (views.sh, diff.sh, symbols.sh,
# cross_arch.sh, ctf.sh, browser.sh, func_names.sh): $tmp, a folder removed on exit;
# ok and not_ok, TAP points numbered as they come; tap_end, the plan last
# (only then is the number of points known) and the exit status.

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

tap_end() {
	echo "1..$n"
	exit $((failed > 0))
}
