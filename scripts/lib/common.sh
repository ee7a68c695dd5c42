# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared by every ringtrace script: the cache location, messages, and the
# package helpers. Sourced, never executed. Keep it small and fast: it is
# loaded by scripts/kernel-version on every `make`.

PROG=${PROG:-${0##*/}}
# shellcheck disable=SC2034 # used by the scripts that source this file
RINGTRACE_ROOT=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd -P)
# One cache for kernels, initramfs images and extracted tools; safe to
# delete at any time (everything in it is rebuilt on demand).
CACHE=${RINGTRACE_CACHE:-/var/cache/ringtrace}
QUIET=${RINGTRACE_QUIET:-}
# The kernels ringtrace supports (Documentation/kernels.rst): "default" is
# scripts/kernel-version's (Debian 12's 6.1), sid/sid-rt sid's newest
# (scripts/lib/sid.sh). scripts/check --kernels boots them all; make check
# (CI) boots the default and CI_KERNELS.
# shellcheck disable=SC2034 # used by the scripts that source this file
KERNEL_RANGE=(default '6.12.*+deb12-amd64' '6.12.*+deb12-rt-amd64' sid sid-rt)
# shellcheck disable=SC2034
CI_KERNELS=(sid sid-rt)
# The arm64 kernels (scripts/lib/arm64.sh): bookworm's 6.1 ("arm64"), its
# 6.12 and sid's newest; scripts/check --kernels boots them all in the
# arm64 VM, make check's arm64-vm stage ARM64_CI_KERNEL.
# shellcheck disable=SC2034
ARM64_KERNEL_RANGE=(arm64 '6.12.*+deb12-arm64' sid-arm64)
# shellcheck disable=SC2034
ARM64_CI_KERNEL=arm64

die() {
	echo "$PROG: error: $*" >&2
	exit 1
}

warn() {
	echo "$PROG: warning: $*" >&2
}

# Progress messages go to stderr so that stdout stays machine-readable.
note() {
	[[ -n $QUIET ]] || echo "$PROG: $*" >&2
}

# Run a command as root: directly when we are root, else through sudo.
as_root() {
	if [[ $EUID -eq 0 ]]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo -- "$@"
	else
		die "need root for: $* (run as root or install sudo)"
	fi
}

# Print, one a line, the packages among "$@" that are not installed.
# One dpkg-query call for all of them: this is on the fast path.
missing_packages() {
	local pkg status
	local -A ok=()
	while IFS=' ' read -r pkg status; do
		[[ $status == installed ]] && ok[$pkg]=1
	done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "$@" 2>/dev/null || true)
	for pkg in "$@"; do
		# dpkg-query prints "name:arch" for multi-arch packages.
		[[ -n ${ok[$pkg]:-} || -n ${ok[$pkg:amd64]:-} ]] || echo "$pkg"
	done
}

# Run a noisy command with no stdin. Its output goes to stderr, or with
# QUIET set, to a log shown only if it fails.
run_logged() {
	if [[ -z $QUIET ]]; then
		"$@" </dev/null >&2
		return
	fi
	local log rc=0
	log=$(mktemp)
	"$@" </dev/null >"$log" 2>&1 || rc=$?
	[[ $rc -eq 0 ]] || cat "$log" >&2
	rm -f "$log"
	return "$rc"
}

# apt-get update, at most once per top-level invocation (the flag is
# exported so that child scripts see it).
apt_update_once() {
	[[ -n ${RINGTRACE_APT_UPDATED:-} ]] && return 0
	note "apt-get update"
	run_logged as_root env DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=600 update ||
		die "apt-get update failed (is the Debian archive reachable?)"
	export RINGTRACE_APT_UPDATED=1
}

# Install the packages among "$@" that are missing; does nothing (and
# touches no apt state) when all are present.
ensure_packages() {
	local -a missing
	mapfile -t missing < <(missing_packages "$@")
	[[ ${#missing[@]} -eq 0 ]] && return 0
	apt_update_once
	note "installing ${missing[*]}"
	run_logged as_root env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=600 \
		-o Dpkg::Use-Pty=0 --no-install-recommends install "${missing[@]}" ||
		die "apt-get install ${missing[*]} failed"
}

# Where a kernel lives once in the cache: boot/vmlinuz-VER and
# lib/modules/VER (with modules.dep) below this directory.
kernel_dir() {
	echo "$CACHE/kernels/$1"
}

kernel_cached() {
	local d
	d=$(kernel_dir "$1")
	[[ -f $d/boot/vmlinuz-$1 && -f $d/lib/modules/$1/modules.dep ]]
}

# Turn a kernel release or glob ("6.12.*+deb12-rt-amd64") into one release:
# the newest match among cached kernels and the archive's linux-image
# packages. Plain releases come back unchanged (no apt query). sid's
# releases, globs and the aliases "sid"/"sid-rt" are resolved in the sid
# chroot (scripts/lib/sid.sh).
resolve_kernel() {
	local want=$1
	if is_sid_kernel "$want"; then
		sid_resolve "$want"
		return
	fi
	if [[ $want != *[*?[]* ]]; then
		echo "$want"
		return 0
	fi
	local match
	# shellcheck disable=SC2053 # $want is a glob on purpose
	match=$({
		ls "$CACHE/kernels" 2>/dev/null
		apt-cache pkgnames linux-image- 2>/dev/null | sed 's/^linux-image-//; s/-unsigned$//'
	} | while read -r c; do [[ $c == $want ]] && echo "$c"; done | sort -uV | tail -n 1)
	[[ -n $match ]] || die "no kernel matches '$want' (cached or in the apt archive)"
	echo "$match"
}

# Copy the module's kernel sources (Kbuild, kmod/, uapi/ and, with
# --tests, the test modules) into $1, without build products, for builds
# outside the checkout (DKMS, other kernels).
copy_module_sources() {
	local dest=$1 tests=${2:-}
	as_root mkdir -p "$dest"
	as_root cp -r "$RINGTRACE_ROOT/Kbuild" "$RINGTRACE_ROOT/kmod" \
		"$RINGTRACE_ROOT/uapi" "$dest/"
	if [[ $tests == --tests ]]; then
		as_root mkdir -p "$dest/selftests/ringtrace"
		as_root cp -r "$RINGTRACE_ROOT/selftests/ringtrace/modules" \
			"$dest/selftests/ringtrace/"
	else
		# Kbuild names the test modules' directory too.
		as_root sed -i '/selftests/d' "$dest/Kbuild"
	fi
	as_root find "$dest" \( -name '*.o' -o -name '*.ko' -o -name '*.mod' \
		-o -name '*.mod.c' -o -name '.*.cmd' -o -name 'modules.order' \
		-o -name 'Module.symvers' \) -delete
}

# Kbuild's make cannot take every path as M=: a space splits it in two,
# and its Makefile refuses ':' and '%'. kbuild_safe PATH: true when M=PATH
# works.
kbuild_safe() {
	[[ $1 != *[[:space:]:%]* ]]
}

# A directory for temporary files whose path kbuild can take: $TMPDIR's,
# or /tmp when kbuild cannot take that.
kbuild_tmp() {
	local base=${TMPDIR:-/tmp}

	kbuild_safe "$base" || base=/tmp
	echo "$base"
}

# kbuild_scratch NAME: a directory for module builds of this checkout's
# sources, made if missing: build/NAME, or, when kbuild cannot build
# under the checkout's path (kbuild_safe), NAME in a directory of this
# user's for this checkout, under $TMPDIR (or /tmp).
kbuild_scratch() {
	local name=$1 base h
	if kbuild_safe "$RINGTRACE_ROOT"; then
		mkdir -p "$RINGTRACE_ROOT/build/$name"
		echo "$RINGTRACE_ROOT/build/$name"
		return
	fi
	h=$(printf '%s' "$RINGTRACE_ROOT" | sha256sum | cut -c1-12)
	base=$(kbuild_tmp)/ringtrace-kbuild-$EUID-$h
	# Ours alone: a directory of that name someone else made is refused.
	[[ -d $base ]] || mkdir -m 0700 "$base"
	[[ -O $base && ! -L $base ]] || die "$base is not this user's directory"
	mkdir -p "$base/$name"
	echo "$base/$name"
}

# kbuild_fold_btf KVER COMMAND...: run a module build with its output
# passed through, but for kbuild's "Skipping BTF generation for M due to
# unavailability of vmlinux", a line per module where the headers ship no
# vmlinux (Debian's 6.1) that newcomers read as errors: those become one
# line, at the end, saying what they mean. Every other line, warnings
# included, comes through as it was, on its stream. Returns COMMAND's
# status. (scripts/kbuild-module runs it for the Makefile.)
kbuild_fold_btf() {
	local kver=$1
	shift
	# COMMAND's stderr through the filter, its stdout (fd 3) untouched.
	{
		"$@" 2>&1 1>&3 3>&- |
			awk -v kver="$kver" -v why="(these headers ship no vmlinux, as Debian's 6.1 headers do); harmless" '
				/^Skipping BTF generation for .* due to unavailability of vmlinux$/ { n++; next }
				{ print; fflush() }
				END { if (n) print kver ": no module BTF for " n " modules " why }' >&2
		return "${PIPESTATUS[0]}"
	} 3>&1
}

# shellcheck source=scripts/lib/sid.sh
. "$RINGTRACE_ROOT/scripts/lib/sid.sh"
# shellcheck source=scripts/lib/arm64.sh
. "$RINGTRACE_ROOT/scripts/lib/arm64.sh"
