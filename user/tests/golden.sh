# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by views.sh and diff.sh: compare one output with its golden file.
# Needs $golden, and $tmp and ok/not_ok (preamble.sh).
# shellcheck disable=SC2154 # $tmp and $golden are the caller's

# golden_compare NAME: $tmp/NAME.txt against $golden/NAME.txt (rewritten
# first when UPDATE_GOLDEN is set), one TAP point, the diff as comments.
golden_compare() {
	local name=$1
	if [[ -n ${UPDATE_GOLDEN:-} ]]; then
		cp "$tmp/$name.txt" "$golden/$name.txt"
	fi
	if diff -u "$golden/$name.txt" "$tmp/$name.txt" > "$tmp/$name.diff"; then
		ok "$name matches golden/$name.txt"
	else
		not_ok "$name differs from golden/$name.txt"
		sed 's/^/# /' "$tmp/$name.diff" | head -40
	fi
}
