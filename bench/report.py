#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn one `make bench` run into the table and results.json.

    bench/report.py RUNDIR

RUNDIR holds vm/results.txt (bench/vmbench), ringbench.txt
(bench/ringbench) and bench_consumer.txt (user/bench/bench_consumer);
any of them may be missing. Prints the table on stdout and writes
RUNDIR/results.json and RUNDIR/table.txt.

How the VM numbers are combined: every traced run was taken right after a
baseline run of the same shape. For each round, a configuration's added
cost is its ns/call minus the mean of the baseline just before it and the
next baseline of the same shape after it; the table shows the median over
rounds (and the range). Ratios are medians of added costs divided by the
floor's median added cost from the same run.
"""
import json
import os
import re
import statistics
import sys

# (config, what it is, which floor it is compared with)
VM_ROWS = [
    ("baseline", "no tracing", None),
    ("floor_split1", "floor: empty kprobe + kretprobe, timestamps (split=1)", "floor_split1"),
    ("floor_split0", "floor: one kretprobe + entry handler (split=0)", "floor_split1"),
    ("ringtrace", "ringtrace-cat -a --raw -o /tmp/FILE", "floor_split1"),
    ("ringtrace_plain", "  same, --reader plain (reader left where it runs)", "floor_split1"),
    ("ringtrace_bare", "ringtrace-cat -a --raw --no-paths --no-cgroup-names", "floor_split1"),
    ("ringtrace_minlat", "ringtrace-cat -a --raw --min-latency 1ms", "floor_split1"),
    ("ringtrace_idle", "ringtrace, reader asleep (ring holds the whole run)", "floor_split1"),
    ("ringtrace_cgroup", "ringtrace-cat -a --raw --cgroup (workload outside it)", "floor_split1"),
    ("ringtrace_8m", "ringtrace-cat -a --raw --buffer-size 8M", "floor_split1"),
    ("ringtrace_offcpu", "ringtrace-cat -a --raw -e vfs_read,offcpu", "floor_split1"),
    ("drain", "rtdrain -a (ABI 2 reference: no option)", "floor_split1"),
    ("drain_paths", "rtdrain -a, path records (-p)", "floor_split1"),
    ("drain_kstack", "rtdrain -a, kernel stacks, depth 16 (-k 16)", "floor_split1"),
    ("drain_ustack", "rtdrain -a, user stacks, depth 16 (-u 16)", "floor_split1"),
    ("drain_all", "rtdrain -a, paths + kernel + user stacks", "floor_split1"),
    ("drain_cgroupid", "rtdrain -a, cgroup id on every record (-c)", "floor_split1"),
    ("drain_cgroup_all", "rtdrain -a -c, cgroup filter on the root (all pass)", "floor_split1"),
    ("floor_fprobe", "floor: one fprobe, entry + exit timestamps", "floor_split1"),
    ("rt_kretprobe", "ringtrace -a --raw, vfs_read_attach=kretprobe", "floor_split0"),
    ("rt_kretprobe_idle", "  same, reader asleep", "floor_split0"),
    ("rt_fprobe", "ringtrace -a --raw, vfs_read_attach=fprobe", "floor_fprobe"),
    ("rt_fprobe_idle", "  same, reader asleep", "floor_fprobe"),
    ("floor_direct", "floor: direct-call trampoline, entry + exit timestamps", "floor_split1"),
    ("rt_direct", "ringtrace -a --raw, vfs_read_attach=direct", "floor_direct"),
    ("rt_direct_bare", "  same, --no-paths --no-cgroup-names", "floor_direct"),
    ("rt_direct_idle", "  same, reader asleep", "floor_direct"),
    ("bpftrace_fentry_count", "bpftrace kfunc/kretfunc, count() only", "floor_split1"),
    ("bpftrace_fentry_empty", "bpftrace kfunc/kretfunc, empty programs", "floor_split1"),
    ("bpftrace_fentry_printf", "bpftrace kfunc/kretfunc, printf per call", "floor_split1"),
    ("ftrace_noreader", "ftrace p:+r: kprobe events, no reader", "floor_split1"),
    ("ftrace_reader", "ftrace p:+r:, one trace_pipe_raw reader per CPU", "floor_split1"),
    ("perf", "perf record -a -e (the two kprobe events)", "floor_split1"),
    ("bpftrace_hist", "bpftrace kprobe/kretprobe, latency hist()", "floor_split1"),
    ("bpftrace_printf", "bpftrace kprobe/kretprobe, printf per call", "floor_split1"),
    ("cat_raw", "ringtrace-cat --raw -o /dev/null -- readloop", "floor_split1"),
    ("cat_text", "ringtrace-cat (text) -o /dev/null -- readloop", "floor_split1"),
    ("cat_json", "ringtrace-cat --json -o /dev/null -- readloop", "floor_split1"),
    ("baseline_2cpu", "no tracing, both CPUs busy", None),
    ("floor_split1_2cpu", "floor (split=1), both CPUs busy", "floor_split1_2cpu"),
    ("ringtrace_2cpu", "ringtrace-cat -a --raw, both CPUs busy", "floor_split1_2cpu"),
    ("ringtrace_plain_2cpu", "  same, --reader plain", "floor_split1_2cpu"),
    ("rt_kretprobe_2cpu", "  same, vfs_read_attach=kretprobe", "floor_split1_2cpu"),
    ("rt_fprobe_2cpu", "  same, vfs_read_attach=fprobe", "floor_split1_2cpu"),
    ("rt_direct_2cpu", "  same, vfs_read_attach=direct", "floor_split1_2cpu"),
]
PEERS = ["ftrace_reader", "perf", "bpftrace_printf"]

# the same configurations with the workload unpinned (readloop
# -u, vmbench's "_unpinned" names), each against baseline_unpinned and,
# where it was run, its floor unpinned too.
UNPINNED = "_unpinned"


def all_rows(vm):
    rows = []
    for name, what, floor in VM_ROWS:
        rows.append((name, what, floor))
    for name, what, floor in VM_ROWS:
        if name + UNPINNED in vm:
            uf = floor and (floor + UNPINNED if floor + UNPINNED in vm else floor)
            rows.append((name + UNPINNED, what.strip() + ", unpinned", uf))
    return rows

# bench/pingpong, ns per context switch, against pp_baseline.
PP_ROWS = [
    ("pp_baseline", "no tracing"),
    ("pp_rt_lock", "ringtrace-cat -a -e lock: no session wants offcpu"),
    ("pp_rt_offcpu_1ms", "ringtrace-cat -a -e offcpu (default --min-offcpu 1ms)"),
    ("pp_rt_offcpu", "ringtrace-cat -a -e offcpu --min-offcpu 0"),
    ("pp_rt_offcpu_stack", "  same, --stack (kernel + user, 64 frames)"),
    ("pp_bpftrace_offcpu", "bpftrace sched_switch, offcputime-style (kstack)"),
    ("pp_perf_switch", "perf record -a -g -e sched:sched_switch"),
]


# The function graph (readloop -f FILE: a tmpfs file, a file of the 9p
# root): vfs_read and the same callees recorded by each tracer, ns per
# read, each against its own file's baseline.
GRAPH_ROWS = [
    ("baseline", "no tracing"),
    ("floor", "floor: the same 5 functions' hooks, two timestamps, no record"),
    ("ringtrace", "ringtrace-cat -a --raw -e vfs_read,func:... (--graph's records)"),
    ("ringtrace_idle", "  same, reader asleep (a ring that holds the whole run)"),
    ("ringtrace_plain", "  same, --reader plain (reader where the scheduler puts it)"),
    ("ringtrace_graph", "ringtrace-cat -a --raw --graph vfs_read --graph-funcs ..."),
    ("ringtrace_slow", "same, --min-latency 1ms (the module holds, drops the fast)"),
    ("tracecmd", "trace-cmd record -p function_graph -g vfs_read -l (same funcs)"),
    ("bpftrace", "bpftrace kprobe+kretprobe per function, printf per span"),
]
GRAPH_FS = [("gt_", "tmpfs (page cache)"), ("g9_", "9p (the guest's root)")]
# Each workload's own baseline, by the configurations' prefix.
BASELINES = ["pp_baseline"] + [p + "baseline" for p, _ in GRAPH_FS]


def parse_kv(line):
    out = {}
    for tok in line.split():
        if "=" in tok:
            k, v = tok.split("=", 1)
            out[k] = v
    return out


def num(v, default=None):
    try:
        return float(v)
    except (TypeError, ValueError):
        return default


def load_vm(path):
    runs, meta = [], {}
    with open(path) as f:
        for line in f:
            kv = parse_kv(line)
            if "config" in kv:
                runs.append(kv)
            elif kv:
                meta.update(kv)
    return runs, meta


def fastest(r):
    """The fastest repetition of a run (ns per call), or None."""
    v = [num(x) for x in r.get("samples", "-").split(",") if x not in ("", "-")]
    return min(v) if v and None not in v else None


def per_round_ratios(vm):
    """Each round's added cost over bpftrace count-only's added
    cost in the same round (pinned rows against bpftrace pinned, unpinned
    against unpinned): median and range over the rounds where bpftrace's
    was above zero, and the same from each run's fastest repetition."""
    lines = []
    for name, what, _ in all_rows(vm):
        un = name.endswith(UNPINNED)
        bname = "bpftrace_fentry_count" + (UNPINNED if un else "")
        r, b = vm.get(name), vm.get(bname)
        if not r or not b or name == bname or name.startswith("baseline"):
            continue
        bpf = {x["round"]: x for x in b["per_round"]}
        q = [x["added"] / bpf[x["round"]]["added"] for x in r["per_round"]
             if x["round"] in bpf and bpf[x["round"]]["added"] > 0]
        bb = b.get("added_best_ns")
        rb = r.get("added_best_ns")
        if not q:
            continue
        lines.append("  %-32s %6.2f  %5.2f..%-6.2f %3d   %s" % (
            name, statistics.median(q), min(q), max(q), len(q),
            fmt(rb / bb if rb is not None and bb and bb > 0 else None, ".2f")))
    if not lines:
        return []
    return (["== Ratios to bpftrace fentry/fexit count-only, round by round "
             " ==",
             "  %-32s %6s  %-12s %3s   %s" % ("config", "median", "range",
                                              "n", "best-rep ratio")]
            + lines +
            ["", "median, range: of the per-round ratios added / bpftrace's "
             "added in the same round (rounds where that was > 0); best-rep "
             "ratio: the medians of added costs computed from each run's "
             "fastest repetition (host load only slows repetitions down)."])


def combine_vm(runs):
    """Per configuration: rounds with their local baseline, then medians."""
    base_name = {"1": "baseline", "2": "baseline_2cpu"}
    per = {}
    for i, r in enumerate(runs):
        name = r["config"]
        x = num(r["ns_per_call"])
        entry = per.setdefault(name, {"rounds": [], "records": 0, "lost": 0,
                                      "has_records": False, "has_lost": False,
                                      "cpu": [], "extra": [], "ok": True})
        entry["ok"] &= r.get("ok") == "1"
        rec, lost = num(r.get("records"), -1), num(r.get("lost"), -1)
        user, sys_ = num(r.get("reader_user_ms"), -1), num(r.get("reader_sys_ms"), -1)
        if rec >= 0:
            entry["records"] += rec
            entry["has_records"] = True
        if lost >= 0:
            entry["lost"] += lost
            entry["has_lost"] = True
        if user >= 0 and sys_ >= 0:
            entry["cpu"].append((user, sys_, max(rec, 0)))
        skip = {"seq", "config", "round", "cpus", "calls", "reps", "ok",
                "ns_per_call", "records", "lost", "reader_user_ms",
                "reader_sys_ms", "samples"}
        entry["extra"].append({k: v for k, v in r.items() if k not in skip})
        best = fastest(r)
        if name.startswith("baseline") or name in BASELINES:
            entry["rounds"].append({"ns": x, "base": x, "added": 0.0,
                                    "round": r.get("round"), "best": best})
            continue
        bname = next((b for b in BASELINES if name.startswith(b[:3])),
                     base_name.get(r["cpus"], "baseline"))
        if name.endswith(UNPINNED):
            bname += UNPINNED
        reps = r.get("reps")
        before = next((runs[j] for j in range(i - 1, -1, -1)
                       if runs[j]["config"] == bname and runs[j].get("reps") == reps), None)
        after = next((runs[j] for j in range(i + 1, len(runs))
                      if runs[j]["config"] == bname and runs[j].get("reps") == reps), None)
        bases = [num(b["ns_per_call"]) for b in (before, after) if b]
        if not bases or x is None:
            continue
        base = sum(bases) / len(bases)
        rnd = {"ns": x, "base": base, "added": x - base, "round": r.get("round"),
               "lost": lost if lost >= 0 else None}
        bests = [fastest(b) for b in (before, after) if b]
        if best is not None and bests and None not in bests:
            rnd["added_best"] = best - sum(bests) / len(bests)
        entry["rounds"].append(rnd)
    out = {}
    for name, e in per.items():
        rs = e["rounds"]
        if not rs:
            continue
        added = [r["added"] for r in rs]
        best = [r["added_best"] for r in rs if "added_best" in r]
        out[name] = {
            # The fastest repetition of each run instead of its median:
            # other load on the host only ever slows a repetition down.
            "added_best_ns": statistics.median(best) if best else None,
            "rounds": len(rs),
            "ns_per_call": statistics.median(r["ns"] for r in rs),
            "baseline_ns_per_call": statistics.median(r["base"] for r in rs),
            "added_ns": statistics.median(added),
            "added_min_ns": min(added),
            "added_max_ns": max(added),
            "per_round": rs,
            "records": e["records"] if e["has_records"] else None,
            "lost": e["lost"] if e["has_lost"] else None,
            "reader_cpu": e["cpu"],
            "ok": e["ok"],
            "extra": e["extra"],
        }
    reader_costs(out)
    return out


# The reader's fixed cost (start, map the rings, enable, stop) comes from a
# run that has almost no records: cat_fixed for the -- COMMAND runs,
# ringtrace_minlat for the -a runs.
FIXED = {"cat_raw": "cat_fixed", "cat_text": "cat_fixed",
         "cat_json": "cat_fixed", "ringtrace": "ringtrace_minlat",
         "ringtrace_2cpu": "ringtrace_minlat", "ringtrace_idle": "ringtrace_minlat",
         "ringtrace_8m": "ringtrace_minlat",
         "ringtrace_offcpu": "ringtrace_minlat", "rt_kretprobe": "ringtrace_minlat",
         "rt_fprobe": "ringtrace_minlat", "rt_kretprobe_2cpu": "ringtrace_minlat",
         "rt_fprobe_2cpu": "ringtrace_minlat", "rt_direct": "ringtrace_minlat",
         "rt_direct_2cpu": "ringtrace_minlat", "ringtrace_bare": "ringtrace_minlat",
         "ringtrace_plain": "ringtrace_minlat",
         "ringtrace_plain_2cpu": "ringtrace_minlat",
         "rt_direct_bare": "ringtrace_minlat"}


def reader_costs(vm):
    for name, r in vm.items():
        r["reader_us_per_record"] = r["reader_user_us_per_record"] = \
            r["reader_sys_us_per_record"] = None
        bare = name[:-len(UNPINNED)] if name.endswith(UNPINNED) else name
        fixed = (vm.get(FIXED.get(bare, "") + UNPINNED) if bare != name else
                 None) or vm.get(FIXED.get(bare, ""))
        if not r["reader_cpu"] or not fixed or not fixed["reader_cpu"]:
            continue
        fu = statistics.median(c[0] for c in fixed["reader_cpu"])
        fs = statistics.median(c[1] for c in fixed["reader_cpu"])
        recs = sum(c[2] for c in r["reader_cpu"])
        if recs <= 0:
            continue
        u = sum(c[0] - fu for c in r["reader_cpu"]) * 1e3 / recs
        k = sum(c[1] - fs for c in r["reader_cpu"]) * 1e3 / recs
        r["reader_user_us_per_record"] = u
        r["reader_sys_us_per_record"] = k
        r["reader_us_per_record"] = u + k
        r["reader_fixed_ms"] = fu + fs


# Where the workload's time goes under ringtrace (perf cpu-clock samples of
# the "profile" run), by symbol family.
PROFILE_GROUPS = [
    ("ringtrace: probe handlers and ring (rt_*)", lambda s: s.startswith("rt_")),
    ("clock reads (ktime_get_mono_fast_ns)", lambda s: s in (
        "ktime_get_mono_fast_ns", "read_tsc", "read_hpet")),
    ("kprobe/kretprobe machinery (ftrace hook, rethook)", lambda s: any(
        s.startswith(p) for p in ("kprobe", "rethook", "arch_rethook",
                                  "ftrace_", "pre_handler_kretprobe",
                                  "kretprobe", "get_kprobe", "rcu_is_watching",
                                  "__rcu_read", "arch_irq_work", "irq_work",
                                  "opt_pre_handler", "aggr_"))),
    ("the read() itself (syscall, VFS, /dev/zero, user loop)", lambda s: True),
]


def load_profile(path, base_ns):
    """Shares of the workload's samples; ns/call scaled so that the read()
    itself costs what the baseline run measured (the sampled run is slowed
    down by the sampling)."""
    groups = {g: 0.0 for g, _ in PROFILE_GROUPS}
    syms, total = [], 0.0
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*([\d.]+)%\s+readloop\s+\[[k.]\]\s+(\S+)", line)
            if not m:
                continue
            pct, sym = float(m.group(1)), m.group(2)
            total += pct
            syms.append((pct, sym))
            for g, match in PROFILE_GROUPS:
                if match(sym):
                    groups[g] += pct
                    break
    read_share = groups[PROFILE_GROUPS[-1][0]]
    if total <= 0 or read_share <= 0:
        return None
    ns_per_call = base_ns * total / read_share
    return {"ns_per_call": ns_per_call, "baseline_ns_per_call": base_ns,
            "groups": [{"what": g, "share": groups[g] / total,
                        "ns_per_call": groups[g] / total * ns_per_call}
                       for g, _ in PROFILE_GROUPS],
            "top": [{"symbol": s, "share": p / total,
                     "ns_per_call": p / total * ns_per_call}
                    for p, s in sorted(syms, reverse=True)
                    if s.startswith(("rt_", "__rcu_read"))]}


def load_ringbench(path):
    rows, head = [], []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 9 and p[0] in ("watermark", "spin", "limit"):
                rows.append({"mode": p[0], "size": int(p[1]),
                             "records_per_s": float(p[2]), "mb_per_s": float(p[3]),
                             "x_limit": float(p[4]), "wakeups": int(p[5]),
                             "full_waits": int(p[6]), "loops": int(p[7]),
                             "errors": int(p[8])})
            elif not rows and not line.startswith("mode"):
                head.append(line.rstrip())
    return rows, head


def load_consumer(path):
    rows = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"(raw|json|text)\s+([\d.]+) Mrecords/s\s+([\d.]+) ns/record", line)
            if m:
                rows[m.group(1)] = {"mrecords_per_s": float(m.group(2)),
                                    "ns_per_record": float(m.group(3))}
    return rows


def fmt(v, spec=".0f", none="-"):
    return none if v is None else format(v, spec)


def load_host_meta(rundir):
    """scripts/bench's meta.txt: key=value words (older runs lack some)."""
    try:
        with open(os.path.join(rundir, "meta.txt")) as f:
            return parse_kv(f.read())
    except OSError:
        return {}


def vm_table(vm, meta):
    lines = []
    hdr = ("%-32s %-52s %9s %9s %17s %7s %9s %9s %9s"
           % ("config", "what", "ns/call", "added", "added range", "x floor",
              "records", "lost", "cpu/rec"))
    lines += [hdr, "-" * len(hdr)]
    for name, what, floor in all_rows(vm):
        r = vm.get(name)
        if not r or name in ("cat_fixed", "profile"):
            continue
        ratio = None
        if floor and floor in vm and vm[floor]["added_ns"] > 0:
            ratio = r["added_ns"] / vm[floor]["added_ns"]
        rng = ("%.0f..%.0f" % (r["added_min_ns"], r["added_max_ns"])
               if floor else "")
        cpu = r["reader_us_per_record"]
        lines.append("%-32s %-52s %9.0f %9s %17s %7s %9s %9s %9s" % (
            name, what, r["ns_per_call"],
            fmt(r["added_ns"], "+.0f") if floor else "",
            rng, fmt(ratio, ".2f", "") if floor else "",
            fmt(r["records"]), fmt(r["lost"]),
            (fmt(cpu, ".2f") + "us") if cpu is not None else "-"))
    lines.append("")
    lines.append("ns/call, added: medians over %s rounds (wall clock in the "
                 "guest); added = ns/call - the baselines around it; "
                 "x floor = added / floor_split1's added (2-CPU rows: "
                 "floor_split1_2cpu's; rt_kretprobe*: floor_split0's, "
                 "rt_fprobe*: floor_fprobe's, rt_direct*: floor_direct's); records, lost: the tool's own "
                 "accounting, summed over rounds; cpu/rec: the reader's CPU "
                 "time per record, its fixed start/stop cost removed."
                 % meta.get("rounds", "?"))
    return lines


# Full rate with the default settings: the rows that answer "does the
# reader keep up?", and their --reader plain twins for contrast.
FULLRATE_ROWS = [
    ("ringtrace", "1 busy CPU, defaults"),
    ("ringtrace_plain", "1 busy CPU, --reader plain"),
    ("ringtrace_2cpu", "2 busy CPUs, defaults"),
    ("ringtrace_plain_2cpu", "2 busy CPUs, --reader plain"),
]


def load_host_load(rundir):
    """scripts/bench's hostload.txt: "EPOCH L1 L5 L15" every few seconds
    while the VM ran (the host is shared: its load moves TCG timings)."""
    try:
        with open(os.path.join(rundir, "hostload.txt")) as f:
            return [num(l.split()[1]) for l in f if len(l.split()) >= 2]
    except OSError:
        return []


def fullrate_table(vm, host_load):
    """Records lost at full rate with the default 4 MiB per CPU, per round,
    the fullest a ring got, and the reader's CPU per record."""
    lines = []
    for name, what in FULLRATE_ROWS:
        r = vm.get(name)
        if not r or r["lost"] is None:
            continue
        ex = r["extra"]
        peaks = [num(e.get("peak_fill")) for e in ex
                 if num(e.get("peak_fill")) is not None]
        lost_rounds = [x["lost"] or 0 for x in r["per_round"]]
        cpu = r.get("reader_us_per_record")
        nice = sorted({e.get("reader_nice") for e in ex if e.get("reader_nice")})
        lines.append("  %-30s %6d %10d %8d %9s %10s %8s %s" % (
            what, r["rounds"], (r["records"] or 0) + r["lost"], r["lost"],
            "%d of %d" % (sum(1 for x in lost_rounds if x), len(lost_rounds))
            if any(lost_rounds) else "0",
            ("%d%% (%d%%)" % (max(peaks), statistics.median(peaks)))
            if peaks else "-",
            (fmt(cpu, ".2f") + "us") if cpu is not None else "-",
            ("nice " + ",".join(nice)) if nice else "as started"))
    if not lines:
        return []
    load = ("host load (1-min average) during the VM run: %.1f to %.1f"
            % (min(host_load), max(host_load))) if host_load else \
        "host load during the VM run: not recorded"
    return (["== Full rate, default settings: does the reader keep up? "
             "(ringtrace-cat -a -v --raw -o /tmp/FILE, 4 MiB per CPU) ==",
             "  %-30s %6s %10s %8s %9s %10s %8s %s" % (
                 "run", "rounds", "produced", "lost", "rounds w/", "peak fill",
                 "cpu/rec", "reader")]
            + lines +
            ["", "produced, lost: summed over rounds (lost: LOST records + "
             "pending); rounds w/: rounds that lost any; peak fill: the "
             "fullest a ring got (-v), the worst round (median round); "
             "cpu/rec: the reader's CPU per record; reader: its nice "
             "(--reader follow raises 0 to -10).", load])


def graph_table(vm):
    """Cost per read with vfs_read's callees traced, against trace-cmd's."""
    lines = []
    for prefix, fs in GRAPH_FS:
        if not any(n.startswith(prefix) for n in vm):
            continue
        tc = vm.get(prefix + "tracecmd")
        lines.append("== In the VM: the function graph, pread() of a %s "
                     "file, vfs_read and 4 callees per read ==" % fs)
        hdr = ("%-18s %-66s %9s %9s %9s %9s %7s"
               % ("config", "what", "ns/read", "added", "x tr-cmd",
                  "records", "lost"))
        lines += [hdr, "-" * len(hdr)]
        for short, what in GRAPH_ROWS:
            name = prefix + short
            r = vm.get(name)
            if not r:
                continue
            base = short == "baseline"
            if not r["ok"]:
                lines.append("%-18s %-66s %9s" % (name, what, "failed"))
                continue
            ratio = (r["added_ns"] / tc["added_ns"]
                     if tc and tc["added_ns"] > 0 and not base else None)
            lines.append("%-18s %-66s %9.0f %9s %9s %9s %7s" % (
                name, what, r["ns_per_call"],
                "" if base else fmt(r["added_ns"], "+.0f"),
                fmt(ratio, ".2f", ""), fmt(r["records"]), fmt(r["lost"])))
        fl, rt = vm.get(prefix + "floor"), vm.get(prefix + "ringtrace")
        if (fl and rt and tc and fl["ok"] and rt["ok"] and tc["ok"]
                and tc["added_ns"] > 0):
            lines.append("floor / trace-cmd %.2f, ringtrace / trace-cmd %.2f: "
                         "the hooks alone +%.0f ns, ringtrace over them +%.0f"
                         % (fl["added_ns"] / tc["added_ns"],
                            rt["added_ns"] / tc["added_ns"], fl["added_ns"],
                            rt["added_ns"] - fl["added_ns"]))
        lines.append("")
    if lines:
        lines.append("added: minus the baselines around it (same file), "
                     "median over rounds; x tr-cmd: added / trace-cmd's "
                     "added; records: ringtrace's records (vfs_read and "
                     "func), trace-cmd's events read (an entry and a "
                     "return per span), bpftrace's lines; floor: the hooks "
                     "ringtrace's func events use on this kernel (fprobe, "
                     "else a kretprobe per function), lost: their misses.")
    return lines


def pp_table(vm):
    """Cost per context switch, and the ratio to bpftrace's."""
    bt = vm.get("pp_bpftrace_offcpu")
    lines = ["== In the VM: context switches (bench/pingpong: two processes "
             "on CPU 0, a pipe hop each) =="]
    hdr = ("%-20s %-54s %9s %9s %17s %8s %9s %7s"
           % ("config", "what", "ns/switch", "added", "added range",
              "x bpftr.", "records", "lost"))
    lines += [hdr, "-" * len(hdr)]
    for name, what in PP_ROWS:
        r = vm.get(name)
        if not r:
            continue
        base = name == "pp_baseline"
        if not r["ok"]:
            lines.append("%-20s %-54s %9s" % (name, what, "failed"))
            continue
        ratio = (r["added_ns"] / bt["added_ns"]
                 if bt and bt["added_ns"] > 0 and not base else None)
        lines.append("%-20s %-54s %9.0f %9s %17s %8s %9s %7s" % (
            name, what, r["ns_per_call"],
            "" if base else fmt(r["added_ns"], "+.0f"),
            "" if base else "%.0f..%.0f" % (r["added_min_ns"], r["added_max_ns"]),
            fmt(ratio, ".2f", ""), fmt(r["records"]), fmt(r["lost"])))
    lines.append("")
    lines.append("ns/switch: wall clock per context switch (round trip / 2); "
                 "added: minus the pp_baseline runs around it, median over "
                 "rounds; x bpftr.: added / pp_bpftrace_offcpu's added.")
    return lines


# Each vfs_read mechanism's floor module, in the order the table lists them.
MECH_FLOOR = {"kretprobe": "floor_split0", "fprobe": "floor_fprobe",
              "direct": "floor_direct"}


def targets(vm, ring, cons, meta=None):
    out = []

    def added(n):
        return vm[n]["added_ns"] if n in vm else None

    fl, rt = added("floor_split1"), added("ringtrace")
    if fl and rt is not None:
        ratio = rt / fl
        out.append({"target": "ringtrace added cost <= 1.2x the floor's (split=1)",
                    "value": round(ratio, 2), "met": ratio <= 1.2})
        fl0 = added("floor_split0")
        if fl0:
            out.append({"target": "(same, against the split=0 floor: one kretprobe, "
                                  "ringtrace's own mechanism)",
                        "value": round(rt / fl0, 2), "met": rt / fl0 <= 1.2})
        peers = [(added(p), p) for p in PEERS if added(p)]
        if peers:
            cheapest, who = min(peers)
            out.append({"target": "ringtrace added cost <= 0.6x the cheapest "
                                  "recording peer (%s)" % who,
                        "value": round(rt / cheapest, 2), "met": rt / cheapest <= 0.6})
    # Per mechanism, against its own floor and BPF's cheapest.
    # A denominator at or below 0 is noise (a run faster than its
    # baselines): no ratio then.
    bpf = added("bpftrace_fentry_count")

    def against_floor_and_bpf(label, a, floor, floor_words):
        for what, d, limit in (("%s (%s)" % (floor_words, floor), added(floor), 1.2),
                               ("bpftrace fentry/fexit count-only", bpf, 1.0)):
            if d is None:
                continue
            t = {"target": "%s <= %.1fx %s" % (label, limit, what)}
            if d > 0:
                t.update(value=round(a / d, 2), met=a / d <= limit)
            else:
                t.update(value="n/a (%+.0f ns: noise)" % d, met=False)
            out.append(t)

    for mech, floor in MECH_FLOOR.items():
        a = added("rt_" + mech)
        if a is not None:
            against_floor_and_bpf("ringtrace (%s)" % mech, a, floor,
                                  "its mechanism's floor")
    # The direct call is opt-in (it excludes BPF trampolines);
    # worth asking for only if clearly cheaper than BPF's count-only.
    a = added("rt_direct")
    if a is not None and bpf:
        t = {"target": "ringtrace (direct, opt-in) <= 0.7x bpftrace fentry/fexit count-only"}
        if bpf > 0:
            t.update(value=round(a / bpf, 2), met=a / bpf <= 0.7)
        else:
            t.update(value="n/a (%+.0f ns: noise)" % bpf, met=False)
        out.append(t)
    # The workload is pinned to CPU 0 and the reader runs on
    # CPU 1, so in the parallel TCG model (and on hardware with an idle
    # CPU) the reader's work is free; on a busy machine every CPU is
    # taken and some workload pays it. Count it per record (one per
    # call) on top of the workload's own added cost.
    for row, label, limit in (("ringtrace", "default ringtrace", 1.0),
                              ("rt_direct", "ringtrace (direct)", 0.7)):
        r = vm.get(row)
        cpu = r.get("reader_us_per_record") if r else None
        if cpu is None or not bpf or bpf <= 0:
            continue
        busy = r["added_ns"] + cpu * 1000
        out.append({"target": "%s on a busy machine (added + the reader's CPU "
                              "per record) <= %.1fx bpftrace fentry/fexit "
                              "count-only" % (label, limit),
                    "value": round(busy / bpf, 2), "met": busy / bpf <= limit})
    # The "Done when": the default mechanism (what the plain
    # ringtrace rows attached with, vmbench's auto_attach), reader running
    # and asleep.
    auto = (meta or {}).get("auto_attach")
    if auto in MECH_FLOOR:
        for row, how in (("ringtrace", "reader running"), ("ringtrace_idle", "reader asleep")):
            a = added(row)
            if a is not None:
                against_floor_and_bpf("default ringtrace (auto: %s), %s," % (auto, how),
                                      a, MECH_FLOOR[auto], "its floor")
    # The same ratios with the workload unpinned (sharing its
    # CPUs with the reader), against bpftrace unpinned.
    ubpf = added("bpftrace_fentry_count" + UNPINNED)
    for row, label, limit in (("ringtrace", "default ringtrace, reader running", 1.0),
                              ("ringtrace_idle", "default ringtrace, reader asleep", 1.0),
                              ("rt_direct", "ringtrace (direct), reader running", 0.7),
                              ("rt_direct_idle", "ringtrace (direct), reader asleep", 0.7)):
        a = added(row + UNPINNED)
        if a is None or not ubpf:
            continue
        t = {"target": "%s, unpinned, <= %.1fx bpftrace fentry/fexit "
                       "count-only unpinned" % (label, limit)}
        if ubpf > 0:
            t.update(value=round(a / ubpf, 2), met=a / ubpf <= limit)
        else:
            t.update(value="n/a (%+.0f ns: noise)" % ubpf, met=False)
        out.append(t)
    for name, label in (("ringtrace", "1 busy CPU"), ("ringtrace_2cpu", "2 busy CPUs")):
        if name in vm and vm[name]["lost"] is not None:
            lost, rec = vm[name]["lost"], vm[name]["records"] or 0
            out.append({"target": "0 records lost at full rate, default 4 MiB "
                                  "buffer, %s" % label,
                        "value": "%d lost of %d" % (lost, lost + rec),
                        "met": lost == 0})
    # The cgroup id on every record (a 16-byte task_ext) against
    # the same reader without it, round by round (each config ran after
    # its own baseline in the same round, so host drift hits both).
    for row, what in (("drain_cgroupid", "the cgroup id on every record"),
                      ("drain_cgroup_all", "the cgroup id + the filter on /")):
        a, d = vm.get(row), vm.get("drain")
        if not a or not d:
            continue
        pairs = [(x["added"], y["added"]) for x, y in
                 zip(a["per_round"], d["per_round"]) if y["added"] > 0]
        t = {"target": "%s: added cost <= 1.05x rtdrain's without it "
                       "(ratio of the medians; per-round ratios' range)" % what}
        if pairs and d["added_ns"] > 0:
            ratios = [x / y for x, y in pairs]
            med = a["added_ns"] / d["added_ns"]
            t.update(value="%.2f (rounds %.2f-%.2f, n=%d)"
                     % (med, min(ratios), max(ratios), len(ratios)),
                     met=med <= 1.05)
        else:
            t.update(value="n/a (drain's added cost <= 0: noise)", met=False)
        out.append(t)
    wm = [r for r in ring if r["mode"] == "watermark" and r["size"] == 64]
    if wm:
        out.append({"target": "host protocol, 64-byte records, watermark "
                              "wake-ups >= 0.5x the limit",
                    "value": wm[0]["x_limit"], "met": wm[0]["x_limit"] >= 0.5})
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rundir = sys.argv[1]
    result = {"rundir": os.path.abspath(rundir)}
    lines = []
    vm, meta = {}, {}
    vmres = os.path.join(rundir, "vm", "results.txt")
    if os.path.exists(vmres):
        runs, meta = load_vm(vmres)
        if runs:
            meta.setdefault("calls", runs[0].get("calls"))
            meta.setdefault("reps", runs[0].get("reps"))
            meta["rounds"] = 1 + max(int(r["round"]) for r in runs
                                     if r["config"] != "baseline")
        vm = combine_vm(runs)
        result["vm"] = vm
        result["vm_meta"] = meta
        host_meta = load_host_meta(rundir)
        lines.append("== In the VM (QEMU TCG, %s-threaded, -cpu %s, 2 vCPUs): "
                     "read(fd, buf, 64) on /dev/zero, %s calls x %s "
                     "repetitions per run =="
                     % (host_meta.get("tcg_thread", "single"),
                        host_meta.get("vm_cpu", "max"),
                        meta.get("calls", "?"), meta.get("reps", "?")))
        lines += vm_table(vm, meta)
        lines.append("")
        fr = fullrate_table(vm, load_host_load(rundir))
        if fr:
            lines += fr + [""]
        rr = per_round_ratios(vm)
        if rr:
            lines += rr + [""]
        if any(name.startswith("pp_") for name in vm):
            lines += pp_table(vm)
            lines.append("")
        gt = graph_table(vm)
        if gt:
            lines += gt + [""]
    prof = os.path.join(rundir, "vm", "logs", "profile.txt")
    if vm.get("profile") and os.path.exists(prof):
        p = load_profile(prof, vm["baseline"]["ns_per_call"])
        if p:
            result["profile"] = p
            lines.append("== Where the workload's time goes under ringtrace "
                         "(perf cpu-clock samples of the workload; ns/call "
                         "scaled so that the read() itself = the baseline's "
                         "%.0f ns) ==" % p["baseline_ns_per_call"])
            for g in p["groups"]:
                lines.append("  %-58s %5.1f%%  %6.0f ns/call"
                             % (g["what"], 100 * g["share"], g["ns_per_call"]))
            lines.append("  of which ringtrace's own functions:")
            for t in p["top"]:
                lines.append("    %-56s %5.1f%%  %6.0f ns/call"
                             % (t["symbol"], 100 * t["share"], t["ns_per_call"]))
            lines.append("")
    ring, head = [], []
    rb = os.path.join(rundir, "ringbench.txt")
    if os.path.exists(rb):
        ring, head = load_ringbench(rb)
        result["host_ring"] = ring
        lines.append("== On the host: the ring protocol, producer thread -> "
                     "consumer thread ==")
        with open(rb) as f:
            lines += [l.rstrip() for l in f]
        lines.append("")
    cons = {}
    bc = os.path.join(rundir, "bench_consumer.txt")
    if os.path.exists(bc):
        cons = load_consumer(bc)
        result["host_consumer"] = cons
        lines.append("== On the host: consumer cost per output format "
                     "(user/bench/bench_consumer) ==")
        with open(bc) as f:
            lines += [l.rstrip() for l in f if l.strip()]
        lines.append("")
    if vm:
        lines.append("== Consumer (ringtrace-cat) CPU time per record in the "
                     "VM, at the workload's full rate ==")
        for n, what in (("ringtrace", "raw to a tmpfs file (-a)"),
                        ("ringtrace_2cpu", "raw to tmpfs, 2 busy CPUs"),
                        ("cat_raw", "raw to /dev/null"),
                        ("cat_text", "text to /dev/null"),
                        ("cat_json", "JSON to /dev/null")):
            r = vm.get(n)
            if r and r["reader_us_per_record"] is not None:
                lines.append("  %-26s %6.2f us/record (user %.2f + system "
                             "%.2f; fixed cost %.0f ms removed; %d records, "
                             "%s lost)" % (what, r["reader_us_per_record"],
                                           r["reader_user_us_per_record"],
                                           r["reader_sys_us_per_record"],
                                           r["reader_fixed_ms"], r["records"],
                                           fmt(r["lost"])))
        lines.append("")
    tg = targets(vm, ring, cons, meta)
    result["targets"] = tg
    if tg:
        lines.append("== Targets ==")
        for t in tg:
            lines.append("  %-4s %-78s %s" % ("MET" if t["met"] else "NOT",
                                              t["target"], t["value"]))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(rundir, "table.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(rundir, "results.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
