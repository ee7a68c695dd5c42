#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/cross_arch.sh RINGTRACE_CAT: raw files replay on the other
# architecture, as TAP. Run by make test with the host's (x86-64)
# ringtrace-cat and by scripts/arm64-unit with the arm64 one under
# qemu-aarch64, so each direction is covered:
#   - data/vm-arm64.raw, recorded in the arm64 VM (data/record-vm-arm64:
#     Debian's arm64 6.1, vfs_read with kernel stacks and path records,
#     cpu-clock samples with call chains), replays to golden text and
#     summary: exact counts, arm64 kernel addresses (the x86-64 kernel's
#     are 0xffffffff8...), files named; its --header names the machine
#     (aarch64) and kernel; with its kallsyms lines
#     (data/vm-arm64.kallsyms) the frames are arm64's syscall path;
#   - data/vm-stacks.raw, recorded on x86-64 before the header had a
#     machine field, replays to the golden text views.sh checks, and says
#     its machine was not recorded;
#   - both rewritten (-i F --raw -o G) replay the same, the header whole.
set -u
cat_bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=user/tests/preamble.sh
. "$here/preamble.sh"
golden=$here/golden
data=$here/data
# shellcheck source=user/tests/golden.sh
. "$here/golden.sh"

# replay NAME FILE ARGS...: ringtrace-cat -q -i FILE ARGS into $tmp/NAME.txt.
replay() {
	local name=$1 file=$2
	shift 2
	if "$cat_bin" -q -i "$data/$file" "$@" > "$tmp/$name.txt" 2> "$tmp/$name.err"; then
		return 0
	fi
	not_ok "$name: ringtrace-cat -i $file $* failed ($(head -c 300 "$tmp/$name.err"))"
	return 1
}

# --- recorded on arm64 ---------------------------------------------------
replay vm_arm64_text vm-arm64.raw && golden_compare vm_arm64_text
replay vm_arm64_summary vm-arm64.raw --summary && golden_compare vm_arm64_summary
replay vm_arm64_folded vm-arm64.raw --folded --kallsyms "$data/vm-arm64.kallsyms" &&
	golden_compare vm_arm64_folded

# The counts, spelled out (the golden files hold them too): 5 vfs_read
# records of sha256sum, 20 cpu-clock samples.
t=$tmp/vm_arm64_text.txt
reads=$(grep -c ': vfs_read: ' "$t")
samples=$(grep -c ': sample: event=cpu-clock ' "$t")
if [[ $reads -eq 5 && $samples -eq 20 && $(wc -l < "$t") -eq 25 ]]; then
	ok "vm-arm64.raw: 5 vfs_read records and 20 samples, nothing else"
else
	not_ok "vm-arm64.raw: $reads vfs_read records, $samples samples, $(wc -l < "$t") lines"
fi

# Every kernel frame is an arm64 kernel address (the upper half of a
# 48-bit VA, 0xffff8... and above; this recording's are not x86-64's
# 0xffffffff8... kernel text), every user frame one of the lower half
# (below 2^48: 0xffffa435c88c is the loader's, in user space).
frames=$(grep -o -E '(kstack|callchain)=[0-9a-fx,]*' "$t" | cut -d= -f2 | tr ',' '\n')
kframes=$(grep -E '^0x[0-9a-f]{16}$' <<<"$frames")
uframes=$(grep -v -E '^0x[0-9a-f]{16}$' <<<"$frames")
bad=$(grep -v -E '^0xffff[89a-f][0-9a-f]{11}$' <<<"$kframes" | head -n 3)
bad+=$(grep '^0xffffffff' <<<"$kframes" | head -n 3)
bad+=$(grep -v -E '^0x[0-9a-f]{1,12}$' <<<"$uframes" | head -n 3)
if [[ -n $kframes && -n $uframes && -z $bad ]]; then
	ok "vm-arm64.raw: $(wc -l <<<"$kframes") kernel frames at arm64 kernel addresses, $(wc -l <<<"$uframes") user frames below"
else
	not_ok "vm-arm64.raw: frames out of place: ${bad:-none}"
fi

# Named with the recording machine's symbols: arm64's syscall path from
# el0_svc down to vfs_read, and the kretprobe's trampoline (6.1 arm64 has
# no fprobe).
f=$tmp/vm_arm64_folded.txt
if grep -q 'el0_svc_\[k\];.*__arm64_sys_read_\[k\];ksys_read_\[k\]' "$f" &&
	grep -q '__kretprobe_trampoline_\[k\]' "$f" && ! grep -q 'x64_sys_call\|entry_SYSCALL_64' "$f"; then
	ok "vm-arm64.raw with its kallsyms: arm64's read path (el0_svc, __arm64_sys_read, ksys_read)"
else
	not_ok "vm-arm64.raw with its kallsyms: no arm64 read path in the folded stacks"
	head -n 5 "$f" | sed 's/^/# /'
fi

replay vm_arm64_header vm-arm64.raw --header
h=$tmp/vm_arm64_header.txt
if grep -qx 'machine:        aarch64' "$h" && grep -qx 'kernel:         6.1.0-57-arm64' "$h" &&
	grep -qx 'header size:    744' "$h" && grep -q '^perf samples:   cpu-clock' "$h"; then
	ok "--header: recorded on aarch64, kernel 6.1.0-57-arm64, with cpu-clock samples"
else
	not_ok "--header on vm-arm64.raw: $(tr '\n' '|' < "$h")"
fi

# --- recorded on x86-64 --------------------------------------------------
replay vm_stacks_text vm-stacks.raw && golden_compare vm_stacks_text
replay vm_stacks_header vm-stacks.raw --header
if grep -qx 'machine:        (not recorded)' "$tmp/vm_stacks_header.txt" &&
	grep -q '^kernel:         6\.1\..*-amd64$' "$tmp/vm_stacks_header.txt"; then
	ok "--header on an x86-64 file from before the machine field: (not recorded), an amd64 kernel"
else
	not_ok "--header on vm-stacks.raw: $(tr '\n' '|' < "$tmp/vm_stacks_header.txt")"
fi

# Rewriting (-i F --raw -o G) keeps where it was recorded, and writes the
# whole current header with its size (an older file's was kept with the
# longer header behind it: chunks then began inside the header).
"$cat_bin" -q -i "$data/vm-arm64.raw" --raw -o "$tmp/arm64-again.raw" 2> "$tmp/rw.err"
"$cat_bin" -q -i "$tmp/arm64-again.raw" > "$tmp/arm64-again.txt" 2>> "$tmp/rw.err"
"$cat_bin" -i "$tmp/arm64-again.raw" --header > "$tmp/arm64-again.hdr" 2>> "$tmp/rw.err"
if cmp -s "$tmp/arm64-again.txt" "$golden/vm_arm64_text.txt" &&
	grep -qx 'machine:        aarch64' "$tmp/arm64-again.hdr"; then
	ok "an arm64 recording rewritten here replays the same and still says aarch64"
else
	not_ok "rewriting vm-arm64.raw: $(head -c 300 "$tmp/rw.err")"
fi
"$cat_bin" -q -i "$data/vm-stacks.raw" --raw -o "$tmp/old-again.raw" 2> "$tmp/rw.err"
"$cat_bin" -i "$tmp/old-again.raw" --header > "$tmp/old-again.hdr" 2>> "$tmp/rw.err"
"$cat_bin" -q -i "$tmp/old-again.raw" > "$tmp/old-again.txt" 2>> "$tmp/rw.err"
if grep -qx 'header size:    744' "$tmp/old-again.hdr" &&
	cmp -s "$tmp/old-again.txt" "$golden/vm_stacks_text.txt"; then
	ok "an older file rewritten gets the whole header's size (744) and replays the same"
else
	not_ok "rewriting vm-stacks.raw: $(grep 'header size' "$tmp/old-again.hdr") $(head -c 300 "$tmp/rw.err")"
fi

tap_end
