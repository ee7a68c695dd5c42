#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""A --ctf trace read back with babeltrace2's Python bindings (tests/ctf.sh).

check_ctf.py DIR JSON
    Every event babeltrace2 decodes from the CTF trace DIR equals the
    --json line of the same record, field by field (the multiset of
    events, each made into one canonical tuple), and the discarded-events
    messages babeltrace2 reports add up, per CPU, to the counts of the
    JSON's LOST records. A func record is compared by its event class
    too: "func", or where the session knew its arguments "func:NAME" (a
    tracepoint's "tp:SUBSYS:EVENT" as it is) with those arguments as
    fields after the generic ones, equal to --json's "named_args". Prints one TAP-like summary line; exit 1 on a
    difference (the first few are shown).

Run with Debian's python3 (python3-bt2 installs bt2 there).
"""
import collections
import json
import re
import sys

import bt2


def fail(msg):
    print('not ok - ' + msg)
    sys.exit(1)


def hexes(values):
    return tuple('0x%x' % int(v) for v in values)


def json_ext(d):
    """host_pid, host_tid, cgroup_id, cgroup: what the CTF writes when a
    record has no task_ext (the JSON has no such keys) is 0, 0, 0, ""."""
    return (d.get('host_pid', 0), d.get('host_tid', 0), d.get('cgroup_id', 0),
            d.get('cgroup', ''))


def ctf_ext(f):
    return (int(f['host_pid']), int(f['host_tid']), int(f['cgroup_id']),
            str(f['cgroup']))


# What every func event has; a described function's class adds its
# arguments after these.
FUNC_FIELDS = ('pid', 'tid', 'comm', 'func', 'func_ip', 'ret', 'lat_ns',
               'nr_args', 'args', 'host_pid', 'host_tid', 'cgroup_id',
               'cgroup', 'nr_kstack', 'kstack', 'nr_ustack', 'ustack')


def func_class(d):
    """The event class a func record's --json line says it has: its own
    where it has arguments by name, with its name (its address unnamed)
    as the metadata's string literal keeps it (a control byte is "?")."""
    if not d.get('named_args'):
        return 'func'
    name = re.sub('[\x00-\x1f]', '?', d.get('func', d['func_ip']))
    return name if name.startswith('tp:') else 'func:' + name


def from_json(d):
    """The canonical tuple of one --json object (not a LOST one)."""
    t = d['type']
    common = (t, d['ts_ns'], d['cpu'])
    if t == 'vfs_read':
        major, minor = d['dev'].split(':')
        return common + (d['pid'], d['tid'], d['comm'], int(major),
                         int(minor), d['ino'], d['pos'], d['count'], d['ret'],
                         d['lat_ns'], d.get('offcpu_ns', 0),
                         d.get('offcpu_max_ns', 0), d.get('offcpu_max_ts', 0),
                         d.get('path', '')) + json_ext(d) + (
                         tuple(d.get('kstack', ())), tuple(d.get('ustack', ())))
    if t == 'lock':
        return common + (d['pid'], d['tid'], d['comm'], d['lock'],
                         d['lock_id'], d['wait_ns'], d['hold_ns'],
                         d['contended'], d['kernel'], d['hashed']) + \
            json_ext(d) + (tuple(d.get('kstack', ())), tuple(d.get('ustack', ())))
    if t == 'offcpu':
        return common + (d['pid'], d['tid'], d['comm'], d['offcpu_ns'],
                         d['state'], d['cpu_out']) + json_ext(d) + (
                         tuple(d.get('kstack', ())), tuple(d.get('ustack', ())))
    if t == 'func':
        # CTF names an unnamed function by its address, as text does.
        return (func_class(d), d['ts_ns'], d['cpu'], d['pid'], d['tid'],
                d['comm'], d.get('func', d['func_ip']), d['func_ip'],
                d['ret'], d['lat_ns'], tuple(d['args']),
                tuple(d.get('named_args', {}).items())) + json_ext(d) + (
                tuple(d.get('kstack', ())), tuple(d.get('ustack', ())))
    if t == 'sample':
        return common + (d['pid'], d['tid'], d['comm'], d['event'], d['ip'],
                         tuple(d.get('callchain', ())))
    if t == 'counters':
        return common + (d.get('pid', -1), d['interval_ns'],
                         tuple(sorted(d['values'].items())))
    fail('unknown JSON record type %r' % t)


def from_ctf(name, cpu_id, ts, f):
    """The canonical tuple of one babeltrace2 event message."""
    def stacks():
        return hexes(f['kstack']), hexes(f['ustack'])

    if name == 'counters':
        cpu = int(f['cpu'])
        values = tuple(sorted((str(v['name']), int(v['value']) if v['ok'] else None)
                              for v in f['values']))
        return (name, ts, cpu, int(f['pid']), int(f['interval_ns']), values)
    common = (name, ts, cpu_id, int(f['pid']), int(f['tid']), str(f['comm']))
    if name == 'vfs_read':
        return common + (int(f['dev_major']), int(f['dev_minor']),
                         int(f['ino']), int(f['pos']), int(f['count']),
                         int(f['ret']), int(f['lat_ns']), int(f['offcpu_ns']),
                         int(f['offcpu_max_ns']), int(f['offcpu_max_ts']),
                         str(f['path'])) + ctf_ext(f) + stacks()
    if name == 'lock':
        return common + (str(f['lock']), '0x%x' % int(f['lock_id']),
                         int(f['wait_ns']), int(f['hold_ns']),
                         bool(f['contended']), bool(f['kernel']),
                         bool(f['hashed'])) + ctf_ext(f) + stacks()
    if name == 'offcpu':
        # The stream is the CPU it came back on, also the cpu_in field.
        if int(f['cpu_in']) != cpu_id:
            fail('offcpu event: cpu_in %d in the stream of CPU %d'
                 % (int(f['cpu_in']), cpu_id))
        return common + (int(f['offcpu_ns']), str(f['state']),
                         int(f['cpu_out'])) + ctf_ext(f) + stacks()
    if name == 'func' or name.startswith(('func:', 'tp:')):
        if int(f['nr_args']) != len(f['args']):
            fail('%s event: nr_args %d, %d args'
                 % (name, int(f['nr_args']), len(f['args'])))
        # The named arguments, as --json's "named_args": a pointer (a
        # field shown in hex) a "0x..." string; the key of argument i,
        # where it would clash with another field's, has "argi_" in front
        # (once or more: output.h's rt_output_arg_keys()).
        extra = [(k, v) for k, v in f.items() if k not in FUNC_FIELDS]
        named = tuple((re.sub('^(arg%d_)+' % i, '', k),
                       '0x%x' % int(v) if v.cls.preferred_display_base == 16
                       else int(v))
                      for i, (k, v) in enumerate(extra))
        return common + (str(f['func']), '0x%x' % int(f['func_ip']),
                         int(f['ret']), int(f['lat_ns']), hexes(f['args']),
                         named) + ctf_ext(f) + stacks()
    if name == 'sample':
        return common + (str(f['perf_event']), '0x%x' % int(f['ip']),
                         hexes(f['callchain']))
    fail('unknown CTF event class %r' % name)


def main():
    trace, json_path = sys.argv[1], sys.argv[2]
    want = collections.Counter()
    lost = collections.Counter()
    with open(json_path) as fp:
        for line in fp:
            d = json.loads(line)
            if d['type'] == 'lost':
                lost[d['cpu']] += d['count']
            else:
                want[from_json(d)] += 1
    got = collections.Counter()
    discarded = collections.Counter()
    for msg in bt2.TraceCollectionMessageIterator(trace):
        if type(msg) is bt2._EventMessageConst:
            ev = msg.event
            ts = msg.default_clock_snapshot.value
            cpu = int(ev.packet.context_field['cpu_id'])
            got[from_ctf(ev.name, cpu, ts, ev.payload_field)] += 1
        elif type(msg) is bt2._DiscardedEventsMessageConst:
            cpu = int(msg.stream.name.rsplit('stream_cpu', 1)[-1]) \
                if 'stream_cpu' in (msg.stream.name or '') else -1
            discarded[cpu] += msg.count
    if got != want:
        missing = list((want - got).elements())[:3]
        extra = list((got - want).elements())[:3]
        fail('%d events in CTF, %d in JSON; JSON only: %r; CTF only: %r'
             % (sum(got.values()), sum(want.values()), missing, extra))
    if discarded != lost:
        fail('discarded per CPU: CTF %r, JSON LOST %r'
             % (dict(discarded), dict(lost)))
    print('ok - %d events equal --json field by field, %d discarded as lost'
          % (sum(got.values()), sum(discarded.values())))


if __name__ == '__main__':
    main()
