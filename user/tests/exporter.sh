#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/exporter.sh RINGTRACE_EXPORTER RINGTRACE_CAT MKRAW: ringtrace-exporter
# against real components, as TAP. It replays a committed VM recording
# (tests/data/vm-syms.raw: reads, pipes, cgroups, time off CPU) and a
# mkraw --ext file (locks, failed reads, lost records, an unnamed cgroup);
# promtool check metrics passes on what each serves; a real Prometheus
# server (Debian's prometheus, scripts/install-deps), started on a free port
# with a generated configuration, scrapes both; and PromQL over its HTTP
# API returns exactly the numbers ringtrace-cat -i FILE --summary --json -v
# (-v: every row, not a screenful) and --hist --json give for the same files (tests/check_exporter.py).
# Also: --textfile is written whole and parses, func calls have a histogram
# per function matching --summary, a recording's missed func
# calls are counted, and a usage error exits 2.
set -u
exporter=$(realpath "$1")
cat_bin=$(realpath "$2")
mkraw=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=user/tests/preamble.sh
. "$here/preamble.sh"

pids=()
# Ends what this test started, by pid, then removes $tmp.
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2> /dev/null
		wait "$p" 2> /dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# serve NAME FILE: replay FILE on a port of the kernel's choice; sets
# port_NAME from the line the exporter prints once the file is read.
serve() {
	local name=$1 file=$2 line
	"$exporter" -i "$file" --listen 127.0.0.1:0 2> "$tmp/$name.err" &
	pids+=($!)
	for _ in $(seq 100); do
		line=$(grep -o 'http://127.0.0.1:[0-9]*/metrics' "$tmp/$name.err")
		[[ -n $line ]] && break
		sleep 0.1
	done
	line=${line#http://127.0.0.1:}
	printf -v "port_$name" '%s' "${line%/metrics}"
}

"$mkraw" --ext "$tmp/ext.raw" || { echo "not ok 1 - mkraw"; exit 1; }
cp "$here/data/vm-syms.raw" "$tmp/syms.raw"
port_syms='' port_ext=''
serve syms "$tmp/syms.raw"
serve ext "$tmp/ext.raw"
for job in syms ext; do
	port_var=port_$job
	if [[ -n ${!port_var} ]] &&
		curl -sf "http://127.0.0.1:${!port_var}/metrics" -o "$tmp/$job.prom" &&
		promtool check metrics < "$tmp/$job.prom" > "$tmp/$job.lint" 2>&1; then
		ok "$job: /metrics served on port ${!port_var}, promtool check metrics passes ($(grep -vc '^#' "$tmp/$job.prom") samples)"
	else
		not_ok "$job: /metrics: $(head -c 500 "$tmp/$job.err" "$tmp/$job.lint" 2> /dev/null)"
	fi
	"$cat_bin" -q -i "$tmp/$job.raw" --summary --json -v > "$tmp/$job.summary.json"
	"$cat_bin" -q -i "$tmp/$job.raw" --hist --json > "$tmp/$job.hist.json"
done

# Prometheus on a free port, scraping both every second.
pport=$(free_port)
cat > "$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: syms
    static_configs:
      - targets: ['127.0.0.1:$port_syms']
  - job_name: ext
    static_configs:
      - targets: ['127.0.0.1:$port_ext']
EOF
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn \
	> "$tmp/prometheus.log" 2>&1 &
pids+=($!)
url=http://127.0.0.1:$pport
# Both targets scraped once: the exporter serves a replay only once read,
# so the first scrape holds every number.
scraped=
for _ in $(seq 300); do
	if curl -sf "$url/api/v1/query" --data-urlencode \
		'query=count(ringtrace_exporter_series_limit)' 2> /dev/null |
		grep -q '"value":\[[0-9.]*,"2"\]'; then
		scraped=1
		break
	fi
	sleep 0.1
done
if [[ -n $scraped ]]; then
	ok "prometheus $(prometheus --version 2>&1 | head -1 | cut -d' ' -f3) scraped both exporters"
	out=$(python3 "$here/check_exporter.py" --first $((n + 1)) "$url" \
		syms "$tmp/syms.summary.json" "$tmp/syms.hist.json" \
		ext "$tmp/ext.summary.json" "$tmp/ext.hist.json")
	rc=$?
	echo "$out"
	n=$((n + $(grep -cE '^(not )?ok ' <<< "$out")))
	failed=$((failed + $(grep -c '^not ok ' <<< "$out")))
	[[ $rc -eq 0 ]] || [[ $failed -gt 0 ]] || not_ok "check_exporter.py exited $rc"
else
	not_ok "prometheus never scraped both exporters: $(tail -c 1000 "$tmp/prometheus.log")"
fi

# --textfile: the same text, written whole (no PATH.tmp left), and it parses.
if "$exporter" -q -i "$tmp/ext.raw" --listen none --textfile "$tmp/ext.txt" &&
	[[ ! -e $tmp/ext.txt.tmp ]] && promtool check metrics < "$tmp/ext.txt" &&
	diff <(grep -v reader_cpu "$tmp/ext.txt") <(grep -v reader_cpu "$tmp/ext.prom") > /dev/null; then
	ok "--textfile: the text /metrics serves, written atomically, promtool passes"
else
	not_ok "--textfile"
fi
# The calls the probes of -e func:NAME missed: a recording's FUNC_MISSED
# chunks (kind 13, a u64 each; two here, 30 and 6) add up in their own
# counter; a recording without them says 0.
cp "$tmp/ext.raw" "$tmp/missed.raw"
python3 -c 'import struct, sys
with open(sys.argv[1], "ab") as f:
    for n in (30, 6):
        f.write(struct.pack("<IIQQ", 13, 0, 8, n))' "$tmp/missed.raw"
if "$exporter" -q -i "$tmp/missed.raw" --listen none --textfile "$tmp/missed.txt" &&
	grep -qx 'ringtrace_exporter_func_missed_total 36' "$tmp/missed.txt" &&
	grep -qx '# TYPE ringtrace_exporter_func_missed_total counter' "$tmp/missed.txt" &&
	grep -qx 'ringtrace_exporter_func_missed_total 0' "$tmp/ext.txt" &&
	promtool check metrics < "$tmp/missed.txt" > /dev/null 2>&1; then
	ok "func calls the probes missed: the recording's FUNC_MISSED chunks, 0 without"
else
	not_ok "func_missed_total: $(grep func_missed "$tmp/missed.txt" "$tmp/ext.txt")"
fi
# Calls of -e func:NAME's functions: a VM recording of --graph vfs_read
# (tests/data/vm-graph-4k.raw) gives a latency histogram per (cgroup,
# comm, function), each function named after the recording's symbols (its
# KSYMS chunk), whose counts and sums add up to ringtrace-cat --summary's
# calls and total per function; promtool reads the text.
"$exporter" -q -i "$here/data/vm-graph-4k.raw" --listen none --textfile "$tmp/func.txt"
"$cat_bin" -i "$here/data/vm-graph-4k.raw" --summary --json -v > "$tmp/func.json" 2> /dev/null
if promtool check metrics < "$tmp/func.txt" > /dev/null 2>&1 &&
	python3 - "$tmp/func.txt" "$tmp/func.json" <<'PY'
import collections, json, re, sys
text = open(sys.argv[1]).read()
want = {f["func"]: (f["calls"], f["total_ns"])
        for f in json.load(open(sys.argv[2]))["summary"]["funcs"]}
got = collections.defaultdict(lambda: [0, 0])
for fn, n in re.findall(r'^ringtrace_func_duration_seconds_count\{.*,function="([^"]*)"\} (\d+)$', text, re.M):
    got[fn][0] += int(n)
for fn, s, ns in re.findall(r'^ringtrace_func_duration_seconds_sum\{.*,function="([^"]*)"\} (\d+)\.(\d{9})$', text, re.M):
    got[fn][1] += int(s) * 1000000000 + int(ns)
got = {k: tuple(v) for k, v in got.items()}
assert len(want) == 6 and got == want, (got, want)
assert re.search(r'^ringtrace_exporter_records_total\{event="func"\} %d$' %
                 sum(c for c, _ in want.values()), text, re.M)
PY
then
	ok "func calls: a histogram per function, named, matching ringtrace-cat --summary's calls and totals"
else
	not_ok "func calls: $(grep func_duration_seconds_count "$tmp/func.txt" | head -5)"
fi
# A cardinality limit: the first 2 keys (reads, or locks and time off CPU)
# have series of their own, the rest count in "[other]", no count lost.
"$exporter" -q -i "$tmp/syms.raw" --listen none --max-series 2 --textfile "$tmp/lim.txt"
if python3 - "$tmp/lim.txt" "$tmp/syms.hist.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
want = json.load(open(sys.argv[2]))['hist']['all']['vfs_read']['count']
counts = re.findall(r'^ringtrace_vfs_read_duration_seconds_count\{(.*)\} (\d+)$', text, re.M)
assert len(counts) <= 3 and sum(int(c) for _, c in counts) == want, counts
assert 'comm="[other]",class="other"' in counts[-1][0], counts
assert re.search(r'^ringtrace_exporter_series 2$', text, re.M)
assert int(re.search(r'^ringtrace_exporter_other_records_total (\d+)$', text, re.M)[1]) > 0
PY
then
	ok "--max-series 2: two keys, then [other]; counts add up to --hist's"
else
	not_ok "--max-series 2: $(grep _count "$tmp/lim.txt" | head -5)"
fi
# Names that would break a line (newline, quote, backslash in comm, path
# and cgroup): escaped, and promtool reads the text.
if "$mkraw" --names "$tmp/names.raw" &&
	"$exporter" -q -i "$tmp/names.raw" --listen none --textfile "$tmp/names.txt" &&
	promtool check metrics < "$tmp/names.txt" > "$tmp/names.lint" 2>&1 &&
	grep -qF 'comm="two\nlines"' "$tmp/names.txt"; then
	ok "odd names (mkraw --names) escaped: promtool check metrics passes"
else
	not_ok "odd names: $(head -c 500 "$tmp/names.lint")"
fi
"$exporter" --max-series 0 > /dev/null 2> "$tmp/usage.err"
rc=$?
if [[ $rc -eq 2 ]] && grep -q -- '--max-series' "$tmp/usage.err"; then
	ok "a usage error exits 2 and names the option"
else
	not_ok "usage error: exit $rc, $(head -c 200 "$tmp/usage.err")"
fi
tap_end
