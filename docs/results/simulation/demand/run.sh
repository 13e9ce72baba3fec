#!/usr/bin/env bash
# demand-partitioned against periodic task availability (docs/simulation.md, "Why demand-partitioned loses to
# periodic task availability on the suite"): both workloads (suite and subset) at 16 and 64 cores, 30 s simulated.
# Deterministic: any machine, loaded or not, writes the same files. About 10 s after the build.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
dotnet build tools/DivCon.Cli -c Release
dotnet run -c Release --project tools/DivCon.Cli --no-build -- simulate --cores 16 64 --duration 30s \
  --schemes dynamic-partitioned,demand-partitioned --out docs/results/simulation/demand
