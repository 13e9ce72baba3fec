#!/usr/bin/env bash
# What the starved-program trigger (MultiProgramSchedulerOptions.RepartitionWhenStarved) costs busy programs: README,
# "A program with queued tasks and no worker gets one at once". Run from the repository root, on a quiet machine for
# figures to quote. 6.5 minutes at 100 ms and 3 at 5 ms at a load average of 16 to 28 on 2 cores (2026-11-24), less on a
# quiet machine.
# Usage: docs/results/starved-trigger-cost/run.sh [suffix]   (writes starved-trigger-cost[-suffix].txt and ...-5ms[-suffix].txt)
set -euo pipefail
out=docs/results/starved-trigger-cost
suffix=${1:+-$1}
dotnet build -c Release benchmarks/DivCon.Benchmarks > /dev/null

run() { # run FILE OPTIONS...: the benchmark's output with the commit, the date and the machine's load before and after
  local file=$1
  shift
  {
    echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src benchmarks samples || echo ' (with local changes)'), $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "uptime before: $(uptime)"
    echo "command: dotnet run -c Release --no-build --project benchmarks/DivCon.Benchmarks -- starved-trigger-cost $*"
    dotnet run -c Release --no-build --project benchmarks/DivCon.Benchmarks -- starved-trigger-cost "$@"
    echo "uptime after: $(uptime)"
  } | tee "$file"
}

# The default options: 100 ms interval (~4 min).
run "$out/starved-trigger-cost$suffix.txt" --rounds 8
# A 5 ms interval, as in the probe that found the ticks stopping (commit 512a92c) (~4 min).
run "$out/starved-trigger-cost-5ms$suffix.txt" --rounds 8 --interval-ms 5
