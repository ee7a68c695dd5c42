#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check_exporter.py URL JOB SUMMARY_JSON HIST_JSON [JOB ...]: what a real
Prometheus server at URL scraped from ringtrace-exporter (one job per
replayed file) holds exactly the numbers ringtrace-cat -i FILE --summary
--json and --hist --json print for the same file. Asked with PromQL over
its HTTP API (curl, as a dashboard would). Prints TAP points without the
plan; the caller numbers on from --first."""
import json
import subprocess
import sys

BOUNDS = [(1 << b) - 1 for b in range(10, 37, 2)]


def query(url, promql):
    out = subprocess.run(
        ['curl', '-sf', url + '/api/v1/query', '--data-urlencode',
         'query=' + promql], check=True, capture_output=True).stdout
    r = json.loads(out)
    assert r['status'] == 'success', r
    return {tuple(sorted(s['metric'].items())): s['value'][1]
            for s in r['data']['result']}


def ns(value):
    """Seconds as Prometheus prints them, back to integer nanoseconds."""
    return round(float(value) * 1e9)


class Tap:
    def __init__(self, first):
        self.n = first - 1
        self.failed = 0

    def check(self, cond, what, detail=''):
        self.n += 1
        if cond:
            print(f'ok {self.n} - {what}')
        else:
            self.failed += 1
            print(f'not ok {self.n} - {what}: {detail}'[:2000])


def by(rows, keys, field):
    out = {}
    for r in rows:
        k = tuple(r[x] for x in keys)
        out[k] = out.get(k, 0) + r[field]
    return out


def prom_by(res, keys, conv=int):
    return {tuple(dict(m)[x] for x in keys): conv(float(v)) if conv is int
            else conv(v) for m, v in res.items()}


def check_job(tap, url, job, summary, hist):
    rows = summary['summary']['rows']
    h = hist['hist']['all']
    sel = f'{{job="{job}"}}'
    read = h['vfs_read']
    tap.check(sum(r['calls'] for r in rows) == read['count'],
              f'{job}: --summary covers every read --hist counts',
              f"{sum(r['calls'] for r in rows)} != {read['count']}")
    keys = ('cgroup', 'comm')
    for name, field, conv in (
            ('ringtrace_vfs_read_duration_seconds_count', 'calls', int),
            ('ringtrace_vfs_read_bytes_total', 'bytes', int),
            ('ringtrace_vfs_read_duration_seconds_sum', 'total_ns', ns)):
        want = by(rows, keys, field)
        got = prom_by(query(url, f'sum by (cgroup, comm) ({name}{sel})'),
                      keys, conv)
        tap.check(got == want, f'{job}: {name} by (cgroup, comm) = '
                  f'--summary {field} ({sum(want.values())} in '
                  f'{len(want)} series)', f'prometheus {got} cat {want}')
    # Cumulative buckets: --hist's power-of-two rows below each bound.
    got = prom_by(query(url, 'sum by (le) (ringtrace_vfs_read_duration_'
                        f'seconds_bucket{sel})'), ('le',), str)
    want = {}
    for b in BOUNDS:
        le = f'{b // 10**9}.{b % 10**9:09d}'
        want[(le,)] = str(sum(r['count'] for r in read['rows']
                              if r['high'] <= b))
    want[('+Inf',)] = str(read['count'])
    got = {k: str(int(float(v))) for k, v in got.items()}
    # Prometheus drops trailing zeros of le values it parsed as floats.
    got = {(k[0] if k[0] == '+Inf' else
            f'{round(float(k[0]) * 1e9) // 10**9}.'
            f'{round(float(k[0]) * 1e9) % 10**9:09d}',): v
           for k, v in got.items()}
    tap.check(got == want, f'{job}: vfs_read buckets = --hist rows summed',
              f'prometheus {got} cat {want}')
    for kind, name in (('lock_wait', 'ringtrace_lock_wait_seconds'),
                       ('lock_hold', 'ringtrace_lock_hold_seconds'),
                       ('offcpu', 'ringtrace_offcpu_seconds')):
        c = query(url, f'sum({name}_count{sel})')
        s = query(url, f'sum({name}_sum{sel})')
        got = (int(float(next(iter(c.values()), '0'))),
               ns(next(iter(s.values()), '0')))
        want = (h[kind]['count'], h[kind]['sum_ns']) if kind in h else (0, 0)
        tap.check(got == want, f'{job}: {name} count and sum = --hist '
                  f'{kind} {want}', f'prometheus {got}')
    miss = summary['missing']
    got = query(url, f'ringtrace_exporter_lost_records_total{sel}')
    got = int(float(next(iter(got.values()), '-1')))
    tap.check(got == miss['lost'], f'{job}: lost records = --summary '
              f"missing.lost ({miss['lost']})", f'prometheus {got}')
    got = query(url, f'sum(ringtrace_exporter_records_total{sel})')
    got = int(float(next(iter(got.values()), '-1')))
    tap.check(got == miss['events'], f'{job}: records = --summary '
              f"missing.events ({miss['events']})", f'prometheus {got}')


def main():
    args = sys.argv[1:]
    first = 1
    if args[0] == '--first':
        first = int(args[1])
        args = args[2:]
    url = args.pop(0)
    tap = Tap(first)
    while args:
        job, s, h = args[:3]
        args = args[3:]
        with open(s) as fs, open(h) as fh:
            check_job(tap, url, job, json.load(fs), json.load(fh))
    print(f'# points {tap.n}')
    sys.exit(1 if tap.failed else 0)


main()
