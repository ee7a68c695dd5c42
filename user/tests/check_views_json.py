#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The JSON of ringtrace-cat's --hist, --hist-by and --summary holds every
number of their text (tests/views_json.sh).

check_views_json.py TEXT JSON
    JSON is the --json output of the same command as TEXT (JSON lines, one
    object per block). The text is drawn again from the JSON, with the
    rules of the text printers (lib/views/hist.c, latency_view.c): row
    ranges, counts and bars, count, average, percentiles and max, keys,
    summary rows, interval headings, what each block is missing. The
    drawing must equal TEXT byte for byte (the note under the percentiles
    aside, which holds no number): so every number the text prints is in
    the JSON, and equal.
"""
import json
import sys


def fail(msg):
    print('not ok -', msg)
    sys.exit(1)


def dur(ns):
    """rt_fmt_duration()"""
    if ns < 1000:
        return '%dns' % ns
    if ns < 1000000:
        return '%.2fus' % (ns / 1e3)
    if ns < 1000000000:
        return '%.2fms' % (ns / 1e6)
    return '%.2fs' % (ns / 1e9)


def hist(h):
    """rt_hist_print()"""
    out = ['%28s : %-9s %s\n' % ('nsecs', 'count', 'distribution')]
    peak = max(r['count'] for r in h['rows'])
    for r in h['rows']:
        w = r['count'] * 40 // peak if peak else 0
        out.append('%12d -> %-12d : %-9d |%s|\n' %
                   (r['low'], r['high'], r['count'], '*' * w + ' ' * (40 - w)))
    out.append('  count %d, average %s, p50 %s, p90 %s, p99 %s, max %s\n' %
               (h['count'], dur(h['avg_ns']), dur(h['p50_ns']),
                dur(h['p90_ns']), dur(h['p99_ns']), dur(h['max_ns'])))
    return ''.join(out)


TITLES = [('vfs_read', ' vfs_read latency\n'), ('lock_wait', ' lock wait\n'),
          ('lock_hold', ' lock hold\n'), ('offcpu', ' off CPU\n')]


def hists(entry):
    return ''.join(t + hist(entry[k]) for k, t in TITLES if k in entry)


def key_line(by, k):
    if 'other' in k:
        return None
    if by == 'cgroup':
        return '@[cgroup %s]' % k['cgroup']
    if by == 'pid':
        return '@[pid %d, %s]' % (k['pid'], k['comm'])
    if by == 'comm':
        return '@[%s]' % k['comm']
    if 'lock' in k:
        return '@[lock %s]' % k['lock']
    if 'offcpu_state' in k:
        return '@[offcpu %s]' % k['offcpu_state']
    return '@[%s]' % k['file']


def draw_hist(h):
    out = ['@[all]\n']
    out.append(hists(h['all']) or '  (no vfs_read, lock or offcpu events)\n')
    for k in h.get('keys', []):
        out.append('\n%s\n' % key_line(h['by'], k) + hists(k))
    if 'other' in h:
        o = h['other']
        out.append('\n@[other] (the table holds %d keys; %d events beyond)\n'
                   % (o['max_keys'], o['events']) + hists(o))
    return ''.join(out)


def draw_summary(s):
    rows = s['rows']
    if not rows:
        # No vfs_read kept (locks only): a line in place of the table.
        return '\n(no vfs_read records: no per-file table)\n'
    offcpu = any('offcpu_ns' in r for r in rows)
    cgroups = any('cgroup' in r for r in rows)
    out = ['\n%-16s %7s %9s %12s %10s %10s %10s %10s%s  %s%s\n' %
           ('COMM', 'PID', 'CALLS', 'BYTES', 'TOTAL', 'P50', 'P99', 'MAX',
            '     OFFCPU' if offcpu else '',
            'CGROUP                  ' if cgroups else '', 'FILE')]
    for r in rows:
        other = r.get('other', False)
        off = ' %10s' % dur(r['offcpu_ns']) if offcpu else ''
        line = '%-16s %7d %9d %12d %10s %10s %10s %10s%s  ' % (
            '[other]' if other else r['comm'], 0 if other else r['pid'],
            r['calls'], r['bytes'], dur(r['total_ns']), dur(r['p50_ns']),
            dur(r['p99_ns']), dur(r['max_ns']), off)
        if cgroups:
            line += '%-23s ' % ('-' if other else r['cgroup'])
        out.append(line + ('(table full)' if other else r['file']) + '\n')
    if s['more_rows']:
        out.append('... %d more rows (-v shows them all)\n' % s['more_rows'])
    return ''.join(out)


# What a block is missing (missing.c), as its text says it under it.
CAUSES = [
    ('malformed', 'records skipped: malformed'),
    ('unknown', 'records skipped: of a type this version does not know'),
    ('damaged_bytes', 'bytes of the file skipped: damaged'),
    ('func_missed', 'func calls missed by the probe (no record)'),
    ('offcpu_missed', 'off-CPU intervals the module could not follow (no record)'),
    ('kernel_stacks_cut', 'kernel stacks cut at the depth limit'),
    ('user_stacks_cut', 'user stacks cut at the depth limit'),
    ('user_stacks_fault', 'user stacks cut at a frame that could not be read'),
    ('user_stacks_loop', 'user stacks cut at a frame-pointer loop'),
    ('unnamed_files', 'vfs_reads of files never named (shown as dev:ino)'),
    ('unnamed_cgroups', 'events in cgroups never named (shown as #ID)'),
    ('other', 'events under [other]: the table was full'),
    ('stacks_dropped', 'stacks left out: the stack table was full'),
]


def draw_missing(m):
    lines = []
    lost, every = m['lost'], m['lost'] + m['events']
    if lost:
        tenths = (lost * 1000 + every // 2) // every
        lines.append('  %d records lost (%d.%d%% of the %d written or lost)\n'
                     % (lost, tenths // 10, tenths % 10, every))
    lines += ['  %d %s\n' % (m[k], text) for k, text in CAUSES if m[k]]
    if m['truncated']:
        lines.append('  the records after the point where the file was cut\n')
    return '\nmissing from this view:\n' + ''.join(lines) if lines else ''


def ts(ns):
    return '%d.%09d' % (ns // 1000000000, ns % 1000000000)


def draw_block(b):
    out = []
    if 'interval' in b:
        head = '\n=== interval %d: ' % b['interval']
        if 'from_ns' in b:
            head += 'from %s ' % ts(b['from_ns'])
        if 'to_ns' in b:
            head += '%s %s (CLOCK_MONOTONIC) ===\n' % (
                'to' if 'from_ns' in b else 'until', ts(b['to_ns']))
        else:
            head += 'to the end of the run%s ===\n' % (
                ' (CLOCK_MONOTONIC)' if 'from_ns' in b else '')
        out.append(head)
    if 'hist' in b:
        out.append(draw_hist(b['hist']))
    if 'summary' in b:
        out.append(draw_summary(b['summary']))
    out.append(draw_missing(b['missing']))
    return ''.join(out)


NOTE = ('\n(percentiles are the upper bound of a histogram bucket: at most '
        '12.5% above the true value; max is exact)\n')


def main():
    text = open(sys.argv[1]).read().replace(NOTE, '')
    blocks = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
    if not blocks:
        fail('%s holds no JSON object' % sys.argv[2])
    drawn = ''.join(draw_block(b) for b in blocks)
    if drawn != text:
        a, b = drawn.splitlines(), text.splitlines()
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                fail('line %d: from the JSON %r, the text %r' % (i + 1, x, y))
        fail('from the JSON %d lines, the text %d' % (len(a), len(b)))
    print('ok - %d JSON blocks draw the text exactly (%d lines)' %
          (len(blocks), text.count('\n')))


main()
