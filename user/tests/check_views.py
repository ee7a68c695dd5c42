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
check_views.py report REPORT FOLDED
    REPORT is --report[-by] --json -v (every row), FOLDED --folded of the
    same recording and weight: self weights sum to the total, which is
    FOLDED's; each row's percentages are its weights over the total
    (truncated to hundredths); children >= self; and the rows equal what
    FOLDED implies: by comm, the roots' weights; by sym, the weight of the
    lines each name ends (self) and appears in (children), names compared
    as folded prints them ("vfs_read_[k]" for "vfs_read" or
    "x_[k]" for "x[module]", "f" for "f(libc.so.6)").
"""
import json
import re
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


def check_svg_folded(path, folded):
    """The SVG draws exactly --folded's lines: the weight of each name at
    each depth is the same in both (frames below the 64 drawn levels
    aside)."""
    root = ET.parse(path).getroot()
    drawn, lines = {}, {}
    for g in root.iter(SVG + 'g'):
        if g.get('data-v') is None or int(g.get('data-d')) == 0:
            continue
        title = g.find(SVG + 'title').text
        key = (int(g.get('data-d')), title[:title.rindex(' (')])
        drawn[key] = drawn.get(key, 0) + int(g.get('data-v'))
    with open(folded) as f:
        for line in f:
            stack, count = line.rsplit(' ', 1)
            for depth, name in enumerate(stack.split(';')[:64], 1):
                lines[(depth, name)] = lines.get((depth, name), 0) + int(count)
    if drawn != lines:
        fail('svg: frames differ from the folded lines: %s'
             % sorted(set(drawn.items()) ^ set(lines.items()))[:6])
    print('ok - svg: the %d frames weigh as the folded lines'
          % len(drawn))


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


def is_file(name):
    """A vfs_read's file (no stack: the file is the frame): a path, a pipe
    or socket ("pipe:[11069]"), or "MAJ:MIN ino N" ("_" in folded)."""
    return (name.startswith('/') or re.match(r'[a-z_]+:\[', name) or
            re.fullmatch(r'\d+:\d+[ _]ino[ _]\d+', name))


def report_key(key):
    """A report row's key as folded names that frame (kernel: k:, user: u:,
    file: f:)."""
    if key == '[no stack]':
        return key
    if is_file(key):
        return 'f:' + key.replace(' ', '_').replace(';', '_')
    if key.startswith('[unknown]('):
        return 'u:' + key
    if key.endswith(')'):
        return 'u:' + key[:key.rindex('(')]
    if key.endswith(']'):
        return 'k:' + key[:key.rindex('[')]
    if key.startswith('0x'):
        return ('k:' if int(key, 16) >= 1 << 63 else 'u:') + key
    return 'k:' + key


def folded_key(frame):
    if is_file(frame):
        return 'f:' + frame
    if frame.endswith('_[k]'):
        return 'k:' + frame[:-4]
    m = re.fullmatch(r'(.+)\+0x[0-9a-f]+', frame)
    if m and not frame.startswith('0x'):
        return 'u:[unknown](%s)' % m.group(1)
    return 'u:' + frame


def check_report(path, folded):
    with open(path) as f:
        rep = json.load(f)
    total, by = rep['total'], rep['report']
    rows = rep['rows']
    if sum(r['self'] for r in rows) != total:
        fail('report: self weights sum to %d, total %d'
             % (sum(r['self'] for r in rows), total))
    for r in rows:
        for k in ('self', 'children'):
            # Rounded to the nearest hundredth, half up, as the SVG does.
            want = '%d.%02d' % divmod((r[k] * 20000 + total) // (2 * total),
                                      100)
            if '%.2f' % r[k + '_pct'] != want:
                fail('report: %r %s_pct %s, expected %s'
                     % (r['key'], k, r[k + '_pct'], want))
        if r['children'] < r['self']:
            fail('report: %r children < self' % r['key'])
    self_w, children_w, ftotal, lines = {}, {}, 0, 0
    with open(folded) as f:
        for line in f:
            lines += 1
            stack, count = line.rsplit(' ', 1)
            count = int(count)
            ftotal += count
            frames = stack.split(';')
            if by == 'comm':
                keys = [frames[0]]
            else:
                keys = [folded_key(x) for x in frames[1:]] or ['[no stack]']
            self_w[keys[-1]] = self_w.get(keys[-1], 0) + count
            for k in set(keys):
                children_w[k] = children_w.get(k, 0) + count
    if ftotal != total:
        fail('report: total %d, folded lines sum to %d' % (total, ftotal))
    # One count: the report's stacks are --folded's lines.
    if rep['stacks'] != lines:
        fail('report: %d stacks, --folded printed %d lines'
             % (rep['stacks'], lines))
    if by not in ('comm', 'sym'):
        print('ok - report by %s: %d rows, total %d' % (by, len(rows), total))
        return
    got_self, got_children = {}, {}
    for r in rows:
        k = r['key'] if by == 'comm' else report_key(r['key'])
        got_self[k] = got_self.get(k, 0) + r['self']
        got_children[k] = got_children.get(k, 0) + r['children']
    drop0 = lambda d: {k: v for k, v in d.items() if v}  # noqa: E731
    if drop0(got_self) != drop0(self_w):
        fail('report: self by %s differs from the folded lines: %s'
             % (by, sorted(set(drop0(got_self).items()) ^
                           set(drop0(self_w).items()))[:6]))
    if got_children != children_w:
        fail('report: children by %s differ from the folded lines: %s'
             % (by, sorted(set(got_children.items()) ^
                           set(children_w.items()))[:6]))
    print('ok - report by %s: %d rows, total %d, as --folded implies'
          % (by, len(rows), total))


if __name__ == '__main__':
    if sys.argv[1] == 'svg':
        check_svg(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == 'svgfolded':
        check_svg_folded(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == 'diffsvg':
        check_diffsvg(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
                      sys.argv[5] if len(sys.argv) > 5 else '')
    elif sys.argv[1] == 'perfetto':
        check_perfetto(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == 'report':
        check_report(sys.argv[2], sys.argv[3])
    else:
        fail('unknown check %s' % sys.argv[1])
