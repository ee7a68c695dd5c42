# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Minimal TAP 13 producer for the harness tests in scripts/tests/:
#   tap_plan N; tap_ok COND-STATUS "desc"; tap_skip "desc" "why"; tap_done
# Exit status of tap_done: 0 all passed, 1 something failed, 4 all skipped
# (the kselftest convention).

_tap_n=0
_tap_failed=0
_tap_skipped=0

tap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

# tap_ok STATUS DESC: STATUS 0 is a pass. Use as: check...; tap_ok $? "desc"
# Returns STATUS, so that `tap_ok $? "desc" || show-details` works.
tap_ok() {
	_tap_n=$((_tap_n + 1))
	if [[ $1 -eq 0 ]]; then
		echo "ok $_tap_n - $2"
		return 0
	fi
	echo "not ok $_tap_n - $2"
	_tap_failed=$((_tap_failed + 1))
	return 1
}

tap_skip() {
	_tap_n=$((_tap_n + 1))
	_tap_skipped=$((_tap_skipped + 1))
	echo "ok $_tap_n - $1 # SKIP ${2:-}"
}

# Diagnostics: "# " lines, ignored by TAP consumers.
tap_diag() {
	sed 's/^/# /'
}

# Skip the whole test (plan 1..0).
tap_skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit 4
}

tap_done() {
	if [[ $_tap_failed -gt 0 ]]; then
		echo "# $_tap_failed of $_tap_n failed"
		exit 1
	fi
	[[ $_tap_n -gt 0 && $_tap_skipped -eq $_tap_n ]] && exit 4
	exit 0
}
