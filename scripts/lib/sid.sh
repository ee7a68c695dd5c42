# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Kernels from Debian sid (unstable) on a Debian 12 host. Sourced after
# common.sh, never executed.
#
# sid's kernels cannot be built for with the host's tools: their kbuild
# programs (modpost, objtool, resolve_btfids) need sid's glibc, and the
# kernels are built with a gcc the host does not have (7.2.13+deb14 with
# gcc-16; bookworm's gcc-12 rejects its flags). So everything sid is done
# in a sid chroot made once with debootstrap and cached in $CACHE/sid/root:
# its own apt (sid only) resolves, downloads and installs the headers, the
# compiler their package depends on and pahole for BTF. The host's
# apt sources are never touched, so nothing of sid can reach the host's
# packages. See Documentation/kernels.rst (cost: about 3 minutes fresh).

SID_ROOT=$CACHE/sid/root
SID_MIRROR=${RINGTRACE_SID_MIRROR:-http://deb.debian.org/debian}
# What every sid build needs besides the headers (which pull their gcc);
# scripts/dkms adds dkms when it is used.
SID_BASE_PKGS=(make dwarves)

# is_sid_kernel VER: VER is a Debian release newer than the host's
# ("7.2.13+deb14-amd64" on Debian 12), or the aliases "sid"/"sid-rt".
# Decided from the name alone: this runs on every vm-run and build.
is_sid_kernel() {
	[[ $1 == sid || $1 == sid-rt ]] && return 0
	local host
	host=$(cut -d. -f1 /etc/debian_version 2>/dev/null)
	[[ $host =~ ^[0-9]+$ ]] || host=12
	[[ $1 =~ \+deb([0-9]+)- ]] && ((BASH_REMATCH[1] > host))
}

# Run "$@" inside the chroot, in a private mount namespace (so nothing
# stays mounted after it, even if it is killed) with /proc (objtool reads
# it), /dev and, at the same paths, each directory given with --bind.
#   sid_run [--bind DIR]... -- COMMAND...
sid_run() {
	local binds=()
	while [[ $1 != -- ]]; do
		binds+=("$2")
		shift 2
	done
	shift
	# shellcheck disable=SC2016 # expanded by the inner sh
	local script='set -e; r=$1; shift; n=$1; shift
		mount -t proc proc "$r/proc"
		mount --rbind /dev "$r/dev"
		while [ "$n" -gt 0 ]; do
			mkdir -p "$r$1"; mount --bind "$1" "$r$1"; shift; n=$((n - 1))
		done
		exec chroot "$r" "$@"'
	as_root unshare -m --propagation private sh -c "$script" sid-run \
		"$SID_ROOT" "${#binds[@]}" "${binds[@]}" \
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive "$@"
}

# Make the chroot when it is missing (debootstrap, ~1.5 minutes), under a
# lock shared with every other worktree; atomic (renamed into place).
sid_ensure_root() {
	[[ -f $SID_ROOT/.ready ]] && return 0
	ensure_packages debootstrap
	as_root mkdir -p "$CACHE/sid"
	exec 8>"$CACHE/sid/.lock"
	flock 8
	if [[ ! -f $SID_ROOT/.ready ]]; then
		note "making a Debian sid chroot in $SID_ROOT (once; about 2 minutes)"
		local tmp=$CACHE/sid/root.tmp
		as_root rm -rf "$tmp"
		run_logged as_root debootstrap --variant=minbase sid "$tmp" "$SID_MIRROR" ||
			die "debootstrap of sid failed (is $SID_MIRROR reachable?)"
		as_root rm -rf "$SID_ROOT"
		as_root mv "$tmp" "$SID_ROOT"
		as_root touch "$SID_ROOT/.ready" "$CACHE/sid/.updated"
		export RINGTRACE_SID_UPDATED=1
	fi
	exec 8>&-
}

# apt-get update in the chroot at most once per top-level command, and
# only when its lists are more than an hour old (sid moves daily; its
# archive drops superseded kernels within days).
sid_update_once() {
	[[ -n ${RINGTRACE_SID_UPDATED:-} ]] && return 0
	if [[ -z $(find "$CACHE/sid/.updated" -mmin -60 2>/dev/null) ]]; then
		note "apt-get update (sid chroot)"
		# A mirror serving a frozen snapshot of sid has an expired
		# Release file: accept it (this apt only feeds a throwaway
		# build chroot), and failing that keep the lists we have.
		if ! QUIET=1 run_logged sid_run -- apt-get -q update 2>/dev/null; then
			QUIET=1 run_logged sid_run -- apt-get -q \
				-o Acquire::Check-Valid-Until=false update ||
				warn "apt-get update in the sid chroot failed; using its old package lists"
		fi
		as_root touch "$CACHE/sid/.updated"
	fi
	export RINGTRACE_SID_UPDATED=1
}

# The packages among "$@" missing in the chroot (read from its dpkg
# database directly: fast, no chroot).
sid_missing_packages() {
	local pkg status
	local -A ok=()
	while IFS=' ' read -r pkg status; do
		[[ $status == installed ]] && ok[$pkg]=1
	done < <(dpkg-query --admindir="$SID_ROOT/var/lib/dpkg" \
		-W -f='${Package} ${db:Status-Status}\n' "$@" 2>/dev/null || true)
	for pkg in "$@"; do
		[[ -n ${ok[$pkg]:-} ]] || echo "$pkg"
	done
}

# Install in the chroot what "$@" and SID_BASE_PKGS need and it lacks.
sid_ensure_packages() {
	sid_ensure_root
	local -a missing
	mapfile -t missing < <(sid_missing_packages "${SID_BASE_PKGS[@]}" "$@")
	[[ ${#missing[@]} -eq 0 ]] && return 0
	exec 8>"$CACHE/sid/.lock"
	flock 8
	mapfile -t missing < <(sid_missing_packages "${SID_BASE_PKGS[@]}" "$@")
	if [[ ${#missing[@]} -gt 0 ]]; then
		sid_update_once
		note "installing ${missing[*]} in the sid chroot"
		run_logged sid_run -- apt-get -q -y --no-install-recommends install "${missing[@]}" ||
			die "apt-get install ${missing[*]} failed in the sid chroot"
	fi
	exec 8>&-
}

# sid_resolve VER|GLOB|sid|sid-rt: the newest sid kernel release matching
# (sid: the newest generic amd64 kernel, sid-rt: its PREEMPT_RT flavour).
sid_resolve() {
	local want=$1
	case $want in
	sid) want='*-amd64' ;;
	sid-rt) want='*-rt-amd64' ;;
	*[*?[]*) ;;
	*) echo "$want"; return 0 ;;
	esac
	sid_ensure_root
	sid_update_once
	local match
	# shellcheck disable=SC2053 # $want is a glob on purpose
	match=$(sid_run -- apt-cache pkgnames linux-headers- |
		sed -n 's/^linux-headers-\([0-9].*\)/\1/p' |
		grep -v -e '-common' -e '-cloud-' |
		{ if [[ $1 == sid ]]; then grep -v -e '-rt-amd64$'; else cat; fi; } |
		while read -r c; do [[ $c == $want ]] && echo "$c"; done | sort -V | tail -n 1)
	[[ -n $match ]] || die "sid has no kernel matching '$1'"
	echo "$match"
}

# Where the headers for sid kernel VER are, seen from the host.
sid_headers() {
	echo "$SID_ROOT/usr/src/linux-headers-$1"
}
