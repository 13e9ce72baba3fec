#!/usr/bin/env python3
"""Tables of the locality measurements from factored.json files (docs/measurements/locality.md).

summarize.py FILE...            one row per invocation, program and P (T_P with sd and min-max over the runs), with the
                                 1-minute load average when the invocation started (from load.log beside the folders)
summarize.py aggregate [--max-cv C] FILE...
                                one row per program, stealing, window and P: means over the invocations (with --max-cv,
                                 only the rows whose runs' T_P varied by at most C = sd/mean: runs not disturbed by
                                 other jobs), the smallest and largest invocation's S = T_s/T_P, and the fastest run
"""
import json, sys, statistics as st, os, re
from collections import OrderedDict

def start_load(path):
    run = os.path.basename(os.path.dirname(path))
    log = os.path.join(os.path.dirname(os.path.dirname(path)), "load.log")
    load = None
    for line in open(log):
        parts = line.split()
        if len(parts) > 3 and parts[0] == run and parts[1] == "start":
            # "uptime" lines ("load average: 1.09, ...") from run.sh, /proc/loadavg lines ("1.86 3.91 ...") from the others
            m = re.search(r"load average: ([0-9.]+)", line)
            load = float(m.group(1) if m else parts[3])
    return load

def rows(path):
    load = start_load(path)
    d = json.load(open(path))
    stl = d["configuration"].get("stealing") or {}
    for prog in d["programs"]:
        par = {s["p"]: s for s in prog["samples"]["parallel"]}
        settings = prog.get("settings") or ""
        m = re.search(r"m = (\d+) blocks", settings)
        window = m.group(1) if m else ("-" if settings else "")
        for pt in prog["points"]:
            p = int(pt["p"]); tp = par[p]["tp"]; sp = pt["speedups"]; s = pt.get("steals") or {}
            yield dict(run=os.path.basename(os.path.dirname(path)), load=load, program=prog["program"],
                       stealing=f"{stl.get('scope')}/{stl.get('groups')}", window=window, p=p, ts=prog["ts"], tp=pt["tp"],
                       sd=st.stdev(tp) if len(tp) > 1 else 0.0, lo=min(tp), hi=max(tp), S=sp["actual"],
                       infl=sp["inflationSpecific"], idle=sp["idleSpecific"], fp=pt["fp"], ip=pt["ip"],
                       overhead=s.get("schedulingOverhead"), waiting=s.get("waiting"), steals=s.get("steals"),
                       local=s.get("localSteals"), remote=s.get("remoteSteals"))

def f(v, fmt="{:.3f}"):
    return "" if v is None else fmt.format(v)

def per_run(paths):
    print("| run (load) | program | stealing | window m | P | T_s (s) | T_P (sd; min–max) (s) | S | infl.-sp. | idle-sp. | F_P (s) | I_P (s) | overhead (ms) | waiting (s) | steals (local/remote) |")
    print("|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for path in paths:
        for r in rows(path):
            print(f"| {r['run']} ({f(r['load'], '{:.2f}')}) | {r['program']} | {r['stealing']} | {r['window']} | {r['p']} | {f(r['ts'])} | {f(r['tp'])} ({f(r['sd'])}; {f(r['lo'])}–{f(r['hi'])}) | "
                  f"{f(r['S'], '{:.2f}')} | {f(r['infl'], '{:.2f}')} | {f(r['idle'], '{:.2f}')} | {f(r['fp'])} | {f(r['ip'])} | "
                  f"{f(None if r['overhead'] is None else r['overhead'] * 1000, '{:.3f}')} | {f(r['waiting'])} | {f(r['steals'], '{:.0f}')} ({f(r['local'], '{:.0f}')}/{f(r['remote'], '{:.0f}')}) |")

def aggregate(paths, max_cv):
    groups = OrderedDict()
    for path in paths:
        for r in rows(path):
            if max_cv is not None and r["sd"] / r["tp"] > max_cv:
                continue
            groups.setdefault((r["program"], r["stealing"], r["window"], r["p"]), []).append(r)
    print("| program | stealing | window m | P | invocations | fastest T_P | S mean (min–max) | infl.-sp. | idle-sp. | F_P (s) | I_P (s) | overhead (ms) | waiting (s) | steals (local/remote) |")
    print("|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|")
    for (program, stealing, window, p), rs in sorted(groups.items()):
        mean = lambda k: None if any(r[k] is None for r in rs) else st.mean(r[k] for r in rs)
        ov = mean("overhead")
        print(f"| {program} | {stealing} | {window} | {p} | {len(rs)} | {f(min(r['lo'] for r in rs))} | {f(mean('S'), '{:.2f}')} ({f(min(r['S'] for r in rs), '{:.2f}')}–{f(max(r['S'] for r in rs), '{:.2f}')}) | "
              f"{f(mean('infl'), '{:.2f}')} | {f(mean('idle'), '{:.2f}')} | {f(mean('fp'))} | {f(mean('ip'))} | {f(None if ov is None else ov * 1000, '{:.3f}')} | "
              f"{f(mean('waiting'))} | {f(mean('steals'), '{:.0f}')} ({f(mean('local'), '{:.0f}')}/{f(mean('remote'), '{:.0f}')}) |")

if __name__ == "__main__":
    if sys.argv[1:2] == ["aggregate"]:
        args = sys.argv[2:]
        limit = None
        if args[:1] == ["--max-cv"]:
            limit, args = float(args[1]), args[2:]
        aggregate(args, limit)
    else:
        per_run(sys.argv[1:])
