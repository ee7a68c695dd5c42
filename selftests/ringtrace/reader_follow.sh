#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The reader keeps up with a burst at full rate with the default settings
# (Documentation/performance.rst, "Losses"): 100 000 reads pinned to
# CPU 0, over three times what the default 4 MiB ring holds, are all
# recorded, nothing lost, the kernel's produced = written + lost matching
# the records counted, the reader at nice -10 (-v says so and how often
# it moved); a reader that fell behind (stopped while the ring filled)
# drains CPU 0's ring on CPU 0; and --reader plain leaves it alone.
# No timing is asserted: what could fail is the count, the accounting and
# where the reader ran.
# Needs root and ringtrace.ko loaded (the runner does it).
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

st_need_cat
tap_plan 6

reads=100000
burst=(taskset -c 0 dd if=/dev/zero of=/dev/null bs=64 "count=$reads" status=none)

"$cat" --raw -o "$work/r.raw" -v -- "${burst[@]}" 2>"$work/follow.err"
rc=$?
summary=$(grep -m1 '^ringtrace-cat: [0-9]* records' "$work/follow.err")
records=$(sed -n 's/^ringtrace-cat: \([0-9]*\) records.*/\1/p' <<<"$summary")
lost=$(sed -n 's/.*[^0-9]\([0-9][0-9]*\) lost,.*/\1/p' <<<"$summary")
[[ $rc -eq 0 && ${records:-0} -ge $reads && $lost == 0 ]]
tap_ok $? "a burst of $reads reads on CPU 0, default settings: $summary" ||
	tap_diag <"$work/follow.err"

# "kernel: P produced = W written + L lost": W is every record the reader
# counted (path and cgroup records too), L what it reported lost.
python3 - "$work/follow.err" <<'PY'
import re, sys
err = open(sys.argv[1]).read()
k = re.search(r'kernel: (\d+) produced = (\d+) written \+ (\d+) lost', err)
s = re.search(r'^ringtrace-cat: (\d+) records?(?:, (\d+) path records?)?'
              r'(?:, (\d+) cgroup records?)?, (\d+) lost', err, re.M)
produced, written, lost = (int(g) for g in k.groups())
counted = sum(int(g or 0) for g in s.groups()[:3])
assert produced == written + lost, k.group(0)
assert written == counted and lost == int(s.group(4)), (k.group(0), s.group(0))
PY
tap_ok $? "produced = written + lost, and written is what the reader counted" ||
	tap_diag <"$work/follow.err"

"$cat" -i "$work/r.raw" -q --json 2>/dev/null | grep -c '"type":"vfs_read"' >"$work/n"
[[ $(cat "$work/n") -eq $records ]]
tap_ok $? "the file holds them all: $(cat "$work/n") vfs_read records" ||
	tap_diag <"$work/follow.err"

moves=$(sed -n 's/^  reader: rings it fell behind on drained on their own CPU (\([0-9]*\) moves\{0,1\}), nice -10$/\1/p' \
	"$work/follow.err")
[[ -n $moves ]]
tap_ok $? "the reader ran at nice -10 and moved to a ring it fell behind on ${moves:-?} times" ||
	tap_diag <"$work/follow.err"

# Late on purpose: the command stops the reader (its parent) while 40 000
# reads fill CPU 0's ring (5 MiB of a 16 MiB ring: no loss, far past two
# watermarks), lets it go on, and reads on: the reader finds the backlog,
# moves beside it and drains it there.
late='taskset -c 0 dd if=/dev/zero of=/dev/null bs=64 count=40000 status=none'
"$cat" --raw -o "$work/l.raw" -v --buffer-size 16M -- \
	bash -c "kill -STOP \$PPID; $late; kill -CONT \$PPID; $late" \
	2>"$work/late.err"
rc=$?
moves=$(sed -n 's/^  reader: rings it fell behind on drained on their own CPU (\([0-9]*\) moves\{0,1\}), nice -10$/\1/p' \
	"$work/late.err")
[[ $rc -eq 0 && ${moves:-0} -ge 1 ]] && grep -q ' 0 lost' "$work/late.err"
tap_ok $? "a reader that fell behind drained CPU 0's ring on its CPU (${moves:-no} moves, exit $rc)" ||
	tap_diag <"$work/late.err"

"$cat" --raw -o "$work/p.raw" -v --reader plain -- \
	taskset -c 0 dd if=/dev/zero of=/dev/null bs=64 count=1000 status=none \
	2>"$work/plain.err"
rc=$?
[[ $rc -eq 0 ]] && grep -q '^  reader: where the scheduler put it, at its nice (--reader plain)$' \
	"$work/plain.err"
tap_ok $? "--reader plain: the reader is left where and as it runs (exit $rc)" ||
	tap_diag <"$work/plain.err"
tap_done
