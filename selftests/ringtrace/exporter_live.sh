#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-exporter live: it traces, then serves /metrics on a port of the
# kernel's choice; a dd renamed rtexpdd reads /dev/zero 50 times 4096
# bytes, started only once the exporter says it serves (it traces by
# then), and a scrape shows exactly those calls and bytes in its
# (comm, class="device") series, no record lost, the reader's CPU time
# counted, every family with its HELP and TYPE; --textfile is written on
# its interval; SIGTERM ends it with exit 0 (its HTTP thread takes no
# signal). With -e func:NAME, the calls of two functions of the
# ringtrace_fanout test module (called once each per read of its file, by
# nothing else) that dd makes 7 reads of: exactly 7 calls in each
# function's series, named after it. Scraped with python3's urllib (the
# arm64 guest has no curl; promtool checks the text in
# user/tests/exporter.sh).
# Needs root and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

exporter=$top/user/ringtrace-exporter
[[ -x $exporter ]] || tap_skip_all "ringtrace-exporter not built (make -C user)"
tap_plan 7

# scrape URL: its body on stdout; fails unless 200 and Prometheus's type.
scrape() {
	python3 - "$1" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=10) as r:
    assert r.status == 200, r.status
    assert r.headers['Content-Type'].startswith('text/plain; version=0.0.4'), r.headers['Content-Type']
    sys.stdout.write(r.read().decode())
PY
}

# Loopback up, with python3: the arm64 guest has no ip(8).
python3 - <<'PY'
import fcntl, socket, struct
s = socket.socket()
flags = struct.unpack('16sH14x', fcntl.ioctl(s, 0x8913, struct.pack('16sH14x', b'lo', 0)))[1]
fcntl.ioctl(s, 0x8914, struct.pack('16sH14x', b'lo', flags | 1))  # SIOCSIFFLAGS, IFF_UP
PY
cp "$(command -v dd)" "$work/rtexpdd"
"$exporter" --listen 127.0.0.1:0 -e vfs_read --textfile "$work/t.prom" \
	--textfile-interval 200ms 2>"$work/exp.err" &
pid=$!
url=
for _ in $(seq 300); do
	url=$(grep -o 'http://127.0.0.1:[0-9]*/metrics' "$work/exp.err")
	[[ -n $url ]] && break
	sleep 0.1
done
[[ -n $url ]]
tap_ok $? "it traces and serves $url" || tap_diag <"$work/exp.err"

"$work/rtexpdd" if=/dev/zero of=/dev/null bs=4096 count=50 2>/dev/null
sel='{cgroup="/",comm="rtexpdd",class="device"}'
got=
for _ in $(seq 100); do
	scrape "$url" >"$work/m.txt" &&
		got=$(grep -F "ringtrace_vfs_read_duration_seconds_count$sel " "$work/m.txt")
	[[ $got == *" 50" ]] && break
	sleep 0.1
done
[[ $got == *" 50" ]] &&
	grep -qxF "ringtrace_vfs_read_bytes_total$sel 204800" "$work/m.txt" &&
	grep -qxF "ringtrace_vfs_read_duration_seconds_bucket${sel%\}},le=\"+Inf\"} 50" "$work/m.txt"
tap_ok $? "rtexpdd's 50 reads of /dev/zero: count 50, 204800 bytes, +Inf bucket 50" ||
	grep rtexpdd "$work/m.txt" | grep -v _bucket | tap_diag

grep -qx 'ringtrace_exporter_lost_records_total 0' "$work/m.txt" &&
	grep -Eq '^ringtrace_exporter_reader_cpu_seconds_total [0-9]+\.[0-9]{9}$' "$work/m.txt" &&
	! grep -qx 'ringtrace_exporter_reader_cpu_seconds_total 0.000000000' "$work/m.txt"
tap_ok $? "health: nothing lost, the reader's CPU time counted" ||
	grep ^ringtrace_exporter "$work/m.txt" | tap_diag

python3 - "$work/m.txt" >"$work/lint" 2>&1 <<'PY'
import re, sys
typed = set()
for line in open(sys.argv[1]):
    m = re.match(r'# TYPE (\w+) (counter|gauge|histogram)$', line)
    if m:
        typed.add(m[1])
    elif not line.startswith('# HELP '):
        name = re.match(r'(\w+?)(_bucket|_sum|_count)?[{ ]', line)
        assert name and (name[1] in typed or name[0][:-1] in typed), line
PY
tap_ok $? "every sample of the live scrape follows its family's TYPE line" || tap_diag <"$work/lint"

sleep 0.5
grep -qF "ringtrace_vfs_read_bytes_total$sel 204800" "$work/t.prom" &&
	[[ ! -e $work/t.prom.tmp ]]
tap_ok $? "--textfile-interval 200ms rewrote the textfile whole" || tap_diag <"$work/exp.err"

kill -TERM "$pid"
rc=
for _ in $(seq 100); do
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"
		rc=$?
		break
	fi
	sleep 0.1
done
[[ $rc == 0 ]]
tap_ok $? "SIGTERM ends it, exit ${rc:-none (still running)}" || {
	kill -KILL "$pid" 2>/dev/null
	tap_diag <"$work/exp.err"
}
# The probes attach while nothing runs the module's functions.
ko=${RINGTRACE_KO_ROOT:-$top}	# modules built for the running kernel
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
if insmod "$ko/selftests/ringtrace/modules/ringtrace_fanout.ko"; then
	"$exporter" --listen none -e func:ringtrace_fan_0000,func:ringtrace_fan_1023 \
		--textfile "$work/f.prom" --textfile-interval 100ms \
		2>"$work/fexp.err" &
	pid=$!
	# The first textfile is written once it traces.
	for _ in $(seq 300); do
		[[ -e $work/f.prom ]] && break
		sleep 0.1
	done
	"$work/rtexpdd" if=/sys/kernel/debug/ringtrace_fanout/fan of=/dev/null \
		bs=512 count=7 2>/dev/null
	ok=1
	for _ in $(seq 100); do
		grep -qxF 'ringtrace_func_duration_seconds_count{cgroup="/",comm="rtexpdd",function="ringtrace_fan_0000"} 7' "$work/f.prom" &&
			grep -qxF 'ringtrace_func_duration_seconds_count{cgroup="/",comm="rtexpdd",function="ringtrace_fan_1023"} 7' "$work/f.prom" &&
			{ ok=0; break; }
		sleep 0.1
	done
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	rmmod ringtrace_fanout
	[[ $ok -eq 0 && $rc -eq 0 ]]
	tap_ok $? "-e func:NAME: rtexpdd's 7 reads of the fanout file, 7 calls of each function, named (exit $rc)" || {
		grep -E 'func|records_total' "$work/f.prom" | tap_diag
		tap_diag <"$work/fexp.err"
	}
else
	tap_ok 1 "cannot load ringtrace_fanout.ko"
fi
tap_done
