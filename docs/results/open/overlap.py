#!/usr/bin/env python3
"""For each scheme of a `divcon open` result (open.json): the requests in the top 1 % of slowdown in each repetition,
their mean slowdown, and how many other jobs were running on average (time-weighted) while they ran; and the same
average over all requests. Usage: python3 docs/results/open/overlap.py docs/results/open/open.json"""
import json
import statistics
import sys

result = json.load(open(sys.argv[1]))
alone = {c["name"]: c["aloneMs"] for c in result["classes"]}
for scheme in result["schemes"]:
    top, every = [], []
    for rep in result["repetitions"]:
        run = next(r for r in rep["runs"] if r["scheme"] == scheme)
        jobs = [(a["atSeconds"] * 1000, a["atSeconds"] * 1000 + t, a["class"]) for a, t in zip(rep["arrivals"], run["turnaroundMs"])]

        def others(i):
            s0, e0, _ = jobs[i]
            return sum(max(0.0, min(e0, e1) - max(s0, s1)) for m, (s1, e1, _) in enumerate(jobs) if m != i) / (e0 - s0)

        requests = sorted(((e - s) / alone["request"], i) for i, (s, e, c) in enumerate(jobs) if c == "request")
        k = max(1, len(requests) // 100)
        top += [(slowdown, others(i)) for slowdown, i in requests[-k:]]
        every += [others(i) for _, i in requests]
    print(f"{scheme:20s} top 1 % of requests: slowdown {statistics.mean(t[0] for t in top):.2f}, "
          f"other jobs running {statistics.mean(t[1] for t in top):.2f}; all requests: {statistics.mean(every):.2f}")
