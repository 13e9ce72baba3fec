#!/usr/bin/env bash
# Issue 18's performance targets, for a quiet machine (about 12 minutes in all). Run from the repository root.
set -euo pipefail
dotnet build -c Release benchmarks/DivCon.Benchmarks
# Decision time, 1024 cores x 256 programs, every policy (about 6 min): Repartitioner.Decide, ratios to scalability.
dotnet run -c Release --no-build --project benchmarks/DivCon.Benchmarks -- --filter '*PartitioningBenchmarks*' --job short --inProcess
# Move and recall latency against a parked worker's wake-up, interleaved rounds (about 1 min).
dotnet run -c Release --no-build --project benchmarks/DivCon.Benchmarks -- hand-over-latency --rounds 200
# Idle cost, 4 cases of 8 s settling + 60 s each (about 4.5 min).
dotnet run -c Release --no-build --project benchmarks/DivCon.Benchmarks -- idle-cost --seconds 60
