#!/usr/bin/env bash
# Issue 20's open-workload target (README "An open workload"): the default DivCon policy's (work-conserving) p99 slowdown
# of short jobs against tpl-default's, with the requests' and reports' loops written with Parallel.For / ForEach and with
# DivCon's chunked loops. Run on a quiet machine from the repository root. About 5 minutes in all (2.5 each).
set -euo pipefail
dotnet build -c Release tools/DivCon.Cli > /dev/null
dotnet run -c Release --no-build --project tools/DivCon.Cli -- open --repeat 5 --out docs/results/open
dotnet run -c Release --no-build --project tools/DivCon.Cli -- open --repeat 5 --loops chunked --out docs/results/open-chunked

# What the worst requests ran beside (README): the top 1 % of requests by slowdown and the jobs they overlapped.
python3 docs/results/open/overlap.py docs/results/open/open.json
