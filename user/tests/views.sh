#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/views.sh RINGTRACE_CAT MKRAW: ringtrace-cat's views and replay
# options on a deterministic raw file (tests/tools/mkraw), as TAP.
# Deterministic output is compared with tests/golden/*.txt (regenerate
# with UPDATE_GOLDEN=1 after checking the difference); the SVG and the
# Perfetto JSON are checked for structure by tests/check_views.py.
set -u
cat_bin=$(realpath "$1")
mkraw=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=user/tests/preamble.sh
. "$here/preamble.sh"
golden=$here/golden
# shellcheck source=user/tests/golden.sh
. "$here/golden.sh"

# golden NAME ARGS...: stdout of ringtrace-cat -i raw ARGS equals golden/NAME.txt
# ($raw: the file, t.raw unless set)
golden() {
	local name=$1
	shift
	if ! "$cat_bin" -q -i "${raw:-$tmp/t.raw}" "$@" > "$tmp/$name.txt" 2> "$tmp/$name.err"; then
		not_ok "$name: exit status $? ($(head -c 300 "$tmp/$name.err"))"
		return
	fi
	golden_compare "$name"
}

# expect_status CODE DESCRIPTION ARGS...
expect_status() {
	local want=$1 what=$2 got
	shift 2
	"$cat_bin" "$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	if [[ $got -eq $want ]]; then
		ok "$what (exit $got)"
	else
		not_ok "$what: exit $got, expected $want: $(head -c 300 "$tmp/err")"
	fi
}

"$mkraw" "$tmp/t.raw" || { echo "not ok 1 - mkraw"; exit 1; }

golden text
golden json --json
golden hist --hist
golden hist_by_comm --hist-by comm
golden hist_by_file --hist-by file
golden hist_by_pid --hist-by pid
golden summary --summary
golden filter_pid_list --summary -p 200,300
golden filter_tid -t 102
golden filter_comm --comm tar --hist
golden filter_cpu -C 1
golden filter_events -e lock
golden filter_min_latency --min-latency 100us
golden filter_time --time 100us,200us
golden header --header
# --filter EXPR (filter_expr.h), in the stream and in views.
golden filter_expr_ret --filter 'ret <= 0'
golden filter_expr_glob --filter 'path ~ "*/tar/*" && lat >= 100us' --summary
golden filter_expr_and --filter 'count > 4K' --filter 'ret > 0' --hist
golden filter_expr_lock --filter 'wait > 3us || lock == "nothing"'
golden filter_expr_not --filter '!(comm == "cat" || comm ~ "t?r")' --json

# Raw format version 2 (mkraw --v2): perf samples, thread names and counter
# snapshots replay in the one stream, as folded stacks, and in the header.
if "$mkraw" --v2 "$tmp/v2.raw"; then
	raw=$tmp/v2.raw golden v2_json --json
	raw=$tmp/v2.raw golden v2_folded --folded
	raw=$tmp/v2.raw golden v2_header --header
	if "$cat_bin" -q -i "$tmp/v2.raw" --flamegraph "$tmp/v2.svg" 2> "$tmp/v2.err" &&
		grep -q '<svg' "$tmp/v2.svg" && grep -q 'samples' "$tmp/v2.svg"; then
		ok "--flamegraph on a file with samples is weighted by samples"
	else
		not_ok "--flamegraph on v2.raw: $(head -c 300 "$tmp/v2.err")"
	fi
else
	not_ok "mkraw --v2"
fi

# Recorded in the VM (scripts/vm-run, module ABI 2): path records name the
# files on every line and in the summary; stack trailers print as hex.
vm_golden() {
	local name=$1 file=$2
	shift 2
	if ! "$cat_bin" -q -i "$here/data/$file" "$@" > "$tmp/$name.txt" 2> "$tmp/$name.err"; then
		not_ok "$name: exit status ($(head -c 300 "$tmp/$name.err"))"
		return
	fi
	[[ -z ${UPDATE_GOLDEN:-} ]] || cp "$tmp/$name.txt" "$golden/$name.txt"
	if diff -u "$golden/$name.txt" "$tmp/$name.txt" > "$tmp/$name.diff"; then
		ok "$name matches golden/$name.txt"
	else
		not_ok "$name differs from golden/$name.txt"
		sed 's/^/# /' "$tmp/$name.diff" | head -40
	fi
}
vm_golden vm_paths_text vm-paths.raw
vm_golden vm_paths_json vm-paths.raw --json
vm_golden vm_paths_summary vm-paths.raw --summary
vm_golden vm_stacks_text vm-stacks.raw
vm_golden vm_stacks_hist vm-stacks.raw --hist-by file


if grep -q 'file=/etc/services$' "$golden/vm_paths_text.txt" &&
	grep -q 'kstack=0xffffffff' "$golden/vm_stacks_text.txt"; then
	ok "the VM recordings name files and carry stacks"
else
	not_ok "the VM recordings lost their names or stacks"
fi

# Pipes: -i - reads standard input; -o - writes standard output.
if "$cat_bin" -q -i - -o - < "$tmp/t.raw" | diff -q - "$golden/text.txt" > /dev/null; then
	ok "-i - -o - gives the same stream as -i FILE"
else
	not_ok "-i - -o - differs from -i FILE"
fi

# The flame graph weighted by latency and by bytes: 2 vfs_read totals.
# tar's reads carry stacks (its part of the graph is its call paths);
# cat's do not (its weight sits on its name).
# check NAME COMMAND...: ok when COMMAND succeeds, with its output.
check() {
	local name=$1
	shift
	if "$@" > "$tmp/c" 2>&1; then
		ok "$name: $(tail -1 "$tmp/c")"
	else
		not_ok "$name: $(tail -3 "$tmp/c")"
	fi
}
# shellcheck disable=SC2317  # called through check
svg_check() {
	"$cat_bin" -q -i "$tmp/t.raw" --flamegraph "$1" "${@:3}" &&
		python3 "$here/check_views.py" svg "$1" "$2"
}
check "flamegraph (latency)" svg_check "$tmp/lat.svg" 2399500
check "flamegraph (bytes)" svg_check "$tmp/bytes.svg" 507904 --flame-weight bytes
# shellcheck disable=SC2317  # called through check
perfetto_check() {
	"$cat_bin" -q -i "$tmp/t.raw" --perfetto "$tmp/t.json" &&
		python3 "$here/check_views.py" perfetto "$tmp/t.json" \
			"vfs_read=21,lock wait demo_lock=4,lock hold demo_lock=5,LOST 3=1,thread_name=4,process_name=4,cpu-clock=0"
}
check "perfetto" perfetto_check

# A child is named from its FORK record (its parent's name until
# it execs, then its COMM's), in samples and folded stacks; Perfetto names
# processes and threads after the records' latest names (pid 104 "wc", not
# "cat"; pid 200 "tar", not a sample's ":201").
# shellcheck disable=SC2317  # called through check
fork_names() {
	"$cat_bin" -q -i "$tmp/v2.raw" --json > "$tmp/fk.json" &&
		"$cat_bin" -q -i "$tmp/v2.raw" --folded > "$tmp/fk.folded" &&
		"$cat_bin" -q -i "$tmp/v2.raw" --perfetto "$tmp/fk.pf" || return 1
	python3 - "$tmp/fk.json" "$tmp/fk.folded" "$tmp/fk.pf" <<'PY'
import json, sys
names = [j["comm"] for j in map(json.loads, open(sys.argv[1]))
         if j["type"] == "sample" and j["tid"] == 104]
assert names == ["cat", "wc"], names
roots = {l.split(";")[0] for l in open(sys.argv[2])}
assert "wc" in roots and not any(r.startswith(":104") for r in roots), roots
last = {}
for e in json.load(open(sys.argv[3])):
    if e["ph"] == "M":
        last[(e["name"], e["pid"], e["tid"])] = e["args"]["name"]
assert last[("process_name", 104, 104)] == "wc", last
assert last[("thread_name", 104, 104)] == "wc", last
assert last[("process_name", 200, 200)] == "tar", last
assert last[("thread_name", 200, 201)] == "tar", last
print("samples of 104:", names)
PY
}
check "a forked child is named as its parent until exec, then by its COMM" fork_names

# Samples and counter snapshots are kinds -e selects on replay:
# -e lock prints no sample, -e sample only samples (LOST always shows).
# shellcheck disable=SC2317  # called through check
e_kinds() {
	local want=$1
	shift
	"$cat_bin" -q -i "$tmp/v2.raw" --json "$@" > "$tmp/e.out" || return 1
	python3 - "$tmp/e.out" "$want" <<'PY'
import json, sys
kinds = sorted({json.loads(l)["type"] for l in open(sys.argv[1])} - {"lost"})
assert ",".join(kinds) == sys.argv[2], kinds
print(",".join(kinds))
PY
}
check "-e lock: no sample, no counters" e_kinds lock -e lock
check "-e sample: samples only" e_kinds sample -e sample
check "-e counters,vfs_read" e_kinds counters,vfs_read -e counters,vfs_read

# Every view says what it is missing, in its own output, -q or not:
# vm-lost.raw holds 508 records and 19497 lost (97.5%).
lost_said='19497 records lost (97.5% of the 20005 written or lost)'
vm_golden vm_lost_hist vm-lost.raw --hist
# shellcheck disable=SC2317  # called through check
said_in() {
	local file=$1 want=$2
	shift 2
	"$cat_bin" -q -i "$here/data/${mraw:-vm-lost.raw}" "$@" > "$tmp/m.out" 2> "$tmp/m.err" &&
		grep -F -- "$want" "$tmp/$file" | head -n 1 | grep .
}
check "--summary: the losses under the table" said_in m.out "$lost_said" --summary
check "--report: the losses under the table" said_in m.out "#   $lost_said" --report
check "--report --json: a missing object in it" said_in m.out '"missing":{"events":508,"lost":19497,"lost_pct":97.46,' --report --json
check "--folded: the losses on standard error (its lines are data)" said_in m.err 'folded stacks missing: 19497 records lost (97.5%)' --folded
# shellcheck disable=SC2317  # called through check
flame_says_lost() {
	"$cat_bin" -q -i "$here/data/vm-lost.raw" --flamegraph "$tmp/m.svg" &&
		grep -o -m 1 'missing: 19497 records lost (97.5%)' "$tmp/m.svg"
}
check "--flamegraph: the losses in the graph's subtitle" flame_says_lost
# shellcheck disable=SC2317  # called through check
perfetto_says_lost() {
	"$cat_bin" -q -i "$here/data/vm-lost.raw" --perfetto "$tmp/m.json" &&
		python3 - "$tmp/m.json" <<'PY'
import json, sys
ev = [e for e in json.load(open(sys.argv[1])) if e.get("name", "").startswith("missing: ")]
assert len(ev) == 1 and ev[0]["args"]["lost"] == 19497, ev
print(ev[0]["name"])
PY
}
check "--perfetto: a global event with the counts" perfetto_says_lost
# Cut stacks, and files never named: vm-stacks.raw's user walks stopped
# at unreadable frames; mkraw's ino 12 is never named.
mraw=vm-stacks.raw check "--hist: cut stacks said" said_in m.out "62 user stacks cut at a frame that could not be read" --hist
# shellcheck disable=SC2317  # called through check
unnamed_said() {
	"$cat_bin" -q -i "$tmp/t.raw" --summary | grep -E '^  [0-9]+ vfs_reads of files never named'
}
check "--summary: reads of files never named said" unnamed_said

# -i F --raw -o G writes a filtered or time-sliced recording:
# replaying G prints what replaying F with the same filters prints; with no
# filter, the same stream; path records and thread names are kept.
# shellcheck disable=SC2317  # called through check
rewrite_same() {
	local raw=$1
	shift
	"$cat_bin" -q -i "$raw" --raw -o "$tmp/rw.raw" "$@" &&
		"$cat_bin" -q -i "$tmp/rw.raw" --json > "$tmp/rw.a" &&
		"$cat_bin" -q -i "$raw" --json "$@" > "$tmp/rw.b" &&
		cmp -s "$tmp/rw.a" "$tmp/rw.b" && [[ -s $tmp/rw.a ]] &&
		echo "$(wc -l < "$tmp/rw.a") lines"
}
check "-i F --raw -o G: the same stream" rewrite_same "$tmp/v2.raw"
check "-i F --raw -o G --comm cat -e sample,vfs_read" rewrite_same "$tmp/v2.raw" --comm cat -e sample,vfs_read
check "-i F --raw -o G --time 100us,300us" rewrite_same "$tmp/v2.raw" --time 100us,300us
# shellcheck disable=SC2317  # called through check
rewrite_named() {
	rewrite_same "$@" && grep -q '"path":"/' "$tmp/rw.a"
}
check "-i F --raw -o G -p PID: the files still named" rewrite_named "$here/data/vm-paths.raw" -p "$(sed -n 's/.*"pid":\([0-9]*\),.*"path".*/\1/p' "$golden/vm_paths_json.txt" | head -n1)"
# shellcheck disable=SC2317  # called through check
rewrite_filtered() {
	rewrite_same "$@" && ! grep -q '"path":"/usr' "$tmp/rw.a" &&
		grep -q '"path":"/etc/' "$tmp/rw.a"
}
check "-i F --raw -o G --filter 'path ~ GLOB': a filtered copy" rewrite_filtered "$here/data/vm-paths.raw" --filter 'path ~ "/etc/*"'
check "-i F --raw -o G --filter 'ret < 0'" rewrite_same "$tmp/t.raw" --filter 'ret < 0'
# A slice that starts after a cgroup record keeps it: the kept records'
# cgroups stay named (not cgroup=#ID) as in the filtered replay. (The copy
# keeps every LOST record, which --time drops from a replay: compared
# without them.)
"$mkraw" --ext "$tmp/ext.raw" >/dev/null 2>&1
# shellcheck disable=SC2317  # called through check
rewrite_cgroup_named() {
	local raw=$1
	shift
	"$cat_bin" -q -i "$raw" --raw -o "$tmp/rw.raw" "$@" &&
		"$cat_bin" -q -i "$tmp/rw.raw" --json | grep -v '"type":"lost"' > "$tmp/rw.a" &&
		"$cat_bin" -q -i "$raw" --json "$@" | grep -v '"type":"lost"' > "$tmp/rw.b" &&
		cmp -s "$tmp/rw.a" "$tmp/rw.b" &&
		grep -q '"cgroup_id":4097,"cgroup":"/system.slice/' "$tmp/rw.a" &&
		echo "$(wc -l < "$tmp/rw.a") lines"
}
check "-i F --raw -o G --time A,B after a cgroup record: still named" rewrite_cgroup_named "$tmp/ext.raw" --time 1.0010415,1.001045
# "N of M records written": N is what the copy's replay counts, M the
# original's; the cgroup and path records are not records.
# shellcheck disable=SC2317  # called through check
rewrite_counts() {
	local raw=$1 said n m
	shift
	"$cat_bin" -i "$raw" --raw -o "$tmp/rc.raw" "$@" 2>"$tmp/rc.err" || return 1
	said=$(sed -n 's/^ringtrace-cat: \([0-9]*\) of \([0-9]*\) records.* written to .*/\1 \2/p' "$tmp/rc.err")
	n=$("$cat_bin" -i "$tmp/rc.raw" 2>&1 >/dev/null | sed -n 's/^ringtrace-cat: \([0-9]*\) records.*/\1/p')
	m=$("$cat_bin" -i "$raw" 2>&1 >/dev/null | sed -n 's/^ringtrace-cat: \([0-9]*\) records.*/\1/p')
	[[ -n $said && $said == "$n $m" ]] && echo "$said"
}
check "-i F --raw -o G --time A,B: N of M records, as the replays count them" rewrite_counts "$tmp/ext.raw" --time 1.0010415,1.001045
check "-i F --raw -o G -C 1: N of M records, as the replays count them" rewrite_counts "$tmp/ext.raw" -C 1
check "-i F --raw -o G: N of M records, samples apart" rewrite_counts "$tmp/v2.raw" -e vfs_read
expect_status 2 "--filter 'ret < ': refused before any work" -i "$tmp/t.raw" --filter 'ret < '
if grep -qx "ringtrace-cat: --filter 'ret < ': expected a number at column 7" "$tmp/err"; then
	ok "--filter's error names the column"
else
	not_ok "--filter's error: $(cat "$tmp/err")"
fi
expect_status 2 "-i F --raw --header: --header does not apply" -i "$tmp/v2.raw" --raw -o "$tmp/h.raw" --header

# --header shows the recorded command line (golden header.txt);
# a file from before the header grew it says so.
if "$cat_bin" -i "$here/data/vm-paths.raw" --header 2>&1 | grep -qx 'command line:   (not recorded)'; then
	ok "--header on an older file: command line (not recorded)"
else
	not_ok "--header on vm-paths.raw: $("$cat_bin" -i "$here/data/vm-paths.raw" --header 2>&1 | tail -n 2)"
fi

# Every count the tools say equals what they printed. The
# summary's records, samples and counter snapshots, plus the LOST lines,
# are the JSON lines; path records are counted apart; --folded's stacks
# are its lines; --perfetto's trace events are the JSON array's.
# shellcheck disable=SC2317  # called through check
counts_match() {
	local raw=$1
	shift
	"$cat_bin" -i "$raw" "$@" > "$tmp/cm.out" 2> "$tmp/cm.err" || return 1
	python3 - "$tmp/cm.out" "$tmp/cm.err" <<'PY'
import json, re, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
err = open(sys.argv[2]).read()
m = re.search(r'^ringtrace-cat: (\d+) records?(?:, (\d+) path records?)?'
              r'(?:, (\d+) samples?)?(?:, (\d+) counter snapshots?)?, (\d+) lost',
              err, re.M)
assert m, err
records, paths, samples, counters = (int(g or 0) for g in m.groups()[:4])
lost_lines = sum(1 for l in lines if l["type"] == "lost")
said = records + samples + counters + lost_lines
assert said == len(lines), (said, len(lines), err)
kinds = {}
for l in lines:
    kinds[l["type"]] = kinds.get(l["type"], 0) + 1
assert kinds.get("sample", 0) == samples, (kinds, err)
assert kinds.get("counters", 0) == counters, (kinds, err)
print(f"{len(lines)} lines = {records} records + {samples} samples + "
      f"{counters} counter snapshots + {lost_lines} LOST; {paths} path records apart")
PY
}
check "t.raw: the summary's counts are the JSON lines" counts_match "$tmp/t.raw" --json
check "v2.raw: records, samples and counter snapshots are the JSON lines" counts_match "$tmp/v2.raw" --json
check "vm-paths.raw: path records are not counted as records" counts_match "$here/data/vm-paths.raw" --json
# With --filter, what is printed plus what was filtered out is
# what the summary counts.
# shellcheck disable=SC2317  # called through check
filter_counts_match() {
	local raw=$1
	shift
	"$cat_bin" -i "$raw" --json "$@" > "$tmp/fm.out" 2> "$tmp/fm.err" || return 1
	python3 - "$tmp/fm.out" "$tmp/fm.err" <<'PY'
import json, re, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
err = open(sys.argv[2]).read()
m = re.search(r'^ringtrace-cat: (\d+) records(?:, \d+ path records)?'
              r'(?:, (\d+) samples)?(?:, (\d+) counter snapshots)?, \d+ lost',
              err, re.M)
assert m, err
said = sum(int(g or 0) for g in m.groups())
f = re.search(r'^ringtrace-cat: (\d+) events filtered out', err, re.M)
assert f, err
dropped = int(f.group(1))
printed = sum(1 for l in lines if l["type"] != "lost")
assert printed + dropped == said, (printed, dropped, said, err)
print(f"{printed} printed + {dropped} filtered out = {said}")
PY
}
check "--filter: printed + filtered out = records" filter_counts_match "$tmp/t.raw" --filter 'ret < 0 || lat > 100us'
check "--filter 'path ~': printed + filtered out = records" filter_counts_match "$here/data/vm-paths.raw" --filter 'path ~ "/etc/*"'
if "$cat_bin" -i "$tmp/v2.raw" --folded > "$tmp/f.out" 2> "$tmp/f.err" &&
	[[ $(sed -n 's/^ringtrace-cat: \([0-9]*\) folded stacks from.*/\1/p' "$tmp/f.err") == "$(wc -l < "$tmp/f.out")" ]]; then
	ok "--folded says the number of lines it printed ($(wc -l < "$tmp/f.out"))"
else
	not_ok "--folded: $(cat "$tmp/f.err"), $(wc -l < "$tmp/f.out") lines"
fi
if "$cat_bin" -i "$tmp/t.raw" --perfetto "$tmp/pc.json" 2> "$tmp/pc.err" &&
	[[ $(sed -n 's/^ringtrace-cat: \([0-9]*\) trace events in.*/\1/p' "$tmp/pc.err") == \
		"$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$tmp/pc.json")" ]]; then
	ok "--perfetto says the number of trace events it wrote"
else
	not_ok "--perfetto: $(cat "$tmp/pc.err")"
fi
"$cat_bin" -i "$tmp/v2.raw" -v > /dev/null 2> "$tmp/v.err"
if grep -Eq '^  ring +records +paths +samples' "$tmp/v.err" &&
	grep -Eq '^  cpu [0-9]+ ' "$tmp/v.err" && grep -Eq '^  perf cpu [0-9]+ ' "$tmp/v.err"; then
	ok "-v labels ringtrace's rings and perf's"
else
	not_ok "-v table: $(cat "$tmp/v.err")"
fi

# --folded, --flamegraph and --report come from one table under one
# weight: on a recording without stacks (comm;file), with stacks and no
# samples (latency by default, for --folded too), and with samples, the
# SVG's frames weigh as the folded lines, the report's rows as they imply,
# and the report's stacks are the folded lines.
# shellcheck disable=SC2317  # called through check
one_source() {
	local raw=$here/data/$1
	shift
	"$cat_bin" -q -i "$raw" --folded "$@" > "$tmp/os.folded" &&
		"$cat_bin" -q -i "$raw" --flamegraph "$tmp/os.svg" "$@" &&
		"$cat_bin" -q -i "$raw" --report --json -v "$@" > "$tmp/os.json" &&
		[[ -s $tmp/os.folded ]] &&
		python3 "$here/check_views.py" svgfolded "$tmp/os.svg" "$tmp/os.folded" &&
		python3 "$here/check_views.py" report "$tmp/os.json" "$tmp/os.folded"
}
check "one source, no stacks: folded, SVG and report are comm;file" one_source vm-paths.raw
check "one source, no stacks, by bytes" one_source vm-paths.raw --flame-weight bytes
check "one source, stacks without samples: latency by default" one_source vm-stacks.raw
check "one source, samples" one_source vm-syms.raw
check "one source, -e offcpu: time off CPU by default" one_source vm-syms.raw -e offcpu
if "$cat_bin" -q -i "$here/data/vm-paths.raw" --folded | grep -qx 'cat;/etc/services 426120'; then
	ok "a vfs_read without a stack weighs on comm;file in --folded"
else
	not_ok "--folded without stacks: $("$cat_bin" -q -i "$here/data/vm-paths.raw" --folded | head -3)"
fi
"$cat_bin" -i "$here/data/vm-stacks.raw" --folded > /dev/null 2> "$tmp/err"
if grep -qx 'ringtrace-cat: 13 folded stacks from 96 vfs_read calls' "$tmp/err"; then
	ok "--folded says what its lines weigh (vfs_read calls)"
else
	not_ok "--folded's count: $(cat "$tmp/err")"
fi
if "$cat_bin" -q -i "$here/data/vm-syms.raw" -e offcpu --flamegraph "$tmp/off.svg" &&
	grep -q 'ringtrace flame graph (ns off CPU)' "$tmp/off.svg"; then
	ok "-e offcpu --flamegraph weighs time off CPU"
else
	not_ok "-e offcpu --flamegraph: $(grep -o 'flame graph ([^)]*)' "$tmp/off.svg")"
fi
if [[ $("$cat_bin" -q -i "$here/data/vm-stacks.raw" -e offcpu --hist) == $'@[all]\n  (no offcpu events)' ]]; then
	ok "-e offcpu --hist without offcpu records says there are none"
else
	not_ok "-e offcpu --hist: $("$cat_bin" -q -i "$here/data/vm-stacks.raw" -e offcpu --hist | head -3)"
fi
# A weight the file cannot give is refused first; an empty result fails
# with its reason and writes nothing.
expect_status 2 "--flame-weight offcpu on a file without offcpu records" \
	-i "$here/data/vm-stacks.raw" --flamegraph "$tmp/no.svg" --flame-weight offcpu
if grep -q 'holds no offcpu intervals (record with --raw -e offcpu)' "$tmp/err" && [[ ! -e $tmp/no.svg ]]; then
	ok "and says the file holds none"
else
	not_ok "--flame-weight offcpu: $(cat "$tmp/err")"
fi
expect_status 2 "-e lock --folded: nothing to weigh in what -e selects" \
	-i "$tmp/t.raw" -e lock --folded
expect_status 1 "--flamegraph of nothing fails" -i "$here/data/vm-syms.raw" \
	--comm nobody --flamegraph "$tmp/none.svg"
if grep -q -- '--flamegraph: nothing to weigh: no samples passed the filters (378 events filtered out); nothing written' "$tmp/err" &&
	[[ ! -e $tmp/none.svg ]]; then
	ok "and says why, and writes no SVG"
else
	not_ok "empty flame graph: $(cat "$tmp/err")"
fi
expect_status 1 "--folded of reads that all weigh 0" -i "$tmp/t.raw" \
	--filter 'ret <= 0' --folded --flame-weight bytes
if grep -q -- '--folded: nothing to weigh: [0-9]* vfs_read calls, every one of weight 0 (bytes read)' "$tmp/err"; then
	ok "and says they all weigh 0"
else
	not_ok "weight 0: $(cat "$tmp/err")"
fi

# Names that hold a newline (a path, a cgroup, a thread's name: anyone
# can choose them) are escaped as the text stream escapes them: each row
# and key stays one line.
# shellcheck disable=SC2317  # called through check
one_line_each() {
	local want=$1
	shift
	"$cat_bin" -q "$@" > "$tmp/nl.out" || return 1
	# The halves a raw newline would leave: a line starting "line", "cgroup", "lines".
	! grep -Eq '^(line|cgroup|lines)' "$tmp/nl.out" && grep -qF -- "$want" "$tmp/nl.out"
}
if "$mkraw" --names "$tmp/names.raw"; then
	check "--summary: a path with a newline stays on its row" one_line_each \
		'two\x0alines         400         1          100     7.00us     7.00us     7.00us     7.00us  /odd\x0acgroup          /tmp/new\x0aline\x09and\\back' \
		-i "$tmp/names.raw" --summary
	check "--hist-by file: one key a line" one_line_each '@[/tmp/new\x0aline\x09and\\back]' -i "$tmp/names.raw" --hist-by file
	check "--hist-by cgroup: one key a line" one_line_each '@[cgroup /odd\x0acgroup]' -i "$tmp/names.raw" --hist-by cgroup
	check "--folded: one stack a line" one_line_each 'two\x0alines;/tmp/new\x0aline\x09and\\back 7000' -i "$tmp/names.raw" --folded
	check "--diff --summary: one row a line" one_line_each '/tmp/new\x0aline\x09and\\back' --diff "$tmp/t.raw" "$tmp/names.raw" --summary
else
	not_ok "mkraw --names"
fi

# The SVG's script in a real browser: tests/browser.sh.

# Kernel frames of a recording are named from --kallsyms only.
printf 'ffffffff81000000 T entry_SYSCALL_64\nffffffff81100000 T ksys_read\nffffffff81200000 T vfs_read\nffffffff81300000 t other\n' > "$tmp/kallsyms"
"$cat_bin" -q -i "$tmp/t.raw" --flamegraph "$tmp/k.svg" --kallsyms "$tmp/kallsyms"
if grep -q '<title>entry_SYSCALL_64_\[k\]' "$tmp/k.svg" && grep -q '<title>vfs_read_\[k\]' "$tmp/k.svg" &&
	! grep -q '<title>0xffffffff' "$tmp/k.svg"; then
	ok "--kallsyms names the recording's kernel frames"
else
	not_ok "--kallsyms did not name the kernel frames"
fi
"$cat_bin" -i "$tmp/t.raw" --flamegraph "$tmp/h.svg" 2> "$tmp/err"
if grep -q '<title>0xffffffff81200010_\[k\]' "$tmp/h.svg" && grep -q 'kallsyms' "$tmp/err"; then
	ok "without --kallsyms, a replay keeps kernel frames hex and says why"
else
	not_ok "replay without --kallsyms: $(cat "$tmp/err")"
fi

# Never destroy a recording.
cp "$tmp/t.raw" "$tmp/keep.raw"
expect_status 2 "-i F -o F is refused" -q -i "$tmp/keep.raw" -o "$tmp/keep.raw"
if cmp -s "$tmp/t.raw" "$tmp/keep.raw"; then ok "-i F -o F left F intact"; else not_ok "-i F -o F changed F"; fi
echo old > "$tmp/out.txt"
expect_status 0 "-o over an existing file" -q -i "$tmp/t.raw" -o "$tmp/out.txt"
if [[ $(cat "$tmp/out.txt.old") == old ]] && cmp -s "$tmp/out.txt" "$golden/text.txt"; then
	ok "the existing file was kept as FILE.old"
else
	not_ok "FILE.old missing or wrong"
fi
# One file named twice is refused before any work.
rm -f "$tmp/k2.svg" "$tmp/k2.svg.old"
expect_status 2 "--flamegraph and --perfetto on one file" -q -i "$tmp/t.raw" --flamegraph "$tmp/k2.svg" --perfetto "$tmp/k2.svg"
if [[ ! -e $tmp/k2.svg ]] && grep -q 'name the same file' "$tmp/err"; then
	ok "nothing was written and the message says why"
else
	not_ok "two outputs on one file: $(cat "$tmp/err")"
fi
expect_status 2 "--flamegraph on the input" -q -i "$tmp/keep.raw" --flamegraph "$tmp/keep.raw"
if cmp -s "$tmp/t.raw" "$tmp/keep.raw"; then ok "--flamegraph F left the input F intact"; else not_ok "--flamegraph F changed F"; fi

# Damaged and truncated recordings. raw_edit FILE OUT damage|cut:
# flip the lowest bit of the last chunk's size, or cut the file right after
# the first record of its last chunk (a record boundary).
raw_edit() {
	python3 - "$@" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
off = struct.unpack_from('<I', data, 8)[0]
last = None
while off + 16 <= len(data):
    kind, cpu, size = struct.unpack_from('<IIQ', data, off)
    if kind == 1:
        last = off
    off += 16 + size
kind, cpu, size = struct.unpack_from('<IIQ', data, last)
if sys.argv[3] == 'damage':
    struct.pack_into('<Q', data, last + 8, size ^ 1)
else:
    first = struct.unpack_from('<H', data, last + 16 + 6)[0]
    data = data[:last + 16 + first]
open(sys.argv[2], 'wb').write(data)
PY
}
raw_edit "$tmp/t.raw" "$tmp/damaged.raw" damage
expect_status 3 "a damaged chunk header fails the replay" -q -i "$tmp/damaged.raw"
printed=$(wc -l < "$tmp/out")
if grep -q 'chunk header at offset [0-9]*: size [0-9]*, not a multiple of 8; skipped [0-9]* bytes' "$tmp/err" &&
	[[ $printed -gt 0 ]]; then
	ok "the records before the damage were printed ($printed lines), then where it is"
else
	not_ok "damaged chunk: $printed lines, $(cat "$tmp/err")"
fi
raw_edit "$tmp/t.raw" "$tmp/cut.raw" cut
expect_status 3 "a file cut at a record boundary fails the replay" -q -i "$tmp/cut.raw"
if grep -q "truncated raw file $tmp/cut.raw: the chunk at offset [0-9]* needs [0-9]* more bytes" "$tmp/err"; then
	ok "the cut is reported with the file, the offset and the bytes missing"
else
	not_ok "cut file: $(cat "$tmp/err")"
fi
head -c 50 "$tmp/t.raw" > "$tmp/short.raw"
expect_status 3 "a 50-byte file" -i "$tmp/short.raw"
if grep -q 'is truncated: 50 bytes' "$tmp/err"; then ok "a short file is called short"; else not_ok "short file: $(cat "$tmp/err")"; fi
: > "$tmp/empty.raw"
expect_status 1 "a 0-byte file is no damage" -i "$tmp/empty.raw"
if grep -qx "ringtrace-cat: $tmp/empty.raw is empty: it holds no recording" "$tmp/err"; then
	ok "a 0-byte file is called empty"
else
	not_ok "0-byte file: $(cat "$tmp/err")"
fi
expect_status 1 "-i on a directory" -i "$tmp"
if grep -q 'is a directory' "$tmp/err"; then ok "a directory is called a directory"; else not_ok "directory: $(cat "$tmp/err")"; fi

expect_status 2 "-p with a bad list" -i "$tmp/t.raw" -p 1,x
expect_status 2 "-p with a trailing comma" -i "$tmp/t.raw" -p 1,
expect_status 2 "--hist-by with an unknown key" -i "$tmp/t.raw" --hist-by colour
expect_status 2 "--flame-weight samples on a file without samples" -i "$tmp/t.raw" --flamegraph "$tmp/x.svg" --flame-weight samples
expect_status 2 "--time with END before START" -i "$tmp/t.raw" --time 2,1
if grep -q 'END (1) is before START (2)' "$tmp/err"; then ok "--time 2,1 says END is before START"; else not_ok "--time 2,1: $(cat "$tmp/err")"; fi

# --time takes timestamps as printed (perf's) and durations
# after the first event with units, and says when nothing matched.
"$cat_bin" -q -i "$tmp/t.raw" --time 1.00011,1.00021 > "$tmp/abs.txt" 2> "$tmp/abs.err"
if cmp -s "$tmp/abs.txt" "$golden/filter_time.txt"; then
	ok "--time with printed timestamps selects what 100us,200us after the first event does"
else
	not_ok "--time 1.00011,1.00021: $(head -c 300 "$tmp/abs.err")"
	diff "$golden/filter_time.txt" "$tmp/abs.txt" | head -10 | sed 's/^/# /'
fi
expect_status 0 "--time outside the recording" -i "$tmp/t.raw" --time 61.4,62.5
if [[ ! -s $tmp/out ]] && grep -q -- '--time matched nothing: the range is 61.400000000 to 62.500000000, the events span 1.000' "$tmp/err"; then
	ok "--time that matches nothing says so, with the span of the events"
else
	not_ok "--time 61.4,62.5: $(cat "$tmp/err")"
fi
expect_status 2 "--time with an unknown unit" -i "$tmp/t.raw" --time 1x,2s
if grep -q "'x' is not a unit" "$tmp/err"; then ok "--time names the bad unit"; else not_ok "--time 1x,2s: $(cat "$tmp/err")"; fi

# --kallsyms names its file and the real cause, and fails.
expect_status 2 "--kallsyms on a missing file" -i "$tmp/t.raw" --flamegraph "$tmp/ks.svg" --kallsyms /nonexistent/kallsyms
if grep -q -- '--kallsyms /nonexistent/kallsyms: No such file' "$tmp/err"; then ok "and names it"; else not_ok "--kallsyms /nonexistent: $(cat "$tmp/err")"; fi
printf 'root:x:0:0:root:/root:/bin/bash\n' > "$tmp/passwd"
expect_status 1 "--kallsyms on a file that holds no symbols" -i "$tmp/t.raw" --flamegraph "$tmp/ks.svg" --kallsyms "$tmp/passwd"
if grep -q -- "--kallsyms: $tmp/passwd holds no kernel symbols" "$tmp/err" && ! grep -q 'kptr_restrict' "$tmp/err"; then
	ok "and says it is no kallsyms copy, not kptr_restrict"
else
	not_ok "--kallsyms passwd: $(cat "$tmp/err")"
fi
printf '0000000000000000 T vfs_read\n0000000000000000 T ksys_read\n' > "$tmp/hidden"
expect_status 1 "--kallsyms on a copy made without root" -i "$tmp/t.raw" --flamegraph "$tmp/ks.svg" --kallsyms "$tmp/hidden"
if grep -q -- "--kallsyms: $tmp/hidden shows no addresses" "$tmp/err"; then ok "and says its addresses were hidden"; else not_ok "--kallsyms hidden: $(cat "$tmp/err")"; fi
expect_status 2 "--raw with a userspace-only filter" --raw -o "$tmp/r.raw" --comm x
expect_status 2 "--raw with several pids" --raw -o "$tmp/r.raw" -p 1,2
expect_status 2 "views with --raw" --raw -o "$tmp/r.raw" --hist

tap_end
