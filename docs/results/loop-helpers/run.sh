#!/usr/bin/env bash
# Issue 20, item 0 and the three-job target: the figures for README "Guarantees" (loop helpers, starved programs).
# Run on a quiet machine from the repository root. About 5.5 minutes in all.
set -euo pipefail
out=docs/results/loop-helpers
dotnet build -c Release benchmarks/DivCon.Benchmarks > /dev/null
dotnet build -c Release samples/JobServer > /dev/null

# Move latency out of a running loop, plain Parallel.For against DivCon's chunked loops, interleaved rounds (~2 min).
dotnet run -c Release --no-build --project benchmarks/DivCon.Benchmarks -- loop-move-latency --rounds 30 | tee "$out/loop-move-latency.txt"

# The three-job scenario at 20 ms and 100 ms intervals, with the loop helpers and with plain Parallel.For (~1 min each).
# --trace: the samples of the longest stretch a program was short of its cores (short-of-cores.md says how to read them).
dotnet run -c Release --no-build --project samples/JobServer -- 200 --three-jobs --trace | tee "$out/three-jobs.txt"
dotnet run -c Release --no-build --project samples/JobServer -- 200 --three-jobs --plain | tee "$out/three-jobs-plain.txt"

# The same scenario with short jobs first switched off (MultiProgramSchedulerOptions.NewcomerQuantum = 0, ~1.5 min): the
# default policy's equal shares alone, as measured before short jobs first existed.
dotnet run -c Release --no-build --project samples/JobServer -- 200 --three-jobs --newcomer-quantum 0 | tee "$out/three-jobs-no-newcomer.txt"
