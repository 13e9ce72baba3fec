#!/usr/bin/env bash
# Issue 20's online-scalability targets (docs/online-scalability.md, "What the targets need").
#   1. 2 cores, real threads (needs a quiet machine, about 4-5 min): each program's online estimate at the end of the
#      phase beside its measured scalability (T_seq / C^SP), both from the same invocation.
#   2. 64 simulated cores (deterministic, any machine, about 1.5 min): cyclic ANTT with the online estimates against
#      ANTT with the model's scalabilities.
#   3. `run.sh corun` only (needs a quiet machine, about 2 min): sum of squares' and Strassen's run times on one core
#      alone, on two cores alone and on one core beside each program (corun.cs): what the estimator's one-core baseline
#      is, against the measured scalability's.
#   4. `run.sh reference` only (needs a quiet machine, about 2 min): sum of squares' and Strassen's C^SP windows (30
#      runs alone) with unpinned workers (oversubscribed-free, what `cyclic` uses) and with pinned ones
#      (oversubscribed-pinned, as the online estimate's two-core ticks run): which reference is steady.
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=docs/results/online-scalability
programs=sumofsquares,montecarlopi,strassen,quicksort,mergesort
dotnet build -c Release tools/DivCon.Cli >/dev/null
divcon() { dotnet tools/DivCon.Cli/bin/Release/net10.0/DivCon.Cli.dll "$@"; }

if [ "${1:-all}" = "corun" ]; then
  dotnet run -c Release docs/results/online-scalability/corun.cs -- sumofsquares,strassen 5
  exit 0
fi

if [ "${1:-all}" = "reference" ]; then
  for scheme in oversubscribed-free oversubscribed-pinned; do
    divcon cyclic --programs sumofsquares,strassen --schemes static-partitioned --duration 2s --sp-runs 30 \
      --sp-scheme "$scheme" --plots none --out "$out/reference-$scheme" | grep -E '^(C\^SP|Scalability used)'
  done
  exit 0
fi

if [ "${1:-all}" != "sim" ]; then
  divcon cyclic --programs "$programs" --schemes static-partitioned,hill-climbing --duration 90s --sp-runs 10 \
    --scalability online --plots none --out "$out/cyclic-2cores-online"
fi

if [ "${1:-all}" != "cyclic" ]; then
  for source in model online; do
    divcon simulate --cores 64 --programs "$programs" \
      --schemes static-partitioned,dynamic-partitioned,hill-climbing,work-conserving \
      --duration 120s --scalability "$source" --out "$out/sim64-$source"
  done
fi
