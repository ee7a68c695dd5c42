#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ringtrace-cat --graph vfs_read: dd makes exactly N reads of a size
# nothing else reads, from a file in a ramfs (always in the page cache:
# generic_file_read_iter -> filemap_read -> filemap_get_pages on every
# kernel). With --graph-funcs filemap_read,filemap_get_pages, the text
# shows exactly N such reads of the file, each with one filemap_read at
# depth 1 holding its filemap_get_pages at depth 2, every duration within
# the read's latency and the parent's self time its duration less its
# children's and its own off-CPU time (a preemption may put an [off-cpu]
# line anywhere: not the shape); the JSON objects hold the same shape; a raw recording
# replayed as text and as JSON gives the same spans, named, and the JSON
# equals the text span for span; --graph-depth 1 hides the inner spans
# and counts them; --min-latency above every read keeps no read and
# counts the recorded spans (and off-CPU intervals) as outside one; the default list graphs
# filemap_read too; globs that expand to nothing or to more than
# RINGTRACE_MAX_FUNCS functions are refused. A second recording of reads 8 times larger,
# compared with the first by --diff --graph vfs_read: each column of its
# --folded is that recording's own --graph --folded, line for line and in
# total, and the --summary table's self times add up to the same totals.
# Needs root (mount) and ringtrace.ko loaded (the runner does it).
#
# The probes are attached while dd is held (ringtrace-cat starts the
# COMMAND stopped until ENABLE), as func_cli.sh does: under TCG attaching
# a probe on a function another vCPU runs can crash the guest.
set -u
here=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=selftests/ringtrace/st_tools.sh
. "$here/st_tools.sh"

[[ -x $cat ]] || tap_skip_all "tools not built (make -C user)"
tap_plan 9

n=17
size=1234
st_ramfs
file=$fs/f
dd if=/dev/zero of="$file" bs="$size" count="$n" status=none
funcs=filemap_read,filemap_get_pages

# Reads of $file by dd as "N ok" or the first reason one is not.
cat >"$work/check.py" <<'PY'
import json, re, sys

def us_ns(s):
    a, b = s.split(".")
    return int(a) * 1000 + int(b)

def text_reads(path):
    reads, cur, stack = [], None, []
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("  |"):
            body = line[3:]
            depth = (len(body) - len(body.lstrip(" "))) // 2
            body = body.strip()
            m = re.fullmatch(r"\} ([0-9.]+)us \(self ([0-9.]+)us"
                             r"(?: on-cpu, ([0-9.]+)us off-cpu)?\)", body)
            if m:
                span = stack.pop()
                span["dur"], span["self"] = us_ns(m[1]), us_ns(m[2])
                span["off"] = us_ns(m[3]) if m[3] else 0
                continue
            # A preemption or a wait inside a span: not the tree's shape.
            if re.match(r"\[off-cpu \S+\] [0-9.]+us", body) and cur:
                continue
            m = re.fullmatch(r"(\S+)\(\) (\{|([0-9.]+)us)", body)
            if not m or cur is None:
                raise SystemExit("bad graph line: " + line)
            span = {"func": m[1], "depth": depth}
            cur["graph"].append(span)
            if m[2] == "{":
                stack.append(span)
            else:
                span["dur"] = span["self"] = us_ns(m[3])
                span["off"] = 0
            continue
        m = re.search(r"^\s*(\S+)\s.*vfs_read: .* count=(\d+) ret=(-?\d+) "
                      r"lat=([0-9.]+)us.* file=(\S+)", line)
        cur = None
        if m:
            cur = {"comm": m[1], "count": int(m[2]), "ret": int(m[3]),
                   "lat_ns": us_ns(m[4]), "path": m[5], "graph": []}
            reads.append(cur)
    return reads

def json_reads(path):
    reads = []
    for line in open(path):
        e = json.loads(line)
        if e.get("type") != "vfs_read":
            continue
        e["graph"] = [s for s in e["graph"] if s["kind"] == "func"]
        for s in e["graph"]:
            s["dur"], s["self"] = s.pop("dur_ns"), s.pop("self_ns")
            s["off"] = s.pop("offcpu_ns")
        reads.append(e)
    return reads

def mine(reads, size, path):
    return [r for r in reads if r.get("comm") == "dd" and
            r.get("path") == path and r["count"] == size]

def shape(r, size):
    """Why read r is not one filemap_read holding filemap_get_pages."""
    g = r["graph"]
    if r["ret"] != size:
        return "ret %d" % r["ret"]
    if not g or g[0]["func"] != "filemap_read" or g[0]["depth"] != 1:
        return "first span not filemap_read at depth 1: %s" % g
    inner = g[1:]
    if not inner or any(s["func"] != "filemap_get_pages" or s["depth"] != 2
                        for s in inner):
        return "filemap_read's children are not filemap_get_pages at 2: %s" % g
    if any(s["dur"] > r["lat_ns"] for s in g):
        return "a span longer than the read's %dns: %s" % (r["lat_ns"], g)
    if g[0]["self"] + g[0]["off"] != g[0]["dur"] - sum(s["dur"] for s in inner):
        return "self time is not duration less children: %s" % g
    if "entry_ns" in g[0]:
        start = r["ts_ns"] - r["lat_ns"]
        for s in g:
            if s["entry_ns"] < start or s["entry_ns"] + s["dur"] > r["ts_ns"]:
                return "a span outside the read: %s" % s
        p = g[0]
        for s in inner:
            if s["entry_ns"] < p["entry_ns"] or \
               s["entry_ns"] + s["dur"] > p["entry_ns"] + p["dur"]:
                return "a depth-2 span outside its parent: %s" % s
    return None

mode, out, size, path, n = sys.argv[1:6]
size, n = int(size), int(n)
if mode == "text":
    reads = mine(text_reads(out), size, path)
elif mode == "json":
    reads = mine(json_reads(out), size, path)
elif mode == "same":
    t = mine(text_reads(out), size, path)
    j = mine(json_reads(sys.argv[6]), size, path)
    strip = lambda g: [{k: s[k] for k in ("func", "depth", "dur", "self", "off")}
                       for s in g]
    if len(t) != n or len(j) != n:
        raise SystemExit("%d text and %d JSON reads, not %d" % (len(t), len(j), n))
    for a, b in zip(t, j):
        if strip(a["graph"]) != strip(b["graph"]) or a["lat_ns"] != b["lat_ns"]:
            raise SystemExit("text %s != JSON %s" % (a, b))
    print("%d ok" % n)
    sys.exit(0)
elif mode == "depth1":
    reads = mine(text_reads(out), size, path)
    bad = [r for r in reads if [s["func"] for s in r["graph"]] != ["filemap_read"]
           or r["graph"][0]["depth"] != 1]
    if len(reads) != n or bad:
        raise SystemExit("%d reads, not %d, or not one filemap_read leaf: %s"
                         % (len(reads), n, bad[:1]))
    print("%d ok" % n)
    sys.exit(0)
elif mode == "default":
    reads = mine(text_reads(out), size, path)
    bad = [r for r in reads if "filemap_read" not in
           [s["func"] for s in r["graph"]]]
    if len(reads) != n or bad:
        raise SystemExit("%d reads, not %d, or one without filemap_read: %s"
                         % (len(reads), n, bad[:1]))
    print("%d ok" % n)
    sys.exit(0)
if len(reads) != n:
    raise SystemExit("%d reads of %s by dd, not %d" % (len(reads), path, n))
for r in reads:
    why = shape(r, size)
    if why:
        raise SystemExit(why)
print("%d ok" % n)
PY

run_dd() {
	"$cat" --graph vfs_read "$@" -- dd if="$file" of=/dev/null \
		bs="$size" count="$n" status=none
}

run_dd --graph-funcs "$funcs" >"$work/t.txt" 2>"$work/t.err"
rc=$?
why=$(python3 "$work/check.py" text "$work/t.txt" "$size" "$file" "$n" 2>&1)
[[ $rc -eq 0 && $why == "$n ok" ]] && grep -q "^graph: " "$work/t.txt"
tap_ok $? "text: $n reads, each filemap_read { filemap_get_pages } within its time ($why, exit $rc)" ||
	{ tap_diag <"$work/t.err"; head -20 "$work/t.txt" | tap_diag; }

run_dd --graph-funcs "$funcs" --json >"$work/j.json" 2>"$work/j.err"
rc=$?
why=$(python3 "$work/check.py" json "$work/j.json" "$size" "$file" "$n" 2>&1)
[[ $rc -eq 0 && $why == "$n ok" ]] &&
	tail -1 "$work/j.json" | grep -q '^{"type":"graph_summary"'
tap_ok $? "JSON: $n reads with the same graph, entries inside the read and the parent ($why, exit $rc)" ||
	{ tap_diag <"$work/j.err"; head -3 "$work/j.json" | tap_diag; }

run_dd --graph-funcs "$funcs" --raw -o "$work/r.raw" 2>"$work/r.err"
rc=$?
"$cat" -i "$work/r.raw" --graph vfs_read >"$work/r.txt" 2>"$work/r.replay"
replay=$?
why=$(python3 "$work/check.py" text "$work/r.txt" "$size" "$file" "$n" 2>&1)
[[ $rc -eq 0 && $replay -eq 0 && $why == "$n ok" ]] &&
	! grep -qE "corrupt|damaged|stay hex" "$work/r.replay" "$work/r.txt"
tap_ok $? "raw: recorded, replayed as the same graph with names ($why, exit $rc, replay $replay)" ||
	{ tap_diag <"$work/r.err"; tap_diag <"$work/r.replay"; head -8 "$work/r.txt" | tap_diag; }

"$cat" -i "$work/r.raw" --graph vfs_read --json >"$work/r.json" 2>"$work/rj.err"
rc=$?
why=$(python3 "$work/check.py" same "$work/r.txt" "$size" "$file" "$n" "$work/r.json" 2>&1)
[[ $rc -eq 0 && $why == "$n ok" ]]
tap_ok $? "replayed JSON equals replayed text, span for span ($why, exit $rc)" ||
	{ tap_diag <"$work/rj.err"; head -2 "$work/r.json" | tap_diag; }

"$cat" -i "$work/r.raw" --graph vfs_read --graph-depth 1 >"$work/d.txt" 2>"$work/d.err"
rc=$?
why=$(python3 "$work/check.py" depth1 "$work/d.txt" "$size" "$file" "$n" 2>&1)
[[ $rc -eq 0 && $why == "$n ok" ]] &&
	grep -qE "^graph: .*, [1-9][0-9]* deeper than --graph-depth hidden" "$work/d.txt"
tap_ok $? "--graph-depth 1: filemap_read alone, the inner spans counted hidden ($why, exit $rc)" ||
	{ tap_diag <"$work/d.err"; tail -3 "$work/d.txt" | tap_diag; }

# The recording holds every span; reads under --min-latency are dropped,
# and with them go their spans, counted.
"$cat" -i "$work/r.raw" --graph vfs_read --min-latency 60s >"$work/m.txt" 2>"$work/m.err"
rc=$?
outside=$(sed -n 's/^graph: 0 reads, 0 spans shown, \([0-9]*\) outside a read (dropped)\(; off-cpu: 0 intervals shown (0.000us), [0-9]* outside a read (dropped)\)\{0,1\}$/\1/p' "$work/m.txt")
[[ $rc -eq 0 && -n $outside && $outside -ge $((2 * n)) ]] &&
	! grep -q "vfs_read:" "$work/m.txt"
tap_ok $? "--min-latency 60s: no read, the $((2 * n)) or more spans counted outside one (${outside:-none}, exit $rc)" ||
	{ tap_diag <"$work/m.err"; tap_diag <"$work/m.txt"; }

run_dd >"$work/def.txt" 2>"$work/def.err"
rc=$?
why=$(python3 "$work/check.py" default "$work/def.txt" "$size" "$file" "$n" 2>&1)
[[ $rc -eq 0 && $why == "$n ok" ]]
tap_ok $? "default functions: $n reads, each with filemap_read ($why, exit $rc)" ||
	{ tap_diag <"$work/def.err"; head -12 "$work/def.txt" | tap_diag; }

"$cat" --graph vfs_read --graph-funcs 'ringtrace_no_such_fn_*' -- true \
	>/dev/null 2>"$work/none.err"
rc1=$?
# Every function: far more than a session may trace, refused before any
# probe attaches.
limit=$(st_max_funcs)
"$cat" --graph vfs_read --graph-funcs '*' -- true \
	>/dev/null 2>"$work/many.err"
rc2=$?
[[ $rc1 -eq 2 && $rc2 -eq 2 ]] && grep -q "matches no function" "$work/none.err" &&
	grep -q "at most $limit per session" "$work/many.err"
tap_ok $? "globs that match nothing or more than $limit functions are refused (exit $rc1, $rc2)" ||
	{ tap_diag <"$work/none.err"; tap_diag <"$work/many.err"; }

# --diff --graph: a second recording, reads of 8 x $size from its own file.
size2=$((8 * size))
file2=$fs/f2
dd if=/dev/zero of="$file2" bs="$size2" count="$n" status=none
"$cat" --graph vfs_read --graph-funcs "$funcs" --raw -o "$work/r2.raw" -- \
	dd if="$file2" of=/dev/null bs="$size2" count="$n" status=none \
	2>"$work/r2.err"
rc=$?
for r in r r2; do
	"$cat" -q -i "$work/$r.raw" --graph vfs_read --folded | LC_ALL=C sort >"$work/$r.folded"
done
"$cat" -q --diff "$work/r.raw" "$work/r2.raw" --graph vfs_read --folded \
	--no-normalize >"$work/diff.folded" 2>"$work/diff.err"
rc_diff=$?
"$cat" -q --diff "$work/r.raw" "$work/r2.raw" --graph vfs_read --summary \
	--json >"$work/diff.json" 2>>"$work/diff.err"
rc_json=$?
# The lines of each side (the other side's own stacks are 0 here).
awk '$2 { print $1, $2 }' "$work/diff.folded" | LC_ALL=C sort >"$work/diff.col2"
awk '$3 { print $1, $3 }' "$work/diff.folded" | LC_ALL=C sort >"$work/diff.col3"
sum() { awk -v c="$1" '{ s += $c } END { print s + 0 }' "$2"; }
t1=$(sum 2 "$work/r.folded")
t2=$(sum 2 "$work/r2.folded")
d1=$(sum 2 "$work/diff.folded")
d2=$(sum 3 "$work/diff.folded")
selfs=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(*(sum(f["self_ns"][i] for f in d["functions"]) for i in (0, 1)))' "$work/diff.json" 2>&1)
[[ $rc -eq 0 && $rc_diff -eq 0 && $rc_json -eq 0 && $t1 -gt 0 && $t2 -gt 0 &&
	$d1 -eq $t1 && $d2 -eq $t2 && $selfs == "$t1 $t2" ]] &&
	cmp -s "$work/diff.col2" "$work/r.folded" &&
	cmp -s "$work/diff.col3" "$work/r2.folded" &&
	grep -q '"func":"filemap_get_pages"' "$work/diff.json"
tap_ok $? "--diff --graph: each column is its recording's --graph --folded ($d1 = $t1, $d2 = $t2 ns; table self $selfs; exit $rc, $rc_diff, $rc_json)" ||
	{ tap_diag <"$work/r2.err"; tap_diag <"$work/diff.err"; head -5 "$work/diff.folded" | tap_diag; }
