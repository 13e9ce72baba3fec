#!/usr/bin/env bash
# The simulator's calibration and validation against measurements (issue 19), for a quiet machine: nothing else
# running on its cores (check `uptime`: load average well below the core count). About 12 minutes on 2 cores:
#   1. calibrate (~2 min): phase profiles (5 programs × 6 runs, one task at a time), then T_s, T_elision, T_1 … T_N
#      of each program and of the work-inflation microbenchmark (1 warm-up + 5 rounds); writes the shipped models
#      and machine.json.
#   2. validate (~9 min): fresh measurements (each program alone at P = 1 … N, 1 + 5 rounds ≈ 1 min; the cyclic test
#      of the 3-program subset and of the 5-program suite with the 7 schemes both sides have, 30 s each ≈ 8 min) and
#      the simulator on the same configuration; validate.md is the table for docs/simulation.md and README.
#   3. thesis (seconds): the twelve stated speedups against the recalibrated models at thesis size.
# Then commit src/DivCon.Simulation/Models and docs/results/simulation, and copy the tables into the docs.
set -euo pipefail
cd "$(dirname "$0")/../../.."
divcon() { dotnet run -c Release --project tools/DivCon.Cli --no-build -- "$@"; }
dotnet build tools/DivCon.Cli -c Release
uptime
divcon simulate calibrate --size medium --runs 5 --factored-runs 5 --out src/DivCon.Simulation/Models
divcon simulate validate --size medium --runs 5 --duration 30s --models src/DivCon.Simulation/Models --out docs/results/simulation/validate
divcon simulate thesis --models src/DivCon.Simulation/Models --out docs/results/simulation/thesis
uptime
