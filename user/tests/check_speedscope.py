#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What speedscope showed against ringtrace's own numbers (tests/browser.sh).

OUT.json is scripts/browser/speedscope.js's: the Sandwich table (name,
total, self of every frame) and speedscope's export of what it imported.

check_speedscope.py folded OUT.json FOLDED
    The Sandwich table lists exactly the frames of ringtrace's folded
    stacks, each with the samples ringtrace counted for it: total (stacks
    it is in, once per stack) and self (stacks it ends); the profile spans
    all the samples.
check_speedscope.py trace OUT.json JSONL
    The profiles speedscope made of ringtrace's --perfetto file hold, for
    every thread, as many slices as the recording (ringtrace-cat --json,
    JSONL) has for that thread, lasting as long in all (to the
    nanosecond): one per vfs_read record (its latency), and per lock
    record a wait slice (wait_ns) and a hold slice (hold_ns), each when
    not zero.
"""
import collections
import json
import re
import sys


def fail(msg):
    print('not ok - ' + msg)
    sys.exit(1)


def check_folded(out, folded):
    total = collections.Counter()
    self_ = collections.Counter()
    samples = 0
    for line in open(folded):
        stack, n = line.rstrip('\n').rsplit(' ', 1)
        frames = stack.split(';')
        n = int(n)
        samples += n
        for f in set(frames):
            total[f] += n
        self_[frames[-1]] += n
    rows = out['sandwich']
    shown = {name: (t, s) for name, t, s in rows}
    if len(shown) != len(rows):
        fail('speedscope: a frame listed twice in the Sandwich table')
    want = {f: (total[f], self_[f]) for f in total}
    if shown != want:
        diff = sorted(set(shown.items()) ^ set(want.items()))[:4]
        fail('Sandwich: %d frames, ringtrace %d; differing (name, (total, self)): %r'
             % (len(shown), len(want), diff))
    profile = out['exported']['profiles'][0]
    if profile['endValue'] - profile['startValue'] != samples:
        fail('speedscope spans %s samples, ringtrace counted %d'
             % (profile['endValue'] - profile['startValue'], samples))
    print('ok - speedscope shows the %d frames of %d samples with ringtrace\'s totals'
          % (len(shown), samples))


def check_trace(out, jsonl):
    want = collections.defaultdict(lambda: [0, 0])
    for line in open(jsonl):
        r = json.loads(line)
        if r['type'] == 'vfs_read':
            durations = [r['lat_ns']]
        elif r['type'] == 'lock':
            durations = [d for d in (r['wait_ns'], r['hold_ns']) if d]
        else:
            continue
        want[r['tid']][0] += len(durations)
        want[r['tid']][1] += sum(durations)
    exported = out['exported']
    frames = exported['shared']['frames']
    got = {}
    for p in exported['profiles']:
        m = re.search(r'\(tid (\d+)\)', p['name'])
        if not m:
            continue
        opened = collections.defaultdict(list)
        count, dur = 0, 0.0
        for e in p['events']:
            if e['type'] == 'O':
                opened[e['frame']].append(e['at'])
                count += 1
            else:
                dur += e['at'] - opened[e['frame']].pop()
        if count:
            got[int(m.group(1))] = [count, dur]
    if sorted(got) != sorted(want):
        fail('threads with slices: speedscope %r, ringtrace %r'
             % (sorted(got), sorted(want)))
    for tid, (count, ns) in want.items():
        c, us = got[tid]
        # Microseconds with 3 decimals in the file: exact to rounding.
        if c != count or abs(us * 1000 - ns) > 0.5:
            fail('tid %d: speedscope %d slices, %.3f us; ringtrace %d, %d ns'
                 % (tid, c, us, count, ns))
    print('ok - speedscope: %d threads, %d slices, each thread\'s '
          'count and total duration equal ringtrace\'s'
          % (len(want), sum(v[0] for v in want.values())))


if __name__ == '__main__':
    data = json.load(open(sys.argv[2]))
    if sys.argv[1] == 'folded':
        check_folded(data, sys.argv[3])
    elif sys.argv[1] == 'trace':
        check_trace(data, sys.argv[3])
    else:
        fail('unknown check %s' % sys.argv[1])
