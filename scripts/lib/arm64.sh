# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's arm64 kernels, built for on the amd64 host. Sourced after
# common.sh and sid.sh, never executed.
#
# A release ending in -arm64 (6.1.0-57-arm64, 6.12.117+deb12-arm64,
# 7.2.13+deb14-arm64) or an alias (arm64: bookworm's newest 6.1; sid-arm64:
# sid's newest) is an arm64 kernel. Its linux-headers package depends on the
# arm64 gcc-N, which cannot be installed beside the host's, so nothing of it
# is installed: apt, with a package state of its own in $CACHE/arm64/apt
# (its own sources list, package lists, status and archive cache; the
# host's apt sources and dpkg database are never touched), downloads
# linux-headers-VER (arm64), its -common package and the host's build of
# linux-kbuild (Multi-Arch: foreign: modpost and fixdep run here), and they
# are unpacked (dpkg-deb -x) into $CACHE/arm64/headers/VER. The module is
# then built with Debian's cross compiler of the kernel's gcc major
# (gcc-12-aarch64-linux-gnu for bookworm's; sid's gcc-16 one, like
# everything sid, in the sid chroot: scripts/lib/sid.sh). See
# Documentation/kernels.rst, "arm64".

ARM64_DIR=$CACHE/arm64
ARM64_CROSS=aarch64-linux-gnu-
ARM64_MIRROR=${RINGTRACE_ARM64_MIRROR:-http://deb.debian.org/debian}
ARM64_SECURITY_MIRROR=${RINGTRACE_ARM64_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

# is_arm64_kernel VER: VER names an arm64 kernel (from the name alone).
is_arm64_kernel() {
	[[ $1 == arm64 || $1 == sid-arm64 || $1 == *-arm64 ]]
}

# The host's Debian codename (bookworm): its suites and sid are the
# sources of the arm64 apt.
arm64_host_codename() {
	local c
	c=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	echo "${c:-bookworm}"
}

# The host's Debian architecture, from uname: install-deps' fast path (all
# present) runs no dpkg, not even a query (scripts/tests/install-deps).
arm64_host_arch() {
	case $(uname -m) in
	x86_64) echo amd64 ;;
	aarch64) echo arm64 ;;
	*) dpkg --print-architecture ;;
	esac
}

# apt-get or apt-cache ("$1") on the arm64 package state, as root; the
# rest of the arguments go to it. Its binary caches are named: Debian's
# container images turn them off in apt.conf, and apt-cache would then
# parse every list on each call (4 s instead of 0.1). Both architectures are known: arm64 for the headers
# and images, the host's for linux-kbuild.
arm64_apt() {
	local tool=$1 d=$ARM64_DIR/apt host
	shift
	host=$(arm64_host_arch)
	as_root "$tool" -o APT::Architecture=arm64 -o "APT::Architectures::=arm64" \
		-o "APT::Architectures::=$host" \
		-o Dir::Etc::SourceList="$d/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::Etc::Preferences="$d/preferences" \
		-o Dir::Etc::PreferencesParts=/dev/null \
		-o Dir::State::Lists="$d/lists" \
		-o Dir::State::status="$d/status" \
		-o Dir::Cache="$d/cache" \
		-o Dir::Cache::pkgcache="$d/cache/pkgcache.bin" \
		-o Dir::Cache::srcpkgcache="$d/cache/srcpkgcache.bin" "$@"
}

# apt-get update of the arm64 state, at most once per top-level command
# and only when its lists are more than an hour old (as for sid). Run with
# the $ARM64_DIR/.lock held.
arm64_update_once() {
	[[ -n ${RINGTRACE_ARM64_UPDATED:-} ]] && return 0
	local d=$ARM64_DIR/apt c key=/usr/share/keyrings/debian-archive-keyring.gpg
	if [[ -z $(find "$d/.updated" -mmin -60 2>/dev/null) ]]; then
		c=$(arm64_host_codename)
		as_root mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
		[[ -f $d/status ]] || as_root touch "$d/status"
		printf 'deb [signed-by=%s] %s %s\n' \
			"$key" "$ARM64_MIRROR" "$c" \
			"$key" "$ARM64_MIRROR" "$c-updates" \
			"$key" "$ARM64_SECURITY_MIRROR" "$c-security" \
			"$key" "$ARM64_MIRROR" sid |
			sed 's/$/ main/' | as_root tee "$d/sources.list" >/dev/null
		# sid only when asked for by version (its kernels' headers):
		# the sysroot's libraries resolve in the host's release.
		printf 'Package: *\nPin: release n=sid\nPin-Priority: 100\n' |
			as_root tee "$d/preferences" >/dev/null
		note "apt-get update (arm64 package lists, $d)"
		# sid from a frozen mirror has an expired Release file: as in
		# sid_update_once(), accept it rather than fail.
		if ! QUIET=1 run_logged arm64_apt apt-get -q update; then
			QUIET=1 run_logged arm64_apt apt-get -q \
				-o Acquire::Check-Valid-Until=false update ||
				die "apt-get update of the arm64 package lists failed"
		fi
		as_root touch "$d/.updated"
	fi
	export RINGTRACE_ARM64_UPDATED=1
}

# Hold the arm64 lock (fd 7) for the rest of the caller's work.
arm64_lock() {
	as_root mkdir -p "$ARM64_DIR"
	exec 7>"$ARM64_DIR/.lock"
	flock 7
}

# The arm64 kernel releases Debian has (generic flavour: no -rt, -cloud).
arm64_releases() {
	arm64_apt apt-cache pkgnames linux-headers- |
		sed -n 's/^linux-headers-\([0-9].*-arm64\)$/\1/p' |
		grep -v -e '-rt-arm64$' -e '-cloud-arm64$' | sort -uV
}

# arm64_resolve VER|GLOB|arm64|sid-arm64: one release. arm64 is the host
# suite's newest 6.1-style release (N.N.0-ABI-arm64, what bookworm's
# linux-headers-arm64 points to), sid-arm64 the newest of a Debian newer
# than the host (+debN with N above it).
arm64_resolve() {
	local want=$1 match
	if [[ $want != arm64 && $want != sid-arm64 && $want != *[*?[]* ]]; then
		echo "$want"
		return 0
	fi
	arm64_lock
	arm64_update_once
	exec 7>&-
	case $want in
	arm64) match=$(arm64_releases | grep -E '^[0-9]+\.[0-9]+\.0-[0-9]+-arm64$' | tail -n 1) ;;
	sid-arm64)
		match=$(arm64_releases | while read -r c; do
			is_sid_kernel "$c" && echo "$c"
		done | tail -n 1)
		;;
	*)
		# shellcheck disable=SC2053 # $want is a glob on purpose
		match=$(arm64_releases | while read -r c; do
			[[ $c == $want ]] && echo "$c"
		done | tail -n 1)
		;;
	esac
	[[ -n $match ]] || die "Debian has no arm64 kernel matching '$want'"
	echo "$match"
}

# Where VER's unpacked headers are: the root, and the build directory.
arm64_root() {
	echo "$ARM64_DIR/headers/$1"
}
arm64_kdir() {
	echo "$ARM64_DIR/headers/$1/usr/src/linux-headers-$1"
}

# The major version of the gcc VER was built with (its config's
# CONFIG_GCC_VERSION, 120200 -> 12): the cross compiler to use.
arm64_gcc_major() {
	local v
	v=$(sed -n 's/^CONFIG_GCC_VERSION=//p' "$(arm64_kdir "$1")/.config")
	[[ $v =~ ^[0-9]+$ ]] || die "no CONFIG_GCC_VERSION in $(arm64_kdir "$1")/.config"
	echo $((v / 10000))
}

# Download and unpack VER's headers (with their -common package and the
# host's linux-kbuild of the same upload) into arm64_root, once; atomic
# (renamed into place) and under the arm64 lock.
arm64_ensure_headers() {
	local ver=$1 root tmp deps pkgs version host
	root=$(arm64_root "$ver")
	[[ -f $root/.ready ]] && return 0
	arm64_lock
	if [[ ! -f $root/.ready ]]; then
		arm64_update_once
		version=$(arm64_apt apt-cache show --no-all-versions "linux-headers-$ver" 2>/dev/null |
			sed -n 's/^Version: //p' | head -n 1)
		[[ -n $version ]] || die "Debian has no linux-headers-$ver (arm64)"
		deps=$(arm64_apt apt-cache show --no-all-versions "linux-headers-$ver" |
			sed -n 's/^Depends: //p' | head -n 1)
		host=$(arm64_host_arch)
		pkgs=("linux-headers-$ver:arm64=$version")
		[[ $deps =~ (linux-headers-[^ ,]+-common) ]] &&
			pkgs+=("${BASH_REMATCH[1]}=$version")
		[[ $deps =~ (linux-kbuild-[^ ,]+) ]] ||
			die "linux-headers-$ver depends on no linux-kbuild package"
		pkgs+=("${BASH_REMATCH[1]}:$host=$version")
		note "downloading ${pkgs[*]}"
		as_root mkdir -p "$ARM64_DIR/headers"
		as_root rm -rf "$root.tmp"
		tmp=$root.tmp
		as_root mkdir -p "$tmp/debs"
		# apt-get download drops privileges to _apt: let it write.
		as_root chmod 0777 "$tmp/debs"
		(cd "$tmp/debs" && run_logged arm64_apt apt-get -q download "${pkgs[@]}") ||
			die "apt-get download ${pkgs[*]} failed"
		local deb
		for deb in "$tmp"/debs/*.deb; do
			as_root dpkg-deb -x "$deb" "$tmp"
		done
		as_root rm -rf "$tmp/debs"
		# The headers' Makefile names the -common tree (and, from 6.13,
		# its own output directory) at /usr/src: point it here.
		as_root sed -i "s|/usr/src/|$root/usr/src/|g" \
			"$tmp/usr/src/linux-headers-$ver/Makefile"
		printf '%s\n' "${ARM64_SYSROOT_PKGS[*]}" | as_root tee "$tmp/.ready" >/dev/null
		as_root rm -rf "$root"
		as_root mv "$tmp" "$root"
	fi
	exec 7>&-
}

# Install what building for VER needs: its headers and, on the host or in
# the sid chroot (sid's kernels: their kbuild programs need sid's glibc),
# Debian's cross compiler of the kernel's gcc major and what linux-kbuild
# depends on that the host may lack: pahole (dwarves), for the modules'
# BTF where the headers ship a vmlinux (6.12 and later).
arm64_ensure_build() {
	local ver=$1 gcc
	arm64_ensure_headers "$ver"
	gcc=gcc-$(arm64_gcc_major "$ver")-${ARM64_CROSS%-}
	if is_sid_kernel "$ver"; then
		sid_ensure_packages "$gcc"
	else
		ensure_packages "$gcc" dwarves
	fi
}

# The command that runs kbuild for VER: "${ARM64_MAKE[@]}" -C KDIR M=...
# (set by arm64_make_cmd VER [DIR TO BIND]...).
arm64_make_cmd() {
	local ver=$1 b binds=()
	shift
	ARM64_MAKE=(make ARCH=arm64 CROSS_COMPILE="$ARM64_CROSS")
	if is_sid_kernel "$ver"; then
		for b in "$(arm64_root "$ver")" "$@"; do
			binds+=(--bind "$b")
		done
		ARM64_MAKE=(sid_run "${binds[@]}" -- "${ARM64_MAKE[@]}")
	fi
}

# Download arm64 packages $3... and every dependency into $1/debs, $1
# made afresh; $2 names the tree for the messages. The sysroot and the
# guest root share it (their own apt state: arm64_apt).
arm64_download_debs() {
	local tmp=$1 what=$2 p pkgs=()
	shift 2
	as_root rm -rf "$tmp"
	as_root mkdir -p "$tmp/debs/partial"
	as_root chmod 0777 "$tmp/debs" "$tmp/debs/partial"
	for p in "$@"; do
		pkgs+=("$p:arm64")
	done
	note "downloading the $what ($* and their dependencies)"
	# An empty status file: every dependency is downloaded.
	run_logged arm64_apt apt-get -q -y --download-only \
		--no-install-recommends -o Debug::NoLocking=1 \
		-o Dir::Cache::archives="$tmp/debs" install "${pkgs[@]}" ||
		die "downloading the $what failed"
}

# The arm64 sysroot the tools are cross-built against and the unit tests
# run in (under qemu-user): the host release's arm64 libc6-dev, libkmod,
# libdw/libelf and cmocka with their dependencies, resolved by the arm64
# apt and unpacked (dpkg-deb -x) into $ARM64_DIR/sysroot, once; absolute
# symbolic links made relative so that the tree works where it lies.
# libmicrohttpd-dev: ringtrace-exporter. .ready holds the package list: a
# sysroot made for another list is made again.
ARM64_SYSROOT_PKGS=(libc6-dev libkmod-dev libdw-dev libcmocka-dev
	libmicrohttpd-dev)
arm64_sysroot_current() {
	[[ -f $1/.ready && $(cat "$1/.ready") == "${ARM64_SYSROOT_PKGS[*]}" ]]
}
arm64_ensure_sysroot() {
	local root=$ARM64_DIR/sysroot tmp l deb
	arm64_sysroot_current "$root" && return 0
	arm64_lock
	if ! arm64_sysroot_current "$root"; then
		arm64_update_once
		tmp=$root.tmp
		arm64_download_debs "$tmp" "arm64 sysroot" "${ARM64_SYSROOT_PKGS[@]}"
		for deb in "$tmp"/debs/*.deb; do
			as_root dpkg-deb -x "$deb" "$tmp"
		done
		as_root rm -rf "$tmp/debs"
		find "$tmp" -type l -lname '/*' -print0 |
			while IFS= read -r -d '' l; do
				as_root ln -sfnr "$tmp$(readlink "$l")" "$l"
			done
		printf '%s\n' "${ARM64_SYSROOT_PKGS[*]}" | as_root tee "$tmp/.ready" >/dev/null
		as_root rm -rf "$root"
		as_root mv "$tmp" "$root"
	fi
	exec 7>&-
}

# The arm64 guest's root filesystem (scripts/arm64-vm): what the selftests
# and their runner use on x86-64 from the host (bash, coreutils,
# util-linux and mount, kmod, procps, make: run lists the tests with it,
# python3, bpftrace for neighbours_bpftrace, babeltrace2 and python3-bt2
# for ctf_live, libmicrohttpd12 for exporter_live), the host release's
# arm64 packages with their dependencies, unpacked with dpkg-deb -x. This host has no binfmt_misc,
# so no maintainer script (nor debootstrap's second stage) can run here,
# and none is needed to run programs; what the scripts would have made
# and the guest needs is made by hand: /etc/passwd and /etc/group from
# base-passwd's masters, the awk link of the alternatives, the merged-/usr
# links. Cached as $ARM64_DIR/root/HASH, HASH covering this list, the
# host's release and arm64_ensure_root itself (arm64_root_dir); 110
# packages, 92 MB down, 460 MB unpacked, 15-60 s (Documentation/kernels.rst,
# "The arm64 VM").
ARM64_ROOT_PKGS=(base-files base-passwd bash coreutils dash diffutils
	findutils grep gzip hostname libc-bin mawk sed tar util-linux mount
	ncurses-base procps kmod make bpftrace python3 babeltrace2 python3-bt2
	libmicrohttpd12)
arm64_root_dir() {
	local h
	h=$({
		printf '%s\n' "${ARM64_ROOT_PKGS[@]}" "$(arm64_host_codename)"
		declare -f arm64_ensure_root
	} | sha256sum | cut -c1-16)
	echo "$ARM64_DIR/root/$h"
}
# arm64_root_whole ROOT: ROOT is a finished guest root with what stage 1
# mounts on and runs (a root a killed prune or unpack left half removed
# keeps its .ready: the guest then fails to mount /dev, exit 126).
arm64_root_whole() {
	local d
	[[ -f $1/.ready ]] || return 1
	for d in etc dev proc sys root usr/bin/bash etc/passwd; do
		[[ -e $1/$d ]] || return 1
	done
}
arm64_ensure_root() {
	local root tmp deb p
	root=$(arm64_root_dir)
	arm64_root_whole "$root" && return 0
	arm64_lock
	if ! arm64_root_whole "$root"; then
		arm64_update_once
		tmp=$root.tmp
		arm64_download_debs "$tmp" "arm64 guest root" "${ARM64_ROOT_PKGS[@]}"
		# bookworm's packages install into /bin, /lib and /sbin as well:
		# merged /usr first, as debootstrap makes it, so that both
		# paths of a program work. tar (dpkg-deb -x) keeps a link to a
		# directory only with --keep-directory-symlink: unpack through it.
		as_root mkdir -p "$tmp/usr/bin" "$tmp/usr/sbin" "$tmp/usr/lib"
		for p in bin sbin lib; do
			as_root ln -s "usr/$p" "$tmp/$p"
		done
		for deb in "$tmp"/debs/*.deb; do
			dpkg-deb --fsys-tarfile "$deb" |
				as_root tar -x --keep-directory-symlink -C "$tmp" ||
				die "unpacking $deb failed"
		done
		as_root ls "$tmp/debs" | sed -n 's/\.deb$//p' |
			as_root tee "$tmp/.packages" >/dev/null
		as_root rm -rf "$tmp/debs"
		# What the maintainer scripts would have made.
		as_root cp "$tmp/usr/share/base-passwd/passwd.master" "$tmp/etc/passwd"
		as_root cp "$tmp/usr/share/base-passwd/group.master" "$tmp/etc/group"
		as_root ln -sf mawk "$tmp/usr/bin/awk"
		[[ -e $tmp/usr/bin/python3 ]] || die "no python3 in the arm64 guest root"
		as_root mkdir -p "$tmp/proc" "$tmp/sys" "$tmp/dev" "$tmp/run" \
			"$tmp/tmp" "$tmp/root" "$tmp/var/tmp" "$tmp/lib/modules"
		printf 'root:x:0:\n' | as_root tee -a "$tmp/etc/gshadow" >/dev/null
		echo ringtrace-arm64 | as_root tee "$tmp/etc/hostname" >/dev/null
		printf '%s\n' "${ARM64_SYSROOT_PKGS[*]}" | as_root tee "$tmp/.ready" >/dev/null
		as_root rm -rf "$root"
		as_root mv "$tmp" "$root"
	fi
	exec 7>&-
}

# arm64_hold_root: the guest root (arm64_ensure_root) in ARM64_ROOT, held
# while this process lives: a shared lock on its .ready (fd 6), which
# arm64_prune_roots respects. A root pruned between the two (another
# checkout's list or function: another hash) is made again.
arm64_hold_root() {
	local i
	for i in 1 2 3; do
		arm64_ensure_root
		ARM64_ROOT=$(arm64_root_dir)
		if exec 6<"$ARM64_ROOT/.ready" && flock -s 6 &&
			[[ -f $ARM64_ROOT/.ready ]]; then
			return 0
		fi 2>/dev/null
		exec 6<&-
	done
	die "the arm64 guest root $ARM64_ROOT was removed $i times while starting"
}

# arm64_prune_roots: remove the guest roots made for other versions of
# ARM64_ROOT_PKGS or arm64_ensure_root (other hashes, 450 MB each) that no
# run holds (arm64_hold_root), and any half-made one, as
# scripts/vm/mkinitramfs removes a kernel's older initramfs images: one
# root, the current one, is what every arm64 kernel boots with. Under the
# arm64 lock, so no root is being made meanwhile; skipped while another
# step holds it (the next run prunes).
arm64_prune_roots() {
	local keep old
	keep=$(arm64_root_dir)
	as_root mkdir -p "$ARM64_DIR"
	exec 7>"$ARM64_DIR/.lock"
	if flock -n 7; then
		for old in "$ARM64_DIR/root/"*; do
			[[ -d $old && $old != "$keep" ]] || continue
			if [[ $old == *.tmp || ! -f $old/.ready ]]; then
				as_root rm -rf "$old"
				continue
			fi
			# Held (exclusively) while it goes: a run starting on
			# it waits, finds it gone and makes its own. A QEMU
			# serving it (a run of a checkout without the lock) keeps
			# it too.
			exec 5<"$old/.ready"
			if flock -xn 5 && ! pgrep -f -- "path=$old," >/dev/null; then
				note "removing the arm64 guest root ${old##*/} (made for another list or version)"
				# Renamed first: a removal cut short leaves a
				# .tmp, which the next prune finishes, never a
				# half root that still says it is ready.
				as_root mv "$old" "$old.tmp" &&
					as_root rm -rf "$old.tmp"
			fi
			exec 5<&-
		done
	fi
	exec 7>&-
}
