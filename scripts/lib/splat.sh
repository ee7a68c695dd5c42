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
	grep -qE -e "$(splat_patterns)" < <(splat_lines "$1")
}

# splat_lines FILE: FILE without CRs and without the lines
# scripts/vm/splat-ignore explains away.
splat_lines() {
	tr -d '\r' <"$1" | grep -vE -e "$(splat_ignored)" || true
}

splat_ignored() {
	grep -v -e '^#' -e '^$' "$RINGTRACE_ROOT/scripts/vm/splat-ignore"
}

# log_splat_excerpt FILE: the splats of FILE with some context, at most
# 150 lines. head may stop reading early: "|| true" keeps the writers'
# SIGPIPE from failing the caller under pipefail.
log_splat_excerpt() {
	{ splat_lines "$1" | grep -E -B 5 -A 25 -e "$(splat_patterns)" | head -n 150; } || true
}

splat_patterns() {
	grep -v -e '^#' -e '^$' "$RINGTRACE_ROOT/scripts/vm/splat-patterns"
}
