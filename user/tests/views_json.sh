#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/views_json.sh RINGTRACE_CAT MKRAW: the JSON of --hist, --hist-by,
# --summary and --interval holds every number of their text, as TAP. Each
# view is printed twice from the same recording (tests/tools/mkraw), as
# text and with --json, and tests/check_views_json.py draws the text again
# from the JSON: it must come out byte for byte. Errors with --json are
# JSON objects on standard output too.
set -u
cat_bin=$(realpath "$1")
mkraw=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=user/tests/preamble.sh
. "$here/preamble.sh"

# same FILE NAME ARGS...: -i FILE ARGS as text and as JSON, compared.
same() {
	local file=$1 name=$2 out
	shift 2
	if ! "$cat_bin" -q -i "$file" "$@" > "$tmp/$name.txt" 2> "$tmp/$name.err" ||
		! "$cat_bin" -q -i "$file" --json "$@" > "$tmp/$name.json" 2>> "$tmp/$name.err"; then
		not_ok "$name: $(head -c 300 "$tmp/$name.err")"
		return
	fi
	if out=$(python3 "$here/check_views_json.py" "$tmp/$name.txt" "$tmp/$name.json"); then
		ok "$name: ${out#ok - }"
	else
		not_ok "$name (${*}): ${out#not ok - }"
	fi
}

if ! "$mkraw" "$tmp/t.raw" || ! "$mkraw" --ext "$tmp/ext.raw" ||
	! "$mkraw" --v2 "$tmp/v2.raw"; then
	echo "not ok 1 - mkraw"
	exit 1
fi

for f in t ext v2; do
	same "$tmp/$f.raw" "$f-hist" --hist
	same "$tmp/$f.raw" "$f-summary" --summary
	for by in comm pid file cgroup; do
		same "$tmp/$f.raw" "$f-hist-by-$by" --hist-by "$by" --summary
	done
	same "$tmp/$f.raw" "$f-locks" -e lock --hist-by file
	same "$tmp/$f.raw" "$f-interval" --hist --summary --interval 150us
done
same "$tmp/ext.raw" ext-offcpu -e vfs_read,offcpu --hist-by file --summary -v
same "$tmp/t.raw" filtered --filter 'lat > 2us' --hist-by comm --summary

# The blocks of a replay's --interval cover the records' clock from the
# first one, each as long as asked, and the events in them add up.
"$cat_bin" -q -i "$tmp/t.raw" --hist --json --interval 150us > "$tmp/iv.json" &&
	"$cat_bin" -q -i "$tmp/t.raw" --hist --json > "$tmp/all.json"
if python3 - "$tmp/iv.json" "$tmp/all.json" <<'PY'
import json, sys
blocks = [json.loads(l) for l in open(sys.argv[1])]
whole = json.loads(open(sys.argv[2]).read())['hist']['all']['vfs_read']['count']
total = sum(b['hist']['all'].get('vfs_read', {'count': 0})['count'] for b in blocks)
assert [b['interval'] for b in blocks] == list(range(1, len(blocks) + 1))
for a, b in zip(blocks, blocks[1:]):
    assert a['to_ns'] == b['from_ns'], (a, b)
    assert 'to_ns' not in b or b['to_ns'] - b['from_ns'] == 150000, b
assert 'to_ns' not in blocks[-1] and len(blocks) > 3, blocks[-1]
assert total == whole, (total, whole)
PY
then
	ok "--interval on replay: $(wc -l < "$tmp/iv.json") consecutive 150us blocks hold every vfs_read of the whole run"
else
	not_ok "--interval on replay: $(head -c 300 "$tmp/iv.json")"
fi

# Errors: text on standard error, and with --json a JSON object on
# standard output, usage errors included.
"$cat_bin" -i "$tmp/missing.raw" --hist --json > "$tmp/err.out" 2> "$tmp/err.err"
rc=$?
if [[ $rc -eq 1 ]] && python3 -c 'import json,sys; e = json.loads(open(sys.argv[1]).read())["error"]; assert "missing.raw" in e, e' "$tmp/err.out" &&
	grep -q "^ringtrace-cat: cannot open .*missing.raw" "$tmp/err.err"; then
	ok "an error with --json: {\"error\":...} on standard output, the text on standard error (exit $rc)"
else
	not_ok "an error with --json: exit $rc, stdout $(head -c 200 "$tmp/err.out")"
fi
"$cat_bin" -i "$tmp/t.raw" --summary --json --interval 1y > "$tmp/err.out" 2> "$tmp/err.err"
rc=$?
if [[ $rc -eq 2 ]] && python3 -c 'import json,sys; e = json.loads(open(sys.argv[1]).read())["error"]; assert "--interval" in e, e' "$tmp/err.out"; then
	ok "a usage error with --json is a JSON object too (exit $rc)"
else
	not_ok "a usage error with --json: exit $rc, stdout $(head -c 200 "$tmp/err.out")"
fi
"$cat_bin" -i "$tmp/missing.raw" --hist > "$tmp/err.out" 2> /dev/null
if [[ ! -s $tmp/err.out ]]; then
	ok "without --json, nothing on standard output for an error"
else
	not_ok "without --json, an error printed on standard output: $(head -c 200 "$tmp/err.out")"
fi
tap_end
