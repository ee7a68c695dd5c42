#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Structural checks of ringtrace-cat's file views (tests/views.sh).

check_views.py svg FILE TOTAL
    FILE parses as XML; the root frame "all" weighs TOTAL; the frames at
    depth 1 sum to it; every frame's children fit inside it (their weights
    sum to at most its own, their x ranges lie within its range).
check_views.py perfetto FILE EXPECT
    FILE parses as JSON (an array of trace events); EXPECT is
    "name=count,..." counts of events by name (slices, instants, metadata);
    slices on one thread either nest or are disjoint.
"""
import json
import sys
import xml.etree.ElementTree as ET

SVG = '{http://www.w3.org/2000/svg}'


def fail(msg):
    print('not ok -', msg)
    sys.exit(1)


def check_svg(path, total):
    root = ET.parse(path).getroot()
    frames = []
    for g in root.iter(SVG + 'g'):
        if g.get('data-v') is None:
            continue
        frames.append((int(g.get('data-d')), int(g.get('data-x')),
                       int(g.get('data-v')), g.find(SVG + 'title').text))
    roots = [f for f in frames if f[0] == 0]
    if len(roots) != 1 or roots[0][2] != total:
        fail('svg: root weighs %s, expected %d' % ([r[2] for r in roots], total))
    top = sum(f[2] for f in frames if f[0] == 1)
    if top != total:
        fail('svg: depth-1 frames sum to %d, expected %d' % (top, total))
    for d, x, v, title in frames:
        kids = [f for f in frames if f[0] == d + 1 and x <= f[1] < x + v]
        if sum(k[2] for k in kids) > v:
            fail('svg: children of %r weigh more than it' % title)
        for k in kids:
            if k[1] + k[2] > x + v:
                fail('svg: %r sticks out of %r' % (k[3], title))
    print('ok - svg: %d frames, total %d' % (len(frames), total))


def check_perfetto(path, expect):
    events = json.load(open(path))
    if not isinstance(events, list):
        fail('perfetto: not a JSON array')
    counts = {}
    for e in events:
        for key in ('ph', 'pid', 'tid', 'name'):
            if key not in e:
                fail('perfetto: event without %s: %r' % (key, e))
        counts[e['name']] = counts.get(e['name'], 0) + 1
    for item in expect.split(','):
        name, n = item.rsplit('=', 1)
        if counts.get(name, 0) != int(n):
            fail('perfetto: %d %r events, expected %s' % (counts.get(name, 0), name, n))
    threads = {}
    for e in events:
        if e['ph'] == 'X':
            threads.setdefault((e['pid'], e['tid']), []).append(
                (float(e['ts']), float(e['ts']) + float(e['dur']), e['name']))
    for key, slices in threads.items():
        slices.sort(key=lambda s: (s[0], -s[1]))
        open_ = []
        for s in slices:
            while open_ and open_[-1][1] <= s[0]:
                open_.pop()
            if open_ and s[1] > open_[-1][1]:
                fail('perfetto: %r overlaps %r on thread %r without nesting'
                     % (s, open_[-1], key))
            open_.append(s)
    print('ok - perfetto: %d events, %d thread tracks' % (len(events), len(threads)))


if __name__ == '__main__':
    if sys.argv[1] == 'svg':
        check_svg(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == 'perfetto':
        check_perfetto(sys.argv[2], sys.argv[3])
    else:
        fail('unknown check %s' % sys.argv[1])
