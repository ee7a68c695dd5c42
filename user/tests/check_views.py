#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Structural checks of ringtrace-cat's file views (tests/views.sh).

check_views.py svg FILE TOTAL
    FILE parses as XML; the root frame "all" weighs TOTAL; the frames at
    depth 1 sum to it; every frame's children fit inside it (their weights
    sum to at most its own, their x ranges lie within its range).
check_views.py diffsvg FILE AFTER BEFORE SIGNS
    FILE is a differential flame graph (ringtrace-cat --diff): the svg
    checks above with AFTER as the total, the root's data-b is BEFORE,
    widths are proportional to data-v (AFTER's shape), each frame's colour
    has the sign of data-v - data-b (red grew, blue shrank, grey the
    same); SIGNS is "name=+,name=-,name=0,..." (every frame of that name;
    "*=0": every frame).
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


def colour_sign(fill):
    r, g, b = (int(c) for c in fill[4:-1].split(','))
    if r == 255 and g == b and g <= 210:
        return 1
    if b == 255 and r == g and r <= 210:
        return -1
    if (r, g, b) == (225, 225, 225):
        return 0
    fail('diffsvg: %s is not a differential colour' % fill)


def check_diffsvg(path, after, before, signs):
    check_svg(path, after)
    root = ET.parse(path).getroot()
    if root.get('data-diff') != '1':
        fail('diffsvg: no data-diff on <svg>')
    want = {}
    for item in signs.split(','):
        if item:
            name, s = item.rsplit('=', 1)
            want[name] = {'+': 1, '-': -1, '0': 0}[s]
    scale = None
    seen = set()
    for g in root.iter(SVG + 'g'):
        if g.get('data-v') is None:
            continue
        v, b = int(g.get('data-v')), int(g.get('data-b'))
        name = g.find(SVG + 'title').text.split(' (before ')[0]
        rect = g.find(SVG + 'rect')
        if g.get('data-d') == '0':
            if b != before:
                fail('diffsvg: root before %d, expected %d' % (b, before))
            scale = float(rect.get('width')) / v
        elif abs(float(rect.get('width')) - v * scale) > 0.01:
            fail('diffsvg: %r is %s px wide for %d' % (name, rect.get('width'), v))
        got = colour_sign(rect.get('fill'))
        expect = (v > b) - (v < b)
        if got != expect:
            fail('diffsvg: %r %d -> %d coloured %d' % (name, b, v, got))
        for key in (name, '*'):
            if key in want and want[key] != got:
                fail('diffsvg: %r %d -> %d: sign %d, expected %d'
                     % (name, b, v, got, want[key]))
        seen.add(name)
    for name in want:
        if name != '*' and name not in seen:
            fail('diffsvg: no frame %r' % name)
    print('ok - diffsvg: %d -> %d, signs %s' % (before, after, signs))


if __name__ == '__main__':
    if sys.argv[1] == 'svg':
        check_svg(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == 'diffsvg':
        check_diffsvg(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
                      sys.argv[5] if len(sys.argv) > 5 else '')
    elif sys.argv[1] == 'perfetto':
        check_perfetto(sys.argv[2], sys.argv[3])
    else:
        fail('unknown check %s' % sys.argv[1])
