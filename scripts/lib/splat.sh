# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Finding kernel splats in a guest's log (scripts/vm/splat-patterns).
# Sourced, never executed.

# log_has_splat FILE: true when FILE (a dmesg or console log, possibly
# with CRs) has a line matching one of the patterns. grep reads the file
# through a process substitution, not a pipe: with pipefail,
# `tr | grep -q` is false when grep stops at an early match while tr
# still writes (SIGPIPE), and a long log's first splat went unseen.
log_has_splat() {
	local patterns
	patterns=$(grep -v -e '^#' -e '^$' "$RINGTRACE_ROOT/scripts/vm/splat-patterns")
	grep -qE -e "$patterns" < <(tr -d '\r' <"$1")
}
