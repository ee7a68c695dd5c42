# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Booting the uncompressed vmlinux through its PVH entry point instead of
# the bzImage: QEMU then loads the ELF directly and skips the real-mode
# setup and the in-guest decompression, which under TCG takes ~5 of the
# ~11 s a Debian 6.1 boot+poweroff needs (measured: first console byte
# after 6.5 s with the bzImage, 0.8 s with the vmlinux). Needs CONFIG_PVH
# (Debian's kernels have it); without it vm-run boots the bzImage.

# pvh_vmlinux VER: print the path of the bootable vmlinux of cached kernel
# VER, extracting it from the bzImage the first time; print nothing if the
# kernel cannot boot that way (the answer is remembered).
pvh_vmlinux() {
	local boot
	boot=$(kernel_dir "$1")/boot
	local bz=$boot/vmlinuz-$1 elf=$boot/vmlinux-$1 no=$boot/.no-pvh-$1
	if [[ ! -f $elf && ! -f $no ]]; then
		if _pvh_extract "$bz" "$elf.tmp.$$" && _pvh_has_entry "$elf.tmp.$$"; then
			mv -f "$elf.tmp.$$" "$elf"
		else
			rm -f "$elf.tmp.$$"
			: >"$no"
		fi
	fi
	[[ -f $elf ]] && echo "$elf"
	return 0
}

# The bzImage header (Documentation/x86/boot.rst) says where the compressed
# kernel is: payload_offset/payload_length at 0x248/0x24c, counted from the
# protected-mode code, which follows (setup_sects + 1) 512-byte sectors.
_pvh_extract() {
	local bz=$1 out=$2 sects off len magic
	sects=$(od -An -tu1 -j $((0x1f1)) -N1 "$bz" | tr -d ' ')
	[[ $sects -ne 0 ]] || sects=4
	off=$(od -An -tu4 -j $((0x248)) -N4 "$bz" | tr -d ' ')
	len=$(od -An -tu4 -j $((0x24c)) -N4 "$bz" | tr -d ' ')
	[[ -n $off && -n $len && $len -gt 0 ]] || return 1
	off=$(((sects + 1) * 512 + off))
	magic=$(od -An -tx1 -j "$off" -N4 "$bz" | tr -d ' ')
	local -a unpack
	case $magic in
	fd377a58) unpack=(xz -dc --single-stream) ;;
	1f8b*) unpack=(gzip -dc) ;;
	28b52ffd) unpack=(zstd -dcq) ;;
	*) return 1 ;; # lz4, lzo, bzip2, lzma: boot the bzImage
	esac
	command -v "${unpack[0]}" >/dev/null || return 1
	# The payload ends with the uncompressed size (4 bytes): gzip and
	# zstd warn about trailing data but the output is complete.
	tail -c +$((off + 1)) "$bz" | head -c "$len" | "${unpack[@]}" >"$out" 2>/dev/null
	[[ $(head -c 4 "$out" | od -An -tx1 | tr -d ' ') == 7f454c46 ]]
}

# QEMU boots an ELF -kernel only through XEN_ELFNOTE_PHYS32_ENTRY (18).
_pvh_has_entry() {
	readelf -n "$1" 2>/dev/null | grep -qE '^[[:space:]]+Xen[[:space:]].*\(0x0*12\)'
}
